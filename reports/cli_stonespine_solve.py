"""``invasion stonespine routes|wave|policy|place|min-damage|escape``: the solver commands.

Each prints Markdown: a picture of the dungeon with the answer drawn on it, tables, the engine and
whether the answer is proven or unknown (time limit), and the command that reproduces it. ``--json``
prints the same answer as canonical JSON.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from model.core.canonical import canonical_json
from model.core.errors import MalformedInputError
from model.core.rulings import resolve_name
from model.stonespine.heroes import COLORS, HeroColor
from model.stonespine.render import render_dungeon
from model.stonespine.scenario import Scenario, load_scenario
from reports.cli_common import emit, parse_data_file
from reports.tables import fenced, section, table
from solver.common import Deadline, Status
from solver.stonespine.board import Board, Layout, board_for
from solver.stonespine.dice import describe_roll, roll_heroes
from solver.stonespine.policy import Measure, PolicyDecider, describe_result, solve_phase, verify_phase
from solver.stonespine.routes import RouteModel, enumerate_outcomes
from solver.stonespine.waves import WavePlan, oracle_plan_check, oracle_wave, search_wave, z3_wave


def register(commands: Any) -> None:
    def common(parser: argparse.ArgumentParser, engines: tuple[str, ...]) -> None:
        parser.add_argument("scenario", help="scenario JSON file")
        parser.add_argument("--player", help="whose dungeon (default: the first player)")
        parser.add_argument("--ruling", action="append", default=[], metavar="ID=READING")
        parser.add_argument("--data", metavar="FILE", help="data overrides")
        parser.add_argument("--engine", choices=engines, default=engines[0], help=f"default: {engines[0]}")
        parser.add_argument(
            "--time-limit",
            type=float,
            default=None,
            metavar="SECONDS",
            help="stop and answer 'unknown' after this long",
        )
        parser.add_argument("--json", action="store_true", help="canonical JSON instead of Markdown")
        parser.add_argument("--out", help="also write the output to this file (atomically)")

    routes = commands.add_parser("routes", help="every outcome one hero can be steered to, with routes")
    common(routes, ("z3", "search"))
    routes.add_argument("--hero", required=True, help="colour: black, purple or red")
    routes.set_defaults(run=_routes)

    wave = commands.add_parser("wave", help="the hero order and routes that defeat the most of a wave")
    common(wave, ("search", "z3", "oracle"))
    wave.add_argument("--heroes", required=True, help="colours outside the entrance, e.g. red,red,purple")
    wave.set_defaults(run=_wave)

    policy = commands.add_parser("policy", help="the optimal continue/close policy and its exact value")
    common(policy, ("dp",))
    _measure_arguments(policy)
    policy.add_argument("--no-check", action="store_true", help="skip the oracle check of the value")
    policy.set_defaults(run=_policy)

    place = commands.add_parser("place", help="optimal guardian and minion placement, proven, with ties")
    common(place, ("search", "z3", "oracle"))
    place.add_argument(
        "--objective",
        choices=("guaranteed", "expected"),
        default="guaranteed",
        help="guaranteed: heroes surely defeated in the first wave; expected: the phase's value",
    )
    _measure_arguments(place)
    place.add_argument("--top", type=int, default=10, help="placements to list (default 10)")
    place.set_defaults(run=_place)

    damage = commands.add_parser(
        "min-damage", help="fewest minions or tokens to defeat a wave; least escaping health"
    )
    common(damage, ("z3", "search"))
    damage.add_argument("--what", choices=("minions", "tokens", "health"), default="minions")
    damage.add_argument("--heroes", help="the wave, e.g. red,red (minions, tokens)")
    damage.add_argument("--hero", help="the hero (health)")
    damage.add_argument("--token", default="kobold", help="the element to add (tokens; default kobold)")
    damage.add_argument("--limit", type=int, default=8, help="largest count tried (default 8)")
    damage.set_defaults(run=_min_damage)

    escape = commands.add_parser("escape", help="find layouts where a hero escapes under every route")
    common(escape, ("z3", "search"))
    escape.add_argument("--hero", required=True)
    escape.add_argument("--family", choices=("free-spaces", "generated"), default="free-spaces")
    escape.add_argument(
        "--elements",
        default="gnoll,goblin,kobold,ooze,slime,bear,blade,fire,pit,spike",
        help="free-spaces: elements to fill empty spaces with (add 'empty' to allow none)",
    )
    escape.add_argument("--rows", type=int, default=4)
    escape.add_argument("--columns", type=int, default=4)
    escape.add_argument("--seeds", type=int, default=200, help="generated: seeds to try")
    escape.set_defaults(run=_escape)


def _measure_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--measure",
        choices=[m.value for m in Measure],
        default="trophy",
        help="trophy: chance of no escape and at least --target defeats; defeated, xp: expected counts; no-escape: chance",
    )
    parser.add_argument(
        "--target", type=int, help="trophy target (default: Jael's count + 1 in solo, else required)"
    )


def _load(args: argparse.Namespace) -> tuple[Scenario, int]:
    scenario = load_scenario(args.scenario, args.ruling, parse_data_file(args.data), args.data or "data")
    names = [p.name for p in scenario.initial.players]
    if args.player is None:
        return scenario, 0
    name = resolve_name(args.player, names, "player", "--player", args.player)
    return scenario, names.index(name)


def _deadline(args: argparse.Namespace) -> Deadline:
    return Deadline(args.time_limit)


def _hero(text: str, option: str) -> HeroColor:
    name = resolve_name(text, [c.value for c in COLORS], "hero colour", option, text)
    return HeroColor(name)


def _heroes(text: str | None, option: str) -> list[HeroColor]:
    if not text:
        raise MalformedInputError(option, "", "give the wave's heroes, e.g. --heroes red,red,purple")
    return [_hero(part.strip(), option) for part in text.split(",") if part.strip()]


def _command(args: argparse.Namespace) -> str:
    from reports.cli_stonespine import command_line

    return command_line(args.argv)


def _picture(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    defeated: int,
    routes: list[list[str]] | None = None,
    title: str = "",
) -> str:
    from model.stonespine.dungeon import Cell
    from model.stonespine.entering import Rules

    p = scenario.initial.players[player]
    rules = Rules.of(scenario.rulings, scenario.data)
    placement = layout.placement(board)
    gone = {c: h.value for c, h in p.defeated}
    return fenced(
        render_dungeon(
            p.dungeon,
            rules.passage_mode,
            guardians=placement.guardians,
            minions=placement.minions,
            defeated=gone,
            routes=[[Cell.parse(n) for n in r] for r in (routes or [])],
            exit_cell=board.cells[board.exit] if board.exit is not None else None,
            title=title or f"{p.name}: {p.guardian.board.name}, year {board.year}",
        )
    )


def _finish(args: argparse.Namespace, title: str, body: str, payload: dict[str, Any]) -> int:
    if args.json:
        emit(canonical_json({**payload, "command": _command(args)}, indent=1), args.out)
    else:
        emit(section(title, body, command=_command(args)), args.out)
    return 0


def _fraction(value: Fraction | int | None) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value.numerator}/{value.denominator} ({float(value):.4f})"
    return str(value)


# -- routes ------------------------------------------------------------------------------------


def _routes(args: argparse.Namespace) -> int:
    scenario, player = _load(args)
    hero = _hero(args.hero, "--hero")
    board, layout, defeated = board_for(scenario, player)
    deadline = _deadline(args)
    status = Status.PROVEN
    from solver.common import TimeLimit

    try:
        found = (
            RouteModel(board, layout, hero, defeated).outcomes(deadline)
            if args.engine == "z3"
            else enumerate_outcomes(board, layout, hero, defeated, deadline)
        )
    except TimeLimit:
        found, status = {}, Status.UNKNOWN
    from solver.stonespine.replay import verify_wave

    rows, payload = [], []
    for key in sorted(found):
        o = found[key]
        names = [board.name(n) for n in o.route]
        chamber = board.name(o.node) if o.node is not None else None
        verify_wave(scenario, player, [(hero, names)], [(o.fate.value, chamber, o.reason)])
        rows.append(
            (o.fate.value, chamber or "entrance", o.reason, o.damage, " > ".join(names) or "-", "replayed")
        )
        payload.append(
            {"fate": o.fate.value, "chamber": chamber, "reason": o.reason, "damage": o.damage, "route": names}
        )
    profile = board.hero(hero)
    defeats = [o for o in found.values() if o.fate.value == "defeated"]
    escapes = [o for o in found.values() if o.fate.value == "escaped"]
    lines = []
    if status is Status.UNKNOWN:
        lines.append(f"**Unknown**: the time limit ({args.time_limit} s) was reached; no claim is made.")
    else:
        if defeats:
            first = defeats[0]
            where = board.name(first.node) if first.node is not None else "the entrance"
            lines.append(
                f"Can the {hero.value} hero be defeated? **Yes** - e.g. {' > '.join(board.name(n) for n in first.route)} ({first.reason} in {where})."
            )
        else:
            lines.append(f"Can the {hero.value} hero be defeated? **No.**")
        if not defeats and escapes:
            route = " > ".join(board.name(n) for n in escapes[0].route) or "(it never enters)"
            proof = (
                "z3 proved every chamber's defeat unsatisfiable"
                if args.engine == "z3"
                else "every route was walked"
            )
            lines.append(f"Is escape forced? **Yes** ({proof}); it escapes by {route}.")
        else:
            lines.append(
                "Is escape forced? **No**" + (" - the player can steer it to a defeat." if defeats else ".")
            )
    picture_route = [[board.name(n) for n in (defeats or escapes)[0].route]] if (defeats or escapes) else []
    body = "\n\n".join(
        [
            _picture(scenario, player, board, layout, defeated, picture_route),
            f"Hero: {profile.card} ({hero.value}), health {profile.health}. Engine: {args.engine}; status: {status.value}. "
            "Every route below was replayed through the oracle.",
            table(rows, ["outcome", "chamber", "how", "damage", "route", "oracle"]),
            "\n".join(lines),
            _limits_note(board),
        ]
    )
    return _finish(
        args,
        f"Routes of the {hero.value} hero",
        body,
        {
            "query": "routes",
            "hero": hero.value,
            "engine": args.engine,
            "status": status.value,
            "outcomes": payload,
            "can_be_defeated": bool(defeats) if status is Status.PROVEN else None,
            "escape_forced": (not defeats) if status is Status.PROVEN else None,
        },
    )


def _limits_note(board: Board) -> str:
    if not board.limits:
        return ""
    return (
        "Note: across several heroes the compiled board does not model "
        + "; ".join(board.limits)
        + ". One hero's routes are exact."
    )


# -- wave --------------------------------------------------------------------------------------


def _plan_table(board: Board, plan: WavePlan) -> str:
    rows = []
    for i, (color, outcome) in enumerate(zip(plan.colors, plan.steps, strict=True), 1):
        chamber = board.name(outcome.node) if outcome.node is not None else "entrance"
        rows.append(
            (
                i,
                "abcdefghijklmnopqrstuvwxyz"[i - 1],
                color.value,
                outcome.fate.value,
                chamber,
                outcome.reason,
                outcome.damage,
                " > ".join(board.name(n) for n in outcome.route) or "-",
            )
        )
    return table(rows, ["#", "mark", "hero", "fate", "chamber", "how", "damage", "route"])


def _wave(args: argparse.Namespace) -> int:
    scenario, player = _load(args)
    heroes = _heroes(args.heroes, "--heroes")
    board, layout, defeated = board_for(scenario, player)
    deadline = _deadline(args)
    if args.engine == "oracle":
        result = oracle_wave(scenario, player, heroes, deadline=deadline)
        rows = [
            (i, h.color.value, h.fate, h.chamber or "entrance", h.reason, " > ".join(h.route))
            for i, h in enumerate(result.results, 1)
        ]
        body = (
            f"Defeated: **{result.defeated} of {len(heroes)}** (exhaustive search through the oracle, {result.nodes} states).\n\n"
            + table(rows, ["#", "hero", "fate", "chamber", "how", "route"])
        )
        return _finish(
            args,
            "Best wave (oracle)",
            body,
            {"query": "wave", "engine": "oracle", "defeated": result.defeated},
        )
    if board.limits:
        raise MalformedInputError(
            args.scenario,
            "$",
            "the compiled engines do not model " + "; ".join(board.limits) + "; use --engine oracle",
        )
    plan = (z3_wave if args.engine == "z3" else search_wave)(board, layout, heroes, defeated, deadline)
    oracle_plan_check(scenario, player, board, plan)
    verdict = (
        "no escape"
        if not plan.escaped
        else f"the next hero escapes and {len(heroes) - len(plan.steps)} go back to the supply"
    )
    body = "\n\n".join(
        [
            _picture(scenario, player, board, layout, defeated, [r for _, r in plan.plan(board)]),
            f"Wave: {', '.join(h.value for h in heroes)}. Defeated: **{plan.defeated} of {len(heroes)}** ({verdict}). "
            f"Engine: {args.engine} (proven); the plan was replayed through the oracle.",
            _plan_table(board, plan),
        ]
    )
    return _finish(
        args,
        "Best order and routes for the wave",
        body,
        {
            "query": "wave",
            "engine": args.engine,
            "status": "proven",
            "defeated": plan.defeated,
            "escaped": plan.escaped,
            "plan": [
                {
                    "hero": c.value,
                    "route": r,
                    "fate": o.fate.value,
                    "chamber": board.name(o.node) if o.node is not None else None,
                }
                for (c, r), o in zip(plan.plan(board), plan.steps, strict=True)
            ],
        },
    )


# -- policy -------------------------------------------------------------------------------------


def _policy(args: argparse.Namespace) -> int:
    scenario, player = _load(args)
    title, body, payload = policy_report(
        scenario, player, Measure(args.measure), args.target, not args.no_check, _deadline(args)
    )
    return _finish(args, title, body, payload)


def policy_report(
    scenario: Scenario,
    player: int,
    measure: Measure,
    target: int | None = None,
    check: bool = True,
    deadline: Deadline | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """The optimal phase policy as (title, Markdown body, JSON payload)."""
    dp, answer = solve_phase(scenario, measure, target, player, deadline=deadline)
    checked = "skipped (--no-check)"
    if check:
        verify_phase(scenario, dp, answer, player, deadline)
        checked = "the oracle, playing this policy over every dice outcome, gives the same value"
    board = dp.board
    rows = []
    for roll, p, result, value in answer.first_wave:
        after = "close" if result[1] else ("continue" if dp.should_continue(result[0]) else "close")
        rows.append(
            (describe_roll(roll), _fraction(p), describe_result(board, result), after, _fraction(value))
        )
    target_text = f" (target {answer.target})" if answer.target is not None else ""
    body = "\n\n".join(
        [
            _picture(scenario, player, board, dp.layout, dp.start),
            f"Measure: **{measure.value}**{target_text}. Value of the Invasion phase under the optimal policy: **{_fraction(answer.value)}** "
            f"(exact; {answer.states} states between waves). Oracle check: {checked}.",
            "First wave: each roll, the result the optimal routing steers to, and the gate decision after it.",
            table(rows, ["roll", "probability", "best result", "then", "value"]),
            "Use the policy as a decider: `PolicyDecider(dp, player)` from `solver.stonespine.policy`.",
        ]
    )
    payload = {
        "query": "policy",
        "measure": measure.value,
        "target": answer.target,
        "value": answer.value,
        "first_wave": [
            {"roll": describe_roll(r), "probability": p, "result": describe_result(board, res), "value": v}
            for r, p, res, v in answer.first_wave
        ],
    }
    return "Optimal Invasion-phase policy", body, payload


# -- place --------------------------------------------------------------------------------------


def _place(args: argparse.Namespace) -> int:
    scenario, player = _load(args)
    title, body, payload = place_report(
        scenario,
        player,
        args.objective,
        args.engine,
        Measure(args.measure),
        args.target,
        args.top,
        _deadline(args),
        args.time_limit,
    )
    return _finish(args, title, body, payload)


def place_report(
    scenario: Scenario,
    player: int,
    objective: str = "guaranteed",
    engine: str = "search",
    measure: Measure = Measure.TROPHY,
    target: int | None = None,
    top: int = 10,
    deadline: Deadline | None = None,
    time_limit: float | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """The optimal-placement answer as (title, Markdown body, JSON payload)."""
    from solver.stonespine.placement import (
        oracle_guaranteed,
        search_expected,
        search_guaranteed,
        z3_guaranteed,
    )

    deadline = deadline or Deadline()
    if objective == "guaranteed":
        solve = {"search": search_guaranteed, "z3": z3_guaranteed, "oracle": oracle_guaranteed}[engine]
        answer = solve(scenario, player, deadline)
    else:
        if engine != "search":
            raise MalformedInputError(
                "--engine", engine, "the expected objective is solved by exhaustive DP (--engine search)"
            )
        answer = search_expected(scenario, measure, target, player, deadline)
    board, _, defeated = board_for(scenario, player)
    merged = (
        f" Figures in chambers no hero can reach ({', '.join(board.name(n) for n in answer.unreachable)}) are all the same; the first stands for them."
        if len(answer.unreachable) > 1
        else ""
    )
    head = (
        f"Objective: **{answer.objective}**. Best value: **{_fraction(answer.best)}** ({answer.status.value}; engine {answer.engine}; "
        f"{answer.evaluated} placements evaluated). Tied placements: **{len(answer.tied)}**.{merged} "
        "(Timings are left out so the output is the same every run; `make bench` measures them.)"
    )
    parts = []
    if answer.status is Status.UNKNOWN:
        parts.append(
            f"**Unknown**: the time limit ({time_limit} s) was reached before the search finished; no placement is claimed optimal."
        )
    if answer.tied:
        best = answer.tied[0]
        routes = [r for _, r in answer.plan.plan(board)] if answer.plan else []
        parts.append(
            _picture(
                scenario,
                player,
                board,
                best,
                defeated,
                routes,
                title=f"best placement: {best.describe(board)}",
            )
        )
    parts.append(head)
    rows = [(i, lay.describe(board), _fraction(answer.best)) for i, lay in enumerate(answer.tied[:top], 1)]
    if rows:
        parts.append(table(rows, ["#", "placement", "value"]))
        if len(answer.tied) > top:
            parts.append(
                f"... and {len(answer.tied) - top} more tied placements (`--top {len(answer.tied)}` or `--json` lists them all)."
            )
    if answer.plan is not None and answer.worst_roll is not None:
        parts.append(
            f"Worst roll for the first placement: **{describe_roll(answer.worst_roll)}**; the plan that still defeats {answer.best} (replayed through the oracle):"
        )
        parts.append(_plan_table(board, answer.plan))
    payload = {
        "query": "place",
        "objective": answer.objective,
        "engine": answer.engine,
        "status": answer.status.value,
        "best": answer.best,
        "evaluated": answer.evaluated,
        "tied": [lay.describe(board) for lay in answer.tied],
        "worst_roll": describe_roll(answer.worst_roll) if answer.worst_roll else None,
    }
    return "Optimal placement", "\n\n".join(parts), payload


# -- min-damage ----------------------------------------------------------------------------------


def _min_damage(args: argparse.Namespace) -> int:
    from solver.stonespine.min_damage import fewest_minions, fewest_tokens, least_escaping_health

    scenario, player = _load(args)
    deadline = _deadline(args)
    board, layout, defeated = board_for(scenario, player)
    if args.what == "health":
        if not args.hero:
            raise MalformedInputError("--hero", "", "give the hero colour, e.g. --hero red")
        hero = _hero(args.hero, "--hero")
        health = least_escaping_health(scenario, hero, engine=args.engine, player=player, deadline=deadline)
        if health.status is Status.UNKNOWN:
            text = "**Unknown** (time limit)."
        elif health.health is None:
            text = f"No health up to {health.limit} escapes: a route always leads to a defeat (the guardian is reachable alive)."
        else:
            text = (
                f"The least health at which the {hero.value} hero escapes under every route: **{health.health}** "
                f"(every smaller health can be defeated; proven by {health.engine}). It escapes by {' > '.join(health.escape_route)} (replayed)."
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
        return _finish(
            args,
            "Least escaping health",
            body,
            {
                "query": "min-damage",
                "what": "health",
                "hero": hero.value,
                "status": health.status.value,
                "health": health.health,
            },
        )
    heroes = _heroes(args.heroes, "--heroes")
    if args.what == "minions":
        count = fewest_minions(
            scenario, heroes, limit=args.limit, engine=args.engine, player=player, deadline=deadline
        )
    else:
        count = fewest_tokens(
            scenario,
            heroes,
            args.token,
            limit=args.limit,
            engine=args.engine,
            player=player,
            deadline=deadline,
        )
    if count.status is Status.UNKNOWN:
        text = "**Unknown** (time limit)."
    elif count.count is None:
        text = f"Not possible with up to {count.limit} {count.what}."
    else:
        where = ", ".join(count.where) or "none needed"
        text = (
            f"Fewest {count.what} so that every hero of the wave ({', '.join(h.value for h in heroes)}) can be defeated: "
            f"**{count.count}** ({where}). Every smaller count is impossible (proven by {count.engine}); the plan was replayed through the oracle."
        )
    body = "\n\n".join([_picture(scenario, player, board, layout, defeated), text])
    return _finish(
        args,
        f"Fewest {count.what}",
        body,
        {
            "query": "min-damage",
            "what": args.what,
            "status": count.status.value,
            "count": count.count,
            "where": list(count.where),
        },
    )


# -- escape --------------------------------------------------------------------------------------


def _escape(args: argparse.Namespace) -> int:
    from solver.stonespine.escape_search import fill_free_spaces, search_generated

    scenario, player = _load(args)
    hero = _hero(args.hero, "--hero")
    deadline = _deadline(args)
    if args.family == "free-spaces":
        answer = fill_free_spaces(
            scenario,
            hero,
            [e.strip() for e in args.elements.split(",") if e.strip()],
            engine=args.engine,
            player=player,
            deadline=deadline,
        )
        if answer.status is Status.UNKNOWN:
            text = "**Unknown** (time limit)."
        elif not answer.found:
            text = (
                f"No filling of the free spaces lets the {hero.value} hero escape under every route "
                f"({'z3: unsat after' if answer.engine == 'z3' else 'tried'} {answer.iterations} {'counterexample rounds' if answer.engine == 'z3' else 'fillings'})."
            )
        else:
            text = (
                f"Found a filling with which the {hero.value} hero escapes under every route "
                f"({answer.iterations} rounds); shrunk towards the first elements listed; every escape route replayed:\n\n"
                + table(
                    [(s, e, dict(answer.shrunk_from)[s]) for s, e in answer.filling],
                    ["space", "shrunk witness", "first found"],
                )
            )
        return _finish(
            args,
            "Escape-path search (free spaces)",
            text,
            {
                "query": "escape",
                "family": "free-spaces",
                "status": answer.status.value,
                "found": answer.found,
                "filling": dict(answer.filling),
            },
        )
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
    if generated.status is Status.UNKNOWN:
        text = "**Unknown** (time limit)."
    elif generated.dungeon is None:
        text = f"None of {generated.tried} generated {args.rows}x{args.columns} dungeons lets the {hero.value} hero escape under every route."
    else:
        text = (
            f"Seed {generated.seed} (of {generated.tried} tried) lets the {hero.value} hero escape under every route. "
            f"Shrunk witness (rows, then columns, elements and doorways removed while it still escapes):\n\n"
            + fenced("\n".join(" | ".join(row) for row in generated.dungeon["rows"]))
            + f"\n\nentrance {generated.dungeon['entrance']}, exit {generated.dungeon['exit']}"
        )
    return _finish(
        args,
        "Escape-path search (generated dungeons)",
        text,
        {
            "query": "escape",
            "family": "generated",
            "status": generated.status.value,
            "seed": generated.seed,
            "dungeon": generated.dungeon,
            "original": generated.original,
        },
    )


__all__ = ["PolicyDecider", "register", "roll_heroes"]
