r"""Token representations layer by layer, for a symbolic step and a symbolic size.

A token is a class (a prompt segment such as ``x``, or ``y``) and a parameter (its index, or its step);
its position in the context is the segments' counts before it plus the parameter. :class:`Engine` gives
``rep(cls, p, k)``, the token's representation after layer ``k`` (``k = 0``: the token itself, from the
statement's encodings), by running the decoder's layers (:mod:`symcot.model.semantics`: heads, ``W_O``,
residual, ``W_2 ReLU(W_1 ·)``) on it, with each head's output taken from the token the statement says it
selects. That is the induction hypothesis: at every earlier step the choices were proved, so earlier
tokens' representations are these terms at their own step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
import z3

from symcot.constructions.alln import AllNStatement, Y
from symcot.constructions.encoding import StateEncoding, Term
from symcot.ir.layout import Layout
from symcot.lemmas.walker import as_real
from symcot.model.decoder import Decoder
from symcot.model.layer_loop import LayerMaps, push_layers
from symcot.prove.alln.blocks import Index, MapEval, Rep, Unsupported, relu, shape_of, z_index
from symcot.prove.alln.ops import Symbolic, as_arith, as_bool, reading
from symcot.prove.alln.sums import Summer

Local = list[tuple[str, Any]]


class Engine:
    """Representations of every token class at every layer (see the module docstring)."""

    def __init__(self, stmt: AllNStatement, decoder: Decoder, c: Symbolic, summer: Summer,
                 consts: dict[sp.Symbol, Any], t: Any, base: Local, overlay: Any = None):
        self.stmt, self.dec, self.c, self.summer = stmt, decoder, c, summer
        with reading("the statement's sizes"):
            self.sizes = {sym: as_arith(fn(c)) for sym, fn in stmt.sizes.items()}
        self.consts, self.overlay = consts, overlay
        self.ev = self.evaluator(list(base))
        self.layout: Layout = decoder.layout
        self.t = t
        self.base = list(base)
        self.views = stmt.all_views()
        self._memo: dict[tuple[str, str, int], Rep] = {}
        self._undef: dict[str, Any] = {}

    # -- positions and ranges ------------------------------------------------------------------------
    def count(self, cls: str) -> Any:
        """How many tokens the segment ``cls`` has."""
        with reading(f"the count of segment {cls}"):
            return as_arith(self.stmt.segment(cls).count(self.c))

    def steps(self) -> Any:
        """The statement's last step ``T``."""
        with reading("the statement's step count T"):
            return as_arith(self.stmt.steps(self.c))

    def offset(self, cls: str) -> Any:
        """Position of the first token of class ``cls``."""
        off: Any = z3.IntVal(0)
        for s in self.stmt.segments:
            if s.cls == cls:
                return off
            off = off + self.count(s.cls)
        return off

    def position(self, cls: str, p: Any) -> Any:
        """Position of token ``p`` of class ``cls`` in the context."""
        return self.offset(cls) + as_arith(p)

    def in_range(self, cls: str, p: Any, upto: Any) -> Any:
        """``p`` is a token of class ``cls`` in the context of step ``upto`` (``0 ≤ p ≤ upto`` for ``y``)."""
        p = as_arith(p)
        if cls == Y:
            return z3.And(p >= 0, p <= upto)
        return z3.And(p >= 0, p < self.count(cls))

    def block_range(self, name: str, idx: Index, layout: Layout | None = None) -> Any:
        """``0 ≤ idx < size`` for block ``name``."""
        shape = shape_of((layout or self.layout).size(name))
        return z3.And(*[z3.And(z_index(i) >= 0, z_index(i) < self.ev.size(s)) for i, s in zip(idx, shape)])

    # -- encodings -----------------------------------------------------------------------------------
    def encode(self, enc: StateEncoding, views: dict[str, Any], p: Any, full: bool, what: str) -> Rep:
        """A token from an encoding read at parameter ``p`` (blocks it does not list: 0, or an error if ``full``)."""
        fns: dict[str, Callable[[Index], Any]] = {}
        for b in self.layout.names:
            term = enc.blocks.get(b)
            if term is None:
                if full:
                    raise Unsupported(f"{what} does not say what block {b!r} holds")
                fns[b] = lambda idx: z3.RealVal(0)
                continue
            fns[b] = self._term_fn(term, views, p, b, what)
        return Rep(fns, what)

    def _term_fn(self, term: Term, views: dict[str, Any], p: Any, block: str, what: str) -> Callable[[Index], Any]:
        def view(f: str | None) -> Any:
            if f is None or f not in views:
                raise Unsupported(f"{what}: no view for the field {f!r}")
            with reading(f"view {f} ({what})"):
                return views[f](self.c, p)

        if term.kind == "const":
            val: Callable[[Index], Any] = lambda idx: as_real(_exact(term.value))  # noqa: E731
        elif term.kind == "onehot":
            v = as_arith(view(term.field))
            val = lambda idx: z3.If(z_index(idx[0]) == v, z3.RealVal(1), z3.RealVal(0))  # noqa: E731
        elif term.kind == "indicator":
            pred = view(term.field)
            val = lambda idx: z3.If(as_bool(pred(z_index(idx[0]))), z3.RealVal(1), z3.RealVal(0))  # noqa: E731
        elif term.kind == "scalar":
            v = as_real(as_arith(view(term.field)))
            val = lambda idx: as_real(_exact(term.scale)) * v + as_real(_exact(term.offset))  # noqa: E731
        elif term.kind == "vector":
            g = view(term.field)
            val = lambda idx: as_real(as_arith(g(z_index(idx[0]))))  # noqa: E731
        else:  # flat
            g2 = view(term.field)
            val = lambda idx: as_real(as_arith(g2(z_index(idx[0]), z_index(idx[1]))))  # noqa: E731
        conds = []
        if term.when is not None:
            conds.append(as_bool(view(term.when)))
        if term.from_step:
            conds.append(as_arith(p) >= term.from_step)
        if not conds:
            return val
        undef = self._undef.setdefault(block, z3.Function(f"undef!{block}", *([z3.IntSort()] * 3), z3.RealSort()))

        def guarded(idx: Index) -> Any:
            pad = [z_index(i) for i in idx] + [z3.IntVal(0)] * (2 - len(idx))
            return z3.If(z3.And(*conds), val(idx), undef(as_arith(p), *pad))

        return guarded

    def token(self, cls: str, p: Any) -> Rep:
        """The token itself (layer 0)."""
        if cls == Y:
            return self.encode(self.stmt.token, self.views, p, True, f"y_{p}")
        seg = self.stmt.segment(cls)
        return self.encode(seg.encoding, {**self.views, **seg.views}, p, False, f"{cls}_{p}")

    # -- layers --------------------------------------------------------------------------------------
    def evaluator(self, local: Local) -> MapEval:
        """Map evaluation whose sums are valued under the hypotheses ``local``."""
        return MapEval(self.sizes, self.consts, lambda size, body, what: self.summer.value(size, body, what, local),
                       self.overlay)

    def rep(self, cls: str, p: Any, k: int) -> Rep:
        """Token ``p`` of class ``cls`` after layer ``k``, cuts applied."""
        pz = as_arith(p)
        key = (cls, pz.sexpr(), k)
        hit = self._memo.get(key)
        if hit is None:
            local = [*self.base, (f"{cls} in the context", self.in_range(cls, pz, self.t))]
            if k == 0:
                hit = self.token(cls, pz)
            else:
                hit = self.layer(k, self.rep(cls, pz, k - 1), cls, pz, local)
                if cls == Y and k in self.stmt.cuts:
                    hit = hit.with_blocks(self.cut(k, pz))
            self._memo[key] = hit
        return hit

    def cut(self, k: int, p: Any) -> dict[str, Callable[[Index], Any]]:
        """The block values the statement gives after layer ``k`` at step ``p``."""
        enc = self.stmt.cuts[k]
        return {b: self._term_fn(term, self.views, p, b, f"cut after layer {k}") for b, term in enc.blocks.items()}

    def cases(self, k: int, head: str, cls: str, p: Any) -> Sequence[tuple[Any, str, Any]]:
        """The stated choices of ``head`` at layer ``k`` for token ``p`` of class ``cls`` (the one stated for ``cls``).

        A choice at a prompt token is proved by :func:`symcot.prove.alln.step.prove_input_head` (every token of
        the class at once); at a generated token by the step's head obligations.
        """
        ch = self.stmt.choice(k, head, cls)
        if ch is None:
            raise Unsupported(f"no stated choice for head {head} of layer {k} at a token of class {cls}")
        at = "" if cls == Y else f" at {cls}"
        with reading(f"the choice of head {head} at layer {k}{at}"):
            return ch.cases(self.c, p)

    def layer(self, k: int, z: Rep, cls: str, p: Any, local: Local) -> Rep:
        """Layer ``k`` on representation ``z`` of token ``(cls, p)``.

        The Section-3 loop (:func:`symcot.model.layer_loop.push_layers`), each head's output the values of the
        tokens the statement says it chooses.
        """
        lay = self.dec.layers[k - 1]
        maps = (LayerMaps(None, None, lay.ffn.w1, lay.ffn.w2) if lay.attention is None else
                LayerMaps(lay.attention.heads, lay.attention.out, lay.ffn.w1, lay.ffn.w2))
        return push_layers(_StatedLayer(self, self.evaluator(local), k, cls, p), [maps], z)

    def score(self, query: Rep, key: Rep, key_layout: Layout, local: Local, what: str) -> Any:
        """``⟨K z_i, Q z_last⟩`` block by block (sums over symbolic sizes by the sum lemmas)."""
        total: Any = z3.RealVal(0)
        for b in key_layout.names:
            shape = shape_of(key_layout.size(b))
            if len(shape) != 1:
                raise Unsupported(f"a key block of size {key_layout.size(b)} (two indices)")
            size = shape[0]
            if size.is_Integer:
                for j in range(int(size)):
                    total = total + key.read(b, (j,)) * query.read(b, (j,))
            else:
                total = total + self.summer.value(self.ev.size(size),
                                                  _dot_term(key, query, b),
                                                  f"{what}: ⟨K, Q⟩ on {b}", local)
        return total


def _exact(v: Any) -> Any:
    if isinstance(v, int):
        return v
    from fractions import Fraction

    if isinstance(v, Fraction):
        return z3.Q(v.numerator, v.denominator)
    e = sp.sympify(v)
    if e.is_Rational:
        return z3.Q(int(e.p), int(e.q))
    raise Unsupported(f"the constant {v} is not an exact rational")


class _StatedLayer:
    """The loop's algebra at symbolic size, for one layer ``k`` of token ``(cls, p)``.

    Vectors are lazy block representations (:class:`~symcot.prove.alln.blocks.Rep`); a head's argmax is the
    statement's choices (each proved to be the first argmax by its own obligations, which read the keys and
    scores themselves).
    """

    def __init__(self, engine: Any, ev: Any, k: int, cls: str, p: Any):
        self.engine, self.ev, self.k, self.cls, self.p = engine, ev, k, cls, p

    def apply(self, m: Any, x: Rep) -> Rep:
        last = m is self.engine.dec.layers[self.k - 1].ffn.w2  # the layer's output keeps the layer's name
        return self.ev.apply(m, x, f"layer {self.k}") if last else self.ev.apply(m, x)

    def append(self, k: int, h: int, head: Any, key: Rep, z: Rep) -> None:
        return None

    def scores(self, k: int, h: int, q: Rep) -> None:
        return None

    def first_argmax(self, k: int, h: int, head: Any, scores: None) -> Sequence[tuple[Any, str, Any]]:
        return self.engine.cases(self.k, head.name, self.cls, self.p)

    def value(self, k: int, h: int, head: Any, choice: Sequence[tuple[Any, str, Any]]) -> Rep:
        vreps = [(as_bool(cond), self.ev.apply(head.value, self.engine.rep(c2, p2, self.k - 1)))
                 for cond, c2, p2 in choice]
        return Rep({f"{head.name}.{b}": _by_cases(vreps, b) for b in head.value.dst.names}, f"head {head.name}")

    def concat(self, k: int, values: list[Rep]) -> Rep:
        return Rep({b: v.fn(b) for v in values for b in v.names}, f"heads of layer {self.k}")

    def add(self, k: int, attn: Rep, z: Rep) -> Rep:
        return Rep({b: _add(z, attn, b) for b in self.engine.layout.names}, f"β at layer {self.k}")

    def relu(self, k: int, v: Rep) -> Rep:
        return Rep({b: _relu_of(v, b) for b in v.names}, f"ReLU at layer {self.k}")

    def layer_done(self, k: int, choices: list[Any], attn: Any, ffn_in: Any, hidden: Any, out: Any) -> None:
        return None


def _by_cases(vreps: Sequence[tuple[Any, Rep]], b: str) -> Callable[[Index], Any]:
    def f(idx: Index) -> Any:
        out = vreps[-1][1].read(b, idx)
        for cond, r in reversed(vreps[:-1]):
            out = z3.If(cond, r.read(b, idx), out)
        return out

    return f


def _add(z: Rep, alpha: Rep, b: str) -> Callable[[Index], Any]:
    return lambda idx: z.read(b, idx) + alpha.read(b, idx)


def _relu_of(hidden: Rep, b: str) -> Callable[[Index], Any]:
    return lambda idx: relu(hidden.read(b, idx))


def _dot_term(key: Any, query: Any, b: str) -> Callable[[Any], Any]:
    """``j ↦ K_b[j]·Q_b[j]``, the terms of a block's contribution to a score."""
    return lambda j: key.read(b, (j,)) * query.read(b, (j,))
