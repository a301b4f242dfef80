"""The public game API of Vul'Keth and Cloudspire against their internal paths (issue 22).

Spirit Island's single-land actions and Stonespine's hero walks are measured in their own benches;
this module adds one Vul'Keth Invader turn and Cloudspire rounds, each driven through the public
``start`` / ``pending`` / ``step`` (``tests.bench.drive_public``, the way an outside caller plays)
against the core driver's ``play`` (what ``simulate`` runs: answers checked, every step kept), with
the same seeded answers, and (Vul'Keth) against the searches' compiled twin on concrete numbers,
a separately written implementation of the same turn without events.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import FirstLegalDecider, PreferringDecider, SeededChance
from invasion_oracle.model.core.driver import play
from tests.bench import Measure, drive_public, public_api_measures


def _seeded_answer(seed: int, prefer: tuple[Any, ...] = ()) -> Any:
    chance = SeededChance(seed)

    def answer(request: Any) -> Any:
        options = getattr(request, "options", None)
        if options is None:
            return chance.outcome(request)
        return next((o for o in prefer if o in options), options[0])

    return answer


def vulketh_invader_turn(turns: int) -> list[Measure]:
    """One Invader turn from ``clear_hex.json``'s position (seeded draws, Pillage declined)."""
    from invasion_oracle.model.vulketh.scenario import load_scenario, scenario_from_document
    from invasion_oracle.solver.vulketh.compiled import CONCRETE, Compiled, from_state

    loaded = load_scenario("example:vulketh/clear_hex.json")
    scenario = scenario_from_document({**loaded.document, "start": "invader"}, "bench: an Invader turn")
    game = scenario.game()
    cards = [c.id for c in scenario.data.action_cards]
    ends: dict[str, Any] = {}
    drawn: list[int] = []

    def public() -> None:
        for seed in range(turns):
            ends[f"p{seed}"] = drive_public(game, scenario.initial, _seeded_answer(seed, ("decline",)))

    def internal() -> None:
        drawn.clear()
        for seed in range(turns):
            state, opening = game.start(scenario.initial)
            decider = PreferringDecider(("decline",), FirstLegalDecider())
            run = play(game, state, decider, SeededChance(seed), opening=opening)
            ends[f"i{seed}"] = run.final
            drawn.append(cards.index(next(e.get("card") for e in run.events if e.kind == "card_drawn")))

    compiled = Compiled(scenario.rules, CONCRETE)
    start = from_state(scenario.initial, scenario.rules)

    def plain() -> None:
        for card in drawn:
            compiled.invader_turn(start, card)

    measures = public_api_measures(
        "Vul'Keth Invader turn",
        units=turns,
        public=public,
        internal=internal,
        plain=plain,
        workload=f"clear_hex.json's position, {turns} seeded draws, Pillage declined",
        plain_label="the searches' compiled twin on concrete numbers, no events",
    )
    if any(ends[f"p{s}"] != ends[f"i{s}"] for s in range(turns)):
        raise AssertionError("Vul'Keth: the public path and the driver end in different states")
    return measures


def cloudspire_rounds(games: int) -> list[Measure]:
    """Whole games from ``setup.json`` (seeded dice, first legal choice); the unit is a round."""
    from invasion_oracle.model.cloudspire.scenario import load_scenario

    scenario = load_scenario("example:cloudspire/setup.json")
    game = scenario.game()
    ends: dict[str, Any] = {}

    def public() -> None:
        for seed in range(games):
            ends[f"p{seed}"] = drive_public(game, scenario.initial, _seeded_answer(seed))

    def internal() -> None:
        for seed in range(games):
            state, opening = game.start(scenario.initial)
            ends[f"i{seed}"] = play(
                game, state, FirstLegalDecider(), SeededChance(seed), opening=opening
            ).final

    internal()
    rounds = sum(ends[f"i{s}"].round for s in range(games))
    measures = public_api_measures(
        "Cloudspire round",
        units=rounds,
        public=public,
        internal=internal,
        repeat=3,
        workload=f"setup.json to its end, {games} seeds ({rounds} rounds), first legal choice",
    )
    if any(ends[f"p{s}"] != ends[f"i{s}"] for s in range(games)):
        raise AssertionError("Cloudspire: the public path and the driver end in different states")
    return measures


def results(quick: bool = False) -> list[Measure]:
    return [*vulketh_invader_turn(50 if quick else 400), *cloudspire_rounds(2 if quick else 10)]
