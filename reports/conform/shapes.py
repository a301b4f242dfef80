"""What ``invasion conform --fuzz`` generates: per game, the shapes of its cases as Hypothesis strategies.

A :class:`Shape` draws a :class:`Draft`: a scenario document whose own answer objects (seeded
``decisions`` and chance, ``docs/scenarios.md``) say how every request is answered, where the run
stops, which steps are compared and the projection. The oracle realises a draft into a case
(:mod:`invasion_oracle.reports.conform.fuzz`); a draft is plain data, so it shrinks and saves
like any document.

Single actions are built like the suite's own (a Ravage, Build or Explore card in one land of
any Spirit Island board, on any card; a Ravage whose Dahan stand and fight back against Invaders
often damaged already; an Explore and the cards advancing after it, the Build space often
empty: where engines were seen to go wrong, issue 35); short runs come from each game's strategies in
``properties/`` (``scenario_documents``, Vul'Keth's ``positions``, Cloudspire's engagements)
stopped after a few answers, so every board, map, card and piece kind the data has is reached.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from invasion_oracle.properties import built
from invasion_oracle.reports.suite.specs import Stop

SECTIONS = {  # each shape's rule section: a row of the game's rule map (reports/suite/<game>.py)
    "spirit-island": {
        "ravage": "ravage",
        "fight-back": "ravage",
        "build": "build",
        "explore": "explore",
        "advance": "advance",
        "run": "phase",
    },
    "vulketh": {"position": "grow-move", "run": "player-turn"},
    "cloudspire": {"engagement": "apply", "round": "round"},
    "stonespine": {"run": "preparation"},
}


@dataclass(frozen=True)
class Draft:
    """One generated case before the oracle realises it (plain data: it shrinks and saves)."""

    game: str
    shape: str
    section: str
    scenario: dict[str, Any]
    projection: str
    stop: Stop
    window: str


@dataclass(frozen=True)
class Shape:
    """A kind of case of one game: its name and how a draft is drawn, given the projections and
    the boards the implementation declares (``None``: every one)."""

    game: str
    name: str
    draw: Callable[[frozenset[str] | None, frozenset[str] | None], st.SearchStrategy[Draft]]
    projections: tuple[str, ...] = ()  # what its drafts may project (one must be declared)

    def fits(self, allowed: frozenset[str] | None) -> bool:
        return allowed is None or not self.projections or bool(allowed & set(self.projections))


def _projection(
    draw: st.DrawFn, allowed: frozenset[str] | None, names: tuple[str, ...], argument: str = ""
) -> str:
    """A projection among ``names`` the implementation declares (``names`` in order of preference
    for the shape; an argument is appended to those that take one)."""
    usable = tuple(n for n in names if allowed is None or n in allowed) or names[:1]
    name = draw(built.sampled(usable))
    return f"{name}:{argument}" if name in ARGUMENTS and argument else name


ARGUMENTS = {"land", "action", "goal", "hex"}


# -- Spirit Island ---------------------------------------------------------------------------------


def _si_action(
    action: str,
) -> Callable[[frozenset[str] | None, frozenset[str] | None], st.SearchStrategy[Draft]]:
    def strategy(allowed: frozenset[str] | None, boards: frozenset[str] | None) -> st.SearchStrategy[Draft]:
        @st.composite
        def drafts(draw: st.DrawFn) -> Draft:
            from invasion_oracle.model.spirit_island.data import default_data
            from invasion_oracle.properties.spirit_island import draw_notation
            from invasion_oracle.reports.suite.spirit_island import doc

            data = default_data()
            names = tuple(b.name for b in data.boards)
            # only boards the implementation declares (capabilities.boards), when it names any we have
            board = draw(built.sampled(tuple(n for n in names if boards is None or n in boards) or names))
            spec = data.board(board)
            number = draw(built.integers(1, len(spec.lands)))
            land = f"{board}{number}"
            terrain = spec.lands[number - 1].terrain
            cards = [c for c in data.invader_cards if c.stage in (1, 2, 3)]
            matching = tuple(
                c.id for c in cards if terrain in c.terrains or (c.coastal and number in spec.ocean)
            ) or tuple(c.id for c in cards)
            # mostly a card of the land's terrain (the action happens), sometimes any card
            card = draw(built.sampled(matching if draw(built.integers(0, 4)) else tuple(c.id for c in cards)))
            stage = next(c.stage for c in cards if c.id == card)
            pieces = draw_notation(draw)
            lands: dict[str, Any] = {land: pieces}
            if action == "ravage" and draw(built.BOOLEANS):
                lands[land] = {"pieces": pieces, "defend": draw(built.integers(0, 3))}
            if action == "fight-back":
                lands[land] = _fight_back_land(draw, pieces)
            for other in draw(built.integer_lists(1, len(spec.lands), max_size=2, unique=True)):
                if other != number:
                    lands[f"{board}{other}"] = draw_notation(draw)
            seed = draw(built.integers(0, 1000))
            deck = [f"stage-{stage}"]
            if action == "explore":
                document = doc(lands, keep=False, invader_deck=deck, chance=[card])
                stop, window = Stop.after(1), "last"
            elif action == "advance":
                slots = _advance_slots(draw, tuple(c.id for c in cards if c.id != card))
                document = doc(lands, keep=False, invader_board=slots, invader_deck=deck, chance=[card])
                stop, window = Stop.after(1), "last"
            else:
                slot = "ravage" if action == "fight-back" else action
                document = doc(lands, keep=False, invader_board={slot: [card]}, invader_deck=deck)
                stop, window = Stop.before("draw"), "all"
            document["island"] = {"boards": [board]}
            document["decisions"] = {"then": "random", "seed": seed}
            projection = _projection(draw, allowed, SI_ADVANCE if action == "advance" else SI_ACTION, land)
            return Draft(
                "spirit-island", action, SECTIONS["spirit-island"][action], document, projection, stop, window
            )

        return drafts()

    return strategy


def _fight_back_land(draw: st.DrawFn, pieces: str) -> dict[str, Any]:
    """A land whose Dahan survive the Ravage and fight back: Invaders (often damaged already),
    one to three Dahan, and Defend that takes all the Invaders' Damage or all but 1."""
    tokens = [t for t in pieces.split() if not t.startswith("D")]
    if not any(t[0] in "ETC" for t in tokens):
        tokens.append(draw(built.sampled(("T@1", "C@1", "C@2", "E"))))
    tokens += ["D"] * draw(built.integers(1, 3))
    damage = sum({"E": 1, "T": 2, "C": 3}.get(t[0], 0) for t in tokens)
    return {"pieces": " ".join(tokens), "defend": max(0, damage - draw(built.integers(0, 1)))}


def _advance_slots(draw: st.DrawFn, others: tuple[str, ...]) -> dict[str, list[str]]:
    """A Ravage card, and a Build card one time in three: the cards advance after the Explore."""
    ravage = draw(built.sampled(others))
    slots = {"ravage": [ravage]}
    if draw(built.integers(0, 2)) == 0:
        slots["build"] = [draw(built.sampled(tuple(c for c in others if c != ravage)))]
    return slots


def _si_run(allowed: frozenset[str] | None, boards: frozenset[str] | None) -> st.SearchStrategy[Draft]:
    @st.composite
    def drafts(draw: st.DrawFn) -> Draft:
        from invasion_oracle.properties.spirit_island import scenario_documents

        document = dict(draw(scenario_documents(drawn_rulings=False)))  # the readings asked go with the case
        document.pop("rulings", None)  # the readings asked are sent with the case
        steps = draw(built.integers(0, 3))
        projection = _projection(draw, allowed, SI_RUN)
        return Draft(
            "spirit-island",
            "run",
            SECTIONS["spirit-island"]["run"],
            document,
            projection,
            Stop.after(steps),
            "all",
        )

    return drafts()


# -- Vul'Keth -------------------------------------------------------------------------------------------


def _vk(shape: str) -> Callable[[frozenset[str] | None, frozenset[str] | None], st.SearchStrategy[Draft]]:
    def strategy(allowed: frozenset[str] | None, boards: frozenset[str] | None) -> st.SearchStrategy[Draft]:
        @st.composite
        def drafts(draw: st.DrawFn) -> Draft:
            from invasion_oracle.properties.vulketh import games, positions

            if shape == "position":
                document = dict(draw(positions(rivals=draw(built.BOOLEANS), drawn_rulings=False)))
                document["decisions"] = {"then": "random", "seed": draw(built.integers(0, 1000))}
                document["chance"] = {"then": "random", "seed": draw(built.integers(0, 1000))}
                steps = draw(built.integers(0, 2))
            else:
                document = dict(draw(games(drawn_rulings=False)))
                steps = draw(built.integers(1, 4))
            document.pop("rulings", None)
            hexes = tuple(sorted(document.get("hexes", {}))) or ("1",)
            projection = _projection(draw, allowed, VK, draw(built.sampled(hexes)))
            return Draft(
                "vulketh", shape, SECTIONS["vulketh"][shape], document, projection, Stop.after(steps), "all"
            )

        return drafts()

    return strategy


# -- Cloudspire -------------------------------------------------------------------------------------------


def _cs(shape: str) -> Callable[[frozenset[str] | None, frozenset[str] | None], st.SearchStrategy[Draft]]:
    def strategy(allowed: frozenset[str] | None, boards: frozenset[str] | None) -> st.SearchStrategy[Draft]:
        @st.composite
        def drafts(draw: st.DrawFn) -> Draft:
            from invasion_oracle.properties.cloudspire import engagement_documents, scenario_documents

            if shape == "engagement":
                document = dict(draw(engagement_documents(drawn_rulings=False)))
            else:
                document = dict(draw(scenario_documents(max_rounds=1, drawn_rulings=False)))
            document["decisions"] = {"then": "random", "seed": draw(built.integers(0, 1000))}
            document["chance"] = {"then": "random", "seed": draw(built.integers(0, 1000))}
            document.pop("rulings", None)
            steps = draw(built.integers(0, 4))
            projection = _projection(draw, allowed, CS)
            return Draft(
                "cloudspire",
                shape,
                SECTIONS["cloudspire"][shape],
                document,
                projection,
                Stop.after(steps),
                "all",
            )

        return drafts()

    return strategy


# -- Stonespine -----------------------------------------------------------------------------------------


def _ss(allowed: frozenset[str] | None, boards: frozenset[str] | None) -> st.SearchStrategy[Draft]:
    @st.composite
    def drafts(draw: st.DrawFn) -> Draft:
        from invasion_oracle.properties.stonespine import ability_sets, scenarios

        # no rulings (the readings asked go with the case) and no abilities (drawn below)
        document = dict(draw(scenarios(max_players=2, drawn_rulings=False, drawn_abilities=False)))
        document.pop("rulings", None)
        steps = draw(built.integers(0, 4))
        projection = _projection(draw, allowed, SS)
        # the abilities the seed leaves out, from a few data objects that give every effect in
        # every slot: a data object is then checked once per run, not once per case
        sets = ability_sets()
        document["data"] = copy.deepcopy(sets[draw(built.integers(0, len(sets) - 1))])
        return Draft(
            "stonespine", "run", SECTIONS["stonespine"]["run"], document, projection, Stop.after(steps), "all"
        )

    return drafts()


SI_ACTION = ("action", "land", "lands", "fear", "blight", "invader-board", "result")
SI_RUN = ("lands", "fear", "blight", "invader-board", "result")
SI_ADVANCE = ("invader-board", "lands", "fear", "blight", "result")
VK = ("hexes", "hex", "tracks", "board", "decks", "result")
CS = ("lanes", "hero", "dice", "spires", "piles", "result")
SS = ("heroes", "dungeon", "guardian", "scores", "market")

SHAPES: dict[str, tuple[Shape, ...]] = {
    "spirit-island": (
        Shape("spirit-island", "ravage", _si_action("ravage"), SI_ACTION),
        Shape("spirit-island", "fight-back", _si_action("fight-back"), SI_ACTION),
        Shape("spirit-island", "build", _si_action("build"), SI_ACTION),
        Shape("spirit-island", "explore", _si_action("explore"), SI_ACTION),
        Shape("spirit-island", "advance", _si_action("advance"), SI_ADVANCE),
        Shape("spirit-island", "run", _si_run, SI_RUN),
    ),
    "vulketh": (
        Shape("vulketh", "position", _vk("position"), VK),
        Shape("vulketh", "run", _vk("run"), VK),
    ),
    "cloudspire": (
        Shape("cloudspire", "engagement", _cs("engagement"), CS),
        Shape("cloudspire", "round", _cs("round"), CS),
    ),
    "stonespine": (Shape("stonespine", "run", _ss, SS),),
}
