"""``invasion vulketh ...``: the verbs only the Vul'Keth game has (its three searches).

Argument parsing only; the handlers import the solvers when called, so building the parser stays
cheap. Every search prints the command that reproduces it; ``--engine both`` runs z3 and the
exhaustive baseline (and, for the race, CP-SAT and the compiled engine; for clearing a hex, CP-SAT) and stops
with an error if they disagree; every answer printed has been replayed through the oracle. The
default engine ``auto`` takes the one measured faster on these searches (z3 for the race, the
baseline for a Vul'Keth-tribe race and for where readings part; for clearing a hex the baseline,
or CP-SAT where the baseline may have to try more than 1,000 placements; docs/vulketh.md),
and ``--time-limit`` covers the whole command: every question, both engines, the replays.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from invasion_oracle.reports.options import (
    add_output_options,
    add_rules_options,
    add_search_options,
    interruptible,
    name_list,
    non_negative_int,
    output_file,
    positive_int,
)

if TYPE_CHECKING:
    from invasion_oracle.solver.common import Deadline

# Where readings part: `auto` (the default) takes the baseline, measured the faster at every size
# the bench runs (tests/bench/bench_vulketh.py; z3 takes about 250 s CPU on differ's nine default
# pairs against 1.4 s).
ENGINES = ("auto", "z3", "baseline", "both")
# Clearing a hex: `auto` takes the baseline up to 1,000 placements to try, CP-SAT beyond
# (solver/vulketh/clear.py, CLEAR_CROSSOVER, from the bench); `both` runs z3, CP-SAT and the baseline.
CLEAR_ENGINES = ("auto", "z3", "cpsat", "baseline", "both")
# The race: `auto` takes the compiled engine (measured faster than z3, CP-SAT and the baseline at
# every size, tests/bench/bench_vulketh.py; solver/vulketh/race.py, auto_engine), the baseline for
# what the compiled rules refuse, a Vul'Keth-tribe player among them (Pillage is searched only
# there); `both` runs z3, CP-SAT, compiled and the baseline.
RACE_ENGINES = ("auto", "z3", "cpsat", "compiled", "baseline", "both")


def register(commands: Any) -> None:
    # `invasion vulketh ambiguities` is the generic verb (reports/ambiguity/cli.py).
    from invasion_oracle.solver.vulketh.race_question import QUESTION

    race = commands.add_parser(
        "race",
        help="over the card draws: the fewest Invader turns to the fifth Warlord, and the dice placements that push it furthest",
        description=f"The race: {QUESTION}.",
    )
    race.add_argument(
        "scenario", help="a position (start player or invader) whose player turns give only dice faces"
    )
    add_rules_options(race, "vulketh")
    add_output_options(race)
    add_search_options(
        race,
        RACE_ENGINES,
        "auto",
        engine_help="auto (default): z3, or the baseline for a Vul'Keth-tribe player (Pillage); "
        "cpsat: z3's model with OR-Tools CP-SAT (slower here); "
        "compiled: every plan over the compiled rules, prefixes shared; both: all four, checked equal",
    )
    race.set_defaults(run=interruptible(_race), verb_engines="race")

    clear = commands.add_parser(
        "clear",
        help="where to put members so a hex holds no Invader after the next Invader turn, whatever is drawn",
    )
    clear.add_argument("scenario", help="the position at the end of the player's actions (start invader)")
    clear.add_argument("--hex", type=positive_int, required=True, help="the hex to clear (1-9)")
    clear.add_argument(
        "--members", type=non_negative_int, default=4, help="most members to place (default 4)"
    )
    clear.add_argument(
        "--hexes", type=name_list, metavar="N,N", help="where members may go (default: any hex)"
    )
    add_rules_options(clear, "vulketh")
    add_output_options(clear)
    add_search_options(
        clear,
        CLEAR_ENGINES,
        "auto",
        engine_help="auto (default): the baseline, or CP-SAT where the baseline may have to try more than "
        "1,000 placements (measured faster there); z3; cpsat: the same model with OR-Tools CP-SAT; "
        "both: all three, checked equal",
    )
    clear.set_defaults(run=interruptible(_clear), verb_engines="clear")

    differ = commands.add_parser(
        "differ", help="the smallest positions where MOVE or GROW behave differently under two readings"
    )
    differ.add_argument(
        "--ruling-id",
        choices=("VK-MOVE-DEST", "VK-MOVE-HIGHEST", "VK-GROW-OVERFLOW"),
        help="one ruling (default: every pair of readings of all three, both directions)",
    )
    differ.add_argument(
        "--readings", type=name_list, metavar="A,B", help="two readings (default: every pair)"
    )
    differ.add_argument(
        "--direction", choices=("lowest", "highest"), help="default: both (MOVE-HIGHEST: highest)"
    )
    differ.add_argument(
        "--amount", type=positive_int, help="Invaders the action moves or adds (default: standard strength)"
    )
    differ.add_argument("--max-size", type=positive_int, default=8, help="largest position searched (pieces)")
    differ.add_argument(
        "--write",
        type=output_file("--write"),
        metavar="FILE",
        help="write the first answer as a boundary-fixture scenario",
    )
    add_rules_options(differ, "vulketh")
    add_output_options(differ)
    add_search_options(
        differ,
        ENGINES,
        "auto",
        engine_help="auto (default): the baseline (about 0.15 s per reading pair); z3 is far slower here "
        "(about 250 s CPU for the nine default pairs, 80 s for each GROW pair); both: both, checked equal",
    )
    differ.set_defaults(run=interruptible(_differ), verb_engines="differ")


# -- handlers ------------------------------------------------------------------------------------


def _command(args: argparse.Namespace) -> str:
    from invasion_oracle.reports.output import command_line

    return command_line(["invasion", *args.argv])


def _engines(args: argparse.Namespace) -> tuple[str, ...]:
    if args.engine == "both":
        return {"race": ("z3", "cpsat", "compiled", "baseline"), "clear": ("z3", "cpsat", "baseline")}.get(
            args.verb_engines, ("z3", "baseline")
        )
    if args.engine == "auto" and args.verb_engines == "differ":
        return ("baseline",)
    return (args.engine,)


def _limits(args: argparse.Namespace) -> Deadline:
    """z3's memory cap, and the one deadline of the whole command."""
    import z3

    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.reports.options import Z3_MIN_MEMORY_MIB, command_deadline

    # `auto` picks z3 for the race (the baseline only for a Vul'Keth-tribe position), never for clear
    engines = set(_engines(args))
    if ("z3" in engines or ("auto" in engines and args.verb_engines == "race")) and (
        args.memory_limit < Z3_MIN_MEMORY_MIB
    ):
        # below this z3 cannot even start its solver (it crashed the process: SIGSEGV)
        raise MalformedInputError(
            "--memory-limit",
            str(args.memory_limit),
            f"the z3 engine needs at least {Z3_MIN_MEMORY_MIB} MiB; give --memory-limit "
            f"{Z3_MIN_MEMORY_MIB} or more, or --engine baseline",
        )
    z3.set_param("memory_max_size", int(args.memory_limit))
    return command_deadline(args)


def _left(deadline: Deadline) -> float | None:
    """Seconds left for the next search (a tiny positive number once the time is up: it answers unknown)."""
    left = deadline.remaining()
    return None if left is None else max(left, 1e-6)


def _load(args: argparse.Namespace) -> Any:
    from invasion_oracle.model.vulketh.scenario import load_scenario
    from invasion_oracle.reports.cli_common import parse_data_file

    return load_scenario(args.scenario, tuple(args.ruling), parse_data_file(args.data), args.data or "data")


def _disagree(what: str, a: object, b: object) -> None:
    from invasion_oracle.solver.common import OracleDisagreement

    raise OracleDisagreement(f"the engines disagree on {what}: {a} vs {b}")


def _run(engines: Sequence[str], deadline: Deadline, solve: Any) -> tuple[list[Any], Any]:
    """``solve(engine)`` for each engine (:func:`~invasion_oracle.solver.common.run_engines`): the
    answers, and what became of each engine (stopped ones are never said to agree)."""
    from invasion_oracle.solver.common import run_engines

    return run_engines(engines, solve, deadline)


def _proven(answers: Sequence[Any]) -> list[Any]:
    """The answers of the engines that finished: the only ones compared."""
    return [a for a in answers if a.status.value == "proven"]


def _answered(answers: list[Any], runs: Any) -> Any:
    """The answer a JSON envelope reports: the first engine's, named by the engines that finished
    (``z3+baseline``, as in every game); not ``proven`` when one of them was stopped."""
    import dataclasses

    from invasion_oracle.solver.common import Status

    if len(runs.runs) == 1:
        return answers[0]
    answer = answers[0]
    status = Status(runs.status(answer.status.value))
    return dataclasses.replace(answer, engine=runs.label(answer.engine), status=status)


def _race(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import section
    from invasion_oracle.reports.vulketh.tables import race_report
    from invasion_oracle.solver.vulketh.race import question_from_scenario, race

    deadline = _limits(args)
    question = question_from_scenario(_load(args))
    answers, runs = _run(
        _engines(args),
        deadline,
        lambda e: race(question, engine=e, seconds=_left(deadline), parent=deadline),
    )
    proven = _proven(answers)
    for part in ("fewest", "furthest"):
        for other in proven[1:]:
            a, b = getattr(proven[0], part), getattr(other, part)
            if (a.turn, a.plan, a.draws, a.pillage) != (b.turn, b.plan, b.draws, b.pillage):
                _disagree(part, a.to_json(), b.to_json())
    answer = _answered(answers, runs)
    if args.format == "json":
        emit(
            envelope_json(
                "vulketh",
                "race",
                _command(args),
                answer,
                status=answer.status.value,
                replayed=answer.replayed,
            ),
            args.out,
        )
        return 0
    emit(
        section(
            "Vul'Keth: the race to the fifth Warlord",
            race_report(question, answer, runs, None),
            command=_command(args),
        ),
        args.out,
    )
    return 0


def _clear(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import section
    from invasion_oracle.reports.vulketh.tables import clear_report
    from invasion_oracle.solver.vulketh.clear import auto_engine, clear_hex, question_from_scenario

    deadline = _limits(args)
    hexes = None
    if args.hexes:
        try:
            hexes = [int(h) for h in args.hexes]
        except ValueError:
            raise MalformedInputError(
                "--hexes", "$", f"hex numbers 1-9 separated by commas, got {','.join(args.hexes)}"
            ) from None
    question = question_from_scenario(_load(args), args.hex, args.members, hexes)
    engines = (auto_engine(question),) if args.engine == "auto" else _engines(args)
    answers, runs = _run(
        engines,
        deadline,
        lambda e: clear_hex(question, engine=e, seconds=_left(deadline), parent=deadline),
    )
    keys = [(a.placement, a.alternatives) for a in _proven(answers)]
    for key in keys[1:]:
        if key != keys[0]:
            _disagree("the placement", keys[0], key)
    answer = _answered(answers, runs)
    if args.format == "json":
        emit(
            envelope_json(
                "vulketh",
                "clear",
                _command(args),
                answer,
                status=answer.status.value,
                replayed=answer.replayed,
            ),
            args.out,
        )
        return 0
    emit(
        section(
            f"Vul'Keth: clearing hex {question.target}",
            clear_report(question, answer, runs, None),
            command=_command(args),
        ),
        args.out,
    )
    return 0


def _differ(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.canonical import canonical_json, write_atomic
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.core.rulings import REGISTRY, Rulings
    from invasion_oracle.model.vulketh.data import build_game_data, default_data
    from invasion_oracle.model.vulketh.game import Rules
    from invasion_oracle.reports.cli_common import parse_data_file
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import section
    from invasion_oracle.reports.vulketh.tables import differ_report
    from invasion_oracle.solver.vulketh.differ import (
        RULINGS,
        make_question,
        smallest_difference,
        witness_document,
    )

    deadline = _limits(args)
    overrides = parse_data_file(args.data)
    data = build_game_data(overrides, args.data) if overrides else default_data()
    rules = Rules.of(Rulings.defaults("vulketh").with_choices(args.ruling), data)
    rulings = [args.ruling_id] if args.ruling_id else list(RULINGS)
    if args.readings and (len(args.readings) != 2 or not args.ruling_id):
        raise MalformedInputError("--readings", "$", "give two readings, A,B, with --ruling-id")
    questions = []
    for rid in rulings:
        names = REGISTRY.get(rid).reading_names
        pairs = (
            [tuple(args.readings)]
            if args.readings
            else [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        )
        directions = (
            [args.direction]
            if args.direction
            else (["highest"] if rid == "VK-MOVE-HIGHEST" else ["lowest", "highest"])
        )
        for pair in pairs:
            for direction in directions:
                questions.append(
                    make_question(rules, rid, (pair[0], pair[1]), direction, args.amount, args.max_size)
                )
    results = []
    for question in questions:
        answers, runs = _run(
            _engines(args),
            deadline,
            lambda e, question=question: smallest_difference(
                question, engine=e, seconds=_left(deadline), parent=deadline
            ),
        )
        proven = _proven(answers)
        if len(proven) == 2 and proven[0].position != proven[1].position:
            _disagree(f"{question.ruling} {question.readings}", proven[0].position, proven[1].position)
        results.append((answers, runs))
    if args.write:
        first = next((a[0] for a, _ in results if a[0].position is not None), None)
        if first is not None:
            question = questions[[a[0] for a, _ in results].index(first)]
            assert first.position is not None
            write_atomic(
                args.write, canonical_json(witness_document(question, first.position, data), indent=2) + "\n"
            )
    if args.format == "json":
        answer = [_answered(a, runs) for a, runs in results]
        status = "proven" if all(a.status.value == "proven" for a in answer) else "unknown"
        emit(
            envelope_json(
                "vulketh",
                "differ",
                _command(args),
                answer,
                status=status,
                replayed=all(a.replayed or a.position is None for a in answer),
            ),
            args.out,
        )
        return 0
    emit(
        section(
            "Vul'Keth: the smallest positions where readings part",
            differ_report([(_answered(a, runs), runs) for a, runs in results], None),
            command=_command(args),
        ),
        args.out,
    )
    return 0
