"""A deliberately broken Spirit Island implementation: the oracle with faults the runner must catch.

Without ``--bug`` (today's faults, all at once):

* Build always adds a Town, never a City (the rule "more Towns than Cities: a City" is missing);
* destroyed Towns generate no Fear (a data override slipped into every Spirit Island case);
* Defend is ignored in a Ravage;
* it crashes on ``spirit-island/event/omens``, hangs on ``spirit-island/event/peaceful-season`` and
  prints garbage for ``spirit-island/event/settlers-arrive``.

``--bug NAME`` (repeatable) plants only the bugs named instead: the classes of bug a real engine
run through the conformance protocol showed (issue 35), each alone or several together (each
wraps the rule the bugs planted before it left, as a real engine has them all at once):

* ``fight-back-partial``: the Dahan's fight-back drops the Damage that does not destroy a whole
  piece (a City hit for 2 stays undamaged);
* ``damage-ignored``: Damage already on a piece is ignored when more is dealt (a Town with 1
  Damage hit for 1 survives, its Damage now 1);
* ``no-ocean-explore``: Explore never reaches a coastal land from the Ocean (only from a Town or
  City in or next to it);
* ``ravage-card-stays``: when the Build space is empty, the Ravage card stays where it is as the
  cards advance (it should go to the discard);
* ``cascade-loop``: a Blight cascade never ends (the engine recurses for ever: the case hangs, and
  the runner must time it out and go on);
* ``cascade-recursion``: the same endless cascade in a Python engine that recurses for real: the
  interpreter's recursion limit ends it with a ``RecursionError``, and the engine's process dies
  (the case crashes at once, the runner restarts the engine and goes on).

``tests/conform/test_broken_adapters.py`` names the cases that must fail;
``tests/quality/test_fuzz_quality.py`` has ``conform --fuzz`` find, at the state level, each bug
of ``--bug``.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Callable
from typing import Any

import invasion_oracle.model.spirit_island.explore as explore
import invasion_oracle.model.spirit_island.game as game
from invasion_oracle.model.spirit_island.invader_deck import InvaderBoard
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import CITY, TOWN, Land, PieceKind, PieceStats, piece
from invasion_oracle.model.spirit_island.ravage import strike_parts
from invasion_oracle.reports.conform.adapter import Fault, levels_from_argv, serve


def _always_a_town(land: Land) -> PieceKind:
    return PieceKind.TOWN


def _no_defend(land: Land, stats: PieceStats, threshold: int) -> Any:
    return strike_parts(dataclasses.replace(land, defend=0), stats, threshold)


def _towns_without_fear(message: dict[str, Any]) -> dict[str, Any]:
    if message["game"] != "spirit-island":
        return message
    scenario = dict(message["scenario"])
    data = dict(scenario.get("data", {}))
    data["pieces"] = {**data.get("pieces", {}), "town": {"fear": 0}}
    scenario["data"] = data
    return {**message, "scenario": scenario}


MISBEHAVE = {
    "spirit-island/event/omens": "crash",
    "spirit-island/event/peaceful-season": "hang",
    "spirit-island/event/settlers-arrive": "garbage",
}

FAULTS = (
    Fault("misbehaves", misbehave=lambda message: MISBEHAVE.get(message["id"], "")),
    Fault("Towns give no Fear", before=_towns_without_fear),
)


def _today() -> tuple[Fault, ...]:
    game.built_piece = _always_a_town  # the engine's Build rule, broken
    game.strike_parts = _no_defend  # Defend forgotten (the game's Ravage strikes through strike_parts)
    return FAULTS


# -- the bugs of --bug ------------------------------------------------------------------------------


def _fight_back_partial() -> None:
    """Only the parts of the players' allocation that destroy a piece are dealt in a fight-back."""
    previous = game.InvaderPhaseGame._dealt  # another bug's, when planted with it

    def dealt(self: Any, index: int, land: Land, allocation: Any, cause: str, ev: Any) -> tuple[Land, int]:
        if cause == "dahan":
            stats = self.rules.stats
            whole = tuple(p for p in allocation.parts if p[1] + p[2] >= land.health_of(p[0], stats))
            allocation = dataclasses.replace(allocation, parts=whole)
        return previous(self, index, land, allocation, cause, ev)

    game.InvaderPhaseGame._dealt = dealt  # type: ignore[method-assign]


def _damage_ignored() -> None:
    """Damage dealt to a piece is judged as if the piece had none: it is destroyed only by its
    whole Health at once, and otherwise keeps only the Damage just dealt."""
    previous = game.InvaderPhaseGame._dealt  # another bug's, when planted with it

    def dealt(self: Any, index: int, land: Land, allocation: Any, cause: str, ev: Any) -> tuple[Land, int]:
        stats = self.rules.stats
        pieces = list(land.pieces)
        parts = []
        for kind, before, added in allocation.parts:
            if before and added < land.health_of(kind, stats):
                # the engine's view: an undamaged piece taking ``added``, which it survives
                pieces.remove(piece(kind, before))
                pieces.append(piece(kind, 0))
                parts.append((kind, 0, added))
            else:
                parts.append((kind, before, added))
        fresh = land.with_pieces(pieces)
        return previous(self, index, fresh, dataclasses.replace(allocation, parts=tuple(parts)), cause, ev)

    game.InvaderPhaseGame._dealt = dealt  # type: ignore[method-assign]


def _no_ocean_explore() -> None:
    """Explorers reach a land only from a Town or City in it or next to it, never from the Ocean."""

    def reach(island: Island, lands: Any, index: int) -> bool:
        near = (index, *island.neighbours_of[index])
        return any(lands[j].count(TOWN) or lands[j].count(CITY) for j in near)

    game.explorers_reach = reach
    explore.explorers_reach = reach  # explore_targets judges each land through it


_ADVANCE = InvaderBoard.advance


def _ravage_card_stays() -> None:
    """With the Build space empty, the Ravage card stays as the cards advance."""

    def advance(self: InvaderBoard) -> InvaderBoard:
        board = _ADVANCE(self)
        if self.build or not self.ravage:
            return board
        return dataclasses.replace(board, ravage=self.ravage, discard=self.discard)

    InvaderBoard.advance = advance  # type: ignore[method-assign]


def _cascade_loop() -> None:
    """Each Blight cascade cascades again, for ever (the reply never comes)."""

    def cascade(self: Any, s: Any, task: Any, ev: Any, chosen: str | None = None) -> None:
        never = threading.Event()
        while True:  # the endless recursion, without spending the machine's time on it
            never.wait(1.0)

    game.InvaderPhaseGame._cascade = cascade  # type: ignore[method-assign]


def _cascade_recursion() -> None:
    """Each Blight cascade cascades again by calling itself, until Python's recursion limit."""

    def cascade(self: Any, s: Any, task: Any, ev: Any, chosen: str | None = None) -> None:
        cascade(self, s, task, ev, chosen)

    game.InvaderPhaseGame._cascade = cascade  # type: ignore[method-assign]


BUGS: dict[str, Callable[[], None]] = {
    "fight-back-partial": _fight_back_partial,
    "damage-ignored": _damage_ignored,
    "no-ocean-explore": _no_ocean_explore,
    "ravage-card-stays": _ravage_card_stays,
    "cascade-loop": _cascade_loop,
    "cascade-recursion": _cascade_recursion,
}


def bugs_from_argv(argv: list[str]) -> list[str]:
    """The names given with ``--bug NAME`` (each known; exit 2 with one line otherwise)."""
    names = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--bug"]
    if argv and argv[-1] == "--bug":
        names.append("")
    for name in names:
        if name not in BUGS:
            print(
                f"broken_spirit_island.py: --bug: unknown bug {name!r}; known: {', '.join(BUGS)}",
                file=sys.stderr,
            )
            sys.exit(2)
    return names


if __name__ == "__main__":
    chosen = bugs_from_argv(sys.argv)
    for bug in chosen:
        BUGS[bug]()
    faults = () if chosen else _today()
    name = "broken-spirit-island" + "".join(f"+{bug}" for bug in chosen)
    sys.exit(serve(name=name, faults=faults, levels=levels_from_argv()))
