"""Markdown bodies for the Cloudspire searches."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from invasion_oracle.model.cloudspire.render import render_text
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.reports.output import md_escape
from invasion_oracle.reports.tables import fenced, table

if TYPE_CHECKING:  # the answers' modules load z3; each command imports only its own solver
    from invasion_oracle.solver.cloudspire.engagement import EngagementAnswer
    from invasion_oracle.solver.cloudspire.spire_cover import SpireCoverAnswer
    from invasion_oracle.solver.cloudspire.survival import SurvivalAnswer


def fraction(value: Fraction | None) -> str:
    if value is None:
        return "unknown"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} ({float(value):.4f})"


_ENGINE_WORDS = {"z3": "z3", "cpsat": "CP-SAT", "baseline": "the exhaustive baseline"}


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def engagement_body(scenario: Scenario, answer: EngagementAnswer) -> str:
    if not answer.plans:
        return f"The search stopped at its time limit: **{answer.status}**."
    rows = [
        (
            p.objective,
            p.defeated,
            p.health_lost,
            " ".join(f"{d}>{s}" for d, s in p.loads) or "-",
            " ".join(f"{d}>{lane}" for d, lane in p.applications) or "-",
        )
        for p in answer.plans
    ]
    agree = {
        True: _listed([_ENGINE_WORDS[e] for e in answer.method.split("+")]) + " agree",
        False: "DISAGREE",
        None: f"engine {answer.method}",
    }[answer.agree]
    lines = [
        fenced(render_text(scenario, scenario.initial)),
        "",
        f"**{answer.status}**; {agree}"
        + (
            f" (the baseline searched {answer.states} oracle states)"
            if "baseline" in answer.method.split("+")
            else ""
        )
        + "; each plan was played "
        "through the oracle and gave the numbers shown.",
        "",
        table(
            rows, ["objective", "enemies defeated", "Health lost", "loads (die>slot)", "applied (die>lane)"]
        ),
        "",
    ]
    for p in answer.plans:
        lines.append(f"Oracle decisions for `{p.objective}`: " + " / ".join(f"`{a}`" for a in p.answers))
        lines.append("")
    return "\n".join(lines)


def survival_body(scenario: Scenario, answer: SurvivalAnswer) -> str:
    agree = {
        True: "the grouped and per-die engines agree",
        False: "DISAGREE",
        None: f"engine {answer.engine}",
    }[answer.agree]
    if answer.probability is None:  # stopped: say what was done, and nothing more
        from invasion_oracle.reports.options import stopped_words

        return "\n".join(
            [
                fenced(render_text(scenario, scenario.initial)),
                "",
                f"Probability of surviving {answer.rounds} round(s) under optimal play: **unknown** "
                f"({stopped_words()} after {answer.states} states were valued, engine {answer.engine}; "
                "no policy was replayed).",
            ]
        )
    lines = [
        fenced(render_text(scenario, scenario.initial)),
        "",
        f"Probability of surviving {answer.rounds} round(s) under optimal play: **{fraction(answer.probability)}** "
        f"(**{answer.status}**; {agree}; {answer.states} states; the optimal policy, played through the oracle "
        "against every dice outcome, survives with the same probability).",
    ]
    if answer.first_decision:
        rows = [(f"`{o}`", fraction(v)) for o, v in answer.first_decision]
        lines += [
            "",
            "The first decision, each option with its survival probability:",
            "",
            table(rows, ["option", "survival"]),
        ]
    return "\n".join(lines)


def spires_body(scenario: Scenario, answer: SpireCoverAnswer) -> str:
    game = scenario.game()
    lines = [fenced(render_text(scenario, scenario.initial)), ""]
    cands = ", ".join(f"{game.item_name(c)} ({c})" for c in answer.candidates) or "none"
    lines.append(f"Candidates (the inventory's spires): {md_escape(cands)}.")
    lines.append("")
    if answer.status == "best-found":
        where = ", ".join(f"{sp}: {game.item_name(c)}" for sp, c in answer.placement) or "none"
        lines.append(
            f"The search stopped at its limit: **{answer.status}**: at most **{answer.fewest}** spire(s) "
            f"({md_escape(where)}), a safe placement found ({answer.checked} placements checked; "
            f"policy replayed: {'yes' if answer.replayed else 'no'})."
        )
        return "\n".join(lines)
    if answer.status != "proven":
        lines.append(
            f"The search stopped at its limit: **{answer.status}** ({answer.checked} placements checked)."
        )
        return "\n".join(lines)
    if answer.fewest is None:
        lines.append(
            f"**No placement of the candidates** keeps Health above {answer.bound} for {answer.rounds} round(s) whatever the dice show."
        )
        return "\n".join(lines)
    where = ", ".join(f"{game.item_name(c)} in {sp}" for sp, c in answer.placement) or "no spire at all"
    agree = {
        True: "z3 (counterexample-guided) and the exhaustive baseline agree",
        False: "DISAGREE",
        None: f"engine {answer.engine}",
    }[answer.agree]
    lines.append(
        f"Fewest spires keeping Health above {answer.bound} for {answer.rounds} round(s), whatever the dice show: "
        f"**{answer.fewest}** ({where}); **{answer.status}**; {agree}; {answer.checked} placements checked by the "
        "oracle; the winning policy was replayed against every dice outcome."
    )
    if answer.safe_placements:
        rows = [
            (", ".join(f"{game.item_name(c)}@{sp}" for sp, c in p) or "-",) for p in answer.safe_placements
        ]
        lines += [
            "",
            f"Every safe placement of {answer.fewest} spire(s) (same-name spires counted once):",
            "",
            table(rows, ["placement"]),
        ]
    return "\n".join(lines)
