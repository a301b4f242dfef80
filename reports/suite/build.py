"""Case specs to cases: run each spec under every reading that matters, list every outcome.

For a spec the oracle first runs it with every ruling at its default reading, then with the
other readings of every ruling of the game (in groups, split where a group changes something,
so two flips that cancel out within a group go unseen; the spec's ``rulings`` are not consulted:
a case depends on what the oracle shows). A ruling
whose readings change anything the case compares (the answers given, the events, the requests,
what is pending, the state) is one the case *depends on*; the case gets one variant per
combination of those rulings' readings. For a ``choice`` window every option of the last request
is played too, and the distinct outcomes are the variant's ``one_of``.

A whole run that depends on more than ``MAX_PRODUCT`` rulings (six to eleven: 64 to 2,048 variants
of tens of kilobytes each) stores each reading alone, from the document's own, and a
:class:`~invasion_oracle.reports.suite.cases.Derivation` (its answer sources, where it stops and
which steps are compared): :func:`derived_variant` realises it under any other combination on
demand, exactly as the generator would, so ``invasion conform`` grades every combination of
readings the register lists, and ``invasion fixtures check`` checks that a derivation reproduces
the stored variant of the document's own readings.

Work is split by producer (a plug-in function yielding specs) over worker processes; results
are assembled in producer order, so the output does not depend on the number of workers.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.decisions import DecisionRequest
from invasion_oracle.model.core.overrides import all_in_force, run_under
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.model.core.spec import GameSpec
from invasion_oracle.reports.suite.cases import Case, Derivation, Expected, RuleRef, Variant
from invasion_oracle.reports.suite.oracle import (
    DECISIONS_KEY,
    Loads,
    Realised,
    play,
    realise,
    without_answers,
)
from invasion_oracle.reports.suite.plugins import GameSuite, Producer, suite_for
from invasion_oracle.reports.suite.specs import CaseSpec

MAX_PRODUCT = 5  # rulings varied together (every combination); beyond this each reading alone


class CaseError(ValueError):
    """A case spec the oracle cannot turn into a case (a generator bug, named by case id)."""


def _observed(realised: Realised) -> str:
    """What a case compares of a run: two runs that differ here make a ruling one it depends on."""
    answers = [a.to_json() for a in realised.answers]
    return canonical_json({"answers": answers, "from": realised.start, "reply": realised.reply.to_json()})


def variant_of(
    spec: GameSpec,
    case: CaseSpec,
    readings: dict[str, str],
    realised: Realised,
    fixed: dict[str, str],
    loads: Loads | None = None,
) -> Variant:
    reply = realised.reply
    pairs = tuple(sorted({**fixed, **readings}.items()))
    if reply.status == "refused":
        return Variant(pairs, realised.answers, 0, "refused", (), None, reply.reason)
    if reply.status != "ok":
        return Variant(pairs, realised.answers, realised.start, "illegal", (), reply.step, reply.reason)
    if case.window != "choice":
        return Variant(pairs, realised.answers, realised.start, "ok", (reply.expected(),))
    request = realised.last_request
    if not isinstance(request, DecisionRequest):
        if not realised.answers or readings == {}:
            raise CaseError(f"{spec.name}/{case.group}/{case.name}: a choice window needs a decision last")
        # Under this reading the choice is not the players' (no decision is asked): one outcome.
        return Variant(pairs, realised.answers, realised.start, "ok", (reply.expected(with_requests=False),))
    last = realised.answers[-1]
    outcomes: dict[str, Expected] = {}
    # Every option is replayed under the variant's full readings: the document's own readings
    # (stripped from the scenario the case stores) are among them, in ``pairs``.
    everything = dict(pairs)
    for option in (last.answer, *request.options):  # the scripted answer's outcome first
        answers = (*realised.answers[:-1], type(last)(last.request, last.kind, option))
        played = play(spec, case.scenario, everything, answers, realised.start, case.projection, loads=loads)
        expected = played.expected(with_requests=False, via=answers[-1].to_json()["answer"])
        key = canonical_json({**expected.to_json(), "via": None})
        outcomes.setdefault(key, expected)
    return Variant(pairs, realised.answers, realised.start, "ok", tuple(outcomes.values()))


def _base_readings(spec: GameSpec, case: CaseSpec) -> dict[str, str]:
    """The readings the document itself chooses (its ``rulings`` field), as full names."""
    own = Rulings.defaults(spec.name).with_object(case.scenario.get("rulings") or {}, _case_id(spec, case))
    return own.non_default()


def _case_id(spec: GameSpec, case: CaseSpec) -> str:
    return f"{spec.name}/{case.group}/{case.name}"


def boards_of(game: str, scenario: dict[str, Any]) -> tuple[str, ...]:
    """The boards a scenario uses, as the case's ``boards`` tag: Spirit Island's board letters,
    Stonespine's guardian boards; empty in a game with one map."""
    if game == "spirit-island":
        island = scenario.get("island")
        letters = island.get("boards", []) if isinstance(island, dict) else []
        if not letters:
            letters = sorted({str(name)[0] for name in scenario.get("lands", {})})
        return tuple(sorted({str(x) for x in letters}))
    if game == "stonespine":
        players = scenario.get("players", [])
        return tuple(sorted({str(p["guardian"]) for p in players if isinstance(p, dict) and "guardian" in p}))
    return ()


def _combos(depends: Sequence[Any], reading_of: dict[str, str]) -> list[dict[str, str]]:
    """The readings of ``depends`` a case has a variant for, the document's own first: every
    combination, or (past MAX_PRODUCT rulings) each other reading alone."""
    own = {r.id: reading_of[r.id] for r in depends}
    if len(depends) <= MAX_PRODUCT:
        combos = [
            dict(zip([r.id for r in depends], names, strict=True))
            for names in itertools.product(*[r.reading_names for r in depends])
        ]
        combos.sort(key=lambda c: c != own)  # the document's own readings first
        return combos
    return [own] + [{**own, r.id: name} for r in depends for name in r.reading_names if name != own[r.id]]


def build_case(spec: GameSpec, suite: GameSuite | None, case: CaseSpec) -> Case:
    """The case ``case`` describes, with a variant for every reading that changes it."""
    case_id = _case_id(spec, case)
    base_readings = _base_readings(spec, case)
    original = case.scenario
    # The readings come from the variants, never from the document itself.
    case = replace(case, scenario={k: v for k, v in case.scenario.items() if k not in ("rulings", "$schema")})
    rulings = REGISTRY.all(spec.name)
    reading_of = {r.id: base_readings.get(r.id, r.default) for r in rulings}
    # Every ruling is tried, whatever the spec names: a case depends on what the oracle shows it
    # depends on, and holds under every reading of every other ruling (checked, not assumed).
    cache: dict[tuple[tuple[str, str], ...], Realised] = {}
    loads = Loads()  # this case's scenario, loaded once where the readings cannot change it

    def run(flips: dict[str, str]) -> Realised:
        readings = {**base_readings, **flips}
        key = tuple(sorted(readings.items()))
        if key not in cache:
            cache[key] = realise(spec, case, readings, loads)
        return cache[key]

    base = run({})
    if base.reply.status == "refused":
        raise CaseError(f"{case_id}: the scenario is refused under its own readings: {base.reply.reason}")
    every = {r.id: r for r in rulings}

    def search(at: dict[str, str], pool: Sequence[str]) -> set[str]:
        """The rulings of ``pool`` whose other readings change the case at readings ``at``.

        Group testing: flip a group of rulings at once; a group that changes nothing holds no
        dependency, one that does is split in halves until single rulings remain."""
        reference = _observed(run(at))
        hits: set[str] = set()
        others = {
            rid: [n for n in every[rid].reading_names if n != at.get(rid, reading_of[rid])] for rid in pool
        }
        for k in range(max((len(o) for o in others.values()), default=0)):
            flip = {rid: names[k] for rid, names in others.items() if len(names) > k}
            stack = [sorted(flip)]
            while stack:
                group = stack.pop()
                if not group or _observed(run({**at, **{rid: flip[rid] for rid in group}})) == reference:
                    continue
                if len(group) == 1:
                    hits.add(group[0])
                else:
                    middle = len(group) // 2
                    stack += [group[middle:], group[:middle]]
        return hits

    candidate_ids = [r.id for r in rulings]
    found = search({}, candidate_ids)
    # Every combination of the readings found is a variant; at each one the other rulings are
    # tried again (a ruling may only matter under another's reading), until nothing new turns up.
    # Past MAX_PRODUCT rulings (whole runs of the bundled examples) each reading is varied alone.
    checked: set[tuple[tuple[str, str], ...]] = {()}
    while True:
        combos = _combos([r for r in rulings if r.id in found], reading_of)
        if len(found) > MAX_PRODUCT:
            break
        new: set[str] = set()
        for combo in combos:
            key = tuple(sorted((rid, name) for rid, name in combo.items() if name != reading_of[rid]))
            if key in checked:
                continue
            checked.add(key)
            new |= search(combo, [rid for rid in candidate_ids if rid not in found])
        if not new:
            break
        found |= new
    depends = [r for r in rulings if r.id in found]
    # Rulings not tried are held at the document's readings: the expectation is only known there.
    # The document's own (non-default) readings stay named in every variant: a replay must use them.
    fixed = {rid: name for rid, name in base_readings.items() if rid not in found}
    variants = tuple(variant_of(spec, case, combo, run(combo), fixed, loads) for combo in combos)
    refs = tuple(
        RuleRef(spec.seed, suite.section(key).heading if suite is not None else key) for key in case.sections
    )
    return Case(
        id=case_id,
        game=spec.name,
        kind=case.kind,
        description=case.description,
        rule_refs=refs,
        features=tuple(sorted(set(case.features))),
        source=case.source,
        rulings=tuple(r.id for r in depends),
        scenario=without_answers(case.scenario, base.chance_key),
        projection=case.projection,
        variants=variants,
        choice=case.window == "choice",
        command=case.command,
        comment=case.comment,
        section=case.sections[0],  # a spec cites at least one
        citation={"rulebook": suite.rulebook if suite else spec.title, "section": refs[0].section},
        boards=boards_of(spec.name, case.scenario),
        derive=_derivation(case, original, base.chance_key) if len(found) > MAX_PRODUCT else None,
    )


def _derivation(case: CaseSpec, original: dict[str, Any], chance_key: str) -> Derivation:
    """What a case past MAX_PRODUCT rulings keeps so that any other combination can be realised."""
    sources = {k: original[k] for k in (DECISIONS_KEY, chance_key) if k in original}
    return Derivation(sources, case.stop, case.window)


def case_spec(case: Case) -> CaseSpec:
    """The spec the generator built ``case`` from (its answer sources put back)."""
    if case.derive is None:
        raise ValueError(f"{case.id}: the case stores every combination; nothing to derive")
    derive = case.derive
    _game, group, name = case.id.split("/")
    return CaseSpec(
        group,
        name,
        case.description,
        (case.section or "case",),
        case.features,
        case.source,
        {**case.scenario, **derive.answer_sources},
        case.projection,
        derive.stop,
        derive.window,
    )


def derived_variant(case: Case, readings: Mapping[str, str]) -> Variant:
    """``case`` under ``readings`` (full ruling ids; rulings not named at their defaults).

    The document's own readings of the rulings the case does not depend on stay (a replay must
    use them); every other reading asked is used, so a ruling that matters only under this
    combination is honoured too. The variant names the readings of ``case.rulings``, the
    document's own and any other non-default reading asked.
    """
    spec = registry.spec(case.game)
    made = case_spec(case)
    own = case.variants[0].readings_map
    fixed = {rid: name for rid, name in own.items() if rid not in case.rulings}
    defaults = {r.id: r.default for r in REGISTRY.all(case.game)}
    asked = {rid: readings.get(rid, default) for rid, default in defaults.items()}
    asked.update(fixed)
    depends = {rid: asked[rid] for rid in case.rulings}
    others = {rid: name for rid, name in asked.items() if rid not in depends and name != defaults[rid]}
    return variant_of(spec, made, depends, realise(spec, made, asked), others)


DerivedCache = dict[tuple[str, tuple[tuple[str, str], ...]], Variant]
"""Variants already derived, by case id and readings (a run of several implementations asks once)."""


def with_derived(case: Case, readings: Mapping[str, str], cache: DerivedCache | None = None) -> Case:
    """``case`` with the variant of ``readings`` derived and appended (the last variant)."""
    key = (case.id, tuple(sorted(readings.items())))
    cache = {} if cache is None else cache
    if key not in cache:
        cache[key] = derived_variant(case, readings)
    return replace(case, variants=(*case.variants, cache[key]))


def producers(game: str) -> tuple[Producer, ...]:
    """Every producer of a game: the generic ones, then its plug-in's."""
    from invasion_oracle.reports.suite.generic import generic_producers

    suite = suite_for(game)
    own: tuple[Producer, ...] = suite.producers if suite is not None else ()
    return (*generic_producers(game), *own)


def _run_work(work: tuple[str, int]) -> list[dict[str, Any]]:
    """One unit of generation: the cases of a game's producer, by its position in the game's list."""
    game, index = work
    spec, suite = registry.spec(game), suite_for(game)
    out = []
    for case in producers(game)[index]():
        try:
            out.append(build_case(spec, suite, case).to_json())
        except CaseError:
            raise
        except Exception as err:  # name the case: a generator bug must be findable
            raise CaseError(f"{_case_id(spec, case)}: {type(err).__name__}: {err}") from err
    return out


def build_all(games: Sequence[str], jobs: int | None = None) -> dict[str, list[Case]]:
    """Every case of ``games``, by game, in producer order (independent of ``jobs``)."""
    work = [(g, i) for g in games for i in range(len(producers(g)))]
    # never more workers than pieces of work (a fork pool starts every worker at once)
    jobs = min(jobs or os.cpu_count() or 1, len(work))
    if jobs <= 1 or len(work) <= 1:
        results = [_run_work(w) for w in work]
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method)) as pool:
            # the data in force (--data) goes with the work, whatever the start method
            results = list(pool.map(functools.partial(run_under, all_in_force(), _run_work), work))
    out: dict[str, list[Case]] = {g: [] for g in games}
    ids: set[str] = set()
    for (game, _), cases in zip(work, results, strict=True):
        for raw in cases:
            case = Case.from_json(raw, game)
            if case.id in ids:
                raise CaseError(f"{case.id}: two cases have this id")
            ids.add(case.id)
            out[game].append(case)
    return out
