r"""All-dimension proofs of a lemma whose output row sums over a block of symbolic size, by induction on the sum.

The index-function encoding (:mod:`symcot.lemmas.symbolic`) reads one row at a symbolic index; a row that sums
over a block of symbolic size (``Σ_{k=2}^n c_k ReLU(x - x_k)``, a dot product over ``n - 1`` units) has no such
form. When the target of that row is stated as a :class:`~symcot.lemmas.fold.Fold` (an initial state, a step per
summand and an output, so that the concrete target is the state after ``N`` steps) with an invariant relating a
partial sum to the state, the row is proved for every size by induction on the number of summands ``N``:

* the walker reads the row with the sum replaced by a variable ``S`` (one sum per row), giving ``F(S)``, and
  the summand ``body(k)`` at a symbolic ``k``;
* **length**: the sum's size is the fold's number of steps (at every size the dimension hypotheses allow);
* **base**: ``inv(0, init, 0)``;
* **step**: for every ``0 ≤ k < N``, ``inv(S, st, k) ⇒ inv(S + body(k), step(st, k), k + 1)`` (``S`` and the
  state ``st`` free variables);
* **conclusion**: ``inv(S, st, N) ⇒ F(S) = out(st)``.

Together they give ``F(Σ_{k<N} body(k)) = out(state_N)``, the target row, for every ``N`` (induction on ``k``):
each obligation is one Z3 query over free variables, the input blocks uninterpreted functions of the index
(hypotheses instantiated at the coordinates the query reads, which is sound for a proof), every size symbol a
Z3 integer bounded below by its least value. An obligation that is not ``unsat`` leaves the row unproved (the
invariant may be too weak, or the statement wrong past the sizes checked): the verdict stays ``verified``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
import z3

from symcot.ir.symbols import lam
from symcot.lemmas.fold import Fold, Induction, State
from symcot.lemmas.kit import NonLocal, Unsupported, Z3Kit, sympy_to_z3
from symcot.lemmas.lemma import Lemma
from symcot.lemmas.solver import gate_assignments, tactic_check
from symcot.lemmas.symbolic import SymMap, SymX, _hidden_reader, _hypotheses, lemma_walker


class _Capture:
    """A walker ``summer`` that names each sum of the row (``S!0``, ``S!1``, …) and keeps its size and summand.

    Several sums must run over the same size (they advance together, one summand each a step). Once the row is
    read the capture is closed: a sum met later, inside a summand (a unit that itself sums over a block of
    symbolic size, read under an outer sum), is refused, never left as a free variable.
    """

    def __init__(self) -> None:
        self.sums: list[tuple[Any, Callable[[Any], Any], str, Any]] = []
        self.closed = False

    def __call__(self, size: Any, body: Callable[[Any], Any], what: str) -> Any:
        if self.closed:
            raise Unsupported(f"a sum over a block of symbolic size inside a summand ({what}); induction takes the "
                              "row's own sums only")
        if self.sums and not z3.simplify(size).eq(z3.simplify(self.sums[0][0])):
            raise Unsupported(f"sums over blocks of different sizes ({self.sums[0][2]}, {what}); induction takes "
                              "sums of one size")
        var = z3.Real(f"S!{len(self.sums)}")
        self.sums.append((size, body, what, var))
        return var

    def partial(self, vals: Sequence[Any]) -> Any:
        """The partial sums as the fold's invariant gets them: one term, or a tuple for several sums."""
        return vals[0] if len(vals) == 1 else tuple(vals)

    def flat(self, s: Any) -> list[Any]:
        """A partial sum (one term or a tuple) as a list."""
        return list(s) if isinstance(s, tuple) else [s]


def _fresh(values: Sequence[Any], tag: str) -> State:
    """Free Z3 variables of the sorts of ``values`` (a Python number: a real)."""
    out = []
    for k, v in enumerate(values):
        sort = v.sort() if isinstance(v, z3.ExprRef) else z3.RealSort()
        out.append(z3.Const(f"{tag}!{k}", sort))
    return tuple(out)


def _as_bool(v: Any) -> Any:
    return z3.BoolVal(v) if isinstance(v, bool) else v


def prove_by_induction(lemma: Lemma, lam_term: Any = None, bound_term: Any = None) -> dict[str, Any]:
    """The four obligations of the module text for ``lemma.induction``: ``{"status", "queries", "seconds", …}``.

    ``status``: ``proved`` (every obligation unsat, every gate value), ``failed`` (``failed`` names the first
    obligation that is not, and Z3's answer), ``unsupported`` (``reason``).
    """
    ind = lemma.induction
    out: dict[str, Any] = {"status": "proved", "queries": 0, "seconds": 0.0, "obligations": [], "dropped": set()}
    if ind is None:
        return {**out, "status": "unsupported", "reason": "the lemma states no induction"}
    syms = {s: z3.Int(str(s)) for s in lemma.dims}
    symbols: dict[sp.Symbol, Any] = {**syms, lam: lam_term}
    try:
        for gv in gate_assignments(lemma):
            for name, goal, x, K in _obligations(lemma, ind, symbols, syms, gv, lam_term, bound_term):
                hyps = _hypotheses(lemma, x, K, syms, out["dropped"])
                if hyps is None:
                    continue
                base = [v >= lemma.dims[k] for k, v in syms.items()]
                t0 = time.perf_counter()
                r, _model = tactic_check(base + [c for _n, _k, c in hyps] + [z3.Not(goal)], lemma.timeout_ms)
                out["seconds"] += time.perf_counter() - t0
                out["queries"] += 1
                out["obligations"].append(f"{name}: {r}")
                if r != z3.unsat:
                    out["status"] = "failed"
                    out["failed"] = f"{name} ({'a model' if r == z3.sat else 'undecided'})"
                    return out
    except (NonLocal, Unsupported) as e:
        out["status"], out["reason"] = "unsupported", str(e)
    return out


def _in_row(i: Any, size: Any, symbols: dict[sp.Symbol, Any]) -> Any:
    """``0 ≤ i < size``; ``0 ≤ i`` alone where the size has no Z3 form (``2^n``): a proof for more rows."""
    try:
        return z3.And(i >= 0, i < sympy_to_z3(size, symbols))
    except Unsupported:
        return i >= 0


def _obligations(lemma: Lemma, ind: Induction, symbols: dict[sp.Symbol, Any], syms: dict[sp.Symbol, Any],
                 gv: dict[str, Any], lam_term: Any, bound_term: Any) -> list[tuple[str, Any, SymX, Z3Kit]]:
    """``(name, goal, reads, kit)`` of length, base, step and conclusion; each with its own input accessor."""
    fold, b = ind.fold, ind.block
    i = z3.Int("i")
    out = []
    for name in ("length", "base", "step", "conclusion"):
        x = SymX(lemma, symbols, gv)
        K = Z3Kit(lam_term, bound_term, syms)
        cap = _Capture()
        walker = lemma_walker(symbols, summer=cap)
        got = SymMap(lemma.w2, walker, _hidden_reader(lemma, walker, x)).block_row(b, i)
        cap.closed = True
        if not cap.sums:
            raise Unsupported(f"block {b!r}: the row reads no sum over a block of symbolic size")
        size = cap.sums[0][0]
        S = cap.partial([v for _s, _b, _w, v in cap.sums])

        def F(s: Any, got: Any = got, cap: _Capture = cap) -> Any:
            return z3.substitute(got, *[(v, t) for (_s, _b, _w, v), t in zip(cap.sums, cap.flat(s))])

        def advanced(k: Any, cap: _Capture = cap) -> Any:
            return cap.partial([v + body(k) for _s, body, _w, v in cap.sums])

        in_row = _in_row(i, lemma.w2.dst.size(b), symbols)
        n_steps = fold.steps(x)
        init = fold.init(x, i, K)
        if name == "length":
            goal = size == n_steps
        elif name == "base":
            goal = _as_bool(fold.inv(cap.partial([z3.RealVal(0)] * len(cap.sums)), F, init, z3.IntVal(0), x, i, K))
        elif name == "step":
            k, st = z3.Int("k"), _fresh(init, "st")
            pre = z3.And(k >= 0, k < size, _as_bool(fold.inv(S, F, st, k, x, i, K)))
            goal = z3.Implies(pre, _as_bool(fold.inv(advanced(k), F, fold.step(st, k, x, i, K), k + 1, x, i, K)))
        else:
            st = _fresh(init, "st")
            goal = z3.Implies(_as_bool(fold.inv(S, F, st, size, x, i, K)), got == fold.out(st, x, i, K))
        out.append((name, z3.Implies(in_row, goal), x, K))
    return out


__all__ = ["Fold", "Induction", "prove_by_induction"]
