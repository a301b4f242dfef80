"""``invasion spirit-island ...``: simulate, replay, data, and the searches.

Searches: ``fear-threshold``, ``fight-back``, ``defend`` (one land, given in land notation or
taken from a scenario), ``cascade`` and ``lands`` / ``flip`` (a scenario). ``--method auto`` (the
default) uses the engine that is faster for the instance (:mod:`solver.spirit_island.engines`);
``--method both`` runs z3 and the exhaustive baseline and checks that they agree. Every answer
printed has been replayed through the oracle; ``--time-limit`` covers the whole command.
"""

from __future__ import annotations

import argparse
import math
import shlex
from typing import Any

from model.core.canonical import canonical_json, write_atomic
from model.core.errors import MalformedInputError
from model.spirit_island.data import GameData, build_game_data, default_data
from model.spirit_island.effects import ACTIONS as ACTION_NAMES
from model.spirit_island.pieces import Land, PieceKind, check_land, parse_land
from model.spirit_island.scenario import load_scenario
from reports import spirit_island_tables as tables
from reports.cli_common import parse_data_file
from solver.common import Deadline, OracleDisagreement, Status
from solver.spirit_island.cascade import best_cascade, card_cascades
from solver.spirit_island.defend import GOALS, least_defend
from solver.spirit_island.fear_threshold import (
    OBJECTIVES,
    best_fight_back,
    fear_table,
    least_damage_for_fear,
    least_damage_for_next_card,
)
from solver.spirit_island.island_search import (
    boundary_fixture,
    question_from_scenario,
    search_facts,
    smallest_flip,
)


def register(commands: Any) -> None:
    """The Spirit Island searches (simulate, replay and data are the shared verbs)."""
    fear = commands.add_parser(
        "fear-threshold", help="least Damage in a land for k Fear (and for the next Fear card)"
    )
    _land_arguments(fear)
    fear.add_argument(
        "--fear", type=positive_int, metavar="K", help="only this k (default: every k the land can give)"
    )
    fear.add_argument(
        "--pool",
        type=positive_int,
        metavar="N",
        help="markers left in the Fear pool: also the least Damage earning the next card",
    )
    _search_arguments(fear)
    fear.set_defaults(run=_fear_threshold)

    fight = commands.add_parser("fight-back", help="the fight-back allocation with the most Fear or kills")
    _land_arguments(fight)
    fight.add_argument("--dahan", type=count_int, required=True, help="surviving Dahan (2 Damage each)")
    fight.add_argument("--objective", choices=OBJECTIVES, default="fear")
    _search_arguments(fight)
    fight.set_defaults(run=_fight_back)

    defend = commands.add_parser("defend", help="least Defend preventing Blight / keeping every Dahan")
    _land_arguments(defend)
    defend.add_argument("--goal", choices=(*GOALS, "both"), default="both")
    _search_arguments(defend)
    defend.set_defaults(run=_defend)

    cascade = commands.add_parser(
        "cascade", help="cascade paths from a land, or which lands of a Ravage card cascade"
    )
    cascade.add_argument("scenario")
    target = cascade.add_mutually_exclusive_group(required=True)
    target.add_argument("--land", help="a land with Blight: its cascade paths")
    target.add_argument(
        "--card", help="a Ravage card: which of its lands cascade (always / possible / never)"
    )
    _search_arguments(cascade)
    cascade.set_defaults(run=_cascade)

    lands = commands.add_parser(
        "lands", help="where a card sequence always / possibly ravages, builds and explores"
    )
    lands.add_argument("scenario", help="an island-search scenario (turns, known Explore cards, no effects)")
    _search_arguments(lands)
    lands.set_defaults(run=_lands)

    flip = commands.add_parser("flip", help="smallest starting change that flips where the Invaders act")
    flip.add_argument("scenario")
    flip.add_argument("--fact", required=True, metavar="TURN:ACTION:LAND", help="e.g. 2:ravage:A5")
    flip.add_argument(
        "--max-cost", type=count_int, default=3, help="largest change searched (pieces added or removed)"
    )
    flip.add_argument(
        "--write",
        metavar="FILE",
        help="write the flipped start as a scenario (a boundary fixture), decisions scripted",
    )
    _search_arguments(flip)
    flip.set_defaults(run=_flip)


def _rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="ID=READING",
        help="read an open rule another way (see `invasion rulings --game spirit-island`); repeatable",
    )
    parser.add_argument("--data", metavar="FILE", help="data overrides (invasion schema spirit-island-data)")


def _land_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--land", default=None, help="pieces in land notation, e.g. 'C 2T@1 E 2D'")
    parser.add_argument(
        "--health", default="", metavar="KIND=DELTA,...", help="Health modifiers, e.g. town=1,city=-1"
    )
    parser.add_argument("--scenario", help="take the land from this scenario (with --at)")
    parser.add_argument("--at", help="the scenario land, e.g. A2")
    parser.add_argument("--data", metavar="FILE", help="data overrides")


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--method",
        choices=("auto", "z3", "baseline", "both"),
        default="auto",
        help="auto (default): the faster engine for the instance; both: z3 and the baseline, checked to agree",
    )
    parser.add_argument(
        "--time-limit",
        "--seconds",
        dest="seconds",
        type=seconds_value,
        default=None,
        metavar="SECONDS",
        help="time limit for the whole command, replays included; past it the answer is unknown",
    )
    parser.add_argument("--json", action="store_true")


def count_int(text: str) -> int:
    """A count: an integer, 0 or more (a usage error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def positive_int(text: str) -> int:
    value = count_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def seconds_value(text: str) -> float:
    """A time limit: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, got {text}")
    return value


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this output: the arguments ``main`` was given, shell-quoted."""
    return shlex.join(["invasion", *args.argv])


def _land(args: argparse.Namespace) -> tuple[Land, GameData]:
    data = (
        build_game_data(parse_data_file(args.data), args.data or "data")
        if getattr(args, "data", None)
        else default_data()
    )
    if args.scenario:
        if not args.at:
            raise MalformedInputError("--at", "$", "with --scenario, name the land with --at (e.g. --at A2)")
        scenario = load_scenario(args.scenario)
        land = (
            scenario.initial.lands[scenario.island.index(args.at)]
            if scenario.island.has_land(args.at)
            else None
        )
        if land is None:
            raise MalformedInputError("--at", "$", f"no land {args.at} on the scenario's island")
        return land, scenario.data
    if args.land is None:
        raise MalformedInputError(
            "--land", "$", "give the pieces (e.g. --land 'C 2T@1 E') or --scenario FILE --at LAND"
        )
    try:
        land = parse_land(args.land)
    except ValueError as err:
        raise MalformedInputError("--land", "$", str(err)) from None
    for part in filter(None, args.health.split(",")):
        kind, sep, delta = part.partition("=")
        try:
            land = land.with_modifier(PieceKind(kind.strip()), int(delta))
        except ValueError:
            raise MalformedInputError(
                "--health", part, "use KIND=DELTA with kind explorer/town/city/dahan, e.g. town=1"
            ) from None
        if not sep:
            raise MalformedInputError("--health", part, "use KIND=DELTA, e.g. town=1")
    problem = check_land(land, data.stats)
    if problem:
        raise MalformedInputError("--land", "$", problem)
    return land, data


def _methods(args: argparse.Namespace) -> tuple[str, ...]:
    return ("z3", "baseline") if args.method == "both" else (args.method,)


def _check_agree(what: str, answers: list[Any], key: Any) -> None:
    """With ``--method both``: the two engines' answers must agree. An answer cut short by the time
    limit (``unknown``) is never compared."""
    if len(answers) != 2 or any(a.status is not Status.PROVEN for a in answers):
        return
    z3_answer, baseline = key(answers[0]), key(answers[1])
    if z3_answer != baseline:
        raise OracleDisagreement(
            f"{what}: z3 says {z3_answer}, the baseline says {baseline}; this is a solver bug"
        )


# -- commands ----------------------------------------------------------------------------------------


def _fear_threshold(args: argparse.Namespace) -> int:
    land, data = _land(args)
    deadline = Deadline(args.seconds)
    results: dict[str, Any] = {}
    for method in _methods(args):
        if args.fear is not None:
            plans: tuple[Any, ...] = (
                least_damage_for_fear(land, args.fear, data=data, method=method, deadline=deadline),
            )
        else:
            plans = fear_table(land, data=data, method=method, deadline=deadline)
        nxt = (
            least_damage_for_next_card(land, args.pool, data=data, method=method, deadline=deadline)
            if args.pool
            else None
        )
        results[method] = (plans, nxt)
    if len(results) == 2:
        z, b = results["z3"], results["baseline"]
        for pz, pb in zip(z[0], b[0], strict=True):
            _check_agree(f"least Damage for {pz.wanted} Fear", [pz, pb], lambda p: p.damage)
        if z[1] is not None:
            _check_agree("least Damage for the next Fear card", [z[1], b[1]], lambda p: p.damage)
    first = results[_methods(args)[0]]
    if args.json:
        print(
            canonical_json(
                {"plans": list(first[0]), "next_card": first[1], "methods": list(results)}, indent=1
            )
        )
        return 0
    print(tables.fear_table(first[0], results["baseline"][0] if len(results) == 2 else None))
    if first[1] is not None:
        plan = first[1]
        print()
        if plan.status is not Status.PROVEN:
            print(f"Next Fear card ({args.pool} marker(s) left in the pool): unknown (time limit)")
        else:
            print(
                f"Next Fear card ({args.pool} marker(s) left in the pool): least Damage {plan.damage if plan.damage is not None else 'impossible'}"
                + (f", {plan.allocation} (replayed: the oracle earns the card)" if plan.replayed else "")
            )
    return 0


def _fight_back(args: argparse.Namespace) -> int:
    land, data = _land(args)
    deadline = Deadline(args.seconds)
    plans = [
        best_fight_back(land, args.dahan, args.objective, data=data, method=m, deadline=deadline)
        for m in _methods(args)
    ]
    _check_agree("best fight-back", plans, lambda p: p.value)
    if args.json:
        print(canonical_json(plans, indent=1))
        return 0
    print(tables.fight_back_table(plans))
    return 0


def _defend(args: argparse.Namespace) -> int:
    land, data = _land(args)
    goals = GOALS if args.goal == "both" else (args.goal,)
    deadline = Deadline(args.seconds)
    plans = []
    for goal in goals:
        found = [least_defend(land, goal, data=data, method=m, deadline=deadline) for m in _methods(args)]
        _check_agree(f"least Defend for {goal}", found, lambda p: p.defend)
        plans += found
    if args.json:
        print(canonical_json(plans, indent=1))
        return 0
    print(tables.defend_table(plans))
    return 0


def _cascade(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    lands = scenario.initial.lands
    deadline = Deadline(args.seconds)
    if args.land:
        name = args.land.upper()
        if not scenario.island.has_land(name):
            raise MalformedInputError("--land", "$", f"no land {args.land} on the scenario's island")
        if lands[scenario.island.index(name)].blight == 0:
            raise MalformedInputError(
                "--land", "$", f"{name} has no Blight: Blight added there does not cascade"
            )
        answers = [
            best_cascade(scenario.island, lands, name, data=scenario.data, method=m, deadline=deadline)
            for m in _methods(args)
        ]
        _check_agree("least harmful cascade", answers, lambda a: a.best)
        if args.json:
            print(canonical_json(answers[0], indent=1))
            return 0
        print(tables.cascade_table(answers[0]))
        print()
        print(
            f"Least harmful (least Presence destroyed, then shortest): {' > '.join((name, *answers[0].best)) or 'stuck'}; "
            f"{answers[0].presence} Presence destroyed; replayed: {'yes' if answers[0].replayed else '-'}"
        )
        return 0
    card = scenario.data.invader_card(args.card, source="--card", path="$")
    results = [
        card_cascades(scenario.island, lands, card, data=scenario.data, method=m, deadline=deadline)
        for m in _methods(args)
    ]
    _check_agree(
        f"cascades of {card.id}", results, lambda r: [(x.land, x.always, x.possible) for x in r.lands]
    )
    if args.json:
        print(canonical_json(results[0], indent=1))
        return 0
    print(tables.card_cascade_table(results[0]))
    return 0


def _lands(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    question = question_from_scenario(scenario)
    deadline = Deadline(args.seconds)
    results = [search_facts(question, scenario.data, method=m, deadline=deadline) for m in _methods(args)]
    _check_agree("land sets", results, lambda r: r.verdicts)
    if args.json:
        rows = [
            {"turn": t + 1, "action": a, "land": scenario.island.lands[i], "verdict": v}
            for (t, a, i), v in results[0].verdicts
        ]
        print(
            canonical_json(
                {
                    "facts": rows,
                    "status": results[0].status.value,
                    "witnesses_replayed": results[0].witnesses,
                },
                indent=1,
            )
        )
        return 0
    print(tables.facts_table(question, results[0]))
    print()
    print(
        f"{results[0].witnesses} fight-back witness trajectories replayed through the oracle; methods: {', '.join(r.method for r in results)}"
    )
    return 0


def _flip(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    question = question_from_scenario(scenario)
    turn_text, _, rest = args.fact.partition(":")
    action, _, land = rest.partition(":")
    if not turn_text.isdigit() or action not in ACTION_NAMES or not scenario.island.has_land(land.upper()):
        raise MalformedInputError(
            "--fact", args.fact, "use TURN:ACTION:LAND with action ravage/build/explore, e.g. 2:ravage:A5"
        )
    turn = int(turn_text) - 1
    if not 0 <= turn < question.turns:
        raise MalformedInputError("--fact", args.fact, f"turn must be 1-{question.turns}")
    fact = (turn, action, scenario.island.index(land.upper()))
    deadline = Deadline(args.seconds)
    flips = [
        smallest_flip(question, fact, data=scenario.data, method=m, max_cost=args.max_cost, deadline=deadline)
        for m in _methods(args)
    ]
    _check_agree("smallest flip", flips, lambda f: f.cost)
    written = args.write and flips[0].status is Status.PROVEN
    if written:  # no flip found: boundary_fixture says so (exit 2)
        write_atomic(
            args.write, canonical_json(boundary_fixture(question, flips[0], scenario.data), indent=1) + "\n"
        )
    if args.json:
        print(canonical_json(flips[0], indent=1))
        return 0
    print(tables.flip_table(flips[0], scenario.island.lands))
    if written:
        print(f"\nBoundary fixture written to {args.write} (checked by running it as a real game).")
    elif args.write:
        print(f"\nNothing written to {args.write}: the search hit its time limit.")
    return 0
