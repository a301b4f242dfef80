"""Bundled example scenarios, read as package data so they work from any install.

The ``examples`` folder of the repository is also the ``examples`` package of the wheel; a
game's spec names its subfolder. Anywhere a command takes a file, ``example:GAME/NAME`` (with
or without ``.json``) names a bundled one, so the commands printed in reports reproduce from a
plain ``pip install`` as well as from a checkout:

>>> ref = ExampleRef.parse("example:stonespine/default")
>>> ref.relative, str(ref)
('stonespine/default.json', 'example:stonespine/default.json')

A game outside this project names its own package's folder as ``PACKAGE:FOLDER`` (in its spec's
``examples``), and its files as ``example:PACKAGE:FOLDER/NAME``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable

from model.core.errors import MalformedInputError

PACKAGE = "examples"
PREFIX = "example:"


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
        try:
            node = resources.files(self.package)
        except ModuleNotFoundError:
            raise MalformedInputError(str(self), "$", f"no package {self.package!r} holds examples") from None
        for part in self.relative.split("/"):
            node = node.joinpath(part)
        return node

    def read_bytes(self) -> bytes:
        node = self.resource()
        if not node.is_file():
            raise MalformedInputError(
                str(self), "$", "no such bundled example; list them with `invasion examples`"
            )
        return node.read_bytes()


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
