"""Tables and pictures for Spirit Island runs and searches."""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.model.spirit_island.pieces import describe
from invasion_oracle.model.spirit_island.render import render_island
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.state import IslandState
from invasion_oracle.reports.tables import fenced, table
from invasion_oracle.solver.spirit_island.cascade import CardCascades, CascadeAnswer
from invasion_oracle.solver.spirit_island.defend import DefendPlan
from invasion_oracle.solver.spirit_island.fear_threshold import FearPlan, FightBackPlan
from invasion_oracle.solver.spirit_island.island_search import ACTIONS, Facts, Flip, IslandQuestion


def island_picture(scenario: Scenario, state: IslandState, title: str) -> str:
    return fenced(render_island(scenario.island, state.lands, title=title))


def outcome_table(state: IslandState) -> str:
    result = state.outcome
    fear = state.fear
    rows = [
        ("result", f"{result.result}: {result.reason}" if result else "running (no victory or defeat yet)"),
        ("turn", state.turn),
        ("Terror Level", min(fear.terror_level, 3)),
        (
            "Fear",
            f"{fear.generated} generated; pool {fear.in_pool}/{fear.pool_size}; {fear.earned_total} card(s) earned, unresolved: {', '.join(fear.earned) or '-'}",
        ),
        (
            "Blight card",
            f"{state.blight.card or 'Invader Board space'} ({state.blight.side}), {state.blight.pool} left",
        ),
        (
            "Invader board",
            f"ravage {' '.join(state.invaders.ravage) or '-'}; build {' '.join(state.invaders.build) or '-'}; deck {len(state.invaders.deck)} left; discard {' '.join(state.invaders.discard) or '-'}",
        ),
    ]
    return table(rows, ["", "at the end"])


def lands_table(scenario: Scenario, state: IslandState) -> str:
    island = scenario.island
    rows = [
        (
            island.lands[i],
            island.terrain[i].value,
            "yes" if island.coastal[i] else "",
            describe(state.lands[i]),
            " ".join(f"{s}:{n}" for s, n in state.lands[i].presence) or "",
        )
        for i in range(len(island.lands))
    ]
    return table(rows, ["land", "terrain", "coastal", "pieces", "presence"])


def fear_table(plans: Sequence[FearPlan], baseline: Sequence[FearPlan] | None = None) -> str:
    rows = []
    for i, plan in enumerate(plans):
        destroy = ", ".join(f"{n}x{label}" for label, n in plan.destroy) or "-"
        row: tuple[object, ...] = (
            plan.wanted,
            plan.damage
            if plan.damage is not None
            else ("unknown" if plan.status.value == "unknown" else "impossible"),
            destroy,
            plan.allocation or "-",
            plan.fear,
            plan.method,
            "yes" if plan.replayed else "-",
        )
        if baseline is not None:
            other = baseline[i]
            unknown = "unknown" in (plan.status.value, other.status.value)
            row += ("-" if unknown else "yes" if other.damage == plan.damage else "NO",)
        rows.append(row)
    headers = [
        "Fear wanted",
        "least Damage",
        "destroy",
        "allocation (decision)",
        "Fear",
        "engine",
        "replayed",
    ]
    key = (
        "Key: destroy `1xT@1` = one Town with 1 Damage; allocation `C1+2` = 2 Damage dealt to a City "
        "that had 1 (`C0+3`: 3 to an undamaged City); Fear = Fear earned by those destructions."
    )
    return table(rows, headers + ([] if baseline is None else ["z3 = baseline"])) + "\n\n" + key


def fight_back_table(plans: Sequence[FightBackPlan]) -> str:
    rows = [
        (p.dahan, p.damage, p.objective, p.value, p.allocation, p.method, "yes" if p.replayed else "-")
        for p in plans
    ]
    return table(rows, ["Dahan", "Damage", "maximise", "best", "allocation (decision)", "engine", "replayed"])


def defend_table(plans: Sequence[DefendPlan]) -> str:
    rows = [
        (p.goal, p.damage, p.defend, p.method, p.status.value, "yes" if p.replayed else "-") for p in plans
    ]
    return table(rows, ["goal", "Invader Damage", "least Defend", "engine", "status", "replayed (boundary)"])


def cascade_table(answer: CascadeAnswer) -> str:
    rows = [
        (" > ".join((answer.origin, *path)), "best" if path == answer.best else "") for path in answer.paths
    ]
    return table(rows, ["cascade path", ""])


def card_cascade_table(answer: CardCascades) -> str:
    rows = [
        (
            x.land,
            "yes" if x.adds_blight else "no",
            "yes" if x.had_blight else "no",
            "always" if x.always else "possible" if x.possible else "never",
            " ".join(x.witness_order) if x.possible and not x.always else "",
            "; ".join(" > ".join(c) for c in x.witness_chains) if x.possible and not x.always else "",
        )
        for x in answer.lands
    ]
    return table(rows, ["land", "adds Blight", "had Blight", "cascades", "witness order", "witness cascades"])


def facts_table(question: IslandQuestion, facts: Facts) -> str:
    if facts.status.value == "unknown":
        return "unknown: the search hit its time limit"
    island = question.island
    rows = []
    for turn in range(question.turns):
        for action in ACTIONS:
            card = question.card(turn, action) or "-"
            always = " ".join(island.lands[i] for i in facts.lands(turn, action, "always")) or "-"
            depends = " ".join(island.lands[i] for i in facts.lands(turn, action, "depends")) or "-"
            rows.append((turn + 1, action, card, always, depends))
    key = (
        "Key: a card is its stage and terrain (`1J`: stage I, Jungle; J Jungle, M Mountain, S Sands, "
        "W Wetland, C the Coastal Lands card); *always*: lands the card hits whatever the Dahan do; "
        "*depends on fight-back*: lands it hits after some outcomes of the Dahan's fight-back, not others."
    )
    return table(rows, ["turn", "action", "card", "always", "depends on fight-back"]) + "\n\n" + key


def flip_table(flip: Flip, island_lands: Sequence[str]) -> str:
    turn, action, land = flip.fact
    changes = (
        ("unknown (time limit)" if flip.status.value == "unknown" else "none within the limit")
        if flip.changes is None
        else ", ".join(f"{name} {delta:+d} {kind}" for name, kind, delta in flip.changes)
    )
    after = "avoidable" if flip.before == "always" else "possible"
    rows = [
        (
            f"turn {turn + 1} {action} {island_lands[land]}",
            flip.before,
            changes,
            flip.cost if flip.cost is not None else "-",
            after if flip.changes else "-",
            "yes" if flip.replayed else "-",
        )
    ]
    return table(rows, ["fact", "now", "smallest change", "cost", "then", "replayed"])
