"""The symbolic block algebra reads the IR maps exactly as they compile: every map, every coordinate."""

import random

import pytest
import sympy as sp
import z3

from symcot.check.alln.blocks import MapEval, Rep, Unsupported, shape_of
from symcot.check.alln.ops import as_real
from symcot.constructions.cotdfs import DfsConstruction
from symcot.constructions.cotdfs_phi import DfsPhiConstruction
from symcot.constructions.cotpathtotree import PathToTreeConstruction
from symcot.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.ir import lam, m, n
from symcot.ir.layout import ConcreteLayout
from symcot.lemmas.kit import z3_to_exact


def _concrete_summer(size, body, what):
    return sum((as_real(body(z3.IntVal(j))) for j in range(z3.simplify(size).as_long())), z3.RealVal(0))


def _flat(layout, block, idx, env):
    shape = shape_of(layout.size(block))
    vals = [z3.simplify(i).as_long() if not isinstance(i, int) else i for i in idx]
    if len(shape) == 2:
        return vals[0] * int(shape[1].subs(env)) + vals[1]
    return vals[0]


def symbolic_outputs(mp, env, subs, x, overlay=None):
    """Every output coordinate of ``mp`` at input ``x`` through :class:`MapEval` (exact values)."""
    cin, cout = ConcreteLayout(mp.src, env), ConcreteLayout(mp.dst, env)
    sizes = {s: z3.IntVal(v) for s, v in env.items()}
    consts = {k: z3.RealVal(v) for k, v in subs.items()}
    ev = MapEval(sizes, consts, _concrete_summer, overlay)

    def fn(b):
        return lambda idx: z3.RealVal(x[cin.offsets[b] + _flat(mp.src, b, idx, env)])

    out = ev.apply(mp, Rep({b: fn(b) for b in mp.src.names}))
    got = [0] * cout.dim
    for b in mp.dst.names:
        shape = shape_of(mp.dst.size(b))
        dims = [int(sp.sympify(s).subs(env)) for s in shape]
        if any(d == 0 for d in dims):
            continue
        for k in range(cout.sizes[b]):
            idx = divmod(k, dims[1]) if len(dims) == 2 else (k,)
            got[cout.offsets[b] + k] = z3_to_exact(z3.simplify(out.read(b, idx)))
    return got


CASES = [
    (DfsConstruction(), {n: 3}, {}),
    (DfsPhiConstruction(), {n: 3}, {}),
    (StrahlerTreeConstruction("repaired"), {n: 3}, {lam: 7}),
    (StrahlerTreeConstruction("as-written"), {n: 4}, {lam: 5}),
    (PathToTreeConstruction(), {m: 3}, {}),
]


@pytest.mark.parametrize("cons,env,subs", CASES, ids=lambda c: getattr(c, "label", None))
def test_every_map_agrees_with_its_compiled_form(cons, env, subs):
    rng = random.Random(5)
    dec = cons.decoder
    for k in range(1, len(dec.layers) + 1):
        for label, mp in dec.maps_of(k):
            cm = mp.instantiate(env, subs)
            for _ in range(3):
                x = [rng.randint(-2, 2) for _ in range(cm.d_in)]
                assert symbolic_outputs(mp, env, subs, x) == cm(x), (k, label)


def test_the_comparison_sees_a_changed_coefficient():
    mp = dict(DfsConstruction().decoder.maps_of(2))["W_2"]
    env = {n: 3}
    cm = mp.instantiate(env)
    broken = cm.with_coefficient(cm.dst.slice("par").start, (cm.src.slice("par").start,), 5)
    x = [1] * cm.d_in
    assert symbolic_outputs(mp, env, {}, x) == cm(x) != broken(x)


def test_shapes_of_blocks():
    assert shape_of(n) == (n,) and shape_of(1) == (1,) and shape_of(m**2) == (m, m)
    assert shape_of(2 * m - 2) == (2 * m - 2,)
    with pytest.raises(Unsupported):
        shape_of(n**3 + 1)
