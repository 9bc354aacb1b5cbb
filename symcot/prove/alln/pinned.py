r"""The prover's reading of a statement, evaluated on a real run: the Z3 terms with every symbol pinned.

A fact, a view or a choice is a Python function read twice: on Python numbers (:class:`~symcot.algorithms.
logic.Concrete`, the concrete phase) and on Z3 terms (:class:`~symcot.prove.alln.ops.Symbolic`, the
proof). The two readings can differ (Python's ``and`` on terms, ``//`` against Z3's ``/``, a branch on
``==``). :class:`Pinned` is the Z3 reading with each uninterpreted symbol replaced by the reference run's
value: the terms the prover would build, evaluated by Z3's simplifier to numbers. :func:`check_z3_reading`
compares them with the concrete reading on a run (facts at every assignment of their variables, every view
at every step, the step count, the sizes, the segments' counts, every head's choice at every step and at every
prompt token it is stated for): a
difference is a statement the prover does not read as the concrete phase checked it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import z3
from z3 import z3core

from symcot.algorithms.logic import Concrete, assignments, normalise
from symcot.constructions.alln import AllNStatement, Y
from symcot.prove.alln.ops import Symbolic, SymbolicTruthiness, reading
from symcot.prove.alln.term import LAMBDA


class PinError(Exception):
    """A term that the pinned reading cannot evaluate to a number."""


def _numeral(v: z3.ExprRef) -> Any:
    """An integer numeral, ``true`` or ``false`` as a Python value, read by Z3's C API; else ``None``.

    Most values are numerals already (the pinned symbols' values): read so, without the simplifier and without
    the Python API's layers of sort and kind tests (most of the concrete phase's time went there).
    """
    ctx, a = v.ctx.ref(), v.as_ast()
    kind = z3core.Z3_get_ast_kind(ctx, a)
    if kind == z3.Z3_NUMERAL_AST:
        if z3core.Z3_get_sort_kind(ctx, z3core.Z3_get_sort(ctx, a)) == z3.Z3_INT_SORT:
            return int(z3core.Z3_get_numeral_string(ctx, a))
        return None
    if kind == z3.Z3_APP_AST:
        op = z3core.Z3_get_decl_kind(ctx, z3core.Z3_get_app_decl(ctx, a))
        if op == z3.Z3_OP_TRUE:
            return True
        if op == z3.Z3_OP_FALSE:
            return False
    return None


def number(v: Any) -> Any:
    """A Python or Z3 value as a Python ``int``, ``bool`` or ``Fraction``-like number."""
    if isinstance(v, (bool, int)):
        return v
    if not isinstance(v, z3.ExprRef):
        return v
    fast = _numeral(v)
    if fast is not None:
        return fast
    s = v if z3.is_true(v) or z3.is_false(v) else z3.simplify(v)
    if z3.is_true(s):
        return True
    if z3.is_false(s):
        return False
    if z3.is_int_value(s):
        return s.as_long()
    if z3.is_rational_value(s):
        from fractions import Fraction

        f = Fraction(s.numerator_as_long(), s.denominator_as_long())
        return f.numerator if f.denominator == 1 else f
    raise PinError(f"the term {str(s)[:80]} does not evaluate to a number on the run")


#: Z3 numerals by value, made once: a run's values are few and read hundreds of thousands of times.
_VALUES: dict[tuple[str, int], z3.ExprRef] = {}


def _z3_value(v: Any, sort: str) -> Any:
    key = ("bool", int(bool(v))) if sort == "bool" else ("int", int(v))
    made = _VALUES.get(key)
    if made is None:
        made = _VALUES[key] = z3.BoolVal(bool(key[1])) if sort == "bool" else z3.IntVal(key[1])
    return made


def _int(v: int) -> Any:
    """The integer numeral ``v``."""
    return _z3_value(v, "int")


class Pinned(Symbolic):
    """The Z3 interpretation with every symbol pinned to a run's values (``vec``, ``set``, ``mat`` materialised)."""

    def __init__(self, stmt: AllNStatement, values: dict[str, Any], lam: Any = None):
        super().__init__(stmt.vocabulary)
        for s in stmt.vocabulary.symbols:
            val = values[s.name]
            if s.arity == 0:
                self._values[s.name] = _z3_value(val, s.sort)
            else:
                self._values[s.name] = self._pin(val, s.sort)
        if lam is not None:
            self.bind("lam", z3.RealVal(str(lam)))

    #: Traced terms (:class:`~symcot.prove.alln.trace.TermFn`) evaluate on this interpretation with Z3's simplifier.
    number = staticmethod(number)

    def pin_value(self, name: str, args: list[Any]) -> Any:
        """The run's value of symbol ``name`` at the numerals ``args`` (``λ!``: the row's λ)."""
        if name == LAMBDA:
            return self._values["lam"]
        got = self._values[name]
        return got(*args) if args else got

    @staticmethod
    def _pin(fn: Callable[..., Any], sort: str) -> Callable[..., Any]:
        seen: dict[tuple[Any, ...], Any] = {}

        def f(*args: Any) -> Any:
            key = tuple(number(a) for a in args)
            got = seen.get(key)
            if got is None:
                got = seen[key] = _z3_value(fn(*key), sort)
            return got

        return f

    @staticmethod
    def vec(f: Callable[[Any], Any], size: Any) -> Any:
        """The vector, as :class:`Concrete` gives it."""
        return [number(f(_int(j))) for j in range(number(size))]

    @staticmethod
    def set(p: Callable[[Any], Any], size: Any) -> Any:
        """The set, as :class:`Concrete` gives it."""
        return frozenset(j for j in range(number(size)) if number(p(_int(j))))

    @staticmethod
    def mat(f: Callable[[Any, Any], Any], rows: Any, cols: Any) -> Any:
        """The matrix, as :class:`Concrete` gives it."""
        return [[number(f(_int(a), _int(b))) for b in range(number(cols))] for a in range(number(rows))]


@dataclass
class ReadingDifference:
    """Where the Z3 reading of a statement differs from its Python reading on a run."""

    what: str
    python: Any
    z3: Any

    def text(self) -> str:
        """One line."""
        return f"{self.what}: Python reading {self.python!r}, Z3 reading {self.z3!r}"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    return bool(normalise(a) == normalise(b))


def _read(label: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the pinned reading, materialised to Python values (a message where it cannot be)."""
    try:
        with reading(label):
            return _materialise(fn(*args))
    except SymbolicTruthiness:
        raise
    except Exception as e:  # noqa: BLE001 - the Z3 reading fails where the Python one ran: a difference
        return f"<{type(e).__name__}: {e}>"


def _facts(stmt: AllNStatement, conc: Concrete, pin: Pinned) -> Iterable[ReadingDifference]:
    for fact in stmt.vocabulary.facts:
        for vals in assignments(conc, fact.vars):
            zs = [_int(x) for x in vals]
            for k, var in enumerate(fact.vars):
                for end in ("lo", "hi"):
                    bound = getattr(var, end)
                    py, zv = bound(conc, *vals[:k]), _read(f"fact {fact.name}", bound, pin, *zs[:k])
                    if not _same(py, zv):
                        yield ReadingDifference(f"fact {fact.name}, bound {end} of {var.name} at {vals[:k]}", py, zv)
                        return
            zv = _read(f"fact {fact.name}", fact.body, pin, *zs)
            if zv is not True:
                yield ReadingDifference(f"fact {fact.name} at {dict(zip([v.name for v in fact.vars], vals))}",
                                        bool(fact.body(conc, *vals)), zv)
                return


def _views(stmt: AllNStatement, conc: Concrete, pin: Pinned, T: int) -> Iterable[ReadingDifference]:
    for name, view in stmt.all_views().items():
        for t in range(T + 1):
            py = view(conc, t)
            zv = _read(f"view {name}", view, pin, _int(t))
            if not _same(py, zv):
                yield ReadingDifference(f"view {name} at step {t}", py, zv)
                return
    for seg in [*stmt.segments, stmt.y0]:
        count = seg.count(conc)
        for name, view in seg.views.items():
            for i in range(count):
                py = view(conc, i)
                zv = _read(f"view {name} of segment {seg.cls}", view, pin, _int(i))
                if not _same(py, zv):
                    yield ReadingDifference(f"view {name} of segment {seg.cls} at {i}", py, zv)
                    return


def _materialise(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_materialise(x) for x in v]
    if isinstance(v, (frozenset, str)) or v is None:
        return v
    return number(v)


def _scalars(stmt: AllNStatement, conc: Concrete, pin: Pinned) -> Iterable[ReadingDifference]:
    items: list[tuple[str, Callable[[Any], Any]]] = [("the step count T", stmt.steps)]
    items += [(f"size {sym}", fn) for sym, fn in stmt.sizes.items()]
    items += [(f"the count of segment {seg.cls}", seg.count) for seg in stmt.segments]
    for label, fn in items:
        py, zv = fn(conc), _read(label, fn, pin)
        if not _same(py, zv):
            yield ReadingDifference(label, py, zv)


def _choices(stmt: AllNStatement, conc: Concrete, pin: Pinned, T: int) -> Iterable[ReadingDifference]:
    """Every choice at every step (at a generated token) or at every token of its segment (at a prompt token)."""
    for ch in stmt.choices:
        label = f"the choice of head {ch.head} at layer {ch.layer}"
        if ch.cls == Y:
            params, at = range(T), "at step "
        else:
            params, at = range(int(stmt.segment(ch.cls).count(conc))), f"at {ch.cls}_"
        for t in params:
            py = next(([cls, p] for cond, cls, p in ch.cases(conc, t) if cond), None)
            zv = _read(f"{label} at {ch.cls}" if ch.cls != Y else label, _chosen, ch.cases, pin, _int(t))
            if py != zv:
                yield ReadingDifference(f"{label} {at}{t}", py, zv)
                return


def _chosen(cases: Callable[[Any, Any], Any], pin: Pinned, t: Any) -> Any:
    """The first case whose condition holds, as ``[class, parameter]``."""
    return next(([cls, p] for cond, cls, p in cases(pin, t) if number(cond)), None)


def check_z3_reading(stmt: AllNStatement, values: dict[str, Any], lam: Any = None,
                     facts: bool = True) -> ReadingDifference | None:
    """The first place where the prover's reading of ``stmt`` differs from the concrete one on a run, or None.

    ``values`` is the vocabulary's interpretation of the run (``vocabulary.interpret(inp, states)``);
    ``facts``: also every fact at every assignment (the costliest part). Where the row has a λ, both readings
    bind it as ``lam`` (a view that writes ``∞`` as the weights' λ reads it on either side).
    """
    conc = Concrete(values if lam is None else {**values, "lam": lam})
    pin = Pinned(stmt, values, lam)
    T = int(stmt.steps(conc))
    parts: list[Iterable[ReadingDifference]] = [_scalars(stmt, conc, pin), _views(stmt, conc, pin, T),
                                                _choices(stmt, conc, pin, T)]
    if facts:
        parts.insert(0, _facts(stmt, conc, pin))
    for part in parts:
        for diff in part:
            return diff
    return None
