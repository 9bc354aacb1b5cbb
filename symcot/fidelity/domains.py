r"""The entry domains and shapes the text prints for a construction's matrices, against the compiled maps.

Some proofs type a matrix: "W_O^{(2)} ∈ {−1, 0, 1}^{d×2d}", "W_O ∈ {0,1}^{d×2d}",
"W_2 ∈ {0,1}^{d×d′}", "W_O^{(1)} = 0^{d×d}" (a trivial attention). A
:class:`MatrixStatement` records one such sentence; :class:`DomainCheck` compiles the construction at every
size up to the row's and compares every entry of the map -- its linear coefficients, its constants (which
Fact 1 turns into entries of the matrix) and its degree-2 coefficients (a typed matrix has none) -- with the
printed set, and its shape with the printed one. A refutation names the smallest size, the map, the entry
(output and input coordinate) and its value, and lists every entry outside the domain at that size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.check.context import RunContext
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.model.decoder import ConcreteDecoder


@dataclass(frozen=True)
class MatrixStatement:
    """One printed typing of a matrix.

    Attributes:
        layer: the 1-based layer.
        label: the map (``W_O``, ``W_1``, ``W_2``, ``Q_T`` …).
        values: the printed entry set; ``frozenset({0})`` with ``label="W_O"`` for "W_O = 0", which a
            trivial attention (no heads) meets by construction.
        quote: the sentence, as printed.
        shape: the printed ``(rows, columns)`` in the construction's size symbols and ``d`` (``None``: no
            shape printed).
        identity: the text says the matrix is the identity ("Taking V^{(1)} as identity"): exactly the
            entries ``(i, i) = 1``.

    """

    layer: int
    label: str
    values: frozenset[Any]
    quote: str
    shape: tuple[Any, Any] | None = None
    identity: bool = False

    def text(self) -> str:
        """``{0, 1}`` (``the identity``)."""
        return "the identity" if self.identity else "{" + ", ".join(str(v) for v in sorted(self.values)) + "}"


def _entries(dec: ConcreteDecoder, st: MatrixStatement) -> tuple[list[tuple[str, str, Any]], tuple[int, int] | None]:
    """The map's entries outside the printed set ``(output, input, value)``, and its shape (``None``: no map)."""
    layer = dec.layers[st.layer - 1]
    if st.label == "W_O" and layer.attention is None:
        return [], None
    mp = dec.get_map(st.layer, st.label)
    bad: list[tuple[str, str, Any]] = []
    src, dst = mp.src, mp.dst
    for o, i, c in mp.lin:
        if c not in st.values:
            bad.append((dst.coordinate_name(o), src.coordinate_name(i), c))
    for o, c in mp.const:
        if c not in st.values:
            bad.append((dst.coordinate_name(o), "1 (a constant; an entry by Fact 1)", c))
    for o, i, j, c in mp.quad:
        bad.append((dst.coordinate_name(o), f"{src.coordinate_name(i)}·{src.coordinate_name(j)} (degree 2)", c))
    if st.identity:
        have = {(o, i): c for o, i, c in mp.lin}
        bad += [(dst.coordinate_name(o), src.coordinate_name(i), c) for (o, i), c in have.items() if o != i or c != 1]
        bad += [(dst.coordinate_name(k), src.coordinate_name(k), 0) for k in range(min(mp.d_out, mp.d_in))
                if (k, k) not in have]
    return bad, (mp.d_out, mp.d_in)


@dataclass
class DomainCheck:
    """Every printed matrix typing of a construction, at every size up to the row's.

    Attributes:
        variant: the construction variant.
        make: builds it.
        statements: the printed typings.
        input_at: ``input_at(size)``: one input of that size (the weights depend on the sizes only, and on λ).
        min_size: the smallest size.

    """

    variant: str
    make: Callable[[], Construction]
    statements: list[MatrixStatement]
    input_at: Callable[[int], Any]
    min_size: int = 1
    method: str = "compiled maps: every entry (linear, constant, degree-2) against the printed set, and the shape"
    input_kind: str = "graph"

    def run(self, ctx: RunContext) -> Verdict:
        """Each size in turn up to ``ctx.max_size``: the first entry or shape outside the statement refutes."""
        start = time.perf_counter()
        claim_id, max_size = ctx.claim_id, ctx.max_size
        cons = self.make()
        checked = 0
        done: list[int] = []
        seen: list[dict[str, Any]] = []
        for size in range(self.min_size, max_size + 1):
            inp = self.input_at(size)
            dec = cons.concrete(inp)
            env = {**{str(k): v for k, v in dec.env.items()}, "d": dec.layout.dim}
            for st in self.statements:
                checked += 1
                bad, shape = _entries(dec, st)
                if shape is None:
                    if size == self.min_size:
                        seen.append({"statement": st.quote, "map": f"layer {st.layer} {st.label}",
                                     "found": "trivial attention (no heads, W_O = 0)"})
                    continue
                want = None if st.shape is None else tuple(int(sp.sympify(e).subs(env)) for e in st.shape)
                if bad or (want is not None and want != shape):
                    cex: dict[str, Any] = {"size": size, "input": {"text": f"the compiled weights at n = {size}"},
                                           "layer": st.layer, "statement": st.quote}
                    if bad:
                        out, col, val = bad[0]
                        cex.update({"kind": "entry", "what": f"{st.label}: {out} ← {col}", "expected": f"∈ {st.text()}",
                                    "got": val, "outside": [{"entry": f"{o} ← {c}", "value": v} for o, c, v in bad]})
                    else:
                        cex.update({"kind": "shape", "what": st.label, "expected": list(want or ()),
                                    "got": list(shape)})
                    return Verdict(claim_id, cons.variant, "refuted", self.method, done[-1] if done else None,
                                   checked, time.perf_counter() - start, cex, details={"statements": seen})
                if size == self.min_size:
                    seen.append({"statement": st.quote, "map": f"layer {st.layer} {st.label}",
                                 "found": ("the identity" if st.identity else f"entries in {st.text()}")
                                 + f", shape {shape[0]}×{shape[1]}"})
            done.append(size)
        return Verdict(claim_id, cons.variant, "verified", self.method, done[-1] if done else None, checked,
                       time.perf_counter() - start, None, details={"statements": seen},
                       scope=f"every printed typing, at every size n ≤ {done[-1]}" if done else "")


__all__ = ["DomainCheck", "MatrixStatement"]
