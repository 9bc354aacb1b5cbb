"""All-dimension proofs: the index-function encoding with symbolic sizes.

Each input block of symbolic size becomes an uninterpreted function ``f_b : ℤ → ℝ`` and each output
block is checked at a symbolic row index ``i`` with ``0 ≤ i < size``, the size itself a Z3 integer
constrained only by the lemma's dimension hypotheses (``d ≥ 2``). A row of a map is compiled from the IR
expression by the shared walker (:class:`~symcot.lemmas.walker.Walker`) with one flat index per block, each
structured matrix read by its symbolic row (``I`` reads column ``i``, the shift ``S`` reads ``i - 1``, ``e_k``
is ``[i = k]``, a ramp column is ``start + step·i``) and a :class:`LocalIndexMatrix` by the row it states. A row
that needs every coordinate of a block of symbolic size (``1ᵀ v``, an inner product, an
:class:`~symcot.ir.IndexMatrix` without a symbolic row) raises :class:`~symcot.lemmas.kit.NonLocal` or the
walker's :class:`~symcot.lemmas.walker.Unsupported`; such a lemma can only be checked size by size.

Per-coordinate hypotheses are instantiated at exactly the coordinates a query reads; a one-hot block
is encoded by an index variable ``k`` (``f_b(j) = [j = k]`` at the coordinates read). Asserting fewer
instances than the full hypothesis is sound for a proof (``unsat`` with fewer assumptions implies
``unsat`` with all of them), and a ``sat`` answer is re-run at the model's concrete size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy as sp
import z3

from symcot.ir.expr import Expr
from symcot.ir.maps import Map
from symcot.ir.matrices import IndexMatrix, Mat
from symcot.ir.symbols import lam
from symcot.lemmas.kit import NonLocal, Unsupported, Z3Kit, sympy_to_z3, z3_to_exact
from symcot.lemmas.lemma import Lemma
from symcot.lemmas.solver import CORE_ORDER, gate_assignments, tactic_check
from symcot.lemmas.walker import Index, Summer, Walker, flat_shape
from symcot.lemmas.walker import Unsupported as NoSymbolicRow
from symcot.replay.z3limits import budget

Entry = tuple[Any, Any, Any]  # (coefficient, column, guard)


class LocalIndexMatrix(IndexMatrix):
    """An :class:`~symcot.ir.IndexMatrix` that also states its row ``i`` symbolically.

    ``sym_row(i, sizes)`` returns ``[(coefficient, column, guard), …]`` for a Z3 integer ``i`` and Z3
    size terms ``sizes[symbol]``. It must describe the same matrix as ``fn``; :func:`check_local` compares
    the two at concrete sizes, and the prover does so at every size of its sweep.
    """

    def __init__(self, rows: Any, cols: Any, fn: Callable[[int, int, Any], Any], tex: str,
                 sym_row: Callable[[Any, dict[sp.Symbol, Any]], list[Entry]], nonzeros: Any = None):
        super().__init__(rows, cols, fn, tex, nonzeros)
        self.sym_row = sym_row


#: ``sym_sum(i, sizes, summer, column)``: row ``i`` applied to ``column(j)``, i.e. ``Σ_j M[i, j]·column(j)``, with
#: ``summer(size, body, what)`` for a sum over a block of symbolic size (Python integers in, a number out, at
#: concrete sizes: then ``summer`` is the plain sum over ``range(size)``).
SymSum = Callable[[Any, dict[sp.Symbol, Any], Summer, Callable[[Any], Any]], Any]


class SummedIndexMatrix(IndexMatrix):
    """An :class:`~symcot.ir.IndexMatrix` whose row ``i`` is stated as a sum over its columns, ``sym_sum``.

    For a row that reads every coordinate of a block of symbolic size (a unit that adds all ``n`` inputs with
    signs given by the bits of its index): the index-function encoding cannot read it (``NonLocal``); the
    induction of :mod:`symcot.lemmas.induction` values it through its ``summer``. ``sym_sum`` must describe the
    same matrix as ``fn``; :func:`check_summed` compares the two at concrete sizes, at every size of the sweep.
    """

    def __init__(self, rows: Any, cols: Any, fn: Callable[[int, int, Any], Any], tex: str, sym_sum: SymSum,
                 nonzeros: Any = None):
        super().__init__(rows, cols, fn, tex, nonzeros)
        self.sym_sum = sym_sum


def _plain_sum(size: Any, body: Callable[[Any], Any], what: str) -> Any:
    return sum((body(j) for j in range(int(size))), 0)


def check_summed(m: SummedIndexMatrix, env: dict[sp.Symbol, int]) -> None:
    """Raise :class:`Unsupported` if ``m.sym_sum`` disagrees with ``m.fn`` at sizes ``env`` (every entry)."""
    from symcot.ir.symbols import size_value, to_exact

    dense = m.entries(env)
    cols = size_value(m.cols, env)
    sizes = {k: int(v) for k, v in env.items()}
    def unit(c: int) -> Callable[[Any], int]:
        return lambda j: 1 if j == c else 0

    for i in range(size_value(m.rows, env)):
        for c in range(cols):
            got = to_exact(m.sym_sum(i, sizes, _plain_sum, unit(c)))
            want = to_exact(dense.get((i, c), 0))
            if got != want:
                raise Unsupported(f"{m.tex}: the stated sum of row {i} gives {got} at column {c}, the matrix {want} "
                                  f"at {env}")


def check_local(m: LocalIndexMatrix, env: dict[sp.Symbol, int]) -> None:
    """Raise :class:`Unsupported` if ``m.sym_row`` disagrees with ``m.fn`` at sizes ``env``."""
    from symcot.ir.symbols import size_value, to_exact

    zsizes = {k: z3.IntVal(int(v)) for k, v in env.items()}
    dense = m.entries(env)
    for i in range(size_value(m.rows, env)):
        got: dict[int, Any] = {}
        for coef, col, guard in m.sym_row(z3.IntVal(i), zsizes):
            g = z3.simplify(z3.BoolVal(guard) if isinstance(guard, bool) else guard)
            if z3.is_false(g):
                continue
            if not z3.is_true(g):
                raise Unsupported(f"{m.tex}: the guard of row {i} does not evaluate at {env}")
            c = z3.simplify(z3.IntVal(col) if isinstance(col, int) else col).as_long()
            v = z3_to_exact(z3.simplify(z3.RealVal(0) + coef))
            got[c] = got.get(c, 0) + v
        got = {k: v for k, v in got.items() if v != 0}
        want = {j: to_exact(v) for (ii, j), v in dense.items() if ii == i}
        if got != want:
            raise Unsupported(f"{m.tex}: symbolic row {i} {got} differs from the matrix row {want} at {env}")


def _walk_mats(obj: Any) -> list[Mat]:
    out: list[Mat] = []
    if isinstance(obj, Mat):
        out.append(obj)
        for attr in ("m", "a", "b"):
            sub = getattr(obj, attr, None)
            if isinstance(sub, Mat):
                out += _walk_mats(sub)
    elif isinstance(obj, Expr):
        for attr in ("m", "e", "a", "b"):
            sub = getattr(obj, attr, None)
            if isinstance(sub, (Mat, Expr)):
                out += _walk_mats(sub)
        for t in getattr(obj, "terms", []):
            out += _walk_mats(t)
    return out


def local_matrices(m: Map) -> list[LocalIndexMatrix]:
    """The :class:`LocalIndexMatrix` objects a map uses."""
    return [x for e in m.exprs.values() for x in _walk_mats(e) if isinstance(x, LocalIndexMatrix)]


def summed_matrices(m: Map) -> list[SummedIndexMatrix]:
    """The :class:`SummedIndexMatrix` objects a map uses."""
    return [x for e in m.exprs.values() for x in _walk_mats(e) if isinstance(x, SummedIndexMatrix)]


def lemma_walker(symbols: dict[sp.Symbol, Any], summer: Summer | None = None) -> Walker:
    """The shared walker as the all-dimension proof reads it.

    One flat index per block, no sum over a block of symbolic size (such a row is :class:`NonLocal`; ``summer``:
    how the induction of :mod:`symcot.lemmas.induction` names it), and a :class:`LocalIndexMatrix` read by the
    row it states.
    """

    def local_rows(m: Mat, idx: Index) -> list[tuple[Any, Index, Any]] | None:
        if not isinstance(m, LocalIndexMatrix):
            return None
        return [(c, (col,), z3.BoolVal(g) if g is False else g) for c, col, g in m.sym_row(idx[0], symbols)]

    def local_sum(m: Mat, idx: Index, column: Callable[[Index], Any]) -> Any:
        if not isinstance(m, SummedIndexMatrix):
            return None
        if summer is None:
            raise NonLocal(f"{m.tex} sums over the columns of a block of symbolic size")
        return m.sym_sum(idx[0], symbols, summer, lambda j: column((j,)))

    return Walker(symbols, {}, summer, shape=flat_shape, local_rows=local_rows, local_sum=local_sum)


class SymMap:
    """Rows of an IR map at a symbolic row index, reading its input through ``read(block, j)``."""

    def __init__(self, m: Map, walker: Walker, read: Callable[[str, Any], Any]):
        self.m, self.walker = m, walker
        self._read = lambda b, idx: read(b, idx[0])

    def block_row(self, block: str, j: Any) -> Any:
        """Coordinate ``j`` of output block ``block``."""
        return self.walker.block(self.m, block, self._read, (j,))


class SymX:
    """Input accessor of the all-dimension encoding (records which coordinates are read)."""

    def __init__(self, lemma: Lemma, symbols: dict[sp.Symbol, Any], gate_vals: dict[str, Any]):
        self._lemma, self._symbols = lemma, symbols
        self._scalar: dict[str, Any] = {}
        self._fun: dict[str, Any] = {}
        self.reads: dict[str, list[Any]] = {}
        for b in lemma.inputs.names:
            size = sp.sympify(lemma.inputs.size(b))
            sort = z3.IntSort() if b in lemma.int_blocks else z3.RealSort()
            if b in gate_vals:
                self._scalar[b] = gate_vals[b]
            elif size == 1:
                self._scalar[b] = z3.Const(b, sort)
            elif size.is_Integer:
                raise Unsupported(f"block {b!r} of fixed size {size}: state it as scalars")
            else:
                self._fun[b] = z3.Function(b, z3.IntSort(), sort)
                self.reads[b] = []

    def size(self, block: str) -> Any:
        """The block's size as a Z3 term."""
        return sympy_to_z3(self._lemma.inputs.size(block), self._symbols)

    def vec(self, block: str) -> Any:
        """Not available: the block has symbolic size."""
        raise NonLocal(f"reads every coordinate of block {block!r}")

    def in_range(self, block: str, j: Any) -> Any:
        """``0 ≤ j < size``."""
        return z3.And(j >= 0, j < self.size(block))

    def raw(self, block: str, j: Any) -> Any:
        """``f_block(j)`` (scalars: the variable), recording the read."""
        if block in self._scalar:
            return self._scalar[block]
        jz = j if isinstance(j, z3.ExprRef) else z3.IntVal(j)
        if not any(r.eq(jz) for r in self.reads[block]):
            self.reads[block].append(jz)
        return self._fun[block](jz)

    def get(self, block: str, j: Any = 0) -> Any:
        """Coordinate ``j``, zero outside the block."""
        if block in self._scalar:
            return self._scalar[block]
        return z3.If(self.in_range(block, j), self.raw(block, j), 0)

    def __getattr__(self, block: str) -> Callable[..., Any]:
        if block.startswith("_"):
            raise AttributeError(block)
        return lambda j=0: self.get(block, j)

    def __getitem__(self, block: str) -> Callable[..., Any]:
        return getattr(self, block)

    def each(self, block: str, pred: Callable[[Any, Any], Any], K: Any) -> Any:
        """``pred`` at every coordinate of ``block`` read so far."""
        if block in self._scalar:
            return pred(self._scalar[block], K)
        return Z3Kit.And(*[z3.Implies(self.in_range(block, j), pred(self._fun[block](j), K))
                           for j in self.reads[block]])

    def onehot(self, block: str, zero_ok: bool) -> Any:
        """``f(j) = [j = k]`` at every coordinate read, for one index ``k`` (``k = size``: the zero vector)."""
        k = z3.Int(f"k_{block}")
        top = self.size(block) + (1 if zero_ok else 0)
        return z3.And(k >= 0, k < top, *[z3.Implies(self.in_range(block, j), self._fun[block](j) == z3.If(j == k, 1, 0))
                                       for j in self.reads[block]])


def _hypotheses(lemma: Lemma, x: SymX, K: Z3Kit, syms: dict[sp.Symbol, Any],
                dropped: set[str]) -> list[tuple[str, str, Any]] | None:
    """``(name, kind, formula)`` of every hypothesis at the coordinates read; ``None`` when one is false.

    A hypothesis that cannot be stated for symbolic sizes is left out (named in ``dropped``): fewer
    assumptions can only make a proof harder, never wrong.
    """
    hyps: list[tuple[str, str, Any]] = []
    for h in lemma.hyps:
        if h.kind in ("each", "int"):
            c = x.each(h.on, h.pred, K)
        elif h.kind == "dim":
            c = h.pred(dict(syms), K)
        elif h.kind == "lam":
            c = h.pred(K)
        elif h.sym is not None:
            c = h.sym(x, K, x)
        else:
            try:
                c = h.pred(x, K)
            except (NonLocal, TypeError, Unsupported):
                dropped.add(h.name)
                continue
        if c is True:
            continue
        if c is False:
            return None
        hyps.append((h.name, h.kind, c))
    return hyps


def _core_by_deletion(base: list[Any], hyps: list[tuple[str, str, Any]], timeout_ms: int) -> set[str]:
    """The hypotheses left after dropping, one by one, each whose absence keeps ``base`` unsat."""
    keep = sorted(hyps, key=lambda t: (CORE_ORDER[t[1]], t[0]))
    for cand in list(keep):
        trial = [t for t in keep if t is not cand]
        if tactic_check(base + [c for _n, _k, c in trial], timeout_ms)[0] == z3.unsat:
            keep = trial
    return {n for n, _k, _c in keep}


def _hidden_reader(lemma: Lemma, walker: Walker, x: SymX) -> Callable[[str, Any], Any]:
    """``read(b, j)``: coordinate ``j`` of the hidden block ``b`` (``ReLU`` of ``W_1``'s row; cached)."""
    w1s = SymMap(lemma.w1, walker, x.raw) if lemma.w1 is not None else None
    cache: dict[tuple[str, str], Any] = {}

    def read_hidden(b: str, j: Any) -> Any:
        if w1s is None:
            return x.raw(b, j)
        key = (b, str(j))
        if key not in cache:
            v = w1s.block_row(b, j)
            cache[key] = Z3Kit.relu(v) if lemma.relu else v
        return cache[key]

    return read_hidden


def prove_all_sizes(lemma: Lemma, lam_term: Any, bound_term: Any) -> dict[str, Any]:
    """The all-dimension proof: ``{"status", "queries", "seconds", "used", "dropped", "model_sizes", …}``.

    ``status`` is ``proved`` (every output block, every gate value, every size allowed by the
    dimension hypotheses), ``sat`` (``model_sizes`` holds the smallest sizes of a model, to be re-run
    concretely), ``nonlocal`` (a row reads a whole block of symbolic size) or ``unknown``. The core is
    minimised by deletion: a hypothesis is kept only if the query is no longer ``unsat`` without it.
    """
    out: dict[str, Any] = {"status": "proved", "queries": 0, "seconds": 0.0, "used": set(), "dropped": set(),
                           "unknown": []}
    syms = {s: z3.Int(str(s)) for s in lemma.dims}
    symbols = dict(syms)
    symbols[lam] = lam_term
    walker = lemma_walker(symbols)
    try:
        for gv in gate_assignments(lemma):
            x = SymX(lemma, symbols, gv)
            K = Z3Kit(lam_term, bound_term, syms)
            w2s = SymMap(lemma.w2, walker, _hidden_reader(lemma, walker, x))
            for b, row in lemma.target.items():
                i = z3.Int("i")
                size_b = sympy_to_z3(lemma.w2.dst.size(b), symbols)
                got = w2s.block_row(b, i)
                want = row(x, i, K)
                goal = got != want
                base = [i >= 0, i < size_b, *[v >= lemma.dims[k] for k, v in syms.items()],
                        goal if not isinstance(goal, bool) else z3.BoolVal(goal)]
                hyps = _hypotheses(lemma, x, K, syms, out["dropped"])
                if hyps is None:
                    continue
                t0 = time.perf_counter()
                r, model = tactic_check(base + [c for _n, _k, c in hyps], lemma.timeout_ms)
                out["queries"] += 1
                if r == z3.unsat:
                    out["used"] |= _core_by_deletion(base, hyps, lemma.timeout_ms)
                elif r == z3.sat:
                    out["seconds"] += time.perf_counter() - t0
                    out["status"] = "sat"
                    out["model_sizes"] = _smallest_sizes(base + [c for _n, _k, c in hyps], syms, model)
                    out["where"] = ", ".join(f"{b2}={v}" for b2, v in gv.items()) + f" block {b}"
                    return out
                else:
                    out["unknown"].append(f"{b}: undecided within {lemma.timeout_ms} ms")
                    out["status"] = "unknown"
                out["seconds"] += time.perf_counter() - t0
    except (NonLocal, NoSymbolicRow) as e:
        out["status"] = "nonlocal"
        out["reason"] = str(e)
    return out


def _smallest_sizes(constraints: list[Any], syms: dict[sp.Symbol, Any], model: Any) -> dict[sp.Symbol, int]:
    """Sizes of a model of ``constraints`` with the smallest total size (``model``'s if none in time)."""
    opt = z3.Optimize()
    budget(opt, 5000)
    for c in constraints:
        opt.add(c)
    if syms:
        opt.minimize(z3.Sum(list(syms.values())))
    m = opt.model() if opt.check() == z3.sat else model
    return {k: m.eval(v, model_completion=True).as_long() for k, v in syms.items()}
