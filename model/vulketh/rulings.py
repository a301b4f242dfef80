"""The Vul'Keth rulings: every point of the solo Invader rules the sources leave open.

Ids start with ``VK-``. Citations name the rulebook by its title and the section heading (never our source files). ``invasion rulings --game vulketh`` prints
them; ``docs/vulketh.md`` explains each with its witness scenario
(``examples/vulketh/rulings/<ID>.json``), on which the readings give different outcomes.
"""

from __future__ import annotations

from invasion_oracle.model.core.rulings import REGISTRY, Reading, Ruling

RULEBOOK = "Rise of Tribes: The Vul'Keth Invasion Rulebook"
GAME = "vulketh"


def _ruling(
    rid: str, citation: str, question: str, readings: list[tuple[str, str]], default: str, why: str
) -> Ruling:
    return Ruling(rid, GAME, citation, question, tuple(Reading(n, m) for n, m in readings), default, why)


RULINGS = (
    _ruling(
        "VK-MOVE-DEST",
        f"{RULEBOOK}, Invader Actions: MOVE; Invader Turn Example",
        "Which adjacent hex is 'the next lowest (highest) adjacent hex' a MOVE goes to?",
        [
            (
                "beyond-source",
                "a neighbour numbered beyond the source in the direction of travel (above it for lowest), nearest first",
            ),
            (
                "unused",
                "any neighbour no Invader has moved out of during this MOVE, in the direction's order (lowest-numbered first for lowest)",
            ),
        ],
        "beyond-source",
        "Both fit the worked example (from hex 2 the Invaders skip hex 1, which has room, and go to 4); 'next lowest' reads as the next number up from the source.",
    ),
    _ruling(
        "VK-MOVE-HIGHEST",
        f"{RULEBOOK}, Invader Actions: MOVE",
        "What does a MOVE marked 'highest' mirror?",
        [
            (
                "mirror",
                "the exact mirror of lowest: sources from the highest-numbered down, destinations the nearest neighbour numbered below the source first",
            ),
            (
                "highest-first",
                "sources from the highest-numbered down, destinations chosen highest-numbered first in the same direction as lowest (upward under beyond-source)",
            ),
        ],
        "mirror",
        "The rulebook writes every action as '(lowest/highest)', which reads as one rule with the order reversed.",
    ),
    _ruling(
        "VK-GROW-OVERFLOW",
        f"{RULEBOOK}, Invader Actions: GROW",
        "Where do Invaders go when the GROW hex reaches five, and what is lost when every candidate is full?",
        [
            (
                "occupied",
                "only to the next hexes holding Invaders or a Warlord, in order; what does not fit is not placed (it stays in the supply)",
            ),
            (
                "occupied-then-any",
                "to the next occupied hexes first; when all of them are full, on to the empty hexes in the same order; lost only when no hex has room",
            ),
            (
                "next-hex",
                "to the next hex by number after the full one, occupied or not; lost when no hex from the starting one on has room",
            ),
        ],
        "occupied",
        "The rulebook makes Warlord hexes 'available' for GROW, which only matters if GROW targets occupied hexes; nothing says to enter empty hexes.",
    ),
    _ruling(
        "VK-POWER-UNLOCK",
        f"{RULEBOOK}, Setup (placing the first Warlord 'unlocks the first Warlord Power'); Invader Actions: LEAD",
        "Which Warlord powers are unlocked?",
        [
            ("by-count", "with k Warlords on the map, the first k powers from the top of the Warlord Board"),
            (
                "by-section",
                "the power of each section whose token has left the board, so the player's choice of token matters",
            ),
        ],
        "by-section",
        "Setup has the player choose which token goes to the map, and Summoning a Warlord has the player choose "
        "the token again: both choices would change nothing if powers unlocked from the top by count, and the "
        "fifth Warlord ends the game, so the bottom power (War: conflict in every shared hex) could never run. "
        "Read as each token uncovering its own section's power, every choice and every power matters; Setup's "
        "'the first Warlord Power' is the first one unlocked.",
    ),
    _ruling(
        "VK-CONVERT-RESERVE",
        f"{RULEBOOK}, Warlord Powers: Convert ('Pull from the Overrun Invaders if needed'); Setup (the -1 VP spaces)",
        "Does an overrun Invader pulled by Convert cost the player a point, as it does for GROW?",
        [
            ("costs-points", "yes: each reserve Invader used moves the player's score back one"),
            ("free", "no: only GROW charges a point for the reserve"),
        ],
        "costs-points",
        "The reserve sits on the -1 VP spaces of the Warlord Track, so taking one uncovers the penalty whatever takes it.",
    ),
    _ruling(
        "VK-CONVERT-EMPTY",
        f"{RULEBOOK}, Warlord Powers: Convert",
        "When Convert needs an Invader and both the supply and the overrun reserve are empty, what happens to the player's member?",
        [
            ("member-stays", "nothing: without an Invader to swap in, no conversion happens"),
            ("member-removed", "the player's member is removed anyway; no Invader appears"),
        ],
        "member-stays",
        "A conversion swaps a member for an Invader; with no Invader the swap cannot be made.",
    ),
    _ruling(
        "VK-CONVERT-CAP",
        f"{RULEBOOK}, Invader Actions: GROW ('Do not exceed 5 Invader Tribe Members in a Hex'); Warlord Powers: Convert",
        "May Convert put a sixth Invader into a hex?",
        [
            ("skip", "no: in a hex already holding five Invaders no member is converted"),
            ("exceed", "yes: the five-Invader cap is stated for GROW and MOVE only"),
        ],
        "skip",
        "'Do not exceed 5 Invader Tribe Members in a Hex' is phrased as a general limit of the Invaders.",
    ),
    _ruling(
        "VK-SPREAD-WARLORD",
        f"{RULEBOOK}, Warlord Powers: 'In Any Hex Tile Without Invaders, Add One…'; Summoning a Warlord (Warlord hexes count as occupied 'for the purposes of the GROW action')",
        "For the Spread power, does a hex holding only a Warlord count as a hex with Invaders?",
        [
            (
                "members-only",
                "no: only Invader tribe members count; a Warlord-only hex gets one and does not spread",
            ),
            ("warlord-counts", "yes: a Warlord hex counts as having Invaders, so it spreads and gets none"),
        ],
        "members-only",
        "The rulebook grants Warlord hexes Invader occupancy explicitly for GROW only.",
    ),
    _ruling(
        "VK-SCORE-FLOOR",
        f"{RULEBOOK}, Invader Actions: GROW (moving the score back)",
        "Can the player's score go below zero?",
        [
            ("zero", "no: the score stops at 0"),
            ("negative", "yes: the track goes below 0 and must be earned back"),
        ],
        "zero",
        "The score marker starts on the track's 0 space and the track has no negative spaces.",
    ),
    _ruling(
        "VK-CONFLICT",
        f"{RULEBOOK}, Player Turn ('exactly the same as in the multiplayer game') (the base game's conflict is not in the sources)",
        "How is a conflict in a hex resolved?",
        [
            (
                "smallest-loses",
                "every tribe in the hex loses as many members as the smallest tribe there has (ties wipe out all the tied tribes)",
            ),
            ("until-one-remains", "repeat smallest-loses until at most one tribe is left in the hex"),
            ("one-each", "every tribe in the hex loses one member"),
        ],
        "smallest-loses",
        "An assumed default (sources outside the rulebook, low confidence): it lets both sides be wiped out, as Pillage's 'whether you survive or not' requires.",
    ),
    _ruling(
        "VK-APPEASE",
        f"{RULEBOOK}, Summoning a Warlord (Warlords removed only by 'Appease the Volcano'); How to Play (the fifth Warlord wins)",
        "Where does a Warlord removed by 'Appease the Volcano' go, and does it still count toward the fifth?",
        [
            (
                "return-to-board",
                "its token goes back to its Warlord Board section and must be summoned again; five on the map wins",
            ),
            ("out-of-game", "its token leaves the game and still counts as summoned"),
        ],
        "return-to-board",
        "Removing a Warlord is meant to set the Invader back; a token that still counted would make the event nearly empty.",
    ),
    _ruling(
        "VK-WIPEOUT-OVERLAP",
        f"{RULEBOOK}, Invader Turn Example (NOTE: all Invaders removed)",
        "When the Invaders are re-placed after a wipe-out, does a Warlord hex among hexes 1-3 get both its difficulty Invaders and the Warlord's one?",
        [
            ("both", "yes: 1/2/3 by difficulty plus one more for the Warlord"),
            ("once", "no: a hex among 1-3 gets only its difficulty Invaders, Warlord or not"),
        ],
        "both",
        "The note lists the two placements side by side ('as well as'), without an exception.",
    ),
    _ruling(
        "VK-EVENT-TIMING",
        f"{RULEBOOK}, Player Turn ('Rolling doubles will trigger an Invader Event')",
        "When does the Invader Event triggered by the player's doubles resolve?",
        [
            ("after-roll", "at once, before the player takes actions"),
            ("end-of-turn", "after the player's actions, conflicts and building, before the Invader turn"),
        ],
        "after-roll",
        "The base game reveals an event when the doubles are rolled (sources outside the rulebook).",
    ),
)

REGISTRY.register(*RULINGS)
