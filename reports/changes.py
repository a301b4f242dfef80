"""``invasion changes --data NEW [--against OLD]``: what a change of a game's data does in play.

Both sides (the bundled data when ``--against`` is not given) run the same work: every
conformance case of the games a side has data for (the oracle's expectation of each case, as
``fixtures generate --data`` computes it, producer by producer), the ruling witnesses (the suite's
``witnesses`` cases: which rulings' readings part on them) and a named list of the README's
searches per game (:data:`SEARCHES`, each with a fast answer). The two results are compared:

* a case whose expectation changed: its id, rule section, and each changed leaf as a JSON path
  with the old and new value; a case whose default outcome became illegal or legal; a case only
  one side produces (added, removed);
* a search whose answer changed: the old and new answer;
* a ruling whose readings start or stop parting on the witnesses;
* a rule that becomes dead or alive: exercised by no case under one side and by some under the
  other (:mod:`invasion_oracle.reports.changes_rules`).

``--format html`` draws each changed case under both data side by side
(:mod:`invasion_oracle.reports.changes_html`).

The result (:func:`compare`) is canonical JSON, one entry per case id, sorted, so a recorded file
(``--record``) diffs small. ``--baseline FILE --check`` exits 1 when a change is not what the
baseline holds; ``--accept`` rewrites the baseline. A baseline is read back as data only.

Each producer's cases, and each search, is a job of the result cache
(:mod:`invasion_oracle.reports.cache`), stored with the data values it read while it ran
(:mod:`invasion_oracle.model.core.reads`) and reused under any data where those values are the
same; a producer's job that runs again keeps each of its cases whose own reads hold. So after a
one-value change only the cases and searches that read the value are computed again.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from invasion_oracle.model.core.errors import InvasionError, MalformedInputError
from invasion_oracle.model.core.frozen import once_per_object
from invasion_oracle.model.core.reads import Choices, Read, digests
from invasion_oracle.reports.changes_rules import (
    KINDS,
    leaf_changes,
    rule_changes,
    rule_counts,
    rule_evidence,
)

if TYPE_CHECKING:  # the parser is built for --help without the data machinery (a fast start)
    from invasion_oracle.model.core.overrides import DataInForce
    from invasion_oracle.reports.cache import JobCache

FORMAT = 1
BASELINE_LIMIT = 64 * 1024 * 1024
FIELDS_PER_CASE = 40  # changed leaves listed per case (the count of the rest is kept)
PARTS = ("cases", "searches", "rulings", "rules")  # the answer's parts that list changes, by id

SEARCHES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    # name -> the command's words after `invasion`; each answers in seconds (README, "Searches")
    "stonespine": (
        ("place", ("stonespine", "place", "example:stonespine/placement.json")),
        ("wave", ("stonespine", "wave", "example:stonespine/placement.json", "--heroes", "red,red,red,red")),
    ),
    "spirit-island": (
        ("fear-threshold", ("spirit-island", "fear-threshold", "--land", "C C@1 2T T@1 2E", "--pool", "3")),
        ("lands", ("spirit-island", "lands", "example:spirit_island/island_search.json")),
    ),
    "vulketh": (
        ("clear", ("vulketh", "clear", "example:vulketh/clear_hex.json", "--hex", "7", "--members", "4")),
    ),
    "cloudspire": (("engagement", ("cloudspire", "engagement", "example:cloudspire/engagement.json")),),
}

LONG_SEARCHES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    # the README's and the report's long searches (seconds to minutes each): with --long-searches
    "stonespine": (
        ("plan", ("stonespine", "plan", "example:stonespine/plan-year3")),
        (
            "policy",
            (
                "stonespine",
                "policy",
                "example:stonespine/placement.json",
                "--measure",
                "trophy",
                "--target",
                "4",
            ),
        ),
        (
            "min-damage",
            (
                "stonespine",
                "min-damage",
                "example:stonespine/placement.json",
                "--what",
                "minions",
                "--heroes",
                "red,red,red,red",
            ),
        ),
        (
            "routes",
            ("stonespine", "routes", "example:stonespine/rulings/SS-HYDRA-COLLAPSE.json", "--hero", "red"),
        ),
    ),
    "vulketh": (
        ("race", ("vulketh", "race", "example:vulketh/race.json")),
        ("differ", ("vulketh", "differ")),
    ),
    "cloudspire": (
        ("survive", ("cloudspire", "survive", "example:cloudspire/survive.json")),
        ("spires", ("cloudspire", "spires", "example:cloudspire/spires.json", "--bound", "2")),
    ),
}


def searches_of(game: str, long: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The bundled searches of ``game`` (with the long ones, when asked)."""
    return (*SEARCHES.get(game, ()), *(LONG_SEARCHES.get(game, ()) if long else ()))


def _every_search() -> list[tuple[str, str]]:
    return [(g, n) for table in (SEARCHES, LONG_SEARCHES) for g, named in table.items() for n, _ in named]


# -- the two sides -------------------------------------------------------------------------------


def data_files(path: str, option: str) -> list[str]:
    """A data file, or every ``*.json`` of a folder (one a game), sorted."""
    folder = Path(path)
    if folder.is_dir():
        files = sorted(str(p) for p in folder.glob("*.json") if p.is_file())
        if not files:
            raise MalformedInputError(option, path, "a folder with no data file (*.json) in it")
        return files
    return [path]


def load_side(path: str | None, option: str, games: Sequence[str]) -> tuple[DataInForce, ...]:
    """The data of one side, each file checked as its game's data (located errors)."""
    if path is None:
        return ()
    from invasion_oracle.reports.run_data import load_run_data

    return load_run_data(data_files(path, option), games)


# -- one side's results ---------------------------------------------------------------------------


def producer_name(producer: Any) -> str:
    return str(getattr(producer, "__name__", None) or producer.func.__name__)


def producer_cases(game: str, index: int) -> list[dict[str, Any]]:
    """The cases of one producer under the data in force (the suite generator's unit of work); a
    case the data makes unplayable is kept, refused, with the oracle's reason."""
    try:
        specs = case_specs(game, index)
    except InvasionError as err:
        return [listing_refused(game, index, err)]
    return [case_json(game, case) for case in specs]


def case_specs(game: str, index: int) -> list[Any]:
    from invasion_oracle.reports.suite.build import producers

    return list(producers(game)[index]())


def listing_refused(game: str, index: int, err: InvasionError) -> dict[str, Any]:
    """The one entry of a producer that cannot list its cases under the data in force (a bundled
    example the data makes invalid): its cases are gone on this side, and this says why."""
    from invasion_oracle.reports.output import one_line
    from invasion_oracle.reports.suite.build import producers

    return {
        "id": f"{game}/{producer_name(producers(game)[index])}/*",  # named as --cases names it
        "section": "",
        "expect": [{"result": "refused", "reason": one_line(str(err))}],
    }


def case_json(game: str, case: Any) -> dict[str, Any]:
    """One case built (every reading that changes it), or refused with the oracle's reason."""
    from invasion_oracle.reports.suite.build import CaseError, build_case
    from invasion_oracle.reports.suite.plugins import suite_for

    try:
        built: dict[str, Any] = build_case(registry.spec(game), suite_for(game), case).to_json()
    except CaseError as err:
        section = case.sections[0] if case.sections else ""
        reason = str(err).split(": ", 1)[-1]
        return {
            "id": f"{game}/{case.group}/{case.name}",
            "section": section,
            "expect": [{"result": "refused", "reason": reason}],
        }
    return built


@dataclass(slots=True)
class Results:
    """One side's results: cases by id, searches by ``game/name``."""

    cases: dict[str, dict[str, Any]]
    searches: dict[str, Any]
    rebuilt: int = 0  # cases built afresh (the others came from the cache)


def _brief(raw: Mapping[str, Any]) -> dict[str, Any]:
    """What comparing needs of a case: ``expect`` is compared; the rule sections it cites find the
    rules it exercises; its scenario and projection draw it (``--format html``)."""
    return {
        "section": raw.get("section", ""),
        "depends_on": raw.get("depends_on", []),
        "rule_refs": [
            str(ref.get("section", "")) for ref in raw.get("rule_refs", []) if isinstance(ref, dict)
        ],
        "scenario": raw.get("scenario"),
        "projection": raw.get("projection", ""),
        "expect": raw["expect"],
    }


VARIANTS = 4
"""Results kept per job, each under the reads it made (the newest first): a run on the bundled
data and runs on a few designers' data all stay reusable."""

_ONE_AT_A_TIME = threading.Lock()  # reads are recorded one job at a time in a process


def recorded_job(
    entries: tuple[DataInForce, ...],
    game: str,
    work: int | tuple[str, ...],
    main: Callable[[list[str]], int] | None = None,
    previous: Any = None,
    record: bool = True,
) -> dict[str, Any]:
    """One job under ``entries``: a producer's cases (``work`` its index) or a bundled search's
    answer (``work`` its words, run by ``main``, the command line's), with the reads it made and
    their digest (a module-level function: a worker process or a Dask cluster runs it; the data
    goes with it). ``previous``: the results of a producer stored from runs under other data
    (the newest first), whose cases are reused one by one where their own reads hold
    (:func:`producer_parts`)."""
    from invasion_oracle.model.core import reads
    from invasion_oracle.model.core.overrides import data_in_force, no_data_in_force

    with _ONE_AT_A_TIME, data_in_force(entries) if entries else no_data_in_force():
        if not record:  # no cache to store in: the work alone
            if isinstance(work, int):
                return {"result": producer_cases(game, work)}
            assert main is not None, "a search job runs through the command line's main"
            return {"result": search_answer(work, main)}
        if isinstance(work, int):
            enum, cases, rebuilt = producer_parts(game, work, previous)
            table = ReadTable.of([enum, *(made for made, _ in cases)])
            return {
                "reads": table.listed,
                "digest": table.digest(range(len(table.reads))),
                "result": [built for _, built in cases],
                "parts": {
                    "enum": table.part(enum),
                    "cases": [{**table.part(made), "result": built} for made, built in cases],
                },
                "rebuilt": rebuilt,
            }
        with reads.recording() as made:
            assert main is not None, "a search job runs through the command line's main"
            result = search_answer(work, main)
        table = ReadTable.of([made])
        return {"reads": table.listed, "digest": table.digest(range(len(table.reads))), "result": result}


Reads = frozenset[Read]
"""The reads of a part of a job (its listing, a case)."""


def producer_parts(
    game: str, index: int, previous: Any
) -> tuple[Reads, list[tuple[Reads, dict[str, Any]]], int]:
    """A producer's listing's reads, its cases each with its own reads, and how many cases were
    built afresh.

    A case of a result in ``previous`` is reused when that result's listing's reads and the
    case's own reads all hold under the data in force: the same listing then gives the same case
    at the same place, and the case's build read nothing that changed. Each case is taken from
    the newest result where it holds (after a run on the bundled data and one on a designer's,
    a case that reads only what a third data shares with the bundled data is kept)."""
    from invasion_oracle.model.core import reads

    refused: InvasionError | None = None
    with reads.recording() as made:
        try:
            specs = case_specs(game, index)
        except InvasionError as err:
            refused = err
    enum = frozenset(made)  # filled when the recording ends
    if refused is not None:  # the listing itself refused: one entry says why
        return enum, [(enum, listing_refused(game, index, refused))], 1
    earlier = _earlier_cases(previous if isinstance(previous, list) else [previous], len(specs))
    cases: list[tuple[Reads, dict[str, Any]]] = []
    rebuilt = 0
    for k, case in enumerate(specs):
        before = earlier[k] if earlier else None
        if before is not None and before[1].get("id") == f"{game}/{case.group}/{case.name}":
            cases.append(before)
            continue
        with reads.recording() as made:
            built = case_json(game, case)
        cases.append((frozenset(made), built))
        rebuilt += 1
    return enum, cases, rebuilt


def _earlier_cases(previous: list[Any], count: int) -> list[tuple[Reads, dict[str, Any]] | None] | None:
    """For each of ``count`` cases, the first of ``previous``' results (whose listing's reads
    hold: then it lists ``count`` cases) where the case's reads all hold now, with those reads
    (None where none holds, or the case is not shaped as stored); a result of a wrong shape
    anywhere holds nothing."""
    out: list[tuple[Reads, dict[str, Any]] | None] = [None] * count
    found = False
    for result in previous[:VARIANTS]:
        if not isinstance(result, dict) or not isinstance(result.get("parts"), dict):
            continue
        table = _stored_table(result.get("reads"))
        parts = result["parts"]
        cases = parts.get("cases")
        if table is None or not isinstance(cases, list) or len(cases) != count:
            continue
        if table.holding(parts.get("enum")) is None:
            continue
        found = True
        for k, case in enumerate(cases):
            if out[k] is not None:
                continue
            made = table.holding(case)
            built = case.get("result") if isinstance(case, dict) else None
            if made is not None and isinstance(built, dict) and _cases_shaped([built]):
                out[k] = (made, built)
    return out if found else None


@dataclass(frozen=True, slots=True)
class ReadTable:
    """Every read of a job once, in canonical order (``listed``: ``[game, choices, [path, ...]]``
    groups sorted by their head, paths sorted: choices repeat across thousands of reads); a
    part of the job (its listing, a case) names its reads as ranges of positions in it
    (``"0-37,40"``), and its digest is the hash of those reads' values (:meth:`digest`), which
    does not depend on the table it is listed in."""

    listed: list[list[Any]]
    reads: tuple[Read, ...]
    heads: tuple[str, ...]  # each read's group head, as canonical JSON

    @staticmethod
    def of(parts: Sequence[AbstractSet[Read]]) -> ReadTable:
        groups: dict[tuple[str, Choices | None], set[str]] = {}
        for made in parts:
            for read in made:
                groups.setdefault((read.game, read.choices), set()).add(read.path)
        heads = [Read(game, choices, "").to_json()[:2] for game, choices in groups]
        listed = sorted(
            ([*head, sorted(paths)] for head, paths in zip(heads, groups.values(), strict=True)),
            key=lambda group: canonical_json(group[:2]),
        )
        table = ReadTable.stored(listed)
        assert table is not None, "a table of recorded reads"
        return table

    @staticmethod
    def stored(listed: Any) -> ReadTable | None:
        """The table of a stored result (None when it is not one: a tampered entry holds nothing)."""
        if not isinstance(listed, list):
            return None
        reads: list[Read] = []
        heads: list[str] = []
        try:
            for group in listed:
                if not (isinstance(group, list) and len(group) == 3 and isinstance(group[2], list)):
                    return None
                head = Read.from_json([group[0], group[1], ""])  # checked once for the group's paths
                text = canonical_json(group[:2])
                for path in group[2]:
                    if not isinstance(path, str):
                        return None
                    reads.append(Read(head.game, head.choices, path))
                    heads.append(text)
        except ValueError:
            return None
        return ReadTable(listed, tuple(reads), tuple(heads))

    def part(self, made: Reads) -> dict[str, str]:
        """A part's entry: its reads (ranges of positions) and their digest."""
        where = _INDEX.get(id(self))
        if where is None or where[0] is not self:
            _INDEX.clear()  # one table at a time: the job's
            where = _INDEX[id(self)] = (self, {read: i for i, read in enumerate(self.reads)})
        positions = sorted(where[1][read] for read in made)
        return {"reads": ranges(positions), "digest": self.digest(positions)}

    def digest(self, positions: Iterable[int]) -> str:
        """The hash of the values the reads at ``positions`` name under the data in force (each
        value's digest computed once per data in force, :func:`value_digests`)."""
        import hashlib

        lines = self._lines()
        return hashlib.sha256(b"".join([lines[i] for i in positions])).hexdigest()

    def _lines(self) -> list[bytes]:
        """Each read's line of a digest under the data in force, made once per table and data
        (a job's table is asked for each of its cases' digests)."""
        from invasion_oracle.model.core.overrides import all_in_force_untracked

        in_force = all_in_force_untracked()
        kept = _LINES.get(id(self))
        if kept is not None and kept[0] is self and kept[1] == in_force:
            return kept[2]
        values = value_digests(self.reads)
        lines = [
            f"{head}\t{read.path}={value}\n".encode()
            for head, read, value in zip(self.heads, self.reads, values, strict=True)
        ]
        if len(_LINES) >= 64:  # the tables of a few jobs' kept results
            _LINES.clear()
        _LINES[id(self)] = (self, in_force, lines)
        return lines

    def holding(self, part: Any) -> Reads | None:
        """The reads of a stored part when they all hold under the data in force (their digest is
        the stored one); None when one does not, or the part is not shaped as stored."""
        if not (isinstance(part, dict) and isinstance(part.get("digest"), str)):
            return None
        positions = positions_of(part.get("reads"), len(self.reads))
        if positions is None or self.digest(positions) != part["digest"]:
            return None
        return frozenset(self.reads[i] for i in positions)

    def holds(self, digest: Any) -> bool:
        """Whether every read of the table has the value it had when ``digest`` was taken."""
        return isinstance(digest, str) and self.digest(range(len(self.reads))) == digest


_INDEX: dict[int, tuple[ReadTable, dict[Read, int]]] = {}
# :meth:`ReadTable.stored`, once per stored list in a process: a side checks each kept result's
# table, then a producer's job run here checks the same results' cases (the table and its digest
# lines are made once). Kept across jobs: a stored list is no game data.
_stored_table = once_per_object(ReadTable.stored, size=64, derived=False)


_LINES: dict[int, tuple[ReadTable, tuple[Any, ...], list[bytes]]] = {}


def ranges(positions: Sequence[int]) -> str:
    """Sorted positions as ``"0-37,40"`` (a case reads runs of a record's fields)."""
    out: list[str] = []
    start = previous = -2
    for p in positions:
        if p != previous + 1:
            if start >= 0:
                out.append(f"{start}-{previous}" if previous > start else str(start))
            start = p
        previous = p
    if start >= 0:
        out.append(f"{start}-{previous}" if previous > start else str(start))
    return ",".join(out)


def positions_of(text: Any, count: int) -> list[int] | None:
    """The positions :func:`ranges` wrote, each below ``count`` and ascending (None otherwise)."""
    if not isinstance(text, str) or len(text) > 16 * count + 16:
        return None
    out: list[int] = []
    try:
        for run in text.split(",") if text else ():
            first, _, last = run.partition("-")
            start, end = int(first), int(last or first)
            if not (0 <= start <= end < count) or (out and start <= out[-1]):
                return None
            out.extend(range(start, end + 1))
    except ValueError:
        return None
    return out


_DIGESTS: dict[tuple[Any, ...], dict[Read, str]] = {}


def value_digests(reads: Sequence[Read]) -> list[str]:
    """Each read's digest under the data in force, computed once per data in force in a process
    (the jobs of a side read mostly the same few thousand values)."""
    from invasion_oracle.model.core.overrides import all_in_force_untracked

    in_force = all_in_force_untracked()
    memo = _DIGESTS.get(in_force)
    if memo is None:
        if len(_DIGESTS) >= 8:  # two sides a run; a long-lived process sees a few data
            _DIGESTS.clear()
        memo = _DIGESTS[in_force] = {}
    missing = [read for read in reads if read not in memo]
    memo.update(zip(missing, digests(missing, in_force), strict=True))
    return [memo[read] for read in reads]


@dataclass(frozen=True, slots=True)
class Job:
    """One piece of a side's work: a producer's cases (``work``: its index) or a search (its words)."""

    game: str
    name: str  # the producer's name, or the search's
    work: int | tuple[str, ...]

    @property
    def label(self) -> str:
        kind = "cases" if isinstance(self.work, int) else "search"
        return f"changes {kind} {self.game}/{self.name}"


def side_jobs(
    games: Sequence[str], only: Sequence[str] | None, searches_only: Sequence[str] | None, long: bool
) -> list[Job]:
    """The jobs of a side: each producer (of ``only``, when given), then each search."""
    from invasion_oracle.reports.suite.build import producers

    jobs = [
        Job(game, producer_name(producer), index)
        for game in games
        for index, producer in enumerate(producers(game))
        if only is None or producer_name(producer) in only
    ]
    for game in games:
        every = searches_of(game, long=True)
        for name, words in every:
            named = searches_only is not None and (name in searches_only or f"{game}/{name}" in searches_only)
            if named or (searches_only is None and (name, words) in searches_of(game, long)):
                jobs.append(Job(game, name, words))
    return jobs


def side_results(
    entries: tuple[DataInForce, ...],
    jobs: Sequence[Job],
    runner: Any,
    main: Callable[[list[str]], int],
    loaded: dict[str, list[dict[str, Any]]] | None = None,
) -> Results:
    """Every job's result under ``entries``. A result is reused from the cache when every value
    it read has the same digest under ``entries``; the others run on ``runner`` (recording
    their reads) and are stored beside the results kept for other data. ``loaded``: the
    results a run has read from the cache or stored in it so far, by key (the two sides of a
    run read the same entries: each is read and checked once)."""
    from invasion_oracle.model.core.overrides import data_in_force, no_data_in_force
    from invasion_oracle.reports.batch import run_jobs
    from invasion_oracle.reports.cache import package_of_game

    cache: JobCache = runner.cache
    found: dict[Job, Any] = {}
    kept: dict[Job, list[dict[str, Any]]] = {}
    keys: dict[Job, str | None] = {}
    todo: list[Job] = []
    with data_in_force(entries) if entries else no_data_in_force():
        for job in jobs:
            keys[job] = key = cache.key(recorded_job, (job.game, job.work), package_of_game(job.game))
            if key and loaded is not None and key in loaded:
                variants = loaded[key]
            else:
                variants = _variants(cache, key, job) if key else []
                if key and loaded is not None and cache.enabled:
                    loaded[key] = variants
            kept[job] = variants
            hit = next((v for v in variants if _table_holds(v)), None)
            if hit is None:
                todo.append(job)
            else:
                found[job] = hit["result"]
                cache.reused.append(job.label)
    arguments = [(entries, j.game, j.work, main, _earlier(kept[j]), cache.enabled) for j in todo]
    batch = run_jobs(recorded_job, arguments, runner, "changes")
    if batch.interrupted:
        raise KeyboardInterrupt
    rebuilt = 0
    for job, done in zip(todo, batch.results, strict=True):
        found[job] = done["result"]
        rebuilt += done.get("rebuilt", 0)
        cache.computed.append(job.label)
        key = keys[job]
        if key and cache.enabled:
            variants = [done, *(v for v in kept[job] if v["digest"] != done["digest"])][:VARIANTS]
            cache.put(key, job.label, package_of_game(job.game), Any, [_stored(v) for v in variants])
            if loaded is not None:
                loaded[key] = [{k: v for k, v in variant.items() if k != "rebuilt"} for variant in variants]
    cases: dict[str, dict[str, Any]] = {}
    searches: dict[str, Any] = {}
    for job in jobs:
        if isinstance(job.work, int):
            for raw in found[job]:
                cases[str(raw["id"])] = _brief(raw)
        else:
            searches[f"{job.game}/{job.name}"] = found[job]
    return Results(cases, searches, rebuilt)


def _variants(cache: JobCache, key: str, job: Job) -> list[dict[str, Any]]:
    """The results stored for a job, each with its reads (a producer's rebuilt from its parts);
    a wrong shape is recomputed, never trusted."""
    from invasion_oracle.reports.cache import package_of_game

    hit, stored = cache.get(key, job.label, package_of_game(job.game), Any)
    if not hit or not isinstance(stored, list):
        return []
    out = []
    for v in stored:
        if not isinstance(v, dict) or not isinstance(v.get("digest"), str) or "reads" not in v:
            continue
        if isinstance(job.work, int):
            parts = v.get("parts")
            cases = parts.get("cases") if isinstance(parts, dict) else None
            if set(v) != {"reads", "digest", "parts"} or not isinstance(cases, list):
                continue
            result = [c.get("result") if isinstance(c, dict) else None for c in cases]
            if _cases_shaped(result):
                out.append({**v, "result": result})
        elif set(v) == {"reads", "digest", "result"}:
            out.append(v)
    return out


def _table_holds(variant: Mapping[str, Any]) -> bool:
    """Whether every value a stored result read has the digest it had."""
    table = _stored_table(variant["reads"])
    return table is not None and table.holds(variant["digest"])


def _earlier(variants: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The results kept for a producer, as stored, the newest first (its cases may be reused one
    by one from any of them)."""
    kept = [_stored(v) for v in variants if "parts" in v]
    return kept or None


def _stored(variant: dict[str, Any]) -> dict[str, Any]:
    """What the cache keeps of a result: a producer's parts (its result is made from them)."""
    if "parts" in variant:
        return {"reads": variant["reads"], "digest": variant["digest"], "parts": variant["parts"]}
    return {"reads": variant["reads"], "digest": variant["digest"], "result": variant["result"]}


def _cases_shaped(result: Any) -> bool:
    """A cached producer's result as this module stores it (a list of cases with ids and
    expectations); anything else is recomputed, never trusted."""
    return isinstance(result, list) and all(
        isinstance(raw, dict) and isinstance(raw.get("id"), str) and isinstance(raw.get("expect"), list)
        for raw in result
    )


def search_answer(words: Sequence[str], main: Callable[[list[str]], int]) -> Any:
    """The ``answer`` of a search's JSON envelope, run in this process under the data in force."""
    import json

    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*words, "--json"])
        except Exception as crash:  # a search's own bug under this data: its answer, not the run's end
            return {"error": [f"internal error: {type(crash).__name__}: {crash}"]}
    if status not in (0, 1):
        return {"error": err.getvalue().strip().splitlines()[-1:] or [f"exit {status}"]}
    envelope = json.loads(out.getvalue())
    return _without_timings(envelope.get("answer"))


_TIMING_KEYS = frozenset({"elapsed", "seconds", "time", "timings", "wall", "cpu"})


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in _TIMING_KEYS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


# -- comparing ------------------------------------------------------------------------------------


def _status(case: Mapping[str, Any]) -> str:
    """The default outcome's status: the first variant's (the readings every ruling has by default)."""
    variants = case["expect"]
    return str(variants[0].get("result", "ok")) if variants else "ok"


def _parting(cases: Mapping[str, Mapping[str, Any]], game: str) -> dict[str, list[str]]:
    """Each ruling whose readings part on a witness case of ``game``: the witness ids."""
    out: dict[str, list[str]] = {}
    for cid, case in cases.items():
        if cid.startswith(f"{game}/witnesses/"):
            for rid in case.get("depends_on", []):
                out.setdefault(str(rid), []).append(cid)
    return {rid: sorted(ids) for rid, ids in out.items()}


def compare(old: Results, new: Results, games: Sequence[str], labels: tuple[str, str]) -> dict[str, Any]:
    """The changes from ``old`` to ``new`` (the ``answer-changes`` schema)."""
    cases = _case_changes(old, new)
    searches = _search_changes(old, new)
    rulings = _ruling_changes(old, new, games)
    rules = rule_changes(old.cases, new.cases, games)
    return {
        "format": FORMAT,
        "against": labels[0],
        "data": labels[1],
        "summary": _summary(old, new, games, cases, searches, rulings, rules),
        "no_change": not (cases or searches or rulings or rules),
        "cases": cases,
        "searches": searches,
        "rulings": rulings,
        "rules": rules,
    }


def _case_changes(old: Results, new: Results) -> dict[str, Any]:
    """Each case that differs, by id (sorted): its section, kind and first changed fields."""
    cases: dict[str, Any] = {}
    for cid in sorted(set(old.cases) | set(new.cases)):
        before, after = old.cases.get(cid), new.cases.get(cid)
        if before is not None and after is not None and _compared(before) == _compared(after):
            continue
        entry: dict[str, Any] = {"section": (after or before or {}).get("section", "")}
        if before is None or after is None:
            entry["kind"] = "added" if before is None else "removed"
            present = after or before or {}
            if _status(present) != "ok":  # a refusal says why (a producer that cannot list its cases)
                reason = (present.get("expect") or [{}])[0].get("reason")
                old_new = (None, reason) if before is None else (reason, None)
                entry["fields"] = [{"path": "$.expect[0].reason", "old": old_new[0], "new": old_new[1]}]
        else:
            entry["kind"] = _change_kind(_status(before), _status(after))
            leaves = list(leaf_changes(before["expect"], after["expect"], "$.expect"))
            entry["fields"] = [{"path": p, "old": a, "new": b} for p, a, b in leaves[:FIELDS_PER_CASE]]
            if len(leaves) > FIELDS_PER_CASE:
                entry["more_fields"] = len(leaves) - FIELDS_PER_CASE
        cases[cid] = entry
    return cases


def _compared(case: Mapping[str, Any]) -> tuple[Any, Any]:
    """What a case's change is: its expectation and the rulings it depends on (not its scenario or
    the sections it cites, which are the case's own)."""
    return case["expect"], case.get("depends_on", [])


def _change_kind(was: str, now: str) -> str:
    """How a case present on both sides changed, from its default outcome's status before and after."""
    if was == "ok" and now != "ok":
        return "became-illegal"
    if was != "ok" and now == "ok":
        return "became-legal"
    return "changed"


def _search_changes(old: Results, new: Results) -> dict[str, Any]:
    """Each bundled search whose answer differs, by name (sorted): both answers."""
    return {
        name: {"old": old.searches.get(name), "new": new.searches.get(name)}
        for name in sorted(set(old.searches) | set(new.searches))
        if old.searches.get(name) != new.searches.get(name)
    }


def _ruling_changes(old: Results, new: Results, games: Sequence[str]) -> dict[str, Any]:
    """Each ruling whose readings start or stop parting on a witness, game by game."""
    rulings: dict[str, Any] = {}
    for game in games:
        parted, parts = _parting(old.cases, game), _parting(new.cases, game)
        for rid in sorted(set(parted) | set(parts)):
            if bool(parted.get(rid)) != bool(parts.get(rid)):
                rulings[rid] = {
                    "game": game,
                    "kind": "starts-parting" if parts.get(rid) else "stops-parting",
                    "old_witnesses": parted.get(rid, []),
                    "new_witnesses": parts.get(rid, []),
                }
    return rulings


def _summary(
    old: Results,
    new: Results,
    games: Sequence[str],
    cases: Mapping[str, Any],
    searches: Mapping[str, Any],
    rulings: Mapping[str, Any],
    rules: Mapping[str, Any],
) -> dict[str, Any]:
    """Per game: the cases compared, the count of each kind of change, searches and rulings
    changed, rules dead and alive."""
    summary = {}
    for game in games:
        mine = [c for cid, c in cases.items() if cid.startswith(f"{game}/")]
        summary[game] = {
            "cases_compared": sum(1 for cid in set(old.cases) | set(new.cases) if cid.startswith(f"{game}/")),
            **{kind: sum(1 for c in mine if c["kind"] == kind) for kind in KINDS},
            "searches_changed": sum(1 for name in searches if name.startswith(f"{game}/")),
            "rulings_changed": sum(1 for r in rulings.values() if r["game"] == game),
            **rule_counts(rules, game),
        }
    return summary


# -- the baseline (a snapshot of the changes, committed) --------------------------------------------


def recorded(answer: Mapping[str, Any]) -> str:
    """The canonical text of a result, one entry a line (small diffs)."""
    return canonical_json(answer, indent=1) + "\n"


def read_baseline(path: str) -> dict[str, Any]:
    """A recorded result, read as data only; a wrong shape is a located error."""
    import json

    from invasion_oracle.model.core.jsonio import read_regular_file

    raw = read_regular_file(path, path, BASELINE_LIMIT)
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise MalformedInputError(path, "$", f"not JSON: {err}") from None
    if not isinstance(document, dict):
        raise MalformedInputError(path, "$", "a changes record is a JSON object")
    if document.get("format") != FORMAT:
        raise MalformedInputError(
            path, "$.format", f"expected {FORMAT} (a file written by `changes --record`)"
        )
    document.setdefault("rules", {})  # a record written before rules were compared holds none
    for key in ("cases", "searches", "rulings", "rules"):
        part = document.get(key)
        if not isinstance(part, dict):
            raise MalformedInputError(path, f"$.{key}", "expected an object keyed by id")
        for name, entry in part.items():
            if not isinstance(entry, dict):
                raise MalformedInputError(path, f"$.{key}.{name}", "expected an object")
    for name, entry in document["cases"].items():
        if entry.get("kind") not in KINDS:
            raise MalformedInputError(path, f"$.cases.{name}.kind", f"expected one of {', '.join(KINDS)}")
    for name, entry in document["rules"].items():
        if entry.get("kind") not in ("dead", "alive"):
            raise MalformedInputError(path, f"$.rules.{name}.kind", "expected dead or alive")
    return document


def unheld(answer: Mapping[str, Any], baseline: Mapping[str, Any]) -> list[str]:
    """``KIND id`` of each change the baseline does not hold (absent or different)."""
    out = []
    for key in PARTS:
        held = baseline.get(key, {})
        for name, entry in answer[key].items():
            if held.get(name) != entry:
                out.append(f"{key[:-1]} {name}")
    return out


def stale(answer: Mapping[str, Any], baseline: Mapping[str, Any]) -> list[str]:
    """``KIND id`` of each change the baseline holds that no longer happens."""
    return [
        f"{key[:-1]} {name}" for key in PARTS for name in baseline.get(key, {}) if name not in answer[key]
    ]


# -- rendering ------------------------------------------------------------------------------------


def _value(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= 120 else text[:117] + "..."


def render_text(answer: Mapping[str, Any], markdown: bool) -> str:
    lines: list[str] = []
    head = "# " if markdown else ""
    lines.append(f"{head}Changes: {answer['data']} against {answer['against']}")
    lines.append("")
    if answer["no_change"]:
        lines.append("no change")
    if markdown:
        lines += [
            "| game | cases | changed | became illegal | became legal | added | removed | searches | rulings "
            "| rules dead | rules alive |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
    for game, s in answer["summary"].items():
        counts = [
            s["cases_compared"],
            *(s[k] for k in KINDS),
            s["searches_changed"],
            s["rulings_changed"],
            s.get("rules_dead", 0),
            s.get("rules_alive", 0),
        ]
        if markdown:
            lines.append(f"| {game} | " + " | ".join(str(c) for c in counts) + " |")
        else:
            lines.append(
                f"{game}: {s['cases_compared']} cases compared, {s['changed']} changed, "
                f"{s['became-illegal']} became illegal, {s['became-legal']} became legal, {s['added']} added, "
                f"{s['removed']} removed; {s['searches_changed']} search answers changed; "
                f"{s['rulings_changed']} rulings start or stop parting; "
                f"{s.get('rules_dead', 0)} rules dead, {s.get('rules_alive', 0)} alive"
            )
    code = "`" if markdown else ""
    bullet = "- " if markdown else "  "
    if answer["cases"]:
        lines += ["", f"{'## ' if markdown else ''}Cases"]
        for cid, c in answer["cases"].items():
            lines.append(f"{bullet}{code}{cid}{code} ({c['section'] or 'no section'}): {c['kind']}")
            for f in c.get("fields", []):
                lines.append(f"    {code}{f['path']}{code}: {_value(f['old'])} -> {_value(f['new'])}")
            if c.get("more_fields"):
                lines.append(f"    ... {c['more_fields']} more changed fields")
    if answer["searches"]:
        lines += ["", f"{'## ' if markdown else ''}Search answers"]
        for name, s in answer["searches"].items():
            lines.append(f"{bullet}{code}{name}{code}")
            for p, a, b in leaf_changes(s["old"], s["new"], "$"):
                lines.append(f"    {code}{p}{code}: {_value(a)} -> {_value(b)}")
    if answer["rulings"]:
        lines += ["", f"{'## ' if markdown else ''}Rulings"]
        for rid, r in answer["rulings"].items():
            lines.append(
                f"{bullet}{rid} ({r['game']}): {r['kind']} "
                f"(witnesses parting: {len(r['old_witnesses'])} -> {len(r['new_witnesses'])})"
            )
    if answer.get("rules"):
        lines += ["", f"{'## ' if markdown else ''}Rules dead or alive"]
        for r in answer["rules"].values():
            lines.append(
                f"{bullet}{r['kind']}: {r['game']} {r['rule']} {code}{r['name']}{code}: {rule_evidence(r)}"
            )
    return "\n".join(lines) + "\n"


def render_junit(answer: Mapping[str, Any]) -> str:
    from xml.sax.saxutils import quoteattr

    changes = [("case", n, e["kind"]) for n, e in answer["cases"].items()]
    changes += [("search", n, "changed") for n in answer["searches"]]
    changes += [("ruling", n, e["kind"]) for n, e in answer["rulings"].items()]
    changes += [("rule", n, f"{e['kind']}: {rule_evidence(e)}") for n, e in answer.get("rules", {}).items()]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.append(
        f'<testsuite name="invasion changes" tests="{max(len(changes), 1)}" failures="{len(changes)}">'
    )
    if not changes:
        lines.append('  <testcase classname="changes" name="no change"/>')
    for what, name, kind in changes:
        lines.append(f"  <testcase classname={quoteattr('changes.' + what)} name={quoteattr(name)}>")
        lines.append(f"    <failure message={quoteattr(kind)}/>")
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


# -- the command ------------------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    from invasion_oracle.reports.ambiguity.cli import add_batch_options
    from invasion_oracle.reports.options import add_output_options, output_file

    changes = sub.add_parser(
        "changes",
        help="what a change of a game's data does: every conformance case, ruling witness and bundled "
        "search under both data, compared (docs/ci.md)",
    )
    changes.add_argument(
        "--data",
        dest="new_data",
        required=True,
        metavar="FILE",
        help="the new data: a data file (full or partial) or a folder of them, one a game",
    )
    changes.add_argument(
        "--against", metavar="FILE", help="the old data, the same way (default: the bundled data)"
    )
    changes.add_argument(
        "--game",
        action="append",
        default=[],
        choices=registry.names(),
        help="only this game (repeatable; default: every game either side has data for)",
    )
    changes.add_argument(
        "--cases",
        action="append",
        default=[],
        metavar="NAME",
        help="only the cases of this producer (a case file's topic, such as heroes-abilities, or "
        "witnesses); repeatable; without --searches, no search is run",
    )
    changes.add_argument(
        "--searches",
        action="append",
        default=[],
        metavar="NAME",
        help="only this bundled search (GAME/NAME or NAME: "
        + ", ".join(f"{g}/{n}" for g, n in _every_search())
        + "; a long one runs when named); repeatable; without --cases, no case is run",
    )
    changes.add_argument(
        "--long-searches",
        action="store_true",
        help="also the long searches of the README and the report ("
        + ", ".join(f"{g}/{n}" for g, named in LONG_SEARCHES.items() for n, _ in named)
        + "): minutes cold, so not run by default; cached like the rest (docs/ci.md)",
    )
    changes.add_argument(
        "--record",
        type=output_file("--record"),
        metavar="FILE",
        help="write the result (canonical JSON) to FILE",
    )
    changes.add_argument("--baseline", metavar="FILE", help="a result written by --record to compare with")
    changes.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when anything changed that the baseline (without one: nothing) does not hold",
    )
    changes.add_argument("--accept", action="store_true", help="rewrite --baseline with this result")
    add_batch_options(changes)  # --workers, --scheduler (Dask), --cache-dir, --no-cache
    add_output_options(changes, formats=("text", "md", "json", "junit", "html"))
    changes.set_defaults(run=run)


def run(args: Any) -> int:
    import sys

    _check_baseline_flags(args)
    baseline = read_baseline(args.baseline) if args.baseline and not args.accept else None
    new_entries = load_side(args.new_data, "--data", args.game)
    old_entries = load_side(args.against, "--against", args.game)
    named = {e.game for e in (*new_entries, *old_entries)}
    games = [g for g in registry.names() if g in named and (not args.game or g in args.game)]
    runner = _runner(args)  # a --scheduler without Dask, or a bad cache folder: refused before any lookup
    cache = runner.cache
    only = args.cases if args.cases else ([] if args.searches else None)
    searches_only = args.searches if args.searches else ([] if args.cases else None)
    _check_searches_named(args.searches)
    if args.long_searches and (args.cases or args.searches):
        from invasion_oracle.reports.options import OptionError

        raise OptionError(
            "--long-searches",
            "adds the long searches to a whole run; with --cases or --searches, name them with --searches",
        )
    _check_cases_named(args.cases, games)
    jobs = side_jobs(games, only, searches_only, args.long_searches)
    loaded: dict[str, list[dict[str, Any]]] = {}
    old = side_results(old_entries, jobs, runner, args.main, loaded)
    new = side_results(new_entries, jobs, runner, args.main, loaded)
    labels = (args.against or "bundled", args.new_data)
    answer = compare(old, new, games, labels)
    print(
        f"invasion: changes: {len(cache.reused)} job(s) from the cache, {len(cache.computed)} run "
        f"({old.rebuilt + new.rebuilt} case(s) built afresh in them)",
        file=sys.stderr,
    )
    from invasion_oracle.reports.changes_html import Side

    _emit_answer(
        args, answer, (Side(labels[0], old.cases, old_entries), Side(labels[1], new.cases, new_entries))
    )
    if args.record:
        write_atomic(args.record, recorded(answer))
    if args.accept:
        write_atomic(args.baseline, recorded(answer))
        print(f"invasion: changes: {args.baseline} accepted", file=sys.stderr)
        return 0
    if args.check:
        return _check_exit(answer, baseline)
    return 0


def _check_baseline_flags(args: Any) -> None:
    """--accept needs --baseline, and contradicts --check."""
    from invasion_oracle.reports.options import OptionError

    if args.accept and not args.baseline:
        raise OptionError("--accept", "rewrites the baseline; give --baseline FILE")
    if args.check and args.accept:
        raise OptionError("--check", "contradicts --accept (which rewrites the baseline); give one")


def _runner(args: Any) -> Any:
    """Where the jobs run, with the result cache: ``ambiguities``' options and checks (a
    ``--scheduler`` without Dask, or a cache folder that is not one, refused before any lookup)."""
    from invasion_oracle.reports.ambiguity.cli import runner_of

    return runner_of(args)


def _check_searches_named(searches: Sequence[str]) -> None:
    """Each --searches name is a bundled search (GAME/NAME or NAME)."""
    from invasion_oracle.reports.options import OptionError

    known = {n for g, name in _every_search() for n in (name, f"{g}/{name}")}
    for name in searches:
        if name not in known:
            raise OptionError("--searches", f"no bundled search {name!r}; known: {', '.join(sorted(known))}")


def _check_cases_named(cases: Sequence[str], games: Sequence[str]) -> None:
    """Each --cases name is a case producer of one of ``games``."""
    if not cases:
        return
    from invasion_oracle.reports.options import OptionError
    from invasion_oracle.reports.suite.build import producers

    names = {producer_name(p) for g in games for p in producers(g)}
    for name in cases:
        if name not in names:
            raise OptionError(
                "--cases",
                f"no case producer {name!r} in {', '.join(games)}; known: {', '.join(sorted(names))}",
            )


def _emit_answer(args: Any, answer: Mapping[str, Any], sides: tuple[Any, Any]) -> None:
    """The answer in the --format asked (default: text on a terminal, else Markdown); ``sides``
    draw the changed cases of the HTML page."""
    import sys

    from invasion_oracle.reports.output import emit

    fmt = args.format or ("text" if sys.stdout.isatty() and not args.out else "md")
    if fmt == "html":
        from invasion_oracle.reports.changes_html import drawer, render_html

        emit(render_html(answer, drawer(*sides)), args.out, kind="raw")
    elif fmt == "json":
        emit(recorded(answer), args.out, kind="raw")  # the answer-changes schema
    elif fmt == "junit":
        emit(render_junit(answer), args.out, kind="raw")
    else:
        emit(render_text(answer, fmt == "md"), args.out, kind="markdown" if fmt == "md" else "plain")


def _check_exit(answer: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> int:
    """--check: 1 when a change is not held by the baseline (without one: any change); each
    change missing from it, and each it holds that no longer happens, said on stderr."""
    import sys

    if baseline is None:
        return 0 if answer["no_change"] else 1
    missing = unheld(answer, baseline)
    gone = stale(answer, baseline)
    for line in missing:
        print(f"invasion: changes: not in the baseline: {line}", file=sys.stderr)
    for line in gone:
        print(f"invasion: changes: in the baseline, no longer changed: {line}", file=sys.stderr)
    return 1 if missing else 0
