"""The result cache of the report's and the ambiguity analysis's batch jobs (``--no-cache``,
``--cache-dir DIR``).

A job's result is stored as JSON (never pickle) under a key of everything it depends on:

* the job (module and function name) and its arguments, as canonical JSON;
* the **code and data version** of the game it belongs to: a hash of every source and data file
  of the shared packages (``model/core``, ``model/registry.py``, and the top-level modules of
  ``properties``, ``solver`` and ``reports`` with ``reports/ambiguity``) and of that game's own
  folders (``model/<pkg>``, ``solver/<pkg>``, ``properties/<pkg>``, ``reports/<pkg>``,
  ``examples/<pkg>``), so changing one game's rulings or data reruns only that game's jobs;
* the cache format version.

The search budget and the scenario are arguments, so they are in the key. Jobs with a wall-clock
deadline (``--time-limit``) are never cached: their answer depends on the machine's speed.

A result is stored only when it reads back equal to itself (:func:`decode` of :func:`encode`), so
the cache cannot change an answer; a corrupt or unreadable entry is ignored and recomputed.
Entries are written atomically (a temporary file renamed into place).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = 1
ROOTS = ("model", "properties", "solver", "reports", "examples")
ALLOWED = tuple(
    f"invasion_oracle.{top}." for top in ("model", "properties", "solver", "reports")
)  # classes a cache entry may build
SUFFIXES = (".py", ".json", ".txt", ".md")


def default_dir() -> Path:
    """``$INVASION_CACHE_DIR``, else ``$XDG_CACHE_HOME/invasion-oracle``, else ``~/.cache/invasion-oracle``."""
    if os.environ.get("INVASION_CACHE_DIR"):
        return Path(os.environ["INVASION_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "invasion-oracle"


# -- a structured JSON encoding of job results -------------------------------------------------


class Unencodable(TypeError):
    """A value the cache cannot store as JSON (the job simply is not cached)."""


def encode(value: Any) -> Any:
    """``value`` as JSON data: dataclasses, enums, tuples and non-string-keyed dicts tagged."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, enum.Enum):
        return {"$enum": _name(type(value)), "value": encode(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        return {"$dc": _name(type(value)), "fields": fields}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return {"$frozenset": sorted((encode(v) for v in value), key=_sort_key)}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise Unencodable(type(value).__name__)


def decode(data: Any) -> Any:
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "$float" in data:
        return float(data["$float"])
    if "$tuple" in data:
        return tuple(decode(v) for v in data["$tuple"])
    if "$frozenset" in data:
        return frozenset(decode(v) for v in data["$frozenset"])
    if "$dict" in data:
        return {decode(k): decode(v) for k, v in data["$dict"]}
    if "$enum" in data:
        return _class(data["$enum"])(decode(data["value"]))
    if "$dc" in data:
        return _class(data["$dc"])(**{k: decode(v) for k, v in data["fields"].items()})
    return {k: decode(v) for k, v in data.items()}


def _sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _name(kind: type) -> str:
    if not kind.__module__.startswith(ALLOWED):
        raise Unencodable(f"{kind.__module__}.{kind.__qualname__}")
    return f"{kind.__module__}:{kind.__qualname__}"


def _class(name: str) -> Any:
    module, _, qualname = name.partition(":")
    if not module.startswith(ALLOWED):
        raise ValueError(f"cache entry names a foreign class {name}")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


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

    def key(self, job: Callable[..., Any], arguments: tuple[Any, ...], package: str) -> str | None:
        try:
            what = json.dumps(
                [job.__module__, job.__qualname__, encode(arguments), version(package)],
                sort_keys=True,
                separators=(",", ":"),
            )
        except Unencodable:
            return None
        return hashlib.sha256(what.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[bool, Any]:
        """``(True, result)`` from the cache, ``(False, None)`` when absent or unreadable."""
        if not self.enabled:
            return False, None
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            if entry.get("key") != key:
                return False, None
            return True, decode(entry["result"])
        except Exception:  # a missing, corrupt or stale entry is recomputed
            return False, None

    def put(self, key: str, label: str, result: Any) -> None:
        if not self.enabled:
            return
        try:
            data = encode(result)
            if decode(data) != result:  # only what reads back as the same answer is stored
                return
            text = json.dumps({"key": key, "job": label, "result": data})  # key order kept: it is shown
        except Exception:  # not storable: the job is simply recomputed next time
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except OSError:  # an unwritable cache folder never fails the command
            return


def package_of_game(game: str) -> str:
    from invasion_oracle.model import registry

    registry.load_all()
    return registry.package_of(game) if game in registry.names() else ""
