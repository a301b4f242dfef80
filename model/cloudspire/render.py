"""Pictures of the play area: a monospace text picture and an SVG (seed 004, Table Setup Diagram).

Both show the Deployment Stack (its known top card and how many cards it holds), the three lanes
with their enemy stacks (the top card with Health, Damage and damage taken; the cards under it
counted and named), the six spire spaces with their spires and the dice on each blueprint, the
hero card with Health, Strategy and Recovery and its blueprint, and the dice counts by zone.

A slot shows as ``bp1 B2:hit`` (blueprint 1 holds die B2 showing a hit) or ``bp2 [blue]`` (empty,
takes a blue die; ``[*]`` takes any colour). A defeated spire is marked ``(defeated)``.
:data:`NOTATION` says what each token means; both pictures end with a key to the tokens they show.
"""

from __future__ import annotations

from invasion_oracle.model.cloudspire.area import HERO, LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.blueprints import Slot
from invasion_oracle.model.cloudspire.dice import COLOURS, Zone, die_order
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.legend import Entry, Notation, box_cells, keys_of

WIDTH = 26


def _split(text: str) -> list[str]:
    """Tokens of a play-area picture: words without their brackets and commas (``[blue]`` kept)."""
    words = (w.strip("(),;:") if not w.startswith("[") else w for w in text.replace("|", " ").split())
    return [w for w in words if w]


NOTATION = Notation(
    "cloudspire",
    (
        Entry(r"[LR]-(top|middle|bottom)", "spire space left (L) or right (R) of that lane"),
        Entry(r"[A-Z][A-Za-z]*-(\d+|[A-Z]+)", "a card, by its set and number (Driftwood-3)"),
        Entry(r"H\d+/\d+", "the top enemy's Health left / its full Health (H1/2: one of two left)"),
        Entry(r"D\d+", "the Damage the top enemy deals when it attacks"),
        Entry(r"[a-z]+\d+", "a blueprint of the card (bp1: the first), where a die is loaded"),
        Entry(r"\[[\w*]+\]", "an empty blueprint and the die colour it takes ([*]: any)"),
        Entry(
            r"[A-Z]\d+:(miss|hit|CRIT|\?)(>\S+)?",
            "a die: colour letter (Y yellow, G green, B blue, P purple, R red) and number, and the face it shows",
        ),
        Entry(r"\+\d+", "more enemy cards under the top one, named after it"),
        Entry(r"\d+", "the value named before it (Health; Str: Strategy; Rec: Recovery)"),
    ),
    _split,
)
SHORT = {"miss": "miss", "hit": "hit", "crit": "CRIT"}


def _slot_texts(scenario: Scenario, state: GameState, space: str) -> list[str]:
    game = scenario.game()
    held = {d.slot: d for d in state.dice if d.slot}
    out = []
    for slot, want in game.slots_at(state, space):
        die = held.get(str(slot))
        label = f"{slot.kind}{slot.index}"
        if die is not None:
            face = SHORT[die.face.value] if die.face else "?"
            out.append(f"{label} {die.name}:{face}" + (">" + die.card if die.card else ""))
        else:
            out.append(f"{label} [{want.value if want else '*'}]")
    # dice left on a defeated spire (exhausted at Cleanup)
    for die in state.dice:
        if (
            die.slot
            and Slot.parse(die.slot).space == space
            and not any(str(s) == die.slot for s, _ in game.slots_at(state, space))
        ):
            out.append(f"{die.slot.split('.')[1]} {die.name}:{SHORT[die.face.value] if die.face else '?'}")
    return out


def _spire_lines(scenario: Scenario, state: GameState, space: str) -> list[str]:
    placed = state.spire_at(space)
    if placed is None:
        return [space, "(empty)"]
    game = scenario.game()
    name = game.item_name(placed.card)
    lines = [f"{space} {placed.card}", name + (" (defeated)" if placed.defeated else "")]
    slots = _slot_texts(scenario, state, space)
    for i in range(0, len(slots), 2):
        lines.append("  ".join(slots[i : i + 2]))
    return lines


def _lane_lines(scenario: Scenario, state: GameState, lane: str) -> list[str]:
    stack = state.lane(lane)
    if not stack:
        return [f"{lane} lane", "(empty)"]
    game = scenario.game()
    top = stack[0]
    enemy = game.enemy(top)
    taken = game.damage_taken(state, top)
    lines = [
        f"{lane} lane {top}",
        f"{enemy.name}",
        f"H{enemy.health - taken}/{enemy.health} D{game.attack_damage(state, top)}",
    ]
    applied = [d for d in state.in_zone(Zone.APPLIED) if d.card == top]
    if applied:
        lines.append(
            "dice " + " ".join(f"{d.name}:{SHORT[d.face.value] if d.face else '?'}" for d in applied)
        )
    if len(stack) > 1:
        lines.append(f"+{len(stack) - 1} under: " + ", ".join(game.enemy_name(c) for c in stack[1:]))
    return lines


def _hero_lines(scenario: Scenario, state: GameState) -> list[str]:
    game = scenario.game()
    hero = game.hero_side(state)
    lines = [
        f"hero {hero.name}",
        f"Health {state.health} Str {state.strategy} Rec {state.recovery}",
    ]
    slots = _slot_texts(scenario, state, HERO)
    lines.append("  ".join(slots) if slots else "(no blueprint)")
    return lines


def _box(lines: list[str], height: int) -> list[str]:
    body = [f"|{line[:WIDTH].ljust(WIDTH)}|" for line in lines] + [f"|{' ' * WIDTH}|"] * (height - len(lines))
    border = "+" + "-" * WIDTH + "+"
    return [border, *body, border]


def _dice_line(state: GameState) -> str:
    parts = []
    for zone in Zone:
        dice = sorted(state.in_zone(zone), key=lambda d: die_order(d.name))
        if zone is Zone.POOL:
            counts = " ".join(
                f"{n}x{c.value}" for c in COLOURS if (n := sum(1 for d in dice if d.colour is c))
            )
            parts.append(f"pool {len(dice)}" + (f" ({counts})" if counts else ""))
        elif zone in (Zone.COMMITTED,):
            parts.append(
                f"{zone.value} {len(dice)}"
                + (" (" + " ".join(d.describe() for d in dice) + ")" if dice else "")
            )
        else:
            parts.append(f"{zone.value} {len(dice)}")
    return "Dice: " + " · ".join(parts)


def render_text(scenario: Scenario, state: GameState, *, title: str = "") -> str:
    """The play area as a text picture."""
    game = scenario.game()
    out = [title] if title else []
    result = f" · {state.outcome.result}: {state.outcome.reason}" if state.outcome else ""
    out.append(f"Cloudspire · round {state.round} · {state.phase}{result}")
    dep = state.deployment
    top = (
        f"top {game.enemy_name(dep.top[0])} ({dep.top[0]})"
        if dep.top
        else ("top unknown (shuffled)" if len(dep) else "empty")
    )
    boss = game.enemy_name(state.boss) if state.boss else "not chosen"
    out.append(
        f"Deployment Stack: {len(dep)} card(s), {top} · Boss: {boss} ({'added' if state.boss_added else 'not added'})"
    )
    for lane in LANES:
        left, right = f"L-{lane}", f"R-{lane}"
        cells = [
            _spire_lines(scenario, state, left),
            _lane_lines(scenario, state, lane),
            _spire_lines(scenario, state, right),
        ]
        height = max(len(c) for c in cells)
        boxes = [_box(c, height) for c in cells]
        for row in zip(*boxes, strict=True):
            out.append(" ".join(row))
    hero = _box(_hero_lines(scenario, state), 3)
    pad = " " * (WIDTH + 3)
    out += [pad + line for line in hero]
    out += NOTATION.text_lines(box_cells("\n".join(out)), width=3 * (WIDTH + 3) - 1)  # the boxes' width
    out.append(_dice_line(state))
    inventory = ", ".join(f"{game.item_name(c)} ({c})" for c in state.inventory) or "empty"
    out.append(f"Inventory: {inventory}")
    discard = ", ".join(
        f"{game.card(c).side_name('enemy' if side in ('enemy', 'boss', 'mini-boss') else 'item')} ({side})"
        for c, side in state.discard
    )
    out.append(f"Market Stack: {len(state.market)} card(s) · Discard: {discard or 'empty'}")
    return "\n".join(out) + "\n"


def render_svg(scenario: Scenario, state: GameState, *, title: str = "") -> str:
    """An SVG picture of the play area: three columns, the Deployment Stack above, the hero below,
    the dice line (wrapped to the picture's width) and a legend under them."""
    # imported here: drawsvg is only needed for pictures, not by the searches that render text
    from invasion_oracle.model.core.svg import Canvas, Key, wrap

    cell_w, cell_h, gap, size = 250, 124, 12, 11
    canvas = Canvas(title or "Cloudspire play area", size=size)
    canvas.text(0, 14, f"Cloudspire · round {state.round} · {state.phase}", size=14, bold=True)
    game = scenario.game()

    def box(col: int, row: int, lines: list[str], fill: str, notation: bool = True) -> None:
        x = col * (cell_w + gap)
        y = 30 + row * (cell_h + gap)
        canvas.rect(x, y, cell_w, cell_h, fill, rx=8, stroke="#333333")
        wrapped = [part for line in lines for part in wrap(line, cell_w - 16, size)]
        for k, line in enumerate(wrapped[:8]):
            canvas.text(x + 8, y + 16 + 13.5 * k, line, bold=k == 0, notation=notation)

    dep = state.deployment
    dep_lines = ["Deployment Stack", f"{len(dep)} card(s)"]
    if dep.top:
        dep_lines.append(f"top: {game.enemy_name(dep.top[0])}")
    elif len(dep):
        dep_lines.append("top: unknown (shuffled)")
    dep_lines.append(f"boss {'added' if state.boss_added else 'not added'}")
    box(1, 0, dep_lines, FILLS["deck"], notation=False)  # words, not notation
    for r, lane in enumerate(LANES, start=1):
        box(1, r, _lane_lines(scenario, state, lane), FILLS["enemy"] if state.lane(lane) else FILLS["empty"])
        for c, side in ((0, "L"), (2, "R")):
            space = f"{side}-{lane}"
            placed = state.spire_at(space)
            fill = (
                FILLS["empty"]
                if placed is None
                else (FILLS["defeated"] if placed.defeated else FILLS["spire"])
            )
            box(c, r, _spire_lines(scenario, state, space), fill)
    box(1, 4, _hero_lines(scenario, state), FILLS["hero"])
    bottom = 30 + 5 * (cell_h + gap)
    canvas.lines(0, bottom + 10, wrap(_dice_line(state), 3 * cell_w + 2 * gap, size), step=14)
    canvas.legend(
        [
            Key("fill", FILLS["deck"], "Deployment Stack"),
            Key("fill", FILLS["enemy"], "lane with enemies"),
            Key("fill", FILLS["spire"], "spire"),
            Key("fill", FILLS["defeated"], "defeated spire"),
            Key("fill", FILLS["empty"], "empty"),
            Key("fill", FILLS["hero"], "hero"),
            *(
                Key("text", "#333333", f"{tokens} = {words}")
                for tokens, words in keys_of(NOTATION, canvas.notation)
            ),
        ]
    )
    return canvas.svg()


FILLS = {
    "deck": "#dddddd",
    "enemy": "#f4c7c3",
    "empty": "#f7f7f7",
    "spire": "#c9daf8",
    "defeated": "#bbbbbb",
    "hero": "#d9ead3",
}


assert SPIRE_SPACES  # the spire spaces are drawn by row and side above
