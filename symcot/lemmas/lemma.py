"""The lemma object: an FFN stated in the IR, a domain of named hypotheses, and a piecewise target.

A lemma is ``out = W_2 ReLU(W_1 x)`` (biases are the maps' constant terms; degree-2 terms allowed), or a
single map ``out = W_2 x`` for a gating identity. ``W_1`` and ``W_2`` are :class:`symcot.ir.Map` objects
over named-block layouts with symbolic sizes, exactly as the constructions state their maps. The
*domain* is a list of named hypotheses plus finite *gates* (a scalar block that ranges over a finite
set, e.g. ``m ∈ {-1, 1}``; every value is a separate query). The *target* gives, for each output block
the lemma speaks about, the value of coordinate ``i`` as a function of the input.

Hypotheses and targets are Python functions over an input accessor ``x`` and a kit ``K`` (see
:mod:`symcot.lemmas.kit`): ``x.h(j)`` is coordinate ``j`` of block ``h`` (0 outside the block, so shifts
are zero-padded), ``x.m()`` a scalar block, ``x.size("h")`` a block size, ``x.vec("h")`` the whole
block (concrete sizes only). The same function is evaluated on Z3 terms for the proof and on exact
numbers to re-check a counterexample.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.errors import SymcotError
from symcot.ir.layout import Layout
from symcot.ir.maps import Map
from symcot.lemmas.fold import Induction
from symcot.lemmas.kit import NonLocal, is_z3


class LemmaError(SymcotError, ValueError):
    """A lemma stated inconsistently (maps that do not compose, an unknown block, a repeated name)."""

#: A target row: ``row(x, i, K)`` is the value the lemma promises at coordinate ``i`` of a block.
Row = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Gate:
    """A scalar input block ranging over a finite set (each value is enumerated as its own query)."""

    block: str
    values: tuple[Any, ...]
    name: str = ""

    @property
    def label(self) -> str:
        """``m ∈ {-1, 1}``."""
        return self.name or f"{self.block} ∈ {{{', '.join(str(v) for v in self.values)}}}"


@dataclass(frozen=True)
class Hyp:
    """A named hypothesis of the domain.

    ``kind`` is ``each`` (``pred(v, K)`` for every coordinate ``v`` of ``block``), ``int`` (every
    coordinate of ``block`` is an integer: the block gets Z3's integer sort), ``whole``
    (``pred(x, K)`` over the whole input), ``dim`` (``pred(sizes, K)`` on the size symbols) or ``lam``
    (``pred(K)`` on ``K.lam``/``K.bound``). ``sym`` is an optional encoding of a ``whole`` hypothesis for
    the all-dimension proof (``sym(x, K, reads)``, see :mod:`symcot.lemmas.symbolic`); without one, the
    all-dimension proof leaves the hypothesis out (which is sound for a proof: fewer hypotheses).
    """

    name: str
    kind: str
    pred: Callable[..., Any]
    block: str | None = None
    sym: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("each", "int", "whole", "dim", "lam"):
            raise LemmaError(f"hypothesis {self.name!r}: unknown kind {self.kind!r}")
        if self.kind in ("each", "int") and not self.block:
            raise LemmaError(f"hypothesis {self.name!r} of kind {self.kind!r} needs a block")

    @property
    def on(self) -> str:
        """The block of an ``each`` or ``int`` hypothesis (checked at construction)."""
        if self.block is None:
            raise LemmaError(f"hypothesis {self.name!r} of kind {self.kind!r} has no block")
        return self.block


def each(name: str, block: str, pred: Callable[[Any, Any], Any]) -> Hyp:
    """A per-coordinate hypothesis: ``pred(v, K)`` for every coordinate ``v`` of ``block``."""
    return Hyp(name, "each", pred, block)


def integral(name: str, block: str) -> Hyp:
    """Every coordinate of ``block`` is an integer.

    Encoded by giving the block Z3's integer sort (an integrality predicate on reals makes mixed queries
    stall); whether a proof needs it is decided by proving the lemma again without it (the block then
    real), not by the unsat core.
    """
    return Hyp(name, "int", lambda v, K: K.is_int(v), block)


def whole(name: str, pred: Callable[[Any, Any], Any], sym: Callable[..., Any] | None = None) -> Hyp:
    """A hypothesis over the whole input: ``pred(x, K)``."""
    return Hyp(name, "whole", pred, None, sym)


def dim_hyp(name: str, pred: Callable[[dict[sp.Symbol, Any], Any], Any]) -> Hyp:
    """A hypothesis on the sizes, ``pred(sizes, K)`` (e.g. ``d ≥ 2``)."""
    return Hyp(name, "dim", pred)


def lam_hyp(name: str, pred: Callable[[Any], Any]) -> Hyp:
    """A hypothesis on ``λ`` (``K.lam``) or on the input bound (``K.bound``)."""
    return Hyp(name, "lam", pred)


def onehot(block: str, zero_ok: bool = False) -> list[Hyp]:
    """``block`` is one-hot (or zero when ``zero_ok``), as four named hypotheses.

    ``v ≥ 0``, ``v ≤ 1`` and ``v ∈ ℤ`` per coordinate, and the count ``Σ v = 1`` (``≤ 1`` when
    ``zero_ok``). For the all-dimension proof the count is encoded by an index variable ``k``: at every
    coordinate ``j`` read, ``v_j = [j = k]`` (``k`` may point past the block when ``zero_ok``).
    """
    def count(x: Any, K: Any) -> Any:
        s = K.sum(x.vec(block))
        return s <= 1 if zero_ok else s == 1

    def sym(x: Any, K: Any, reads: Any) -> Any:
        return reads.onehot(block, zero_ok)

    what = "one-hot or zero" if zero_ok else "one-hot"
    return [
        each(f"{block}_i ≥ 0", block, lambda v, K: v >= 0),
        each(f"{block}_i ≤ 1", block, lambda v, K: v <= 1),
        integral(f"{block}_i ∈ ℤ", block),
        whole(f"{block} {what} (Σ {block}_i {'≤' if zero_ok else '='} 1)", count, sym),
    ]


@dataclass(frozen=True)
class Override:
    """A mutation: in map ``W_1`` or ``W_2``, the coefficient of monomial ``ins`` in output ``out`` := ``value``.

    Coordinates are ``(block, index)`` of the map's output and input layouts; ``ins`` is ``()`` for the
    bias, one coordinate for a linear weight, two for a quadratic one.
    """

    map: str
    out: tuple[str, int]
    ins: tuple[tuple[str, int], ...]
    value: Any

    @property
    def label(self) -> str:
        """One line for reports."""
        mono = " * ".join(f"{b}[{i}]" for b, i in self.ins) or "1 (bias)"
        return f"{self.map}: coefficient of {mono} in {self.out[0]}[{self.out[1]}] set to {self.value}"


@dataclass(frozen=True)
class Relaxation:
    """An alternative domain to try: drop some hypotheses (by name), add others."""

    name: str
    drop: tuple[str, ...] = ()
    add: tuple[Hyp, ...] = ()
    gates: tuple[Gate, ...] | None = None


@dataclass
class Lemma:
    """A ReLU feed-forward lemma (or a gating identity) with its domain and target.

    Attributes:
        id: the claim id (``lem:mMc``).
        inputs: layout of the input vector ``x`` (the paper's blocks).
        w2: the output map; reads ``w1.dst`` (or ``inputs`` when ``w1`` is ``None``).
        target: ``{output block: row(x, i, K)}`` for the blocks the lemma states.
        w1: the first map (``None`` for a single-map identity).
        relu: ReLU between ``w1`` and ``w2``.
        ints: input blocks of integer sort (the others are real).
        gates: finite scalar domains, enumerated.
        hyps: named hypotheses.
        dims: size symbols and their least value (the dimension sweep starts there).
        has_lam: whether ``λ`` (``symcot.ir.lam``) appears in the maps or the domain.
        lam_value: a fixed ``λ`` (``None``: ``λ`` is a universally quantified real).
        decoupled: the domain's bound ``K.bound`` is its own variable, not ``λ``.
        bound_value: fixed value of that bound (``None``: quantified); ``bound_int``: integer bound.
        overrides: coefficient mutations (mutation tests); they disable the all-dimension encoding.
        symbolic: try the all-dimension proof (index-function encoding) after the sweep.
        relaxations: weaker domains to try (reported in the details).
        timeout_ms: the limit of every solver query, in Z3's resource units (``solver.RLIMIT_PER_MS`` a
            millisecond), so that a verdict does not depend on the machine's load.
        notes: shown with the verdict.
        induction: an output block whose row sums over a block of symbolic size, with its target as a fold
            and an invariant (:mod:`symcot.lemmas.induction`): proved for all sizes by induction on the sum
            (the block's target must be the fold's ``row``).

    """

    id: str
    inputs: Layout
    w2: Map
    target: dict[str, Row]
    w1: Map | None = None
    relu: bool = True
    ints: frozenset[str] = frozenset()
    gates: tuple[Gate, ...] = ()
    hyps: tuple[Hyp, ...] = ()
    dims: dict[sp.Symbol, int] = field(default_factory=dict)
    has_lam: bool = False
    lam_value: Any = None
    decoupled: bool = False
    bound_value: Any = None
    bound_int: bool = False
    overrides: tuple[Override, ...] = ()
    symbolic: bool = True
    relaxations: tuple[Relaxation, ...] = ()
    timeout_ms: int = 10_000
    notes: tuple[str, ...] = ()
    induction: Induction | None = None

    def __post_init__(self) -> None:
        self.ints = frozenset(self.ints)
        self.gates, self.hyps = tuple(self.gates), tuple(self.hyps)
        self.overrides, self.relaxations = tuple(self.overrides), tuple(self.relaxations)
        src = self.w1.dst if self.w1 is not None else self.inputs
        if self.w2.src.names != src.names:
            raise LemmaError(f"{self.id}: W_2 reads {self.w2.src.name!r}, expected {src.name!r}")
        if self.w1 is not None and self.w1.src.names != self.inputs.names:
            raise LemmaError(f"{self.id}: W_1 reads {self.w1.src.name!r}, expected {self.inputs.name!r}")
        for what, lay, b in ([("target", self.w2.dst, b) for b in self.target]
                             + [(f"gate {g.label}", self.inputs, g.block) for g in self.gates]
                             + [(f"hypothesis {h.name!r}", self.inputs, h.block) for h in self.hyps if h.block]):
            if b not in lay:
                raise LemmaError(f"{self.id}: {what} names block {b!r}, but {lay.name!r} has no block {b!r} "
                                 f"(blocks: {', '.join(lay.names)})")
        for g in self.gates:
            if not sp.sympify(self.inputs.size(g.block)) == 1:
                raise LemmaError(f"{self.id}: gate block {g.block!r} is not a scalar")
        if self.induction is not None and self.target.get(self.induction.block) != self.induction.fold.row:
            raise LemmaError(f"{self.id}: the target of block {self.induction.block!r} is not its induction's fold")
        names = [h.name for h in self.hyps]
        if len(set(names)) != len(names):
            raise LemmaError(f"{self.id}: hypothesis names repeat: {names}")

    def replace(self, **changes: Any) -> Lemma:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def mutate(self, *overrides: Override) -> Lemma:
        """A copy with coefficients changed (the all-dimension encoding is switched off)."""
        return self.replace(overrides=self.overrides + tuple(overrides), symbolic=False)

    def relaxed(self, r: Relaxation) -> Lemma:
        """The lemma over the domain of relaxation ``r``."""
        known = {h.name for h in self.hyps}
        missing = [d for d in r.drop if d not in known]
        if missing:
            raise LemmaError(f"{self.id}: relaxation {r.name!r} drops unknown hypotheses {missing}")
        hyps = tuple(h for h in self.hyps if h.name not in r.drop) + tuple(r.add)
        return self.replace(hyps=hyps, gates=self.gates if r.gates is None else r.gates, relaxations=())

    @property
    def int_blocks(self) -> frozenset[str]:
        """Input blocks of integer sort: ``ints`` and the blocks of ``int`` hypotheses."""
        return self.ints | {h.block for h in self.hyps if h.kind == "int" and h.block is not None}

    @property
    def hidden(self) -> Layout:
        """The layout ``W_2`` reads."""
        return self.w1.dst if self.w1 is not None else self.inputs


class ConcreteX:
    """Input accessor at concrete sizes: ``x.h(j)`` (0 outside the block), ``x.vec("h")``, ``x.size("h")``."""

    def __init__(self, values: Mapping[str, Sequence[Any]]):
        self._values = {k: list(v) for k, v in values.items()}

    def size(self, block: str) -> int:
        """Concrete size of ``block``."""
        return len(self._values[block])

    def vec(self, block: str) -> list[Any]:
        """All coordinates of ``block``."""
        return list(self._values[block])

    def get(self, block: str, j: Any = 0) -> Any:
        """Coordinate ``j`` of ``block`` (zero-padded; ``j`` may be a Z3 integer term)."""
        vals = self._values[block]
        if is_z3(j):
            from symcot.lemmas.kit import Z3Kit

            out: Any = 0
            for k in range(len(vals) - 1, -1, -1):
                out = Z3Kit.ite(j == k, vals[k], out)
            return out
        j = int(j)
        return vals[j] if 0 <= j < len(vals) else 0

    def __getattr__(self, block: str) -> Callable[..., Any]:
        if block.startswith("_"):
            raise AttributeError(block)
        if block not in self._values:
            raise AttributeError(f"no input block {block!r}")
        return lambda j=0: self.get(block, j)

    def __getitem__(self, block: str) -> Callable[..., Any]:
        return getattr(self, block)


def needs_all(block: str) -> NonLocal:
    """The error for a statement that needs every coordinate of a block of symbolic size."""
    return NonLocal(f"reads every coordinate of block {block!r}")
