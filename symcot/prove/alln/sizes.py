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
#: Z3's limit (nominal seconds) for each try of a size obligation: one left undecided makes the row ``proved
#: assuming`` that size (a refuted one leaves it not proved).
SIZE_LIMIT_S = 5.0


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
    """One size obligation: from the unquantified ``domain`` facts, then every ``domain`` fact, then every hypothesis.

    A block's size is a function of the input's sizes, which the ``domain`` facts constrain (``n ≥ 1``); the facts
    about the runs are quantified over steps and only slow the solver down there (the step count ``T`` needs them).
    Fewer hypotheses make a proof stronger; a model found without all of them refutes nothing, so the last try,
    under every hypothesis, gives the logged answer. Each try has :data:`SIZE_LIMIT_S`.
    """
    names = {f.name for f in eng.stmt.vocabulary.facts}
    domain = [f for f in eng.stmt.vocabulary.facts if f.kind == "domain"]
    plain = {f.name for f in domain if not f.vars}
    every = {f.name for f in domain}
    limit = min(SIZE_LIMIT_S, ctx.timeout_s)
    for keep in (plain, every):
        few = [(n, h) for n, h in ctx.facts if n in keep or n not in names]
        if ctx.query(goal, facts=few, timeout_s=limit)[0] == "proved":
            ctx.check(goal, PHASE, where, statement, facts=few, timeout_s=limit)
            return
    ctx.check(goal, PHASE, where, statement, timeout_s=limit)


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
