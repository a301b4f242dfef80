"""The public game API of Vul'Keth and Cloudspire against their internal paths (issue 22).

Spirit Island's single-land actions and Stonespine's hero walks are measured in their own benches;
this module adds one Vul'Keth Invader turn and Cloudspire rounds, each driven through the public
``start`` / ``pending`` / ``step`` (``tests.bench.drive_public``, the way an outside caller plays)
against the core driver's ``play`` (what ``simulate`` runs: answers checked, every step kept), with
the same seeded answers, and (Vul'Keth) against the searches' compiled twin on concrete numbers,
a separately written implementation of the same turn without events.
"""

from __future__ import annotations

from tests.bench import DriverPair, Measure, public_api_measures


def vulketh_invader_turn(turns: int) -> list[Measure]:
    """One Invader turn from ``clear_hex.json``'s position (seeded draws, Pillage declined)."""
    from invasion_oracle.model.vulketh.scenario import load_scenario, scenario_from_document
    from invasion_oracle.solver.vulketh.compiled import CONCRETE, Compiled, from_state

    loaded = load_scenario("example:vulketh/clear_hex.json")
    scenario = scenario_from_document({**loaded.document, "start": "invader"}, "bench: an Invader turn")
    pair = DriverPair(scenario.game(), scenario.initial, range(turns), prefer=("decline",))
    cards = [c.id for c in scenario.data.action_cards]
    drawn = [
        cards.index(next(e.get("card") for e in run.events if e.kind == "card_drawn"))
        for run in pair.internal()
    ]
    compiled = Compiled(scenario.rules, CONCRETE)
    start = from_state(scenario.initial, scenario.rules)

    def plain() -> None:
        for card in drawn:
            compiled.invader_turn(start, card)

    measures = public_api_measures(
        "Vul'Keth Invader turn",
        units=turns,
        public=pair.public,
        internal=pair.internal,
        plain=plain,
        workload=f"clear_hex.json's position, {turns} seeded draws, Pillage declined",
        plain_label="the searches' compiled twin on concrete numbers, no events",
    )
    pair.check("Vul'Keth")
    return measures


def cloudspire_rounds(games: int) -> list[Measure]:
    """Whole games from ``setup.json`` (seeded dice, first legal choice); the unit is a round."""
    from invasion_oracle.model.cloudspire.scenario import load_scenario

    scenario = load_scenario("example:cloudspire/setup.json")
    pair = DriverPair(scenario.game(), scenario.initial, range(games))
    rounds = sum(run.final.round for run in pair.internal())
    measures = public_api_measures(
        "Cloudspire round",
        units=rounds,
        public=pair.public,
        internal=pair.internal,
        repeat=3,
        workload=f"setup.json to its end, {games} seeds ({rounds} rounds), first legal choice",
    )
    pair.check("Cloudspire")
    return measures


def results(quick: bool = False) -> list[Measure]:
    return [*vulketh_invader_turn(50 if quick else 400), *cloudspire_rounds(2 if quick else 10)]
