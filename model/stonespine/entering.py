"""Entering a chamber, moving and escaping (seed 000, "IV. Invasion Phase, Step 2: Repel Heroes").

When a hero enters a chamber, in this order:

1. a chamber holding a previously defeated hero is ignored: no guardian, minion, monster,
   trap or hero ability acts there;
2. a guardian defeats the hero at once, and the hero's ability does not resolve;
3. an active ``defeat`` ability whose chamber condition holds defeats the hero the same way;
4. otherwise minions (2 each), monsters and traps (1 each) and the guardian's ``add-damage``
   abilities deal damage while the hero's ability resolves (only in a chamber with a minion,
   monster or trap, ruling ``SS-HERO-ABILITY-CHAMBER``); the hero is defeated when its total
   damage reaches its health.

A living hero then moves to a new connected chamber (the player picks when there are several);
it escapes when there is none, and in years 1-3 when it stands in the chamber connected to the
exit (rulings ``SS-EXIT-Y13``, ``SS-EXIT-CHAMBER``, ``SS-EXIT-DEFEATED``).

These functions are pure and shared by the game and the solvers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.stonespine.abilities import Ability, ChamberFilter, Do, Effect
from invasion_oracle.model.stonespine.data import GameData
from invasion_oracle.model.stonespine.dungeon import Cell, Chamber, Dungeon, PassageMode, Side
from invasion_oracle.model.stonespine.elements import Element, ElementKind, Space, TypeChange
from invasion_oracle.model.stonespine.guardians import GuardianState
from invasion_oracle.model.stonespine.heroes import AbilityType, HeroCard
from invasion_oracle.model.stonespine.state import Placement

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
    abilities_need_danger: bool = True  # SS-HERO-ABILITY-CHAMBER
    rubble_is_element: bool = True  # SS-RUBBLE-ELEMENT
    guardian_once: bool = False  # SS-GUARDIAN-FIRST=once-per-phase
    face_down_counts: bool = False  # SS-PACT-FACE-DOWN=face-down-too
    outer_passages: bool = True  # SS-PASSAGE-OUTER=connects
    changed_types_damage: bool = True  # SS-CHANGED-TYPE-DAMAGE=deals-damage

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
            abilities_need_danger=rulings.is_("SS-HERO-ABILITY-CHAMBER", "dangerous-only"),
            rubble_is_element=rulings.is_("SS-RUBBLE-ELEMENT", "element"),
            guardian_once=rulings.is_("SS-GUARDIAN-FIRST", "once-per-phase"),
            face_down_counts=rulings.is_("SS-PACT-FACE-DOWN", "face-down-too"),
            outer_passages=rulings.is_("SS-PASSAGE-OUTER", "connects"),
            changed_types_damage=rulings.is_("SS-CHANGED-TYPE-DAMAGE", "deals-damage"),
        )

    # The data's numbers are read where a rule uses them, not when the rules are made: under
    # ``invasion changes`` a case then depends on a value only if its play reached it (a case with
    # no minion does not read minion_damage, and is kept when a designer changes it).
    @property
    def minion_damage(self) -> int:
        return self._value("minion_damage")

    @property
    def element_damage(self) -> int:
        return self._value("element_damage")

    @property
    def hatchlings_extra(self) -> int:
        return self._value("hatchlings_extra")

    @property
    def pact_damage(self) -> int:
        return self._value("pact_damage")

    def _value(self, key: str) -> int:
        # ``data.value`` without its dict: only the matched record's value is read
        for name, sourced in self.data.values:
            if name == key:
                return int(sourced.value)
        raise KeyError(key)

    def amount(self, amount: int | str) -> int:
        return self.data.amount(amount)


class EntryKind(enum.StrEnum):
    IGNORED = "ignored"  # the chamber holds a defeated hero
    GUARDIAN = "guardian"  # a guardian defeats the hero
    ABILITY = "ability"  # a guardian's defeat ability defeats the hero
    DAMAGE = "damage"  # minions, monsters, traps and abilities resolve


@dataclass(frozen=True, slots=True)
class Entry:
    """What entering one chamber does to one hero."""

    kind: EntryKind
    damage: int = 0
    parts: tuple[tuple[str, int], ...] = ()  # where the damage comes from
    protected: bool = False  # a purple hero's condition was met here
    destroyed: tuple[int, ...] = ()  # element spaces (0-3) a black hero covers with rubble
    by: str = ""  # ABILITY: the ability that defeated the hero


def _matches(tags: frozenset[str], wanted: frozenset[str]) -> bool:
    return not tags.isdisjoint(wanted)


def dangerous(chamber: Chamber, changes: tuple[TypeChange, ...], minions: int) -> bool:
    """Whether the chamber holds a minion, monster or trap (seed 000, Step 2: the case in which
    damage is dealt and hero abilities resolve)."""
    if minions:
        return True
    return any(not space.tags(changes).isdisjoint({"monster", "trap"}) for space in chamber.spaces)


def chamber_has(when: ChamberFilter, chamber: Chamber, changes: tuple[TypeChange, ...], minions: int) -> bool:
    """Whether a chamber meets an ability's chamber condition (``if``)."""
    if when.in_ is not None and chamber.type is not when.in_:
        return False
    if not when.has:
        return True
    if "minion" in when.has and minions:
        return True
    return any(_matches(space.tags(changes), when.has) for space in chamber.spaces)


def element_target(rules: Rules | None, space: Space, wanted: frozenset[str]) -> bool:
    """Whether abilities acting on 'an element' may act on this space's top element.

    Rubble counts as an element for abilities (seed 000, Game Terms: Rubble) unless ruling
    ``SS-RUBBLE-ELEMENT`` says otherwise; an ability that names rubble always may.
    """
    if space.top is None:
        return False
    if not space.top.is_rubble:
        return True
    return rules is None or rules.rubble_is_element or "rubble" in wanted or "troll-rubble" in wanted


def destroy_candidates(
    card: HeroCard, chamber: Chamber, guardian: GuardianState, rules: Rules | None = None
) -> tuple[int, ...]:
    """Element spaces a black hero's ability could cover with rubble in this chamber."""
    if card.ability.type is not AbilityType.DESTROY:
        return ()
    changes = guardian.type_changes
    wanted = card.ability.matches
    return tuple(
        i
        for i, space in enumerate(chamber.spaces)
        if space.top is not None
        and (space.top.is_rubble is False or (rules is not None and element_target(rules, space, wanted)))
        and _matches(space.tags(changes), wanted)
    )


def destroy_options(
    card: HeroCard,
    chamber: Chamber,
    guardian: GuardianState,
    rules: Rules | None = None,
    minions: int = 0,
) -> tuple[tuple[int, ...], ...]:
    """Every legal set of spaces to cover (one option when there is no choice)."""
    if (
        rules is not None
        and rules.abilities_need_danger
        and not dangerous(chamber, guardian.type_changes, minions)
    ):
        return ((),)
    candidates = destroy_candidates(card, chamber, guardian, rules)
    count = min(card.ability.amount, len(candidates))
    return tuple(combinations(candidates, count))


def purple_condition(
    card: HeroCard, chamber: Chamber, guardian: GuardianState, minions: int, rules: Rules | None = None
) -> bool:
    """Whether ``chamber`` meets the hero's first-time condition (element, minion or chamber type).

    With ``rules``, the condition counts only where hero abilities resolve at all (ruling
    ``SS-HERO-ABILITY-CHAMBER``).
    """
    wanted = card.ability.matches
    changes = guardian.type_changes
    if rules is not None and rules.abilities_need_danger and not dangerous(chamber, changes, minions):
        return False
    if any(_matches(space.tags(changes), wanted) for space in chamber.spaces):
        return True
    return ("minion" in wanted and minions > 0) or chamber.type.value in wanted


def _applies(effect: Effect, chamber: Chamber, card: HeroCard) -> bool:
    return (effect.in_ is None or chamber.type is effect.in_) and effect.applies_to(card.color)


def _counted(rules: Rules, effect: Effect, chamber: Chamber, changes: tuple[TypeChange, ...]) -> int:
    """How many things an ``add-damage`` effect counts in the chamber (minions aside)."""
    per = effect.per
    if per == "chamber":
        return 1
    if isinstance(per, str):
        return 0
    count = 0
    for space in chamber.spaces:
        if rules.face_down_counts and space.top is not None and space.top.face_down:
            # SS-PACT-FACE-DOWN=face-down-too: a face-down token counts as what it will show.
            space = Space(space.top.revealed(), space.under)
        if per.matches(space, chamber.type, changes):
            count += 1
    return count


def chamber_damage(
    rules: Rules,
    guardian: GuardianState,
    placement: Placement,
    cell: Cell,
    chamber: Chamber,
    card: HeroCard,
    protection_used: bool,
    *,
    hero_ability: bool = True,
) -> tuple[int, tuple[tuple[str, int], ...], bool]:
    """Damage to ``card``'s hero entering ``chamber`` with no guardian and no defeated hero.

    Returns ``(damage, parts, protected)``; ``protected`` is True when a purple hero's
    condition is met here for the first time. ``hero_ability=False`` is a chamber where the
    hero's card ability cannot resolve (a guardian stands there but defeats no more).
    """
    changes = guardian.type_changes
    adds: tuple[tuple[Ability, Effect], ...] = guardian.effects(Do.ADD_DAMAGE)
    parts: list[tuple[str, int]] = []
    minions = placement.minions_in(cell)
    if minions:
        parts.append(("minion", minions * rules.minion_damage))
        for ability, effect in adds:
            if effect.per == "minion" and _applies(effect, chamber, card):
                parts.append((ability.id, minions * rules.amount(effect.amount)))
    minion_part = sum(n for _, n in parts)
    hero = card.ability
    matched = 0
    for space in chamber.spaces:
        tags = space.tags(changes)
        if not tags:
            continue
        # Under SS-CHANGED-TYPE-DAMAGE=type-only only the printed types deal damage.
        harmful = tags if rules.changed_types_damage else space.tags(())
        if "monster" in harmful or "trap" in harmful:
            # One damage per element even if a type change makes it count as both kinds.
            parts.append((str(space.top), rules.element_damage))
        if _matches(tags, hero.matches):
            matched += 1
    for added, effect in adds:
        if effect.per != "minion" and _applies(effect, chamber, card):
            count = _counted(rules, effect, chamber, changes)
            if count:
                parts.append((added.id, count * rules.amount(effect.amount)))
    resolves = hero_ability and (not rules.abilities_need_danger or dangerous(chamber, changes, minions))
    if "minion" in hero.matches:
        matched += minions
    if hero.type is AbilityType.EXTRA_DAMAGE and matched and resolves:
        parts.append((card.name, matched * hero.amount))
    damage = sum(n for _, n in parts)
    protected = False
    purple = (
        resolves
        and hero.type is AbilityType.NO_DAMAGE_FIRST
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
    spent: frozenset[int] = frozenset(),
) -> Entry:
    """Resolve one hero entering ``cell``. ``destroy`` is the black hero's chosen spaces;
    ``spent`` are guardian figures that already defeated a hero (ruling ``SS-GUARDIAN-FIRST``)."""
    if cell in defeated_cells:
        return Entry(EntryKind.IGNORED)
    figures = [k for k, c in enumerate(placement.guardians) if c == cell]
    live = [k for k in figures if not (rules.guardian_once and k in spent)]
    if live:
        return Entry(EntryKind.GUARDIAN)
    chamber = dungeon.chamber(cell)
    changes = guardian.type_changes
    minions = placement.minions_in(cell)
    for ability, effect in guardian.effects(Do.DEFEAT):
        if effect.applies_to(card.color) and chamber_has(effect.when, chamber, changes, minions):
            return Entry(EntryKind.ABILITY, by=ability.id)
    if figures:
        destroy = ()  # a guardian there still stops the hero's card ability (seed 000, Heroes)
    seen = chamber if rules.snapshot_damage or not destroy else cover(chamber, destroy)
    blocked = bool(figures)
    damage, parts, protected = chamber_damage(
        rules, guardian, placement, cell, seen, card, protection_used, hero_ability=not blocked
    )
    if (
        destroy
        and not rules.black_resolves_when_defeated
        and health is not None
        and damage_so_far + damage >= health
    ):
        destroy = ()
        if not rules.snapshot_damage:
            damage, parts, protected = chamber_damage(
                rules, guardian, placement, cell, chamber, card, protection_used, hero_ability=not blocked
            )
    return Entry(EntryKind.DAMAGE, damage, parts, protected, destroy)


def entrance_open(rules: Rules, dungeon: Dungeon) -> bool:
    """Whether the chamber under the entrance opens to it: a doorway on its top edge, or a
    secret passage there (ruling ``SS-PASSAGE-OUTER``)."""
    chamber = dungeon.chamber(dungeon.first_chamber)
    return Side.TOP in chamber.doors or (rules.outer_passages and chamber.opening(Side.TOP))


def exit_chamber(rules: Rules, dungeon: Dungeon, year: int) -> Cell | None:
    """The chamber whose living heroes escape in years 1-3, or None (year 4, or ruled away)."""
    if year >= 4 or not rules.exit_forced:
        return None
    cell = dungeon.exit_cell()
    chamber = dungeon.chamber(cell)
    bottom = Side.BOTTOM in chamber.doors or (rules.outer_passages and chamber.opening(Side.BOTTOM))
    if rules.exit_needs_bottom_opening and not bottom:
        return None
    return cell


def escapes_by_exit(rules: Rules, exit_cell: Cell | None, cell: Cell, ignored: bool) -> bool:
    if exit_cell is None or cell != exit_cell:
        return False
    return not ignored or rules.exit_through_defeated


def next_chambers(rules: Rules, dungeon: Dungeon, at: Cell, visited: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """New connected chambers, in the fixed order top, bottom, left, right."""
    return tuple(c for c in dungeon.neighbours(at, rules.passage_mode) if c not in visited)
