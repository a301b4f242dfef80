"""Errors the oracle raises on purpose, split by whose fault they are.

* :class:`MalformedInputError` - the input cannot be read as what it claims to be (bad JSON, a
  missing field, an unknown name, an impossible map).
* :class:`AmbiguousInputError` - a name abbreviation matches more than one thing.
* :class:`IllegalDecisionError` - an answer to a decision or chance request is not one of the
  legal options.
* :class:`RulesError` - a well-formed request the rules do not allow (for example, buying a
  fifth secret passage in a year).
* :class:`OutputError` - an output file that cannot be written (a full disk, a vanished folder).
* :class:`MissingEngineError` - a search engine asked for whose library is not installed (``cpsat``
  without OR-Tools).

Every one carries a one-line message that names the field or request and says what to do; the
command line prints it and exits with status 2.
"""

from __future__ import annotations

from typing import Any


class InvasionError(Exception):
    """Base class of the errors the oracle raises on purpose: catch it to catch them all.

    >>> issubclass(MalformedInputError, InvasionError) and issubclass(RulesError, InvasionError)
    True
    """

    @property
    def message(self) -> str:
        return str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt field by field, not by calling ``__init__`` with ``args``: a worker process's
        job that refused its input hands the error back whole (``source``, ``path``, ``reason``).

        >>> import copy  # the same protocol a process pool uses to hand an error back
        >>> again = copy.copy(MalformedInputError("s.json", "$.year", "bad"))
        >>> (type(again).__name__, again.path, str(again))
        ('MalformedInputError', '$.year', 's.json:$.year: bad')
        """
        return (_rebuilt, (type(self), self.args, dict(self.__dict__)))


def _rebuilt(kind: type[InvasionError], args: tuple[Any, ...], fields: dict[str, Any]) -> InvasionError:
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(fields)
    return error


class MalformedInputError(InvasionError):
    """Input that cannot be read: ``source:json.path: reason``.

    >>> str(MalformedInputError("scenario.json", "$.year", "must be 1-4, got 7"))
    'scenario.json:$.year: must be 1-4, got 7'
    """

    def __init__(self, source: str, path: str, reason: str) -> None:
        self.source = source
        self.path = path
        self.reason = reason
        super().__init__(f"{source}:{path}: {reason}")


class AmbiguousInputError(MalformedInputError):
    """A name that matches several known names; the reason lists them.

    >>> str(AmbiguousInputError("cli", "--hero", "hero 'b' is ambiguous: black, blue"))
    "cli:--hero: hero 'b' is ambiguous: black, blue"
    """


class IllegalDecisionError(InvasionError):
    """An answer that is not among the legal options of its request.

    >>> raise IllegalDecisionError("gate for Ann: 'open' is not legal; legal: 'continue', 'close'")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.IllegalDecisionError: gate for Ann: 'open' is not legal; legal: 'continue', 'close'
    """


class ScriptedAnswerError(MalformedInputError, IllegalDecisionError):
    """An answer read from a file (a scenario's script, a trace's step) that is not legal,
    named by its place in the file: ``s.json:$.decisions.script[0]: ... is not legal``.

    It is both kinds at once, so either ``except`` catches it:

    >>> err = ScriptedAnswerError("s.json", "$.decisions.script[0]", "'C9' is not legal")
    >>> isinstance(err, MalformedInputError), isinstance(err, IllegalDecisionError), str(err)
    (True, True, "s.json:$.decisions.script[0]: 'C9' is not legal")
    """


class RulesError(InvasionError):
    """Something the rules do not allow, asked for in well-formed input.

    >>> str(RulesError("a fifth secret passage this year"))
    'a fifth secret passage this year'
    """


class OutputError(InvasionError):
    """An output that cannot be written: ``path: reason``.

    >>> str(OutputError("/dev/full", "cannot write: No space left on device"))
    '/dev/full: cannot write: No space left on device'
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class MissingEngineError(InvasionError):
    """A search engine asked for by name whose library is not installed: the message says how to
    install it (OR-Tools, for ``cpsat``, is the extra ``invasion-oracle[cpsat]``).

    >>> str(MissingEngineError("--engine cpsat needs OR-Tools, which is not installed: pip install 'invasion-oracle[cpsat]'"))
    "--engine cpsat needs OR-Tools, which is not installed: pip install 'invasion-oracle[cpsat]'"
    """
