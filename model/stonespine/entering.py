"""Entering a chamber, moving and escaping (seed 000, "IV. Invasion Phase, Step 2: Repel Heroes").

When a hero enters a chamber, in this order:

1. a chamber holding a previously defeated hero is ignored: no guardian, minion, monster,
   trap or hero ability acts there;
2. a guardian defeats the hero at once, and the hero's ability does not resolve;
3. otherwise minions (2 each), monsters and traps (1 each) deal damage while the hero's ability
   resolves; the hero is defeated when its total damage reaches its health.

A living hero then moves to a new connected chamber (the player picks when there are several);
it escapes when there is none, and in years 1-3 when it stands in the chamber connected to the
exit (rulings ``SS-EXIT-Y13``, ``SS-EXIT-CHAMBER``, ``SS-EXIT-DEFEATED``).

These functions are pure and shared by the game and the solvers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

from model.core.rulings import Rulings
from model.stonespine.data import GameData
from model.stonespine.dungeon import Cell, Chamber, Dungeon, PassageMode, Side
from model.stonespine.elements import Element, ElementKind
from model.stonespine.guardians import GuardianState
from model.stonespine.heroes import AbilityType, HeroCard
from model.stonespine.state import Placement

RUBBLE = Element(ElementKind.RUBBLE)
TROLL_RUBBLE = Element(ElementKind.TROLL_RUBBLE)


@dataclass(frozen=True, slots=True)
class Rules:
    """The readings and data in force, with the readings the hot paths need pre-read."""

    rulings: Rulings
    data: GameData
    passage_mode: PassageMode
    exit_forced: bool
    exit_needs_bottom_opening: bool
    exit_through_defeated: bool
    entry_escapes: bool
    snapshot_damage: bool
    purple_all_damage: bool
    purple_used_anyway: bool
    black_resolves_when_defeated: bool
    minion_damage: int
    element_damage: int
    hatchlings_extra: int
    pact_damage: int

    @staticmethod
    def of(rulings: Rulings, data: GameData) -> Rules:
        return Rules(
            rulings=rulings,
            data=data,
            passage_mode=PassageMode(rulings.reading("SS-PASSAGE")),
            exit_forced=rulings.is_("SS-EXIT-Y13", "forced"),
            exit_needs_bottom_opening=rulings.is_("SS-EXIT-CHAMBER", "bottom-opening"),
            exit_through_defeated=rulings.is_("SS-EXIT-DEFEATED", "escapes"),
            entry_escapes=rulings.is_("SS-ENTRY-UNCONNECTED", "escape"),
            snapshot_damage=rulings.is_("SS-SIMULTANEOUS", "entry-snapshot"),
            purple_all_damage=rulings.is_("SS-PURPLE-SCOPE", "all-damage"),
            purple_used_anyway=rulings.is_("SS-PURPLE-FIRST", "used-anyway"),
            black_resolves_when_defeated=rulings.is_("SS-BLACK-DEFEATED", "resolves"),
            minion_damage=data.value("minion_damage"),
            element_damage=data.value("element_damage"),
            hatchlings_extra=data.value("hatchlings_extra"),
            pact_damage=data.value("pact_damage"),
        )


class EntryKind(enum.StrEnum):
    IGNORED = "ignored"  # the chamber holds a defeated hero
    GUARDIAN = "guardian"  # a guardian defeats the hero
    DAMAGE = "damage"  # minions, monsters, traps and abilities resolve


@dataclass(frozen=True, slots=True)
class Entry:
    """What entering one chamber does to one hero."""

    kind: EntryKind
    damage: int = 0
    parts: tuple[tuple[str, int], ...] = ()  # where the damage comes from
    protected: bool = False  # a purple hero's condition was met here
    destroyed: tuple[int, ...] = ()  # element spaces (0-3) a black hero covers with rubble


def _matches(tags: frozenset[str], wanted: frozenset[str]) -> bool:
    return not tags.isdisjoint(wanted)


def destroy_candidates(card: HeroCard, chamber: Chamber, guardian: GuardianState) -> tuple[int, ...]:
    """Element spaces a black hero's ability could cover with rubble in this chamber."""
    if card.ability.type is not AbilityType.DESTROY:
        return ()
    rubble_is_trap = guardian.has("dangerous-debris")
    return tuple(
        i
        for i, space in enumerate(chamber.spaces)
        if space.top is not None
        and not space.top.is_rubble
        and _matches(space.tags(rubble_is_trap), card.ability.matches)
    )


def destroy_options(card: HeroCard, chamber: Chamber, guardian: GuardianState) -> tuple[tuple[int, ...], ...]:
    """Every legal set of spaces to cover (one option when there is no choice)."""
    candidates = destroy_candidates(card, chamber, guardian)
    count = min(card.ability.amount, len(candidates))
    return tuple(combinations(candidates, count))


def purple_condition(card: HeroCard, chamber: Chamber, guardian: GuardianState, minions: int) -> bool:
    """Whether ``chamber`` meets the hero's first-time condition (element, minion or chamber type)."""
    wanted = card.ability.matches
    rubble_is_trap = guardian.has("dangerous-debris")
    if any(_matches(space.tags(rubble_is_trap), wanted) for space in chamber.spaces):
        return True
    return ("minion" in wanted and minions > 0) or chamber.type.value in wanted


def chamber_damage(
    rules: Rules,
    guardian: GuardianState,
    placement: Placement,
    cell: Cell,
    chamber: Chamber,
    card: HeroCard,
    protection_used: bool,
) -> tuple[int, tuple[tuple[str, int], ...], bool]:
    """Damage to ``card``'s hero entering ``chamber`` with no guardian and no defeated hero.

    Returns ``(damage, parts, protected)``; ``protected`` is True when a purple hero's
    condition is met here for the first time.
    """
    rubble_is_trap = guardian.has("dangerous-debris")
    parts: list[tuple[str, int]] = []
    minions = placement.minions_in(cell)
    if minions:
        parts.append(("minion", minions * rules.minion_damage))
        if guardian.has("hungry-hatchlings") and chamber.type.value == "stone":
            parts.append(("hungry-hatchlings", minions * rules.hatchlings_extra))
    minion_part = sum(n for _, n in parts)
    ability = card.ability
    matched = 0
    for space in chamber.spaces:
        tags = space.tags(rubble_is_trap)
        if not tags:
            continue
        if "monster" in tags or "trap" in tags:
            # One damage per element even if a type change makes it count as both kinds.
            parts.append((str(space.top), rules.element_damage))
        if "pact" in tags and guardian.has("pact-damage"):
            parts.append(("pact", rules.pact_damage))
        if _matches(tags, ability.matches):
            matched += 1
    if "minion" in ability.matches:
        matched += minions
    if ability.type is AbilityType.EXTRA_DAMAGE and matched:
        parts.append((card.name, matched * ability.amount))
    damage = sum(n for _, n in parts)
    protected = False
    purple = (
        ability.type is AbilityType.NO_DAMAGE_FIRST
        and not protection_used
        and purple_condition(card, chamber, guardian, minions)
    )
    if purple and (rules.purple_used_anyway or damage > 0):
        protected = True
        damage = 0 if rules.purple_all_damage else minion_part
    return damage, tuple(parts), protected


def cover(chamber: Chamber, spaces: tuple[int, ...], rubble: Element = RUBBLE) -> Chamber:
    for index in spaces:
        chamber = chamber.with_space(index, chamber.spaces[index].cover_with(rubble))
    return chamber


def enter(
    rules: Rules,
    dungeon: Dungeon,
    guardian: GuardianState,
    placement: Placement,
    defeated_cells: frozenset[Cell],
    cell: Cell,
    card: HeroCard,
    protection_used: bool,
    destroy: tuple[int, ...] = (),
    damage_so_far: int = 0,
    health: int | None = None,
) -> Entry:
    """Resolve one hero entering ``cell``. ``destroy`` is the black hero's chosen spaces."""
    if cell in defeated_cells:
        return Entry(EntryKind.IGNORED)
    if cell in placement.guardians:
        return Entry(EntryKind.GUARDIAN)
    chamber = dungeon.chamber(cell)
    seen = chamber if rules.snapshot_damage or not destroy else cover(chamber, destroy)
    damage, parts, protected = chamber_damage(rules, guardian, placement, cell, seen, card, protection_used)
    if (
        destroy
        and not rules.black_resolves_when_defeated
        and health is not None
        and damage_so_far + damage >= health
    ):
        destroy = ()
        if not rules.snapshot_damage:
            damage, parts, protected = chamber_damage(
                rules, guardian, placement, cell, chamber, card, protection_used
            )
    return Entry(EntryKind.DAMAGE, damage, parts, protected, destroy)


def exit_chamber(rules: Rules, dungeon: Dungeon, year: int) -> Cell | None:
    """The chamber whose living heroes escape in years 1-3, or None (year 4, or ruled away)."""
    if year >= 4 or not rules.exit_forced:
        return None
    cell = dungeon.exit_cell()
    if rules.exit_needs_bottom_opening and not dungeon.chamber(cell).opening(Side.BOTTOM):
        return None
    return cell


def escapes_by_exit(rules: Rules, exit_cell: Cell | None, cell: Cell, ignored: bool) -> bool:
    if exit_cell is None or cell != exit_cell:
        return False
    return not ignored or rules.exit_through_defeated


def next_chambers(rules: Rules, dungeon: Dungeon, at: Cell, visited: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """New connected chambers, in the fixed order top, bottom, left, right."""
    return tuple(c for c in dungeon.neighbours(at, rules.passage_mode) if c not in visited)
