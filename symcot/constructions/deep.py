r"""Deep mutants: decoders that are the base's on every input up to a size ``k`` and wrong after it.

A deep mutant (:class:`DeepMutant`) is a :class:`~symcot.constructions.derived.Derived` construction: the
base's prompt, ``enc``, stop rule and all-n statement, and a decoder whose IR differs in one place. Its
term *vanishes* at every size up to ``k`` and *acts* after it, so a check that looks only at sizes up to
``k`` (the all-n check's concrete phase, ``concrete_size``) cannot tell it from the base:

* ``shift`` -- ``out_b += Shift(N, N(k)) @ in_b`` in one map, ``N`` the block's size (``n``, ``2m − 2``,
  ``m²``): a shift by ``N(k)`` is zero while ``N ≤ N(k)``; on a two-index block (``m²``) it moves along the
  ``vec`` order;
* ``max-unit`` -- ``out_b += max(0, s − k)·e_0`` (``s`` the size symbol ``n`` or ``m``);
* ``max-block`` -- ``out_b += max(0, s − k)·in_b``;
* ``size-const`` -- the size symbol replaced by the constant ``k`` in every coefficient of the weights
  (never in a block size);
* ``lambda-const`` -- ``λ`` replaced by ``λ(k)``, the λ rule's value at size ``k``, in every coefficient
  of the weights (the prompt keeps the rule's λ);
* ``lambda-fixed`` -- ``λ = λ(k)`` on every input (weights and prompt), as :meth:`Construction.with_lambda`.

The first three compile to the base's maps at every size ``≤ k`` (:func:`same_weights`). The substitutions
change the weights at every size; they are right up to ``k`` only where the constant does no harm there (a
λ above the least working one). Which mutants exact replay refutes beyond ``k``, and what the all-n check
says of them, is :mod:`symcot.study.deep_mutants`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import sympy as sp

from symcot.constructions.base import Construction
from symcot.constructions.derived import Derived
from symcot.constructions.mutant import replace_map, with_block
from symcot.errors import DimensionError, SymcotError
from symcot.ir.coeffs import coefficients, with_coefficient
from symcot.ir.expr import BlockRef, Const, Expr, MatApply, Scale, Sum
from symcot.ir.maps import Map
from symcot.ir.matrices import Shift, UnitVector
from symcot.ir.symbols import lam, same_size
from symcot.model.decoder import Decoder

#: The kinds, in the order a selection takes them.
KINDS = ("shift", "max-unit", "max-block", "size-const", "lambda-const", "lambda-fixed")
#: Kinds whose term is zero at every size ≤ k (the compiled maps are the base's there).
VANISHING = ("shift", "max-unit", "max-block")


# -- the mutants ---------------------------------------------------------------------------------------------


class DeepMutant(Derived):
    """``base`` with one term that vanishes up to size ``k`` (or a constant in place of a symbol).

    Attributes:
        kind: one of :data:`KINDS`.
        k: the last size at which the mutant is meant to be the base.
        layer, map, block: where the term is added (``None`` for the substitutions, which touch every map).
        source: the input block the term reads (``shift``, ``max-block``).
        two_index: the output block has two indices (size ``m²``).
        scalar: the output block has one coordinate at every size.
        inert: why the term cannot reach the output (a block the next map does not read), else ``None``.
        term: the added term or the substitution, in plain text.

    """

    def __init__(self, base: Construction, kind: str, k: int, decoder: Decoder, term: str, *,
                 layer: int | None = None, map: str | None = None, block: str | None = None,  # noqa: A002
                 source: str | None = None, two_index: bool = False, scalar: bool = False, inert: str | None = None,
                 lam_fixed: Any = None):
        self.kind, self.k, self.layer, self.map, self.block = kind, k, layer, map, block
        self.source, self.two_index, self.scalar, self.term = source, two_index, scalar, term
        self.inert = inert
        super().__init__(base, f"{base.variant}~{self.id}", decoder, [f"deep mutant: {self.text()}"])
        if lam_fixed is not None:
            self.lam_fixed = lam_fixed

    @property
    def id(self) -> str:
        """``shift:2/W_2/par<-par@5``: unique among the deep mutants of one construction at one ``k``."""
        if self.layer is None:
            return f"{self.kind}@{self.k}"
        src = f"<-{self.source}" if self.source else ""
        return f"{self.kind}:{self.layer}/{self.map}/{self.block}{src}@{self.k}"

    @property
    def where(self) -> str:
        """``layer 2 W_2 → par`` (or ``every coefficient``)."""
        if self.layer is None:
            return "weights and prompt" if self.kind == "lambda-fixed" else "every coefficient of the weights"
        return f"layer {self.layer} {self.map} → {self.block}"

    def text(self) -> str:
        """One line: where and what."""
        return f"{self.where}: {self.term}"


def size_symbol(decoder: Decoder) -> sp.Symbol:
    """The decoder's size symbol (``n`` or ``m``): the one its layout's block sizes are written in."""
    syms = sorted({s for b in decoder.layout.blocks for s in sp.sympify(b.size).free_symbols}, key=str)
    if len(syms) != 1:
        raise SymcotError(f"{decoder.name}: deep mutants need one size symbol, the layout has {syms}")
    return syms[0]


def _two_index(size: Any) -> bool:
    s = sp.expand(sp.sympify(size))
    return isinstance(s, sp.Pow) and s.exp == 2


def _with_term(mp: Map, block: str, term: Expr) -> Map:
    """A copy of ``mp`` with ``term`` added to output ``block``."""
    held = mp.exprs.get(block)
    return with_block(mp, block, term if held is None else Sum([held, term]))


def _source(dec: Decoder, layer: int, label: str, mp: Map, block: str) -> str | None:
    """The input block a term on ``block`` reads: the same name, else ``<head>.<block>``, else one of its size.

    A block that is zero at every size (:func:`zero_source`) is taken only when no other has the size.
    """
    size = mp.dst.size(block)
    same = [b for b in mp.src.names if same_size(mp.src.size(b), size)]
    same = [b for b in same if zero_source(dec, layer, label, b) is None] or same
    for pick in ([b for b in same if b == block], [b for b in same if b.rpartition(".")[2] == block], same):
        if pick:
            return pick[0]
    return None


def _unit(size: Any, sym: sp.Symbol) -> Any:
    """``e_0`` of a block: a unit vector, or the embedding of one coordinate where the block may be empty."""
    if sp.sympify(size).subs(sym, 1) >= 1:
        return UnitVector(size, 0)
    return Shift(size, 0, cols=1)


def _placed(base: Construction, kind: str, k: int, layer: int, label: str, mp: Map, block: str, term: Expr,
            text: str, source: str | None = None) -> DeepMutant:
    """The mutant of ``kind`` that adds ``term`` to output ``block`` of map ``label`` of ``layer``."""
    dec = replace_map(base.decoder, layer, label, _with_term(mp, block, term))
    size = sp.sympify(mp.dst.size(block))
    return DeepMutant(base, kind, k, dec, text, layer=layer, map=label, block=block, source=source,
                      two_index=_two_index(size), scalar=not size.free_symbols,
                      inert=unread(base.decoder, layer, label, block)
                      or zero_source(base.decoder, layer, label, source))


def _reads(mp: Map) -> set[str]:
    return {name for e in mp.exprs.values() for _lay, name in e.blocks()}


def unread(dec: Decoder, layer: int, label: str, block: str) -> str | None:
    """Why output ``block`` of map ``label`` of ``layer`` reaches nothing, or ``None`` when it may.

    A block of a head's value that ``W_O`` does not read, or a hidden block of ``W_1`` that ``W_2`` does not
    read, reaches nothing at any size.
    """
    lay = dec.layers[layer - 1]
    if label.startswith("V_") and lay.attention is not None:
        head = label.removeprefix("V_")
        if f"{head}.{block}" not in _reads(lay.attention.out):
            return f"W_O of layer {layer} does not read {head}.{block}"
    if label == "W_1" and block not in _reads(lay.ffn.w2):
        return f"W_2 of layer {layer} does not read the hidden block {block}"
    return None


def _term_mutants(base: Construction, k: int, sym: sp.Symbol) -> Iterator[DeepMutant]:
    """The ``shift``, ``max-unit`` and ``max-block`` mutants of every output block of every map."""
    gate = sp.Max(0, sym - k)
    for layer in range(1, len(base.decoder.layers) + 1):
        for label, mp in base.decoder.maps_of(layer):
            for block in mp.dst.names:
                size = sp.sympify(mp.dst.size(block))
                src = _source(base.decoder, layer, label, mp, block)
                if size.free_symbols and src is not None:
                    amount = int(size.subs(sym, k))
                    yield _placed(base, "shift", k, layer, label, mp, block,
                                  MatApply(Shift(size, amount), BlockRef(mp.src, src)),
                                  f"+ Shift({size}, {amount}) π_{src} (zero while {sym} ≤ {k})", src)
                yield _placed(base, "max-unit", k, layer, label, mp, block, Const(_unit(size, sym), gate),
                              f"+ max(0, {sym} - {k})·e_0")
                if src is not None:
                    yield _placed(base, "max-block", k, layer, label, mp, block, Scale(gate, BlockRef(mp.src, src)),
                                  f"+ max(0, {sym} - {k})·π_{src}", src)


def substituted(dec: Decoder, old: sp.Symbol, new: Any) -> tuple[Decoder, int]:
    """``dec`` with ``old`` replaced by ``new`` in every coefficient (never in a block size), and how many changed."""
    changed = 0
    for layer in range(1, len(dec.layers) + 1):
        for label, held in dec.maps_of(layer):
            mp = held
            for block, expr0 in held.exprs.items():
                expr = expr0
                while True:  # one at a time: a replaced scale may move the addresses below it
                    hit = next((c for c in coefficients(expr) if old in c.value.free_symbols), None)
                    if hit is None:
                        break
                    expr = with_coefficient(expr, hit, hit.value.subs(old, new))
                    changed += 1
                if expr is not expr0:
                    mp = with_block(mp, block, expr)
            if mp is not held:
                dec = replace_map(dec, layer, label, mp)
    return dec, changed


def lambda_at(base: Construction, k: int) -> Any:
    """The λ rule's value at size ``k`` (every size symbol ``k``, largest weight 1)."""
    if base.lam_rule is None:
        raise SymcotError(f"{base.label} has no λ")
    syms = sorted({s for b in base.decoder.layout.blocks for s in sp.sympify(b.size).free_symbols}, key=str)
    return base.lam_rule.value({s: k for s in syms}, 1)


def _substitution_mutants(base: Construction, k: int, sym: sp.Symbol) -> Iterator[DeepMutant]:
    dec, changed = substituted(base.decoder, sym, k)
    if changed:
        yield DeepMutant(base, "size-const", k, dec, f"{sym} → {k} in {changed} coefficient(s)")
    if base.lam_rule is not None:
        v = lambda_at(base, k)
        dec, changed = substituted(base.decoder, lam, v)
        if changed:
            yield DeepMutant(base, "lambda-const", k, dec, f"λ → {v} = λ({sym} = {k}) in {changed} coefficient(s); "
                             "the prompt keeps the rule's λ")
        yield DeepMutant(base, "lambda-fixed", k, base.decoder, f"λ = {v} = λ({sym} = {k}) on every input", lam_fixed=v)


def deep_mutants(base: Construction, k: int, kinds: Iterable[str] | None = None) -> list[DeepMutant]:
    """Every deep mutant of ``base`` at ``k`` of the given kinds (default: all), in a fixed order."""
    want = set(KINDS if kinds is None else kinds)
    bad = want - set(KINDS)
    if bad:
        raise SymcotError(f"unknown deep-mutant kind(s) {sorted(bad)}; the kinds are {', '.join(KINDS)}")
    sym = size_symbol(base.decoder)
    out = [mu for mu in _term_mutants(base, k, sym) if mu.kind in want]
    return out + [mu for mu in _substitution_mutants(base, k, sym) if mu.kind in want]


def zero_source(dec: Decoder, layer: int, label: str, source: str | None) -> str | None:
    """Why the block ``source`` a term reads is zero at every size, or ``None``.

    A head's value block its value map zeroes (read by ``W_O``), a hidden block ``W_1`` zeroes (read by ``W_2``).
    """
    lay = dec.layers[layer - 1]
    if source is None:
        return None
    if label == "W_O" and lay.attention is not None:
        head, _, block = source.partition(".")
        for h in lay.attention.heads:
            if h.name == head and block in h.value.zeroed:
                return f"π_{source} is zero: V_{head} of layer {layer} zeroes {block}"
    if label == "W_2" and source in lay.ffn.w1.zeroed:
        return f"π_{source} is zero: W_1 of layer {layer} zeroes it"
    return None


def select(mutants: Sequence[DeepMutant], limit: int | None, seed: int = 0,
           prefer: Iterable[str] = ()) -> list[DeepMutant]:
    """At most ``limit`` mutants covering every kind (and one- and two-index blocks) before repeating one.

    Within a kind, inert mutants (:func:`unread`) come last, blocks in ``prefer`` (the encoding's) first and
    blocks of a head's value after the others, in a seeded shuffle otherwise; kinds (and, within a kind, one-
    and two-index blocks) take turns.
    """
    if limit is None or limit >= len(mutants):
        return list(mutants)
    rng = random.Random(seed)
    pref = set(prefer)
    queues: list[list[DeepMutant]] = []
    for kind in KINDS:
        for two in (True, False):
            q = [mu for mu in mutants if mu.kind == kind and mu.two_index == two]
            rng.shuffle(q)
            q.sort(key=lambda mu: (mu.inert is not None, mu.block not in pref, str(mu.map).startswith("V_")))
            if q:
                queues.append(q)
    out: list[DeepMutant] = []
    while len(out) < limit and any(queues):
        for q in queues:
            if q and len(out) < limit:
                out.append(q.pop(0))
    return out


# -- the same weights up to k ------------------------------------------------------------------------------------


def _env(cons: Construction, size: int) -> tuple[dict[sp.Symbol, int], dict[sp.Symbol, Any]]:
    syms = {s for b in cons.decoder.layout.blocks for s in sp.sympify(b.size).free_symbols}
    env = {s: size for s in syms}
    subs: dict[sp.Symbol, Any] = {}
    if cons.lam_fixed is not None:
        subs = {lam: cons.lam_fixed}
    elif cons.lam_rule is not None:
        subs = {lam: cons.lam_rule.value(env, 1)}
    return env, subs


def same_weights(a: Construction, b: Construction, size: int) -> bool:
    """Whether ``a`` and ``b`` compile to the same maps (and λ) at ``size`` (every size symbol ``size``).

    At a size where the layout has no decoder (a block of ``n/2 + 1`` at an odd ``n``) there is nothing to differ:
    true.
    """
    (env, sa), (_env_b, sb) = _env(a, size), _env(b, size)
    if sa != sb:
        return False
    try:
        da, db = a.decoder.instantiate(env, sa), b.decoder.instantiate(env, sb)
    except DimensionError:
        return True
    for layer in range(1, len(a.decoder.layers) + 1):
        for label, _mp in a.decoder.maps_of(layer):
            ma, mb = da.get_map(layer, label), db.get_map(layer, label)
            if (sorted(ma.const), sorted(ma.lin), sorted(ma.quad)) != (sorted(mb.const), sorted(mb.lin),
                                                                       sorted(mb.quad)):
                return False
    return True
