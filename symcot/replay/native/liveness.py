"""What the kernel must compute: each map's terms by output, and a backward liveness pass from the output ``y``.

Coordinates that nothing downstream reads (not the final output, nor a key, query or value the selection or
``W_O`` uses) are not computed at all. Only the key coordinates where both ``K`` and ``Q`` can be non-zero are
scored, and only the value coordinates ``W_O`` reads; a head none of whose value coordinates ``W_O`` reads
is skipped. None of this changes an exact result: the skipped values never reach the output.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from symcot.replay.scaling import IntMap, ScaledDecoder


@dataclass
class Terms:
    """The terms of one map grouped by output: constant, linear ``(i, c)`` and quadratic ``(i, j, c)``."""

    const: dict[int, int]
    lin: dict[int, list[tuple[int, int]]]
    quad: dict[int, list[tuple[int, int, int]]]


def map_terms(m: IntMap) -> Terms:
    """The terms of ``m`` grouped by output."""
    const: dict[int, int] = {}
    lin: dict[int, list[tuple[int, int]]] = {}
    quad: dict[int, list[tuple[int, int, int]]] = {}
    for o, c in m.const:
        const[o] = const.get(o, 0) + c
    for o, i, c in m.lin:
        lin.setdefault(o, []).append((i, c))
    for o, i, j, c in m.quad:
        quad.setdefault(o, []).append((i, j, c))
    return Terms(const, lin, quad)


def reads(m: IntMap, t: Terms, outputs: Iterable[int]) -> set[int]:
    """The input coordinates that the given outputs of ``m`` read."""
    if m.identity:
        return set(outputs)
    got: set[int] = set()
    for o in outputs:
        got.update(i for i, _ in t.lin.get(o, ()))
        for i, j, _ in t.quad.get(o, ()):
            got.update((i, j))
    return got


def nonzero(m: IntMap, t: Terms, o: int) -> bool:
    """Whether output ``o`` of ``m`` has any term (an output with none is the constant 0)."""
    return m.identity or bool(t.const.get(o, 0) or t.lin.get(o) or t.quad.get(o))


@dataclass
class HeadLive:
    """What one head must compute: candidate score dimensions and the value coordinates ``W_O`` reads."""

    index: int
    dims: list[int]  # key/query coordinates where both K and Q have terms
    vneed: list[int]  # value coordinates read by W_O (for the needed outputs)
    offset: int  # offset of this head's value in W_O's input (the concatenation)


@dataclass
class LayerLive:
    """The coordinates one layer must compute (a backward liveness pass from the full output)."""

    z_need: list[int]  # input coordinates read
    ffn_need: list[int]  # W_1 inputs (ffn_in) needed
    hid_need: list[int]  # W_1 outputs (hidden) needed
    out_need: list[int]  # W_2 outputs needed
    heads: list[HeadLive]


def liveness(sd: ScaledDecoder, terms: list[dict[str, Any]]) -> list[LayerLive]:
    """Per layer, the coordinates that reach the final output ``y`` (every coordinate of the last layer)."""
    need = set(range(sd.d))
    live: list[LayerLive] = []
    for k in range(len(sd.layers) - 1, -1, -1):
        lay, tk = sd.layers[k], terms[k]
        out_need = sorted(need)
        hid = reads(lay.w2, tk["w2"], out_need)
        ffn = reads(lay.w1, tk["w1"], hid)
        zneed = set(ffn)  # the residual z·z_up (or ffn_in = z without heads)
        heads: list[HeadLive] = []
        if lay.heads is not None:
            assert lay.w_o is not None
            vcat = reads(lay.w_o, tk["w_o"], ffn)
            off = 0
            for h, head in enumerate(lay.heads):
                vneed = sorted(c - off for c in vcat if off <= c < off + head.v.d_out)
                if vneed:
                    th = tk[f"h{h}"]
                    dims = [c for c in range(head.k.d_out)
                            if nonzero(head.k, th["k"], c) and nonzero(head.q, th["q"], c)]
                    zneed |= reads(head.v, th["v"], vneed)
                    zneed |= reads(head.k, th["k"], dims) | reads(head.q, th["q"], dims)
                    heads.append(HeadLive(h, dims, vneed, off))
                off += head.v.d_out
        live.append(LayerLive(sorted(zneed), sorted(ffn), sorted(hid), out_need, heads))
        need = zneed
    live.reverse()
    return live


def decoder_terms(sd: ScaledDecoder) -> list[dict[str, Any]]:
    """Per layer, the grouped terms of every map (``w1``, ``w2``, ``w_o`` and ``h<i>`` → ``q``/``k``/``v``)."""
    terms: list[dict[str, Any]] = []
    for lay in sd.layers:
        tk: dict[str, Any] = {"w1": map_terms(lay.w1), "w2": map_terms(lay.w2)}
        if lay.heads is not None:
            assert lay.w_o is not None
            tk["w_o"] = map_terms(lay.w_o)
            for h, head in enumerate(lay.heads):
                tk[f"h{h}"] = {"q": map_terms(head.q), "k": map_terms(head.k), "v": map_terms(head.v)}
        terms.append(tk)
    return terms
