"""Integer arithmetic with conditionals written once and run over Python values, z3 terms or
OR-Tools CP-SAT terms: a search states its rules against :class:`Ops` and gets a concrete twin
(:data:`CONCRETE`), a z3 model (:data:`Z3`) and a CP-SAT model (:class:`CpSatOps`) from the same
code. Shared by the Vul'Keth compiled rules and the Spirit Island island search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import z3
from z3.z3 import _to_expr_ref

from invasion_oracle.solver.common import Deadline, cpsat_lex_min, cpsat_solve, z3_check

# -- the two arithmetics ------------------------------------------------------------------------------


class Ops:
    """Integer arithmetic with conditionals; the base runs on Python values."""

    symbolic = False

    def ite(self, cond: Any, then: Any, other: Any) -> Any:
        return then if cond else other

    def and_(self, *xs: Any) -> Any:
        return all(xs)

    def or_(self, *xs: Any) -> Any:
        return any(xs)

    def not_(self, x: Any) -> Any:
        return not x

    def min2(self, a: Any, b: Any) -> Any:
        return min(a, b)

    def max2(self, a: Any, b: Any) -> Any:
        return max(a, b)

    def total(self, xs: Sequence[Any]) -> Any:
        return sum(xs)

    def count(self, conds: Sequence[Any]) -> Any:
        return sum(1 for c in conds if c)

    def div(self, a: Any, k: int) -> Any:
        """``a // k`` for ``a >= 0`` and a positive constant ``k``."""
        return a // k

    def iff(self, a: Any, b: Any) -> Any:
        """``a`` and ``b`` both hold or both fail."""
        return self.ite(a, b, self.not_(b))


# z3's ``And``, ``Or``, ``Not`` and ``If`` check and coerce every argument in Python (sorts,
# contexts, probes) before the one C call that makes the term: most of the time the searches
# spend building their formulas. Where every argument is already a term of the right sort (or a
# Python int for an integer ``If``), the same C call is made directly: the same term, and the
# usual functions for anything else.
_INT_TERMS = (z3.ArithRef, z3.IntNumRef)


def _bools(xs: Sequence[Any]) -> Any:
    """The context of ``xs`` when every one is a plain Boolean term of it, else None."""
    first = xs[0]
    if type(first) is not z3.BoolRef:
        return None
    ctx = first.ctx
    for x in xs:
        if type(x) is not z3.BoolRef or x.ctx is not ctx:
            return None
    return ctx


def _and(xs: Sequence[Any]) -> Any:
    ctx = _bools(xs)
    if ctx is None:
        return z3.And(*xs)
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(xs), (z3.Ast * len(xs))(*[x.as_ast() for x in xs])), ctx)


def _or(xs: Sequence[Any]) -> Any:
    ctx = _bools(xs)
    if ctx is None:
        return z3.Or(*xs)
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(xs), (z3.Ast * len(xs))(*[x.as_ast() for x in xs])), ctx)


def _not(x: Any) -> Any:
    if type(x) is not z3.BoolRef:
        return z3.Not(x)
    return z3.BoolRef(z3.Z3_mk_not(x.ctx.ref(), x.as_ast()), x.ctx)


_NUMERALS: dict[tuple[int, int], Any] = {}  # (context id, value) -> its integer numeral term


def _int_term(value: Any, ctx: Any) -> Any:
    """``value`` as an integer term of ``ctx`` as ``If`` would coerce it, or None (another sort)."""
    if type(value) is int:
        key = (id(ctx), value)
        numeral = _NUMERALS.get(key)
        if numeral is None or numeral.ctx is not ctx:
            if len(_NUMERALS) > 4096:  # a bound, should a process make many values or contexts
                _NUMERALS.clear()
            numeral = _NUMERALS[key] = z3.IntVal(value, ctx)
        return numeral
    if type(value) in _INT_TERMS and value.ctx is ctx:
        ref = ctx.ref()
        if z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, value.as_ast())) == z3.Z3_INT_SORT:
            return value
    return None


def _if(cond: Any, then: Any, other: Any) -> Any:
    if type(cond) is z3.BoolRef:
        ctx = cond.ctx
        a, b = _int_term(then, ctx), _int_term(other, ctx)
        if a is not None and b is not None:
            return _to_expr_ref(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), a.as_ast(), b.as_ast()), ctx)
    return z3.If(cond, then, other)


class Z3Ops(Ops):
    symbolic = True

    def ite(self, cond: Any, then: Any, other: Any) -> Any:
        if isinstance(cond, bool):
            return then if cond else other
        if same(then, other):
            return then
        if isinstance(then, bool) and isinstance(other, bool):
            return cond if then else _not(cond)
        return _if(cond, then, other)

    def and_(self, *xs: Any) -> Any:
        if any(x is False for x in xs):
            return False
        rest = [x for x in xs if x is not True]
        return True if not rest else rest[0] if len(rest) == 1 else _and(rest)

    def or_(self, *xs: Any) -> Any:
        if any(x is True for x in xs):
            return True
        rest = [x for x in xs if x is not False]
        return False if not rest else rest[0] if len(rest) == 1 else _or(rest)

    def not_(self, x: Any) -> Any:
        return (not x) if isinstance(x, bool) else _not(x)

    def min2(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        return _if(a <= b, a, b)

    def max2(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return max(a, b)
        return _if(a >= b, a, b)

    def total(self, xs: Sequence[Any]) -> Any:
        return sum(xs[1:], xs[0]) if xs else 0

    def count(self, conds: Sequence[Any]) -> Any:
        return self.total([self.ite(c, 1, 0) for c in conds])

    def div(self, a: Any, k: int) -> Any:
        return a // k if isinstance(a, int) else a / k  # z3's integer division floors, as // does

    def iff(self, a: Any, b: Any) -> Any:
        if isinstance(a, bool) or isinstance(b, bool):
            return super().iff(a, b)
        return a == b


CONCRETE = Ops()
Z3 = Z3Ops()


class CpSatOps(Ops):
    """The arithmetic over an OR-Tools CP-SAT model (``model``): integers are linear forms of
    bounded variables (:class:`CpInt`), conditions literals (:class:`CpBool`), and ``If``, min, max,
    and, or and comparisons new variables tied to their operands both ways, so that every variable
    is a function of the unknowns (counting solutions counts assignments of the unknowns). Values
    the bounds decide stay Python values, as z3 would simplify them."""

    symbolic = True
    WIDE = 8  # a linear form of more terms becomes a variable of its own (keeps constraints short)

    def __init__(self, model: Any) -> None:
        self.model = model
        self.bounds: dict[int, tuple[int, int]] = {}
        self.vars: dict[int, Any] = {}
        # The literal made for each comparison and conjunction, by its operands: the same
        # condition built twice (a card index compared in every step of a turn) is one variable.
        self.memo: dict[Any, CpBool] = {}

    # -- making terms --------------------------------------------------------------------------

    def int_var(self, lo: int, hi: int, name: str = "") -> CpInt:
        var = self.model.new_int_var(lo, hi, name)
        self.bounds[var.index] = (lo, hi)
        self.vars[var.index] = var
        return CpInt(self, {var.index: 1}, 0, lo, hi)

    def bool_var(self) -> CpBool:
        return CpBool(self, self.model.new_bool_var(""))

    def expr(self, x: Any) -> Any:
        """A CP-SAT linear expression of an integer value."""
        if isinstance(x, CpInt):
            return sum((c * self.vars[i] for i, c in x.coefs.items()), x.const)
        return int(x)

    def lit(self, x: CpBool) -> Any:
        return x.literal

    def form(self, x: Any) -> CpInt:
        if isinstance(x, CpInt):
            return x
        if isinstance(x, CpBool):
            return self.from_literal(x)
        return CpInt(self, {}, int(x), int(x), int(x))

    def from_literal(self, b: CpBool) -> CpInt:
        """0/1 for a condition, without a new variable (a negated literal is 1 - its variable)."""
        var, negated = b.variable()
        self.bounds.setdefault(var.index, (0, 1))
        self.vars.setdefault(var.index, var)
        if negated:
            return CpInt(self, {var.index: -1}, 1, 0, 1)
        return CpInt(self, {var.index: 1}, 0, 0, 1)

    def linear(self, coefs: dict[int, int], const: int) -> Any:
        coefs = {i: c for i, c in coefs.items() if c}
        lo = hi = const
        for i, c in coefs.items():
            a, b = self.bounds[i]
            lo += min(c * a, c * b)
            hi += max(c * a, c * b)
        if lo == hi:
            return lo
        out = CpInt(self, coefs, const, lo, hi)
        if len(coefs) > self.WIDE:
            var = self.int_var(lo, hi)
            self.model.add(self.expr(var) == self.expr(out))
            return var
        return out

    def compare(self, diff: Any, op: str) -> Any:
        """``diff op 0`` for op in ``<=``, ``==``: a Python bool when the bounds decide it."""
        if not isinstance(diff, CpInt):
            return diff <= 0 if op == "<=" else diff == 0
        key = (op, diff.const, frozenset(diff.coefs.items()))
        if op == "<=":
            if diff.hi <= 0:
                return True
            if diff.lo > 0:
                return False
            if key in self.memo:
                return self.memo[key]
            b = self.memo[key] = self.bool_var()
            self.model.add(self.expr(diff) <= 0).only_enforce_if(b.literal)
            self.model.add(self.expr(diff) >= 1).only_enforce_if(b.literal.Not())
            return b
        if diff.lo == diff.hi == 0:
            return True
        if diff.lo > 0 or diff.hi < 0:
            return False
        if key in self.memo:
            return self.memo[key]
        b = self.memo[key] = self.bool_var()
        self.model.add(self.expr(diff) == 0).only_enforce_if(b.literal)
        self.model.add(self.expr(diff) != 0).only_enforce_if(b.literal.Not())
        return b

    # -- the arithmetic ------------------------------------------------------------------------

    def ite(self, cond: Any, then: Any, other: Any) -> Any:
        if isinstance(cond, bool):
            return then if cond else other
        if same(then, other):
            return then
        if isinstance(then, bool) and isinstance(other, bool):
            return cond if then else self.not_(cond)
        if isinstance(then, bool | CpBool) or isinstance(other, bool | CpBool):
            return self.or_(self.and_(cond, then), self.and_(self.not_(cond), other))
        if isinstance(then, int) and isinstance(other, int):  # other + (then - other) * cond
            flag = self.from_literal(cond)
            return self.linear(
                {i: c * (then - other) for i, c in flag.coefs.items()}, other + flag.const * (then - other)
            )
        a, b = self.form(then), self.form(other)
        out = self.int_var(min(a.lo, b.lo), max(a.hi, b.hi))
        self.model.add(self.expr(out) == self.expr(a)).only_enforce_if(cond.literal)
        self.model.add(self.expr(out) == self.expr(b)).only_enforce_if(cond.literal.Not())
        return out

    def and_(self, *xs: Any) -> Any:
        if any(x is False for x in xs):
            return False
        rest = list(dict.fromkeys(x for x in xs if x is not True))
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0]
        lits = [x.literal for x in rest]
        key = ("and", frozenset(lit.index for lit in lits))
        if key in self.memo:
            return self.memo[key]
        b = self.memo[key] = self.bool_var()
        self.model.add_bool_and(lits).only_enforce_if(b.literal)
        self.model.add_bool_or([x.Not() for x in lits]).only_enforce_if(b.literal.Not())
        return b

    def or_(self, *xs: Any) -> Any:
        if any(x is True for x in xs):
            return True
        rest = list(dict.fromkeys(x for x in xs if x is not False))
        if not rest:
            return False
        if len(rest) == 1:
            return rest[0]
        return self.not_(self.and_(*[self.not_(x) for x in rest]))

    def not_(self, x: Any) -> Any:
        return (not x) if isinstance(x, bool) else CpBool(self, x.literal.Not())

    def min2(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        fa, fb = self.form(a), self.form(b)
        if fa.hi <= fb.lo:
            return a
        if fb.hi <= fa.lo:
            return b
        out = self.int_var(min(fa.lo, fb.lo), min(fa.hi, fb.hi))
        self.model.add_min_equality(self.expr(out), [self.expr(fa), self.expr(fb)])
        return out

    def max2(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return max(a, b)
        fa, fb = self.form(a), self.form(b)
        if fa.lo >= fb.hi:
            return a
        if fb.lo >= fa.hi:
            return b
        out = self.int_var(max(fa.lo, fb.lo), max(fa.hi, fb.hi))
        self.model.add_max_equality(self.expr(out), [self.expr(fa), self.expr(fb)])
        return out

    def total(self, xs: Sequence[Any]) -> Any:
        return sum(xs[1:], xs[0]) if xs else 0

    def count(self, conds: Sequence[Any]) -> Any:
        return self.total([self.ite(c, 1, 0) for c in conds])

    def div(self, a: Any, k: int) -> Any:
        if isinstance(a, int):
            return a // k
        f = self.form(a)
        if f.lo < 0:
            raise ValueError("div takes a value that cannot be negative (CP-SAT's division truncates)")
        if f.lo // k == f.hi // k:
            return f.lo // k
        out = self.int_var(f.lo // k, f.hi // k)
        self.model.add_division_equality(self.expr(out), self.expr(f), k)
        return out

    def select(self, index: CpInt, states: Sequence[Any]) -> Any:
        """``states[index]`` (dataclasses of one type) for an ``index`` whose bounds lie within the
        states: what a chain of merges gives, with one variable per field that differs, equal to
        each state's value where ``index`` selects it (the chain makes one variable per state and
        field)."""
        conds = [index == i for i in range(len(states))]
        live = [c for c in conds if c is not False]
        if len(live) == 1:
            return states[conds.index(live[0])]
        if ("one", id(index)) not in self.memo:  # the index takes exactly one value
            self.model.add_exactly_one([c.literal for c in live])
            self.memo[("one", id(index))] = live[0]
        picked = [(c, st) for c, st in zip(conds, states, strict=True) if c is not False]

        def value(xs: list[Any]) -> Any:
            if isinstance(xs[0], tuple):
                return tuple(value([x[k] for x in xs]) for k in range(len(xs[0])))
            if all(same(x, xs[0]) for x in xs[1:]):
                return xs[0]
            forms = [self.form(x) for x in xs]
            if any(isinstance(x, bool | CpBool) for x in xs):
                out: Any = self.bool_var()
                target = self.expr(self.from_literal(out))
            else:
                out = self.int_var(min(f.lo for f in forms), max(f.hi for f in forms))
                target = self.expr(out)
            for (c, _), f in zip(picked, forms, strict=True):
                self.model.add(target == self.expr(f)).only_enforce_if(c.literal)
            return out

        kind = type(states[0])
        fields_out = {f.name: value([getattr(st, f.name) for _, st in picked]) for f in fields(kind)}
        return kind(**fields_out)


class CpInt:
    """An integer of :class:`CpSatOps`: ``const + sum(coef * variable)``, within ``lo .. hi``."""

    __slots__ = ("coefs", "const", "hi", "lo", "ops")
    cp_term = True

    def __init__(self, ops: CpSatOps, coefs: dict[int, int], const: int, lo: int, hi: int) -> None:
        self.ops, self.coefs, self.const, self.lo, self.hi = ops, coefs, const, lo, hi

    def _plus(self, other: Any, sign: int) -> Any:
        o = self.ops.form(other)
        coefs = dict(self.coefs)
        for i, c in o.coefs.items():
            coefs[i] = coefs.get(i, 0) + sign * c
        return self.ops.linear(coefs, self.const + sign * o.const)

    def __add__(self, other: Any) -> Any:
        return self._plus(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return self._plus(other, -1)

    def __rsub__(self, other: Any) -> Any:
        return (-self)._plus(other, 1)

    def __neg__(self) -> Any:
        return self.ops.linear({i: -c for i, c in self.coefs.items()}, -self.const)

    def __mul__(self, k: int) -> Any:
        if not isinstance(k, int):
            raise TypeError("CP-SAT terms multiply by integers only")
        return self.ops.linear({i: c * k for i, c in self.coefs.items()}, self.const * k)

    __rmul__ = __mul__

    def __le__(self, other: Any) -> Any:
        return self.ops.compare(self - other, "<=")

    def __lt__(self, other: Any) -> Any:
        return self.ops.compare(self - other + 1, "<=")

    def __ge__(self, other: Any) -> Any:
        return self.ops.compare(self.ops.form(other) - self, "<=")

    def __gt__(self, other: Any) -> Any:
        return self.ops.compare(self.ops.form(other) - self + 1, "<=")

    def __eq__(self, other: object) -> Any:
        return self.ops.compare(self - other, "==")

    def __ne__(self, other: object) -> Any:
        return self.ops.not_(self == other)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError("a CP-SAT term has no truth value (use the Ops)")


class CpBool:
    """A condition of :class:`CpSatOps`: one literal of its model."""

    __slots__ = ("literal", "ops")
    cp_term = True

    def __init__(self, ops: CpSatOps, literal: Any) -> None:
        self.ops, self.literal = ops, literal

    def variable(self) -> tuple[Any, bool]:
        """The Boolean variable and whether this literal is its negation."""
        lit = self.literal
        index = lit.index
        if index >= 0:
            return lit, False
        return lit.Not(), True

    def __bool__(self) -> bool:
        raise TypeError("a CP-SAT condition has no truth value (use the Ops)")


def same(x: Any, y: Any) -> bool:
    """Structurally equal values (Python values of one type, the same z3 term or the same CP-SAT term)."""
    if getattr(x, "cp_term", False) or getattr(y, "cp_term", False):
        return x is y
    if isinstance(x, z3.ExprRef) and isinstance(y, z3.ExprRef):
        return bool(x.eq(y))
    if isinstance(x, z3.ExprRef) or isinstance(y, z3.ExprRef):
        return False
    return type(x) is type(y) and x == y


# -- a model to state terms in, and its solutions ---------------------------------------------------
#
# A search that builds its model once for both exact engines writes it against one of these: the
# unknowns (``int_var``, ``bool_var``), the constraints (``require``), a named condition
# (``define``: z3 gets a Boolean of its own, as a hand-written z3 model has; CP-SAT's conditions are
# literals already) and the two questions, feasibility under an assumption and a lexicographic
# minimum. A solution is read with ``read(term)`` (an int; a condition gives 0 or 1).

Read = Any  # Callable[[Any], int]: a term's value in the solution found


class Z3Model:
    """A z3 ``Solver`` over :data:`Z3`: feasibility, and a lexicographic minimum found by descent
    (z3's ``Optimize`` found the same minimum three to ten times slower on the island flips)."""

    def __init__(self, simple: bool = False) -> None:
        # ``simple``: z3's plain incremental solver, without the tactic front end (a check takes
        # about two thirds of the CPU on these formulas); only for a search whose answer reads
        # terms ``lex_min`` fixes, so that it does not depend on the solutions the checks return
        self.solver: Any = z3.SimpleSolver() if simple else z3.Solver()
        self.ops: Ops = Z3

    def int_var(self, lo: int, hi: int, name: str) -> Any:
        x = z3.Int(name)
        self.solver.add(x >= lo, x <= hi)
        return x

    def bool_var(self, name: str) -> Any:
        return z3.Bool(name)

    def require(self, cond: Any) -> None:
        if cond is not True:
            self.solver.add(z3.BoolVal(False) if cond is False else cond)

    def define(self, cond: Any, name: str) -> Any:
        if isinstance(cond, bool):
            return cond
        named = z3.Bool(name)
        self.solver.add(named == cond)
        return named

    def distinct(self, xs: Sequence[Any]) -> None:
        if len(xs) > 1:
            self.solver.add(z3.Distinct(*xs))

    def _reader(self) -> Read:
        return self._read_in(self.solver.model())

    @staticmethod
    def _read_in(model: Any) -> Read:
        def read(term: Any) -> int:
            if isinstance(term, int):
                return int(term)
            value = model.eval(term, model_completion=True)
            return int(z3.is_true(value)) if z3.is_bool(value) else int(value.as_long())

        return read

    def check(self, deadline: Deadline, *assumptions: Any) -> Read | None:
        """A solution with every one of ``assumptions`` (conditions) true, or ``None``: none exists."""
        if any(a is False for a in assumptions):
            return None
        extra = [a for a in assumptions if a is not True]
        return self._reader() if z3_check(self.solver, deadline, *extra) == z3.sat else None

    def lex_min(self, terms: Sequence[tuple[Any, int]], deadline: Deadline) -> Read | None:
        """The solution smallest in ``terms`` (``(term, span)``, each term's values in ``0 .. span -
        1``, first term first), or ``None``; the model is left as it was. Each term in turn: a
        solution with the term smaller than the last one found, until there is none; then the term
        is fixed at that least value (a solution usually jumps several values at once)."""
        solver = self.solver
        if z3_check(solver, deadline) != z3.sat:
            return None
        model = solver.model()  # before push: push drops the last check's model
        solver.push()
        try:
            for term, _ in terms:
                if isinstance(term, int):
                    continue
                least = model.eval(term, model_completion=True).as_long()
                while least > 0 and z3_check(solver, deadline, term < least) == z3.sat:
                    model = solver.model()
                    least = model.eval(term, model_completion=True).as_long()
                solver.add(term == least)
        finally:
            solver.pop()
        return self._read_in(model)


class CpSatModel:
    """An OR-Tools CP-SAT model over :class:`CpSatOps` (one worker, fixed seed: ``solver.common``)."""

    def __init__(self) -> None:
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self.ops: CpSatOps = CpSatOps(self.model)

    def int_var(self, lo: int, hi: int, name: str) -> Any:
        return self.ops.int_var(lo, hi, name)

    def bool_var(self, name: str) -> Any:
        return self.ops.bool_var()

    def require(self, cond: Any) -> None:
        if cond is False:
            self.model.add_bool_or([])
        elif cond is not True:
            self.model.add_bool_and([cond.literal])

    def define(self, cond: Any, name: str) -> Any:
        return cond

    def distinct(self, xs: Sequence[Any]) -> None:
        if len(xs) > 1:
            self.model.add_all_different([self.ops.expr(x) for x in xs])

    def _reader(self, solver: Any) -> Read:
        def read(term: Any) -> int:
            if isinstance(term, int):
                return int(term)
            if isinstance(term, CpBool):
                return int(solver.boolean_value(term.literal))
            return int(solver.value(self.ops.expr(term)))

        return read

    def check(self, deadline: Deadline, *assumptions: Any) -> Read | None:
        if any(a is False for a in assumptions):
            return None
        self.model.clear_assumptions()
        self.model.add_assumptions([a.literal for a in assumptions if a is not True])
        solver = cpsat_solve(self.model, deadline)
        return None if solver is None else self._reader(solver)

    def lex_min(self, terms: Sequence[tuple[Any, int]], deadline: Deadline) -> Read | None:
        solver = cpsat_lex_min(
            self.model,
            [(t, span) if isinstance(t, int) else (self.ops.expr(t), span) for t, span in terms],
            deadline,
        )
        return None if solver is None else self._reader(solver)
