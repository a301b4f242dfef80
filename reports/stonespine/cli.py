"""``invasion stonespine routes|wave|policy|place|min-damage|escape|plan``: the verbs only Stonespine has.

The searches in ``solver/stonespine`` answer with typed values; this module parses the arguments
and renders those answers: Markdown (a picture of the dungeon with the answer drawn on it,
tables, the engine and the status - proven, best-found with the bound proved, or unknown - and
the command that reproduces it) or, with ``--json``, one canonical JSON envelope
(``game``, ``query``, ``command``, ``status``, ``answer``, ``replayed``).

Every search keeps ``--time-limit`` whole (set-up, search and the oracle replay) and stays within
``--memory-limit``; on either, or on Ctrl-C, it answers its best so far.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from invasion_oracle.reports.options import (
    add_engine_option,
    add_output_options,
    add_rules_options,
    add_search_options,
    interruptible,
    name_list,
    non_negative_int,
)

if TYPE_CHECKING:
    from invasion_oracle.model.stonespine.heroes import HeroColor
    from invasion_oracle.model.stonespine.scenario import Scenario
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.stonespine.board import Board, Layout
    from invasion_oracle.solver.stonespine.policy import Measure

MEASURES = ("trophy", "defeated", "xp", "no-escape")  # solver.stonespine.policy.Measure (tested equal)

# The engine vocabulary (reports.options.ENGINE_WORDS) for Stonespine. ``search`` is Stonespine's
# own fast engine (tabulated rules, placement classes, cuts); ``baseline`` is the exhaustive search
# through the oracle (the solvers call it ``oracle``; ``--engine oracle`` still works); for
# min-damage and escape, whose ``search`` is already exhaustive enumeration, ``baseline`` is that.
# ``auto`` is ``search`` in every verb but min-damage: it is the fastest engine on every Stonespine
# row of the bench (docs/performance.md, "Stonespine solvers": place 0.9x-142x over enumeration and
# far more over z3, CP-SAT ("place engines") and the oracle; routes 14x over z3; escape:
# `make bench`, "engines"). min-damage's ``auto`` is the search for a budget of candidates, then
# CP-SAT (solver/stonespine/min_damage.py, MINION_BUDGET and TOKEN_BUDGET, from `make bench`,
# "min-damage engines"); the JSON names the one that answered.
ENGINES = {
    "routes": ("search", "z3", "baseline"),
    "wave": ("search", "z3", "baseline"),
    "policy": ("dp",),
    "place": ("search", "z3", "cpsat", "baseline"),
    "min-damage": ("search", "z3", "cpsat"),
    "escape": ("search", "z3"),
    "plan": ("search",),
}
# escape: z3 is 20x faster than the tabulated search on free-space fills (placement.json --elements
# +1,chest: 0.5 s against 11 s of CPU); the generated family runs its own search either way.
AUTO = {"policy": "dp", "escape": "z3", "min-damage": "auto"}  # otherwise "search"
AUTO_HELP = {"min-damage": "the search, then CP-SAT once the search has tried its budget of candidates"}
SOLVER_NAME = {"baseline": "oracle"}


def _engines(args: argparse.Namespace, verb: str) -> tuple[str, ...]:
    """The solver engine names ``--engine`` runs for ``verb`` (``both``: every engine, in order)."""
    from invasion_oracle.reports.options import engines_to_run

    ran = engines_to_run(args.engine, ENGINES[verb], lambda: AUTO.get(verb, "search"))
    return tuple(SOLVER_NAME.get(e, e) for e in ran)


def _agreeing(args: argparse.Namespace, verb: str, solve: Any, key: Any) -> Any:
    """``solve(engine)`` for each engine ``--engine`` runs; with ``both`` the answers of the engines
    that finished must agree on ``key`` (an engine stopped by a limit or Ctrl-C is named, never
    compared: :func:`~invasion_oracle.solver.common.run_engines`). The first engine's answer is
    rendered, its ``engine`` naming the engines that finished; ``args.engine`` becomes the first
    engine's solver name (the text says how it was proven)."""
    from invasion_oracle.reports.options import engines_to_run
    from invasion_oracle.solver.common import OracleDisagreement, is_proven, run_engines, shown_answer

    engines = engines_to_run(args.engine, ENGINES[verb], lambda: AUTO.get(verb, "search"))
    answers, runs = run_engines(engines, lambda e: solve(SOLVER_NAME.get(e, e)), _deadline(args))
    proven = [a for a in answers if is_proven(a)]
    for other in proven[1:]:
        if key(other) != key(proven[0]):
            raise OracleDisagreement(
                f"{verb}: engine {other.engine} says {key(other)}, {proven[0].engine} says {key(proven[0])}; this is a solver bug"
            )
    first = SOLVER_NAME.get(engines[0], engines[0])
    args.engine = answers[0].engine if first == "auto" else first  # auto: the one that answered
    return shown_answer(answers[0], runs)


def dimension(high: int) -> Any:
    """A grid size from 1 to ``high`` (``--rows``, ``--columns``)."""

    def parse(text: str) -> int:
        value = non_negative_int(text)
        if not 1 <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {high}, got {text!r}")
        return value

    parse.__name__ = "dimension"
    return parse


def register(commands: Any) -> None:
    def common(parser: argparse.ArgumentParser, verb: str) -> None:
        parser.add_argument(
            "scenario", help="scenario JSON file, example:stonespine/NAME for a bundled one, or - for stdin"
        )
        parser.add_argument("--player", help="whose dungeon (default: the first player)")
        add_rules_options(parser, "stonespine")
        engines = ENGINES[verb]
        add_engine_option(
            parser,
            engines,
            aliases={"oracle": "baseline"} if "baseline" in engines else None,
            help=f"auto (default): {AUTO_HELP.get(verb, AUTO.get(verb, 'search'))}, the engine measured fastest; "
            + ("search: the fast tabulated search; " if "search" in engines else "")
            + (
                "baseline (old name: oracle): every decision through the oracle; "
                if "baseline" in engines
                else ""
            )
            + ("cpsat: OR-Tools CP-SAT; " if "cpsat" in engines else "")
            + "both: every engine, checked to agree",
        )
        add_search_options(parser)
        add_output_options(parser)

    routes = commands.add_parser("routes", help="every outcome one hero can be steered to, with routes")
    common(routes, "routes")
    routes.add_argument("--hero", required=True, help="colour: black, purple or red")
    routes.set_defaults(run=interruptible(_routes, memory=True))

    wave = commands.add_parser("wave", help="the hero order and routes that defeat the most of a wave")
    common(wave, "wave")
    wave.add_argument(
        "--heroes", required=True, type=name_list, help="colours outside the entrance, e.g. red,red,purple"
    )
    _svg_argument(wave)
    wave.set_defaults(run=interruptible(_wave, memory=True))

    policy = commands.add_parser("policy", help="the optimal continue/close policy and its exact value")
    common(policy, "policy")
    _measure_arguments(policy)
    policy.add_argument("--no-check", action="store_true", help="skip the oracle check of the value")
    policy.set_defaults(run=interruptible(_policy, memory=True))

    place = commands.add_parser("place", help="optimal guardian and minion placement, proven, with ties")
    common(place, "place")
    place.add_argument(
        "--objective",
        choices=("guaranteed", "expected"),
        default="guaranteed",
        help="guaranteed: heroes surely defeated in the first wave; expected: the phase's value",
    )
    _measure_arguments(place)
    place.add_argument(
        "--top", type=non_negative_int, default=10, help="tied placements to list (default 10; 0: every one)"
    )
    _svg_argument(place)
    place.set_defaults(run=interruptible(_place, memory=True))

    damage = commands.add_parser(
        "min-damage", help="fewest minions or tokens to defeat a wave; least escaping health"
    )
    common(damage, "min-damage")
    damage.add_argument("--what", choices=("minions", "tokens", "health"), default="minions")
    damage.add_argument("--heroes", type=name_list, help="the wave, e.g. red,red (minions, tokens)")
    damage.add_argument("--hero", help="the hero (health)")
    damage.add_argument("--token", help="the element to add (tokens; default kobold)")
    damage.add_argument(
        "--limit", type=non_negative_int, help="largest count tried (minions, tokens; default 8)"
    )
    damage.set_defaults(run=interruptible(_min_damage, memory=True))

    escape = commands.add_parser("escape", help="find layouts where a hero escapes under every route")
    common(escape, "escape")
    escape.add_argument("--hero", required=True)
    escape.add_argument("--family", choices=("free-spaces", "generated"), default="free-spaces")
    escape.add_argument(
        "--elements",
        type=name_list,
        default=("gnoll", "goblin", "kobold", "ooze", "slime", "bear", "blade", "fire", "pit", "spike"),
        help="free-spaces: elements to fill empty spaces with (add 'empty' to allow none)",
    )
    escape.add_argument("--rows", type=dimension(50), default=4, help="generated: rows (1-50)")
    escape.add_argument("--columns", type=dimension(26), default=4, help="generated: columns (1-26)")
    escape.add_argument("--seeds", type=non_negative_int, default=200, help="generated: seeds to try")
    escape.set_defaults(run=interruptible(_escape, memory=True))

    plan = commands.add_parser(
        "plan", help="the year's purchases, placement and gate policy chosen together, proven"
    )
    common(plan, "plan")
    plan.add_argument(
        "--measure",
        choices=("trophy", "score", "defeated", "demerit"),
        default="score",
        help="score (default): this year's trophy value if taken minus its demerit on an escape; "
        "trophy: its chance; defeated: heroes defeated; demerit: minus the demerit on an escape",
    )
    plan.add_argument(
        "--target",
        type=non_negative_int,
        help="defeats the trophy needs (default: Jael's count + 1 in solo; 1 player: 1, or 0 by SS-TROPHY-ZERO)",
    )
    plan.add_argument(
        "--compare-ruling",
        action="append",
        default=[],
        metavar="ID",
        help="also plan under every reading of this ruling (repeatable; list them: `invasion rulings "
        "--game stonespine`) and print the best plan under each, side by side, and which readings change it",
    )
    _svg_argument(
        plan,
        "also write an SVG picture of the best plan: the dungeon after its purchases, the figures, "
        "the connections the purchases open or close, and the chambers where rubble was removed",
    )
    plan.set_defaults(run=interruptible(_plan, memory=True))


def _svg_argument(
    parser: argparse.ArgumentParser,
    help: str = "also write an SVG picture of the answer: the dungeon, its figures and the routes",
) -> None:
    from invasion_oracle.reports.options import output_file

    parser.add_argument("--svg", type=output_file("--svg"), metavar="FILE", help=help)


def _write_svg(args: argparse.Namespace, svg: str | None) -> None:
    from invasion_oracle.model.core.canonical import write_atomic
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.reports.output import check_distinct_outputs

    if not getattr(args, "svg", None):
        return
    check_distinct_outputs({"--out": args.out, "--svg": args.svg})
    if svg is None:
        raise MalformedInputError("--svg", args.svg, "no answer to draw (the search found none)")
    write_atomic(args.svg, svg)


def _measure_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--measure",
        choices=MEASURES,
        default="trophy",
        help="trophy: chance of no escape and at least --target defeats; defeated, xp: expected counts; no-escape: chance",
    )
    parser.add_argument(
        "--target",
        type=non_negative_int,
        help="trophy target (default: Jael's count + 1 in solo, else required)",
    )


def _load(args: argparse.Namespace) -> tuple[Scenario, int]:
    from invasion_oracle.model.core.rulings import resolve_name
    from invasion_oracle.model.stonespine.scenario import load_scenario
    from invasion_oracle.reports.cli_common import parse_data_file

    scenario = load_scenario(args.scenario, args.ruling, parse_data_file(args.data), args.data or "data")
    names = [p.name for p in scenario.initial.players]
    if args.player is None:
        return scenario, 0
    name = resolve_name(args.player, names, "player", "--player", args.player)
    return scenario, names.index(name)


def _deadline(args: argparse.Namespace) -> Deadline:
    from invasion_oracle.reports.options import command_deadline

    return command_deadline(args, memory=True)


def _hero(text: str, option: str) -> HeroColor:
    from invasion_oracle.model.core.rulings import resolve_name
    from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor

    name = resolve_name(text, [c.value for c in COLORS], "hero colour", option, text)
    return HeroColor(name)


def _heroes(parts: tuple[str, ...] | None, option: str) -> list[HeroColor]:
    from invasion_oracle.model.core.errors import MalformedInputError

    if not parts:
        raise MalformedInputError(option, "", "give the wave's heroes, e.g. --heroes red,red,purple")
    return [_hero(part, option) for part in parts]


def _command(args: argparse.Namespace) -> str:
    from invasion_oracle.reports.output import command_line

    return command_line(["invasion", *args.argv])


def _view(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    routes: list[list[str]] | None,
    title: str,
) -> Any:
    """What :func:`_picture` and :func:`_svg` both draw: the player's dungeon with ``layout``'s
    figures, the heroes already defeated, this year's exit and ``routes`` (an SVG
    :class:`~invasion_oracle.model.stonespine.svg.DungeonView`, and the passage mode)."""
    from invasion_oracle.model.stonespine.dungeon import Cell
    from invasion_oracle.model.stonespine.entering import Rules
    from invasion_oracle.model.stonespine.svg import DungeonView

    p = scenario.initial.players[player]
    rules = Rules.of(scenario.rulings, scenario.data)
    placement = layout.placement(board)
    view = DungeonView(
        p.dungeon,
        title or f"{p.name}: {p.guardian.board.name}, year {board.year}",
        placement.guardians,
        placement.minions,
        {c: h.value for c, h in p.defeated},
        board.cells[board.exit] if board.exit is not None else None,
        [[Cell.parse(n) for n in r] for r in (routes or [])],
    )
    return view, rules.passage_mode


def _picture(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    defeated: int,
    routes: list[list[str]] | None = None,
    title: str = "",
) -> str:
    from invasion_oracle.model.stonespine.render import render_dungeon
    from invasion_oracle.reports.tables import fenced

    view, mode = _view(scenario, player, board, layout, routes, title)
    return fenced(
        render_dungeon(
            view.dungeon,
            mode,
            guardians=view.guardians,
            minions=view.minions,
            defeated=view.defeated,
            routes=view.routes,
            exit_cell=view.exit_cell,
            title=view.title,
        )
    )


def _svg(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    routes: list[list[str]] | None = None,
    title: str = "",
    **marks: Any,
) -> str:
    """The same picture as :func:`_picture`, as SVG (guardians, minions, routes lettered a, b...);
    ``marks`` are more :class:`~invasion_oracle.model.stonespine.svg.DungeonView` fields
    (connections opened or closed, chamber notes)."""
    from dataclasses import replace

    from invasion_oracle.model.stonespine.svg import dungeons_svg

    view, mode = _view(scenario, player, board, layout, routes, title)
    view = replace(view, **marks)
    return dungeons_svg([view], mode, f"Stonespine: {view.title}")


def _finish(args: argparse.Namespace, title: str, body: str, answer: Any, replayed: bool) -> int:
    """Print the answer (Markdown or text, or the JSON envelope) and the status to exit with."""
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import section

    if args.format == "json":
        emit(
            envelope_json(
                "stonespine",
                answer.query,
                _command(args),
                _engine_named(answer.to_json()),
                status=answer.status.value,
                replayed=replayed,
            ),
            args.out,
        )
    else:
        from invasion_oracle.solver.common import recorded_engines

        runs = recorded_engines()
        if runs is not None:  # --engine both: which engines finished (and agree), which were stopped
            body += f"\n\nEngines: {runs.words()}."
        emit(section(title, body, command=_command(args)), args.out)
    return 130 if answer.stopped == "interrupted" else 0


def _engine_named(data: Any) -> Any:
    """The JSON ``engine`` field in the shared vocabulary: the solvers' ``oracle`` is ``baseline``."""
    if isinstance(data, dict) and isinstance(data.get("engine"), str):
        names = [{"oracle": "baseline"}.get(e, e) for e in data["engine"].split("+")]
        data = {**data, "engine": "+".join(names)}
    return data


def _fraction(value: Fraction | int | None) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value.numerator}/{value.denominator} ({float(value):.4f})"
    return str(value)


def _stopped(answer: Any, time_limit: float | None) -> str:
    """One sentence on why a search stopped early, or nothing."""
    from invasion_oracle.solver.common import Status

    if answer.stopped is None:
        return ""
    why = {
        "time-limit": f"the time limit ({time_limit} s) was reached",
        "memory-limit": "the memory limit was reached",
        "interrupted": "it was interrupted (Ctrl-C)",
    }.get(answer.stopped, answer.stopped)
    if answer.status is Status.UNKNOWN:
        return f"**Unknown**: {why} before an answer was found; no claim is made."
    return (
        f"**Best found** ({answer.status.value}): {why}; this is the best answer so far, not proven optimal."
    )


# -- routes ------------------------------------------------------------------------------------


def _routes(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.tables import table
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.routes import solve_routes

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    hero = _hero(args.hero, "--hero")
    answer = _agreeing(
        args,
        "routes",
        lambda e: solve_routes(scenario, hero, engine=e, player=player, deadline=deadline),
        lambda a: sorted((o.fate, o.chamber or "", o.reason) for o in a.outcomes),
    )
    board, layout, defeated = board_for(scenario, player)
    rows = [
        (o.fate, o.chamber or "entrance", o.reason, o.damage, " > ".join(o.route) or "-", "replayed")
        for o in answer.outcomes
    ]
    defeats = [o for o in answer.outcomes if o.fate == "defeated"]
    escapes = [o for o in answer.outcomes if o.fate == "escaped"]
    lines = [_stopped(answer, args.time_limit)] if answer.stopped else []
    if answer.can_be_defeated:
        first = defeats[0]
        lines.append(
            f"Can the {hero.value} hero be defeated? **Yes** - e.g. {' > '.join(first.route)} ({first.reason} in {first.chamber})."
        )
    elif answer.can_be_defeated is False:
        lines.append(f"Can the {hero.value} hero be defeated? **No.**")
    if answer.escape_forced:
        route = " > ".join(escapes[0].route) if escapes and escapes[0].route else "(it never enters)"
        proof = (
            "z3 proved every chamber's defeat unsatisfiable"
            if args.engine == "z3"
            else "every route was walked"
            if args.engine == "search"
            else "every decision of the oracle was followed"
        )
        lines.append(f"Is escape forced? **Yes** ({proof}); it escapes by {route}.")
    elif answer.escape_forced is False:
        lines.append(
            "Is escape forced? **No**" + (" - the player can steer it to a defeat." if defeats else ".")
        )
    if answer.open_questions:
        lines.append(f"Not settled when it stopped: {len(answer.open_questions)} possible ends.")
    shown = (defeats or escapes)[:1]
    body = "\n\n".join(
        part
        for part in [
            _picture(scenario, player, board, layout, defeated, [list(o.route) for o in shown]),
            f"Hero: {answer.card} ({hero.value}), health {answer.health}. Engine: {answer.engine}; status: {answer.status.value}. "
            "Every route below was replayed through the oracle.",
            table(rows, ["outcome", "chamber", "how", "damage", "route", "oracle"]),
            "\n".join(lines),
            _limits_note(board),
        ]
        if part
    )
    return _finish(args, f"Routes of the {hero.value} hero", body, answer, bool(answer.outcomes))


def _limits_note(board: Board) -> str:
    if not board.limits:
        return ""
    return (
        "Note: across several heroes the compiled board does not model "
        + "; ".join(board.limits)
        + ". One hero's routes are exact."
    )


# -- wave --------------------------------------------------------------------------------------


def _plan_table(steps: Any) -> str:
    from invasion_oracle.reports.tables import table

    rows = []
    for i, step in enumerate(steps, 1):
        rows.append(
            (
                i,
                "abcdefghijklmnopqrstuvwxyz"[(i - 1) % 26],
                step.hero.value,
                step.fate,
                step.chamber or "entrance",
                step.reason,
                "-" if step.damage is None else step.damage,
                " > ".join(step.route) or "-",
            )
        )
    return table(rows, ["#", "mark", "hero", "fate", "chamber", "how", "damage", "route"])


def _wave(args: argparse.Namespace) -> int:
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.waves import solve_wave

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    heroes = _heroes(args.heroes, "--heroes")
    answer = _agreeing(
        args,
        "wave",
        lambda e: solve_wave(scenario, heroes, engine=e, player=player, deadline=deadline),
        lambda a: a.defeated,
    )
    board, layout, defeated = board_for(scenario, player)
    parts = [_stopped(answer, args.time_limit)] if answer.stopped else []
    if answer.defeated is not None:
        verdict = (
            "no escape"
            if not answer.escaped
            else f"the next hero escapes and {len(heroes) - len(answer.plan)} go back to the supply"
        )
        how = (
            f"exhaustive search through the oracle, {answer.states} states"
            if args.engine == "oracle"
            else f"engine {args.engine}, {answer.status.value}"
        )
        bound = (
            ""
            if answer.upper_bound == answer.defeated
            else f" (no plan defeats more than {answer.upper_bound})"
        )
        parts.append(
            f"Wave: {', '.join(h.value for h in heroes)}. Defeated: **{answer.defeated} of {len(heroes)}** ({verdict}){bound}. "
            f"{how.capitalize()}; "
            + (
                "the plan was replayed through the oracle."
                if answer.replayed
                else "no time was left to replay the plan through the oracle."
            )
        )
        if args.engine != "oracle":
            parts.insert(
                0, _picture(scenario, player, board, layout, defeated, [list(s.route) for s in answer.plan])
            )
        parts.append(_plan_table(answer.plan))
    _write_svg(
        args,
        _svg(
            scenario,
            player,
            board,
            layout,
            _defeating_routes(answer.plan),
            "best order and routes for the wave",
        )
        if answer.defeated is not None
        else None,
    )
    return _finish(
        args,
        "Best order and routes for the wave",
        "\n\n".join(parts),
        answer,
        answer.defeated is not None and answer.replayed,
    )


# -- policy -------------------------------------------------------------------------------------


def _policy(args: argparse.Namespace) -> int:
    from invasion_oracle.solver.stonespine.policy import Measure

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    title, body, answer = _policy_answer(
        scenario, player, Measure(args.measure), args.target, not args.no_check, deadline, args.time_limit
    )
    return _finish(args, title, body, answer, answer.checked)


def policy_report(
    scenario: Scenario,
    player: int,
    measure: Measure,
    target: int | None = None,
    check: bool = True,
    deadline: Deadline | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """The optimal phase policy as (title, Markdown body, JSON answer)."""
    title, body, answer = _policy_answer(scenario, player, measure, target, check, deadline, None)
    return title, body, answer.to_json()


def _policy_answer(
    scenario: Scenario,
    player: int,
    measure: Measure,
    target: int | None,
    check: bool,
    deadline: Deadline | None,
    time_limit: float | None,
) -> tuple[str, str, Any]:
    from invasion_oracle.reports.tables import table
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.dice import describe_roll
    from invasion_oracle.solver.stonespine.policy import solve_policy

    _, answer = solve_policy(scenario, measure, target, check=check, player=player, deadline=deadline)
    board, layout, defeated = board_for(scenario, player)
    parts = [_picture(scenario, player, board, layout, defeated)]
    if answer.stopped:
        parts.append(_stopped(answer, time_limit))
    if answer.value is not None:
        checked = (
            "the oracle, playing this policy over every dice outcome, gives the same value"
            if answer.checked
            else "not done" + (" (--no-check)" if not check else " (stopped)")
        )
        rows = [
            (
                describe_roll(r.roll),
                _fraction(r.probability),
                ("escape; " if r.escaped else "")
                + f"{len(r.defeated_in)} defeated"
                + (f" ({' '.join(r.defeated_in)})" if r.defeated_in else ""),
                r.then,
                _fraction(r.value),
            )
            for r in answer.first_wave
        ]
        target_text = f" (target {answer.target})" if answer.target is not None else ""
        parts += [
            f"Measure: **{measure.value}**{target_text}. Value of the Invasion phase under the optimal policy: **{_fraction(answer.value)}** "
            f"(exact; {answer.states} states between waves). Oracle check: {checked}.",
            "First wave: each roll, the result the optimal routing steers to, and the gate decision after it.",
            table(rows, ["roll", "probability", "best result", "then", "value"]),
            "Use the policy from Python: `invasion_oracle.stonespine.policy(scenario, measure, target).decider()` plays it (docs/api.md).",
        ]
    return "Optimal Invasion-phase policy", "\n\n".join(parts), answer


# -- place --------------------------------------------------------------------------------------


def _place(args: argparse.Namespace) -> int:
    from invasion_oracle.solver.stonespine.policy import Measure
    from invasion_oracle.solver.stonespine.solve import solve_placement

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    engines = _engines(args, "place")
    shown = None
    if len(engines) > 1:  # --engine both: the finished engines' best values must agree (the first is shown)
        shown = _agreeing(
            args,
            "place",
            lambda e: solve_placement(
                scenario,
                objective=args.objective,
                engine=e,
                measure=Measure(args.measure),
                target=args.target,
                top=args.top,
                player=player,
                deadline=deadline,
            ),
            lambda a: a.best,
        )
    title, body, answer = _place_answer(
        scenario,
        player,
        args.objective,
        engines[0],
        Measure(args.measure),
        args.target,
        args.top,
        deadline,
        args.time_limit,
        solved=shown,
    )
    _write_svg(args, _place_svg(scenario, player, answer))
    return _finish(args, title, body, answer, answer.replayed)


def _place_svg(scenario: Scenario, player: int, answer: Any) -> str | None:
    """The best placement with the plan that defeats the most heroes under the worst roll."""
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.dice import describe_roll

    if not answer.tied:
        return None
    board, _, _ = board_for(scenario, player)
    best = answer.tied[0]
    worst = (
        f"; routes: worst roll {describe_roll(answer.worst_roll)}" if answer.worst_roll is not None else ""
    )
    routes = _defeating_routes(answer.plan)
    return _svg(scenario, player, board, best.layout(board), routes, f"best placement: {best}{worst}")


def place_report(
    scenario: Scenario,
    player: int,
    objective: str = "guaranteed",
    engine: str = "search",
    measure: Measure | None = None,
    target: int | None = None,
    top: int = 10,
    deadline: Deadline | None = None,
    time_limit: float | None = None,
    svg_picture: tuple[str, str] | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """The optimal-placement answer as (title, Markdown body, JSON answer).

    With ``svg_picture`` (a file name and the command that writes it) the dungeon picture is the
    SVG (an embedded picture block, see :func:`invasion_oracle.reports.html.embed`) instead of the text picture.
    """
    title, body, answer = _place_answer(
        scenario, player, objective, engine, measure, target, top, deadline, time_limit, svg_picture
    )
    return title, body, answer.to_json()


def _place_answer(
    scenario: Scenario,
    player: int,
    objective: str,
    engine: str,
    measure: Measure | None,
    target: int | None,
    top: int,
    deadline: Deadline | None,
    time_limit: float | None,
    svg_picture: tuple[str, str] | None = None,
    solved: Any = None,
) -> tuple[str, str, Any]:
    """The placement answer in words (``solved``: already found, by ``--engine both``)."""
    from invasion_oracle.reports.tables import table
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.dice import describe_roll
    from invasion_oracle.solver.stonespine.solve import solve_placement

    answer = solved or solve_placement(
        scenario,
        objective=objective,
        engine=engine,
        measure=measure,
        target=target,
        top=top,
        player=player,
        deadline=deadline,
    )
    board, _, defeated = board_for(scenario, player)
    merged = (
        f" Figures in chambers no hero can enter ({', '.join(answer.unreachable)}) are all the same; the first stands for them,"
        " as do minions in a chamber where they change nothing (such as the guardian's own)."
        if answer.unreachable
        else " Minions in a chamber where they change nothing (such as the guardian's own) are all the same; they are shown there."
    )
    ties = (
        f"**{len(answer.tied)}**"
        if answer.ties_complete
        else f"**{len(answer.tied)}** listed ({_short_list_reason(answer, top)}; more may exist)"
    )
    bound = (
        ""
        if answer.upper_bound is None or answer.upper_bound == answer.best
        else f" No placement does better than **{_fraction(answer.upper_bound)}** (the bound proved)."
    )
    head = (
        f"Objective: **{answer.objective}**. Best value: **{_fraction(answer.best)}** ({answer.status.value}; engine {answer.engine}; "
        f"{answer.evaluated} placement classes evaluated).{bound} Tied placements: {ties}.{merged} "
        "(Timings are left out so the output is the same every run; `make bench` measures them.)"
    )
    parts = []
    if answer.stopped:
        parts.append(_stopped(answer, time_limit))
    if answer.tied:
        best = answer.tied[0]
        routes = [list(s.route) for s in answer.plan]
        svg = _place_svg(scenario, player, answer) if svg_picture else None
        if svg is not None and svg_picture:
            from invasion_oracle.reports.html import Picture, embed

            name, command = svg_picture
            parts.append(embed(Picture(name, f"stonespine: best placement: {best}", svg), command))
        else:
            parts.append(
                _picture(
                    scenario,
                    player,
                    board,
                    best.layout(board),
                    defeated,
                    routes,
                    title=f"best placement: {best}",
                )
            )
    parts.append(head)
    rows = [(i, str(p), _fraction(answer.best)) for i, p in enumerate(answer.tied[: top or None], 1)]
    if rows:
        parts.append(table(rows, ["#", "placement", "value"]))
    if answer.ranking and objective == "expected":
        parts.append("Best placements evaluated:")
        parts.append(
            table([(str(r.placement), _fraction(r.value)) for r in answer.ranking], ["placement", "value"])
        )
    if answer.plan and answer.worst_roll is not None:
        parts.append(
            f"Worst roll for the first placement: **{describe_roll(answer.worst_roll)}**; the plan that still defeats {answer.best} (replayed through the oracle):"
        )
        parts.append(_plan_table(answer.plan))
    return "Optimal placement", "\n\n".join(parts), answer


# -- min-damage ----------------------------------------------------------------------------------


DEFAULT_TOKEN = "kobold"
DEFAULT_LIMIT = 8
MIN_DAMAGE_OPTIONS = {
    "heroes": ("--heroes", ("minions", "tokens")),
    "hero": ("--hero", ("health",)),
    "token": ("--token", ("tokens",)),
    "limit": ("--limit", ("minions", "tokens")),
}
"""Each ``min-damage`` option and the questions (``--what``) it is part of."""


def _check_min_damage_options(args: argparse.Namespace) -> None:
    """An option of another ``--what`` would do nothing: refused, naming it."""
    from invasion_oracle.reports.options import OptionError

    for dest, (option, questions) in MIN_DAMAGE_OPTIONS.items():
        if getattr(args, dest) is not None and args.what not in questions:
            raise OptionError(
                option, f"does nothing with --what {args.what} (it is for --what {' or '.join(questions)})"
            )


def _min_damage(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.solver.common import Status
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.min_damage import (
        fewest_minions,
        fewest_tokens,
        least_escaping_health,
    )

    _check_min_damage_options(args)
    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    board, layout, defeated = board_for(scenario, player)
    if args.what == "health":
        if not args.hero:
            raise MalformedInputError("--hero", "", "give the hero colour, e.g. --hero red")
        hero = _hero(args.hero, "--hero")
        health = _agreeing(
            args,
            "min-damage",
            lambda e: least_escaping_health(scenario, hero, engine=e, player=player, deadline=deadline),
            lambda a: a.health,
        )
        if health.status is Status.UNKNOWN:
            text = (
                _stopped(health, args.time_limit)
                + f" Every health below {health.lower_bound} can be defeated."
            )
        elif health.health is None:
            text = f"No health up to {health.limit} escapes: a route always leads to a defeat (the guardian is reachable alive)."
        else:
            text = (
                f"The least health at which the {hero.value} hero escapes under every route: **{health.health}** "
                f"(every smaller health can be defeated; proven by {health.engine}). It escapes by {' > '.join(health.escape_route) or '(it never enters)'} (replayed)."
            )
        body = "\n\n".join(
            [
                _picture(
                    scenario,
                    player,
                    board,
                    layout,
                    defeated,
                    [list(health.escape_route)] if health.escape_route else [],
                ),
                text,
            ]
        )
        return _finish(args, "Least escaping health", body, health, health.health is not None)
    heroes = _heroes(args.heroes, "--heroes")
    if args.what == "minions":
        result = _agreeing(
            args,
            "min-damage",
            lambda e: fewest_minions(
                scenario,
                heroes,
                limit=DEFAULT_LIMIT if args.limit is None else args.limit,
                engine=e,
                player=player,
                deadline=deadline,
            ),
            lambda a: a.count,
        )
    else:
        result = _agreeing(
            args,
            "min-damage",
            lambda e: fewest_tokens(
                scenario,
                heroes,
                args.token or DEFAULT_TOKEN,
                limit=DEFAULT_LIMIT if args.limit is None else args.limit,
                engine=e,
                player=player,
                deadline=deadline,
            ),
            lambda a: a.count,
        )
    if result.status is Status.UNKNOWN:
        text = (
            _stopped(result, args.time_limit)
            + f" Fewer than {result.lower_bound} {result.what} cannot do it."
        )
    elif result.count is None:
        text = f"Not possible with up to {result.limit} {result.what}."
    else:
        where = ", ".join(result.where) or "none needed"
        text = (
            f"Fewest {result.what} so that every hero of the wave ({', '.join(h.value for h in heroes)}) can be defeated: "
            f"**{result.count}** ({where}). Every smaller count is impossible (proven by {result.engine}); the plan was replayed through the oracle."
        )
    body = "\n\n".join([_picture(scenario, player, board, layout, defeated), text])
    return _finish(args, f"Fewest {result.what}", body, result, result.count is not None)


def _short_list_reason(answer: Any, top: int) -> str:
    """Why a tie list is not complete: the search stopped early, or it listed ``--top`` of them."""
    from invasion_oracle.reports.options import stopped_words

    if getattr(answer, "stopped", None):
        return f"the search stopped: {stopped_words()}"
    return f"the search stopped listing at --top {top}"


# -- escape --------------------------------------------------------------------------------------


def _escape(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.tables import fenced, table
    from invasion_oracle.solver.common import Status
    from invasion_oracle.solver.stonespine.escape_search import fill_free_spaces, search_generated

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    hero = _hero(args.hero, "--hero")
    if args.family == "free-spaces":
        answer = _agreeing(
            args,
            "escape",
            lambda e: fill_free_spaces(
                scenario, hero, list(args.elements), engine=e, player=player, deadline=deadline
            ),
            lambda a: a.found,
        )
        text = _stopped(answer, args.time_limit)
        if answer.status is not Status.UNKNOWN and not answer.found:
            text = (
                f"No filling of the free spaces lets the {hero.value} hero escape under every route "
                f"({'z3: unsat after' if answer.engine == 'z3' else 'tried'} {answer.iterations} {'counterexample rounds' if answer.engine == 'z3' else 'fillings'})."
            )
        elif answer.found:
            text += (
                ("\n\n" if text else "")
                + f"Found a filling with which the {hero.value} hero escapes under every route "
                f"({answer.iterations} rounds); shrunk towards the first elements listed; every escape route replayed:\n\n"
                + table(
                    [(s, e, dict(answer.shrunk_from)[s]) for s, e in answer.filling],
                    ["space", "shrunk witness", "first found"],
                )
            )
        return _finish(args, "Escape-path search (free spaces)", text, answer, answer.found)
    base = scenario.document
    generated = search_generated(
        base,
        hero,
        rows=args.rows,
        columns=args.columns,
        seeds=args.seeds,
        deadline=deadline,
        source=args.scenario,
    )
    text = _stopped(generated, args.time_limit)
    if generated.dungeon is None and generated.status is not Status.UNKNOWN:
        text = f"None of {generated.tried} generated {args.rows}x{args.columns} dungeons lets the {hero.value} hero escape under every route."
    elif generated.dungeon is not None:
        text += (
            ("\n\n" if text else "")
            + f"Seed {generated.seed} (of {generated.tried} tried) lets the {hero.value} hero escape under every route. "
            f"Shrunk witness (rows, then columns, elements and doorways removed while it still escapes):\n\n"
            + fenced("\n".join(" | ".join(row) for row in generated.dungeon["rows"]))
            + f"\n\nentrance {generated.dungeon['entrance']}, exit {generated.dungeon['exit']}"
        )
    return _finish(
        args, "Escape-path search (generated dungeons)", text, generated, generated.dungeon is not None
    )


# -- plan ---------------------------------------------------------------------------------------


def _plan(args: argparse.Namespace) -> int:
    from invasion_oracle.solver.stonespine.plan import PlanMeasure

    deadline = _deadline(args)  # the command's (interruptible): it covers reading the scenario too
    scenario, player = _load(args)
    title, body, answer, svg = _plan_answer(
        scenario,
        player,
        PlanMeasure(args.measure),
        args.target,
        deadline,
        args.time_limit,
        svg=bool(args.svg),
    )
    _warn_skipped(answer.skipped)
    if args.compare_ruling:
        answer = _plan_readings(args, scenario, player, answer, deadline)
        body += "\n\n" + _readings_table(answer)
    if args.svg:
        _write_svg(args, svg)
        from invasion_oracle.reports.output import md_code

        body += f"\n\nThe picture of the best plan was written to {md_code(args.svg)} (SVG)."
    return _finish(args, title, body, answer, answer.replayed)


def _warn_skipped(skipped: Any) -> None:
    """One warning line on stderr per level-up track the plan left out (the answer says it too)."""
    import sys

    from invasion_oracle.reports.output import one_line

    for branch in skipped:
        print(f"invasion: warning: plan: skipped {one_line(branch.describe())}", file=sys.stderr)


def _plan_readings(
    args: argparse.Namespace, scenario: Scenario, player: int, answer: Any, deadline: Deadline
) -> Any:
    """``--compare-ruling``: the plan under every reading of each ruling named (the ambiguity
    register's readings, as `invasion stonespine ambiguities --only ID` runs them)."""
    from dataclasses import replace

    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.core.rulings import REGISTRY, resolve_name
    from invasion_oracle.model.stonespine.scenario import scenario_from_document
    from invasion_oracle.reports.cli_common import parse_data_file
    from invasion_oracle.solver.stonespine.plan import PlanMeasure, plan_readings

    known = [r.id for r in REGISTRY.all("stonespine")]
    given = {
        resolve_name(spec.partition("=")[0].strip(), known, "", "--ruling", spec) for spec in args.ruling
    }
    data = parse_data_file(args.data)
    got = list(answer.readings)
    for text in dict.fromkeys(args.compare_ruling):
        rid = resolve_name(text, known, "stonespine ruling", "--compare-ruling", text)
        if rid in given:
            raise MalformedInputError(
                "--compare-ruling",
                text,
                f"{rid} is also fixed by --ruling; --compare-ruling tries every reading",
            )
        in_force = scenario.rulings.reading(rid)
        readings = [
            (
                name,
                None
                if name == in_force
                else scenario_from_document(
                    scenario.document,
                    args.scenario,
                    [*args.ruling, f"{rid}={name}"],
                    data,
                    args.data or "data",
                ),
            )
            for name in REGISTRY.get(rid).reading_names
        ]
        got += plan_readings(answer, rid, readings, PlanMeasure(args.measure), args.target, player, deadline)
    return replace(answer, readings=tuple(got))


def _readings_table(answer: Any) -> str:
    from invasion_oracle.reports.tables import table

    rows = [
        (
            r.ruling,
            r.reading + (" (in force)" if r.in_force else ""),
            "unknown" if r.best is None else ", ".join(r.best.purchases) or "nothing",
            "-" if r.best is None else str(r.best.placement),
            "-" if r.best is None else _fraction(r.best.expected),
            "-" if r.best is None else _fraction(r.best.guaranteed),
            r.status.value,
            "yes" if r.changes_best else "no",
        )
        for r in answer.readings
    ]
    changing = sorted({f"{r.ruling}={r.reading}" for r in answer.readings if r.changes_best})
    verdict = (
        "Readings that change the best plan: " + ", ".join(f"`{c}`" for c in changing) + "."
        if changing
        else "No reading compared changes the best plan."
    )
    return "\n\n".join(
        [
            "The best plan under each reading (`--compare-ruling`; each plan searched and replayed as above):",
            table(
                rows,
                [
                    "ruling",
                    "reading",
                    "purchases",
                    "placement",
                    "expected",
                    "guaranteed",
                    "status",
                    "changes the plan",
                ],
            ),
            verdict,
        ]
    )


def _defeating_routes(steps: Any) -> list[list[str]]:
    """The routes of a wave plan's defeated heroes (an escaping hero's route is not drawn)."""
    return [list(s.route) if s.fate == "defeated" else [] for s in steps]


def _plan_svg(scenario: Scenario, player: int, answer: Any, best: Any) -> str:
    """The best plan drawn on the dungeon after its purchases: the figures, each connection a
    purchase opens or closes, and a note on each chamber a purchase changed."""
    from invasion_oracle.model.stonespine.dungeon import Cell
    from invasion_oracle.solver.stonespine.plan import alone

    me = scenario.initial.players[player].name
    leaf = alone(scenario, best.purchases.state, me)
    notes: dict[Cell, list[str]] = {}
    opened: list[tuple[Cell, Cell]] = []
    closed: list[tuple[Cell, Cell]] = []
    for effect in answer.effects:
        verb, _, where = effect.purchase.partition(" ")
        chamber, _, detail = where.partition(":")
        if verb == "remove-rubble":
            notes.setdefault(Cell.parse(chamber), []).append("rubble removed")
        elif verb == "buy-passage":
            notes.setdefault(Cell.parse(chamber), []).append(f"passage bought ({detail})")
        opened += [(Cell.parse(a), Cell.parse(b)) for a, b in effect.opened]
        closed += [(Cell.parse(a), Cell.parse(b)) for a, b in effect.closed]
    bought = ", ".join(answer.best_expected.purchases) or "nothing"
    return _svg(
        leaf,
        0,
        best.board,
        best.layout,
        _defeating_routes(answer.worst_wave),
        f"{me}: the best plan, year {best.board.year}: purchases {bought}; {answer.best_expected.placement}",
        opened=tuple(opened),
        closed=tuple(closed),
        notes={c: "; ".join(n) for c, n in notes.items()},
    )


def _unfinished_words(answer: Any, stage: str) -> str:
    """A stage of the plan search that did not finish (PlanAnswer.unfinished), in words."""
    return {
        "purchases": "the walk through the purchase sequences (purchase classes found so far: "
        f"{answer.purchase_classes})",
        "placements": f"the placement search ({answer.purchase_classes_done} of the {answer.purchase_classes} "
        "purchase classes found searched)",
        "replay": "the oracle's replay of the best plans",
        "effects": "what each purchase buys, and the worst first wave",
    }.get(stage, stage)


def _plan_answer(
    scenario: Scenario,
    player: int,
    measure: Any,
    target: int | None,
    deadline: Deadline | None,
    time_limit: float | None,
    *,
    svg: bool = False,
) -> tuple[str, str, Any, str | None]:
    """The plan answer as (title, body, answer, the SVG picture of the best plan if ``svg``)."""
    from invasion_oracle.reports.tables import table
    from invasion_oracle.solver.stonespine.dice import describe_roll
    from invasion_oracle.solver.stonespine.plan import alone, solve_plan

    answer, best = solve_plan(scenario, measure, target, player, deadline)
    parts = []
    if answer.stopped:
        parts.append(_stopped(answer, time_limit))
    if answer.unfinished:
        parts.append(
            "Not finished: " + "; ".join(_unfinished_words(answer, s) for s in answer.unfinished) + "."
        )
    parts += [f"**Skipped**: {branch.describe()}; the plans below leave it out." for branch in answer.skipped]

    def row(label: str, r: Any) -> tuple[str, ...]:
        return (
            label,
            ", ".join(r.purchases) or "nothing",
            str(r.placement),
            _fraction(r.expected),
            _fraction(r.guaranteed),
            describe_roll(r.worst_roll),
        )

    if best is not None and answer.best_expected is not None and answer.best_guaranteed is not None:
        me = scenario.initial.players[player].name
        leaf = alone(scenario, best.purchases.state, me)
        parts.append(
            _picture(
                leaf,
                0,
                best.board,
                best.layout,
                0,
                _defeating_routes(answer.worst_wave),
                title=f"{me}: the best plan, year {best.board.year}"
                + (
                    f"; routes: worst first roll {describe_roll(best.worst_roll)}"
                    if answer.worst_wave
                    else ""
                ),
            )
        )
        rows = [
            row("best (expected)", answer.best_expected),
            row("best (guaranteed)", answer.best_guaranteed),
        ]
        rows += [row(f"runner-up {i}", r) for i, r in enumerate(answer.runners_up, 1)]
        rows += [row(f"other purchases {i}", r) for i, r in enumerate(answer.other_purchases, 1)]
        parts += [
            f"Measure: **{answer.measure}** (trophy target {answer.target}). Status: **{answer.status.value}**; "
            f"{answer.purchase_classes_done} of {answer.purchase_classes} purchase classes searched, "
            f"{answer.plans_evaluated} plans evaluated exactly; no plan does better in expectation than "
            f"**{_fraction(answer.upper_bound)}**. The runners-up are the next plans by expected value "
            "(ties included); *other purchases* are the best plan of each other choice of purchases.",
            table(
                rows,
                [
                    "plan",
                    "purchases (and level-up tracks)",
                    "placement",
                    "expected",
                    "guaranteed",
                    "worst first roll",
                ],
            ),
        ]
        if answer.replayed:
            parts.append(
                "Replay: the oracle played both plans from the starting state (purchases and placement as "
                "answers to its own requests, then the optimal policy over every dice outcome) and gave "
                f"expected {_fraction(answer.replay_expected)} and guaranteed {_fraction(answer.replay_guaranteed)}: "
                "the same values."
            )
        if answer.worst_wave:
            defeated = sum(1 for w in answer.worst_wave if w.fate == "defeated")
            parts += [
                f"Worst first roll for the best plan: **{describe_roll(answer.best_expected.worst_roll)}**; "
                f"the first wave that still defeats {defeated} of its {len(answer.worst_wave)} heroes "
                "(replayed through the oracle):",
                _plan_table(answer.worst_wave),
            ]

        def without(e: Any) -> str:
            if e.kind != "improvement":
                return "(the level-up its Buy XP gave)"
            return "cannot be placed without it" if e.without is None else _fraction(e.without)

        effects = [
            (
                e.purchase,
                " ".join("-".join(x) for x in e.opened) or "-",
                " ".join("-".join(x) for x in e.closed) or "-",
                without(e),
            )
            for e in answer.effects
        ]
        if effects:
            parts += [
                "What each purchase buys: the connections it opens or closes, and the expected value of "
                f"the same placement without it (with it: {_fraction(answer.best_expected.expected)}):",
                table(effects, ["purchase", "opens", "closes", "expected without it"]),
            ]
        if answer.best_expected.purchases:
            parts.append(
                "The same placement with no purchase at all: "
                + (
                    "it cannot be made."
                    if answer.without_purchases is None
                    else f"expected {_fraction(answer.without_purchases)}."
                )
            )
        if answer.others:
            parts.append(
                "Other players' Improvement answers (from the scenario's decisions): "
                + ", ".join(f"{p}: {a}" for p, a in answer.others)
            )
    picture = _plan_svg(scenario, player, answer, best) if svg and best is not None else None
    return "The year's plan: purchases, placement and gate policy", "\n\n".join(parts), answer, picture


__all__ = ["MEASURES", "dimension", "place_report", "policy_report", "register"]
