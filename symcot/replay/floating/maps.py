"""One polynomial map (``ConcreteMap``: bias, linear and degree-2 terms) evaluated on a batch in a format.

``out[o] = Σ c + Σ c·x_i + Σ c·x_i·x_j`` for every row of a ``(B, d_in)`` array. The coefficients are
the map's exact ones rounded to the format's storage type; every product and the sum of one output are
formed in the accumulator type, term by term in a fixed order (by input index), and the output is
rounded to storage once. The terms are kept sparse (the constructions' maps are mostly block copies),
so the cost is linear in the number of terms.

:meth:`ArrayMap.abs_sums` evaluates ``Σ|c| + Σ|c|·|x_i| + Σ|c|·|x_i|·|x_j|``: a bound on every partial
sum and product formed for that output, in any order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from symcot.ir.maps import ConcreteMap
from symcot.replay.floating.formats import Format
from symcot.replay.scaling import as_rational


def _merge(terms: list[tuple[Any, ...]]) -> dict[tuple[int, ...], Any]:
    """Exact coefficients by monomial, duplicates summed, zeros dropped."""
    out: dict[tuple[int, ...], Any] = {}
    for t in terms:
        key, c = t[:-1], as_rational(t[-1])
        if len(key) == 3:
            key = (key[0], *sorted(key[1:]))
        out[key] = out.get(key, 0) + c
    return {k: c for k, c in out.items() if c != 0}


class _Terms:
    """Terms of one degree grouped by output: ``reduceat`` over runs of equal outputs."""

    def __init__(self, keys: list[tuple[int, ...]], coeffs: list[Any], fmt: Format):
        order = sorted(range(len(keys)), key=lambda k: keys[k])
        keys = [keys[k] for k in order]
        self.empty = not keys
        self.outs = np.array([k[0] for k in keys], dtype=np.intp)
        self.i = np.array([k[1] for k in keys], dtype=np.intp)
        self.j = np.array([k[2] if len(k) > 2 else 0 for k in keys], dtype=np.intp)
        self.c = fmt.array([coeffs[k] for k in order]) if keys else fmt.zeros((0,))
        self.abs_c = np.abs(self.c)
        starts = [k for k in range(len(keys)) if k == 0 or keys[k][0] != keys[k - 1][0]]
        self.starts = np.array(starts, dtype=np.intp)
        self.targets = self.outs[self.starts] if keys else self.outs

    def add_into(self, out: np.ndarray, contrib: np.ndarray) -> None:
        """``out[:, o] += Σ contrib[:, terms of o]`` (sums in ``contrib``'s type, in term order)."""
        out[:, self.targets] += np.add.reduceat(contrib, self.starts, axis=1)


class ArrayMap:
    """A :class:`ConcreteMap` compiled for one format (see the module docstring).

    ``label`` and ``layer`` (1-based) name the map's place in a decoder, for a recorder.
    """

    def __init__(self, m: ConcreteMap, fmt: Format, label: str | None = None, layer: int = 0):
        self.name, self.fmt = m.name, fmt
        self.label = m.name if label is None else label
        self.layer = layer
        self.d_in, self.d_out = m.d_in, m.d_out
        self.dst = m.dst
        const = _merge([(o, c) for o, c in m.const])
        lin = _merge([(o, i, c) for o, i, c in m.lin])
        quad = _merge([(o, i, j, c) for o, i, j, c in m.quad])
        self.degree = 2 if quad else 1 if lin else 0
        self.identity = (not const and not quad and self.d_in == self.d_out and len(lin) == self.d_out
                         and all(k[0] == k[1] and c == 1 for k, c in lin.items()))
        self.bias = fmt.zeros((self.d_out,))
        for (o,), c in const.items():
            self.bias[o] = fmt.scalar(c)
        self.abs_bias = np.abs(self.bias)
        self.lin = _Terms(list(lin), list(lin.values()), fmt)
        self.quad = _Terms(list(quad), list(quad.values()), fmt)
        self.has_bias = bool(const)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The map on every row of ``x`` (``(B, d_in)``, stored values), rounded to storage."""
        if self.identity:
            return x
        out = self.fmt.zeros((x.shape[0], self.d_out))
        if self.has_bias:
            out += self.bias
        with np.errstate(over="ignore", invalid="ignore"):
            if not self.lin.empty:
                self.lin.add_into(out, x[:, self.lin.i] * self.lin.c)
            if not self.quad.empty:
                self.quad.add_into(out, x[:, self.quad.i] * x[:, self.quad.j] * self.quad.c)
        return self.fmt.round(out)

    def abs_sums(self, ax: np.ndarray) -> np.ndarray:
        """``Σ|c| + Σ|c|·ax_i + Σ|c|·ax_i·ax_j`` per row and output, for ``ax = |x|`` (no rounding)."""
        if self.identity:
            return ax
        out = self.fmt.zeros((ax.shape[0], self.d_out))
        if self.has_bias:
            out += self.abs_bias
        with np.errstate(over="ignore", invalid="ignore"):
            if not self.lin.empty:
                self.lin.add_into(out, ax[:, self.lin.i] * self.lin.abs_c)
            if not self.quad.empty:
                self.quad.add_into(out, ax[:, self.quad.i] * ax[:, self.quad.j] * self.quad.abs_c)
        return out

    def coefficients(self) -> np.ndarray:
        """Every stored coefficient (bias, linear, quadratic) as one array."""
        return np.concatenate([self.bias, self.lin.c, self.quad.c])
