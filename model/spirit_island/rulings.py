"""The Spirit Island rulings: every point of the Invader Phase the sources leave open.

Ids start with ``SI-``. Citations name the rulebook by its title and the section heading (never our source files). ``invasion rulings --game
spirit-island`` prints them; ``docs/spirit_island.md`` explains each with its tests.
"""

from __future__ import annotations

from invasion_oracle.model.core.rulings import REGISTRY, Reading, Ruling

RULEBOOK = "Spirit Island Rulebook"
GAME = "spirit-island"


def _ruling(
    rid: str, citation: str, question: str, readings: list[tuple[str, str]], default: str, why: str
) -> Ruling:
    return Ruling(rid, GAME, citation, question, tuple(Reading(n, m) for n, m in readings), default, why)


RULINGS = (
    _ruling(
        "SI-ESCALATION-TIMING",
        f"{RULEBOOK}, Invader Phase 3c Explore",
        "When an Explore card with the escalation flag is revealed and an Adversary is in play, does the Escalation effect happen before or after the Invaders explore?",
        [
            ("before-explore", "escalate first, then explore with the card"),
            ("after-explore", "explore first, then escalate (what one public engine does)"),
        ],
        "before-explore",
        "The rulebook says to perform the Escalation effect first; the other reading reproduces a known engine deviation.",
    ),
    _ruling(
        "SI-COASTAL-FLAG",
        f"{RULEBOOK}, Invader Phase 3c Explore (the flag icon; which cards carry it is not in the rulebook)",
        "Does the Stage II 'Coastal Lands' Invader card carry the escalation flag?",
        [
            ("no-flag", "no: only the four single-terrain Stage II cards escalate"),
            ("flag", "yes: all five Stage II cards escalate"),
        ],
        "no-flag",
        "One engine builds the coastal card without the flag; no source says it has one (medium confidence).",
    ),
    _ruling(
        "SI-CASCADE-CHOOSER",
        f"{RULEBOOK}, Invader Phase 3a Ravage (blight sidebar)",
        "Who picks the adjacent land a cascading Blight goes to?",
        [
            ("players", "the players: a 'cascade' decision listing every adjacent land (not the Ocean)"),
            (
                "first-adjacent",
                "no choice: the first adjacent land in island order (lands without Blight first), as engines that auto-pick do",
            ),
        ],
        "players",
        "Nothing in the rules picks for the players; 'Who Decides' gives such choices to the players.",
    ),
    _ruling(
        "SI-LAND-ORDER",
        f"{RULEBOOK}, FAQ Invaders (Invader Actions)",
        "In what order are the lands of one Ravage card resolved?",
        [
            (
                "players-choose",
                "the players choose: a 'land-order' decision before each land while two or more remain",
            ),
            ("board-order", "board order then land number, no decision"),
        ],
        "players-choose",
        "The FAQ lets the players order the lands when it matters; it matters for Ravage (cascades, a flip, fear earned, a win). Build and Explore are order-free: their lands are noted first and one land's action never changes another's.",
    ),
    _ruling(
        "SI-SKIP-SCOPE",
        f"{RULEBOOK}, Invader Phase 3 (an empty or stopped action)",
        "How much does one skip stop: a land skip when two cards hit the land, a card skip when a slot holds two cards?",
        [
            (
                "one-action",
                "one Action: a land skip stops that land's next action of the kind; a card skip stops the oldest card in the slot (a Stage III card is one card, both terrains)",
            ),
            (
                "whole",
                "everything: a land skip stops every action of the kind in that land this phase; a card skip stops every card in the slot",
            ),
        ],
        "one-action",
        "Each land's resolution of each card is its own Invader Action (Jagged Earth formalisation, medium confidence).",
    ),
    _ruling(
        "SI-DOWNGRADE-DAMAGE",
        f"{RULEBOOK}, Upgrade & Downgrade",
        "A downgraded Invader keeps its Damage; when that Damage reaches the new, lower Health, what happens?",
        [
            ("destroyed", "it is destroyed as its new type (a Town destroyed this way gives 1 Fear)"),
            ("removed", "it leaves the board like a removal, with no Fear"),
            ("survives", "its Damage drops to one less than the new Health"),
        ],
        "destroyed",
        "The rulebook (citing the Nature Incarnate rulebook) says the piece may be destroyed immediately; destruction always gives its Fear.",
    ),
    _ruling(
        "SI-BLIGHT-EMPTY",
        f"{RULEBOOK}, Invader Phase 1 Blighted Island",
        "When does the Blight card flip (Healthy side) or the game end (Blighted side)?",
        [
            ("when-empty", "as soon as the last Blight is taken off that side"),
            ("when-needed", "only when a Blight must be taken and that side has none left"),
        ],
        "when-empty",
        "The Blight card pages say to flip when the side has no Blight left and that the players lose if ever none is left; the +1 setup erratum's arithmetic ('usable Blight without a flip' is one less than the pool) agrees.",
    ),
    _ruling(
        "SI-WINNING-FEAR",
        f"{RULEBOOK}, Invader (Destroying Towns and Cities affects the Invaders' morale) and FAQ Towns (When does destroying a Town or City cause Fear?)",
        "When a destruction meets the victory condition (the last Town, City or Invader goes), is that destruction's Fear still generated before the game ends?",
        [
            (
                "generated",
                "yes: the Fear belongs to the same change as the destruction; markers move (a Fear card may be earned) and then the game is won",
            ),
            (
                "not-generated",
                "no: the game is won the moment the condition holds; the Fear is reported as not generated",
            ),
        ],
        "generated",
        "The rulebook ties the Fear to the destruction itself ('whenever a Town is destroyed, it generates 1 Fear'; 'always, regardless of how it's destroyed') and nothing separates the two; the oracle already resolves a change's Fear as one burst right after it.",
    ),
    _ruling(
        "SI-FEAR-EARNED-DURING",
        f"{RULEBOOK}, Invader Phase 2 Fear",
        "A Fear card earned while the Fear step resolves cards (its effect generates Fear): is it resolved in this Fear step or the next Invader Phase's?",
        [
            ("same-phase", "this step: it joins the end of the stack and resolves after the others"),
            (
                "next-phase",
                "the next Invader Phase: the step resolves only the stack picked up when it began",
            ),
        ],
        "same-phase",
        "The rulebook says to pick up the whole facedown stack and resolve it, which can be read as the stack as it was; the FAQ (sources outside the rulebook, querki 'Fear and Fear Cards') says cards earned while resolving go to the bottom and resolve the same phase.",
    ),
    _ruling(
        "SI-HEALTH-FLOOR",
        f"{RULEBOOK}, Tracking Damage",
        "Can Health modifiers take a piece's Health below 1?",
        [
            ("at-least-1", "no: Health never goes below 1"),
            (
                "to-zero",
                "yes, down to 0: a piece whose Health falls to its Damage (0 included) is destroyed, with its Fear",
            ),
        ],
        "at-least-1",
        "The rulebook's Tracking Damage rule (Damage equal to or exceeding Health destroys) would destroy a piece at Health 0; the oracle assumes the floor of 1 that later rulebooks print for Health reductions (not in the rulebook or the sources outside the rulebook: assumed).",
    ),
    _ruling(
        "SI-OVER-ALLOCATION",
        f"{RULEBOOK}, Invaders (Damage and Health) and Invader Phase 3a Ravage (the Dahan fighting back)",
        "When the players spread Damage over several pieces (Dahan fighting back, an effect's Damage), may one piece take more Damage than it needs to be destroyed?",
        [
            (
                "no-excess",
                "no: a piece takes at most its remaining Health; Damage beyond what the pieces can take is lost",
            ),
            (
                "excess-allowed",
                "yes: a piece may take any share, more than destroys it, so all the Damage is dealt and the players may spend it on one piece to spare another",
            ),
        ],
        "no-excess",
        "The rulebook's Invader text destroys a piece whose Damage meets or exceeds its Health and lets the players divide the Damage however they choose, which reads as allowing an excess on one piece; the oracle has always listed only allocations that give no piece more than it needs (its behaviour before the ruling was named), so that is the default.",
    ),
)

REGISTRY.register(*RULINGS)
