"""The Cloudspire rulings: every point the 20 Strong: Cloudspire Rulebook leaves open, with its readings.

Ids start with ``CS-``. Citations name the rulebook by its title and the section heading (never our source files). The first seven
are the open points players list outside the rulebook; the rest were found while building the oracle.
Each has a witness scenario in ``examples/cloudspire/rulings/<ID>.json`` on which its readings
give different outcomes. ``docs/cloudspire.md`` lists them.
"""

from __future__ import annotations

from invasion_oracle.model.core.rulings import REGISTRY, Reading, Ruling

RULEBOOK = "20 Strong: Cloudspire Rulebook"
GAME = "cloudspire"


def _ruling(
    rid: str, section: str, question: str, readings: list[tuple[str, str]], default: str, why: str
) -> Ruling:
    return Ruling(
        rid, GAME, f"{RULEBOOK}, {section}", question, tuple(Reading(n, m) for n, m in readings), default, why
    )


RULINGS = (
    _ruling(
        "CS-EMPTY-STACK-DAMAGE",
        "Advance Enemies Phase (If Deployment Fails, Suffer Damage); Endgame",
        "Does the hero lose 1 Health for a round without deployment when the Deployment Stack is empty?",
        [
            ("always", "yes: any Advance Enemies phase that deploys nothing costs 1 Health"),
            ("blocked-only", "no: only a deployment blocked by a full top lane costs Health"),
        ],
        "always",
        "The literal text: the phase costs 1 Health whenever no new enemy was deployed; it names no exception for an empty stack.",
    ),
    _ruling(
        "CS-APPLIED-DIE",
        "Spires Fire Phase; Exhaust Dice Step",
        "When a loaded hit is applied to an enemy, does the die leave its blueprint?",
        [
            ("moves", "yes: it moves onto the enemy and the blueprint is free again"),
            (
                "stays",
                "no: it stays on its blueprint (occupying it) while it counts as applied to the enemy",
            ),
        ],
        "moves",
        "Dice 'applied to enemies' and dice 'loaded onto your spires' are listed separately in the Exhaust Dice step, so an applied die is on the enemy.",
    ),
    _ruling(
        "CS-LOAD-SOURCE",
        "Apply Dice Step",
        "The Apply Dice step loads 'the dice in your dice pool': which dice can be loaded?",
        [
            ("rolled", "only committed dice, once rolled, with the face they show"),
            (
                "pool-as-miss",
                "also uncommitted pool dice, unrolled, loaded onto spire blueprints as misses",
            ),
        ],
        "rolled",
        "Loading is a step after Commit and Roll; a die's face only exists once rolled (sources outside the rulebook).",
    ),
    _ruling(
        "CS-INVENTORY-ACTIVE",
        "Spires and Inventory; Mini-Heroes",
        "Do active spires (in spire spaces) count against the inventory limit?",
        [
            ("inventory-only", "no: only item and spire cards in the inventory count"),
            ("active-count", "yes: active spires count as well"),
        ],
        "inventory-only",
        "Placing a spire takes it out of the inventory into the play area; the limit is on the inventory (sources outside the rulebook).",
    ),
    _ruling(
        "CS-REVEAL-SAME-PHASE",
        "Enemy Stacks; Spires Fire Phase",
        "When a stack's top enemy is defeated during Spires Fire, can later hits of that phase be applied to the revealed enemy?",
        [
            ("same-phase", "yes: the revealed enemy is active at once and can take dice"),
            ("next-phase", "no: it takes no dice until the next Spires Fire phase"),
        ],
        "same-phase",
        "The revealed enemy activates on the same space when the top one is defeated, and active enemies can have dice applied (sources outside the rulebook).",
    ),
    _ruling(
        "CS-ROLLS",
        "Commit Dice & Roll Dice Steps (resolved as normal); sources outside the rulebook",
        "How many rolls does an Engagement allow?",
        [
            ("strategy-plus-one", "a first roll plus as many rerolls as the Strategy stat"),
            ("strategy", "as many rolls in all as the Strategy stat"),
            ("one", "a single roll: rerolls are not used"),
        ],
        "strategy-plus-one",
        "The core blurb says Strategy controls how many rerolls you have; a reroll follows a first roll.",
    ),
    _ruling(
        "CS-DEPLOYMENT-MAKEUP",
        "Setup step 4 (Create the Deployment Stack, blank in the rulebook); Winning & Losing; More Adversity",
        "Which cards make up the Deployment Stack at setup?",
        [
            (
                "boss-faction",
                "the boss's faction: its five conflict cards, enemy side up, and its mini-boss, shuffled",
            ),
            ("boss-faction-no-mini", "the boss's faction's five conflict cards only"),
            (
                "all-enemy-factions",
                "the conflict cards of every faction that is not allied (30 cards), shuffled",
            ),
        ],
        "boss-faction",
        "More Adversity adds 'additional' mini-bosses 'but not their conflict cards', which reads as if the normal stack holds a mini-boss with its conflict cards; the boss's faction is the natural one.",
    ),
    _ruling(
        "CS-BOSS-TIMING",
        "Endgame",
        "'After the last enemy has activated from the Deployment Stack': when is the boss added if the last cards went under an enemy stack?",
        [
            ("stack-empty", "as soon as the Deployment Stack is empty after a deployment"),
            (
                "last-activated",
                "only once every card taken from the stack has activated (cards hidden in enemy stacks included)",
            ),
        ],
        "stack-empty",
        "Cards placed under an enemy have been deployed from the stack; the stack has no more enemies to activate.",
    ),
    _ruling(
        "CS-REVEAL-ACTIVATION",
        "Enemy Stacks (Additional Enemy Icons; Enemy Stacks); Advance Enemies Phase (Activation Effects Trigger Now)",
        "Does a revealed enemy's activation effect trigger when it activates after the card above it is defeated?",
        [
            ("triggers", "yes: it activates for the first time then, so its activation effect triggers"),
            ("ignored", "no: effects of enemies added under others stay ignored"),
        ],
        "triggers",
        "The rulebook ignores only its additional enemy icons on reveal, and activation effects trigger on an enemy's first activation.",
    ),
    _ruling(
        "CS-AFTER-DEFEATED",
        "After Effects Step",
        "Do enemies defeated this round resolve their after effects?",
        [
            ("undefeated-only", "no: only enemies still in play resolve after effects"),
            ("all-engaged", "yes: enemies defeated earlier this round resolve theirs too"),
        ],
        "undefeated-only",
        "A defeated enemy is out of play; one fan simulator applies them anyway (sources outside the rulebook, low confidence).",
    ),
    _ruling(
        "CS-SWITCH-FROM-HERO",
        "Suffer Damage Step",
        "Once an enemy deals damage to the hero, may its remaining damage switch to another target?",
        [
            ("sticky", "no: switching is allowed after a loaded miss is removed, so the hero takes the rest"),
            ("free", "yes: every point of damage may pick any eligible target"),
        ],
        "sticky",
        "The rulebook names one moment a target may switch (after a loaded miss is exhausted); a defeated spire forces a switch; nothing allows leaving the hero.",
    ),
    _ruling(
        "CS-SPIRE-ADJACENCY",
        "Using Spires",
        "Spires are adjacent 'if next to each other (with no empty spire spaces in between)': are the two ends of a full column adjacent?",
        [
            ("neighbours", "no: only spires in neighbouring spaces of a column are adjacent"),
            ("column-run", "yes: spires joined through occupied spaces of a column are all adjacent"),
        ],
        "neighbours",
        "'Next to each other' names neighbours; the parenthesis says an empty space breaks adjacency.",
    ),
    _ruling(
        "CS-BOSS-GLOBAL",
        "Hero / Boss Cards, Boss Side (Global Effect)",
        "When is the boss's global effect in force?",
        [
            ("from-setup", "from setup on, for the whole game"),
            ("once-deployed", "only once the boss is in a lane"),
        ],
        "from-setup",
        "A global effect is printed apart from the boss's effect; 'global' suggests it shapes the whole game.",
    ),
)

REGISTRY.register(*RULINGS)
