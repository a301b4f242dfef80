"""Markdown for the Vul'Keth searches: the race, clearing a hex, readings that differ."""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.reports.output import command_line, md_code
from invasion_oracle.reports.tables import table
from invasion_oracle.solver.common import EngineRuns
from invasion_oracle.solver.vulketh.clear import ClearAnswer, ClearQuestion
from invasion_oracle.solver.vulketh.differ import DifferAnswer
from invasion_oracle.solver.vulketh.race import RaceAnswer, RaceLine, RaceQuestion


def _turn(turn: int | None, turns: int) -> str:
    return f"Invader turn {turn}" if turn is not None else f"not within the script's {turns} Invader turns"


def _line_row(what: str, line: RaceLine | None, turns: int, bound: bool = False) -> tuple[str, str, str, str]:
    if line is None:
        from invasion_oracle.reports.options import stopped_words

        return (what, f"unknown ({stopped_words()})", "", "")
    plan = line.plan.describe() + (f"; Pillage: {', '.join(line.pillage)}" if line.pillage else "")
    when = _turn(line.turn, turns)
    return (what, f"at most {when} (best found)" if bound else when, plan, " ".join(line.draws) or "-")


def _reproduce(command: str | None) -> list[str]:
    """The closing ``Reproduce:`` line (None: the caller's section prints it after the title)."""
    return [] if command is None else ["", f"Reproduce: {md_code(command)}"]


def race_report(question: RaceQuestion, answer: RaceAnswer, runs: EngineRuns, command: str | None) -> str:
    """The race in Markdown: ``answer`` is the one shown (the first engine's), ``runs`` what became
    of each engine (only those that finished are said to agree)."""
    engines = runs.words() if len(runs.runs) > 1 else f"{answer.engine} (ran alone)"
    cut = answer.status.value == "best-found"
    rows = [
        _line_row(
            "fewest (every choice of the player, luckiest draws)", answer.fewest, answer.invader_turns, cut
        ),
        _line_row("furthest (the best plan, luckiest draws)", answer.furthest, answer.invader_turns),
    ]
    lines = [
        f"From `{question.scenario.source}`: {answer.invader_turns} Invader turn(s) in the script, "
        f"{answer.plans} plan(s) for the player's dice"
        + (
            f" ({answer.searched_plans} counted before the search was cut)"
            if answer.searched_plans is not None
            else ""
        )
        + (
            f"; no fifth Warlord within {answer.fewest_at_least - 1} Invader turn(s) whatever the draws "
            "and the player's choices (proven before the cut)"
            if answer.status.value != "proven" and answer.fewest_at_least > 1
            else ""
        )
        + f"; every card draw searched. Engines: {engines}; "
        f"status {answer.status.value}; the lines below were replayed through the oracle: "
        f"{'yes' if answer.replayed else 'no'}.",
        "",
        table(rows, ["question", "fifth Warlord", "player's plan", "Invader draws (by turn)"]),
        *_reproduce(command),
    ]
    return "\n".join(lines)


def clear_report(question: ClearQuestion, answer: ClearAnswer, runs: EngineRuns, command: str | None) -> str:
    """Clearing a hex in Markdown: ``answer`` is the one shown, ``runs`` what became of each engine."""
    engines = runs.words() if len(runs.runs) > 1 else answer.engine
    if answer.placement is not None:
        where = ", ".join(f"{n} on hex {h}" for h, n in answer.placement) or "nothing (already true)"
        verdict = (
            f"Put {where}: hex {question.target} holds no Invader after the next Invader turn whatever of "
            f"{', '.join(answer.cards)} is drawn ({answer.alternatives} placement(s) with {answer.members} member(s) do; "
            f"replayed through the oracle for every card)."
        )
    elif answer.status.value == "proven":
        verdict = (
            f"No placement of up to {answer.searched_up_to} member(s) on hexes "
            f"{', '.join(map(str, question.hexes))} keeps hex {question.target} free of Invaders for every card "
            f"({', '.join(answer.cards)}): proven by exhausting them."
        )
    else:
        from invasion_oracle.reports.options import stopped_words

        verdict = f"Unknown: {stopped_words()}."
    return "\n".join([verdict, "", f"Engines: {engines}.", *_reproduce(command)])


def differ_rows(results: Sequence[tuple[DifferAnswer, EngineRuns]]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for a, runs in results:
        agree = runs.words() if len(runs.runs) > 1 else a.engine
        if a.position is None:
            rows.append(
                (
                    a.ruling,
                    " vs ".join(a.readings),
                    f"{a.action} {a.amount} {a.direction}",
                    f"none up to {a.max_size}",
                    "",
                    agree,
                )
            )
            continue
        after = a.after or ((), ())
        diff = "; ".join(
            f"{r}: " + " ".join(f"{n}:{c}" for n, c in enumerate(counts, 1) if c)
            for r, counts in zip(a.readings, after, strict=True)
        )
        rows.append(
            (
                a.ruling,
                " vs ".join(a.readings),
                f"{a.action} {a.amount} {a.direction}",
                f"{a.position.describe()} ({a.position.size})",
                diff,
                agree,
            )
        )
    return rows


def differ_report(results: Sequence[tuple[DifferAnswer, EngineRuns]], command: str | None) -> str:
    body = table(
        differ_rows(results),
        ["ruling", "readings", "action", "smallest position (size)", "Invaders after", "engines"],
    )
    note = (
        "Positions hold Invaders and at least one Warlord (`9:W+2`: a Warlord and two Invaders on hex 9); each "
        "answer was replayed through the oracle under both readings (`--write FILE` saves the first as a scenario)."
    )
    return "\n".join([note, "", body, *_reproduce(command)])


def race_command(source: str) -> str:
    return command_line(["invasion", "vulketh", "race", source])
