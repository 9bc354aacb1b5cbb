"""Straight-line C in int64 arithmetic, emitted one operation at a time (checked, or plain where proved safe)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

Val = str | int  # a C expression of type int64_t (a variable or array element) or a folded constant


def lit(c: int) -> str:
    """A C literal of type ``int64_t`` for ``c`` (which fits int64)."""
    return "INT64_MIN" if c == INT64_MIN else f"((int64_t){c}LL)"


def fits(c: int) -> bool:
    """Whether ``c`` is an int64."""
    return INT64_MIN <= c <= INT64_MAX


class Emitter:
    """Straight-line C in int64 arithmetic; constants are folded, zeros and ones simplified, repeats shared.

    Values are :data:`Val`: a C expression (``str``) or a Python ``int`` that fits int64. An operation whose
    exact result is known not to fit emits ``ovf = 1``; one that may overflow sets ``ovf`` through a
    ``__builtin_*_overflow`` check, unless the emitter is *plain* (``checked=False``: for the fast path,
    whose caller has proved that nothing overflows).
    """

    def __init__(self, checked: bool = True) -> None:
        self.lines: list[str] = []
        self.n = 0
        self.memo: dict[tuple[str, Val, Val], str] = {}  # common subexpressions (same check, same value)
        self.checked = checked  # False: plain int64 operations (only where a bound proves they cannot overflow)

    @contextlib.contextmanager
    def checking(self) -> Iterator[None]:
        """Operations emitted inside are checked even in an unchecked emitter."""
        was, self.checked = self.checked, True
        try:
            yield
        finally:
            self.checked = was

    def _op(self, op: str, a: Val, b: Val, line: Callable[[str], str]) -> str:
        """A new variable ``v`` set by ``line(v)``, or the one already computing ``(op, a, b)``."""
        key = (op, a, b)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.fresh()
            self.emit(line(got))
        return got

    def emit(self, line: str) -> None:
        """Append one line of C."""
        self.lines.append(line)

    def fresh(self) -> str:
        """A new local variable name."""
        self.n += 1
        return f"v{self.n}"

    def const(self, c: int) -> Val:
        """The constant ``c``; if it does not fit int64 the push overflows (``ovf = 1``)."""
        if fits(c):
            return c
        self.emit("ovf = 1;")
        return 0

    def assign(self, expr: str) -> str:
        """A new variable holding the (unchecked) expression ``expr``."""
        v = self.fresh()
        self.emit(f"const int64_t {v} = {expr};")
        return v

    def neg(self, a: Val) -> Val:
        """``-a``, checked (``-INT64_MIN`` overflows)."""
        if isinstance(a, int):
            return self.const(-a)
        if not self.checked:
            return self._op("neg", a, 0, lambda v: f"const int64_t {v} = -{a};")
        return self._op("neg", a, 0, lambda v: f"int64_t {v}; ovf |= __builtin_sub_overflow((int64_t)0, {a}, &{v});")

    def mul(self, a: Val, b: Val) -> Val:
        """``a·b``, checked (``b`` may be any Python ``int``, e.g. a coefficient beyond int64)."""
        if isinstance(a, int):
            a, b = b, a
        if isinstance(a, int):
            assert isinstance(b, int)
            return self.const(a * b)
        if isinstance(b, int):
            if b == 0:
                return 0
            if b == 1:
                return a
            if b == -1:
                return self.neg(a)
            if not fits(b):  # |a·b| ≥ |b| > int64 unless a = 0
                self.emit(f"ovf |= ({a} != 0);")
                return 0
        return self._binary("mul", a, b)

    def add(self, a: Val, b: Val) -> Val:
        """``a + b``, checked."""
        if isinstance(a, int) and isinstance(b, int):
            return self.const(a + b)
        if isinstance(a, int):
            a, b = b, a
        if b == 0:
            return a
        return self._binary("add", a, b)

    def _binary(self, op: str, a: Val, b: Val) -> str:
        """``a + b`` or ``a·b`` (``op`` ``add``/``mul``) of a variable and a variable or int64 constant."""
        if isinstance(b, int):
            bs = lit(b)
        else:
            a, b = min(str(a), b), max(str(a), b)  # one order for commuted operands: one shared variable
            bs = b
        sym = {"add": "+", "mul": "*"}[op]
        if not self.checked:
            return self._op(op, a, b, lambda v: f"const int64_t {v} = {a} {sym} {bs};")
        return self._op(op, a, b, lambda v: f"int64_t {v}; ovf |= __builtin_{op}_overflow({a}, {bs}, &{v});")

    def relu(self, a: Val) -> Val:
        """``max(a, 0)`` (cannot overflow)."""
        if isinstance(a, int):
            return max(a, 0)
        return self._op("relu", a, 0, lambda v: f"const int64_t {v} = {a} > 0 ? {a} : 0;")

    def value(self, a: Val) -> str:
        """``a`` as a C expression."""
        return lit(a) if isinstance(a, int) else a
