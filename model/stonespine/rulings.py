"""The Stonespine Invasion rulings: every point the Stonespine Architects: Invasion Rulebook leaves open, with its readings.

Ids start with ``SS-``. Citations name the rulebook by its title and the section heading (never our source files). ``docs/stonespine.md``
lists them with their readings; ``invasion rulings --game stonespine`` prints them.
"""

from __future__ import annotations

from invasion_oracle.model.core.rulings import REGISTRY, Reading, Ruling

RULEBOOK = "Stonespine Architects: Invasion Rulebook"
GAME = "stonespine"


def _ruling(
    rid: str, section: str, question: str, readings: list[tuple[str, str]], default: str, why: str
) -> Ruling:
    return Ruling(
        rid,
        GAME,
        f"{RULEBOOK}, {section}",
        question,
        tuple(Reading(n, m) for n, m in readings),
        default,
        why,
    )


RULINGS = (
    _ruling(
        "SS-EXIT-Y13",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "In years 1-3, does a hero that survives entering the chamber connected to the dungeon exit escape?",
        [
            ("forced", "yes: it escapes at once, even if new chambers are open to it"),
            ("ignored", "no: the exit is ignored as in year 4; it escapes only when it cannot move"),
        ],
        "forced",
        "The year-4 sentence is an exception, so years 1-3 must differ; an optional exit would never be taken because the player routes the hero.",
    ),
    _ruling(
        "SS-EXIT-CHAMBER",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "Which chamber is 'connected to the dungeon exit' while fewer than four rows are built?",
        [
            (
                "bottom-opening",
                "the lowest built row's chamber in the exit column, only if its bottom edge is open",
            ),
            ("any-card", "the lowest built row's chamber in the exit column, whatever its bottom edge shows"),
        ],
        "bottom-opening",
        "'Connected' elsewhere means open facing edges; the exit doorway sits below the lowest built row.",
    ),
    _ruling(
        "SS-EXIT-DEFEATED",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "In years 1-3, does a hero passing through the exit chamber that already holds a defeated hero escape?",
        [
            ("escapes", "yes: ignoring a chamber's contents does not stop the hero leaving by the exit"),
            ("no-escape", "no: the hero ignores the whole chamber, exit included, and moves on"),
        ],
        "escapes",
        "The ignore rule lists the guardian, minions, monsters, traps and abilities, not the exit doorway.",
    ),
    _ruling(
        "SS-ENTRY-UNCONNECTED",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "What happens when the row-1 chamber under the entrance has no opening on its top edge?",
        [
            (
                "escape",
                "the hero cannot enter a chamber, so it escapes at once (it counts as entered for XP)",
            ),
            ("enter-anyway", "the hero enters that chamber anyway"),
        ],
        "escape",
        "The rules say the hero enters the first chamber connected to the entrance; with none connected it cannot enter a new chamber, which is the escape condition.",
    ),
    _ruling(
        "SS-PASSAGE",
        "II. Improvement Phase (Buy a Secret Passage) and Clarifications",
        "Does a secret passage token open only its own card's edge, or bridge two cards?",
        [
            ("edge", "it opens its own card's edge; a connection still needs the facing edge open"),
            ("bridge", "it connects the two cards whatever the facing edge shows"),
        ],
        "edge",
        "The base game's digital model treats a passage as an opening on one card's edge (sources outside the rulebook, 'Secret passages').",
    ),
    _ruling(
        "SS-DICE-FACES",
        "Components; IV. Invasion Phase, Step 1: Roll Dice",
        "Which heroes do the faces of the white and gray invasion dice show? (not printed in the rulebook)",
        [
            ("two-per-colour", "both dice: two black, two purple and two red faces"),
            (
                "gray-half-blank",
                "white: two faces of each colour; gray: one face of each colour and three blank faces",
            ),
        ],
        "two-per-colour",
        "The level-up roll needs every white face to name a hero colour; nothing is known of the gray die, so the default assumes it is like the white.",
    ),
    _ruling(
        "SS-TROPHY-VALUES",
        "Game Setup; IV. Invasion Phase, Step 5",
        "What reputation is each year's trophy token worth? (only the order is in the rulebook)",
        [("by-two", "2, 4, 6, 8 for years 1-4"), ("by-one", "1, 2, 3, 4 for years 1-4")],
        "by-two",
        "The rulebook stacks trophies lowest first; the values are not given. Override them in a data file when known.",
    ),
    _ruling(
        "SS-DEMERIT-VALUES",
        "IV. Invasion Phase, Step 5; Final Scoring",
        "How much reputation does each year's demerit token cost? (not in the rulebook)",
        [
            ("minus-year", "-1, -2, -3, -4 for years 1-4"),
            ("minus-two-per-year", "-2, -4, -6, -8 for years 1-4"),
        ],
        "minus-year",
        "Demerits are sorted by year, so their value likely grows with the year; the numbers are assumed.",
    ),
    _ruling(
        "SS-SIMULTANEOUS",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "Damage and hero abilities resolve 'simultaneously': do elements a black hero destroys in a chamber still deal damage in that chamber?",
        [
            (
                "entry-snapshot",
                "yes: damage counts the elements present when the hero entered; rubble is placed after",
            ),
            (
                "ability-first",
                "no: the black hero's destruction happens first and the covered elements deal no damage",
            ),
        ],
        "entry-snapshot",
        "Simultaneous resolution means both effects see the same chamber, the one the hero entered.",
    ),
    _ruling(
        "SS-PURPLE-SCOPE",
        "Heroes; Clarifications: Cleric, Crusader, Paladin, Templar",
        "When a purple hero's condition is met, which damage does it not take in that chamber?",
        [
            ("all-damage", "none at all: minions, monsters, traps and guardian-ability damage"),
            ("element-damage", "no damage from elements; minions still deal theirs"),
        ],
        "all-damage",
        "The card type says the hero takes no damage the first time the condition is met.",
    ),
    _ruling(
        "SS-PURPLE-FIRST",
        "Clarifications: Cleric, Crusader, Paladin, Templar",
        "Is a purple hero's protection used up in the first applicable chamber meeting its condition even when that chamber deals no damage?",
        [
            ("used-anyway", "yes: the first applicable chamber meeting the condition uses it"),
            ("only-when-damaged", "no: it is used in the first such chamber that would deal damage"),
        ],
        "used-anyway",
        "The clarification ties the ability to the first applicable chamber entered, not to damage.",
    ),
    _ruling(
        "SS-BLACK-DEFEATED",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "Does a black hero destroy elements in the chamber where it is defeated?",
        [
            ("resolves", "yes: damage and abilities resolve together, so the ability still happens"),
            ("not-if-defeated", "no: a hero defeated on entering does nothing there"),
        ],
        "resolves",
        "The rules resolve damage and abilities simultaneously and only then check defeat.",
    ),
    _ruling(
        "SS-TROPHY-ZERO",
        "IV. Invasion Phase, Step 5: Award Trophy / Demerits",
        "Can a player with no escape and no defeated hero take the trophy?",
        [
            ("allowed", "yes: 'most defeated' includes a tie at zero, broken by priority"),
            ("needs-one", "no: the trophy needs at least one defeated hero"),
        ],
        "allowed",
        "The rule compares counts among players without an escape and names no minimum.",
    ),
    _ruling(
        "SS-RUBBLE-REMOVE",
        "II. Improvement Phase (Remove Rubble); Game Terms: Rubble",
        "When rubble is removed, does the element it covered come back?",
        [("uncover", "yes: the covered element is active again"), ("clear", "no: the space becomes empty")],
        "uncover",
        "Rubble is a token placed over an element; taking it away shows what is under it.",
    ),
    _ruling(
        "SS-HEALTH-TOKENS",
        "IV. Invasion Phase, Step 4: Level Up Heroes",
        "Can a hero card gain more than +2 health from level-up rolls?",
        [
            ("uncapped", "yes: flip a +1 token to +2, otherwise add a new +1 token"),
            ("cap-at-two", "no: a card at +2 gains nothing more"),
        ],
        "uncapped",
        "The rule offers a new token or a flip; nothing forbids a second token on a card.",
    ),
    _ruling(
        "SS-XP-MARKET",
        "II. Improvement Phase (Buy XP)",
        "Do the four- and three-cube spaces go to the first and second purchase, or the first and second player?",
        [
            (
                "per-purchase",
                "the first purchase of the year takes four cubes, the second three, whoever buys",
            ),
            (
                "per-player",
                "the first two different players to buy take four and three; later purchases take two",
            ),
        ],
        "per-purchase",
        "The market spaces empty as cubes are taken; the text names players but the board holds cubes.",
    ),
    _ruling(
        "SS-MINIONS",
        "III. Preparation Phase",
        "Must a player place every unlocked minion?",
        [
            ("all", "yes: every unlocked minion goes into a chamber"),
            ("optional", "no: any of them may stay off the board"),
        ],
        "all",
        "The phase lists placing the unlocked minions as an action players perform.",
    ),
    _ruling(
        "SS-TROLL-MOVE",
        "Guardian Board (Giant Troll ongoing ability)",
        "Must the Giant Troll move after defeating a hero in a rubble chamber?",
        [
            ("must", "yes, to a connected adjacent chamber of the player's choice, if there is one"),
            ("may", "the player may also leave it where it is"),
        ],
        "must",
        "The ability text says the troll moves.",
    ),
    _ruling(
        "SS-HYDRA-COLLAPSE",
        "Clarifications: Molten Hydra, Caustic Hydra",
        "When does a collapsing secret passage collapse? (the hydra boards are not in the rulebook)",
        [
            ("after-crossing", "after the first hero moves through it; it is gone for the rest of the year"),
            ("never", "it stays for the year like a bought secret passage"),
        ],
        "after-crossing",
        "Assumed from the token's name; the rulebook only says collapsing passages count as secret passages.",
    ),
    _ruling(
        "SS-IMPROVEMENT-ORDER",
        "II. Improvement Phase, End of Improvement Phase",
        "Who takes the next Improvement turn?",
        [
            ("richest-first", "the player with the most gold, ties to the higher priority"),
            ("priority-order", "players in priority order, each turn in turn"),
        ],
        "richest-first",
        "The rulebook says to reevaluate who has the most gold after each purchase, as in the base game.",
    ),
    _ruling(
        "SS-GUARDIAN-FIRST",
        "Game Terms: Guardian; Game Terms: Hero; Guardian Board (Giant Troll ongoing ability)",
        "A guardian defeats 'the first hero' to enter its chamber each Invasion phase: does a guardian that moved (the Giant Troll) defeat the first hero to enter its new chamber?",
        [
            ("again", "yes: it defeats the first hero to enter the chamber it now stands in"),
            (
                "once-per-phase",
                "no: each guardian defeats one hero an Invasion phase; later heroes entering its chamber take damage as usual, though their card abilities still do not resolve there",
            ),
        ],
        "again",
        "The Giant Troll's ongoing ability moves it after a defeat, which would change almost nothing if it could not defeat again; 'the first hero' is read per chamber, since later heroes find a defeated hero where it stood.",
    ),
    _ruling(
        "SS-HERO-ABILITY-CHAMBER",
        "IV. Invasion Phase, Step 2: Repel Heroes",
        "Do a hero card's abilities (black destruction, purple protection, red extra damage) resolve in a chamber with no minion, monster or trap?",
        [
            (
                "dangerous-only",
                "no: they resolve only where a minion, monster or trap (an element counting as one included) deals damage",
            ),
            ("any-chamber", "yes: in every chamber without a guardian or a defeated hero"),
        ],
        "dangerous-only",
        "Step 2 lists what happens in a chamber with a defeated hero, with a guardian, and with minions, monsters or traps; only the last case resolves the hero's abilities, so a chamber with none of them resolves nothing.",
    ),
    _ruling(
        "SS-RUBBLE-ELEMENT",
        "Game Terms: Rubble; Guardian Board (BLOW OFF STEAM)",
        "Do abilities that act on 'an element' (BLOW OFF STEAM, a black hero's destruction) also act on rubble and troll rubble?",
        [
            (
                "element",
                "yes: the new token goes on top of the rubble (a black hero only where the rubble matches its ability, such as a trap under DANGEROUS DEBRIS)",
            ),
            ("not-rubble", "no: only elements not already covered by rubble"),
        ],
        "element",
        "Game Terms: Rubble says rubble is considered an element for challenge cards and abilities.",
    ),
    _ruling(
        "SS-PACT-FACE-DOWN",
        "Guardian Board (Pact Demon ongoing ability and FORGE PACT); Clarifications: Hex-Shape Tokens",
        "Does a face-down pact token deal the Pact Demon's +1 damage?",
        [
            ("revealed-only", "no: only a face-up pact token shows the pact and deals it"),
            ("face-down-too", "yes: every pact token deals it, face up or face down"),
        ],
        "revealed-only",
        "FORGE PACT turns a face-down token up, which would do nothing if face-down tokens already dealt the damage; a hex token counts as the item it shows, and a face-down one shows none.",
    ),
    _ruling(
        "SS-PASSAGE-OUTER",
        "II. Improvement Phase (Buy a Secret Passage); IV. Invasion Phase, Step 2: Repel Heroes",
        "Does a secret passage on an outer edge connect: on the top edge of the chamber under the entrance, to the entrance; on the bottom edge of the exit chamber, to the exit?",
        [
            (
                "connects",
                "yes: a passage is an opening like a doorway, so heroes enter (or leave by the exit) through it",
            ),
            ("inner-only", "no: a passage joins two chambers; on an outer edge it counts only for scoring"),
        ],
        "connects",
        "The base game's digital model treats a passage as an opening on its card's edge, like a doorway (sources outside the rulebook, 'Secret passages'), and the entrance and exit doorways lie against those edges.",
    ),
    _ruling(
        "SS-TROLL-RUBBLE-REMOVE",
        "II. Improvement Phase (Remove Rubble); Clarifications: Hex-Shape Tokens",
        "Can the Remove Rubble action remove a troll rubble token?",
        [
            ("removable", "yes: troll rubble is rubble; paying three gold removes it"),
            (
                "rubble-only",
                "no: troll rubble is a guardian token, and the action removes rubble tokens only",
            ),
        ],
        "removable",
        "Troll rubble lies over an element like rubble and its element stops counting (the Leveling Up example covers a negative star); the troll's abilities name rubble and troll rubble together.",
    ),
    _ruling(
        "SS-UNKNOWN-ONGOING",
        "Guardian Board; Leveling Up Guardians (Ongoing Ability)",
        "How is a board played whose ongoing ability is not in the rulebook (Deceitful Demon, Dragon, Gorgon, Sludge, the troll's other side)?",
        [
            (
                "inert",
                "as if the ongoing ability did nothing (`invasion stonespine data --json` marks the ability `unknown`)",
            ),
            (
                "refuse",
                "a run in which the board takes part stops at once: the ability is not modelled; give it in a data file",
            ),
        ],
        "inert",
        "An ongoing ability acts all game at moments its unknown text would say, so it cannot be refused when it acts; refusing the board outright would leave four of six boards unusable. Giving the ability in a data file (its id, such as gorgon-ongoing) replaces this ruling for that board.",
    ),
    _ruling(
        "SS-CHANGED-TYPE-DAMAGE",
        "Guardian Board (DANGEROUS DEBRIS); IV. Invasion Phase, Step 2: Repel Heroes; Clarifications: Giant Troll, Deceitful Demon",
        "When an ability makes an element count as a trap or monster (DANGEROUS DEBRIS: rubble is a trap), does that element deal the trap's or monster's one damage?",
        [
            ("deals-damage", "yes: it is a trap (or monster) and deals one damage like any other"),
            (
                "type-only",
                "no: it only counts as that type for hero abilities, guardian abilities and scoring; its own damage is unchanged",
            ),
        ],
        "deals-damage",
        "Step 2 says traps and monsters deal one damage each, and changed elements are considered both types (Clarifications); DANGEROUS DEBRIS would do almost nothing otherwise.",
    ),
    _ruling(
        "SS-INSTANT-OPTIONAL",
        "Leveling Up Guardians (Instant Ability and its BLOW OFF STEAM example)",
        "Must a player use an instant ability when the level marker reaches its lightning bolt?",
        [
            (
                "must",
                "yes: the action is taken at once on a legal target (if there is none, nothing happens)",
            ),
            ("may", "no: the player may decline each use"),
        ],
        "must",
        "Leveling Up Guardians says to take the action immediately; the example's 'lets him' describes what the action does.",
    ),
)

REGISTRY.register(*RULINGS)
