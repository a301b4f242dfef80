"""Spirit Island's cases: rule by rule (Spirit Island Rulebook), the FAQ's and sources outside the rulebook' worked examples,
the rulings, the solvers' edge cases, hypothesis-shrunk boundaries and seeded playthroughs.

Single actions are cut out of one Invader Phase by its requests:

* **one Ravage in one land**: a Stage III Ravage card (``3MW``: mountains and wetlands, lands
  A1, A2, A5, A6 of board A) with Invaders in three of its lands asks the ``land-order``; the case
  answers the land under test and stops at the next ``land-order``, so the compared step is that
  land's Ravage alone (Blight, cascade, fight-back, Fear);
* **a Build card, Fear cards, Events**: the Invader deck's top is an unknown Stage I card, so the
  phase stops at its ``draw`` after Ravage and Build; the compared step is the opening;
* **one Explore card and the advance**: the answer to that ``draw`` (the card) is the step.

A City on A8 keeps Invaders on the island so Terror Level I is not won by accident.

Projections: :data:`PROJECTIONS`, each with what it shows (their exact shape: ``docs/fixtures.md``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import product
from typing import Any

from invasion_oracle.model.core.bundled import ExampleRef
from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import parse_json_bytes
from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.island import build_island
from invasion_oracle.model.spirit_island.outcome import fear_json, land_json
from invasion_oracle.model.spirit_island.pieces import parse_land
from invasion_oracle.reports.suite.casefile import game_suite
from invasion_oracle.reports.suite.common import load, result, shrunk

GAME = "spirit-island"

# -- projections ----------------------------------------------------------------------------------


def _land_at(scenario: Any, state: Any, name: str) -> Any:
    if not scenario.island.has_land(name):
        raise MalformedInputError("projection", f"land:{name}", f"no land {name} on this island")
    return state.lands[scenario.island.index(name)]


def _land(scenario: Any, state: Any, argument: str) -> Any:
    return land_json(_land_at(scenario, state, argument))


def _lands(scenario: Any, state: Any, argument: str) -> Any:
    return {name: land_json(land) for name, land in zip(scenario.island.lands, state.lands, strict=True)}


def _blight(scenario: Any, state: Any, argument: str) -> Any:
    lands = zip(scenario.island.lands, state.lands, strict=True)
    blighted = {name: land.blight for name, land in lands if land.blight}
    return fields_json(state.blight, "card", "side", "pool", "lands", lands=blighted)


def _board(scenario: Any, state: Any, argument: str) -> Any:
    return fields_json(state.invaders, "deck", "ravage", "build", "explore", "discard")


def _action(scenario: Any, state: Any, argument: str) -> Any:
    """One land and what its action sends off the land: Fear (pool and cards earned) and the Blight
    pool (a Blight added comes from it)."""
    fear = {"pool": state.fear.in_pool, "earned": state.fear.earned_total}
    return {"land": _land(scenario, state, argument), "fear": fear, "blight_pool": state.blight.pool}


def _goal(scenario: Any, state: Any, argument: str) -> Any:
    """What a least-Defend goal is about in one land: its Blight and its Dahan (count, damaged)."""
    land = _land_at(scenario, state, argument)
    dahan = land.dahan
    return {"blight": land.blight, "dahan": len(dahan), "dahan_damaged": sum(1 for d in dahan if d.damage)}


PROJECTIONS = {  # what each shows: cases/spirit_island.toml, [projections]
    "land": _land,
    "lands": _lands,
    "fear": lambda scenario, state, argument: fear_json(state.fear),
    "blight": _blight,
    "invader-board": _board,
    "result": result(GAME, lambda s: {"result": "running", "reason": "", "turn": s.turn}),
    "action": _action,
    "goal": _goal,
}

# -- scenario builders -------------------------------------------------------------------------------

SCRIPTED = ("decisions", "chance")  # given to doc as the answers' scripts
KEEP = {"A8": "C"}  # a City far from the action: Terror Level I is not won by accident


def doc(lands: dict[str, Any] | None = None, *, keep: bool = True, **fields: Any) -> dict[str, Any]:
    """Board A, no printed pieces, the Plain Blight card, a known Fear deck, an unknown Stage I
    card on top of the Invader deck (the phase stops at its draw)."""
    # the Fear deck's cards: every Fear card of the data in force, Blank Fear (no effect) first
    fear_cards = ["Blank Fear", *(c.name for c in default_data().fear_cards if c.name != "Blank Fear")]
    base: dict[str, Any] = {
        "game": GAME,
        "island": {"boards": ["A"]},
        "pieces": "empty",
        "lands": {**(KEEP if keep else {}), **(lands or {})},
        "blight": {"card": "Plain Blight"},
        "fear": {"deck": ["Blank Fear"] + ["draw"] * 8, "cards": fear_cards},
        "invader_deck": ["stage-1"],
        "decisions": {"script": [], "then": "first-legal"},
        "chance": {"script": [], "then": "first-legal"},
    }
    scripts = {
        key: {"script": list(fields.pop(key)), "then": "first-legal"} for key in SCRIPTED if key in fields
    }
    return base | copy.deepcopy(fields) | scripts


def _slug(text: str) -> str:
    return text.replace("@", "at").replace(" ", "-").lower() or "empty"


def _pieces(pieces: str) -> dict[str, str]:
    """A row's pieces in land notation, and as a name's part."""
    return {"pieces": pieces, "slug": _slug(pieces)}


# -- every board: single-land Ravage, Build and Explore (a case table, one builder) -----------------------

SPREAD_RAVAGE = ("E", "2E", "T", "C", "D E", "D T", "2D C", "D@1 E")
SPREAD_BUILD = ("E", "T", "T C", "C", "2E D", "2T C", "E", "T")
SPREAD_SOURCES = ("T", "C", "2T", "C T")
TERRAIN_CARD = {"mountain": "1M", "wetland": "1W", "jungle": "1J", "sands": "1S"}


def _named(**names: str) -> dict[str, str]:
    """Each name, and as a case name's part (``NAME_at``: lower case)."""
    return names | {f"{key}_at": name.lower() for key, name in names.items()}


def boards() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/spirit_island/boards.toml``: on every board, a Ravage and a Build in each
    land (a City kept in a land of another terrain) and an Explore card per terrain."""
    for b, board in enumerate(default_data().boards):
        letter, terrains = board.name, {land.number: land.terrain.value for land in board.lands}
        for n, terrain in terrains.items():
            keep = next(f"{letter}{k}" for k, t in terrains.items() if t != terrain)
            land = _named(board=letter, land=f"{letter}{n}") | {"keep": keep, "terrain": terrain}
            for pattern, table in (("ravage", SPREAD_RAVAGE), ("build", SPREAD_BUILD)):
                pieces = _pieces(table[(b + n) % len(table)])
                yield land | pieces | {"pattern": pattern, "card": TERRAIN_CARD[terrain]}
        for k, (terrain, card) in enumerate(TERRAIN_CARD.items()):
            explore = _named(board=letter, land=f"{letter}{(b + 3 * k) % 8 + 1}", card=card)
            pieces = _pieces(SPREAD_SOURCES[(b + k) % len(SPREAD_SOURCES)])
            yield explore | pieces | {"pattern": "explore", "terrain": terrain}


# -- every invader card, layout, Event and Fear card of the data (case tables, one builder each) ----------


def _and(words: Sequence[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def invader_cards() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/spirit_island/invader-cards.toml``: for every Stage II and III card of
    the data in force that names terrains, each of its terrains and each action, on a board of the
    rotation: the card's land under test (Ravage, Build: a City kept in the first land off the card)
    or, for Explore, a land off the card (inland when there is one) holding the source, and the
    lands it reaches."""
    data = default_data()
    letters = [board.name for board in data.boards]
    for c, card in enumerate(c for c in data.invader_cards if c.stage > 1 and c.terrains):
        names = [t.value for t in card.terrains]
        about = _named(card=card.id) | {"what": f"{card.id} (Stage {card.stage}: {_and(names)})"}
        for (k, terrain), (a, action) in product(enumerate(names), enumerate(("ravage", "build", "explore"))):
            island = build_island(data, (letters[(3 * c + 2 * k + a) % len(letters)],))
            terrains = {land: island.terrain_of(land).value for land in island.lands}
            off = [land for land, t in terrains.items() if t not in names]
            row: dict[str, Any] = about | {"pattern": action, "board": island.boards[0], "terrain": terrain}
            if action == "explore":
                inland = [land for land in off if not island.is_coastal(land)] or off
                land, pieces = inland[(c + k) % len(inland)], SPREAD_SOURCES[(c + k) % len(SPREAD_SOURCES)]
                reach = {n for n in island.lands if island.is_coastal(n)} | set(island.neighbour_names(land))
                explored = _and([n for n, t in terrains.items() if t in names and n in reach]) or "no land"
                row |= {"land_terrain": terrains[land], "explored": explored, "stage": card.stage}
                row |= {"its_terrains": "either of its terrains" if len(names) > 1 else "its terrain"}
                row |= {"flag": "; no Adversary, so no Escalation" if card.escalation else ""}
            else:
                on = [land for land, t in terrains.items() if t == terrain]
                land = on[(c + k + a) % len(on)]
                table = SPREAD_RAVAGE if action == "ravage" else SPREAD_BUILD
                pieces = table[(c + 2 * k) % len(table)]
                row |= {"keep": off[0], "keep_terrain": terrains[off[0]]}
            yield row | _named(land=land) | _pieces(pieces)


def _seams(layout: Any, island: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """Two of ``layout``'s cross-board edges, each as ``(near, far)``: for the Explore, the first
    whose far end is inland and of another terrain than the near end (a source on one board, the
    land it explores on the other); for the cascade, the last edge that is not that one."""
    ends = [(a, b) for a, b in layout.edges] + [(b, a) for a, b in layout.edges]
    explore = next(
        (x, y) for x, y in ends if not island.is_coastal(y) and island.terrain_of(x) != island.terrain_of(y)
    )
    cascade = next((b, a) for a, b in reversed(layout.edges) if {a, b} != set(explore))
    return explore, cascade


def layouts() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/spirit_island/layouts.toml``: per layout of the data in force, an Explore
    and a cascade across two of its seams (:func:`_seams`)."""
    data = default_data()
    for layout in data.layouts:
        island = build_island(data, layout.boards, layout)
        (source, far), (origin, target) = _seams(layout, island)
        row = _named(layout=layout.name) | {"boards": list(layout.boards)}
        row |= {"joins": f"Layout {layout.name} (boards {_and(layout.boards)})"}
        card = TERRAIN_CARD[island.terrain_of(far).value]
        explore = {"pattern": "explore", "terrain": island.terrain_of(far).value, "card": card}
        yield row | _named(source=source, far=far) | explore
        neighbours = island.neighbour_names(origin)  # none has Blight: the first is the first without
        card = TERRAIN_CARD[island.terrain_of(origin).value]
        cascade = {"pattern": "cascade", "first": neighbours[0], "neighbours": _and(neighbours), "card": card}
        yield row | _named(origin=origin, target=target) | cascade


def fear_cards() -> Iterator[dict[str, Any]]:
    """The first rows of ``cases/spirit_island/data-cards.toml``: every Fear card of the data in force."""
    for card in default_data().fear_cards:
        yield {"name": card.name, "slug": _slug(card.name)}


def events() -> Iterator[dict[str, Any]]:
    """The other rows of ``cases/spirit_island/data-cards.toml``: every Event of the data in force
    (one that only gives Fear compares the Fear track)."""
    for event in default_data().events:
        fear_only = all(effect.kind == "fear" for effect in event.effects)
        yield {"name": event.name, "slug": _slug(event.name), "projection": "fear" if fear_only else "lands"}


# -- solver-found edge cases ---------------------------------------------------------------------------


def most_fear_fight_backs() -> Iterator[dict[str, Any]]:
    """Rows of ``cases/spirit_island/solver.toml``: the fight-back allocations the solver proves
    give the most Fear, with Defend equal to the Invaders' Damage (no Dahan dies)."""
    from invasion_oracle.solver.spirit_island.fear_threshold import best_fight_back

    for pieces, dahan in (("C 2T E", 2), ("2C T", 3), ("C T@1 2E", 1)):
        plan = best_fight_back(parse_land(pieces), dahan, "fear", method="baseline")
        defend = sum({"E": 1, "T": 2, "C": 3}[p.label[0]] for p in parse_land(pieces).invaders)
        with_dahan = f"{pieces} {dahan}D" if dahan > 1 else f"{pieces} D"
        found = {"dahan": dahan, "with_dahan": with_dahan, "defend": defend, "value": plan.value}
        yield _pieces(pieces) | found | {"allocation": plan.allocation}


def least_defends() -> Iterator[dict[str, Any]]:
    """Rows of ``cases/spirit_island/solver.toml``: the least Defend for a goal, and one less."""
    from invasion_oracle.solver.spirit_island.defend import least_defend

    for pieces, goal in (("C T 2D", "no-blight"), ("C T 2D@1", "dahan-safe"), ("2C E D", "dahan-safe")):
        least = least_defend(parse_land(pieces), goal, method="baseline").defend
        for defend in (least - 1, least):
            met = "met" if defend == least else "missed"
            yield _pieces(pieces) | {"goal": goal, "least": least, "defend": defend, "met": met}


def least_harmful_cascades() -> Iterator[dict[str, Any]]:
    """The row of ``cases/spirit_island/solver.toml``: the cascade path from A5 (A1 and A6 blighted
    too) the solver proves destroys the least Presence."""
    from invasion_oracle.solver.spirit_island.cascade import best_cascade

    island = build_island(default_data(), ("A",))
    blight = {"A1": "B", "A5": "B", "A6": "B", "A4": "D"}
    presence = {"A4": 1, "A8": 1, "A2": 2}

    def land(name: str) -> Any:
        pieces = parse_land(blight.get(name, ""))
        return pieces.with_presence("River", presence[name]) if name in presence else pieces

    answer = best_cascade(island, tuple(land(n) for n in island.lands), "A5", method="baseline")
    path = list(answer.best)
    found = {"path": " ".join(path), "presence": answer.presence, "script": ["A5", *path]}
    yield found | {"spirit_presence": presence, "stop": {"after": 1 + len(path)}}


def island_flips() -> Iterator[dict[str, Any]]:
    """Rows of ``cases/spirit_island/solver.toml``: the smallest starting changes the island search
    finds that flip a fact of its bundled example (a fact that already depends on the players has none)."""
    from invasion_oracle.solver.spirit_island import island_search as search

    ref = ExampleRef.parse("example:spirit_island/island_search.json")
    scenario = load(GAME, parse_json_bytes(ref.read_bytes(), str(ref)))
    question = search.question_from_scenario(scenario)
    for text in ("1:explore:A4", "1:build:A2"):
        turn, action, land = text.split(":")
        fact = (int(turn) - 1, action, scenario.island.index(land))
        try:
            flip = search.smallest_flip(question, fact, data=scenario.data, method="baseline")
        except Exception:  # a fact that already depends on the players has no flip
            continue
        if flip.changes is None:
            continue
        fixture = search.boundary_fixture(question, flip, scenario.data)
        found = {"fact": text.replace(":", "-").lower(), "text": text, "action": action, "scenario": fixture}
        yield found | {"example": str(ref), "description": fixture.get("description", "")}


# -- hypothesis-shrunk boundaries ------------------------------------------------------------------------


def _ravage_shows(
    kind: str, shows: Callable[[Any, int], Any], counts: tuple[int, int, int, int, int]
) -> bool:
    """Whether an event ``kind`` of A5's Ravage (the Ravage card 1W), with the pieces ``counts``
    gives, ``shows`` what is sought (given the event and the land's Dahan)."""
    from invasion_oracle.model.core.play import run

    playthrough = run(load(GAME, doc({"A5": _notation(counts)}, invader_board={"ravage": ["1W"]})))
    return any(shows(e, counts[3] + counts[4]) for e in playthrough.events if e.kind == kind)


def _notation(counts: tuple[int, int, int, int, int]) -> str:
    e, t, c, d, damaged = counts
    parts = [
        f"{n}{x}" if n > 1 else x for n, x in ((e, "E"), (t, "T"), (c, "C"), (d, "D"), (damaged, "D@1")) if n
    ]
    return " ".join(parts)


BOUNDARIES: dict[str, tuple[str, Callable[[Any, int], Any]]] = {
    # a pattern of the case file: (the kind of the event that shows it, what the event shows given
    # the land's Dahan)
    "all-dahan-die-and-blight": (
        "ravaged",
        lambda e, dahan: dahan > 0 and e.get("land_blighted") and e.get("dahan_destroyed") == dahan,
    ),
    "fight-back-destroys-city": ("invader_destroyed", lambda e, dahan: e.get("piece") == "city"),
    "dahan-survive-blight": (
        "ravaged",
        lambda e, dahan: e.get("land_blighted") and e.get("dahan_destroyed") < dahan,
    ),
    "town-destroyed-fear": ("invader_destroyed", lambda e, dahan: e.get("piece") == "town"),
}


def smallest_ravages() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/spirit_island/boundaries.toml``: the smallest lands (hypothesis-shrunk)
    where a Ravage crosses a boundary (:data:`BOUNDARIES`; the case file says what each shows)."""
    from hypothesis import strategies as st

    counts = st.tuples(*(st.integers(0, 2) for _ in range(3)), st.integers(0, 4), st.integers(0, 2))
    for pattern, (kind, shows) in BOUNDARIES.items():
        found = shrunk(counts, partial(_ravage_shows, kind, shows), 100)
        if found is None:
            raise ValueError(
                f"{GAME}/boundaries/smallest-{pattern}: no land of up to 2E 2T 2C 4D 2D@1 shows it"
            )
        yield {"pattern": pattern, "pieces": _notation(found)}


SUITE = game_suite(
    GAME,
    PROJECTIONS,
    (),
    (boards, invader_cards, layouts, fear_cards, events),
    (most_fear_fight_backs, least_defends, least_harmful_cascades, island_flips, smallest_ravages),
)
