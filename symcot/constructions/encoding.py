r"""What ``y_t`` must carry, when the chain stops, and how large λ is: stated once per construction.

``def:algorelationbycot`` asks ``π(y_t) = enc(s_t)`` for a fixed encoding ``enc`` of the algorithm's
states. A construction states ``enc`` block by block with the small vocabulary below, over the *fields*
of the reference's states (attributes or properties of its state objects, e.g. ``DfsState.cur``,
``DfsState.par_cur``, ``DkstState.vst``); every engine reads that one statement:

* the exact checker evaluates it per state (:meth:`StateEncoding.expected`),
* the batched checker evaluates it on arrays of fields over all steps (:meth:`StateEncoding.table`),
* symbolic replay evaluates it per state with ``λ`` a symbol (the same :meth:`StateEncoding.expected`).

Terms (each fills one block; ``k`` is the block's size at the instance's sizes):

* :func:`onehot` -- ``e_{s.f}`` (``0^k`` when ``s.f`` is ``None``);
* :func:`indicator` -- ``1[i ∈ s.f]`` for ``i < k`` (``s.f`` a set of indices);
* :func:`scalar` -- ``[scale·s.f + offset]``;
* :func:`vector` -- ``s.f`` itself, with ``∞`` (:data:`symcot.algorithms.dijkstra.INF`, any object whose
  ``is_infinite`` is true) replaced by ``λ``;
* :func:`flat` -- the matrix ``s.f`` row by row;
* :func:`const` -- ``c`` in every coordinate.

A term compared only at some steps says so with ``when=`` (a field whose truth value decides) and/or
``from_step=``. :class:`StopRule` is the stop rule ("``π_cur(y_t) = 0^n``"), :class:`LambdaRule` the
construction's ``λ`` as a formula in the sizes and the input's largest weight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import sympy as sp

Kind = Literal["onehot", "indicator", "scalar", "vector", "flat", "const"]

_INT64 = 1 << 63

#: Field kinds of the arrays :func:`field_arrays` builds, by term kind.
_NEEDS = {"onehot": "index", "indicator": "set", "scalar": "scalar", "vector": "vector", "flat": "matrix"}


def _infinite(v: Any) -> bool:
    return bool(getattr(v, "is_infinite", False)) and not isinstance(v, sp.Basic)


@dataclass(frozen=True)
class Term:
    """How one block encodes a field of the state (see the module docstring for the kinds)."""

    kind: Kind
    field: str | None = None
    value: Any = 0
    scale: Any = 1
    offset: Any = 0
    when: str | None = None
    from_step: int = 0

    def present(self, state: Any, t: int) -> bool:
        """Whether the block is compared at this state."""
        if t < self.from_step:
            return False
        return self.when is None or bool(getattr(state, self.when))

    def values(self, state: Any, size: int, lam: Any) -> list[Any]:
        """The block's exact values at ``state`` (``size`` coordinates; ``λ`` for ``∞``)."""
        if self.kind == "const":
            return [self.value] * size
        assert self.field is not None
        v = getattr(state, self.field)
        if self.kind == "onehot":
            return [1 if v is not None and j == v else 0 for j in range(size)]
        if self.kind == "indicator":
            return [1 if j in v else 0 for j in range(size)]
        if self.kind == "scalar":
            return [self.scale * v + self.offset if (self.scale, self.offset) != (1, 0) else v]
        if self.kind == "vector":
            return [lam if _infinite(x) else x for x in v]
        return [x for row in v for x in row]  # flat

    def describe(self) -> str:
        """The term as a formula (for documentation and traces)."""
        f = self.field
        if self.kind == "const":
            text = f"{self.value}"
        elif self.kind == "onehot":
            text = f"e_{{{f}}}"
        elif self.kind == "indicator":
            text = f"1[· ∈ {f}]"
        elif self.kind == "scalar":
            text = f if (self.scale, self.offset) == (1, 0) else f"{self.scale}·{f} + {self.offset}"
        elif self.kind == "vector":
            text = f"{f} (∞ ↦ λ)"
        else:
            text = f"vec({f})"
        cond = [f"t ≥ {self.from_step}"] if self.from_step else []
        cond += [self.when] if self.when else []
        return text + (f"  (when {' and '.join(cond)})" if cond else "")


def onehot(f: str, when: str | None = None, from_step: int = 0) -> Term:
    """``e_{s.f}``; ``0^k`` when the field is ``None`` (e.g. ``φ``)."""
    return Term("onehot", f, when=when, from_step=from_step)


def indicator(f: str, when: str | None = None, from_step: int = 0) -> Term:
    """The indicator vector of the set ``s.f``."""
    return Term("indicator", f, when=when, from_step=from_step)


def scalar(f: str, scale: Any = 1, offset: Any = 0, when: str | None = None, from_step: int = 0) -> Term:
    """``[scale·s.f + offset]``."""
    return Term("scalar", f, scale=scale, offset=offset, when=when, from_step=from_step)


def vector(f: str, when: str | None = None, from_step: int = 0) -> Term:
    """The vector ``s.f`` with ``∞ ↦ λ``."""
    return Term("vector", f, when=when, from_step=from_step)


def flat(f: str, when: str | None = None, from_step: int = 0) -> Term:
    """The matrix ``s.f`` flattened row by row."""
    return Term("flat", f, when=when, from_step=from_step)


def const(value: Any, when: str | None = None, from_step: int = 0) -> Term:
    """``value`` in every coordinate of the block."""
    return Term("const", None, value=value, when=when, from_step=from_step)


@dataclass(frozen=True)
class StateEncoding:
    """``enc``: block name → :class:`Term`, in the order the proof lists them."""

    blocks: Mapping[str, Term]

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocks", dict(self.blocks))

    def expected(self, state: Any, t: int, sizes: Mapping[str, int], lam: Any = None) -> dict[str, list[Any]]:
        """``{block: exact values}`` that ``y_t`` must carry for the reference state ``state``."""
        return {b: term.values(state, sizes[b], lam) for b, term in self.blocks.items() if term.present(state, t)}

    def extended(self, **more: Term) -> StateEncoding:
        """The encoding with further blocks (a construction that appends blocks to another's layout)."""
        return StateEncoding({**self.blocks, **more})

    def fields(self) -> set[str]:
        """The state fields the encoding reads."""
        out = {t.field for t in self.blocks.values() if t.field is not None}
        return out | {t.when for t in self.blocks.values() if t.when is not None}

    # -- batched ---------------------------------------------------------------------------------------
    def table(self, states: Sequence[Any], sizes: Mapping[str, int], lam: Any = None) -> dict[str, Any] | None:
        """Every step at once: ``{block: int64 (T + 1, k)}``, or ``(array, present)`` for a partial block.

        A block compared at some steps only comes with the boolean mask of those steps. ``None`` when a
        value is not an integer within int64 (a ``Fraction`` weight, a symbolic ``λ``): the caller then uses
        :meth:`expected` step by step.
        """
        if lam is not None and (not isinstance(lam, int) or not -_INT64 <= lam < _INT64):
            return None
        try:
            arrays = field_arrays(states, self, sizes)
        except OverflowError:  # a value beyond int64
            return None
        if arrays is None:
            return None
        steps = len(states)
        out: dict[str, Any] = {}
        for b, term in self.blocks.items():
            mask = None
            if term.when is not None or term.from_step:
                mask = np.arange(steps) >= term.from_step
                if term.when is not None:
                    mask &= arrays[term.when, "bool"]
            present = np.ones(steps, dtype=bool) if mask is None else mask
            a = _block_array(term, arrays, steps, sizes[b], lam, present)
            if a is None:
                return None
            out[b] = a if mask is None else (a, mask)
        return out


def _block_array(term: Term, arrays: Mapping[str, Any], steps: int, k: int, lam: Any,
                 present: np.ndarray) -> np.ndarray | None:
    if term.kind == "const":
        if not isinstance(term.value, int):
            return None
        return np.full((steps, k), term.value, dtype=np.int64)
    assert term.field is not None
    a = arrays[term.field, _NEEDS[term.kind]]
    if term.kind == "onehot":
        return (a[:, None] == np.arange(k)[None, :]).astype(np.int64)
    if term.kind == "indicator":
        return a[:, :k].astype(np.int64)
    if term.kind == "scalar":
        vals, none = a
        if not (isinstance(term.scale, int) and isinstance(term.offset, int)) or (none & present).any():
            return None
        return (term.scale * vals + term.offset).reshape(steps, 1).astype(np.int64)
    if term.kind == "vector":
        vals, inf = a
        if inf.any():
            if lam is None:
                return None
            vals = np.where(inf, lam, vals)
        return vals.astype(np.int64)
    return a.reshape(steps, -1).astype(np.int64)  # flat


def field_arrays(states: Sequence[Any], enc: StateEncoding,  # noqa: C901 - one branch per field kind, read as a table
                 sizes: Mapping[str, int]) -> dict[tuple[str, str], Any] | None:
    """The fields the encoding reads, as arrays over the steps, by ``(field, kind)``.

    ``None`` if a value is not an int64 integer (the caller then reads the states one by one).
    """
    steps = len(states)
    out: dict[tuple[str, str], Any] = {}
    kinds: dict[tuple[str, str], int] = {}
    for b, term in enc.blocks.items():
        if term.field is not None:
            kinds[(term.field, _NEEDS[term.kind])] = sizes[b]
        if term.when is not None:
            kinds[(term.when, "bool")] = 1
    for (f, kind), k in kinds.items():
        vals = [getattr(s, f) for s in states]
        if kind == "bool":
            out[f, kind] = np.array([bool(v) for v in vals], dtype=bool)
        elif kind == "index":
            out[f, kind] = np.array([-1 if v is None else v for v in vals], dtype=np.int64)
        elif kind == "set":
            m = np.zeros((steps, k), dtype=bool)
            rows = [t for t, v in enumerate(vals) for _ in v]
            cols = [j for v in vals for j in v]
            if cols and max(cols) >= k:
                return None
            m[rows, cols] = True
            out[f, kind] = m
        elif kind == "scalar":  # None (a value undefined at that step) is kept apart: masked, or no table
            none = np.array([v is None for v in vals], dtype=bool)
            if not all(type(v) is int for v in vals if v is not None):
                return None
            out[f, kind] = (np.array([0 if v is None else v for v in vals], dtype=np.int64), none)
        elif kind == "vector":
            inf = np.array([[_infinite(x) for x in v] for v in vals], dtype=bool).reshape(steps, k)
            flat_vals = [0 if _infinite(x) else x for v in vals for x in v]
            if not all(type(x) is int for x in flat_vals):
                return None
            out[f, kind] = (np.array(flat_vals, dtype=np.int64).reshape(steps, k), inf)
        else:  # matrix
            flat_vals = [x for v in vals for row in v for x in row]
            if not all(type(x) is int for x in flat_vals):
                return None
            out[f, kind] = np.array(flat_vals, dtype=np.int64).reshape(steps, k)
    return out


# -- the stop rule ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StopRule:
    """The chain stops at the first ``y_t`` whose block ``block`` is ``value`` in every coordinate.

    ``π_cur(y_t) = 0^n`` (DFS) is ``StopRule("cur", 0)``; ``π_vis(y_t) = 1^n`` (Dijkstra) is
    ``StopRule("vis", 1)``. ``source`` quotes the paper.
    """

    block: str
    value: int
    source: str = ""

    def fires(self, layout: Any, y: Sequence[Any]) -> bool:
        """Whether the rule fires on ``y`` (exact values, or symbolic values already settled)."""
        return all(v == self.value for v in layout.pi(self.block, y))

    def fires_batched(self, view: Any) -> np.ndarray:
        """The rule on every row of a batched step (``view.block(name)``: one column per input)."""
        blk = np.asarray(view.block(self.block))
        want = self.value * view.scale if getattr(view, "scale", 1) != 1 else self.value
        return ~np.asarray(blk != want, dtype=bool).any(axis=0)

    def describe(self) -> str:
        """``π_cur(y_t) = 0``."""
        return f"π_{self.block}(y_t) = {self.value} in every coordinate"


# -- λ ----------------------------------------------------------------------------------------------------

#: The input's largest arc weight, in :class:`LambdaRule` formulas.
W = sp.Symbol("W", positive=True)


@dataclass(frozen=True)
class LambdaRule:
    """The construction's ``λ`` as a formula in its size symbols and ``W`` (the input's largest weight).

    ``value(env, weight)`` is what the construction uses on an input; symbolic replay reads the same
    formula as the lower bound ``λ ≥ formula`` (for each arc weight in place of ``W``: the formula must
    be non-decreasing in ``W``). ``source`` says where the paper asks for it.
    """

    formula: sp.Expr
    source: str = ""
    text: str = ""

    def value(self, env: Mapping[sp.Symbol, Any], weight: Any = 1) -> Any:
        """``λ`` at these sizes and this largest weight (exact: ``int`` when integral)."""
        v = sp.sympify(self.formula).subs({**env, W: weight})
        if v.free_symbols:
            raise ValueError(f"λ rule {self.formula} has unbound symbols {sorted(map(str, v.free_symbols))}")
        q = Fraction(int(v.p), int(v.q)) if v.is_Rational else None
        if q is None:
            raise ValueError(f"λ rule {self.formula} is not rational at {env}, W = {weight}: {v}")
        return q.numerator if q.denominator == 1 else q

    def describe(self) -> str:
        """``λ = 2n - 1``."""
        return self.text or f"λ = {self.formula}"


