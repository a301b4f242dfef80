"""The race's question in one sentence (``--help`` reads it without importing the solvers)."""

QUESTION = (
    "fewest: the fewest Invader turns to the fifth Warlord over every card draw and every choice of "
    "the player (dice placements, Warlord tokens, and Pillage taken or declined), the Invader's best "
    "case; furthest: for the player's best plan fixed in advance (dice placements and, under "
    "VK-POWER-UNLOCK=by-section, the token order; Pillage declined), the fewest Invader turns the "
    "luckiest draws still need"
)
