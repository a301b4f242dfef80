"""Tables and pictures for Stonespine runs: the trace, the decisions, the outcome."""

from __future__ import annotations

from model.core.decisions import DecisionRequest
from model.core.driver import Playthrough
from model.stonespine.entering import Rules, exit_chamber
from model.stonespine.render import render_dungeon
from model.stonespine.scenario import Scenario
from model.stonespine.state import GameState, PlayerState
from reports.tables import fenced, table


def dungeon_picture(scenario: Scenario, player: PlayerState, state: GameState | None = None) -> str:
    rules = Rules.of(scenario.rulings, scenario.data)
    year = state.year if state else scenario.initial.year
    defeated = {c: h.value for c, h in player.defeated}
    return render_dungeon(
        player.dungeon,
        rules.passage_mode,
        guardians=player.placement.guardians,
        minions=player.placement.minions,
        defeated=defeated,
        exit_cell=exit_chamber(rules, player.dungeon, year) if player.dungeon.rows else None,
        title=f"{player.name}: {player.guardian.board.name}, year {year}",
    )


def events_table(playthrough: Playthrough[GameState]) -> str:
    rows = []
    step_no = 0
    for event in playthrough.opening:
        rows.append(
            (step_no, event.kind, event.get("player", ""), _details(event.describe(), event.get("player")))
        )
    for step in playthrough.steps:
        step_no += 1
        for event in step.events:
            rows.append(
                (
                    step_no,
                    event.kind,
                    event.get("player") or "",
                    _details(event.describe(), event.get("player")),
                )
            )
    return table(rows, ["step", "event", "player", "details"])


def _details(text: str, player: object) -> str:
    return text.replace(f"player={player} ", "").replace(f"player={player}", "").strip() if player else text


def decisions_table(playthrough: Playthrough[GameState]) -> str:
    rows = []
    for n, step in enumerate(playthrough.steps, 1):
        request = step.request
        if isinstance(request, DecisionRequest):
            rows.append(
                (
                    n,
                    "decision",
                    request.kind,
                    request.player,
                    " ".join(map(str, request.options)),
                    step.answer,
                )
            )
        else:
            faces = " ".join(dict.fromkeys(map(str, request.outcomes)))
            rows.append((n, "chance", f"roll {request.source}", request.purpose, faces, step.answer))
    return table(rows, ["step", "type", "request", "who / why", "options", "answer"])


def outcome_table(state: GameState) -> str:
    rows: list[tuple[object, ...]] = []
    for p in state.players:
        rows.append(
            (
                p.name,
                len(p.defeated),
                " ".join(f"{h.value}@{c.name}" for c, h in p.defeated) or "-",
                len(p.escaped),
                p.entered,
                p.xp,
                " ".join(f"y{y}:{v}" for y, v in p.trophies) or "-",
                " ".join(f"y{y}:-{v}" for y, v in p.demerits) or "-",
                f"{p.guardian.board.name} {p.guardian.markers[0]}/{p.guardian.markers[1]}",
            )
        )
    if state.solo:
        rows.append(
            (
                "Jael",
                "",
                "",
                "",
                "",
                state.jael.xp,
                " ".join(f"y{y}:{v}" for y, v in state.jael.trophies) or "-",
                "-",
                "-",
            )
        )
    return table(
        rows,
        ["player", "defeated", "where", "escaped", "entered", "XP", "trophies", "demerits", "guardian L/R"],
    )


def heroes_table(state: GameState) -> str:
    rows = [
        (c.color.value, c.name, state.health(c.color), c.ability.describe(), c.provenance_of("health").value)
        for c in state.heroes
    ]
    return table(rows, ["colour", "card", "health", "ability", "health provenance"])


def final_table(state: GameState) -> str:
    rows = [
        (s.player, s.guardian_bonus, s.trophies, -s.demerits, s.leftover_xp, s.total)
        for s in state.final_scores
    ]
    return table(rows, ["player", "guardian bonus", "trophies", "demerits", "leftover XP", "Invasion total"])


def simulation_report(scenario: Scenario, playthrough: Playthrough[GameState], command: str) -> str:
    final = playthrough.final
    parts = [f"Reproduce: `{command}`", ""]
    for p in scenario.initial.players:
        if p.dungeon.rows:
            parts += [fenced(dungeon_picture(scenario, p)), ""]
    parts += ["Hero cards (at the end):", "", heroes_table(final), ""]
    parts += ["Decisions and dice:", "", decisions_table(playthrough), ""]
    parts += ["Trace:", "", events_table(playthrough), ""]
    parts += ["Outcome:", "", outcome_table(final), ""]
    if final.final_scores:
        parts += ["Final scoring (Invasion additions):", "", final_table(final), ""]
    changed = scenario.rulings.non_default()
    if changed:
        parts += [
            "Rulings changed from the default: " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items())),
            "",
        ]
    return "\n".join(parts)
