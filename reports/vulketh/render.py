"""Vul'Keth pictures around a simulated run, and the ``data`` listing with provenance."""

from __future__ import annotations

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.vulketh.action_board import STRENGTHS
from invasion_oracle.model.vulketh.data import GameData
from invasion_oracle.model.vulketh.outcome import outcome
from invasion_oracle.model.vulketh.render import render_text
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import GameState
from invasion_oracle.reports.output import md_escape
from invasion_oracle.reports.tables import fenced, table


def before(scenario: Scenario) -> str:
    return "\n".join(["Before:", "", fenced(render_text(scenario, scenario.initial))])


def after(scenario: Scenario, final: GameState) -> str:
    result = outcome(scenario, final)["result"]
    return "\n".join(
        [
            "After:",
            "",
            fenced(render_text(scenario, final)),
            "",
            f"Outcome: **{result['result']}** ({md_escape(result['reason'])}), round {result['round']}.",
        ]
    )


def data_report(data: GameData) -> str:
    """Values, action numbers, dice, map, Warlord Board, cards and events, with provenance."""
    values: list[tuple[str, object, str, str]] = [
        (k, v.value, v.provenance.value, v.source) for k, v in data.values
    ]
    values += [
        (
            "village_cost",
            data.village_cost.value.describe(),
            data.village_cost.provenance.value,
            data.village_cost.source,
        ),
        (
            "dice_faces",
            " ".join(f"{f}:{n}" for f, n in data.dice_faces.value),
            data.dice_faces.provenance.value,
            data.dice_faces.source,
        ),
        (
            "warlord_sections",
            " > ".join(data.warlord_sections.value),
            data.warlord_sections.provenance.value,
            data.warlord_sections.source,
        ),
        (
            "map",
            " ".join(f"{a}-{b}" for a, b in data.map.edges),
            data.map.provenance.value,
            data.map.source,
        ),
    ]
    numbers = [
        (action, *amounts, data.action_values.provenance.value)
        for action, amounts in data.action_values.value
    ]
    rows = [
        (action, " ".join(data.initial_rows.value.row(action)), data.initial_rows.provenance.value)
        for action in ("GROW", "MOVE", "GATHER", "LEAD")
    ]
    cards = [
        (
            c.id,
            c.deck,
            "; ".join(a.describe() for a in c.actions),
            c.goal.describe(),
            "; ".join(e.describe() for e in c.reward) or "-",
            c.next_deck,
            c.provenance.value,
        )
        for c in data.action_cards
    ]
    events = [
        (e.id, md_escape(e.name), "; ".join(x.describe() for x in e.effects), e.provenance.value)
        for e in data.invader_events
    ]
    cards_note = (
        f"Invader Action cards ({data.action_cards_source.provenance.value}): "
        f"{md_escape(data.action_cards_source.value)}."
    )
    events_note = (
        f"Invader Events ({data.invader_events_source.provenance.value}): "
        f"{md_escape(data.invader_events_source.value)}."
    )
    return "\n\n".join(
        [
            table(values, ["value", "setting", "provenance", "source"]),
            f"Action numbers ({md_escape(data.action_values.source)}):",
            table(numbers, ["action", *STRENGTHS, "provenance"]),
            f"Starting action board, oldest die first ({md_escape(data.initial_rows.source)}):",
            table(rows, ["action", "dice", "provenance"]),
            cards_note,
            table(
                cards,
                ["card", "deck", "actions (left to right)", "goal", "reward", "next deck", "provenance"],
            ),
            events_note,
            table(events, ["event", "name", "effects", "provenance"]),
        ]
    )


def outcome_json(scenario: Scenario, final: GameState) -> str:
    return fenced(canonical_json(outcome(scenario, final), indent=1))
