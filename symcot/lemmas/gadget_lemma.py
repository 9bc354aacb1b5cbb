"""A gadget of :mod:`symcot.gadgets` as the maps of a :class:`~symcot.lemmas.Lemma`.

:func:`gadget_maps` gives ``W_1`` and ``W_2`` of a gadget applied to a lemma's own input layout (the lemma
as stated). :func:`use_layout` and :func:`use_lemma` give the lemma where a decoder uses the gadget: the
input layout has one block per gadget input, of the size the decoder's expression has there, and the
maps are the same gadget function with the decoder's parameters (``λ = V_max = n``, the first pulse, …).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from symcot.gadgets.base import Gadget, is_zero
from symcot.ir.layout import Layout
from symcot.ir.maps import Map
from symcot.ir.symbols import lam
from symcot.lemmas.lemma import Gate, Hyp, Lemma, Row


def gadget_maps(g: Gadget, inputs: Layout, name: str, outputs: Sequence[str] | None = None) -> tuple[Map | None, Map]:
    """``(W_1, W_2)`` of ``g`` (already applied to ``inputs``' blocks): hidden ``{name}.hidden``, output ``{name}.out``.

    The output layout has one block per output role in ``outputs`` (default: every output the gadget
    uses), a zero output as a zeroed block. A gadget of stage ``hidden`` has no ``W_1``: its ``W_2`` reads
    ``inputs`` (the lemma is then stated without a ReLU).
    """
    if g.stage == "pre":
        hid = Layout(f"{name}.hidden", g.units())
        w1: Map | None = Map("W_1", inputs, hid, g.w1(), max_degree=2, doc=f"{g.label}: W_1 v + b_1")
        h: Any = hid.vars()
        src = hid
    else:
        w1, h, src = None, None, inputs
    outs = g.outputs(h)
    roles = list(outputs) if outputs is not None else g.used()
    out = Layout(f"{name}.out", [(r, outs[r].size) for r in roles])
    assign = {r: outs[r] for r in roles if not is_zero(outs[r])}
    zero = [r for r in roles if is_zero(outs[r])]
    w2 = Map("W_2", src, out, assign, zero=zero, max_degree=2, doc=f"{g.label}: W_2 h + b_2")
    return w1, w2


def use_layout(g: Gadget, name: str) -> Layout:
    """One block per input of ``g``, named by its role, of the size the caller's expression has."""
    return Layout(name, [(r, e.size) for r, e in g.inputs.items()])


def use_lemma(g: Gadget, claim_id: str, target: Mapping[str, Row], hyps: Sequence[Hyp] = (),
              gates: Sequence[Gate] = (), dims: dict[Any, int] | None = None, name: str = "",
              timeout_ms: int = 10_000) -> Lemma:
    """The lemma of ``g`` where it is used: ``g``'s function on a layout of its inputs, ``target`` on its used outputs.

    ``target`` is restricted to the outputs the caller uses (an output it drops is not part of the use). ``λ`` is a free
    real when the maps mention it.
    """
    lay = use_layout(g, name or f"{g.label}.in-use")
    v = lay.vars()
    local = g.on({r: v[r] for r in g.inputs})
    used = [r for r in local.used() if r in target]
    w1, w2 = gadget_maps(local, lay, name or f"{g.label}.in-use", outputs=used)
    has_lam = any(lam in sp.sympify(v).free_symbols for v in g.params.values() if isinstance(v, (int, sp.Basic)))
    return Lemma(claim_id, lay, w2, {r: target[r] for r in used}, w1=w1, relu=w1 is not None, gates=tuple(gates),
                 hyps=tuple(hyps), dims=dict(dims or {}), has_lam=has_lam, timeout_ms=timeout_ms)
