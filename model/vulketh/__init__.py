"""Rise of Tribes: The Vul'Keth Invasion, the solo Invader (seed ``003_a0498fd92e3f4dbf.txt``).

Where each rulebook section lives:

* Setup, How to Play (turns, winning): :mod:`invasion_oracle.model.vulketh.game` (``_setup``, ``_round``,
  ``_check``); the nine hexes and number tokens: :mod:`invasion_oracle.model.vulketh.hexmap`;
* the action board (research notes §1.2): :mod:`invasion_oracle.model.vulketh.action_board`;
* Player Turn (scripted; the base game's turn is not in the seeds): :mod:`invasion_oracle.model.vulketh.game`
  (``_roll`` ... ``_seize``);
* Invader Turn Steps 1-4: :mod:`invasion_oracle.model.vulketh.game` (``_check_goal``, ``_draw_card``,
  ``_card_action``, ``_summon``); the Invader Action cards and Invader Events:
  :mod:`invasion_oracle.model.vulketh.cards`, goals and effects :mod:`invasion_oracle.model.vulketh.effects`;
* Invader Actions GROW, MOVE (where the pieces go) and Summoning a Warlord (where it goes):
  :mod:`invasion_oracle.model.vulketh.invader_actions`;
* Warlord Powers: :mod:`invasion_oracle.model.vulketh.game` (``_power``, ``_convert``, ``_spread``);
* conflict (pluggable): :mod:`invasion_oracle.model.vulketh.conflict`;
* The Vul'Keth Tribe (Seize, Pillage): :mod:`invasion_oracle.model.vulketh.game` (``_seize``, ``_pillage``);
* data with provenance: :mod:`invasion_oracle.model.vulketh.data` (``data/vulketh.json``);
* open points: :mod:`invasion_oracle.model.vulketh.rulings`; scenario files: :mod:`invasion_oracle.model.vulketh.scenario`;
  runs and traces: :mod:`invasion_oracle.model.vulketh.simulate`; pictures: :mod:`invasion_oracle.model.vulketh.render`.
"""

from invasion_oracle.model.vulketh import rulings as _rulings  # registers the VK-* rulings

del _rulings
