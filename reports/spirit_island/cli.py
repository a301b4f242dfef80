"""``invasion spirit-island ...``: the searches only Spirit Island has.

``fear-threshold``, ``fight-back``, ``defend`` (one land, given in land notation or taken from a
scenario), ``cascade`` and ``lands`` / ``flip`` (a scenario). ``--engine auto`` (the default)
uses the engine that is faster for the instance (:mod:`invasion_oracle.solver.spirit_island.engines`);
``--engine both`` runs every engine (z3, CP-SAT, the exhaustive baseline) and checks that they agree. Every answer
printed has been replayed through the oracle; ``--time-limit`` covers the whole command.

Output: Markdown (wrapped text on a terminal) beginning with the command that reproduces it, or
with ``--format json`` the shared envelope (:mod:`invasion_oracle.reports.envelope`). Simulate, replay and data
are the shared verbs (:mod:`invasion_oracle.reports.verbs`). Solvers load when a search runs, not when the
parser is built.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from invasion_oracle.reports.options import (
    add_output_options,
    add_rules_options,
    add_search_options,
    interruptible,
    non_negative_int,
    output_file,
    positive_int,
    positive_seconds,
)

if TYPE_CHECKING:
    from invasion_oracle.model.spirit_island.data import GameData
    from invasion_oracle.model.spirit_island.pieces import Land
    from invasion_oracle.solver.common import Deadline

OBJECTIVES = ("fear", "destroyed")  # as solver.spirit_island.fear_threshold.OBJECTIVES (a test checks)
GOALS = ("no-blight", "dahan-safe")  # as solver.spirit_island.defend.GOALS (a test checks)
ENGINES = ("auto", "z3", "cpsat", "baseline", "both")  # reports.options.ENGINE_WORDS; every search has each
T = TypeVar("T")
TITLES = {
    "fear-threshold": "Spirit Island: least Damage for Fear",
    "fight-back": "Spirit Island: fight-back allocation",
    "defend": "Spirit Island: least Defend",
    "cascade": "Spirit Island: Blight cascade",
    "lands": "Spirit Island: where the Invaders act",
    "flip": "Spirit Island: smallest change that flips an Invader action",
}


def register(commands: Any) -> None:
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
    fear.set_defaults(run=interruptible(_fear_threshold, memory=True))

    fight = commands.add_parser("fight-back", help="the fight-back allocation with the most Fear or kills")
    _land_arguments(fight)
    fight.add_argument(
        "--dahan", type=non_negative_int, required=True, help="surviving Dahan (2 Damage each)"
    )
    fight.add_argument("--objective", choices=OBJECTIVES, default="fear")
    _search_arguments(fight)
    fight.set_defaults(run=interruptible(_fight_back, memory=True))

    defend = commands.add_parser("defend", help="least Defend preventing Blight / keeping every Dahan")
    _land_arguments(defend)
    defend.add_argument("--goal", choices=(*GOALS, "both"), default="both")
    _search_arguments(defend)
    defend.set_defaults(run=interruptible(_defend, memory=True))

    cascade = commands.add_parser(
        "cascade", help="cascade paths from a land, or which lands of a Ravage card cascade"
    )
    cascade.add_argument("scenario", help="scenario JSON file, or example:spirit_island/NAME")
    target = cascade.add_mutually_exclusive_group(required=True)
    target.add_argument("--land", help="a land with Blight: its cascade paths")
    target.add_argument(
        "--card", help="a Ravage card: which of its lands cascade (always / possible / never)"
    )
    _search_arguments(cascade)
    cascade.set_defaults(run=interruptible(_cascade, memory=True))

    lands = commands.add_parser(
        "lands", help="where a card sequence always / possibly ravages, builds and explores"
    )
    lands.add_argument("scenario", help="an island-search scenario (turns, known Explore cards, no effects)")
    _search_arguments(lands)
    lands.set_defaults(run=interruptible(_lands, memory=True))

    flip = commands.add_parser("flip", help="smallest starting change that flips where the Invaders act")
    flip.add_argument("scenario", help="an island-search scenario")
    flip.add_argument("--fact", required=True, metavar="TURN:ACTION:LAND", help="e.g. 2:ravage:A5")
    flip.add_argument(
        "--max-cost",
        type=non_negative_int,
        default=3,
        help="largest change searched (pieces added or removed)",
    )
    flip.add_argument(
        "--write",
        type=output_file("--write"),
        metavar="FILE",
        help="write the flipped start as a scenario (a boundary fixture), decisions scripted",
    )
    _search_arguments(flip)
    flip.set_defaults(run=interruptible(_flip, memory=True))


def _land_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--land", default=None, help="pieces in land notation, e.g. 'C 2T@1 E 2D'")
    parser.add_argument(
        "--health", default="", metavar="KIND=DELTA,...", help="Health modifiers, e.g. town=1,city=-1"
    )
    parser.add_argument(
        "scenario",
        nargs="?",
        default=None,
        help="take the land from this scenario (with --at): a file, example:spirit-island/NAME or -",
    )
    # The name the scenario had before it was positional, as in every other verb (deprecated).
    parser.add_argument("--scenario", dest="scenario_option", help=argparse.SUPPRESS)
    parser.add_argument("--at", help="the scenario land, e.g. A2")


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_options(parser, "spirit-island")
    add_search_options(
        parser,
        ENGINES,
        "auto",
        engine_help="auto (default): the faster engine for the instance (measured crossovers); cpsat: "
        "OR-Tools CP-SAT; both: z3, CP-SAT and the baseline, checked to agree",
    )
    # The names these options had before every game shared them.
    parser.add_argument("--method", dest="engine", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", dest="time_limit", type=positive_seconds, help=argparse.SUPPRESS)
    add_output_options(parser)


# -- shared steps ------------------------------------------------------------------------------------


def _deadline(args: argparse.Namespace) -> Deadline:
    from invasion_oracle.reports.options import command_deadline

    return command_deadline(args)


def _answer(
    args: argparse.Namespace,
    query: str,
    answer: Any,
    statuses: Sequence[Any],
    markdown: str,
    *,
    replayed: bool | None = True,
) -> int:
    """Print ``markdown``, or the envelope with ``answer``; the status is the weakest of ``statuses``."""
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import command_line, emit
    from invasion_oracle.reports.tables import section

    values = {getattr(s, "value", s) for s in statuses}
    status = "unknown" if "unknown" in values else ("best-found" if "best-found" in values else "proven")
    if status == "unknown":  # stopped before every part had an answer: the whole was not replayed
        replayed = False
    command = command_line(["invasion", *args.argv])
    if args.format == "json":
        emit(
            envelope_json("spirit-island", query, command, answer, status=status, replayed=replayed), args.out
        )
    else:
        from invasion_oracle.solver.common import recorded_engines

        runs = recorded_engines()
        if runs is not None:  # --engine both: which engines finished (and agree), which were stopped
            markdown += f"\n\nEngines: {runs.words()}; status {runs.status(status)}."
        emit(section(TITLES[query], markdown, command=command), args.out)
    return 0


def _land(args: argparse.Namespace) -> tuple[Land, GameData]:
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.spirit_island.data import build_game_data, default_data
    from invasion_oracle.model.spirit_island.pieces import PieceKind, check_land, parse_land
    from invasion_oracle.model.spirit_island.scenario import load_scenario
    from invasion_oracle.reports.cli_common import parse_data_file

    overrides = parse_data_file(args.data)
    if args.scenario_option:
        if args.scenario:
            raise MalformedInputError(
                "--scenario",
                "$",
                "give the scenario once (--scenario is the old name of the positional file)",
            )
        args.scenario = args.scenario_option
    if args.ruling and not args.scenario:
        raise MalformedInputError(
            "--ruling", "$", "a ruling reads a scenario's rules; with --land no open rule applies"
        )
    if args.scenario:
        if args.land is not None:
            raise MalformedInputError(
                "--land",
                "$",
                "give either the pieces (--land) or a scenario land (--scenario, --at), not both",
            )
        if not args.at:
            raise MalformedInputError("--at", "$", "with --scenario, name the land with --at (e.g. --at A2)")
        # --data wins over the scenario's own data, as in every other verb.
        scenario = load_scenario(
            args.scenario, tuple(args.ruling), data_overrides=overrides, data_source=args.data or "data"
        )
        if not scenario.island.has_land(args.at):
            raise MalformedInputError("--at", "$", f"no land {args.at} on the scenario's island")
        land, data = scenario.initial.lands[scenario.island.index(args.at)], scenario.data
    elif args.land is None:
        raise MalformedInputError(
            "--land", "$", "give the pieces (e.g. --land 'C 2T@1 E') or --scenario FILE --at LAND"
        )
    else:
        if args.at:
            raise MalformedInputError("--at", "$", "--at names a land of --scenario FILE; give the scenario")
        data = build_game_data(overrides, args.data) if overrides is not None else default_data()
        try:
            land = parse_land(args.land)
        except ValueError as err:
            raise MalformedInputError("--land", "$", str(err)) from None
    for part in args.health.split(",") if args.health else ():
        kind, sep, delta = part.partition("=")
        if not part.strip():
            raise MalformedInputError(
                "--health", args.health, "an empty item; separate KIND=DELTA with single commas"
            )
        if not sep:
            raise MalformedInputError("--health", part, "use KIND=DELTA, e.g. town=1")
        try:
            land = land.with_modifier(PieceKind(kind.strip()), int(delta))
        except ValueError:
            raise MalformedInputError(
                "--health", part, "use KIND=DELTA with kind explorer/town/city/dahan, e.g. town=1"
            ) from None
    problem = check_land(land, data.stats)
    if problem:
        raise MalformedInputError("--land", "$", problem)
    return land, data


def _methods(args: argparse.Namespace) -> tuple[str, ...]:
    """The engines ``--engine`` runs (``both``: every exact engine, then the baseline)."""
    return ("z3", "cpsat", "baseline") if args.engine == "both" else (args.engine,)


def _each_engine(
    args: argparse.Namespace, search: Callable[[str], T], what: str, key: Callable[[T], Any]
) -> list[T]:
    """``search(engine)`` for each engine ``--engine`` runs (once Ctrl-C or the time limit stops the
    command, the engines after are not started: :func:`~invasion_oracle.solver.common.run_engines`);
    with ``both``, the answers of the engines that finished must agree on ``key``
    (:func:`_check_agree`)."""
    from invasion_oracle.solver.common import is_proven, run_engines

    answers, _ = run_engines(_methods(args), search, _deadline(args))
    _check_agree(what, [a for a in answers if is_proven(a)], key)
    return answers


def _shown(answers: Sequence[T]) -> T:
    """The answer printed: the first engine's, named by the engines that finished
    (``z3+cpsat+baseline``), and not proven when one of them was stopped."""
    from invasion_oracle.solver.common import recorded_engines, shown_answer

    runs = recorded_engines()
    if runs is not None:
        return shown_answer(answers[0], runs, "method")  # type: ignore[no-any-return]
    if len(answers) > 1:  # not under a command (no record): every engine finished or raised
        return replace(answers[0], method="+".join(a.method for a in answers))  # type: ignore[type-var, attr-defined]
    return answers[0]


def _engine(*groups: Any) -> str:
    """The JSON ``engine`` field: the engines that answered (``auto``'s picks), joined by ``+``;
    with ``both``, only those that finished (:meth:`~invasion_oracle.solver.common.EngineRuns.label`)."""
    from invasion_oracle.solver.common import recorded_engines

    used: list[str] = []
    for group in groups:
        for item in group if isinstance(group, list | tuple) else (group,):
            method = getattr(item, "method", None)
            if isinstance(method, str) and method and method not in used:
                used.append(method)
    runs = recorded_engines()
    return runs.label(used[0] if used else None) if runs is not None else "+".join(used)


def _engines_finished(ran: Sequence[str]) -> list[str]:
    """The JSON ``engines`` list: with ``both``, the engines that finished (else the first that ran)."""
    from invasion_oracle.solver.common import recorded_engines

    runs = recorded_engines()
    return list(ran) if runs is None else runs.label(ran[0] if ran else None).split("+")


def _check_agree(what: str, answers: Sequence[Any], key: Callable[[Any], Any]) -> None:
    """With ``--engine both`` the engines' answers must agree: each against the last (the baseline).
    An answer cut short by a limit or Ctrl-C (not ``proven``) is never compared."""
    from invasion_oracle.solver.common import OracleDisagreement, Status

    answers = [a for a in answers if a.status is Status.PROVEN]
    if len(answers) < 2:
        return
    baseline = key(answers[-1])
    for exact in answers[:-1]:
        if key(exact) != baseline:
            raise OracleDisagreement(
                f"{what}: {getattr(exact, 'method', 'an engine')} says {key(exact)}, "
                f"{getattr(answers[-1], 'method', 'the baseline')} says {baseline}; this is a solver bug"
            )


def _scenario(args: argparse.Namespace) -> Any:
    from invasion_oracle.model.spirit_island.scenario import load_scenario
    from invasion_oracle.reports.cli_common import parse_data_file

    return load_scenario(
        args.scenario, tuple(args.ruling), parse_data_file(args.data), data_source=args.data or "data"
    )


# -- commands ----------------------------------------------------------------------------------------


def _fear_threshold(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.common import Status
    from invasion_oracle.solver.spirit_island.fear_threshold import (
        fear_table,
        least_damage_for_fear,
        least_damage_for_next_card,
    )

    land, data = _land(args)
    deadline = _deadline(args)

    def search(method: str) -> Any:
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
        return method, plans, nxt

    def finished(result: Any) -> bool:
        _, plans, nxt = result
        return all(p.status is Status.PROVEN for p in (*plans, *([nxt] if nxt is not None else [])))

    from invasion_oracle.solver.common import run_engines

    ran, runs = run_engines(_methods(args), search, deadline, finished)
    results: dict[str, Any] = {method: (plans, nxt) for method, plans, nxt in ran}
    compared = [results[m] for m in runs.finished]
    if len(compared) >= 2:  # each engine that finished against the last (the baseline, if it did)
        b = compared[-1]
        for name, z in zip(runs.finished, compared[:-1], strict=False):
            for pz, pb in zip(z[0], b[0], strict=True):
                _check_agree(f"least Damage for {pz.wanted} Fear ({name})", [pz, pb], lambda p: p.damage)
            if z[1] is not None:
                _check_agree("least Damage for the next Fear card", [z[1], b[1]], lambda p: p.damage)
    plans, nxt = results[_methods(args)[0]]
    baseline = results["baseline"][0] if len(runs.runs) > 1 and "baseline" in runs.finished else None
    lines = [tables.fear_table(plans, baseline)]
    if nxt is not None:
        lines.append("")
        if nxt.status is not Status.PROVEN:
            lines.append(f"Next Fear card ({args.pool} marker(s) left in the pool): unknown (time limit)")
        else:
            damage = nxt.damage if nxt.damage is not None else "impossible"
            replay = f", {nxt.allocation} (replayed: the oracle earns the card)" if nxt.replayed else ""
            lines.append(
                f"Next Fear card ({args.pool} marker(s) left in the pool): least Damage {damage}{replay}"
            )
    answer = {
        "plans": list(plans),
        "next_card": nxt,
        # the engine auto picked, never "auto" (as in the other answers)
        "engines": _engines_finished(list(results)) if len(runs.runs) > 1 else [_engine(plans, nxt)],
        "engine": runs.label() if len(runs.runs) > 1 else _engine(plans, nxt),
    }
    statuses = [p.status for p in plans] + ([nxt.status] if nxt is not None else [])
    return _answer(args, "fear-threshold", answer, statuses, "\n".join(lines))


def _fight_back(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.spirit_island.fear_threshold import best_fight_back

    land, data = _land(args)
    deadline = _deadline(args)
    plans = _each_engine(
        args,
        lambda m: best_fight_back(land, args.dahan, args.objective, data=data, method=m, deadline=deadline),
        "best fight-back",
        lambda p: p.value,
    )
    return _answer(
        args,
        "fight-back",
        {"plans": plans, "engine": _engine(plans)},
        [p.status for p in plans],
        tables.fight_back_table(plans),
    )


def _defend(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.spirit_island.defend import least_defend

    land, data = _land(args)
    goals = GOALS if args.goal == "both" else (args.goal,)
    deadline = _deadline(args)
    plans: list[Any] = []
    for goal in goals:

        def search(method: str, goal: str = goal) -> Any:
            return least_defend(land, goal, data=data, method=method, deadline=deadline)

        plans += _each_engine(args, search, f"least Defend for {goal}", lambda p: p.defend)
    return _answer(
        args,
        "defend",
        {"plans": plans, "engine": _engine(plans)},
        [p.status for p in plans],
        tables.defend_table(plans),
    )


def _cascade(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.spirit_island.cascade import best_cascade, card_cascades

    scenario = _scenario(args)
    lands = scenario.initial.lands
    deadline = _deadline(args)
    if args.land:
        name = args.land.upper()
        if not scenario.island.has_land(name):
            raise MalformedInputError("--land", "$", f"no land {args.land} on the scenario's island")
        if lands[scenario.island.index(name)].blight == 0:
            raise MalformedInputError(
                "--land", "$", f"{name} has no Blight: Blight added there does not cascade"
            )
        best = _shown(
            _each_engine(
                args,
                lambda m: best_cascade(
                    scenario.island, lands, name, data=scenario.data, method=m, deadline=deadline
                ),
                "least harmful cascade",
                lambda a: a.best,
            )
        )
        text = "\n".join(
            [
                tables.cascade_table(best),
                "",
                f"Least harmful (least Presence destroyed, then shortest): "
                f"{' > '.join((name, *best.best)) or 'stuck'}; {best.presence} Presence destroyed; "
                f"replayed: {'yes' if best.replayed else '-'}",
            ]
        )
        return _answer(args, "cascade", best, [best.status], text, replayed=bool(best.replayed))
    card = scenario.data.invader_card(args.card, source="--card", path="$")
    result = _shown(
        _each_engine(
            args,
            lambda m: card_cascades(
                scenario.island, lands, card, data=scenario.data, method=m, deadline=deadline
            ),
            f"cascades of {card.id}",
            lambda r: [(x.land, x.always, x.possible) for x in r.lands],
        )
    )
    return _answer(args, "cascade", result, [result.status], tables.card_cascade_table(result))


def _lands(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.spirit_island.island_search import question_from_scenario, search_facts

    scenario = _scenario(args)
    question = question_from_scenario(scenario)
    deadline = _deadline(args)
    results = _each_engine(
        args,
        lambda m: search_facts(question, scenario.data, method=m, deadline=deadline),
        "land sets",
        lambda r: r.verdicts,
    )
    facts = _shown(results)
    rows = [
        {"turn": t + 1, "action": a, "land": scenario.island.lands[i], "verdict": v}
        for (t, a, i), v in facts.verdicts
    ]
    text = "\n".join(
        [
            tables.facts_table(question, facts),
            "",
            f"{facts.witnesses} fact values shown on fight-back witness trajectories replayed through the oracle; "
            f"engines that finished: {', '.join(_engines_finished([r.method for r in results]))}",
        ]
    )
    answer = {
        "facts": rows,
        "witnesses_replayed": facts.witnesses,
        "engines": _engines_finished([r.method for r in results]),
        "engine": _engine(results),
    }
    return _answer(args, "lands", answer, [facts.status], text)


def _flip(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.canonical import canonical_json, write_atomic
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.spirit_island.effects import ACTIONS
    from invasion_oracle.reports.spirit_island import tables
    from invasion_oracle.solver.common import Status
    from invasion_oracle.solver.spirit_island.island_search import (
        boundary_fixture,
        question_from_scenario,
        smallest_flip,
    )

    scenario = _scenario(args)
    question = question_from_scenario(scenario)
    turn_text, _, rest = args.fact.partition(":")
    action, _, land = rest.partition(":")
    if not turn_text.isdigit() or action not in ACTIONS or not scenario.island.has_land(land.upper()):
        raise MalformedInputError(
            "--fact", args.fact, "use TURN:ACTION:LAND with action ravage/build/explore, e.g. 2:ravage:A5"
        )
    turn = int(turn_text) - 1
    if not 0 <= turn < question.turns:
        raise MalformedInputError("--fact", args.fact, f"turn must be 1-{question.turns}")
    fact = (turn, action, scenario.island.index(land.upper()))
    deadline = _deadline(args)
    flip = _shown(
        _each_engine(
            args,
            lambda m: smallest_flip(
                question, fact, data=scenario.data, method=m, max_cost=args.max_cost, deadline=deadline
            ),
            "smallest flip",
            lambda f: f.cost,
        )
    )
    written = bool(args.write) and flip.status is Status.PROVEN
    if written:  # no flip found: boundary_fixture says so (exit 2)
        write_atomic(
            args.write, canonical_json(boundary_fixture(question, flip, scenario.data), indent=1) + "\n"
        )
    lines = [tables.flip_table(flip, scenario.island.lands)]
    if written:
        lines.append(f"\nBoundary fixture written to {args.write} (checked by running it as a real game).")
    elif args.write:
        lines.append(f"\nNothing written to {args.write}: the search hit its time limit.")
    return _answer(args, "flip", flip, [flip.status], "\n".join(lines))
