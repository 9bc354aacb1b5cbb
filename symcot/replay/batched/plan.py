"""The plan of one batched run: every map of a decoder compiled for one path, with the scales that join them.

A path is a number type (``float32``, ``float64``, ``int64`` over the integer-scaled decoder of
:mod:`symcot.replay.scaling`, or ``object`` over the exact coefficients). Each head's value map is
restricted to the coordinates ``W_O`` reads; heads whose restricted value maps are equal share one value
cache (``v_sig``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from symcot.ir.maps import ConcreteMap
from symcot.model.decoder import ConcreteDecoder
from symcot.replay.batched.compiled_map import CompiledMap, compile_map, map_reads
from symcot.replay.scaling import DTYPES, IntMap, ScaledDecoder


@dataclass
class HeadPlan:
    """One head: its compiled ``Q``, ``K`` and restricted ``V``, and the scales of its keys, queries, values."""

    name: str
    query: CompiledMap
    key: CompiledMap
    value: CompiledMap  # restricted to the value coordinates W_O reads
    v_up: int
    s_k: int  # scale of the keys
    s_q: int
    s_v: int  # scale of the values
    v_sig: Any = None  # heads whose restricted value maps are equal share one value cache


@dataclass
class LayerPlan:
    """One layer: its heads (``None``: trivial attention), ``W_O``, the residual's up-scalings, ``W_1``, ``W_2``."""

    heads: list[HeadPlan] | None
    out: CompiledMap | None  # W_O, on the concatenation of the restricted values
    alpha_up: int
    z_up: int
    w1: CompiledMap
    w2: CompiledMap
    s_in: int


@dataclass
class Plan:
    """Every layer of a decoder for one path, and the feedback ``y·fb_num/fb_den``, token and output scales."""

    path: str
    dtype: Any
    layers: list[LayerPlan]
    fb_num: int
    fb_den: int
    s_token: int
    s_out: int


def make_plan(dec: ConcreteDecoder, sd: ScaledDecoder, path: str) -> Plan:
    """Compile every map for one path: exact coefficients for ``object``, scaled integers otherwise."""
    dt = DTYPES[path]
    exact = path == "object"
    layers: list[LayerPlan] = []
    for lay, sl in zip(dec.layers, sd.layers):
        w1 = compile_map(lay.ffn.w1 if exact else sl.w1, dt)
        w2 = compile_map(lay.ffn.w2 if exact else sl.w2, dt)
        if lay.attention is None:
            layers.append(LayerPlan(None, None, 1, 1, w1, w2, 1 if exact else sl.s_in))
            continue
        assert sl.heads is not None and sl.w_o is not None
        wo_map: IntMap | ConcreteMap = lay.attention.out if exact else sl.w_o
        reads = map_reads(wo_map)
        renumber = {u: k for k, u in enumerate(reads)}
        heads: list[HeadPlan] = []
        off = 0
        for h, sh in zip(lay.attention.heads, sl.heads):
            qm, km, vm = (h.query, h.key, h.value) if exact else (sh.q, sh.k, sh.v)
            used = [u - off for u in reads if off <= u < off + vm.d_out]
            off += vm.d_out
            pos = set(used)
            sig = (tuple(used), tuple(sorted(t for t in vm.const if t[0] in pos)),
                   tuple(sorted(t for t in vm.lin if t[0] in pos)), tuple(sorted(t for t in vm.quad if t[0] in pos)))
            heads.append(HeadPlan(h.name, compile_map(qm, dt), compile_map(km, dt), compile_map(vm, dt, outputs=used),
                                   1 if exact else sh.v_up, 1 if exact else sh.k.s_out, 1 if exact else sh.q.s_out,
                                   1 if exact else sh.v.s_out, sig))
        w_o = compile_map(wo_map, dt, inputs=renumber)
        layers.append(LayerPlan(heads, w_o, 1 if exact else sl.alpha_up, 1 if exact else sl.z_up, w1, w2,
                                 1 if exact else sl.s_in))
    if exact:
        return Plan(path, dt, layers, 1, 1, 1, 1)
    return Plan(path, dt, layers, sd.fb_num, sd.fb_den, sd.s_token, sd.s_out)
