"""Sizes are sizes: every block size and index bound of the proof is a non-negative integer wherever it is assumed.

The step obligations quantify over a block's index range ``0 ≤ i < size``. A size that can be negative or a
fraction at some ``n`` the hypotheses allow (a block of ``6 − n``, of ``n/2``) makes that range empty or not a
range: every obligation about the block then holds vacuously there, although no decoder of that size exists
(its layout cannot be built). So before the base phase, one obligation per size, under the statement's
hypotheses (the vocabulary's facts, the λ hypothesis, a least size where one is assumed):

* every block of every layout the decoder's maps read or write (the model's, each head's query/key and value
  spaces, ``W_O``'s input, each FFN's hidden layer): its size, a SymPy expression in the size symbols read
  through the statement's sizes (the terms the engine reads), is ``≥ 0`` and an integer;
* every index bound the statement states: each prompt segment's count, ``y_0``'s, and the step count ``T``.

An obligation Z3 refutes (``failed`` with its model, say ``n = 7``) leaves the row not proved, naming the block and
its size; one left undecided (``unknown``, under :data:`SIZE_LIMIT_S`) makes the row ``proved assuming`` it. Only a
size the prover cannot state at all (a SymPy construct :func:`~symcot.lemmas.kit.sympy_to_z3` does not translate)
is ``unsupported``, which also leaves it not proved.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sympy as sp
import z3

from symcot.ir.layout import Layout
from symcot.lemmas.kit import Unsupported, sympy_to_z3
from symcot.model.decoder import Decoder
from symcot.prove.alln.context import Context
from symcot.prove.alln.engine import Engine
from symcot.prove.alln.ops import as_arith, reading

PHASE = "size"
#: Z3's limit (nominal seconds) for a size obligation under every hypothesis: one left undecided makes the row
#: ``proved assuming`` that size (a refuted one leaves it not proved).
SIZE_LIMIT_S = 10.0


def layouts(dec: Decoder) -> Iterator[Layout]:
    """Every layout of ``dec``: the model's, then each map's source and target, each once (by name and blocks)."""
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    maps = [mp for k in range(1, len(dec.layers) + 1) for _, mp in dec.maps_of(k)]
    for lay in [dec.layout, *(x for mp in maps for x in (mp.src, mp.dst))]:
        key = (lay.name, tuple((b.name, sp.srepr(b.size)) for b in lay.blocks))
        if key not in seen:
            seen.add(key)
            yield lay


def is_size(term: Any) -> Any:
    """``term ≥ 0`` and ``term`` an integer (a Z3 formula; an integer term is an integer by its sort)."""
    term = as_arith(term)
    if not z3.is_expr(term):
        term = z3.RealVal(term)
    if z3.is_int(term):
        return term >= 0
    return z3.And(term >= 0, z3.IsInt(term))


def _bounds(eng: Engine) -> Iterator[tuple[str, str, Any]]:
    """``(where, statement, term)`` of each index bound the statement states."""
    stmt = eng.stmt
    for seg in (*stmt.segments, stmt.y0):
        with reading(f"the count of segment {seg.cls}"):
            term = as_arith(seg.count(eng.c))
        yield f"segment {seg.cls}", f"its count {term}", term
    yield "the step count", f"T = {eng.steps()}", eng.steps()


def _check(eng: Engine, ctx: Context, goal: Any, where: str, statement: str) -> None:
    """One size obligation: from the theorem's unquantified hypotheses on the input first, else from every one.

    A size is a function of the input's sizes, which the unquantified ``domain`` facts constrain (``n ≥ 1``); the
    quantified facts slow a solver down on what they do not bear on. Fewer hypotheses only make the proof
    stronger; where they do not suffice, the obligation is asked under all of them.
    """
    names = {f.name for f in eng.stmt.vocabulary.facts}
    domain = {f.name for f in eng.stmt.vocabulary.facts if f.kind == "domain" and not f.vars}
    few = [(n, h) for n, h in ctx.facts if n in domain or n not in names]
    status, _, _, _ = ctx.query(goal, facts=few, timeout_s=min(5.0, ctx.timeout_s))
    ctx.check(goal, PHASE, where, statement, facts=few if status == "proved" else None,
              timeout_s=None if status == "proved" else min(SIZE_LIMIT_S, ctx.timeout_s))


def prove_sizes(eng: Engine, ctx: Context) -> None:
    """The size obligations of ``eng``'s decoder and statement (module docstring), logged in ``ctx``."""
    sizes = eng.sizes
    done: set[str] = set()
    for lay in layouts(eng.dec):
        for b in lay.blocks:
            where = f"block {lay.name}.{b.name}"
            statement = f"its size {b.size} is a non-negative integer"
            if b.size.is_Integer and int(b.size) >= 0:
                continue  # a numeral: nothing to prove
            key = sp.srepr(b.size)
            if key in done:
                continue
            try:
                term = sympy_to_z3(b.size, sizes)
            except Unsupported as e:
                ctx.unsupported(PHASE, where, statement, f"the size {b.size} cannot be read: {e}")
                continue
            done.add(key)
            _check(eng, ctx, is_size(term), where, statement)
    for where, statement, term in _bounds(eng):
        _check(eng, ctx, is_size(term), where, f"{statement} is a non-negative integer")


__all__ = ["PHASE", "is_size", "layouts", "prove_sizes"]
