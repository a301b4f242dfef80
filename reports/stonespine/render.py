"""Stonespine pictures and tables around a simulated run, and the ``data`` listing."""

from __future__ import annotations

from invasion_oracle.model.stonespine.data import GameData
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.spec import player_picture
from invasion_oracle.model.stonespine.state import GameState
from invasion_oracle.reports.output import md_escape
from invasion_oracle.reports.tables import fenced, table


def before(scenario: Scenario) -> str:
    """Each built dungeon with its figures, as the run starts, and what the run does not model."""
    pictures = [fenced(player_picture(scenario, p)) for p in scenario.initial.players if p.dungeon.rows]
    parts = ["\n\n".join(pictures) if pictures else "_(no dungeon built yet)_"]
    notes = unmodelled_notes(scenario)
    if notes:
        parts += ["", *notes]
    return "\n".join(parts)


def unmodelled_notes(scenario: Scenario) -> list[str]:
    """One line per active ability whose text is not known and that the run treats as inert.

    Ruling SS-UNKNOWN-ONGOING decides; saying so beside the run keeps the assumption in view.
    """
    if not scenario.rulings.is_("SS-UNKNOWN-ONGOING", "inert"):
        return []
    lines = []
    for p in scenario.initial.players:
        for ability in p.guardian.active:
            if ability.unknown:
                lines.append(
                    f"Note: {md_escape(p.name)}'s {p.guardian.board.name} has the ongoing ability "
                    f"`{ability.id}`, which the rulebook does not give: this run treats it as doing nothing "
                    "(ruling SS-UNKNOWN-ONGOING=inert); give it in a data file to model it."
                )
    return lines


def after(scenario: Scenario, final: GameState) -> str:
    """Hero cards, the outcome per player and, after year 4, the Invasion's final scoring."""
    parts = ["Hero cards (at the end):", "", heroes_table(final), ""]
    parts += ["Outcome:", "", outcome_table(final)]
    if final.final_scores:
        parts += ["", "Final scoring (Invasion additions):", "", final_table(final)]
    return "\n".join(parts)


def outcome_table(state: GameState) -> str:
    rows: list[tuple[object, ...]] = []
    for p in state.players:
        rows.append(
            (
                md_escape(p.name),
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
        (md_escape(s.player), s.guardian_bonus, s.trophies, -s.demerits, s.leftover_xp, s.total)
        for s in state.final_scores
    ]
    return table(rows, ["player", "guardian bonus", "trophies", "demerits", "leftover XP", "Invasion total"])


def data_report(data: GameData) -> str:
    """Hero cards, guardian boards and every value, each with where it comes from."""
    heroes = [
        (
            h.name,
            h.color.value,
            h.health,
            h.ability.describe(),
            h.provenance_of("health").value,
            h.provenance_of("ability").value,
        )
        for h in data.heroes
    ]
    boards = [
        (
            g.name,
            g.figures,
            g.minions,
            " / ".join(" ".join(str(s) for s in t) for t in g.tracks),
            ", ".join(sorted(g.ongoing)) or "-",
            g.instant or "-",
            ", ".join(f"{k}={v}" for k, v in g.unlockables) or "-",
            f"{g.bonus[0]}/{g.bonus[1]}",
            dict(g.provenance).get("abilities", "assumed"),
        )
        for g in data.guardians
    ]
    values = [(k, v.value, v.provenance.value, v.source) for k, v in data.values]
    values += [
        (f"dice.{d.name}", " ".join(d.labels), d.provenance.value, "ruling SS-DICE-FACES") for d in data.dice
    ]
    values += [("trophies", data.trophies.value, data.trophies.provenance.value, data.trophies.source)]
    values += [("demerits", data.demerits.value, data.demerits.provenance.value, data.demerits.source)]
    return "\n\n".join(
        [
            table(heroes, ["hero", "colour", "health", "ability", "health from", "ability from"]),
            table(
                boards,
                [
                    "guardian",
                    "figures",
                    "minions",
                    "tracks (left / right)",
                    "ongoing",
                    "instant",
                    "unlockable",
                    "bonus",
                    "abilities from",
                ],
            ),
            table(values, ["value", "setting", "provenance", "source"]),
        ]
    )
