"""``invasion spirit-island ...``: simulate, replay, data, and the searches.

Searches: ``fear-threshold``, ``fight-back``, ``defend`` (one land, given in land notation or
taken from a scenario), ``cascade`` and ``lands`` / ``flip`` (a scenario). ``--method both`` runs
z3 and the exhaustive baseline and reports whether they agree; every answer printed has been
replayed through the oracle.
"""

from __future__ import annotations

import argparse
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
from solver.common import OracleDisagreement
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
        "--fear", type=int, metavar="K", help="only this k (default: every k the land can give)"
    )
    fear.add_argument(
        "--pool",
        type=int,
        metavar="N",
        help="markers left in the Fear pool: also the least Damage earning the next card",
    )
    _search_arguments(fear)
    fear.set_defaults(run=_fear_threshold)

    fight = commands.add_parser("fight-back", help="the fight-back allocation with the most Fear or kills")
    _land_arguments(fight)
    fight.add_argument("--dahan", type=int, required=True, help="surviving Dahan (2 Damage each)")
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
        "--max-cost", type=int, default=3, help="largest change searched (pieces added or removed)"
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
        choices=("z3", "baseline", "both"),
        default="both",
        help="both: z3 and the baseline, checked to agree",
    )
    parser.add_argument(
        "--time-limit",
        "--seconds",
        dest="seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time limit per search; a time-out is reported as unknown",
    )
    parser.add_argument("--json", action="store_true")


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


def _disagree(what: str, z3_answer: object, baseline: object) -> None:
    raise OracleDisagreement(
        f"{what}: z3 says {z3_answer}, the baseline says {baseline}; this is a solver bug"
    )


# -- commands ----------------------------------------------------------------------------------------


def _fear_threshold(args: argparse.Namespace) -> int:
    land, data = _land(args)
    results: dict[str, Any] = {}
    for method in _methods(args):
        if args.fear is not None:
            plans: tuple[Any, ...] = (
                least_damage_for_fear(land, args.fear, data=data, method=method, seconds=args.seconds),
            )
        else:
            plans = fear_table(land, data=data, method=method, seconds=args.seconds)
        nxt = (
            least_damage_for_next_card(land, args.pool, data=data, method=method, seconds=args.seconds)
            if args.pool
            else None
        )
        results[method] = (plans, nxt)
    if len(results) == 2:
        z, b = results["z3"], results["baseline"]
        for pz, pb in zip(z[0], b[0], strict=True):
            if pz.damage != pb.damage:
                _disagree(f"least Damage for {pz.wanted} Fear", pz.damage, pb.damage)
        if z[1] is not None and z[1].damage != b[1].damage:
            _disagree("least Damage for the next Fear card", z[1].damage, b[1].damage)
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
        print(
            f"Next Fear card ({args.pool} marker(s) left in the pool): least Damage {plan.damage if plan.damage is not None else 'impossible'}"
            + (f", {plan.allocation} (replayed: the oracle earns the card)" if plan.replayed else "")
        )
    return 0


def _fight_back(args: argparse.Namespace) -> int:
    land, data = _land(args)
    plans = [
        best_fight_back(land, args.dahan, args.objective, data=data, method=m, seconds=args.seconds)
        for m in _methods(args)
    ]
    if len(plans) == 2 and plans[0].value != plans[1].value:
        _disagree("best fight-back", plans[0].value, plans[1].value)
    if args.json:
        print(canonical_json(plans, indent=1))
        return 0
    print(tables.fight_back_table(plans))
    return 0


def _defend(args: argparse.Namespace) -> int:
    land, data = _land(args)
    goals = GOALS if args.goal == "both" else (args.goal,)
    plans = []
    for goal in goals:
        found = [least_defend(land, goal, data=data, method=m, seconds=args.seconds) for m in _methods(args)]
        if len(found) == 2 and found[0].defend != found[1].defend:
            _disagree(f"least Defend for {goal}", found[0].defend, found[1].defend)
        plans += found
    if args.json:
        print(canonical_json(plans, indent=1))
        return 0
    print(tables.defend_table(plans))
    return 0


def _cascade(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    lands = scenario.initial.lands
    if args.land:
        name = args.land.upper()
        if not scenario.island.has_land(name):
            raise MalformedInputError("--land", "$", f"no land {args.land} on the scenario's island")
        if lands[scenario.island.index(name)].blight == 0:
            raise MalformedInputError(
                "--land", "$", f"{name} has no Blight: Blight added there does not cascade"
            )
        answers = [
            best_cascade(scenario.island, lands, name, data=scenario.data, method=m, seconds=args.seconds)
            for m in _methods(args)
        ]
        if len(answers) == 2 and answers[0].best != answers[1].best:
            _disagree("least harmful cascade", answers[0].best, answers[1].best)
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
        card_cascades(scenario.island, lands, card, data=scenario.data, method=m, seconds=args.seconds)
        for m in _methods(args)
    ]
    if len(results) == 2 and [(x.always, x.possible) for x in results[0].lands] != [
        (x.always, x.possible) for x in results[1].lands
    ]:
        _disagree(f"cascades of {card.id}", results[0].lands, results[1].lands)
    if args.json:
        print(canonical_json(results[0], indent=1))
        return 0
    print(tables.card_cascade_table(results[0]))
    return 0


def _lands(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    question = question_from_scenario(scenario)
    results = [search_facts(question, scenario.data, method=m, seconds=args.seconds) for m in _methods(args)]
    if len(results) == 2 and results[0].verdicts != results[1].verdicts:
        _disagree("land sets", results[0].verdicts, results[1].verdicts)
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
    flips = [
        smallest_flip(
            question, fact, data=scenario.data, method=m, max_cost=args.max_cost, seconds=args.seconds
        )
        for m in _methods(args)
    ]
    if len(flips) == 2 and flips[0].cost != flips[1].cost:
        _disagree("smallest flip", flips[0].cost, flips[1].cost)
    if args.write:
        write_atomic(
            args.write, canonical_json(boundary_fixture(question, flips[0], scenario.data), indent=1) + "\n"
        )
    if args.json:
        print(canonical_json(flips[0], indent=1))
        return 0
    print(tables.flip_table(flips[0], scenario.island.lands))
    if args.write:
        print(f"\nBoundary fixture written to {args.write} (checked by running it as a real game).")
    return 0
