"""``invasion changes`` fast enough for every commit: a job's result is reused exactly when every
data value it read is unchanged (model/core/reads.py), never when one it depends on changed.

The proof is differential: for random one-field overrides of each game, the results with a cache
warmed by earlier runs (on the bundled data and on other overrides) equal a recompute of every
job with no cache at all.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.reads import Read, digest
from invasion_oracle.reports.batch import Runner
from invasion_oracle.reports.cache import JobCache
from invasion_oracle.reports.changes import Job, load_side, side_jobs, side_results
from invasion_oracle.reports.cli import main
from tests.in_process import run_invasion

# per game: a few quick producers and one quick search, and one-field overrides to draw from
QUICK: dict[str, tuple[list[str], str]] = {
    "stonespine": (["heroes-abilities", "dice", "gate", "choose-hero"], "stonespine/wave"),
    "spirit-island": (["ravage", "build", "downgrade"], "spirit-island/fear-threshold"),
    # setup reads single values (values/N/1/value); summon and place-dice the whole data
    "vulketh": (["setup", "summon", "place-dice"], "vulketh/clear"),
    "cloudspire": (["fire-steps", "load-steps", "stacks"], "cloudspire/engagement"),
}
HEROES = ["Thief", "Cleric", "Crusader", "Barbarian"]
ONE_FIELD: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "stonespine": st.one_of(
        st.builds(lambda h, v: {"heroes": {h: {"health": v}}}, st.sampled_from(HEROES), st.integers(1, 9)),
        st.builds(
            lambda k, v: {"values": {k: v}},
            st.sampled_from(["minion_damage", "element_damage"]),
            st.integers(0, 5),
        ),
    ),
    "spirit-island": st.builds(
        lambda p, f, v: {"pieces": {p: {f: v}}},
        st.sampled_from(["explorer", "town", "city", "dahan"]),
        st.sampled_from(["health", "damage"]),
        st.integers(1, 4),
    ),
    "vulketh": st.builds(
        lambda k, v: {"values": {k: v}},
        st.sampled_from(["population_limit", "invader_members", "warlords_to_win"]),
        st.integers(3, 7),
    ),
    "cloudspire": st.builds(
        lambda k, v: {"values": {k: v}},
        st.sampled_from(["crit_damage", "hit_damage", "inventory_limit"]),
        st.integers(1, 4),
    ),
}


def _jobs(game: str) -> list[Job]:
    producers, search = QUICK[game]
    return side_jobs([game], producers, [search], long=False)


def _outcome(entries: tuple[Any, ...], jobs: list[Job], runner: Runner) -> Any:
    """The side's results as data, or the error it stops with (the same either way)."""
    try:
        results = side_results(entries, jobs, runner, main)
    except InvasionError as err:
        return ("error", type(err).__name__, str(err))
    return (results.cases, results.searches)


def _entries(tmp: Path, game: str, change: dict[str, Any]) -> tuple[Any, ...] | None:
    path = tmp / "override.json"
    path.write_text(json.dumps({"extends": "bundled", "game": game, **change}), encoding="utf-8")
    try:
        return load_side(str(path), "--data", [game])
    except InvasionError:
        return None  # a value the data's checks refuse: nothing to run


@pytest.mark.parametrize("game", list(QUICK))
def test_incremental_results_equal_a_full_recompute(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp(f"incremental-{game}")
    jobs = _jobs(game)
    cache = JobCache(folder / "cache")
    warm = Runner(workers=1, cache=cache)
    side_results((), jobs, warm, main)  # the cache filled on the bundled data
    reused, recomputed = [0], [0]

    @settings(
        max_examples=4,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(ONE_FIELD[game])
    def one_change(change: dict[str, Any]) -> None:
        entries = _entries(folder, game, change)
        if entries is None:
            return
        cold = Runner(workers=1, cache=JobCache(folder / "unused", enabled=False))
        full = _outcome(entries, jobs, cold)
        before, ran = len(cache.reused), len(cache.computed)
        incremental = _outcome(entries, jobs, warm)
        reused[0] += len(cache.reused) - before
        recomputed[0] += len(cache.computed) - ran
        assert incremental == full, change

    one_change()
    # the cache answered some jobs and some ran again: the equality above was not trivial
    assert reused[0] > 0 and recomputed[0] > 0, (reused, recomputed)


def test_a_one_value_change_reruns_only_the_jobs_that_read_it(tmp_path: Path) -> None:
    # two jobs that read the Barbarian's Health and two that never do (improvement: 7 cases, in
    # place of the walks' 120, which read none either: the same whole-job reuse, a sixth of the work)
    jobs = side_jobs(["stonespine"], ["heroes-abilities", "dice", "improvement", "gate"], [], long=False)
    cache = JobCache(tmp_path / "cache")
    runner = Runner(workers=1, cache=cache)
    side_results((), jobs, runner, main)
    assert len(cache.computed) == 4
    entries = _entries(tmp_path, "stonespine", {"heroes": {"Barbarian": {"health": 5}}})
    assert entries is not None
    cache.computed.clear()
    changed = side_results(entries, jobs, runner, main)
    # the dice and the improvement cases never read a hero's Health; the Barbarian's ability cases do
    assert sorted(cache.reused) == ["changes cases stonespine/dice", "changes cases stonespine/improvement"]
    assert sorted(cache.computed) == [
        "changes cases stonespine/gate",
        "changes cases stonespine/heroes-abilities",
    ]
    # and in those two jobs, only the cases that read it are built again (the rest kept)
    in_both = [cid for cid in changed.cases if cid.startswith(("stonespine/heroes/", "stonespine/gate/"))]
    assert 0 < changed.rebuilt < len(in_both), (changed.rebuilt, len(in_both))
    # minion damage is read where minions deal damage, not when the rules are made: only the
    # ability cases where a minion hurt a hero are built again (before, every case was)
    entries = _entries(tmp_path, "stonespine", {"values": {"minion_damage": 3}})
    assert entries is not None
    cache.computed.clear()
    changed = side_results(entries, jobs, runner, main)
    assert cache.computed == ["changes cases stonespine/heroes-abilities"]
    abilities = [cid for cid in changed.cases if cid.startswith("stonespine/heroes/")]
    assert 0 < changed.rebuilt < len(abilities) / 4, (changed.rebuilt, len(abilities))


def test_a_read_names_a_value_of_the_data_in_force(tmp_path: Path) -> None:
    from invasion_oracle.model.core.overrides import all_in_force_untracked, data_in_force

    health = Read("stonespine", (), "heroes/8/health")
    bundled = digest(health, all_in_force_untracked())
    for value, same in ((6, True), (5, False)):  # the bundled Barbarian has 6
        entries = _entries(tmp_path, "stonespine", {"heroes": {"Barbarian": {"health": value}}})
        assert entries is not None
        with data_in_force(entries):
            assert (digest(health, all_in_force_untracked()) == bundled) is same
            whole = Read("stonespine", None, "*")
            assert digest(whole, all_in_force_untracked()) != digest(whole, ())  # any override: another text


def test_many_reads_digested_together_are_each_reads_own_digest(tmp_path: Path) -> None:
    """A job's reads are digested together (the data built once per rulings, a record shared by
    the data under several rulings hashed once): each digest is the one of the read alone."""
    from invasion_oracle.model.core.overrides import all_in_force_untracked, data_in_force
    from invasion_oracle.model.core.reads import digests
    from invasion_oracle.reports.changes import ReadTable, recorded_job

    (job,) = side_jobs(["stonespine"], ["choose-hero"], [], long=False)
    table = ReadTable.stored(recorded_job((), "stonespine", job.work)["reads"])
    assert table is not None and len({read.choices for read in table.reads}) > 1  # several rulings
    missing = Read("stonespine", (), "heroes/99/health")  # a place not there: matches nothing
    reads = [*table.reads, missing]
    entries = _entries(tmp_path, "stonespine", {"heroes": {"Barbarian": {"health": 5}}})
    assert entries is not None
    found = []
    for data in ((), entries):
        with data_in_force(data):
            in_force = all_in_force_untracked()
            together = digests(reads, in_force)
            alone = [digest(read, in_force) for read in reads]
            assert together[:-1] == alone[:-1]
            assert together[-1] != alone[-1] and together[-1].startswith("never")  # each never its own
            found.append(together[:-1])
    # the Barbarian's Health (read under each rulings) is the one value that differs
    differ = {reads[k].path for k, (old, new) in enumerate(zip(*found, strict=True)) if old != new}
    assert differ == {"heroes/8/health"}


def test_a_memory_by_identity_is_emptied_before_each_recorded_job() -> None:
    """A guardian board's active abilities are remembered by the board's identity (frozen.by_identity,
    over an lru_cache): each job whose reads are recorded reads them again, or a later job would
    owe its answer to abilities it never read (and be reused after a designer changed them)."""
    from invasion_oracle.model.core import reads
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.stonespine import guardians
    from invasion_oracle.model.stonespine.data import default_data

    board = default_data(Rulings.defaults("stonespine")).guardians[0]
    unlocked: frozenset[str] = frozenset()
    for _ in range(2):
        with reads.recording() as made:
            guardians._active(board, unlocked)
        assert Read("stonespine", (), "guardians/0/abilities") in made


def test_a_tampered_entry_is_recomputed_not_trusted(tmp_path: Path) -> None:
    jobs = side_jobs(["stonespine"], ["gate"], [], long=False)
    cache = JobCache(tmp_path / "cache")
    runner = Runner(workers=1, cache=cache)
    first = side_results((), jobs, runner, main)
    (entry,) = (tmp_path / "cache").glob("*/*.json")
    stored = json.loads(entry.read_text(encoding="utf-8"))
    (variant,) = stored["result"]
    variant["reads"] = variant["parts"]["enum"]["reads"] = []  # no reads left: no digest matches
    for case in variant["parts"]["cases"]:
        case["reads"] = []
        case["result"]["expect"] = []
    entry.write_text(json.dumps(stored), encoding="utf-8")
    cache.computed.clear()
    assert side_results((), jobs, runner, main).cases == first.cases
    assert cache.computed == ["changes cases stonespine/gate"]


def test_long_searches_are_added_by_the_flag_and_refused_beside_a_selection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    names = {j.name for j in side_jobs(["cloudspire", "vulketh"], [], None, long=True)}
    assert {"survive", "spires", "race", "differ"} <= names
    assert not {"survive", "race"} & {
        j.name for j in side_jobs(["cloudspire", "vulketh"], [], None, long=False)
    }
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"extends": "bundled", "game": "cloudspire", "values": {"crit_damage": 3}}))
    ran = run_invasion(capsys, "changes", "--data", str(data), "--cases", "stacks", "--long-searches")
    assert ran.returncode == 2 and "--long-searches" in ran.stderr


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="Dask is not installed")
def test_the_scheduler_runs_the_jobs_and_is_checked_before_the_cache(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import LocalCluster

    import invasion_oracle.reports.batch as batch

    data = tmp_path / "d.json"
    data.write_text(
        json.dumps({"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 5}}})
    )
    words = ["changes", "--data", str(data), "--cases", "gate", "--json", "--cache-dir", str(tmp_path / "c")]
    sent: list[int] = []
    on_dask = batch._on_dask

    def counted(job: Any, arguments: Any, address: str, progress: Any) -> Any:
        sent.append(len(arguments))
        return on_dask(job, arguments, address, progress)

    monkeypatch.setattr(batch, "_on_dask", counted)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        ran = run_invasion(capsys, *words, "--scheduler", cluster.scheduler_address)
    assert ran.returncode == 0, ran.stderr
    assert sent == [1, 1]  # the bundled side's job, then the new side's: both on the cluster
    here = run_invasion(capsys, *words[:-2], "--no-cache", "--workers", "1")
    assert json.loads(here.stdout) == json.loads(ran.stdout)
    # without Dask, --scheduler is refused though every job is in the cache now (checked first)
    monkeypatch.setitem(sys.modules, "distributed", None)
    refused = run_invasion(capsys, *words, "--scheduler", "tcp://127.0.0.1:9")
    assert refused.returncode == 2 and "--scheduler" in refused.stderr and "Dask" in refused.stderr


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner)
        | st.dictionaries(st.sampled_from(["a", "$tuple", "$x", "\\u0024y", "b"]), inner, max_size=3)
        | st.dictionaries(st.integers(0, 2), inner, max_size=2)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(JSONISH)
def test_a_plain_entry_is_written_and_read_as_the_tagged_way_does(value: Any) -> None:
    """The cache's C-only way (plain JSON data) writes the very text of the tagged way and reads
    back the same value; anything needing a tag (tuple, float, ``$`` key, int key) takes the tagged way."""
    from invasion_oracle.reports.cache import _loads_plain, _plain_text, encode, loads_untyped

    head = {"format": 2, "key": "k", "job": "j", "code": "c"}
    tagged = json.dumps({**head, "result": encode(value)})
    plain = _plain_text(head, value)
    if plain is not None:
        assert plain == tagged
    assert _loads_plain(tagged.encode()) == loads_untyped(tagged.encode())
    assert loads_untyped(tagged.encode())["result"] == value


def test_plain_json_takes_the_c_way_and_a_tuple_or_a_float_the_tagged_one() -> None:
    from invasion_oracle.reports.cache import _plain_text

    head = {"format": 2}
    assert _plain_text(head, {"a": [1, "x", None, True, {"b": []}]}) is not None
    for tagged in ({"a": (1,)}, {"a": 1.5}, {"$a": 1}, {1: "a"}, ["$tuple"]):
        assert _plain_text(head, tagged) is None, tagged
