"""Batched exact replay: many inputs of one size decoded together under the rules of ``sec:trans``.

The rules are those of :mod:`symcot.model.semantics` (the single source of truth; a test compares the
two on many inputs, head choices included), applied to arrays whose last axis is the batch:

1. *Unique hard attention*: head ``h`` scores every cached position ``i`` by ``⟨K_h z_i, Q_h z_m⟩`` and
   selects, per batch row, the smallest index among the maxima.
2. *Multi-head*: ``α'' = W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``; trivial attention gives ``α'' = 0``.
3. *Residual around attention only*: ``W_2 ReLU(W_1(α'' + z))``.
4. *Causal layers over every token*: a token's keys and values are computed once, when it is appended,
   and cached per layer (``(positions, dim, batch)`` arrays).
5. *Chain of thought*: the last layer's output is appended as the next token; rows that need fewer
   steps than others retire (their arrays are dropped from the batch), the rest run on.

Maps (``ConcreteMap``) are compiled once per map and number type from their sparse terms: outputs that
copy one input coordinate become slice or gather copies, outputs with no term are zero, and the rest
form one integer matrix over the used input coordinates and the gathered coordinate pairs of the
quadratic terms (dense, or a gather/``reduceat`` sparse product when the matrix is mostly zeros).

Exactness is certified by :mod:`symcot.replay.scaling`: the numbers are integers (rational weights and
tokens are scaled to integers), the run uses float64 (BLAS) or int64 only where a bound proves every
partial sum fits, and otherwise object arrays of Python ``int``/``Fraction``. The run's
:class:`~symcot.replay.scaling.Certificate` says which and why.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import chain
from typing import Any

import numpy as np

from symcot.errors import DimensionError
from symcot.ir.layout import ConcreteLayout
from symcot.ir.maps import ConcreteMap
from symcot.model.decoder import ConcreteDecoder
from symcot.replay.scaling import (
    LIMITS,
    PATHS,
    Certificate,
    Hulls,
    IntMap,
    NotNumericError,
    ScaledDecoder,
    as_rational,
    choose_path,
    push_bound,
    scale_decoder,
    static_certificate,
    wider,
)

DTYPES = {"float32": np.float32, "float64": np.float64, "int64": np.int64, "object": object}


# -- maps -----------------------------------------------------------------------------------------


def _runs(copies: list[tuple[int, int, Any]]) -> list[tuple[int, int, int, Any]]:
    """Group ``(out, src, c)`` scaled copies into runs ``(out0, src0, length, c)`` of consecutive coordinates."""
    runs: list[tuple[int, int, int, Any]] = []
    for o, i, c in sorted(copies, key=lambda t: (t[0], t[1])):
        if runs and runs[-1][0] + runs[-1][2] == o and runs[-1][1] + runs[-1][2] == i and runs[-1][3] == c:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1, c)
        else:
            runs.append((o, i, 1, c))
    return runs


class _CompiledMap:
    """Evaluation of one polynomial map on ``(d_in, B)`` arrays of one number type.

    ``const``/``lin``/``quad`` hold the terms with coefficients already in the path's arithmetic (``int``
    for the numeric paths, ``int``/``Fraction`` for the exact path). ``outputs`` restricts (and orders)
    the outputs computed; ``inputs`` renumbers the input coordinates (``{old: new}``), for maps that read
    only part of their input.

    Each output is a *copy* (one linear term with coefficient 1: slice or gather copies), *zero*, or
    *general*. General outputs are evaluated from the features ``F`` (used input coordinates, then the
    products of the quadratic pairs) as ``W F`` with a dense integer matrix (BLAS for float64), or, when
    ``W`` is mostly zeros, slot by slot ("ELL": the ``k``-th term of every output at once), or for the
    exact path term by term on object arrays.
    """

    def __init__(self, name: str, d_in: int, d_out: int, const: list, lin: list, quad: list, dtype: Any,
                 identity: bool = False, outputs: Sequence[int] | None = None,
                 inputs: dict[int, int] | None = None):
        self.name, self.dtype = name, dtype
        sel = list(range(d_out)) if outputs is None else list(outputs)
        self.d_in = d_in if inputs is None else len(inputs)
        self.d_out = len(sel)
        self.identity = identity and outputs is None and inputs is None
        ren = (lambda i: i) if inputs is None else inputs.__getitem__
        pos = {o: r for r, o in enumerate(sel)}
        c_of: dict[int, Any] = {}
        lin_of: dict[int, list[tuple[int, Any]]] = {}
        quad_of: dict[int, list[tuple[int, int, Any]]] = {}
        for o, c in const:
            if o in pos:
                c_of[pos[o]] = c_of.get(pos[o], 0) + c
        for o, i, c in lin:
            if o in pos:
                lin_of.setdefault(pos[o], []).append((ren(i), c))
        for o, i, j, c in quad:
            if o in pos:
                quad_of.setdefault(pos[o], []).append((ren(i), ren(j), c))
        copies: list[tuple[int, int, Any]] = []
        gen: list[int] = []
        self.zero: list[int] = []
        for o in range(self.d_out):
            has_c = c_of.get(o, 0) != 0
            ls, qs = lin_of.get(o, []), quad_of.get(o, [])
            if not has_c and not qs and len(ls) == 1 and ls[0][1] != 0:
                copies.append((o, ls[0][0], ls[0][1]))
            elif not has_c and not qs and all(c == 0 for _, c in ls):
                self.zero.append(o)
            else:
                gen.append(o)
        self.copy_runs = _runs(copies)
        self.copy_fancy: list[tuple[np.ndarray, np.ndarray, Any]] | None = None
        if len(self.copy_runs) > 8:
            by_c: dict[Any, list[tuple[int, int]]] = {}
            for o, i, c in copies:
                by_c.setdefault(c, []).append((o, i))
            self.copy_fancy = [(np.array([o for o, _ in ps], dtype=np.intp),
                                np.array([i for _, i in ps], dtype=np.intp), c) for c, ps in by_c.items()]
        self.gen = np.array(gen, dtype=np.intp)
        self.gen_slice = slice(gen[0], gen[-1] + 1) if gen and gen == list(range(gen[0], gen[-1] + 1)) else None
        used = sorted({i for o in gen for i, _ in lin_of.get(o, [])})
        pairs = sorted({(i, j) for o in gen for i, j, _ in quad_of.get(o, [])})
        self.used = np.array(used, dtype=np.intp)
        self.used_slice = slice(used[0], used[-1] + 1) if used and used == list(range(used[0], used[-1] + 1)) else None
        self.qi = np.array([p[0] for p in pairs], dtype=np.intp)
        self.qj = np.array([p[1] for p in pairs], dtype=np.intp)
        col: dict[Any, int] = {i: k for k, i in enumerate(used)}
        col.update({("q", p): len(used) + k for k, p in enumerate(pairs)})
        self.n_feat = n_feat = len(used) + len(pairs)
        rows: list[list[tuple[int, Any]]] = []
        for o in gen:
            rows.append([(col[i], c) for i, c in lin_of.get(o, [])]
                        + [(col[("q", (i, j))], c) for i, j, c in quad_of.get(o, [])])
        bias = [c_of.get(o, 0) for o in gen]
        self.has_bias = any(b != 0 for b in bias)
        self.bias = np.array(bias, dtype=dtype)[:, None]
        width = max((len(r) for r in rows), default=0)
        if dtype is object:
            self.mode = "terms"
            self.terms = [(r, f, c) for r, row in enumerate(rows) for f, c in row]
        elif n_feat <= 20 * width:
            self.mode = "dense"
            w = np.zeros((len(gen), n_feat), dtype=dtype)
            for r, row in enumerate(rows):
                for f, c in row:
                    w[r, f] += c
            self.w = w
        else:
            self.mode = "ell"
            self.pad = any(len(r) < width for r in rows)
            self.slots: list[tuple[np.ndarray | slice, np.ndarray | None, int]] = []
            for k in range(width):
                present = [row[k][1] for row in rows if len(row) > k]
                fill = present[0]
                fi = np.array([row[k][0] if len(row) > k else n_feat for row in rows], dtype=np.intp)
                cs = [row[k][1] if len(row) > k else fill for row in rows]
                sign = 1 if all(c == 1 for c in cs) else -1 if all(c == -1 for c in cs) else 0
                coef = None if sign else np.array(cs, dtype=dtype)[:, None]
                lo = int(fi[0])
                contiguous = bool(np.array_equal(fi, np.arange(lo, lo + len(fi))))
                self.slots.append((slice(lo, lo + len(fi)) if contiguous else fi, coef, sign))

    def features(self, x: np.ndarray) -> np.ndarray:
        """The used coordinates, then the products of the quadratic pairs: ``(n_feat, B)``."""
        parts = []
        if len(self.used):
            parts.append(x[self.used_slice] if self.used_slice is not None else x[self.used])
        if len(self.qi):
            parts.append(x[self.qi] * x[self.qj])
        if not parts:
            return np.zeros((0, x.shape[1]), dtype=x.dtype)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.identity:
            return x
        b = x.shape[1]
        out = np.empty((self.d_out, b), dtype=self.dtype)
        if self.copy_fancy is not None:
            for oo, ii, c in self.copy_fancy:
                out[oo] = x[ii] if c == 1 else x[ii] * c
        else:
            for o, i, n, c in self.copy_runs:
                if c == 1:
                    out[o:o + n] = x[i:i + n]
                elif c == -1 and self.dtype is not object:
                    np.negative(x[i:i + n], out=out[o:o + n])
                else:
                    out[o:o + n] = x[i:i + n] * c
        if self.zero:
            out[self.zero] = 0
        if len(self.gen):
            f = self.features(x)
            if self.mode == "dense":
                g = self.w @ f
            elif self.mode == "ell":
                g = self._ell(f, b)
            else:
                g = self._terms(f, b)
            if self.has_bias:
                g = g + self.bias
            if self.gen_slice is not None:
                out[self.gen_slice] = g
            else:
                out[self.gen] = g
        return out

    def _ell(self, f: np.ndarray, b: int) -> np.ndarray:
        if self.pad:
            f = np.concatenate([f, np.zeros((1, b), dtype=f.dtype)])
        g: np.ndarray | None = None
        for fi, coef, sign in self.slots:
            v = f[fi]  # a view when the slot's features are contiguous
            if g is None:
                g = v.copy() if sign == 1 else -v if sign == -1 else v * coef
            elif sign == 1:
                g += v
            elif sign == -1:
                g -= v
            else:
                g += v * coef
        assert g is not None
        return g

    def _terms(self, f: np.ndarray, b: int) -> np.ndarray:
        g = np.zeros((len(self.gen), b), dtype=object)
        for r, fi, c in self.terms:
            g[r] = g[r] + (f[fi] if c == 1 else f[fi] * c)
        return g


def _terms_of(m: IntMap | ConcreteMap, exact: bool) -> tuple[list, list, list]:
    if not exact:
        return m.const, m.lin, m.quad
    return ([(o, as_rational(c)) for o, c in m.const], [(o, i, as_rational(c)) for o, i, c in m.lin],
            [(o, i, j, as_rational(c)) for o, i, j, c in m.quad])


def _is_identity(m: ConcreteMap | IntMap) -> bool:
    return (m.d_in == m.d_out and not m.const and not m.quad and len(m.lin) == m.d_out
            and sorted((o, i) for o, i, _ in m.lin) == [(o, o) for o in range(m.d_out)]
            and all(c == 1 for *_, c in m.lin))


def _compile(m: IntMap | ConcreteMap, dtype: Any, outputs: Sequence[int] | None = None,
             inputs: dict[int, int] | None = None) -> _CompiledMap:
    exact = dtype is object
    const, lin, quad = _terms_of(m, exact)
    ident = m.identity if isinstance(m, IntMap) else _is_identity(m)
    return _CompiledMap(m.name, m.d_in, m.d_out, const, lin, quad, dtype, ident, outputs, inputs)


def _reads(m: IntMap | ConcreteMap) -> list[int]:
    """Input coordinates a map reads."""
    return sorted({i for _, i, _ in m.lin} | {i for _, i, _, _ in m.quad} | {j for _, _, j, _ in m.quad})


# -- plans ------------------------------------------------------------------------------------------


@dataclass
class _HeadPlan:
    name: str
    q: _CompiledMap
    k: _CompiledMap
    v: _CompiledMap  # restricted to the value coordinates W_O reads
    v_up: int
    s_k: int  # scale of the keys
    s_q: int
    s_v: int  # scale of the values
    v_sig: Any = None  # heads whose restricted value maps are equal share one value cache


@dataclass
class _LayerPlan:
    heads: list[_HeadPlan] | None
    w_o: _CompiledMap | None  # on the concatenation of the restricted values
    alpha_up: int
    z_up: int
    w1: _CompiledMap
    w2: _CompiledMap
    s_in: int


@dataclass
class _Plan:
    path: str
    dtype: Any
    layers: list[_LayerPlan]
    fb_num: int
    fb_den: int
    s_token: int
    s_out: int


def _plan(dec: ConcreteDecoder, sd: ScaledDecoder, path: str) -> _Plan:
    """Compile every map for one path: exact coefficients for ``object``, scaled integers otherwise."""
    dt = DTYPES[path]
    exact = path == "object"
    layers: list[_LayerPlan] = []
    for lay, sl in zip(dec.layers, sd.layers):
        w1 = _compile(lay.ffn.w1 if exact else sl.w1, dt)
        w2 = _compile(lay.ffn.w2 if exact else sl.w2, dt)
        if lay.attention is None:
            layers.append(_LayerPlan(None, None, 1, 1, w1, w2, 1 if exact else sl.s_in))
            continue
        assert sl.heads is not None and sl.w_o is not None
        wo_map: IntMap | ConcreteMap = lay.attention.out if exact else sl.w_o
        reads = _reads(wo_map)
        renumber = {u: k for k, u in enumerate(reads)}
        heads: list[_HeadPlan] = []
        off = 0
        for h, sh in zip(lay.attention.heads, sl.heads):
            qm, km, vm = (h.query, h.key, h.value) if exact else (sh.q, sh.k, sh.v)
            used = [u - off for u in reads if off <= u < off + vm.d_out]
            off += vm.d_out
            pos = set(used)
            sig = (tuple(used), tuple(sorted(t for t in vm.const if t[0] in pos)),
                   tuple(sorted(t for t in vm.lin if t[0] in pos)), tuple(sorted(t for t in vm.quad if t[0] in pos)))
            heads.append(_HeadPlan(h.name, _compile(qm, dt), _compile(km, dt), _compile(vm, dt, outputs=used),
                                   1 if exact else sh.v_up, 1 if exact else sh.k.s_out, 1 if exact else sh.q.s_out,
                                   1 if exact else sh.v.s_out, sig))
        w_o = _compile(wo_map, dt, inputs=renumber)
        layers.append(_LayerPlan(heads, w_o, 1 if exact else sl.alpha_up, 1 if exact else sl.z_up, w1, w2,
                                 1 if exact else sl.s_in))
    if exact:
        return _Plan(path, dt, layers, 1, 1, 1, 1)
    return _Plan(path, dt, layers, sd.fb_num, sd.fb_den, sd.s_token, sd.s_out)


# -- results and views ------------------------------------------------------------------------------


def _to_exact(x: np.ndarray, scale: int) -> np.ndarray:
    """An object array of the exact values ``x / scale`` (Python ``int`` where integral)."""
    if x.dtype == object:
        if scale == 1:
            return x.copy()
        return np.frompyfunc(lambda v: _rat(Fraction(v, scale)), 1, 1)(x).astype(object)
    ints = x.astype(np.int64).astype(object)
    if scale == 1:
        return ints
    return np.frompyfunc(lambda v: _rat(Fraction(v, scale)), 1, 1)(ints).astype(object)


def _rat(f: Fraction) -> int | Fraction:
    return f.numerator if f.denominator == 1 else f


def _exact_lists(y: np.ndarray, scale: int) -> list[list[Any]]:
    """Rows of the exact values of ``y`` (``(d, n)``, at ``scale``) as Python lists, one per batch column."""
    if y.dtype != object and scale == 1:
        return y.T.astype(np.int64).tolist()
    return _to_exact(y, scale).T.tolist()


@dataclass
class StepView:
    """What an ``on_step`` callback sees at step ``t``: the outputs ``y_t`` of the rows still running.

    ``y`` is ``(d, n)`` in the run's representation: exact integers ``scale·y_t`` (float64 or int64 arrays)
    or exact values (object arrays, ``scale = 1``). ``rows`` are the rows' indices in the batch.
    """

    t: int
    rows: np.ndarray
    y: np.ndarray
    scale: int
    path: str
    layout: ConcreteLayout

    def exact(self) -> list[list[Any]]:
        """``y_t`` of each row as a list of exact Python numbers."""
        return _exact_lists(self.y, self.scale)

    def block(self, name: str) -> np.ndarray:
        """``scale·π_name(y_t)``: ``(size, n)``."""
        return self.y[self.layout.slice(name)]


class RowOutputs(Sequence):
    """One row's outputs ``y_1 … y_T`` as exact lists, converted only when read.

    Equal (``==``) to the list of those lists, as ``generate``'s ``outputs``.
    """

    def __init__(self, kept: list[tuple[np.ndarray, np.ndarray, int]], row: int, steps: int,
                 cache: dict[Any, list[list[Any]]] | None = None):
        self._kept, self._row, self._steps = kept, row, steps
        self._cache = {} if cache is None else cache  # step -> every row's exact lists (shared by a run's rows)

    def __len__(self) -> int:
        return self._steps

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._steps))]
        if i < 0:
            i += self._steps
        if not 0 <= i < self._steps:
            raise IndexError(i)
        rows, y, scale = self._kept[i]
        col = int(np.searchsorted(rows, self._row))
        lists = self._cache.get(i)
        if lists is None:
            lists = self._cache[i] = _exact_lists(y, scale)
        return lists[col]

    def block(self, layout: ConcreteLayout, name: str, steps: int | None = None) -> list[list[Any]]:
        """``π_name(y_1) … π_name(y_steps)`` (all steps by default), converting only that block."""
        sl = layout.slice(name)
        out = []
        for i in range(min(self._steps, self._steps if steps is None else steps)):
            lists = self._cache.get((i, name))
            if lists is None:
                rows, y, scale = self._kept[i]
                by_row = dict(zip(rows.tolist(), _exact_lists(y[sl], scale)))
                lists = self._cache[(i, name)] = by_row
            out.append(lists[self._row])
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RowOutputs({list(self)!r})"


@dataclass
class BatchRun:
    """The result of :meth:`BatchedDecoder.run`.

    Attributes:
        steps: generated tokens per row.
        stopped: whether the row's stop rule fired (as ``Generation.stopped``).
        outputs: per row, ``y_1 … y_T`` (a :class:`RowOutputs`: exact lists, converted when read; when
            ``keep_outputs``).
        head_index: ``(B, positions, heads)``: the position each head selected when each position was
            pushed (``-1`` where not computed); heads in layer order, as in ``head_names``.
        head_score: the same shape, the selected score (exact numbers; object array).
        head_names: ``(layer, head)`` for the last axis of ``head_index``.
        certificate: which number type was used and the bound that proves it exact.
        prefix_classes: how many distinct prompts-before-``y_0`` were computed when rows shared them
            (``None`` when each row ran its whole prompt).

    """

    steps: np.ndarray
    stopped: np.ndarray
    outputs: list[RowOutputs] | None
    head_index: np.ndarray | None
    head_score: np.ndarray | None
    head_names: list[tuple[int, str]]
    certificate: Certificate
    prefix_classes: int | None = None


# -- the engine -----------------------------------------------------------------------------------


class _Tokens:
    """A batch of prompts as distinct token rows and an index.

    ``table`` is ``(T, d)`` at scale ``scale``; ``index`` is ``(B, P)``: row ``b``'s token at position ``p``
    is ``table[index[b, p]]``.
    """

    def __init__(self, table: np.ndarray, index: np.ndarray, scale: int):
        self.table, self.index, self.scale = table, index, scale
        self._typed: dict[str, np.ndarray] = {}

    @property
    def positions(self) -> int:
        """Prompt length ``P``."""
        return self.index.shape[1]

    @property
    def batch(self) -> int:
        """Number of prompts ``B``."""
        return self.index.shape[0]

    @property
    def exact_only(self) -> bool:
        """Tokens beyond int64 (held as exact objects)."""
        return self.table.dtype == object

    def at(self, p: int, path: str, rows: np.ndarray | None = None) -> np.ndarray:
        """Position ``p`` of every prompt (or of ``rows``) as ``(d, B)`` in the number type of ``path``."""
        tab = self._typed.get(path)
        if tab is None:  # the table, transposed to (d, T), in the path's type (exact values on "object")
            if path == "object":
                tab = (_to_exact(self.table, self.scale) if self.scale != 1 else self.table.astype(object)).T
            else:
                tab = self.table.astype(DTYPES[path]).T
            tab = self._typed[path] = np.ascontiguousarray(tab)
        idx = self.index[:, p] if rows is None else self.index[rows, p]
        return np.take(tab, idx, axis=1)  # C-contiguous (d, B); tab[:, idx] would not be

    def bounds(self) -> np.ndarray:
        """``(P, d)``: the largest magnitude of each coordinate at each position over the batch (float64)."""
        mag = np.abs(self.table).astype(np.float64)
        return np.stack([mag[np.unique(self.index[:, p])].max(axis=0) for p in range(self.positions)])

    def shared_prefix(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Rows with equal prompts before the last token: ``(one row per class, class of each row)``, or ``None``.

        Equal tokens have equal indices, so prompts are compared by their index rows. Only worth it (and
        only tried) when neighbouring rows share prefixes and at most three quarters of the rows are distinct.
        """
        b, npos = self.index.shape
        if self.exact_only or b < 8 or npos < 2:
            return None
        key = np.ascontiguousarray(self.index[:, :-1])
        # cheap test first: families list shared prefixes next to each other (a graph, then every source)
        probe = min(b - 1, 64)
        if (key[1:probe + 1] == key[:probe]).all(axis=1).mean() < 0.25:
            return None
        void = key.view(np.dtype((np.void, key.shape[1] * key.itemsize))).ravel()
        _, reps, inverse = np.unique(void, return_index=True, return_inverse=True)
        if len(reps) > 0.75 * b:
            return None
        return reps, inverse.ravel()


class BatchedDecoder:
    """A concrete decoder prepared for batched runs (plans are compiled once per number type and scale)."""

    def __init__(self, dec: ConcreteDecoder):
        self.dec = dec
        self.d = dec.layout.dim
        self._scaled: dict[int, ScaledDecoder] = {}
        self._plans: dict[tuple[str, int], _Plan] = {}
        self._native: dict[int, Any] = {}
        self.head_names = [(k + 1, h.name) for k, lay in enumerate(dec.layers)
                           for h in (lay.attention.heads if lay.attention else [])]

    def scaled(self, token_scale: int) -> ScaledDecoder:
        """The integer-scaled decoder for tokens at ``token_scale`` (cached)."""
        if token_scale not in self._scaled:
            self._scaled[token_scale] = scale_decoder(self.dec, token_scale)
        return self._scaled[token_scale]

    def plan(self, path: str, token_scale: int) -> _Plan:
        """The compiled plan of one path (cached)."""
        key = (path, 1 if path == "object" else token_scale)
        if key not in self._plans:
            self._plans[key] = _plan(self.dec, self.scaled(token_scale), path)
        return self._plans[key]

    # -- input conversion --------------------------------------------------------------------------
    def tokens(self, prompts: Any) -> tuple[np.ndarray, int]:
        """Prompts ``(B, P, d)`` of exact numbers → ``((P, d, B) integer array, token scale)``."""
        tk = self.token_table(prompts)
        return np.ascontiguousarray(tk.table[tk.index].transpose(1, 2, 0)), tk.scale

    def token_table(self, prompts: Any) -> _Tokens:
        """Prompts ``(B, P, d)`` of exact numbers as their distinct tokens and an index (:class:`_Tokens`).

        A list of prompts is converted through its *distinct* tokens (:func:`_intern`): constructions build
        prompts from a few recurring tokens (an input letter at a position, an arc), so only those are
        converted element by element; a position's tokens are gathered when it is pushed.
        """
        if isinstance(prompts, np.ndarray):
            if prompts.ndim != 3:
                raise DimensionError(f"prompts must be (batch, positions, d); got shape {prompts.shape}")
            b, npos, d = prompts.shape
            table, index = prompts.reshape(-1, d), np.arange(b * npos, dtype=np.intp).reshape(b, npos)
        else:
            lens = {len(p) for p in prompts}
            if len(lens) > 1:
                raise DimensionError(f"prompts of different lengths {sorted(lens)} in one batch")
            table, index = _intern(prompts)
            d = table.shape[1]
        if d != self.d:
            raise DimensionError(f"tokens of length {d} given to a decoder with d = {self.d}")
        table, scale = self._exact_table(table)
        return _Tokens(table, index, scale)

    @staticmethod
    def _exact_table(arr: np.ndarray) -> tuple[np.ndarray, int]:
        """Token rows ``(T, d)`` of exact numbers → (int64 rows at the token scale, or exact objects; scale)."""
        if arr.dtype.kind == "b":
            arr = arr.astype(np.int64)
        if arr.dtype.kind in "iu":
            return arr.astype(np.int64), 1
        if arr.dtype.kind == "f":
            raise NotNumericError("floats in the prompt tokens; tokens must be exact (int or Fraction)")
        vals = np.frompyfunc(as_rational, 1, 1)(arr).astype(object)
        scale = 1
        for v in vals.flat:
            if isinstance(v, Fraction):
                scale = math.lcm(scale, v.denominator)
        ints = np.frompyfunc(lambda v: int(v * scale), 1, 1)(vals).astype(object)
        top = max((abs(v) for v in ints.flat), default=0)
        return (ints.astype(np.int64) if top <= LIMITS["int64"] else ints), scale

    # -- running -------------------------------------------------------------------------------------
    def run(
        self,
        prompts: Any,
        steps: int | Sequence[int],
        *,
        stop: Callable[[list[Any]], bool] | None = None,
        stop_batched: Callable[[StepView], np.ndarray] | None = None,
        on_step: Callable[[StepView], np.ndarray | None] | None = None,
        record_heads: bool = False,
        keep_outputs: bool = False,
        path: str = "auto",
        native: bool | None = None,
    ) -> BatchRun:
        """Run the chain of thought on a batch of prompts (rule 5), as :func:`symcot.model.semantics.generate`.

        Args:
            prompts: ``B`` prompts of ``P`` tokens each (ending with ``y_0``), exact numbers.
            steps: the most tokens to generate, for all rows or per row.
            stop: the stop rule on one exact ``y_t`` (a row ends after the first token for which it holds).
            stop_batched: the same rule on a :class:`StepView`, returning one bool per row (faster).
            on_step: called after each step with the rows that produced ``y_t``; returns a bool per row of
                those to end (``None``: none), like ``generate``'s ``on_step`` returning ``False``.
            record_heads: keep every head's choice at every position.
            keep_outputs: keep every ``y_t`` of every row (read as exact lists through ``outputs``).
            path: ``"auto"`` (certified choice), or the number type to start with (``float32``,
                ``float64``, ``int64``, ``object``); a numeric path is still guarded and widened when a
                bound needs it.
            native: use the compiled kernel of :mod:`symcot.replay.native` (checked int64; rows it
                abandons rerun here). ``None`` (default): when a C compiler works, ``path`` is ``"auto"``,
                heads are not recorded and the tokens fit int64. ``False``: never. ``True``: required.

        """
        if path != "auto" and path not in PATHS:
            raise ValueError(f"path must be 'auto' or one of {PATHS}, got {path!r}")
        if len(prompts) == 0:
            empty = np.zeros(0, dtype=np.int64)
            return BatchRun(empty, empty.astype(bool), [] if keep_outputs else None, None, None, self.head_names,
                            Certificate("float32", "static", 0.0, LIMITS["float32"], paths={}, runs=0))
        tk = self.token_table(prompts)
        tscale, n_pos, batch = tk.scale, tk.positions, tk.batch
        if isinstance(steps, int):
            row_steps = np.full(batch, steps, dtype=np.int64)
        else:
            row_steps = np.asarray(list(steps), dtype=np.int64)
            if row_steps.shape != (batch,):
                raise DimensionError(f"{len(row_steps)} step counts for {batch} prompts")
        if n_pos < 1:
            raise DimensionError("the prompt must contain at least y_0")
        if (row_steps < 0).any():
            raise ValueError("step counts must be non-negative")
        kernel = self.native_kernel(tscale) if (native is not False and path == "auto" and not record_heads
                                                and not tk.exact_only) else None
        if native is True and kernel is None:
            raise ValueError("native replay is not available here (no C compiler, record_heads, a forced path, "
                             "or tokens beyond int64)")
        if kernel is not None:
            return self._run_native(kernel, tk, row_steps, stop, stop_batched, on_step, keep_outputs)
        return self._run_numpy(tk, row_steps, stop, stop_batched, on_step, record_heads, keep_outputs, path)

    def native_kernel(self, token_scale: int) -> Any:
        """The compiled kernel for tokens at ``token_scale`` (:mod:`symcot.replay.native`), or ``None``.

        ``None`` when no C compiler works here, when ``SYMCOT_NATIVE=0`` is set, or when the kernel cannot be
        built for this decoder (a scale beyond int64); the numpy engine then runs instead.
        """
        if token_scale in self._native:
            return self._native[token_scale]
        from symcot.replay.native import NativeDecoder, NativeError, native_available

        kernel = None
        if os.environ.get("SYMCOT_NATIVE", "1") != "0" and native_available():
            try:
                kernel = NativeDecoder(self.scaled(token_scale))
            except (NativeError, OSError):  # a failed compile or load: the numpy engine runs instead
                kernel = None
        self._native[token_scale] = kernel
        return kernel

    def _run_native(self, kernel: Any, tk: _Tokens, row_steps: np.ndarray,
                    stop: Callable[[list[Any]], bool] | None, stop_batched: Callable[[StepView], np.ndarray] | None,
                    on_step: Callable[[StepView], np.ndarray | None] | None, keep_outputs: bool) -> BatchRun:
        """The whole batch in the native kernel, then the step rules replayed on its outputs.

        Every row runs its full ``steps`` in C (a row's outputs do not depend on when the caller will end
        it); ``on_step`` and the stop rule then see step ``t`` of the rows still running, exactly as in the
        numpy loop, and end rows the same way. Rows the kernel abandons (an int64 operation would
        overflow, or an inexact feedback) are rerun on the numpy engine, whose certificate widens as needed.
        """
        batch = tk.batch
        sd = kernel.sd
        outs, status = kernel.run_indexed(tk.table, tk.index, row_steps)
        done_steps = np.zeros(batch, dtype=np.int64)
        stopped = np.zeros(batch, dtype=bool)
        kept: list[tuple[np.ndarray, np.ndarray, int]] = []
        rows = np.flatnonzero((status == 0) & (row_steps >= 1))
        if on_step is None and stop is None and stop_batched is None and not keep_outputs:
            done_steps[rows] = row_steps[rows]  # nothing ends a row early: every row runs its steps
            rows = rows[:0]
        t = 0
        while len(rows):
            t += 1
            y = np.ascontiguousarray(outs[rows, t - 1].T)
            view = StepView(t, rows, y, sd.s_out, "int64", self.dec.layout)
            done_steps[rows] = t
            if keep_outputs:
                kept.append((rows, y, view.scale))
            end = _step_ends(view, row_steps, stopped, on_step, stop, stop_batched)
            rows = rows[~end]
        cert = Certificate("int64", "native-checked", None, LIMITS["int64"], None, False, sd.scales(),
                           paths={"int64": 1})
        cache: dict[Any, list[list[Any]]] = {}
        outputs: list[Any] | None = (
            [RowOutputs(kept, r, int(done_steps[r]), cache) for r in range(batch)] if keep_outputs else None)
        redo = np.flatnonzero(status != 0)
        if len(redo):
            def sub_step(view: StepView) -> np.ndarray | None:
                return None if on_step is None else on_step(replace(view, rows=redo[view.rows]))

            def sub_stop(view: StepView) -> np.ndarray:
                assert stop_batched is not None
                return stop_batched(replace(view, rows=redo[view.rows]))

            sub = self._run_numpy(_Tokens(tk.table, tk.index[redo], tk.scale), row_steps[redo], stop,
                                  None if stop_batched is None else sub_stop, sub_step, False, keep_outputs, "auto")
            done_steps[redo] = sub.steps
            stopped[redo] = sub.stopped
            if outputs is not None and sub.outputs is not None:
                for j, r in enumerate(redo.tolist()):
                    outputs[r] = sub.outputs[j]
            codes = {1: "an int64 operation would overflow", 2: "y_t is not representable at the token scale"}
            for code, why in codes.items():
                k = int((status[redo] == code).sum())
                if k:
                    cert.promotions.append({"rows": k, "from": "native", "to": sub.certificate.path,
                                            "reason": f"{why}: rerun on the numpy engine"})
            cert.path = wider(cert.path, sub.certificate.path)
            cert.limit = LIMITS[cert.path]
            cert.bound = sub.certificate.bound
        return BatchRun(done_steps, stopped, outputs, None, None, self.head_names, cert, None)

    def _run_numpy(self, tk: _Tokens, row_steps: np.ndarray, stop: Callable[[list[Any]], bool] | None,
                   stop_batched: Callable[[StepView], np.ndarray] | None,
                   on_step: Callable[[StepView], np.ndarray | None] | None, record_heads: bool,
                   keep_outputs: bool, path: str) -> BatchRun:
        """The numpy engine (module docstring): guarded, widened exactly when a bound needs it."""
        tscale, n_pos, batch = tk.scale, tk.positions, tk.batch
        max_steps = int(row_steps.max(initial=0))
        sd = self.scaled(tscale)
        nh = len(self.head_names)
        total_pos = n_pos + max(max_steps - 1, 0)
        head_index = np.full((batch, total_pos, nh), -1, dtype=np.int64) if record_heads else None
        head_score = np.empty((batch, total_pos, nh), dtype=object) if record_heads else None
        kept: list[tuple[np.ndarray, np.ndarray, int]] | None = [] if keep_outputs else None
        done_steps = np.zeros(batch, dtype=np.int64)
        stopped = np.zeros(batch, dtype=bool)

        # the certificate: whole-run bound first, then per-pass guards if needed
        if tk.exact_only:
            cert = Certificate("object", "static", None, None, None, False, sd.scales(), paths={"object": 1})
            cur = "object"
            guarded = False
        else:
            pb = tk.bounds()
            static = static_certificate(sd, pb, max_steps)
            if path == "auto" and static.path == "float32":
                cert, cur, guarded = static, static.path, False  # proved for the whole run: no guards
            else:
                cur = "float32" if path == "auto" else path
                cert = Certificate(cur, "guarded" if path == "auto" else "forced", 0.0, LIMITS[cur],
                                   static.static_bound, static.fixed_point, sd.scales())
                guarded = cur != "object"
        hulls = Hulls.empty(sd)
        plan = self.plan(cur, tscale)
        rows = np.arange(batch)
        st = _State(self, plan, total_pos, batch)

        def promote(new: str, position: int, reason: str) -> None:
            nonlocal cur, plan, st
            cert.promotions.append({"position": position, "from": cur, "to": new, "reason": reason})
            st.convert(cur, new, sd)
            cur = new
            plan = self.plan(cur, tscale)
            st.plan = plan
            cert.path = wider(cert.path, new)
            cert.limit = LIMITS[cert.path]

        def guard(token: np.ndarray, position: int) -> None:
            if not guarded or cur == "object":
                return
            if token.dtype == object:
                tb = np.array([_float_abs_max(token[i]) for i in range(token.shape[0])])
            else:
                tb = np.abs(token).max(axis=1).astype(np.float64) if token.shape[1] else np.zeros(token.shape[0])
            _, top = push_bound(sd, tb, hulls)
            need = choose_path(top)
            if cert.bound is not None:
                cert.bound = max(cert.bound, top)
            if PATHS.index(need) > PATHS.index(cur):
                promote(need, position, f"bound {top:.3g} before this pass")

        # prompt positions. Rows whose prompts agree before y_0 (one graph with every source, say) share
        # those positions: they are computed once and their caches copied (rule 4: they never change).
        y = None
        shared = tk.shared_prefix()
        first = 0
        if shared is not None:
            reps, inverse = shared
            full = st
            st = _State(self, plan, total_pos, len(reps))
            for p in range(n_pos - 1):
                y, sel = st.push(self._prompt_token(tk, p, cur, reps, guard, lambda: cur))
                if record_heads:
                    self._record(head_index, head_score, rows, p, [(i[inverse], sc[inverse], k) for i, sc, k in sel],
                                 st)
            st = st.expanded(inverse, full)
            first = n_pos - 1
        for p in range(first, n_pos):
            y, sel = st.push(self._prompt_token(tk, p, cur, None, guard, lambda: cur))
            if record_heads:
                self._record(head_index, head_score, rows, p, sel, st)
        t = 0
        pos = n_pos
        while True:
            t += 1
            active = rows
            # rows with no step at all (steps = 0) end without output
            if t == 1:
                keep0 = row_steps[active] >= 1
                if not keep0.all():
                    st.compact(keep0)
                    rows = rows[keep0]
                    y = y[:, keep0]
                    active = rows
                if len(rows) == 0:
                    break
            view = StepView(t, rows, y, 1 if cur == "object" else plan.s_out, cur, self.dec.layout)
            done_steps[rows] = t
            if kept is not None:
                kept.append((rows, y, view.scale))
            end = _step_ends(view, row_steps, stopped, on_step, stop, stop_batched)
            if end.all():
                break
            if end.any():
                keep = ~end
                st.compact(keep)
                rows = rows[keep]
                y = y[:, keep]
            # feed y_t back as the next token (exact division to the token scale)
            token = self._feedback(y, plan, cur)
            if token is None:
                exact_y = _to_exact(y, plan.s_out)
                promote("object", pos, "y_t not representable at the token scale")
                token = exact_y
            was = cur
            guard(token, pos)
            if cur != was:  # widened before this pass: the token follows, exactly
                token = _to_exact(token, tscale) if cur == "object" else token.astype(DTYPES[cur])
            y, sel = st.push(token)
            if record_heads:
                self._record(head_index, head_score, rows, pos, sel, st)
            pos += 1
        cert.paths = {cert.path: 1}
        if cert.path == "object" and cert.mode != "static":
            cert.bound = None
        cache: dict[Any, list[list[Any]]] = {}
        outputs = None if kept is None else [RowOutputs(kept, r, int(done_steps[r]), cache) for r in range(batch)]
        return BatchRun(done_steps, stopped, outputs, head_index, head_score, self.head_names, cert,
                        None if shared is None else len(shared[0]))

    @staticmethod
    def _prompt_token(tk: _Tokens, p: int, path: str, rows: np.ndarray | None,
                      guard: Callable[[np.ndarray, int], None], current: Callable[[], str]) -> np.ndarray:
        """Position ``p``'s tokens after the guard of its pass (re-gathered if the guard widened the path)."""
        tok = tk.at(p, path, rows)
        guard(tok, p)
        return tok if current() == path else tk.at(p, current(), rows)

    def _feedback(self, y: np.ndarray, plan: _Plan, cur: str) -> np.ndarray | None:
        if cur == "object" or (plan.fb_num == 1 and plan.fb_den == 1):
            return y
        t = y * plan.fb_num if plan.fb_num != 1 else y
        if plan.fb_den == 1:
            return t
        if np.any(np.fmod(t, plan.fb_den) != 0):
            return None
        return t // plan.fb_den

    def _record(self, hi: Any, hs: Any, rows: np.ndarray, p: int, sel: list[tuple[np.ndarray, np.ndarray, int]],
                st: _State) -> None:
        for h, (idx, score, scale) in enumerate(sel):
            hi[rows, p, h] = idx
            hs[rows, p, h] = _to_exact(score[None, :], scale)[0]


def _sum_kind(key: Sequence[Any]) -> str:
    """What the entries of ``key`` are: ``"int"``, ``"exact"`` (ints and Fractions) or ``"other"``.

    ``"int"``: every entry a Python ``int`` (or ``bool``); ``"other"``: a float, a numpy or SymPy number…,
    which the caller looks at closely. One pass in C: a sum is exactly an ``int`` only when every term is,
    a ``Fraction`` only when the terms are ints and Fractions; a float or a numpy number changes its type.
    """
    try:
        total = sum(key)
    except (OverflowError, TypeError):
        return "other"
    kind = type(total)
    return "int" if kind is int else "exact" if kind is Fraction else "other"


def _intern(prompts: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct tokens of ``prompts`` as a table ``(T, d)`` and, per prompt and position, their index.

    Prompts must have one length. Tokens are grouped by object identity, in C (``id`` of every token, then
    ``np.unique``): constructions reuse token objects (``Construction._token_cache``), and equal tokens held
    by different objects only cost a table row each, never a wrong value. The table is int64 when every
    entry is a Python ``int`` (read in C); otherwise numpy's conversion decides (object for Fractions),
    and :meth:`BatchedDecoder._exact_table` scales it.
    """
    b = len(prompts)
    npos = len(prompts[0]) if b else 0
    flat = list(chain.from_iterable(prompts))
    if len(flat) != b * npos:
        raise DimensionError("prompts of different lengths in one batch")
    ids = np.fromiter(map(id, flat), dtype=np.int64, count=len(flat))
    uniq, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    rows = [flat[pos] for pos in first.tolist()]
    ints_only = True
    for tok in rows:
        kind = _sum_kind(tok)
        if kind != "int":
            ints_only = False
            if kind == "other" and any(isinstance(v, (float, np.floating)) for v in tok):
                raise NotNumericError("floats in the prompt tokens; tokens must be exact (int or Fraction)")
    if len({len(r) for r in rows}) > 1:
        raise DimensionError("tokens of different lengths in one batch")
    width = len(rows[0]) if rows else 0
    table: np.ndarray | None = None
    if ints_only:  # every entry a Python int (the sum of a token is an int exactly then): converted in C
        try:
            table = np.array(rows, dtype=np.int64).reshape(len(rows), width)
        except OverflowError:  # beyond int64: numpy's object conversion below
            table = None
    if table is None:
        table = np.array(rows) if rows else np.zeros((0, width), dtype=np.int64)
        if table.ndim != 2:
            raise DimensionError(f"prompts must be (batch, positions, d); got tokens of shape {table.shape[1:]}")
    return table, inverse.ravel().astype(np.intp).reshape(b, npos)


def _step_ends(view: StepView, row_steps: np.ndarray, stopped: np.ndarray,
               on_step: Callable[[StepView], np.ndarray | None] | None,
               stop: Callable[[list[Any]], bool] | None,
               stop_batched: Callable[[StepView], np.ndarray] | None) -> np.ndarray:
    """Which rows of ``view`` end after step ``view.t`` (rule 5).

    A row ends when ``on_step`` asks, when the stop rule fires (recorded in ``stopped``), or when its steps
    are done.
    """
    rows, t = view.rows, view.t
    end = np.zeros(len(rows), dtype=bool)
    if on_step is not None:
        res = on_step(view)
        if res is not None:
            end |= np.asarray(res, dtype=bool)
    live = ~end
    if (stop is not None or stop_batched is not None) and live.any():
        if stop_batched is not None:
            s = np.asarray(stop_batched(view), dtype=bool)
        else:
            ex = view.exact()
            s = np.array([bool(stop(ex[i])) if live[i] else False for i in range(len(rows))], dtype=bool)
        s &= live
        stopped[rows[s]] = True
        end |= s
    end |= row_steps[rows] <= t
    return end


def _float_abs_max(v: np.ndarray) -> float:
    m = max((abs(x) for x in v), default=0)
    try:
        return float(m)
    except OverflowError:
        return math.inf


class _State:
    """The caches of one batched run: per attention head, the keys and the (read) values of every position.

    Keys are ``(positions, d_K, B)`` (a new position is one contiguous write; the scores one ``einsum``);
    values are ``(positions, B, d_V)`` (the selected value of every row is one row ``take``). Heads whose
    restricted value maps are equal share one value cache.
    """

    def __init__(self, eng: BatchedDecoder, plan: _Plan, total_pos: int, batch: int):
        self.eng, self.plan = eng, plan
        self.pos = 0
        dt = plan.dtype
        self.keys: list[list[np.ndarray]] = []
        self.vals: list[list[np.ndarray]] = []
        self.vslot: list[list[int]] = []  # head -> index of its value cache in self.vals[k]
        for lay in plan.layers:
            hs = lay.heads or []
            self.keys.append([np.empty((total_pos, h.k.d_out, batch), dtype=dt) for h in hs])
            sigs: list[Any] = []
            slots = []
            for h in hs:
                if h.v_sig not in sigs:
                    sigs.append(h.v_sig)
                slots.append(sigs.index(h.v_sig))
            first = {sl: hs[i] for i, sl in reversed(list(enumerate(slots)))}
            self.vals.append([np.empty((total_pos, batch, first[i].v.d_out), dtype=dt) for i in range(len(sigs))])
            self.vslot.append(slots)

    def push(self, z: np.ndarray) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, int]]]:
        """Run one new token (``(d, B)``) through every layer (rules 1-4); cache its keys and values."""
        p = self.pos
        sel: list[tuple[np.ndarray, np.ndarray, int]] = []
        exact = self.plan.dtype is object
        b = z.shape[1]
        cols = np.arange(b)
        for k, lay in enumerate(self.plan.layers):
            if lay.heads is not None:
                assert lay.w_o is not None
                outs = []
                written: set[int] = set()
                for h, head in enumerate(lay.heads):
                    keys = self.keys[k][h]
                    slot = self.vslot[k][h]
                    vals = self.vals[k][slot]
                    keys[p] = head.k(z)
                    if slot not in written:
                        vals[p] = head.v(z).T
                        written.add(slot)
                    q = head.q(z)
                    scores = np.einsum("pkb,kb->pb", keys[: p + 1], q)  # ⟨K z_i, Q z_m⟩ for i ≤ m
                    j0 = scores.argmax(axis=0)  # the first maximum: the smallest index (rule 1)
                    sel.append((j0, scores[j0, cols], head.s_k * head.s_q))
                    if vals.shape[2]:
                        v = np.take(vals.reshape(-1, vals.shape[2]), j0 * b + cols, axis=0).T
                    else:  # W_O reads nothing of this head's value
                        v = np.zeros((0, b), dtype=vals.dtype)
                    outs.append(v * head.v_up if head.v_up != 1 else v)
                alpha = lay.w_o(np.concatenate(outs) if len(outs) > 1 else np.ascontiguousarray(outs[0]))
                if lay.alpha_up != 1:
                    alpha = alpha * lay.alpha_up
                ffn_in = alpha + (z * lay.z_up if lay.z_up != 1 else z)  # residual around attention (rule 3)
            else:
                ffn_in = z  # trivial attention: α'' = 0 (rule 2)
            pre = lay.w1(ffn_in)
            if exact:
                hidden = np.where(pre > 0, pre, 0)
            elif lay.w1.identity:
                hidden = np.maximum(pre, 0)
            else:
                hidden = np.maximum(pre, 0, out=pre)  # pre is W_1's fresh output
            z = lay.w2(hidden)  # no residual around the FFN (rule 3)
        self.pos += 1
        return z, sel

    def expanded(self, inverse: np.ndarray, into: _State) -> _State:
        """``into`` (allocated for every row) with this state's positions copied to rows ``inverse``."""
        p = self.pos
        into.plan = self.plan
        for k in range(len(self.keys)):
            into.keys[k] = [_widen(dst, src.dtype) for dst, src in zip(into.keys[k], self.keys[k])]
            into.vals[k] = [_widen(dst, src.dtype) for dst, src in zip(into.vals[k], self.vals[k])]
            for dst, src in zip(into.keys[k], self.keys[k]):
                dst[:p] = src[:p][..., inverse]
            for dst, src in zip(into.vals[k], self.vals[k]):
                dst[:p] = src[:p][:, inverse]
        into.pos = p
        return into

    def compact(self, keep: np.ndarray) -> None:
        """Drop the batch rows not in ``keep``."""
        self.keys = [[np.ascontiguousarray(a[..., keep]) for a in ks] for ks in self.keys]
        self.vals = [[np.ascontiguousarray(a[:, keep]) for a in vs] for vs in self.vals]

    def convert(self, old: str, new: str, sd: ScaledDecoder) -> None:
        """Widen every cache exactly to path ``new`` (to exact values when ``new`` is ``object``)."""
        p = self.pos

        def conv(a: np.ndarray, scale: int) -> np.ndarray:
            if new == "object":
                out = np.empty(a.shape, dtype=object)
                if p:
                    out[:p] = _to_exact(a[:p], scale if old != "object" else 1)
                return out
            return a.astype(DTYPES[new])

        for k, sl in enumerate(sd.layers):
            if sl.heads is None:
                continue
            self.keys[k] = [conv(a, h.k.s_out) for a, h in zip(self.keys[k], sl.heads)]
            scale_of = {self.vslot[k][i]: h.v.s_out for i, h in enumerate(sl.heads)}
            self.vals[k] = [conv(a, scale_of[i]) for i, a in enumerate(self.vals[k])]


def _widen(a: np.ndarray, dtype: Any) -> np.ndarray:
    return a if a.dtype == dtype else np.empty(a.shape, dtype=dtype)


def block_series(outputs: Sequence[Sequence[Any]], layout: ConcreteLayout, name: str,
                 steps: int | None = None) -> list[list[Any]]:
    """``[π_name(y) for y in outputs[:steps]]`` for exact-replay outputs and for a :class:`RowOutputs` alike."""
    if isinstance(outputs, RowOutputs):
        return outputs.block(layout, name, steps)
    return [layout.pi(name, y) for y in (outputs if steps is None else outputs[:steps])]


def generate_batch(
    dec: ConcreteDecoder,
    prompts: Any,
    max_steps: int,
    stop: Callable[[list[Any]], bool] | None = None,
    record_heads: bool = True,
    path: str = "auto",
) -> BatchRun:
    """Batched :func:`symcot.model.semantics.generate`: outputs (and head choices) of every prompt."""
    return BatchedDecoder(dec).run(prompts, max_steps, stop=stop, record_heads=record_heads, keep_outputs=True,
                                   path=path)


__all__ = ["BatchRun", "BatchedDecoder", "RowOutputs", "StepView", "block_series", "generate_batch"]
