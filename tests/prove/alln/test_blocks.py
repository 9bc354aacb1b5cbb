"""The symbolic block algebra reads the IR maps exactly as they compile: every map, every coordinate."""

import random

import pytest
import sympy as sp
import z3

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdfs_phi import DfsPhiConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.ir import lam, m, n
from symcot.ir.layout import ConcreteLayout
from symcot.lemmas.kit import z3_to_exact
from symcot.lemmas.walker import as_real
from symcot.prove.alln.blocks import MapEval, Rep, Unsupported, shape_of


def _concrete_summer(size, body, what):
    return sum((as_real(body(z3.IntVal(j))) for j in range(z3.simplify(size).as_long())), z3.RealVal(0))


def _flat(layout, block, idx, env):
    """The flat coordinate of ``idx`` in ``block``, or ``None`` when a component is outside the block's shape."""
    dims = [int(sp.sympify(d).subs(env)) for d in shape_of(layout.size(block))]
    vals = [z3.simplify(i).as_long() if not isinstance(i, int) else i for i in idx]
    assert len(vals) == len(dims), (block, idx)
    if not all(0 <= v < d for v, d in zip(vals, dims)):
        return None
    return vals[0] * dims[1] + vals[1] if len(dims) == 2 else vals[0]


def symbolic_outputs(mp, env, subs, x, overlay=None):
    """Every output coordinate of ``mp`` at input ``x`` through :class:`MapEval` (exact values).

    A coordinate outside a block reads an unknown (a fresh Z3 constant): it must be guarded away, or the
    output is not a number.
    """
    cin, cout = ConcreteLayout(mp.src, env), ConcreteLayout(mp.dst, env)
    sizes = {s: z3.IntVal(v) for s, v in env.items()}
    consts = {k: z3.RealVal(v) for k, v in subs.items()}
    ev = MapEval(sizes, consts, _concrete_summer, overlay)

    def fn(b):
        def read(idx):
            f = _flat(mp.src, b, idx, env)
            return z3.Real(f"outside!{b}") if f is None else z3.RealVal(x[cin.offsets[b] + f])

        return read

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


def test_a_coefficient_max_0_m_minus_8_compiles_and_is_read_at_every_size():
    from symcot.ir import Layout, Map, UnitVector
    from symcot.ir.expr import Const

    lay = Layout("A", [("A", m**2)])
    mp = Map("P", lay, lay, {"A": lay.vars().A + Const(UnitVector(m**2, 1), sp.Max(0, m - 8))})
    for size, extra in [(3, 0), (8, 0), (9, 1), (10, 2)]:
        env = {m: size}
        x = list(range(size**2))
        want = [v + (extra if i == 1 else 0) for i, v in enumerate(x)]
        assert mp.instantiate(env)(x) == want == symbolic_outputs(mp, env, {}, x)
