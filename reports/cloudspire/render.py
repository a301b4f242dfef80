"""Cloudspire pictures and tables around a simulated run, and the ``data`` listing."""

from __future__ import annotations

from invasion_oracle.model.cloudspire.cards import Effect
from invasion_oracle.model.cloudspire.data import GameData
from invasion_oracle.model.cloudspire.render import render_text
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.reports.output import md_escape
from invasion_oracle.reports.tables import fenced, table


def before(scenario: Scenario) -> str:
    return "Before:\n\n" + fenced(render_text(scenario, scenario.initial))


def after(scenario: Scenario, final: GameState) -> str:
    rows = [
        ("result", final.outcome.result if final.outcome else "running"),
        ("round", final.round),
        ("Health", final.health),
        ("Health lost / gained (totals)", f"{final.health_lost} / {final.health_gained}"),
        ("enemies defeated", len(final.defeated)),
        ("spires defeated", final.spires_lost),
        ("boss", f"{final.boss} ({'added' if final.boss_added else 'not added'})"),
    ]
    return "\n".join(
        ["After:", "", fenced(render_text(scenario, final)), "", "Outcome:", "", table(rows, ["", ""])]
    )


def _effects(**fields: tuple[Effect, ...]) -> str:
    """``after: damage-hero 1; ongoing: ranged``"""
    parts = [
        f"{name.rstrip('_')}: {', '.join(map(str, effects))}" for name, effects in fields.items() if effects
    ]
    return "; ".join(parts) or "-"


def data_report(data: GameData) -> str:
    """The card set (an assumed example unless overridden), dice, values and cards, with provenance."""
    note = (
        f"**Card set: {md_escape(data.card_set.value)}** ({md_escape(data.card_set.source)}). "
        "The printed Cloudspire cards are not in the 20 Strong: Cloudspire Rulebook; unless a data file replaces them, every hero, "
        "boss, mini card and conflict card below is an invented example marked `assumed`, and only the "
        "named cards (Water Tower, Refractor, Monolant, Drilling Outpost, Aegis/Lance Launcher) behave as "
        "the rulebook says. Override with `--data FILE` (schema `invasion schema cloudspire-data`)."
    )
    dice = [
        (c.value, n, " ".join(f.value for f in data.dice.faces_of(c)), data.dice.provenance.value)
        for c, n in data.dice.counts
    ]
    values = [(k, v.value, v.provenance.value, md_escape(v.source)) for k, v in data.values]
    heroes, minis, conflict = [], [], []
    for card in data.cards:
        if card.hero is not None and card.enemy is not None:
            h, b = card.hero, card.enemy
            heroes.append(
                (
                    card.id,
                    md_escape(h.name),
                    f"{h.health}/{h.strategy}/{h.recovery}",
                    " ".join(c.value if c else "wild" for c in h.blueprint),
                    md_escape(h.starting_spire),
                    " ".join(map(str, h.ability)) or "-",
                    md_escape(b.name),
                    f"{b.health}/{b.damage}",
                    _effects(global_=b.global_effects, ongoing=b.ongoing, after=b.after),
                    card.provenance.value,
                )
            )
        elif (
            card.item is not None
            and card.enemy is not None
            and card.hero is None
            and not card.item.spire
            and card.kind.value == "mini"
        ):
            e = card.enemy
            minis.append(
                (
                    card.id,
                    md_escape(card.item.name),
                    " ".join(map(str, card.item.effects)) or "-",
                    md_escape(e.name),
                    f"{e.health}/{e.damage}",
                    _effects(ongoing=e.ongoing, after=e.after),
                    card.provenance.value,
                )
            )
        elif card.item is not None and card.enemy is not None:
            e, i = card.enemy, card.item
            conflict.append(
                (
                    card.id,
                    md_escape(e.name),
                    f"{e.health}/{e.damage}",
                    "+" * e.additional_enemies or "-",
                    _effects(activation=e.activation, ongoing=e.ongoing, after=e.after),
                    " ".join(map(str, e.reward)) or "-",
                    md_escape(i.name) + (" (spire)" if i.spire else ""),
                    " ".join(c.value if c else "wild" for c in i.blueprints) or "-",
                    " ".join(map(str, i.effects)) or "-",
                    card.provenance.value,
                )
            )
    universal = [
        (
            md_escape(h.name),
            f"{h.health}/{h.strategy}/{h.recovery}",
            " ".join(map(str, h.ability)) or "-",
            p.value,
        )
        for h, p, _ in data.universal
    ]
    return "\n\n".join(
        [
            note,
            table(dice, ["die colour", "count", "faces", "provenance"]),
            table(values, ["value", "setting", "provenance", "source"]),
            table(
                heroes,
                [
                    "card",
                    "hero",
                    "H/S/R",
                    "blueprint",
                    "starting spire",
                    "ability",
                    "boss",
                    "H/D",
                    "boss effects",
                    "provenance",
                ],
            ),
            table(minis, ["card", "mini-hero", "ability", "mini-boss", "H/D", "effects", "provenance"]),
            table(
                conflict,
                [
                    "card",
                    "enemy",
                    "H/D",
                    "icons",
                    "effects",
                    "reward",
                    "item side",
                    "blueprints",
                    "item effects",
                    "provenance",
                ],
            ),
            table(universal, ["universal hero", "H/S/R", "ability", "provenance"]),
        ]
    )
