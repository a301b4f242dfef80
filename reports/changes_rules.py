"""Rules that a change of data makes dead or alive (``invasion changes``, "Rules").

A rule is *exercised* on one side when a conformance case (a ruling witness is one) run under
that side's data reaches it. What a case records says which rules it reaches, with no game
knowledge beyond the names of a few event fields:

* a **rule section** (a heading of the game's rule map, as the case's ``rule_refs`` cite it), when
  some variant of a case citing it plays (its result is ``ok``, not illegal or refused);
* a **ruling**, when some case depends on it (its readings change what the case compares);
* an **event** (an effect of the rules, by event kind), when a played variant's outcome has one;
* a **data record** an event names: a hero's or guardian's ``ability``, a ``card``, an ``effect``,
  a faction's ``powers``, a source of damage (``parts``, such as ``Barbarian:2``).

A rule exercised under the old data and by no case under the new one is *dead*; the reverse is
*alive*. The comparison is among the cases run (``--cases`` narrows both sides alike); search
answers name no rules, so searches are not counted.

The vocabulary the renderers share (:mod:`invasion_oracle.reports.changes` for text, Markdown
and JUnit, :mod:`invasion_oracle.reports.changes_html`) lives here too: the kinds of case change,
the changed leaves of two JSON values, the words for a rule's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

KINDS = ("changed", "became-illegal", "became-legal", "added", "removed")  # how a case changes
RECORD_FIELDS: tuple[tuple[str, str], ...] = (
    # event field -> the kind of data record it names (the fields every game's events use)
    ("ability", "ability"),
    ("card", "card"),
    ("effect", "effect"),
    ("powers", "power"),
    ("parts", "damage-source"),
)
RULE_KINDS = ("section", "ruling", "event", *dict.fromkeys(kind for _, kind in RECORD_FIELDS))
EVIDENCE = 5  # case ids kept per rule as the evidence that it was exercised
_AMOUNT = re.compile(r":-?\d+$")  # "Barbarian:2" -> "Barbarian"


def _played(case: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The variants of a case that play (every reading's, not only the default's)."""
    return [v for v in case.get("expect", []) if isinstance(v, dict) and v.get("result", "ok") == "ok"]


def _named(value: Any) -> Iterator[str]:
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str | int) and not isinstance(item, bool):
            yield _AMOUNT.sub("", str(item))


def rules_of_case(case: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Each (rule kind, name) the case exercises, repeats possible."""
    for rid in case.get("depends_on", []):
        yield "ruling", str(rid)
    played = _played(case)
    if not played:
        return
    for heading in case.get("rule_refs", []):
        yield "section", str(heading)
    for variant in played:
        for outcome in variant.get("one_of", []):
            for event in outcome.get("events", []) if isinstance(outcome, dict) else ():
                if not isinstance(event, dict):
                    continue
                yield "event", str(event.get("event", ""))
                for field, kind in RECORD_FIELDS:
                    if field in event:
                        for name in _named(event[field]):
                            yield kind, name


def exercised(cases: Mapping[str, Mapping[str, Any]], game: str) -> dict[tuple[str, str], list[str]]:
    """Each rule of ``game`` some case exercises: the ids of those cases, sorted."""
    out: dict[tuple[str, str], set[str]] = {}
    for cid, case in cases.items():
        if cid.startswith(f"{game}/"):
            for rule in rules_of_case(case):
                out.setdefault(rule, set()).add(cid)
    return {rule: sorted(ids) for rule, ids in out.items()}


def rule_key(game: str, kind: str, name: str) -> str:
    """``GAME/KIND:NAME``, the entry's id (``stonespine/ability:Templar``)."""
    return f"{game}/{kind}:{name}"


def rule_changes(
    old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]], games: Sequence[str]
) -> dict[str, Any]:
    """Each rule that becomes dead or alive, by :func:`rule_key` (sorted): the game, the rule's kind
    and name, ``dead`` or ``alive``, and the cases that exercised it on the side where it lives."""
    changes: dict[str, Any] = {}
    for game in games:
        before, after = exercised(old, game), exercised(new, game)
        for kind, name in set(before) ^ set(after):
            by = before.get((kind, name)) or after.get((kind, name)) or []
            changes[rule_key(game, kind, name)] = {
                "game": game,
                "rule": kind,
                "name": name,
                "kind": "dead" if (kind, name) in before else "alive",
                "cases": len(by),
                "by": by[:EVIDENCE],
            }
    return dict(sorted(changes.items()))


def rule_counts(rules: Mapping[str, Mapping[str, Any]], game: str) -> dict[str, int]:
    """``rules_dead`` and ``rules_alive`` of ``game``, for the summary."""
    mine = [r for r in rules.values() if r["game"] == game]
    return {
        "rules_dead": sum(1 for r in mine if r["kind"] == "dead"),
        "rules_alive": sum(1 for r in mine if r["kind"] == "alive"),
    }


def rule_evidence(rule: Mapping[str, Any]) -> str:
    """Which cases exercised a rule that is now dead (or exercise one now alive), in words."""
    side = "exercised before by" if rule["kind"] == "dead" else "now exercised by"
    listed = ", ".join(rule["by"])
    more = rule["cases"] - len(rule["by"])
    return f"{side} {rule['cases']} case(s): {listed}" + (f" and {more} more" if more > 0 else "")


def leaf_changes(old: Any, new: Any, path: str = "$") -> Iterator[tuple[str, Any, Any]]:
    """Each leaf that differs: its JSON path, old and new (a missing side is ``None``)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            yield from leaf_changes(old.get(key), new.get(key), f"{path}.{key}")
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from leaf_changes(a, b, f"{path}[{i}]")
    elif old != new:
        yield path, old, new
