"""One polynomial map of a decoder compiled for the batched engine: ``(d_in, B)`` arrays in, ``(d_out, B)`` out.

Maps (``ConcreteMap``, or their integer-scaled ``IntMap``) are compiled once per map and number type from
their sparse terms: outputs that copy one input coordinate become slice or gather copies, outputs with no
term are zero, and the rest form one integer matrix over the used input coordinates and the gathered
coordinate pairs of the quadratic terms (dense, or a gather/``reduceat`` sparse product when the matrix is
mostly zeros).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from symcot.ir.maps import ConcreteMap
from symcot.replay.scaling import IntMap, as_rational, is_identity


def _runs(copies: list[tuple[int, int, Any]]) -> list[tuple[int, int, int, Any]]:
    """Group ``(out, src, c)`` scaled copies into runs ``(out0, src0, length, c)`` of consecutive coordinates."""
    runs: list[tuple[int, int, int, Any]] = []
    for o, i, c in sorted(copies, key=lambda t: (t[0], t[1])):
        if runs and runs[-1][0] + runs[-1][2] == o and runs[-1][1] + runs[-1][2] == i and runs[-1][3] == c:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1, c)
        else:
            runs.append((o, i, 1, c))
    return runs


def _as_slice(idx: list[int]) -> slice | None:
    """``idx`` as a slice when it is a non-empty run of consecutive integers."""
    return slice(idx[0], idx[-1] + 1) if idx and idx == list(range(idx[0], idx[-1] + 1)) else None


def _by_output(sel: list[int], const: list, lin: list, quad: list, inputs: dict[int, int] | None
               ) -> tuple[dict[int, Any], dict[int, list[tuple[int, Any]]], dict[int, list[tuple[int, int, Any]]]]:
    """The terms of the selected outputs ``sel`` by their rank in it, inputs renumbered by ``inputs``."""
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
    return c_of, lin_of, quad_of


class CompiledMap:
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
        c_of, lin_of, quad_of = _by_output(sel, const, lin, quad, inputs)
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
        self._set_copies(copies)
        self.gen = np.array(gen, dtype=np.intp)
        self.gen_slice = _as_slice(gen)
        used = sorted({i for o in gen for i, _ in lin_of.get(o, [])})
        pairs = sorted({(i, j) for o in gen for i, j, _ in quad_of.get(o, [])})
        self.used = np.array(used, dtype=np.intp)
        self.used_slice = _as_slice(used)
        self.qi = np.array([p[0] for p in pairs], dtype=np.intp)
        self.qj = np.array([p[1] for p in pairs], dtype=np.intp)
        col: dict[Any, int] = {i: k for k, i in enumerate(used)}
        col.update({("q", p): len(used) + k for k, p in enumerate(pairs)})
        self.n_feat = len(used) + len(pairs)
        rows: list[list[tuple[int, Any]]] = []
        for o in gen:
            rows.append([(col[i], c) for i, c in lin_of.get(o, [])]
                        + [(col[("q", (i, j))], c) for i, j, c in quad_of.get(o, [])])
        bias = [c_of.get(o, 0) for o in gen]
        self.has_bias = any(b != 0 for b in bias)
        self.bias = np.array(bias, dtype=dtype)[:, None]
        self._set_general(rows)

    def _set_copies(self, copies: list[tuple[int, int, Any]]) -> None:
        """Copy outputs as runs of consecutive coordinates, or, when there are many runs, one gather per coefficient."""
        self.copy_runs = _runs(copies)
        self.copy_fancy: list[tuple[np.ndarray, np.ndarray, Any]] | None = None
        if len(self.copy_runs) > 8:
            by_c: dict[Any, list[tuple[int, int]]] = {}
            for o, i, c in copies:
                by_c.setdefault(c, []).append((o, i))
            self.copy_fancy = [(np.array([o for o, _ in ps], dtype=np.intp),
                                np.array([i for _, i in ps], dtype=np.intp), c) for c, ps in by_c.items()]

    def _set_general(self, rows: list[list[tuple[int, Any]]]) -> None:
        """The general outputs' rows ``[(feature, coefficient)]`` as terms (exact), a dense matrix or ELL slots."""
        dtype, n_feat = self.dtype, self.n_feat
        width = max((len(r) for r in rows), default=0)
        if dtype is object:
            self.mode = "terms"
            self.terms = [(r, f, c) for r, row in enumerate(rows) for f, c in row]
        elif n_feat <= 20 * width:
            self.mode = "dense"
            w = np.zeros((len(rows), n_feat), dtype=dtype)
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
        self._copy(x, out)
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

    def _copy(self, x: np.ndarray, out: np.ndarray) -> None:
        """The copy outputs of ``x`` into ``out``."""
        if self.copy_fancy is not None:
            for oo, ii, c in self.copy_fancy:
                out[oo] = x[ii] if c == 1 else x[ii] * c
            return
        for o, i, n, c in self.copy_runs:
            if c == 1:
                out[o:o + n] = x[i:i + n]
            elif c == -1 and self.dtype is not object:
                np.negative(x[i:i + n], out=out[o:o + n])
            else:
                out[o:o + n] = x[i:i + n] * c

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


def compile_map(m: IntMap | ConcreteMap, dtype: Any, outputs: Sequence[int] | None = None,
                inputs: dict[int, int] | None = None) -> CompiledMap:
    """One map compiled for arrays of ``dtype`` (``object``: exact coefficients; else the integer ones of an IntMap)."""
    exact = dtype is object
    const, lin, quad = _terms_of(m, exact)
    ident = m.identity if isinstance(m, IntMap) else is_identity(m)
    return CompiledMap(m.name, m.d_in, m.d_out, const, lin, quad, dtype, ident, outputs, inputs)


def map_reads(m: IntMap | ConcreteMap) -> list[int]:
    """Input coordinates a map reads."""
    return sorted({i for _, i, _ in m.lin} | {i for _, i, _, _ in m.quad} | {j for _, _, j, _ in m.quad})
