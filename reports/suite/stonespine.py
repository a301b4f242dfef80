"""Stonespine's cases: rule by rule (Stonespine Architects: Invasion Rulebook), the worked examples, the rulings, the solvers'
edge cases, hypothesis-shrunk boundaries and seeded playthroughs.

Most cases are single actions: a small dungeon whose first step (the die answer, or a ``move``
after it) sends one hero into one chamber and stops at the next request. Dungeons fork after the
first chamber (``A1`` opens right and down) so that the step ends there: the ``move`` request
that follows shows where the hero stands and with what damage.

Projections: :data:`PROJECTIONS`, each with what it shows (their exact shape: ``docs/fixtures.md``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.stonespine.dungeon import sides_text
from invasion_oracle.model.stonespine.elements import MONSTERS, TRAPS
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.outcome import by_year
from invasion_oracle.reports.suite.casefile import game_suite
from invasion_oracle.reports.suite.common import load, shrunk

GAME = "stonespine"

# -- projections --------------------------------------------------------------------------------


def _heroes(scenario: Any, state: Any, argument: str) -> Any:
    def running(run: Any) -> dict[str, Any] | None:
        if run is None:
            return None
        visited = [c.name for c in run.visited]
        return {"hero": run.color.value, "chamber": run.at.name, "damage": run.damage, "visited": visited}

    def player(p: Any) -> dict[str, Any]:
        defeated = [{"chamber": c.name, "hero": h.value} for c, h in p.defeated]
        fields = ("name", "gate_open", "waiting", "running", "defeated", "escaped")
        return fields_json(p, *fields, running=running(p.running), defeated=defeated)

    return {"players": [player(p) for p in state.players]}


def _dungeon(scenario: Any, state: Any, argument: str) -> Any:
    def chamber_json(chamber: Any) -> dict[str, Any]:
        sides = {"passages": chamber.passages, "collapsing": chamber.collapsing}
        written = {key: sides_text(value) for key, value in sides.items() if value}  # those it has
        return {"spaces": [str(s) for s in chamber.spaces]} | written

    def player_json(p: Any) -> dict[str, Any]:
        chambers = {cell.name: chamber_json(p.dungeon.chamber(cell)) for cell in p.dungeon.cells()}
        return {"name": p.name, "rows": p.dungeon.rows, "chambers": chambers, **p.placement.to_json()}

    return {"players": [player_json(p) for p in state.players]}


def _guardian(scenario: Any, state: Any, argument: str) -> Any:
    return {"players": [fields_json(p, "name", "guardian", "xp", "gold") for p in state.players]}


def _scores(scenario: Any, state: Any, argument: str) -> Any:
    out: dict[str, Any] = {
        "players": [
            fields_json(p, "name", "xp") | {"trophies": by_year(p.trophies), "demerits": by_year(p.demerits)}
            for p in state.players
        ],
        "heroes": [{"color": c.value, "health": state.health(c)} for c in COLORS],
        "final_scores": [s.to_json() for s in state.final_scores],
    }
    if state.solo:
        out["jael"] = {"trophies": by_year(state.jael.trophies), "xp": state.jael.xp}
    return out


def _market(scenario: Any, state: Any, argument: str) -> Any:
    players = [fields_json(p, "name", "gold", "xp") for p in state.players]
    market = fields_json(state.market, "xp_spaces", "passages_sold") | {"players": players}
    return fields_json(state, "year", "stage") | market


PROJECTIONS = {  # what each shows: cases/stonespine.toml, [projections]
    "heroes": _heroes,
    "dungeon": _dungeon,
    "guardian": _guardian,
    "scores": _scores,
    "market": _market,
}

# -- scenario builders ---------------------------------------------------------------------------


def fork(first: str, *, b1: str = "cave L", a2: str = "cave T", b2: str = "cave -") -> list[list[str]]:
    """A 2x2 dungeon entered at A1 (``first`` names its type and elements: ``stone kobold``);
    after A1 the hero may go right (B1) or down (A2), so the step ends with a ``move`` request."""
    kind, _, elements = first.partition(" ")
    return [[f"{kind} TRB {elements}".strip(), b1], [a2, b2]]


def one(
    rows: Sequence[Sequence[str]],
    *,
    year: int = 1,
    dice: Sequence[str] = ("red",),
    decisions: Sequence[Any] = (),
    then: str = "first-legal",
    start: str | None = None,
    heroes: dict[str, str] | None = None,
    # The Pact Demon: its ongoing and instant abilities are in the rulebook (they act only on pact
    # tokens), so a case never rests on an ability the rulebook leaves out (SS-UNKNOWN-ONGOING).
    guardian: str = "Pact Demon",
    levels: tuple[int, int] = (0, 0),
    guardians: Sequence[str] | None = None,
    minions: Sequence[str] = (),
    exit: str = "B",
    **player_fields: Any,
) -> dict[str, Any]:
    """A scenario of one player, Ann, with scripted dice and decisions; her guardian stands in the
    bottom-right chamber unless told (no placement when it starts before the invasion)."""
    dungeon = {"entrance": "A", "exit": exit, "rows": [list(r) for r in rows]}
    player = {"name": "Ann", "guardian": guardian, "levels": list(levels), "dungeon": dungeon}
    if start in (None, "invasion"):
        if guardians is None:
            guardians = (f"{chr(ord('A') + len(rows[0]) - 1)}{len(rows)}",)
        player["placement"] = {"guardians": list(guardians), "minions": list(minions)}
    doc: dict[str, Any] = {"game": GAME, "year": year, "players": [player | copy.deepcopy(player_fields)]}
    doc["dice"] = {"script": list(dice), "then": "first-legal"}
    doc["decisions"] = {"script": list(decisions), "then": then}
    doc |= {"heroes": dict(heroes)} if heroes is not None else {}
    return doc | ({"start": start} if start is not None else {})


def _slug(text: str) -> str:
    return text.lower().replace(" ", "-").replace("+", "plus").replace("/", "-over-").replace("?", "-hidden")


# -- IV. Step 2: Repel Heroes -----------------------------------------------------------------------


WALK_SEEDS = range(120)
"""Seeds of the generated walks: 120 small dungeons (a spread of layouts, elements and heroes)."""


def walks() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/stonespine/walks.toml``: per seed a 3x3 dungeon of caves with random
    doorways, monsters and traps (a chamber's type changes nothing for these heroes: it matters to
    guardian abilities, which the guardian-board cases cover), and a hero of a random colour."""
    for seed in WALK_SEEDS:
        draw = random.Random(f"stonespine-walk-{seed}")
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                doors = "".join(d for d in "TBLR" if draw.random() < 0.6) or "-"
                if r == 0 and c == 0 and "T" not in doors:
                    doors = "T" + doors.strip("-")  # the entrance chamber opens to the entrance
                elements = [draw.choice((*MONSTERS, *TRAPS)) for _ in range(draw.randint(0, 3))]
                row.append(" ".join(["cave", doors, *elements]))
            rows.append(row)
        colour, card = draw.choice((("black", "Thief"), ("purple", "Cleric"), ("red", "Knight")))
        yield {"seed": seed, "number": f"{seed:03d}", "rows": rows, "colour": colour, "card": card}


def guardian_boards() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/stonespine/guardian-boards.toml``: every guardian board of the data in
    force, four patterns each (a minion in A1 for the last two, when the board has minions)."""
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.stonespine.data import default_data

    for board in default_data(Rulings.defaults(GAME)).guardians:
        minions = ["A1"] if board.minions else []
        row: dict[str, Any] = {"board": board.name, "slug": _slug(board.name), "minions": minions}
        row |= {"guardians": ["B2", "A2"][: board.figures], "levels": [1, 0] if minions else [0, 0]}
        row |= {"one_minion": ", one minion" if minions else ""}
        yield from (row | {"pattern": pattern} for pattern in ("monster", "trap", "minion", "walk"))


# -- solver-found edge cases -------------------------------------------------------------------------------


def best_placements() -> Iterator[dict[str, Any]]:
    """Rows of ``cases/stonespine/solver.toml``: the placement the solver proves best for guaranteed
    defeats (year 1, guardian and one minion), a wave of each colour on it."""
    from invasion_oracle.solver.stonespine.placement import search_guaranteed

    rows = [["cave TRB kobold", "cave LB slime"], ["cave TR spike", "cave TL"]]
    doc = one(rows, dice=[], levels=(1, 0), guardians=["A1"], minions=["A1"], exit="A")
    answer = search_guaranteed(load(GAME, doc))
    if answer.tied:
        first = answer.tied[0]  # a FigurePlacement: chamber names by figure kind
        doc["players"][0]["placement"] = {"guardians": list(first.guardians), "minions": list(first.minions)}
    for face in ("black", "purple", "red"):
        yield {"face": face, "scenario": doc | {"dice": {"script": [face], "then": "first-legal"}}}


def fewest_minions() -> Iterator[dict[str, Any]]:
    """Rows of ``cases/stonespine/solver.toml``: the fewest minions that defeat a red hero on its
    route in a three-chamber lane, and one fewer (it escapes)."""
    from invasion_oracle.solver.stonespine.min_damage import fewest_minions as search

    lane = [["cave TB kobold", "cave -"], ["cave TB slime", "cave -"], ["cave T spike", "cave -"]]
    doc = one(lane, dice=["red"], levels=(3, 2), guardians=["B1"], minions=["B2", "B2", "B2"])
    doc["rulings"] = {"SS-MINIONS": "optional"}
    fewest = search(load(GAME, doc), [HeroColor.RED], limit=3)
    if fewest.count is None:
        return
    for where in (fewest.where, fewest.where[:-1])[: 1 + bool(fewest.count)]:  # and one fewer, if any
        placed = copy.deepcopy(doc)
        placed["players"][0]["placement"]["minions"] = list(where)
        found = {"count": len(where), "where": ", ".join(where) or "none", "scenario": placed}
        yield found | ({"pattern": "one-fewer"} if len(where) < fewest.count else {})


def least_escaping_healths() -> Iterator[dict[str, Any]]:
    """The row of ``cases/stonespine/solver.toml``: the least health with which a red hero escapes
    every route (forced escapes), on the solver's escape route."""
    from invasion_oracle.solver.stonespine.min_damage import least_escaping_health

    maze = [["cave TRB kobold", "cave LB spike"], ["cave TR slime", "cave TL pit"]]
    doc = one(maze, dice=["red"], guardians=["B2"], exit="A", defeated=[])
    health = least_escaping_health(load(GAME, doc), HeroColor.RED)
    if health.health is not None:
        route = list(health.escape_route)
        doc["health_bonus"] = {"red": health.health - 6}
        doc["decisions"] = {"script": route[1:], "then": "first-legal"}
        yield {"health": health.health, "route": " ".join(route), "scenario": doc}


# -- hypothesis-shrunk boundaries ---------------------------------------------------------------------------


def _first_chamber(card: str, minions: int, elements: Sequence[str]) -> dict[str, Any]:
    """Ann's dungeon forking after A1, which holds ``elements`` and ``minions`` of her three minions
    (the others in B1), and the hero card ``card`` entering it."""
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.stonespine.data import default_data

    colour = default_data(Rulings.defaults(GAME)).hero(card).color.value
    placed, dungeon = ["A1"] * minions + ["B1"] * (3 - minions), fork("cave " + " ".join(elements))
    return one(dungeon, dice=[colour], heroes={colour: card}, levels=(3, 2), minions=placed)


def _defeated_in_first_chamber(card: str, chamber: tuple[int, Sequence[str]]) -> bool:
    from invasion_oracle.model.core.play import run

    minions, elements = chamber
    playthrough = run(load(GAME, _first_chamber(card, minions, elements)))
    return any(e.kind == "hero_defeated" and e.get("chamber") == "A1" for e in playthrough.events)


def smallest_defeats() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/stonespine/boundaries.toml``: the smallest first chambers
    (hypothesis-shrunk, each tried by playing the game) that defeat each red and purple card and
    the Thief, with minions and without."""
    from hypothesis import strategies as st

    kinds = st.lists(st.sampled_from(("chest", "+1", "kobold", "spike", "slime")), max_size=4)
    searches = {
        "": st.tuples(st.integers(0, 2), kinds),  # with minions: the shortest chamber
        "-no-minions": st.tuples(st.just(0), kinds),  # elements only
    }
    for card in ("Barbarian", "Knight", "Cleric", "Templar", "Thief"):
        for suffix, chamber in searches.items():
            found = shrunk(chamber, partial(_defeated_in_first_chamber, card), 200)
            if found is None:
                continue  # four elements cannot defeat this hero without minions
            minions, elements = found[0], list(found[1])
            row = {"card": card, "card_slug": _slug(card), "suffix": suffix, "minions": minions}
            row["elements"] = " ".join(elements) or "no elements"
            row["no_minions"] = ", no minions" if suffix else ""
            yield row | {"scenario": _first_chamber(card, minions, elements)}


SUITE = game_suite(
    GAME,
    PROJECTIONS,
    (),
    (guardian_boards, walks, best_placements, fewest_minions, least_escaping_healths, smallest_defeats),
)
