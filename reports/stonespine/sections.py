"""Stonespine sections of the main job (``make run``) and of the full report (``make report``).

Every section reads bundled examples (``example:stonespine/...``), so it runs from any install,
and prints the command that reproduces it.
"""

from __future__ import annotations

from invasion_oracle.model.stonespine.scenario import load_scenario
from invasion_oracle.model.stonespine.simulate import run
from invasion_oracle.model.stonespine.spec import SPEC
from invasion_oracle.reports.simulation import simulation_report
from invasion_oracle.reports.tables import section, table

DEFAULT_SCENARIO = "example:stonespine/default.json"
PLACEMENT_SCENARIO = "example:stonespine/placement.json"


def example_invasion() -> str:
    scenario = load_scenario(DEFAULT_SCENARIO)
    playthrough = run(scenario)
    body = simulation_report(SPEC, scenario, playthrough, f"invasion stonespine simulate {DEFAULT_SCENARIO}")
    return section("Stonespine: the bundled example invasion", body)


def optimal_placement() -> str:
    from invasion_oracle.reports.stonespine.cli import place_report

    scenario = load_scenario(PLACEMENT_SCENARIO)
    picture = "stonespine-best-placement.svg"
    command = f"invasion stonespine place {PLACEMENT_SCENARIO} --svg {picture}"
    _, body, _ = place_report(scenario, 0, svg_picture=(picture, command))
    return section(
        "Stonespine: optimal guardian and minion placement (first wave, guaranteed)",
        body,
        command=f"invasion stonespine place {PLACEMENT_SCENARIO}",
    )


def phase_policy() -> str:
    from invasion_oracle.reports.stonespine.cli import policy_report
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.stonespine.policy import Measure

    scenario = load_scenario(PLACEMENT_SCENARIO)
    _, body, _ = policy_report(scenario, 0, Measure.DEFEATED, None, True, Deadline(120))
    note = "The example's own placement is the first optimal one found above.\n\n"
    return section(
        "Stonespine: the optimal continue/close policy (expected heroes defeated)",
        note + body,
        command=f"invasion stonespine policy {PLACEMENT_SCENARIO} --measure defeated",
    )


def escape_analysis() -> str:
    """For each hero colour: can the bundled placement defeat it, or is its escape forced?"""
    from invasion_oracle.model.stonespine.heroes import COLORS
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.stonespine.board import board_for
    from invasion_oracle.solver.stonespine.replay import verify_wave
    from invasion_oracle.solver.stonespine.routes import Fate, enumerate_outcomes

    scenario = load_scenario(DEFAULT_SCENARIO)
    board, layout, defeated = board_for(scenario, 0)
    rows = []
    for color in COLORS:
        found = enumerate_outcomes(board, layout, color, defeated, Deadline(60))
        for o in found.values():  # every route's end is replayed through the oracle
            chamber = board.name(o.node) if o.node is not None else None
            verify_wave(
                scenario, 0, [(color, [board.name(n) for n in o.route])], [(o.fate.value, chamber, o.reason)]
            )
        defeats = [o for o in found.values() if o.fate is Fate.DEFEATED]
        escapes = [o for o in found.values() if o.fate is Fate.ESCAPED]
        example = (defeats or escapes)[0] if (defeats or escapes) else None
        route = " > ".join(board.name(n) for n in example.route) if example else "-"
        profile = board.hero(color)
        rows.append(
            (
                f"{color.value} ({profile.card}, health {profile.health})",
                len(defeats),
                len(escapes),
                "no" if defeats else "yes",
                route,
                f"`invasion stonespine routes {DEFAULT_SCENARIO} --hero {color.value}`",
            )
        )
    body = (
        f"{scenario.initial.players[0].name}'s dungeon in `{DEFAULT_SCENARIO}`: every outcome one hero entering alone can be steered to, over every route (all replayed through the "
        "oracle): whether the placement can defeat it or its escape is forced.\n\n"
        + table(
            rows, ["hero", "defeats possible", "escapes possible", "escape forced", "e.g. route", "reproduce"]
        )
    )
    return section("Stonespine: escape analysis of the bundled dungeon", body)


SECTIONS = (example_invasion, optimal_placement, phase_policy, escape_analysis)


def expected_placement() -> str:
    from invasion_oracle.reports.stonespine.cli import place_report
    from invasion_oracle.solver.stonespine.policy import Measure

    scenario = load_scenario(PLACEMENT_SCENARIO)
    picture = "stonespine-best-placement-expected.svg"
    command = f"invasion stonespine place {PLACEMENT_SCENARIO} --objective expected --measure defeated --svg {picture}"
    _, body, _ = place_report(
        scenario, 0, "expected", "search", Measure.DEFEATED, svg_picture=(picture, command)
    )
    return section(
        "Stonespine: placement for the whole Invasion phase (expected heroes defeated, optimal policy)",
        body,
        command=f"invasion stonespine place {PLACEMENT_SCENARIO} --objective expected --measure defeated",
    )


LONG_SECTIONS = (expected_placement,)
