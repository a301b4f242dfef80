"""The result cache of the report's and the ambiguity analysis's batch jobs (``--no-cache``,
``--cache-dir DIR``).

A job's result is stored as plain JSON (never pickle) under a key of everything it depends on:

* the job (module and function name) and its arguments, as canonical JSON;
* the **code and data version** of the game it belongs to: a hash of every source and data file
  of the shared packages (``model/core``, ``model/registry.py``, and the top-level modules of
  ``properties``, ``solver`` and ``reports`` with ``reports/ambiguity``) and of that game's own
  folders (``model/<pkg>``, ``solver/<pkg>``, ``properties/<pkg>``, ``reports/<pkg>``,
  ``examples/<pkg>``), so changing one game's rulings or data reruns only that game's jobs;
* the data in force, when a command runs under ``--data`` (:func:`data_key`): the canonical text
  of the data file of the job's game, so a result computed under other data is never reused;
* the cache format version.

The search budget and the scenario are arguments, so they are in the key. Jobs with a wall-clock
deadline (``--time-limit``) are never cached: their answer depends on the machine's speed.

**An entry is data, never code.** A result is rebuilt from its JSON through the type the job is
declared to answer (:func:`invasion_oracle.reports.ambiguity.jobs.result_type`): every value is
checked against that type's annotations, and a ``$dc`` / ``$enum`` tag may name only one of the
project's own answer types reachable from it (:func:`answer_table`, keyed by class name). Nothing
is imported, looked up by a name found in an entry, or called but the constructors of those
frozen dataclasses. Before that, the entry must be a regular file inside the cache folder (no
symbolic link, device or FIFO; opened without blocking), at most :data:`ENTRY_LIMIT` bytes, and
name the key, job, format and code version it is read for. Anything else is ignored and the job
recomputed, with one warning line per command (:attr:`JobCache.ignored` counts them).

A result is stored only when it reads back equal to itself (:func:`decode` of :func:`encode`), so
the cache cannot change an answer it computed; entries are written atomically (a temporary file
renamed into place).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import stat
import sys
import tempfile
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from invasion_oracle.model.core.arguments import check_name_length
from invasion_oracle.model.core.errors import InvasionError, MalformedInputError
from invasion_oracle.model.core.jsonio import read_regular_file

FORMAT = 2
ENTRY_LIMIT = 16 * 1024 * 1024
"""The largest entry read back (real ones are a few kB; a bigger file is not the cache's)."""
ROOTS = ("model", "properties", "solver", "reports", "examples")
SUFFIXES = (".py", ".json", ".txt", ".md")
ENTRY_FIELDS = ("format", "key", "job", "code", "result")


def default_dir() -> Path:
    """``$INVASION_CACHE_DIR``, else ``$XDG_CACHE_HOME/invasion-oracle``, else ``~/.cache/invasion-oracle``."""
    if os.environ.get("INVASION_CACHE_DIR"):
        return Path(os.environ["INVASION_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "invasion-oracle"


# -- the answer types an entry may name --------------------------------------------------------


class Unencodable(TypeError):
    """A value the cache cannot store as JSON (the job simply is not cached)."""


class BadEntry(ValueError):
    """A cache entry that is not a well-formed answer of the expected type (it is recomputed)."""


def _is_answer_type(kind: Any) -> bool:
    return isinstance(kind, type) and (
        (dataclasses.is_dataclass(kind) or issubclass(kind, enum.Enum))
        and kind.__module__.startswith("invasion_oracle.")
    )


@cache
def _hints(kind: Any) -> dict[str, Any]:
    return typing.get_type_hints(kind)


@cache
def answer_table(expected: Any) -> dict[str, type]:
    """The project's own dataclasses and enums a result of type ``expected`` may hold, by class
    name: ``expected`` itself and every type its fields' annotations name, transitively. This
    table is the only way from a name in an entry to a class."""
    table: dict[str, type] = {}
    todo = [expected]
    while todo:
        hint: Any = todo.pop()
        if _is_answer_type(hint):
            name = hint.__qualname__
            if table.get(name, hint) is not hint:
                raise TypeError(f"two answer types named {name}: {table[name]} and {hint}")
            if name in table:
                continue
            table[name] = hint
            if not issubclass(hint, enum.Enum):
                todo += list(_hints(hint).values())
        else:
            todo += [a for a in typing.get_args(hint) if a is not Ellipsis]
    return table


# -- a structured JSON encoding of job results -------------------------------------------------


def encode(value: Any, expected: Any = Any) -> Any:
    """``value`` as JSON data: dataclasses, enums, tuples and non-string-keyed dicts tagged, a
    dataclass or enum by its name in :func:`answer_table` of ``expected`` (another is
    :class:`Unencodable`)."""
    table = answer_table(expected)
    return _encode(value, lambda kind: kind.__qualname__ if table.get(kind.__qualname__) is kind else None)


def _key_data(value: Any) -> Any:
    """``value`` as JSON data for a cache key (hashed, never read back): classes by full name."""
    return _encode(value, lambda kind: f"{kind.__module__}:{kind.__qualname__}")


def _encode(value: Any, name_of: Callable[[type], str | None]) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, enum.Enum) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        name = name_of(type(value))
        if name is None:
            raise Unencodable(f"{type(value).__module__}.{type(value).__qualname__}")
        if isinstance(value, enum.Enum):
            return {"$enum": name, "value": _encode(value.value, name_of)}
        fields = {
            f.name: _encode(getattr(value, f.name), name_of) for f in dataclasses.fields(value) if f.init
        }
        return {"$dc": name, "fields": fields}
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v, name_of) for v in value]}
    if isinstance(value, list):
        return [_encode(v, name_of) for v in value]
    if isinstance(value, frozenset):
        return {"$frozenset": sorted((_encode(v, name_of) for v in value), key=_sort_key)}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v, name_of) for k, v in value.items()}
        return {"$dict": [[_encode(k, name_of), _encode(v, name_of)] for k, v in value.items()]}
    raise Unencodable(type(value).__name__)


def _sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def decode(data: Any, expected: Any = Any) -> Any:
    """JSON data rebuilt as a value of type ``expected`` (annotations, as ``typing`` spells them),
    checked all the way down; :class:`BadEntry` naming the place when it is not one."""
    return _Decoder(answer_table(expected)).value(data, expected, "$")


def loads_untyped(raw: bytes) -> Any:
    """JSON text parsed as :func:`decode` with ``Any`` rebuilds it: tagged floats, tuples,
    frozensets and dicts rebuilt as each object is parsed, never a class (``$dc``, ``$enum``) and
    no bare fraction; :class:`BadEntry` otherwise. The same value as ``decode(json.loads(raw))``,
    in one pass that stays in the C parser for everything but the objects."""
    try:
        return json.loads(raw.decode("utf-8"), object_hook=_untyped_object, parse_float=_bare_fraction)
    except (UnicodeDecodeError, ValueError) as err:
        if isinstance(err, BadEntry):
            raise
        raise BadEntry("not JSON (a truncated or corrupt entry)") from None


def _bare_fraction(text: str) -> Any:
    raise BadEntry("$: a bare number with a fraction (the cache writes them tagged)")


def _untyped_object(data: dict[str, Any]) -> Any:
    """One parsed object (its members rebuilt already), as :meth:`_Decoder.untyped` rebuilds it."""
    tags = [k for k in data if k.startswith("$")]
    if not tags:
        return data
    tag = tags[0]
    if tag in ("$dc", "$enum"):
        raise BadEntry(f"$: {tag} {data.get(tag)!r} where the answer type declares plain data")
    if tag not in ("$float", "$tuple", "$frozenset", "$dict"):
        raise BadEntry(f"$: an unknown tag {tag!r}")
    if list(data) != [tag]:
        raise BadEntry(f"$: expected {{{tag!r}: ...}}")
    body = data[tag]
    if tag == "$float":
        if not isinstance(body, str) or len(body) > 40:
            raise BadEntry("$: a float must be written as its repr")
        try:
            return float(body)
        except ValueError:
            raise BadEntry(f"$: {body!r} is not a float") from None
    if not isinstance(body, list):
        raise BadEntry(f"$: expected {tag} with a list")
    try:
        if tag == "$tuple":
            return tuple(body)
        if tag == "$frozenset":
            return frozenset(body)
        if not all(isinstance(p, list) and len(p) == 2 for p in body):
            raise BadEntry("$: $dict holds [key, value] pairs")
        return {k: v for k, v in body}
    except TypeError as err:  # an unhashable member of a set or key of a dict
        raise BadEntry(f"$: {err}") from None


@dataclass(frozen=True, slots=True)
class _Decoder:
    table: dict[str, type]

    def value(self, data: Any, hint: Any, where: str) -> Any:
        if hint is Any or hint is object:
            return self.untyped(data, where)
        if hint is None or hint is type(None):
            return _expect(data is None, None, where, "null")
        origin = typing.get_origin(hint)
        if origin is typing.Union or origin is types.UnionType:
            return self.union(data, hint, where)
        if hint is bool:
            return _expect(isinstance(data, bool), data, where, "true or false")
        if hint is int:
            return _expect(type(data) is int, data, where, "an integer")
        if hint is str:
            return _expect(isinstance(data, str), data, where, "a string")
        if hint is float:
            if type(data) is int:  # a whole number given where a float is declared stays an int
                return data
            return self.tagged(data, "$float", where)
        if origin is tuple:
            return self.tuple_of(data, hint, where)
        if origin is list:
            (item,) = typing.get_args(hint) or (Any,)
            _expect(isinstance(data, list), None, where, "a list")
            return [self.value(v, item, f"{where}[{i}]") for i, v in enumerate(data)]
        if origin is frozenset:
            (item,) = typing.get_args(hint) or (Any,)
            items = self.tagged(data, "$frozenset", where)
            return frozenset(self.value(v, item, f"{where}[{i}]") for i, v in enumerate(items))
        if origin is dict:
            key_hint, value_hint = typing.get_args(hint) or (Any, Any)
            pairs = self.pairs(data, where)
            return {
                self.value(k, key_hint, f"{where}.<key>"): self.value(v, value_hint, f"{where}[{k!r}]")
                for k, v in pairs
            }
        if _is_answer_type(hint):
            return self.instance(data, hint, where)
        raise BadEntry(f"{where}: the cache cannot check a value of type {hint}")

    def union(self, data: Any, hint: Any, where: str) -> Any:
        """The first of the union's types ``data`` is a value of."""
        reasons = []
        for option in typing.get_args(hint):
            try:
                return self.value(data, option, where)
            except BadEntry as err:
                reasons.append(str(err))
        raise BadEntry(reasons[0] if len(reasons) == 1 else f"{where}: none of {hint}")

    def tuple_of(self, data: Any, hint: Any, where: str) -> tuple[Any, ...]:
        """A tagged tuple: ``tuple[X, ...]`` or one item for each declared type."""
        items = self.tagged(data, "$tuple", where)
        arguments = typing.get_args(hint)
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(self.value(v, arguments[0], f"{where}[{i}]") for i, v in enumerate(items))
        if len(items) != len(arguments):
            raise BadEntry(f"{where}: expected {len(arguments)} items, found {len(items)}")
        return tuple(
            self.value(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(items, arguments, strict=True))
        )

    def untyped(self, data: Any, where: str) -> Any:
        """A value whose type is not declared (``Any``): JSON data, tagged floats and containers,
        never a class (the answer types declare where their own types go)."""
        if data is None or isinstance(data, bool | int | str):
            return data
        if isinstance(data, list):
            return [self.untyped(v, f"{where}[{i}]") for i, v in enumerate(data)]
        if not isinstance(data, dict):
            raise BadEntry(f"{where}: a bare number with a fraction (the cache writes them tagged)")
        tags = [k for k in data if k.startswith("$")]
        if not tags:
            return {k: self.untyped(v, f"{where}.{k}") for k, v in data.items()}
        tag = tags[0]
        if tag == "$float":
            return self.tagged(data, "$float", where)
        if tag == "$tuple":
            return tuple(
                self.untyped(v, f"{where}[{i}]") for i, v in enumerate(self.tagged(data, tag, where))
            )
        if tag == "$frozenset":
            items = self.tagged(data, tag, where)
            return frozenset(self.untyped(v, f"{where}[{i}]") for i, v in enumerate(items))
        if tag == "$dict":
            return {
                self.untyped(k, where): self.untyped(v, f"{where}[{k!r}]") for k, v in self.pairs(data, where)
            }
        if tag in ("$dc", "$enum"):  # the declared type says plain data here: no class at all
            raise BadEntry(f"{where}: {tag} {data.get(tag)!r} where the answer type declares plain data")
        raise BadEntry(f"{where}: an unknown tag {tag!r}")

    def tagged(self, data: Any, tag: str, where: str) -> Any:
        """The body of ``{tag: body}`` (the only key), checked for the tag's shape."""
        if not isinstance(data, dict) or list(data) != [tag]:
            raise BadEntry(f"{where}: expected {{{tag!r}: ...}}")
        body = data[tag]
        if tag == "$float":
            if not isinstance(body, str) or len(body) > 40:
                raise BadEntry(f"{where}: a float must be written as its repr")
            try:
                return float(body)
            except ValueError:
                raise BadEntry(f"{where}: {body!r} is not a float") from None
        _expect(isinstance(body, list), None, where, f"{tag} with a list")
        return body

    def pairs(self, data: Any, where: str) -> list[tuple[Any, Any]]:
        if isinstance(data, dict) and "$dict" in data:
            pairs = self.tagged(data, "$dict", where)
            if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
                raise BadEntry(f"{where}: $dict holds [key, value] pairs")
            return [(k, v) for k, v in pairs]
        if not isinstance(data, dict) or any(k.startswith("$") for k in data):
            raise BadEntry(f"{where}: expected an object")
        return list(data.items())

    def instance(self, data: Any, kind: Any, where: str) -> Any:
        """One of the answer types, built by its own constructor from checked field values."""
        name = kind.__qualname__
        known: Any = self.table.get(name)
        if known is not kind:
            raise BadEntry(f"{where}: {name} is not one of the answer types of this job")
        if issubclass(kind, enum.Enum):
            if not isinstance(data, dict) or set(data) != {"$enum", "value"} or data["$enum"] != name:
                raise BadEntry(f"{where}: expected a {name}")
            try:
                return kind(self.untyped(data["value"], f"{where}.value"))
            except ValueError:
                raise BadEntry(f"{where}: not a {name}: {data['value']!r}") from None
        if not isinstance(data, dict) or set(data) != {"$dc", "fields"} or data["$dc"] != name:
            raise BadEntry(f"{where}: expected a {name}")
        given = data["fields"]
        wanted = {f.name for f in dataclasses.fields(kind) if f.init}
        if not isinstance(given, dict) or set(given) != wanted:
            raise BadEntry(f"{where}: the fields of a {name} are {sorted(wanted)}")
        hints = _hints(kind)
        values = {k: self.value(v, hints[k], f"{where}.{k}") for k, v in given.items()}
        try:
            return kind(**values)
        except (TypeError, ValueError, InvasionError) as err:  # the class's own checks (__post_init__)
            raise BadEntry(f"{where}: not a valid {name}: {err}") from None


def _expect(ok: bool, value: Any, where: str, what: str) -> Any:
    if not ok:
        raise BadEntry(f"{where}: expected {what}")
    return value


# -- versions ----------------------------------------------------------------------------------


def _root() -> Path:
    return Path(__file__).resolve().parent.parent


def _files(folder: Path, recursive: bool) -> list[Path]:
    if not folder.is_dir():
        return []
    found = folder.rglob("*") if recursive else folder.iterdir()
    return [p for p in found if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts]


def _games() -> tuple[str, ...]:
    from invasion_oracle.model import registry

    registry.load_all()
    return tuple(registry.package_of(name) for name in registry.names())


@cache
def version(package: str = "") -> str:
    """The hash of the shared code and, with ``package`` (``vulketh``), of that game's code and data."""
    root = _root()
    files: list[Path] = [root / "model" / "registry.py", *_files(root / "model" / "core", True)]
    for top in ("properties", "solver", "reports"):
        files += _files(root / top, False)
    files += _files(root / "reports" / "ambiguity", True)
    if package:
        files += [p for top in ROOTS for p in _files(root / top / package, True)]
    digest = hashlib.sha256(f"format {FORMAT}\n".encode())
    for path in sorted(set(files)):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# -- the cache ---------------------------------------------------------------------------------


@dataclass(slots=True)
class JobCache:
    """Results by key in ``folder`` (one JSON file each); ``enabled=False`` stores nothing."""

    folder: Path
    enabled: bool = True
    reused: list[str] = field(default_factory=list)  # labels of the jobs answered from the cache
    computed: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # "entry: reason" of each bad entry met

    def check_folder(self, source: str) -> None:
        """A :class:`MalformedInputError` (``source`` names where the folder came from, such as
        ``--cache-dir``) when the folder exists but is not a readable folder; a missing one is
        made when the first result is stored."""
        if not self.enabled:
            return
        where = str(self.folder)
        check_name_length(where, source)
        try:
            info = os.stat(self.folder)
        except FileNotFoundError:
            return
        except ValueError as err:  # a NUL in the name
            raise MalformedInputError(source, repr(where), f"not a usable path: {err}") from None
        except NotADirectoryError:
            raise MalformedInputError(source, where, "a part of the path is a file, not a folder") from None
        except OSError as err:
            raise MalformedInputError(
                source, where, f"cannot read the cache folder: {err.strerror}"
            ) from None
        if not stat.S_ISDIR(info.st_mode):
            what = "is a file" if stat.S_ISREG(info.st_mode) else "is a device, FIFO or socket"
            raise MalformedInputError(
                source, where, f"{what}, not a folder; give the cache folder, or --no-cache"
            )
        try:
            os.close(os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY))
        except OSError as err:
            raise MalformedInputError(
                source, where, f"cannot read the cache folder: {err.strerror}"
            ) from None
        if not os.access(self.folder, os.R_OK | os.X_OK):
            raise MalformedInputError(source, where, "cannot read the cache folder: Permission denied")

    def key(
        self, job: Callable[..., Any], arguments: tuple[Any, ...], package: str, data: tuple[Any, ...] = ()
    ) -> str | None:
        """``data``: the data in force the job reads (:func:`data_key`); empty for the bundled data,
        so keys of runs on the bundled data are as before."""
        try:
            parts = [job.__module__, job.__qualname__, _key_data(arguments), version(package)]
            what = json.dumps(
                [*parts, list(data)] if data else parts,
                sort_keys=True,
                separators=(",", ":"),
            )
        except Unencodable:
            return None
        return hashlib.sha256(what.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str, label: str, package: str, expected: Any) -> tuple[bool, Any]:
        """``(True, result)`` from the cache, ``(False, None)`` when absent or not a good entry
        of job ``label`` answering ``expected`` (then one warning line, the first time)."""
        if not self.enabled or not _is_key(key):
            return False, None
        try:
            raw = self._read(key)
            if raw is None:
                return False, None
            if expected is Any:  # plain data: rebuilt while parsed (the same checks, in one pass)
                entry = _loads_plain(raw)
                _check_entry(entry, key, label, package)
                return True, entry["result"]
            try:
                entry = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise BadEntry("not JSON (a truncated or corrupt entry)") from None
            _check_entry(entry, key, label, package)
            return True, decode(entry["result"], expected)
        except (BadEntry, MalformedInputError, RecursionError, MemoryError) as err:
            reason = err.reason if isinstance(err, MalformedInputError) else str(err) or type(err).__name__
            self._ignore(f"{key[:2]}/{key}.json", reason)
            return False, None

    def _read(self, key: str) -> bytes | None:
        """The entry's bytes (None when there is none): a regular file in a real subfolder of the
        cache folder, read through the guard every input file goes through."""
        name = f"{key}.json"
        try:
            shard = os.open(self.folder / key[:2], os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise BadEntry(f"its folder {key[:2]} is not a folder of the cache ({err.strerror})") from None
        try:
            try:
                os.stat(name, dir_fd=shard, follow_symlinks=False)
            except FileNotFoundError:
                return None
            return read_regular_file(
                name, name, ENTRY_LIMIT, follow_symlinks=False, dir_fd=shard, advice=False
            )
        finally:
            os.close(shard)

    def _ignore(self, entry: str, reason: str) -> None:
        self.ignored.append(f"{entry}: {reason}")
        if len(self.ignored) == 1:  # one line per command: a restored cache may hold many
            print(
                f"invasion: warning: cache {self.folder}: ignored a bad entry ({entry}: {reason}); "
                "its job is run again (the summary counts any others)",
                file=sys.stderr,
            )

    def put(self, key: str, label: str, package: str, expected: Any, result: Any) -> None:
        if not self.enabled or not _is_key(key):
            return
        head = {"format": FORMAT, "key": key, "job": label, "code": version(package)}
        try:
            text = _plain_text(head, result) if expected is Any else None
            if text is None:
                text = json.dumps({**head, "result": encode(result, expected)})  # key order kept: it is shown
                if expected is Any:
                    back = loads_untyped(text.encode("utf-8"))["result"]
                else:
                    back = decode(json.loads(text)["result"], expected)
                if back != result:  # only what reads back the same
                    return
        except (Unencodable, BadEntry, TypeError, ValueError, RecursionError):
            return  # not storable: the job is simply recomputed next time
        if len(text.encode("utf-8")) > ENTRY_LIMIT:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not stat.S_ISDIR(os.lstat(path.parent).st_mode):  # never write through a link
                return
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except OSError:  # an unwritable cache folder never fails the command
            return


def _plain_text(head: dict[str, Any], result: Any) -> str | None:
    """The entry's text when ``result`` is plain JSON data (objects with string keys, lists,
    strings, integers, booleans, null: what :func:`encode` leaves as it is, so the text is the
    one the tagged way writes), checked by reading it back equal; None for anything else (a
    tuple, a float, a key that is not a string, a ``$`` that could read as a tag), which takes
    the tagged way. ``json`` in C both ways: a changes job's entry is a few hundred kB."""
    try:
        text = json.dumps({**head, "result": result}, allow_nan=False)
    except (TypeError, ValueError):
        return None
    if '"$' in text or "\\u0024" in text:
        return None
    try:
        back = json.loads(text, parse_float=_bare_fraction)["result"]
    except BadEntry:
        return None
    return text if back == result else None


def _loads_plain(raw: bytes) -> Any:
    """:func:`loads_untyped`, in C alone when the text holds no ``$`` that could start a tag
    (the same value then: only an object with a ``$`` key is rebuilt)."""
    if b'"$' in raw or b"\\u0024" in raw:
        return loads_untyped(raw)
    try:
        return json.loads(raw.decode("utf-8"), parse_float=_bare_fraction)
    except (UnicodeDecodeError, ValueError) as err:
        if isinstance(err, BadEntry):
            raise
        raise BadEntry("not JSON (a truncated or corrupt entry)") from None


def _is_key(key: str) -> bool:
    return len(key) == 64 and all(c in "0123456789abcdef" for c in key)


def _check_entry(entry: Any, key: str, label: str, package: str) -> None:
    if not isinstance(entry, dict) or sorted(entry) != sorted(ENTRY_FIELDS):
        raise BadEntry(f"not an entry: expected the fields {', '.join(ENTRY_FIELDS)}")
    if entry["format"] != FORMAT:
        raise BadEntry(f"format {entry['format']!r}, expected {FORMAT}")
    if entry["key"] != key:
        raise BadEntry("its key is not its file name")
    if entry["job"] != label:
        raise BadEntry(f"the result of {entry['job']!r}, expected {label!r}")
    if entry["code"] != version(package):
        raise BadEntry("computed by another version of the code or data")


def data_key(in_force: tuple[Any, ...], package: str) -> tuple[Any, ...]:
    """The part of a job's key that the data in force (``--data``) makes: the canonical text of
    each game's data the job can read (its own game's; every game's for a job of no one game)."""
    return tuple(
        [entry.game, entry.text]
        for entry in sorted(in_force, key=lambda e: e.game)
        if not package or package_of_game(entry.game) == package
    )


def package_of_game(game: str) -> str:
    from invasion_oracle.model import registry

    registry.load_all()
    return registry.package_of(game) if game in registry.names() else ""
