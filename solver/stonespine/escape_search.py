"""Query 6: find dungeons where a named hero escapes under every route, and shrink the witness.

Two families of dungeons:

* **free spaces** (:func:`fill_free_spaces`): the scenario's dungeon with its empty element spaces
  to fill, each from a list of elements. z3 proposes a filling; the exhaustive route walk looks for
  a route that still defeats the hero; that route, as a constraint on the filling ("this route must
  not defeat"), goes back to z3 - counterexample-guided search. "unsat" proves that no filling lets
  the hero escape. The witness is then shrunk towards the earliest options of the list (like
  Hypothesis: shortlex on the choices). The baseline tries every filling.
* **generated** (:func:`search_generated`): dungeons generated from the chamber statistics by seed;
  the first seed where the hero always escapes is shrunk by dropping rows and columns, then
  elements, then doorways, while the hero still escapes.

The hero "escapes under every route" when no route the player could choose defeats it. Witnesses
are replayed through the oracle (every escape outcome's route).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import z3

from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.model.stonespine.elements import Element, Space
from invasion_oracle.model.stonespine.entering import Rules
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario, scenario_from_document
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Status, TimeLimit, z3_check
from invasion_oracle.solver.stonespine.answers import FillAnswer, GeneratedAnswer, stop_reason
from invasion_oracle.solver.stonespine.board import Board, HeroProfile, Layout, board_for, chamber_effect
from invasion_oracle.solver.stonespine.fast import defeat_mask, first_routes
from invasion_oracle.solver.stonespine.generate import random_dungeon
from invasion_oracle.solver.stonespine.replay import verify_wave
from invasion_oracle.solver.stonespine.routes import Fate, Outcome, walk_route
from invasion_oracle.solver.stonespine.rules import (
    Z3,
    chamber_facts,
    enter,
    hero_terms,
    route_rules,
    start_state,
    term,
)

Slot = tuple[int, int, int]  # player-independent: (column, row, space index)
MULTISETS = 500  # the most ways to fill one chamber's free spaces the z3 engine encodes


def _free_slots(scenario: Scenario, player: int, board: Board | None = None) -> list[Slot]:
    if board is None:
        board, _, _ = board_for(scenario, player)
    dungeon = scenario.initial.players[player].dungeon
    slots = []
    for node in sorted(board.reachable()):
        cell = board.cells[node]
        for i, space in enumerate(dungeon.chamber(cell).spaces):
            if space.empty:
                slots.append((cell.col, cell.row, i))
    return slots


def _filled(
    scenario: Scenario, player: int, slots: Sequence[Slot], choice: Sequence[Element | None]
) -> Scenario:
    state = scenario.initial
    p = state.players[player]
    dungeon = p.dungeon
    for (col, row, i), element in zip(slots, choice, strict=True):
        cell = Cell(col, row)
        chamber = dungeon.chamber(cell)
        dungeon = dungeon.with_chamber(cell, chamber.with_space(i, Space(element)))
    return replace(scenario, initial=state.with_player(player, replace(p, dungeon=dungeon)))


def _escapes_always(
    scenario: Scenario, player: int, hero: HeroColor, deadline: Deadline | None = None
) -> bool:
    board, layout, defeated = board_for(scenario, player)
    if board.limits_for(hero):
        raise RulesError(
            "the compiled board does not model " + "; ".join(board.limits_for(hero)) + " for this hero"
        )
    return defeat_mask(board, layout, board.hero(hero), defeated, deadline=deadline) == 0


def parse_elements(names: Sequence[str]) -> list[Element | None]:
    out: list[Element | None] = []
    for name in names:
        if name == "empty":
            out.append(None)
            continue
        try:
            out.append(Element.parse(name))
        except ValueError as err:
            raise MalformedInputError("--elements", name, str(err)) from None
    return out


def fill_free_spaces(
    scenario: Scenario,
    hero: HeroColor,
    elements: Sequence[str],
    *,
    engine: str = "z3",
    player: int = 0,
    deadline: Deadline | None = None,
) -> FillAnswer:
    """A filling of every empty space (in enterable chambers) with which ``hero`` always escapes.

    Stopped while shrinking, the witness shrunk so far is answered (``best-found``: it still lets
    the hero escape, and was replayed, but a smaller one may exist).
    """
    deadline = deadline or Deadline()
    options = parse_elements(elements)
    if not options:
        raise MalformedInputError("--elements", "", "give at least one element to fill the free spaces with")
    try:  # compiling the board once per element takes seconds on a large dungeon: under the deadline
        board, _, _ = board_for(scenario, player, deadline)
        if board.limits_for(hero):
            raise RulesError(
                "the compiled board does not model " + "; ".join(board.limits_for(hero)) + " for this hero"
            )
        slots = _free_slots(scenario, player, board)
        for option in options:  # refuse at once what some filling would bring that is not modelled
            if option is not None and slots:
                filling = _filled(scenario, player, slots, [option] * len(slots))
                filled, _, _ = board_for(filling, player, deadline)
                if filled.limits_for(hero):
                    raise RulesError(
                        f"with {option} in the free spaces the compiled board does not model "
                        + "; ".join(filled.limits_for(hero))
                        + " for this hero; leave that element out of --elements"
                    )
    except TimeLimit as stop:
        return FillAnswer(Status.UNKNOWN, hero, False, (), (), 0, engine, stop_reason(stop.reason))
    search = deadline.share(0.6)
    try:
        if engine == "z3":
            choice, iterations = _cegis(scenario, player, hero, slots, options, search)
        else:
            choice, iterations = _enumerate(scenario, player, hero, slots, options, search)
    except TimeLimit as stop:
        return FillAnswer(Status.UNKNOWN, hero, False, (), (), 0, engine, stop_reason(stop.reason))
    if choice is None:
        return FillAnswer(Status.PROVEN, hero, False, (), (), iterations, engine)
    original = list(choice)
    shrunk, stopped = list(choice), None
    try:
        _shrink(scenario, player, hero, slots, options, shrunk, deadline.share(0.7))
    except TimeLimit as stop:
        stopped = stop.reason
    _verify_escapes(_filled(scenario, player, slots, [options[k] for k in shrunk]), player, hero)
    return FillAnswer(
        Status.PROVEN if stopped is None else Status.BEST_FOUND,
        hero,
        True,
        _describe(slots, options, shrunk),
        _describe(slots, options, original),
        iterations,
        engine,
        stop_reason(stopped),
    )


def _describe(
    slots: Sequence[Slot], options: Sequence[Element | None], choice: Sequence[int]
) -> tuple[tuple[str, str], ...]:
    return tuple(
        (f"{Cell(c, r).name}:{i + 1}", str(options[k]) if options[k] is not None else "empty")
        for (c, r, i), k in zip(slots, choice, strict=True)
    )


def _enumerate(
    scenario: Scenario,
    player: int,
    hero: HeroColor,
    slots: Sequence[Slot],
    options: Sequence[Element | None],
    deadline: Deadline,
) -> tuple[list[int] | None, int]:
    tried = 0
    for choice in itertools.product(range(len(options)), repeat=len(slots)):
        tried += 1
        deadline.check()
        if _escapes_always(
            _filled(scenario, player, slots, [options[k] for k in choice]), player, hero, deadline
        ):
            return list(choice), tried
    return None, tried


def _cegis(
    scenario: Scenario,
    player: int,
    hero: HeroColor,
    slots: Sequence[Slot],
    options: Sequence[Element | None],
    deadline: Deadline,
) -> tuple[list[int] | None, int]:
    board, layout, defeated = board_for(scenario, player)
    index = COLORS.index(hero)
    profile = board.hero(hero)
    rules = Rules.of(scenario.rulings, scenario.data)
    p = scenario.initial.players[player]
    card = scenario.initial.heroes[index]
    pick = [z3.Int(f"k{s}") for s in range(len(slots))]
    solver = z3.Solver()
    for var in pick:
        solver.add(var >= 0, var < len(options))
    by_node: dict[int, list[int]] = {}
    for s, (col, row, _) in enumerate(slots):
        by_node.setdefault(board.index(Cell(col, row)), []).append(s)
    # What each chamber deals and whether it meets the purple condition, for every multiset of
    # options in its free spaces, read off the oracle's damage function: options do not simply add
    # up (the first monster can make a chamber dangerous, so that hero abilities resolve there).
    added: dict[int, tuple[Any, Any]] = {}
    for node, members in by_node.items():
        deadline.check()
        cell = board.cells[node]
        original = p.dungeon.chamber(cell)
        kinds = list(itertools.combinations_with_replacement(range(len(options)), len(members)))
        if len(kinds) > MULTISETS:
            raise RulesError(
                f"{cell.name} has {len(members)} free spaces: {len(kinds)} ways to fill them with "
                f"{len(options)} elements is more than the z3 engine handles; use --engine search or fewer --elements"
            )
        minions = layout.minions[node]
        before, _ = chamber_effect(rules, p.guardian, cell, original, card, minions)
        counts = [z3.Sum([z3.If(pick[s] == k, 1, 0) for s in members]) for k in range(len(options))]
        damage: Any = 0
        met: list[Any] = []
        for kind in kinds:
            chamber = original
            for s, k in zip(members, kind, strict=True):
                chamber = chamber.with_space(slots[s][2], Space(options[k]))
            dealt, condition = chamber_effect(rules, p.guardian, cell, chamber, card, minions)
            same = z3.And([counts[k] == kind.count(k) for k in set(kind)])
            if dealt != before:
                damage = z3.If(same, dealt - before, damage)
            if condition:
                met.append(same)
        added[node] = (damage, z3.Or(met) if met else False)

    def added_damage(node: int) -> Any:
        return added[node][0] if node in added else 0

    def added_condition(node: int) -> Any:
        return added[node][1] if node in added else False

    iterations = 0
    while True:
        iterations += 1
        if z3_check(solver, deadline) == z3.unsat:
            return None, iterations
        model = solver.model()
        choice = [model.eval(v, model_completion=True).as_long() for v in pick]
        candidate = _filled(scenario, player, slots, [options[k] for k in choice])
        cboard, clayout, _ = board_for(candidate, player)
        if cboard.limits_for(hero):
            raise RulesError(
                "the compiled board does not model " + "; ".join(cboard.limits_for(hero)) + " for this hero"
            )
        routes = first_routes(cboard, clayout, cboard.hero(hero), defeated, deadline)
        defeat = next((routes[k] for k in sorted(routes) if k[0] == Fate.DEFEATED.value), None)
        if defeat is None:
            return choice, iterations
        solver.add(
            z3.Not(_route_defeats(board, layout, profile, defeated, defeat, added_damage, added_condition))
        )


def _route_defeats(
    board: Board,
    layout: Layout,
    profile: HeroProfile,
    defeated: int,
    route: Sequence[int],
    added_damage: Any,
    added_condition: Any,
) -> Any:
    """The filling-dependent condition under which ``route`` is legal and defeats the hero at its
    end: :func:`rules.enter` applied chamber by chamber along it, on z3 terms."""
    rules, terms = route_rules(board), hero_terms(Z3, profile)
    state = start_state(Z3)
    legal: list[Any] = []
    for position, node in enumerate(route):
        facts = chamber_facts(
            Z3,
            board,
            profile,
            node,
            minions=layout.minions[node],
            guardian=node in layout.guardians,
            ignored=bool(defeated >> node & 1),
            added_damage=added_damage(node),
            added_condition=added_condition(node),
        )
        step = enter(Z3, rules, terms, facts, state)
        if position == len(route) - 1:
            return term(Z3.all_(*legal, Z3.any_(step.by_guardian, step.by_damage)))
        legal.append(step.moves_on)
        state = step.after
    return z3.BoolVal(False)


def _shrink(
    scenario: Scenario,
    player: int,
    hero: HeroColor,
    slots: Sequence[Slot],
    options: Sequence[Element | None],
    current: list[int],
    deadline: Deadline,
) -> None:
    """Lower each choice (in place) to the earliest option that keeps the hero escaping, until
    nothing moves; stopped by the deadline, ``current`` is still a witness."""
    changed = True
    while changed:
        changed = False
        for s in range(len(current)):
            for k in range(current[s]):
                trial = [*current[:s], k, *current[s + 1 :]]
                if _escapes_always(
                    _filled(scenario, player, slots, [options[x] for x in trial]), player, hero, deadline
                ):
                    current[s], changed = k, True
                    break


def _verify_escapes(
    scenario: Scenario, player: int, hero: HeroColor, deadline: Deadline | None = None
) -> None:
    """Replay one route to every end the hero can reach: each must be an escape."""
    board, layout, defeated = board_for(scenario, player)
    for key, nodes in sorted(first_routes(board, layout, board.hero(hero), defeated, deadline).items()):
        outcome = (
            walk_route(board, layout, hero, nodes, defeated)
            if nodes
            else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
        )
        route = [board.name(n) for n in outcome.route]
        verify_wave(
            scenario,
            player,
            [(hero, route)],
            [(outcome.fate.value, route[-1] if route else None, outcome.reason)],
        )
        if outcome.fate is not Fate.ESCAPED:
            raise OracleDisagreement(f"the escape witness lets the hero be defeated at {key[1]}")


# -- generated dungeons ---------------------------------------------------------------------------


def search_generated(
    base: dict[str, Any],
    hero: HeroColor,
    *,
    rows: int,
    columns: int,
    seeds: int,
    open_doors: float = 0.0,
    deadline: Deadline | None = None,
    source: str = "generated",
) -> GeneratedAnswer:
    """The first generated dungeon (by seed) where ``hero`` always escapes, shrunk.

    Stopped while shrinking, the dungeon shrunk so far is answered (``best-found``)."""
    deadline = deadline or Deadline()
    search = deadline.share(0.8)
    tried = 0
    try:
        for seed in range(seeds):
            search.check()
            tried += 1
            dungeon = random_dungeon(seed, rows, columns, open_doors=open_doors)
            if _generated_escapes(base, dungeon, hero, source, search):
                small = [dungeon]
                stopped = None
                try:
                    _shrink_dungeon(base, small, hero, source, search)
                except TimeLimit as stop:
                    stopped = stop.reason
                scenario = _scenario_with(base, small[0], source)
                if scenario is not None:
                    _verify_escapes(scenario, 0, hero, deadline)
                return GeneratedAnswer(
                    Status.PROVEN if stopped is None else Status.BEST_FOUND,
                    hero,
                    seed,
                    tried,
                    small[0],
                    dungeon,
                    stop_reason(stopped),
                )
    except TimeLimit as stop:
        return GeneratedAnswer(Status.UNKNOWN, hero, None, tried, None, None, stop_reason(stop.reason))
    return GeneratedAnswer(Status.PROVEN, hero, None, tried, None, None)


def _scenario_with(base: dict[str, Any], dungeon: dict[str, Any], source: str) -> Scenario | None:
    doc = {**base, "players": [dict(base["players"][0])]}
    player = doc["players"][0]
    player["dungeon"] = dungeon
    cols, rows = len(dungeon["rows"][0]), len(dungeon["rows"])
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def inside(cell: str) -> bool:
        return letters.index(cell[0].upper()) < cols and int(cell[1:]) <= rows

    placement = player.get("placement", {"guardians": [], "minions": []})
    guardians = [c for c in placement.get("guardians", []) if inside(c)]
    if len(guardians) != len(placement.get("guardians", [])):
        return None  # the guardian's chamber is gone: not the same question any more
    player["placement"] = {
        "guardians": guardians,
        "minions": [c for c in placement.get("minions", []) if inside(c)],
    }
    doc["rulings"] = {**base.get("rulings", {}), "SS-MINIONS": "optional"}
    try:
        return scenario_from_document(doc, source)
    except MalformedInputError:
        return None


def _generated_escapes(
    base: dict[str, Any], dungeon: dict[str, Any], hero: HeroColor, source: str, deadline: Deadline
) -> bool:
    deadline.check()
    scenario = _scenario_with(base, dungeon, source)
    if scenario is None:
        return False
    board, _, _ = board_for(scenario, 0)
    return not board.limits_for(hero) and _escapes_always(scenario, 0, hero, deadline)


def _shrink_dungeon(
    base: dict[str, Any], current: list[dict[str, Any]], hero: HeroColor, source: str, deadline: Deadline
) -> None:
    """Shrink ``current[0]`` in place while the hero still escapes (a witness at every step)."""
    changed = True
    while changed:
        changed = False
        for candidate in _smaller(current[0]):
            if _generated_escapes(base, candidate, hero, source, deadline):
                current[0], changed = candidate, True
                break


def _shift(column: int, removed: int) -> int:
    return column - 1 if column > removed else column


def _smaller(dungeon: dict[str, Any]) -> list[dict[str, Any]]:
    """Simpler dungeons, biggest cuts first: a row, a column, an element, a doorway."""
    rows = dungeon["rows"]
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = []
    if len(rows) > 1:
        out.append({**dungeon, "rows": [list(r) for r in rows[:-1]]})
    entrance = letters.index(dungeon["entrance"])
    exit_col = letters.index(dungeon["exit"])
    for col in range(len(rows[0])):
        if len(rows[0]) == 1 or col == entrance:
            continue
        new_exit = exit_col if exit_col != col else entrance
        out.append(
            {
                "entrance": letters[_shift(entrance, col)],
                "exit": letters[_shift(new_exit, col)],
                "rows": [[c for i, c in enumerate(r) if i != col] for r in rows],
            }
        )
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            words = text.split()
            for w in range(2, len(words)):
                smaller = [list(x) for x in rows]
                smaller[r][c] = " ".join(words[:w] + words[w + 1 :])
                out.append({**dungeon, "rows": smaller})
            for door in words[1]:
                if door == "-" or (r == 0 and c == entrance and door == "T"):
                    continue
                smaller = [list(x) for x in rows]
                doors = words[1].replace(door, "") or "-"
                smaller[r][c] = " ".join([words[0], doors, *words[2:]])
                out.append({**dungeon, "rows": smaller})
    return out
