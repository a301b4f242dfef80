"""Bundled example scenarios, read as package data so they work from any install.

The ``examples`` folder of the repository is also the ``examples`` package of the wheel; a
game's spec names its subfolder. Anywhere a command takes a file, ``example:GAME/NAME`` (with
or without ``.json``) names a bundled one, so the commands printed in reports reproduce from a
plain ``pip install`` as well as from a checkout:

>>> ref = ExampleRef.parse("example:stonespine/default")
>>> ref.relative, str(ref)
('stonespine/default.json', 'example:stonespine/default.json')
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
    """A bundled file: its path inside the ``examples`` package."""

    relative: str

    @staticmethod
    def parse(text: str) -> ExampleRef:
        name = text.removeprefix(PREFIX).strip("/")
        parts = name.split("/")
        if not name or any(p in ("", ".", "..") for p in parts):
            raise MalformedInputError(text, "$", "name a bundled example as example:GAME/NAME")
        if not name.endswith(".json"):
            name += ".json"
        return ExampleRef(name)

    def __str__(self) -> str:
        return PREFIX + self.relative

    def resource(self) -> Traversable:
        node = resources.files(PACKAGE)
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
    """Every bundled ``.json`` under ``folder`` (a game's examples), sorted by path."""
    found: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir() and recursive and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.is_file() and child.name.endswith(".json"):
                found.append(prefix + child.name)

    root = resources.files(PACKAGE).joinpath(folder)
    if root.is_dir():
        walk(root, f"{folder}/")
    return tuple(ExampleRef(name) for name in sorted(found))
