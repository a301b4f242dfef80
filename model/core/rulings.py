"""Named rulings: every point the rulebooks leave open, with its readings and a default.

A :class:`Ruling` records the question, where it comes from (the rulebook's title and the section heading),
the possible readings, the default reading and why. Games register their rulings in
:data:`REGISTRY` when their package is imported. The oracle reads the chosen readings from a
:class:`Rulings` value; the command line builds one from ``--ruling ID=READING``.

This is the register of open points in the manner of DATC (the Diplomacy Adjudicator Test
Cases): each issue with its readings and a preferred one. What is *observed* about a ruling -
its witness scenarios per reading, the fixtures whose outcome depends on it - is computed over
the games' files by :mod:`invasion_oracle.model.core.ambiguity` and the ``invasion rulings`` register.

Readings may be abbreviated to a unique prefix, as may ids:

>>> from invasion_oracle.model.core.rulings import Reading, Ruling, RulingRegistry
>>> reg = RulingRegistry()
>>> reg.register(Ruling("XX-DEMO", "demo", "Demo rulebook, Rules", "Which way?",
...     (Reading("left", "go left"), Reading("right", "go right")), "left", "it is first"))
>>> r = reg.rulings("demo").with_choices(["XX-DEMO=ri"])
>>> r.reading("XX-DEMO")
'right'
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core import arguments
from invasion_oracle.model.core.errors import AmbiguousInputError, MalformedInputError
from invasion_oracle.model.core.suggest import did_you_mean


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read an open point."""

    name: str
    meaning: str


@dataclass(frozen=True, slots=True)
class Ruling:
    """An open point of the rules and the readings the oracle supports.

    >>> r = Ruling("XX-DEMO", "demo", "Demo rulebook, Setup", "Who goes first?",
    ...            (Reading("oldest", "the oldest player"), Reading("youngest", "the youngest")),
    ...            "youngest", "the rulebook's example starts with the youngest")
    >>> r.reading_names, r.default
    (('oldest', 'youngest'), 'youngest')
    """

    id: str
    game: str
    citation: str
    question: str
    readings: tuple[Reading, ...]
    default: str
    why: str

    def __post_init__(self) -> None:
        for name in ("id", "game", "citation", "question", "default", "why"):
            arguments.text(getattr(self, name), name)
        arguments.one_of_types(self.readings, "readings", (tuple, list), "a tuple of Reading")
        for i, reading in enumerate(self.readings):
            arguments.one_of_types(reading, f"readings[{i}]", (Reading,), "a Reading(name, meaning)")
        names = [r.name for r in self.readings]
        if self.default not in names:
            raise MalformedInputError(f"ruling {self.id}", "default", f"{self.default!r} is not a reading")
        if len(set(names)) != len(names):
            raise MalformedInputError(f"ruling {self.id}", "readings", "duplicate reading names")

    @property
    def reading_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.readings)

    @property
    def rulebook(self) -> str:
        """The rulebook the citation names, by its title: the part before the first comma.

        >>> Ruling("XX-A", "demo", "Demo rulebook, II. Improvement Phase", "?",
        ...        (Reading("a", ""), Reading("b", "")), "a", "").rulebook
        'Demo rulebook'
        """
        return self.citation.partition(", ")[0]

    @property
    def section(self) -> str:
        """The section heading(s) of the citation: the part after the first comma.

        >>> Ruling("XX-A", "demo", "Demo rulebook, II. Improvement Phase", "?",
        ...        (Reading("a", ""), Reading("b", "")), "a", "").section
        'II. Improvement Phase'
        """
        return self.citation.partition(", ")[2]

    def reading(self, name: str) -> Reading:
        """The reading called ``name`` (exactly)."""
        for reading in self.readings:
            if reading.name == name:
                return reading
        raise MalformedInputError(
            f"ruling {self.id}",
            "name",
            f"{arguments.shown(name)} is not a reading; readings: {', '.join(self.reading_names)}",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "citation": self.citation,
            "rulebook": self.rulebook,
            "section": self.section,
            "question": self.question,
            "readings": [{"name": r.name, "meaning": r.meaning} for r in self.readings],
            "default": self.default,
            "why": self.why,
        }


def resolve_name(name: str, known: Iterable[str], what: str, source: str, path: str) -> str:
    """Match ``name`` to one of ``known``: exactly, case-insensitively, or by a unique prefix.

    >>> resolve_name("bar", ["Barbarian", "Bard"], "hero", "cli", "$")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.AmbiguousInputError: cli:$: hero 'bar' is ambiguous: Barbarian, Bard
    >>> resolve_name("barba", ["Barbarian", "Bard"], "hero", "cli", "$")
    'Barbarian'
    """
    names = list(known)
    if name in names:
        return name
    lowered = name.casefold()
    exact = [n for n in names if n.casefold() == lowered]
    if len(exact) == 1:
        return exact[0]
    prefixed = [n for n in names if n.casefold().startswith(lowered)]
    if len(prefixed) == 1 and lowered:
        return prefixed[0]
    if len(prefixed) > 1 and lowered:
        raise AmbiguousInputError(source, path, f"{what} {name!r} is ambiguous: {', '.join(prefixed)}")
    raise MalformedInputError(source, path, f"unknown {what} {name!r}{name_hint(name, names)}")


def name_hint(name: str, names: Sequence[str]) -> str:
    """What to say after an unknown ``name``: the close ones, else all if few, else the nearest.

    >>> name_hint("red", ["reed", "blue"])
    " (did you mean 'reed'?)"
    """
    close = did_you_mean(name, names)
    if close:
        return close
    if len(names) <= 12:
        return f"; known: {', '.join(names)}"
    # a long list on one line helps no one: the closest few, and how many there are
    nearest = difflib.get_close_matches(name, names, n=3, cutoff=0.0)
    return f"; none is close: the nearest of the {len(names)} known are {', '.join(nearest)}"


class RulingRegistry:
    """All rulings by id. Games add theirs when imported."""

    def __init__(self) -> None:
        self._by_id: dict[str, Ruling] = {}
        # all(game), kept until a ruling comes or goes: every load applies each reading asked,
        # and each asks for the game's list (a generated case's load spent a millisecond there)
        self._all: dict[str | None, tuple[Ruling, ...]] = {}

    def register(self, *rulings: Ruling) -> None:
        for ruling in rulings:
            if ruling.id in self._by_id and self._by_id[ruling.id] != ruling:
                raise ValueError(f"ruling {ruling.id} registered twice with different content")
            self._by_id[ruling.id] = ruling
        self._all.clear()

    def unregister(self, *ruling_ids: str) -> None:
        """Forget rulings (a toy game in the tests that registered its own)."""
        for ruling_id in ruling_ids:
            self._by_id.pop(ruling_id, None)
        self._all.clear()

    def get(self, ruling_id: str) -> Ruling:
        return self._by_id[ruling_id]

    def __contains__(self, ruling_id: object) -> bool:
        return ruling_id in self._by_id

    def all(self, game: str | None = None) -> tuple[Ruling, ...]:
        found = self._all.get(game)
        if found is None:
            found = tuple(r for _, r in sorted(self._by_id.items()) if game is None or r.game == game)
            self._all[game] = found
        return found

    def games(self) -> tuple[str, ...]:
        return tuple(sorted({r.game for r in self._by_id.values()}))

    def rulings(self, game: str) -> Rulings:
        return Rulings(self, game, ())


REGISTRY = RulingRegistry()


@dataclass(frozen=True, slots=True)
class Rulings:
    """The readings in force for one game: the defaults plus chosen overrides."""

    registry: RulingRegistry
    game: str
    choices: tuple[tuple[str, str], ...]

    @staticmethod
    def defaults(game: str) -> Rulings:
        return REGISTRY.rulings(game)

    def reading(self, ruling_id: str) -> str:
        for chosen_id, reading in self.choices:
            if chosen_id == ruling_id:
                return reading
        return self.registry.get(ruling_id).default

    def is_(self, ruling_id: str, reading: str) -> bool:
        """True when ``ruling_id`` is read as ``reading`` (which must be one of its readings)."""
        if reading not in self.registry.get(ruling_id).reading_names:
            raise ValueError(f"{reading!r} is not a reading of {ruling_id}")
        return self.reading(ruling_id) == reading

    def with_choice(
        self, ruling_id: str, reading: str, *, source: str = "rulings", path: str | None = None
    ) -> Rulings:
        """A copy with ``ruling_id`` read as ``reading`` (both may be unique prefixes); an error
        names ``source:path`` (by default ``source:ID``)."""
        known = [r.id for r in self.registry.all(self.game)]
        rid = resolve_name(ruling_id, known, f"{self.game} ruling", source, path or ruling_id)
        ruling = self.registry.get(rid)
        name = resolve_name(reading, ruling.reading_names, f"reading of {rid}", source, path or rid)
        rest = tuple((k, v) for k, v in self.choices if k != rid)
        if name != ruling.default:
            rest += ((rid, name),)
        return Rulings(self.registry, self.game, tuple(sorted(rest)))

    def with_object(self, chosen: Mapping[str, str], source: str, at: str = "$.rulings") -> Rulings:
        """A document's ``rulings`` object (``{ID: READING}``) applied; an error names the key,
        ``source:$.rulings.ID``.

        >>> import invasion_oracle.model.stonespine  # registers the game's rulings
        >>> Rulings.defaults("stonespine").with_object({"SS-NOPE": "x"}, "s.json")
        Traceback (most recent call last):
        ...
        invasion_oracle.model.core.errors.MalformedInputError: s.json:$.rulings.SS-NOPE: unknown stonespine ruling 'SS-NOPE'; none is close: ...
        """
        result = self
        for ruling_id, reading in chosen.items():
            result = result.with_choice(ruling_id, reading, source=source, path=f"{at}.{ruling_id}")
        return result

    def with_choices(self, specs: Iterable[str], *, source: str = "--ruling") -> Rulings:
        """Apply ``ID=READING`` strings in order; one ruling given two readings is refused."""
        result = self
        chosen: dict[str, str] = {}
        for spec in specs:
            rid, sep, reading = spec.partition("=")
            if not sep or not rid.strip() or not reading.strip():
                raise MalformedInputError(source, spec, f"expected ID=READING, e.g. {self.example()}")
            result = result.with_choice(rid.strip(), reading.strip(), source=source)
            ruling_id = resolve_name(
                rid.strip(), [r.id for r in self.registry.all(self.game)], "", source, rid
            )
            now = result.reading(ruling_id)
            if chosen.setdefault(ruling_id, now) != now:
                raise MalformedInputError(
                    source,
                    spec,
                    f"{ruling_id} is given twice, as {chosen[ruling_id]} and {now}; give one reading",
                )
        return result

    def example(self) -> str:
        """An ``ID=READING`` of this game, for messages (``SS-EXIT-Y13=ignored``)."""
        rulings = self.registry.all(self.game)
        if not rulings:
            return "ID=READING"
        other = [name for name in rulings[0].reading_names if name != rulings[0].default]
        return f"{rulings[0].id}={(other or [rulings[0].default])[0]}"

    def to_json(self) -> dict[str, str]:
        """Every ruling of the game with the reading in force (so fixtures are self-contained)."""
        return {r.id: self.reading(r.id) for r in self.registry.all(self.game)}

    def non_default(self) -> dict[str, str]:
        return dict(self.choices)
