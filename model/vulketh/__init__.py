"""Rise of Tribes: The Vul'Keth Invasion, the solo Invader (seed ``003_a0498fd92e3f4dbf.txt``).

Where each rulebook section lives:

* Setup, How to Play (turns, winning): :mod:`model.vulketh.game` (``_setup``, ``_round``,
  ``_check``); the nine hexes and number tokens: :mod:`model.vulketh.hexmap`;
* the action board (research notes §1.2): :mod:`model.vulketh.action_board`;
* Player Turn (scripted; the base game's turn is not in the seeds): :mod:`model.vulketh.game`
  (``_roll`` ... ``_seize``);
* Invader Turn Steps 1-4: :mod:`model.vulketh.game` (``_check_goal``, ``_draw_card``,
  ``_card_action``, ``_summon``); the Invader Action cards and Invader Events:
  :mod:`model.vulketh.cards`, goals and effects :mod:`model.vulketh.effects`;
* Invader Actions GROW, MOVE (where the pieces go) and Summoning a Warlord (where it goes):
  :mod:`model.vulketh.invader_actions`;
* Warlord Powers: :mod:`model.vulketh.game` (``_power``, ``_convert``, ``_spread``);
* conflict (pluggable): :mod:`model.vulketh.conflict`;
* The Vul'Keth Tribe (Seize, Pillage): :mod:`model.vulketh.game` (``_seize``, ``_pillage``);
* data with provenance: :mod:`model.vulketh.data` (``data/vulketh.json``);
* open points: :mod:`model.vulketh.rulings`; scenario files: :mod:`model.vulketh.scenario`;
  runs and traces: :mod:`model.vulketh.simulate`; pictures: :mod:`model.vulketh.render`.
"""

from model.vulketh import rulings as _rulings  # registers the VK-* rulings

del _rulings
