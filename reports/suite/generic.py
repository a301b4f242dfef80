"""The cases every game on the contract gets from its bundled files, without a plug-in.

* ``runs`` - each bundled example scenario, as a whole run (the traces of ``fixtures/`` as cases);
* ``witnesses`` - each ruling's witness scenario (``examples/<pkg>/rulings/<ID>.json``), whose
  readings give different outcomes: a whole run with a variant per reading;
* ``example-steps`` - every step of the bundled examples as a single action (the answers before
  it set the state up; OpenSpiel-style playthroughs cut into vectors);
* ``random`` - seeded random playthroughs of the bundled examples (decisions and chance drawn
  from fixed seeds after each scenario's own scripts).

A plug-in says which of its rule sections whole runs, witnesses and steps cite
(``GameSuite.notes``: ``run-sections``, ``ruling:<ID>``); a game without one cites its seed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import ExampleRef, examples
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import parse_json_bytes
from invasion_oracle.model.core.play import run
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.suite.common import load
from invasion_oracle.reports.suite.plugins import suite_for
from invasion_oracle.reports.suite.specs import CaseSpec, Stop

RANDOM_SEEDS = (1, 2, 3)
MAX_STEP_CASES = 12  # per example: its first steps as single actions


def _scenarios(game: str, *, rulings: bool) -> Iterator[tuple[str, dict[str, Any], ExampleRef]]:
    spec = registry.spec(game)
    if not spec.examples:
        return
    folder = spec.examples.rpartition(":")[2]
    for ref in examples(spec.examples):
        relative = ref.relative.removeprefix(f"{folder}/").removesuffix(".json")
        if relative.startswith("rulings/") != rulings:
            continue
        document = parse_json_bytes(ref.read_bytes(), str(ref))
        if isinstance(document, dict) and document.get("game") == spec.name:
            yield relative, document, ref


def _sections(game: str, note: str) -> tuple[str, ...]:
    suite = suite_for(game)
    return tuple((suite.notes.get(note) or suite.notes["run-sections"]).split()) if suite else ("whole game",)


def _slug(relative: str) -> str:
    return relative.replace("/", "-").replace("_", "-").lower()


def runs(game: str) -> Iterable[CaseSpec]:
    for relative, document, ref in _scenarios(game, rulings=False):
        yield CaseSpec(
            "runs",
            _slug(relative),
            f"The bundled example {ref} as a whole run: {document.get('description', '')}".strip(),
            _sections(game, "run-sections"),
            ("whole-run",),
            "example",
            document,
            command=f"invasion {game} simulate {ref} --json",
        )


def witnesses(game: str) -> Iterable[CaseSpec]:
    known = {r.id for r in REGISTRY.all(game)}
    for relative, document, ref in _scenarios(game, rulings=True):
        rid = relative.removeprefix("rulings/").split("/")[0]  # rulings/ID.json or rulings/ID/NAME.json
        yield CaseSpec(
            "witnesses",
            _slug(relative.removeprefix("rulings/")),
            f"The witness of ruling {rid} ({ref}): its readings run differently. "
            f"{document.get('description', '')}".strip(),
            _sections(game, f"ruling:{rid}"),
            ("whole-run", "ruling-witness"),
            "ruling",
            document,
            rulings=(rid,) if rid in known else None,
            command=f"invasion {game} simulate {ref} --ruling {rid}=READING --json",
        )


def example_steps(game: str) -> Iterable[CaseSpec]:
    for relative, document, ref in _scenarios(game, rulings=False):
        for k in range(min(MAX_STEP_CASES, len(run(load(game, document, str(ref))).steps)) + 1):
            yield CaseSpec(
                "example-steps",
                f"{_slug(relative)}-step-{k:02d}",
                f"Step {k} of the bundled example {ref} alone"
                + (" (the opening)" if k == 0 else ": the answers before it set the state up"),
                _sections(game, "step-sections"),
                ("playthrough",),
                "example",
                document,
                stop=Stop.after(k),
                window="last",
                rulings=(),
                command=f"invasion {game} simulate {ref} --json",
            )


def random_runs(game: str) -> Iterable[CaseSpec]:
    spec = registry.spec(game)
    for relative, document, ref in _scenarios(game, rulings=False):
        keys = ("decisions", str(getattr(load(game, document, str(ref)), "chance_key", "chance")))
        for seed in RANDOM_SEEDS:
            randomly = {"then": "random", "seed": seed}
            doc = {
                **document,
                **{key: {"script": document.get(key, {}).get("script", []), **randomly} for key in keys},
            }
            try:
                run(load(game, doc, str(ref)))
            except MalformedInputError:
                continue  # random answers reached a rule the bundled data does not give: no case
            yield CaseSpec(
                "random",
                f"{_slug(relative)}-seed-{seed}",
                f"A seeded random playthrough of {ref} (seed {seed} for every choice and roll "
                f"after the scenario's own scripts)",
                _sections(game, "run-sections"),
                ("whole-run", "playthrough"),
                "random",
                doc,
                rulings=(),
                command=f"invasion {spec.name} simulate {ref} --json (with seeded random answers)",
            )


def generic_producers(game: str) -> tuple[Any, ...]:
    """The generic producers of ``game``, in a fixed order."""
    return tuple(functools.partial(f, game) for f in (runs, witnesses, example_steps, random_runs))
