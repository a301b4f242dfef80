"""Hypothesis strategies for Spirit Island islands and scenarios, and the invariants every Invader
Phase keeps.

Strategies build scenario *documents* (plain JSON), so generated cases go through the same loader
as user files, and a failing case can be saved and rerun with ``invasion spirit-island simulate``.
Rulings are drawn too: the invariants hold under every reading. :func:`land_pieces` and
:func:`small_islands` feed the solver agreement tests.

Invariants (seed 002, Invader Phase), checked by :func:`invariant_violations` on every step:

1. Fear from destruction is 1 per Town and 2 per City destroyed (the piece numbers), and no Fear
   ever comes from a removal or a replacement;
2. an Explore adds at most one Explorer to a land, and Explorers appear only from Explores and
   effects that add them (an exact count per step);
3. a Ravage adds Blight exactly when its Damage after Defend is 2 or more, and then once;
4. the Dahan on the island never grow in a step that ravages (nothing in a Ravage adds Dahan);
5. replaying the recorded answers gives the same run (:func:`replay_violations`);
6. every total in the outcome equals the start plus the events that changed it
   (:func:`outcome_violations`): Fear generated, cards earned and resolved, the Fear pool, pieces,
   Blight and Presence in each land, the Blight pool, the turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import invasion_oracle.model.spirit_island  # noqa: F401  (registers the rulings)
from invasion_oracle.model.core.driver import Playthrough, replay
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.outcome import outcome
from invasion_oracle.model.spirit_island.pieces import BY_LETTER, Land, Piece, PieceKind
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.simulate import run
from invasion_oracle.model.spirit_island.state import IslandState
from invasion_oracle.properties import built

FEAR_CARDS = (
    "Wary Settlers",
    "Coastal Flight",
    "Halted Expansion",
    "Crumbling Outposts",
    "Dahan Raid",
    "Rising Dread",
    "Stalled Ravage",
    "Frail Outposts",
    "Scattered Explorers",
)
BLIGHT_CARDS = ("Plain Blight", "Encroaching Settlers", "Restless Blight")
ISLANDS: tuple[tuple[tuple[str, ...], str | None], ...] = (
    (("A",), None),
    (("B",), None),
    (("D",), None),
    (("E",), None),
    (("B", "D"), "BD-partial"),
)
CARDS = {
    1: ("1J", "1M", "1S", "1W"),
    2: ("2J", "2M", "2S", "2W", "2C"),
    3: ("3JM", "3JS", "3JW", "3MS", "3MW", "3SW"),
}


# -- pieces and lands -------------------------------------------------------------------------------


@st.composite
def land_pieces(
    draw: st.DrawFn, *, max_each: int = 3, dahan: bool = True, damaged: bool = True, modifiers: bool = False
) -> Land:
    """A land with up to ``max_each`` of each kind, Damage below Health, optional modifiers."""
    stats = default_data().stats
    health: dict[PieceKind, int] = {}
    if modifiers:
        for kind in (PieceKind.TOWN, PieceKind.CITY):
            health[kind] = draw(built.integers(-1, 1))
    land = Land()
    for kind, delta in health.items():
        if delta:
            land = land.with_modifier(kind, delta)
    kinds = [PieceKind.EXPLORER, PieceKind.TOWN, PieceKind.CITY] + ([PieceKind.DAHAN] if dahan else [])
    pieces = []
    for kind in kinds:
        top = land.health_of(kind, stats) - 1
        for _ in range(draw(built.integers(0, max_each))):
            pieces.append(Piece(kind, draw(built.integers(0, top)) if damaged else 0))
    return land.with_pieces(pieces)


def notation_token(draw: st.DrawFn, letter: str, most: int, health: int) -> list[str]:
    count = draw(built.integers(0, most))
    damage = [draw(built.integers(0, health - 1)) for _ in range(count)]
    return [f"{letter}@{d}" if d else letter for d in damage]


@st.composite
def land_notation(draw: st.DrawFn, *, damaged: bool = True) -> str:
    return draw_notation(draw, damaged=damaged)


def draw_notation(draw: st.DrawFn, *, damaged: bool = True) -> str:
    """:func:`land_notation`'s draws in the caller's ``draw`` (no strategy object a land)."""
    tokens = []
    for letter, most, health in (("E", 2, 1), ("T", 2, 2), ("C", 1, 3), ("D", 3, 2)):
        tokens += notation_token(draw, letter, most, health if damaged else 1)
    if draw(built.integers(0, 3)) == 0:
        tokens.append("B")
    return " ".join(tokens)


# -- scenario documents ---------------------------------------------------------------------------------


@st.composite
def scenario_documents(draw: st.DrawFn, *, drawn_rulings: bool = True) -> dict[str, Any]:
    """A valid scenario: a small island, random pieces, Spirits, cards, Fear and Blight, rulings
    (none, and none of their draws, with ``drawn_rulings=False``)."""
    # The draws are made in a fixed order (seeded searches replay them): each step draws in turn.
    boards, layout = draw(built.sampled(ISLANDS))
    names = [f"{b}{n}" for b in boards for n in range(1, 9)]
    lands, cleared = _draw_lands(draw, names)
    spirits = _draw_spirits(draw, names)
    board, used = _draw_invader_board(draw)
    turns = draw(built.integers(1, 3))
    deck = _draw_invader_deck(draw, turns, used)
    earned_before = draw(built.integers(0, 7))
    earned = draw(built.sampled_lists(FEAR_CARDS, max_size=2, unique=True))
    pool_size = 4 * len(spirits)
    document: dict[str, Any] = {
        "game": "spirit-island",
        "island": {"boards": list(boards), **({"layout": layout} if layout else {})},
        "pieces": "empty" if cleared else draw(built.sampled(("start", "empty"))),
        "lands": lands,
        "spirits": spirits,
        "turn": draw(built.integers(1, 4)),
        "turns": turns,
        "invader_board": board,
        "invader_deck": deck,
        "fear": {
            "pool": draw(built.integers(1, pool_size)),
            "earned_before": earned_before,
            "earned": earned,
        },
        "blight": _draw_blight(draw),
        "spirit_phases": _draw_spirit_phases(draw, names, turns),
        "rulings": _draw_rulings(draw) if drawn_rulings else {},
        "decisions": {"then": "random", "seed": draw(built.integers(0, 10_000))},
        "chance": {"then": "random", "seed": draw(built.integers(0, 10_000))},
    }
    _draw_last(draw, document, turns, drawn_rulings)
    if not drawn_rulings:
        del document["rulings"]
    return document


def _draw_lands(draw: st.DrawFn, names: list[str]) -> tuple[dict[str, str], str]:
    """Some lands' pieces (in notation), and the letters of the Invaders cleared from them."""
    lands = {name: draw_notation(draw) for name in names if draw(built.BOOLEANS)}
    # A quarter of the islands are cleared of some Invaders, so each Terror Level's victory
    # (victory.py) is within reach of a search over these documents.
    cleared = draw(built.sampled(("", "", "", "", "", "ETC", "TC", "C")))
    if cleared:
        lands = {
            name: " ".join(t for t in text.split() if t[0] not in cleared) for name, text in lands.items()
        }
    return lands, cleared


def _draw_spirits(draw: st.DrawFn, names: list[str]) -> list[dict[str, Any]]:
    """One or two Spirits, each with Presence in one to three of ``names``."""
    spirits = []
    for s in range(draw(built.integers(1, 2))):
        homes = draw(built.sampled_lists(tuple(names), min_size=1, max_size=3, unique=True))
        spirits.append({"name": f"Spirit{s + 1}", "presence": {h: draw(built.integers(1, 2)) for h in homes}})
    return spirits


def _draw_invader_board(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[str]]:
    """The Ravage and Build slots' cards (no card twice), and the cards so used."""
    used: list[str] = []
    board: dict[str, list[str]] = {}
    for slot in ("ravage", "build"):
        cards = []
        for _ in range(draw(built.sampled((0, 1, 1, 1, 2)))):
            card = draw(built.sampled(tuple(c for stage in CARDS.values() for c in stage if c not in used)))
            used.append(card)
            cards.append(card)
        board[slot] = cards
    return board, used


def _draw_invader_deck(draw: st.DrawFn, turns: int, used: list[str]) -> list[str]:
    """One stage a turn, cut short until no stage needs more cards than it has besides ``used``."""
    deck = [draw(built.sampled(("stage-1", "stage-2", "stage-3"))) for _ in range(turns)]
    while any(
        sum(1 for e in deck if e == f"stage-{s}") + sum(1 for c in used if c.startswith(str(s)))
        > len(CARDS[s])
        for s in (1, 2, 3)
    ):
        deck = deck[:-1]
    return deck


def _draw_blight(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "card": draw(built.sampled(BLIGHT_CARDS)),
        "side": draw(built.sampled(("healthy", "blighted"))),
        "pool": draw(built.integers(1, 6)),
    }


def _draw_spirit_phases(draw: st.DrawFn, names: list[str], turns: int) -> list[dict[str, Any]]:
    """Each turn's Spirit Phase: Defend in up to two lands, and Fear generated."""
    return [
        {
            "defend": {
                n: draw(built.integers(0, 2))
                for n in draw(built.sampled_lists(tuple(names), max_size=2, unique=True))
            },
            "fear": draw(built.integers(0, 3)),
        }
        for _ in range(turns)
    ]


def _draw_rulings(draw: st.DrawFn) -> dict[str, str]:
    """A reading of each ruling but those drawn last (:data:`DRAWN_LAST`)."""
    return {
        r.id: draw(built.sampled(tuple(r.reading_names)))
        for r in REGISTRY.all("spirit-island")
        if r.id not in DRAWN_LAST
    }


def _draw_last(draw: st.DrawFn, document: dict[str, Any], turns: int, drawn_rulings: bool = True) -> None:
    """The draws added after the others: an adversary, events, the rulings of :data:`DRAWN_LAST`."""
    if draw(built.BOOLEANS):
        document["adversary"] = "Generic Escalation"
    if draw(built.BOOLEANS):
        document["events"] = ["draw"] * turns
    for rid in DRAWN_LAST if drawn_rulings else ():
        document["rulings"][rid] = draw(built.sampled(tuple(REGISTRY.get(rid).reading_names)))


DRAWN_LAST = ("SI-OVER-ALLOCATION",)
"""Rulings added after the others, drawn after everything else: the draws before them, and so the
examples a seeded search or a derandomized test meets, stay what they were."""


def _won(reason: str) -> Callable[[Any], bool]:
    def won(outcome: Any) -> bool:
        result = outcome["result"]
        return bool(result["result"] == "win" and str(result["reason"]).startswith(reason))

    return won


WIN_CONDITIONS = {
    # How the players win the game (victory.py), over the outcome (``properties/hooks.py``).
    "Terror Level I: no Invaders": _won("Terror Level I:"),
    "Terror Level II: no Towns or Cities": _won("Terror Level II:"),
    "Terror Level III: no Cities": _won("Terror Level III:"),
    "every Fear card earned": _won("every Fear card earned"),
}


# -- invariants -------------------------------------------------------------------------------------------


def _count(state: IslandState, kind: PieceKind) -> int:
    return sum(land.count(kind) for land in state.lands)


def _letter_kind(label: str) -> PieceKind:
    return BY_LETTER[label[0]]


def _explorer_delta_from_events(events: tuple[Event, ...]) -> int:
    """Explorers added minus taken away according to the events of one step."""
    delta = 0
    for e in events:
        if e.kind == "explored":
            delta += len(e.get("lands"))
        elif e.kind == "piece_added" and e.get("piece") == "explorer":
            delta += e.get("count")
        elif (e.kind == "invader_destroyed" and e.get("was") == "explorer") or (
            e.kind == "piece_removed" and e.get("piece") == "explorer"
        ):
            delta -= 1
        elif e.kind == "piece_replaced":
            delta += (_letter_kind(e.get("becomes")) is PieceKind.EXPLORER) - (
                _letter_kind(e.get("piece")) is PieceKind.EXPLORER
            )
    return delta


def invariant_violations(
    scenario: Scenario, playthrough: Playthrough[IslandState], *, complete: bool
) -> list[str]:
    """Every invariant broken by ``playthrough`` (empty when all hold).

    ``complete`` says the run was played on past its outcome (play-on), so every destruction's
    Fear was generated; a game that ends at once may stop before its last Fear is counted.
    """
    problems: list[str] = []
    stats = scenario.data.stats
    fear_of = {"town": stats.town.fear, "city": stats.city.fear, "explorer": stats.explorer.fear}
    destroyed_fear = 0
    generated_by_destruction = 0
    # the states after each step: step the game again with the recorded answers to observe them
    game = scenario.game(play_on=complete)
    state, opening = game.start(scenario.initial)
    steps_events = [opening]
    after_states = [state]
    for step in playthrough.steps:
        state, events = game.step(state, step.answer)
        steps_events.append(events)
        after_states.append(state)
    before = scenario.initial
    for index, (events, after) in enumerate(zip(steps_events, after_states, strict=True)):
        where = f"step {index}"
        for e in events:
            if e.kind == "invader_destroyed":
                if e.get("fear") != fear_of[e.get("piece")]:
                    problems.append(f"{where}: a destroyed {e.get('piece')} gave {e.get('fear')} Fear")
                destroyed_fear += e.get("fear")
            if e.kind == "fear_generated" and str(e.get("cause")).startswith("destroyed in"):
                generated_by_destruction += e.get("amount")
            if e.kind == "explored" and len(set(e.get("lands"))) != len(e.get("lands")):
                problems.append(f"{where}: an Explore listed a land twice: {e.get('lands')}")
            if e.kind == "ravaged" and e.get("land_blighted") != (
                e.get("hits") >= scenario.data.value("land_damage_for_blight")
            ):
                problems.append(
                    f"{where}: Ravage of {e.get('land')} with {e.get('hits')} hits says blighted={e.get('land_blighted')}"
                )
        problems += _blight_follows_ravage(events, where)
        delta = _count(after, PieceKind.EXPLORER) - _count(before, PieceKind.EXPLORER)
        if delta != _explorer_delta_from_events(events):
            problems.append(
                f"{where}: Explorers changed by {delta}, the events account for {_explorer_delta_from_events(events)}"
            )
        if any(e.kind == "ravaged" for e in events):
            added = sum(
                e.get("count") for e in events if e.kind == "piece_added" and e.get("piece") == "dahan"
            )
            if _count(after, PieceKind.DAHAN) > _count(before, PieceKind.DAHAN) + added:
                problems.append(f"{where}: the Dahan grew during a Ravage")
        before = after
    if complete and destroyed_fear != generated_by_destruction:
        problems.append(
            f"Fear from destruction: pieces were worth {destroyed_fear}, {generated_by_destruction} was generated"
        )
    if not complete and generated_by_destruction > destroyed_fear:
        problems.append(
            f"more Fear ({generated_by_destruction}) than the destroyed pieces were worth ({destroyed_fear})"
        )
    return problems


def _blight_follows_ravage(events: tuple[Event, ...], where: str) -> list[str]:
    """Within a step: each blighting Ravage is followed by exactly one Ravage Blight in that land
    (the Blight is the very next task, so it is in the same step), unless the card had none."""
    problems = []
    pending: Counter[str] = Counter()
    for e in events:
        if e.kind == "ravaged" and e.get("land_blighted"):
            pending[e.get("land")] += 1
        elif (e.kind == "blight_added" and e.get("cause") == "ravage") or (
            e.kind == "blight_unavailable" and e.get("cause") == "ravage"
        ):
            if pending[e.get("land")] == 0:
                problems.append(f"{where}: Blight from a Ravage in {e.get('land')} without 2 or more Damage")
            else:
                pending[e.get("land")] -= 1
    problems += [
        f"{where}: Ravage of {land} dealt 2 or more but added no Blight" for land, n in pending.items() if n
    ]
    return problems


def replay_violations(
    scenario: Scenario, playthrough: Playthrough[IslandState], *, play_on: bool
) -> list[str]:
    again = replay(
        scenario.game(play_on=play_on), scenario.game(play_on=play_on).start(scenario.initial)[0], playthrough
    )
    if again.events != playthrough.events:
        return ["replay: the events differ"]
    if again.final != playthrough.final:
        return ["replay: the final state differs"]
    return []


def run_document(scenario: Scenario, *, play_on: bool) -> Playthrough[IslandState]:
    return run(scenario, play_on=play_on)


# -- the outcome agrees with the events ----------------------------------------------------------------

_KINDS = ("explorer", "town", "city", "dahan")


def _kind_of_label(label: str) -> str:
    return BY_LETTER[label[0]].value


def _mismatch(what: str, from_events: object, in_outcome: object) -> list[str]:
    if from_events != in_outcome:
        return [f"{what}: the events give {from_events!r}, the outcome says {in_outcome!r}"]
    return []


def _fear_violations(initial: IslandState, fear: dict[str, Any], events: tuple[Event, ...]) -> list[str]:
    """Generating Fear and Earning Fear Cards: the pool, the cards earned, waiting and resolved."""
    problems = _mismatch(
        "Fear generated",
        sum(e.get("amount") for e in events if e.kind == "fear_generated"),
        fear["generated"],
    )
    destroyed = sum(e.get("fear") for e in events if e.kind == "invader_destroyed")
    accounted = sum(
        e.get("amount")
        for e in events
        if (e.kind == "fear_generated" and str(e.get("cause")).startswith("destroyed in"))
        or e.kind == "fear_not_generated"
    )
    if destroyed != accounted:
        problems.append(
            f"destroyed pieces were worth {destroyed} Fear; {accounted} was generated or reported not generated"
        )
    queue = list(initial.fear.earned)
    resolved = list(initial.fear.discard)
    for e in events:
        if e.kind == "fear_card_earned":
            queue.append(e.get("card"))
        elif e.kind == "fear_card_resolved":
            if not queue or queue[0] != e.get("card"):
                problems.append(f"Fear card {e.get('card')} resolved out of the order earned")
            else:
                queue.pop(0)
            resolved.append(e.get("card"))
    earned = sum(1 for e in events if e.kind == "fear_card_earned")
    problems += _mismatch("Fear cards earned", initial.fear.earned_total + earned, fear["earned_total"])
    problems += _mismatch("Fear cards waiting", queue, fear["unresolved"])
    problems += _mismatch("Fear cards resolved", resolved, fear["resolved"])
    pools = [e.get("pool") for e in events if e.kind == "fear_generated"]
    problems += _mismatch("Fear pool", pools[-1] if pools else initial.fear.in_pool, fear["pool"])
    return problems


def _follow_pieces(
    counts: dict[str, dict[str, int]], blight: dict[str, int], presence: dict[str, dict[str, int]], e: Event
) -> None:
    """The pieces, Blight and Presence of each land as one event leaves them."""
    land = e.get("land")
    if e.kind == "explored":
        for name in e.get("lands"):
            counts[name]["explorer"] += 1
    elif e.kind == "built":
        counts[land][e.get("piece")] += 1
    elif e.kind == "piece_added":
        counts[land][e.get("piece")] += e.get("count")
    elif e.kind == "invader_destroyed":
        counts[land][e.get("was")] -= 1
    elif e.kind == "piece_removed":
        counts[land][e.get("piece")] -= 1
    elif e.kind == "piece_replaced":
        counts[land][_kind_of_label(e.get("piece"))] -= 1
        counts[land][_kind_of_label(e.get("becomes"))] += 1
    elif e.kind == "ravaged":
        counts[land]["dahan"] -= e.get("dahan_destroyed")
    elif e.kind == "blight_added":
        blight[land] += 1
    elif e.kind == "presence_destroyed":
        presence[land][e.get("spirit")] -= 1


def _land_violations(
    scenario: Scenario, final: IslandState, result: dict[str, Any], events: tuple[Event, ...]
) -> list[str]:
    """Each land's pieces, Blight and Presence: the start plus what the events say changed them."""
    initial, island = scenario.initial, scenario.island
    counts = {
        name: {kind.value: land.count(kind) for kind in PieceKind}
        for name, land in zip(island.lands, initial.lands, strict=True)
    }
    blight = {name: land.blight for name, land in zip(island.lands, initial.lands, strict=True)}
    presence = {name: dict(land.presence) for name, land in zip(island.lands, initial.lands, strict=True)}
    for e in events:
        _follow_pieces(counts, blight, presence, e)
    problems: list[str] = []
    for name, land in zip(island.lands, final.lands, strict=True):
        problems += _mismatch(
            f"pieces in {name}", counts[name], {kind.value: land.count(kind) for kind in PieceKind}
        )
        problems += _mismatch(f"Blight in {name}", blight[name], land.blight)
        problems += _mismatch(
            f"Presence in {name}",
            {s: n for s, n in presence[name].items() if n},
            result["lands"][name]["presence"],
        )
    return problems


def outcome_violations(scenario: Scenario, playthrough: Playthrough[IslandState]) -> list[str]:
    """Every total of the outcome that is not the start plus what the events say changed it."""
    initial, final = scenario.initial, playthrough.final
    result = outcome(scenario, final)
    events = playthrough.events
    problems = _fear_violations(initial, result["fear"], events)
    blight_pools = [
        e.get("pool")
        for e in events
        if e.kind in ("blight_added", "blight_card_flipped", "blight_card_drawn")
    ]
    problems += _mismatch(
        "Blight pool", blight_pools[-1] if blight_pools else initial.blight.pool, result["blight"]["pool"]
    )
    problems += _mismatch(
        "turn", initial.turn + sum(1 for e in events if e.kind == "time_passed"), result["turn"]
    )
    return problems + _land_violations(scenario, final, result, events)
