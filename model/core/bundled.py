"""Bundled example scenarios, read as package data so they work from any install.

The ``examples`` folder of the repository is also the ``examples`` package of the wheel; a
game's spec names its subfolder. Anywhere a command takes a file, ``example:GAME/NAME`` (with
or without ``.json``) names a bundled one, so the commands printed in reports reproduce from a
plain ``pip install`` as well as from a checkout:

>>> ref = ExampleRef.parse("example:stonespine/default")
>>> ref.relative, str(ref)
('stonespine/default.json', 'example:stonespine/default.json')

A game outside this project names its own package's folder as ``PACKAGE:FOLDER`` (in its spec's
``examples``), and its files as ``example:PACKAGE:FOLDER/NAME``. Only the ``examples`` package and
the packages registered games name (:func:`allow_package`) are ever looked in: a reference never
imports any other module (``example:os:x.json`` is refused before anything is imported).

>>> ExampleRef.parse("example:os:x.json").read_bytes()
Traceback (most recent call last):
...
invasion_oracle.model.core.errors.MalformedInputError: example:os:x.json:$: no game's examples are in package 'os'; name a bundled example as example:GAME/NAME

A game's name works where its folder's name differs (``example:spirit-island/...`` is the folder
``spirit_island``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.suggest import close_names, suggestion

PACKAGE = "invasion_oracle.examples"
PREFIX = "example:"
_PACKAGES = {PACKAGE}  # the packages an example reference may read from


def allow_package(folder: str) -> None:
    """Let references read a registered game's own examples (its spec's ``PACKAGE:FOLDER``)."""
    package, sep, _ = folder.rpartition(":")
    if sep and package:
        _PACKAGES.add(package)


@dataclass(frozen=True, slots=True)
class ExampleRef:
    """A bundled file: its path inside a package (``examples`` unless a game names its own)."""

    relative: str
    package: str = PACKAGE

    @staticmethod
    def parse(text: str) -> ExampleRef:
        package, sep, name = text.removeprefix(PREFIX).rpartition(":")
        name = name.strip("/")
        parts = name.split("/")
        if not name or any(p in ("", ".", "..") for p in parts) or (sep and not package):
            raise MalformedInputError(text, "$", "name a bundled example as example:GAME/NAME")
        if not name.endswith(".json"):
            name += ".json"
        return ExampleRef(name, package or PACKAGE)

    def __str__(self) -> str:
        where = "" if self.package == PACKAGE else f"{self.package}:"
        return f"{PREFIX}{where}{self.relative}"

    def resource(self) -> Traversable:
        if self.package not in _PACKAGES:  # never import a module a user names
            raise MalformedInputError(
                str(self),
                "$",
                f"no game's examples are in package {self.package!r}; name a bundled example as example:GAME/NAME",
            )
        try:
            node = resources.files(self.package)
        except ModuleNotFoundError:
            raise MalformedInputError(str(self), "$", f"no package {self.package!r} holds examples") from None
        parts = self.relative.split("/")
        if len(parts) > 1 and not node.joinpath(parts[0]).is_dir():
            folder = parts[0].replace("-", "_")  # a game's name for its folder (spirit-island)
            if node.joinpath(folder).is_dir():
                parts[0] = folder
        for part in parts:
            node = node.joinpath(part)
        return node

    def read_bytes(self) -> bytes:
        node = self.resource()
        if not node.is_file():
            raise MalformedInputError(
                str(self), "$", f"no such bundled example{self._hint()}; list them with `invasion examples`"
            )
        return node.read_bytes()

    def _hint(self) -> str:
        """The close bundled names, ``(did you mean 'example:stonespine/placement'?)``, or ``""``.

        >>> ExampleRef.parse("example:stonespine/placment")._hint()
        " (did you mean 'example:stonespine/placement'?)"
        """
        where = "" if self.package == PACKAGE else f"{self.package}:"
        known = [name.removesuffix(".json") for name in _all_names(self.package)]
        folder, _, rest = self.relative.removesuffix(".json").rpartition("/")
        folder = folder.replace("-", "_")  # a game's name for its folder (spirit-island)
        inside = [name.removeprefix(f"{folder}/") for name in known if name.startswith(f"{folder}/")]
        if folder and inside:  # a known folder: only the name inside it is compared
            close = [f"{folder}/{name}" for name in close_names(rest, inside)]
        else:
            close = list(close_names(f"{folder}/{rest}" if folder else rest, known))
        return suggestion([f"{PREFIX}{where}{name}" for name in close])


def _all_names(package: str) -> list[str]:
    """Every bundled ``.json`` of ``package``, as paths inside it (for suggestions)."""
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        return []
    found: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir() and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.is_file() and child.name.endswith(".json"):
                found.append(prefix + child.name)

    walk(root, "")
    return sorted(found)


def is_example(path: str) -> bool:
    return path.startswith(PREFIX)


def examples(folder: str, *, recursive: bool = True) -> tuple[ExampleRef, ...]:
    """Every bundled ``.json`` under ``folder`` (a game's examples, ``[PACKAGE:]PATH``), sorted."""
    package, _, folder = folder.rpartition(":")
    package = package or PACKAGE
    found: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir() and recursive and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.is_file() and child.name.endswith(".json"):
                found.append(prefix + child.name)

    root = resources.files(package).joinpath(folder)
    if root.is_dir():
        walk(root, f"{folder}/")
    return tuple(ExampleRef(name, package) for name in sorted(found))
