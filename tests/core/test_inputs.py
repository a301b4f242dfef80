"""Reading input: only regular files, within the size and depth limits, integers only, located errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import (
    InputLimits,
    _depth_exceeds,
    input_limits,
    read_json_file,
    set_input_limits,
)


def test_a_device_is_refused_before_it_is_read() -> None:
    with pytest.raises(MalformedInputError, match=r"/dev/zero:\$: not a regular file"):
        read_json_file("/dev/zero")


def test_a_fifo_without_a_writer_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(MalformedInputError, match="not a regular file"):
        read_json_file(fifo)


def test_a_folder_and_a_missing_file_are_named(tmp_path: Path) -> None:
    with pytest.raises(MalformedInputError, match="is a directory"):
        read_json_file(tmp_path)
    with pytest.raises(MalformedInputError, match="no such file"):
        read_json_file(tmp_path / "missing.json")
    under_a_file = tmp_path / "file.json"
    under_a_file.write_text("{}", encoding="utf-8")
    with pytest.raises(MalformedInputError, match="no such file"):
        read_json_file(under_a_file / "x.json")


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"a": "' + "x" * 2000 + '"}', encoding="utf-8")
    before = input_limits()
    try:
        set_input_limits(InputLimits(max_bytes=1000, max_depth=64))
        with pytest.raises(MalformedInputError, match="larger than the input limit of 1000 bytes"):
            read_json_file(path)
    finally:
        set_input_limits(before)


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deep_nesting_is_refused_with_its_place(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "]" * depth, encoding="utf-8")
    with pytest.raises(MalformedInputError, match="nested deeper than the limit of 64 levels"):
        read_json_file(path)


@pytest.mark.parametrize(
    ("text", "where"),
    [('{"year": 2.0}', r"\$.year: 2.0 is not an integer"), ('{"a": [1, 1e3]}', r"\$.a\[1\]: 1e3")],
)
def test_non_integer_numbers_are_refused_where_they_stand(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "n.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MalformedInputError, match=where):
        read_json_file(path)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"a": NaN}', "NaN is not valid JSON"),
        (b'{"a": 1', "invalid JSON at line 1"),
        (b"1" * 5000, "an integer with more than 4300 digits"),
    ],
)
def test_bad_bytes_are_malformed_input(tmp_path: Path, raw: bytes, reason: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    with pytest.raises(MalformedInputError, match=reason):
        read_json_file(path)


def test_a_bundled_example_reads_from_the_package() -> None:
    assert read_json_file("example:stonespine/default")["game"] == "stonespine"
    with pytest.raises(MalformedInputError, match="no such bundled example"):
        read_json_file("example:stonespine/nothing-here")
    with pytest.raises(MalformedInputError, match="name a bundled example"):
        read_json_file("example:../secrets")


# Strings that look like structure: brackets, quotes, escaped quotes and backslashes, UTF-8.
_TRICKY_TEXT = st.text(alphabet=st.sampled_from(list('"\\[]{}a é\n')), max_size=6)
_JSON = st.recursive(
    st.none() | st.integers(-9, 9) | _TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TRICKY_TEXT, inner, max_size=3),
    max_leaves=12,
)


def _nesting(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_nesting, value), default=0)
    return 0


@settings(max_examples=150, deadline=None)
@given(_JSON, st.booleans(), st.integers(0, 8))
def test_the_fast_depth_check_agrees_with_the_parsed_document(
    value: object, ascii_only: bool, limit: int
) -> None:
    """The byte-level nesting measure (no walk over the document) sees exactly the parsed depth."""
    raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    assert _depth_exceeds(raw, limit) == (_nesting(value) > limit)
