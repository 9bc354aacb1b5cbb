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
* :func:`vector` -- ``s.f`` itself, with ``∞`` (a reference's infinity: any object whose
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
from dataclasses import field as dc_field
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import sympy as sp

from symcot.algorithms.batched.fields import Fields
from symcot.errors import caller_site

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
    #: ``file:line`` where the term was written (for errors in the names it reads).
    site: str = dc_field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.site:
            object.__setattr__(self, "site", caller_site())

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
        f = self.field or ""
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
    #: ``file:line`` where the encoding was written (for errors in its block names).
    site: str = dc_field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocks", dict(self.blocks))
        if not self.site:
            object.__setattr__(self, "site", caller_site())

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
        :meth:`expected` step by step. This is :meth:`evaluate` on a batch of one run.
        """
        if lam is not None and (not isinstance(lam, int) or not -_INT64 <= lam < _INT64):
            return None
        try:
            arrays = field_arrays(states, self, sizes)
        except OverflowError:  # a value beyond int64
            return None
        if arrays is None:
            return None
        blocks = self.evaluate({k: _batch_of_one(v) for k, v in arrays.items()}, len(states), sizes, lam)
        if blocks is None or any(bv.unrepresentable.any() for bv in blocks.values()):
            return None
        return {b: bv.dense()[0] if bv.present is None else (bv.dense()[0], bv.present[0]) for b, bv in blocks.items()}

    def evaluate(self, arrays: Mapping[tuple[str, str], Any], steps: int, sizes: Mapping[str, int],
                 lam: Any = None) -> dict[str, BlockValues] | None:
        """Every block at every step of a batch of runs, from the fields as arrays ``(B, S, …)``.

        ``arrays`` is what :func:`field_arrays` (one run) or :func:`batch_field_arrays` (a batch) gives.
        ``None`` when the encoding cannot be read as integers at all (a constant or a scale that is not an
        ``int``); a row that cannot (a ``None`` where a scalar is compared, ``∞`` without an integer ``λ``) is
        marked in its block's ``unrepresentable``.
        """
        if lam is not None and (not isinstance(lam, int) or not -_INT64 <= lam < _INT64):
            lam = None
        batch = _batch_size(arrays)
        out: dict[str, BlockValues] = {}
        for b, term in self.blocks.items():
            present = None
            if term.when is not None or term.from_step:
                present = np.broadcast_to(np.arange(steps) >= term.from_step, (batch, steps)).copy()
                if term.when is not None:
                    present &= arrays[term.when, "bool"]
            bv = _block_values(term, arrays, batch, steps, sizes[b], lam,
                               np.ones((batch, steps), dtype=bool) if present is None else present)
            if bv is None:
                return None
            bv.present = present
            out[b] = bv
        return out


@dataclass
class BlockValues:
    """One block's expected values over a batch of runs: ``form`` and ``data`` (see :meth:`dense`).

    ``form`` is ``"index"`` (``data`` ``(B, S)``: the block is ``e_{data}``, ``0^k`` for ``-1`` or an index
    beyond ``k``), ``"values"`` (``data`` ``(B, S, k)`` integers, int8 or int64) or ``"const"`` (``data`` an
    ``int`` in every coordinate). ``present`` (``(B, S)`` bool, or ``None`` for every step) says where the
    block is compared; ``unrepresentable`` (``(B,)``) marks rows whose values are not integers here.
    """

    form: str
    data: Any
    size: int
    steps: int
    unrepresentable: np.ndarray
    present: np.ndarray | None = None

    def dense(self) -> np.ndarray:
        """The values as int64 ``(B, S, k)``."""
        if self.form == "const":
            return np.full((len(self.unrepresentable), self.steps, self.size), self.data, dtype=np.int64)
        if self.form == "index":
            return (self.data[..., None] == np.arange(self.size)).astype(np.int64)
        return np.asarray(self.data, dtype=np.int64)


def _batch_size(arrays: Mapping[tuple[str, str], Any]) -> int:
    for v in arrays.values():
        return int((v[0] if isinstance(v, tuple) else v).shape[0])
    return 1


def _batch_of_one(v: Any) -> Any:
    """A field array of one run with a batch axis in front."""
    return tuple(x[None] for x in v) if isinstance(v, tuple) else v[None]


def _block_values(term: Term, arrays: Mapping[tuple[str, str], Any], batch: int, steps: int, k: int, lam: Any,
                  present: np.ndarray) -> BlockValues | None:
    none_bad = np.zeros(batch, dtype=bool)
    if term.kind == "const":
        if not isinstance(term.value, int):
            return None
        return BlockValues("const", term.value, k, steps, none_bad)
    assert term.field is not None
    a = arrays[term.field, _NEEDS[term.kind]]
    if term.kind == "onehot":
        return BlockValues("index", a, k, steps, none_bad)
    if term.kind == "indicator":
        return BlockValues("values", a[..., :k].astype(np.int8), k, steps, none_bad)
    if term.kind == "scalar":
        vals, none = a
        if not (isinstance(term.scale, int) and isinstance(term.offset, int)):
            return None
        return BlockValues("values", (term.scale * vals + term.offset)[..., None].astype(np.int64), k,
                           steps, (none & present).any(axis=1))
    if term.kind == "vector":
        vals, inf = a  # inf: None when no entry is ∞ (a batched reference's field without ∞)
        bad = none_bad
        if inf is not None and inf.any():
            if lam is None:
                bad = inf.reshape(batch, -1).any(axis=1)
            else:
                vals = np.where(inf, lam, vals)
        return BlockValues("values", np.asarray(vals, dtype=np.int64), k, steps, bad)
    flat_vals = a.reshape(batch, steps, -1)  # flat
    return BlockValues("values", flat_vals if flat_vals.dtype == np.int8 else flat_vals.astype(np.int64), k, steps,
                       none_bad)


def field_arrays(states: Sequence[Any], enc: StateEncoding,  # noqa: C901 - one branch per field kind, read as a table
                 sizes: Mapping[str, int]) -> dict[tuple[str, str], Any] | None:
    """The fields the encoding reads, as arrays over the steps, by ``(field, kind)``.

    ``None`` if a value is not an int64 integer (the caller then reads the states one by one).
    """
    steps = len(states)
    out: dict[tuple[str, str], Any] = {}
    for (f, kind), k in _needs(enc, sizes).items():
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


def _needs(enc: StateEncoding, sizes: Mapping[str, int]) -> dict[tuple[str, str], int]:
    """``(field, kind) → block size`` for every field the encoding reads."""
    kinds: dict[tuple[str, str], int] = {}
    for b, term in enc.blocks.items():
        if term.field is not None:
            kinds[(term.field, _NEEDS[term.kind])] = sizes[b]
        if term.when is not None:
            kinds[(term.when, "bool")] = 1
    return kinds


def batch_field_arrays(fields: Fields, enc: StateEncoding,
                       sizes: Mapping[str, int]) -> tuple[dict[tuple[str, str], Any], np.ndarray]:
    """What :func:`field_arrays` gives for one run, for a batch of runs from a batched reference's :class:`Fields`.

    Returns the arrays ``(B, S, …)`` by ``(field, kind)`` and the rows that cannot be read as :func:`field_arrays`
    reads one run (a set with a member beyond its block).

    Raises:
        KeyError: the batched reference has no field the encoding reads.
        ValueError: a field of the wrong shape for its block.

    """
    batch, steps = len(fields.lengths), fields.steps
    bad = np.zeros(batch, dtype=bool)
    out: dict[tuple[str, str], Any] = {}
    for (f, kind), k in _needs(enc, sizes).items():
        v = fields.values[f][:, :steps]
        miss = fields.missing.get(f)
        miss = None if miss is None else miss[:, :steps]
        if kind == "bool":
            out[f, kind] = v.astype(bool)
        elif kind == "index":
            out[f, kind] = np.asarray(v if miss is None else np.where(miss, -1, v), dtype=np.int64)
        elif kind == "set":
            width = v.shape[2]
            if width > k:
                bad |= v[..., k:].reshape(batch, -1).any(axis=1)
                v = v[..., :k]
            elif width < k:
                v = np.concatenate([v, np.zeros((batch, steps, k - width), dtype=bool)], axis=2)
            out[f, kind] = v.astype(bool)
        elif kind in ("scalar", "vector"):
            if kind == "vector" and v.shape[2:] != (k,):
                raise ValueError(f"field {f}: {v.shape[2:]} values per step for a block of {k}")
            if miss is None:
                miss = np.zeros(v.shape, dtype=bool) if kind == "scalar" else None
            vals = v if miss is None else np.where(miss, 0, v)
            out[f, kind] = (np.asarray(vals, dtype=np.int64), miss)
        else:  # matrix
            flat_vals = v.reshape(batch, steps, -1)
            if flat_vals.shape[2] != k:
                raise ValueError(f"field {f}: {flat_vals.shape[2]} values per step for a block of {k}")
            out[f, kind] = flat_vals if flat_vals.dtype == np.int8 else flat_vals.astype(np.int64)
    return out, bad


# -- the stop rule ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StopRule:
    """The chain stops at the first ``y_t`` whose block ``block`` is ``value`` in every coordinate.

    ``π_cur(y_t) = 0^n`` (DFS) is ``StopRule("cur", 0)``; ``π_vis(y_t) = 1^n`` (a shortest-path decoder) is
    ``StopRule("vis", 1)``. ``source`` quotes the paper.
    """

    block: str
    value: int
    source: str = ""
    #: ``file:line`` where the rule was written.
    site: str = dc_field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.site:
            object.__setattr__(self, "site", caller_site())

    def fires(self, layout: Any, y: Sequence[Any]) -> bool:
        """Whether the rule fires on ``y`` (exact values, or symbolic values already settled)."""
        return all(v == self.value for v in layout.pi(self.block, y))

    def fires_batched(self, view: Any) -> np.ndarray:
        """The rule on every row of a batched step (``view.block(name)``: one column per input)."""
        blk = np.asarray(view.block(self.block))
        want = self.value * view.scale if getattr(view, "scale", 1) != 1 else self.value
        return np.asarray(~np.asarray(blk != want, dtype=bool).any(axis=0))

    def describe(self) -> str:
        """``π_cur(y_t) = 0``."""
        return f"π_{self.block}(y_t) = {self.value} in every coordinate"


# -- λ ----------------------------------------------------------------------------------------------------

#: The input's largest arc weight, in :class:`LambdaRule` formulas.
W = sp.Symbol("W", positive=True)


#: λ values kept by :meth:`LambdaRule.value` (the cache starts over beyond).
LAMBDA_CACHE_LIMIT = 4096
_LAMBDA_VALUES: dict[Any, Any] = {}


@dataclass(frozen=True)
class LambdaRule:
    """The construction's ``λ`` as a formula in its size symbols and ``W`` (the input's largest weight).

    ``value(env, weight)`` is what the construction uses on an input; symbolic replay reads the same
    formula as the lower bound ``λ ≥ formula`` (for each arc weight in place of ``W``: the formula must
    be non-decreasing in ``W``). ``source`` says where the paper asks for it. ``scale`` is the term whose
    multiple the all-n prover's derived rule is (``λ ≥ a·scale + b``, :mod:`symcot.prove.lam.rule`); ``None``
    reads the statement's first size (``n``).
    """

    formula: sp.Expr
    source: str = ""
    text: str = ""
    scale: sp.Expr | None = None

    def value(self, env: Mapping[sp.Symbol, Any], weight: Any = 1) -> Any:
        """``λ`` at these sizes and this largest weight (exact: ``int`` when integral).

        Computed once per (rule, sizes, weight) (SymPy's substitution costs far more than a lookup, and every
        input of a size asks for the same value); the values kept are bounded (:data:`LAMBDA_CACHE_LIMIT`).
        """
        try:
            key: Any = (self, frozenset(env.items()), weight)
            hit = _LAMBDA_VALUES.get(key)
        except TypeError:  # an unhashable size or weight: no lookup
            key, hit = None, None
        if hit is not None:
            return hit
        out = self._value(env, weight)
        if key is not None:
            if len(_LAMBDA_VALUES) >= LAMBDA_CACHE_LIMIT:
                _LAMBDA_VALUES.clear()
            _LAMBDA_VALUES[key] = out
        return out

    def _value(self, env: Mapping[sp.Symbol, Any], weight: Any) -> Any:
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


