"""``invasion --print-completion bash|zsh``: verbs and options (shtab, from the parser itself), and the
values a user would otherwise look up: bundled example names where a scenario file is taken
(``example:stonespine/placement``, files too), ruling ids and readings after ``--ruling``
(``SS-EXIT-Y13=ignored``) and ruling ids after ``--compare-ruling``. A game's verbs offer that game's
examples and rulings; the shared verbs (``simulate``, ``ambiguities``) every game's.

The names are written into the script when it is printed: a script printed by one version offers
that version's examples and rulings (print it again after an upgrade).

Bash breaks words at ``:`` and ``=`` (``COMP_WORDBREAKS``), so ``example:stone`` reaches a completion
function as three words; the script's entry point joins them again before shtab's parser walk and
offers only the part after the last break, which is what bash replaces. An id offered alone ends
in ``=`` and takes no space after it, so the reading follows at once.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence

from invasion_oracle.model import registry

SHELLS = ("bash", "zsh")
ALL = "all"  # the key of the names of every game, for the shared verbs
_FUNCTION = "_invasion"


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` (every game's verbs) for ``shell``."""
    import shtab

    examples, readings = _names()
    games = _annotate(parser, None)
    preamble = (_bash_preamble if shell == "bash" else _zsh_preamble)(examples, readings, games)
    script: str = shtab.complete(parser, shell=shell, preamble=preamble)
    if shell == "bash":  # the entry point joins words bash broke at ':' and '=' (see the module's text)
        script = script.replace(
            "complete -o bashdefault -F _shtab_invasion invasion",
            f"complete -o bashdefault -F {_FUNCTION}_complete invasion",
        )
    return script if script.endswith("\n") else script + "\n"


def _names() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per game (and :data:`ALL`): the bundled examples as ``example:GAME/NAME`` and the rulings'
    ``ID=READING`` pairs, sorted."""
    from invasion_oracle.model.core.bundled import examples
    from invasion_oracle.model.core.rulings import REGISTRY

    registry.load_all()
    by_example: dict[str, list[str]] = {}
    by_reading: dict[str, list[str]] = {}
    for spec in registry.specs():
        by_example[spec.name] = [str(ref).removesuffix(".json") for ref in examples(spec.examples)]
        by_reading[spec.name] = [
            f"{r.id}={name}" for r in REGISTRY.all(spec.name) for name in r.reading_names
        ]
    by_example[ALL] = sorted(n for names in by_example.values() for n in names)
    by_reading[ALL] = sorted(n for names in by_reading.values() for n in names)
    return by_example, by_reading


def _annotate(parser: argparse.ArgumentParser, game: str | None) -> set[str]:
    """Mark the actions that take a scenario or rulings with the completion function of their game
    (shtab reads an action's ``complete``); the games (and :data:`ALL`) some action needs."""
    needed: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                needed |= _annotate(child, child.get_default("game") or game)
            continue
        key = _key(game)
        kind = _kind(action)
        if kind is not None:
            action.complete = {  # type: ignore[attr-defined]
                "bash": f"{_FUNCTION}_{kind}_{key}",
                "zsh": f"{_FUNCTION}_{kind}_{key}",
            }
            needed.add(game or ALL)
    return needed


def _kind(action: argparse.Action) -> str | None:
    if not action.option_strings and action.dest == "scenario":
        return "file_or_example"  # "_file" in the name: shtab lets bash quote it as a file name
    if "--ruling" in action.option_strings:
        return "ruling"
    if "--compare-ruling" in action.option_strings:
        return "ruling_id"
    return None


def _key(game: str | None) -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", game or ALL)


def _words(names: Iterable[str]) -> str:
    # every name is letters, digits and -_/:=. (checked), so it needs no quoting in either shell
    checked = []
    for name in names:
        if not re.fullmatch(r"[A-Za-z0-9_./:=-]+", name):
            raise ValueError(f"a name the completion script cannot hold unquoted: {name!r}")
        checked.append(name)
    return " ".join(checked)


def _ids(readings: Sequence[str]) -> list[str]:
    return sorted({pair.partition("=")[0] for pair in readings})


def _bash_preamble(examples: dict[str, list[str]], readings: dict[str, list[str]], games: set[str]) -> str:
    lines = ["# invasion: bundled examples and rulings, as of the version that printed this script"]
    for game in sorted(games):
        key = _key(game)
        lines += [
            f"{_FUNCTION}_examples_{key}=({_words(examples[game])})",
            f"{_FUNCTION}_readings_{key}=({_words(readings[game])})",
            f"{_FUNCTION}_ids_{key}=({_words(_ids(readings[game]))})",
            f"{_FUNCTION}_file_or_example_{key}() {{",
            f'  compgen -W "${{{_FUNCTION}_examples_{key}[*]}}" -- "$1"',
            '  compgen -f -- "$1"',
            "}",
            f"{_FUNCTION}_ruling_{key}() {{",
            '  if [[ "$1" == *=* ]]; then',
            f'    compgen -W "${{{_FUNCTION}_readings_{key}[*]}}" -- "$1"',
            "  else  # the id first, then its readings",
            f'    compgen -W "$(printf "%s= " "${{{_FUNCTION}_ids_{key}[@]}}")" -- "$1"',
            "  fi",
            "}",
            f"{_FUNCTION}_ruling_id_{key}() {{",
            f'  compgen -W "${{{_FUNCTION}_ids_{key}[*]}}" -- "$1"',
            "}",
        ]
    lines += [
        f"{_FUNCTION}_complete() {{",
        "  # bash broke the word at ':' and '=' (COMP_WORDBREAKS): join example:GAME/NAME and",
        "  # ID=READING again for shtab's walk, then offer what follows the last break (bash replaces that)",
        "  local -a words=()",
        "  local i w glue=false cword=0",
        "  for (( i = 0; i < ${#COMP_WORDS[@]}; i++ )); do",
        '    w="${COMP_WORDS[i]}"',
        '    if (( ${#words[@]} )) && { [[ "$w" == ":" || "$w" == "=" ]] || $glue; }; then',
        '      words[${#words[@]}-1]+="$w"',
        "    else",
        '      words+=("$w")',
        "    fi",
        '    glue=false; [[ "$w" == ":" || "$w" == "=" ]] && glue=true',
        "    (( i == COMP_CWORD )) && cword=$(( ${#words[@]} - 1 ))",
        "  done",
        '  local cur="${words[cword]}"',
        '  local -a COMP_WORDS=("${words[@]}")',
        "  local COMP_CWORD=$cword",
        "  _shtab_invasion",
        '  local head="${cur%"${cur##*[:=]}"}"',
        '  if [[ -n "$head" ]]; then',
        '    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"$head"}"; done',
        "  fi",
        '  for w in "${COMPREPLY[@]}"; do',
        '    [[ "$w" == *= ]] && { compopt -o nospace 2>/dev/null || :; break; }',
        "  done",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _zsh_preamble(examples: dict[str, list[str]], readings: dict[str, list[str]], games: set[str]) -> str:
    lines = ["# invasion: bundled examples and rulings, as of the version that printed this script"]
    for game in sorted(games):
        key = _key(game)
        lines += [
            f"{_FUNCTION}_file_or_example_{key}() {{",
            f"  local -a names=({_words(examples[game])})",
            "  _files",
            "  compadd -a names",
            "}",
            f"{_FUNCTION}_ruling_{key}() {{",
            f"  local -a names=({_words(readings[game])})",
            "  compadd -a names",
            "}",
            f"{_FUNCTION}_ruling_id_{key}() {{",
            f"  local -a names=({_words(_ids(readings[game]))})",
            "  compadd -a names",
            "}",
        ]
    return "\n".join(lines) + "\n"
