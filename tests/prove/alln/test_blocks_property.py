"""The block algebra reads random structured matrices exactly, on blocks of every index shape, as they compile.

Random maps over blocks of size ``1``, ``3``, ``n``, ``m``, ``m + 1``, ``m²`` (index ``(a, b)``) and ``n·m``
(SymPy orders its factors ``(m, n)``) apply every class of :mod:`symcot.ir.matrices` but ``IndexMatrix``, with
their sums, products, scalings and transposes, to blocks, outer products, Hadamard products and gates; every
output coordinate that :class:`~symcot.prove.alln.blocks.MapEval` states must equal the compiled map's at
random sizes and inputs.
"""

import random

import pytest
import sympy as sp
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcot.errors import DimensionError
from symcot.ir import Layout, Map, lam, m, n
from symcot.ir.expr import Const, MatApply, Scale, dot, gate, hadamard, outer
from symcot.ir.matrices import (
    Commutation,
    Explicit,
    Identity,
    IndexMatrix,
    MatProduct,
    MatSum,
    Ones,
    Ramp,
    Scaled,
    Shift,
    Transposed,
    UnitVector,
    Zero,
)
from symcot.ir.symbols import H, same_size
from symcot.prove.alln.blocks import MapEval, Rep, Unsupported, shape_of
from tests.prove.alln.test_blocks import symbolic_outputs

SIZES = {"one": sp.Integer(1), "three": sp.Integer(3), "n": n, "m": m, "mp": m + 1, "mm": m**2, "nm": n * m}
LAYOUT = Layout("prop", list(SIZES.items()))
OUT = Layout("prop.out", list(SIZES.items()))
SUBS = {lam: 3}
COEFFS = [sp.Integer(-1), sp.Integer(2), sp.Rational(1, 2), lam, sp.Max(0, m - 2), sp.Min(n, 2),
          sp.Piecewise((1, m < 3), (m, True))]


class Gen:
    """Draws matrices and block expressions of given symbolic shapes at the drawn sizes ``env``."""

    def __init__(self, data, env):
        self.data, self.env = data, env
        self.x = LAYOUT.vars()

    def draw(self, strategy):
        return self.data.draw(strategy)

    def val(self, size):
        return int(sp.sympify(size).subs(self.env))

    def mat(self, r, c, depth, tr=False):
        """A matrix ``r × c``; ``tr``: it is read transposed (its rows are then its columns)."""
        reads = r if tr else c  # how many coordinates one row it is read by has
        kinds = ["I"] * same_size(r, c) + ["0", "S", "S", "T", "T"]
        kinds += ["J"] * sp.sympify(reads).is_Integer
        kinds += ["e", "e"] * same_size(c, 1) + ["ramp"] * (same_size(c, 1) and (not tr or sp.sympify(r).is_Integer))
        kinds += ["K"] * any(same_size(r, k**2) and same_size(c, k**2) for k in (m, 1, 2))
        kinds += ["X"] * (sp.sympify(r).is_Integer and sp.sympify(c).is_Integer)
        if depth > 0:
            kinds += ["c", "+", "@", "@"]
        kind = self.draw(st.sampled_from(kinds))
        if kind == "T":
            return Transposed(self.mat(c, r, depth - 1, not tr))
        if kind == "c":
            return Scaled(self.draw(st.sampled_from(COEFFS)), self.mat(r, c, depth - 1, tr))
        if kind == "+":
            return MatSum(self.mat(r, c, depth - 1, tr), self.mat(r, c, depth - 1, tr))
        if kind == "@":
            k = self.draw(st.sampled_from(sorted(SIZES.values(), key=str)))
            return MatProduct(self.mat(r, k, depth - 1, tr), self.mat(k, c, depth - 1, tr))
        return self.leaf(kind, r, c)

    def leaf(self, kind, r, c):
        """A matrix of one class of :mod:`symcot.ir.matrices`."""
        if kind == "I":
            return Identity(r)
        if kind == "0":
            return Zero(r, c)
        if kind == "J":
            return Ones(r, c)
        if kind == "S":
            k = self.draw(st.integers(-3, 3))
            return Shift(r, k) if same_size(r, c) else Shift(r, k, cols=c)
        if kind == "e":
            return UnitVector(r, self.unit_index(r))
        if kind == "ramp":
            return Ramp(r, self.draw(st.sampled_from([0, 1, -2, lam])), self.draw(st.sampled_from([1, -1, 3])), "r")
        if kind == "K":
            return Commutation(next(k for k in (m, 1, 2) if same_size(r, k**2)))
        vals = self.draw(st.lists(st.lists(st.integers(-2, 2), min_size=int(c), max_size=int(c)),
                                  min_size=int(r), max_size=int(r)))
        return Explicit(sp.Matrix(vals))

    def unit_index(self, r):
        """A position of ``e_i`` in dimension ``r`` that exists at the drawn sizes (constant or symbolic)."""
        rv = self.val(r)
        choices = [sp.sympify(r) - 1, *range(min(rv, 6))]
        choices += [s for s in (m, n, m + 1) if not same_size(s, r) and self.val(s) < rv]
        return self.draw(st.sampled_from(choices))

    def block(self, size):
        """An input block of this size."""
        return self.x[self.draw(st.sampled_from([b for b, s in SIZES.items() if same_size(s, size)]))]

    def linear(self, size, depth):
        """A degree-one term of this size: a block, a matrix applied to a term, a sum over a block."""
        kind = self.draw(st.sampled_from(["block", "apply", "apply", "sum", "const"] if depth > 0 else ["block"]))
        if kind == "block":
            return self.block(size)
        if kind == "const":
            return Const(self.mat(size, 1, 1), self.draw(st.sampled_from([1, *COEFFS])))
        if kind == "sum":  # a row of J (or Jᵀ) over a block of symbolic size
            over = self.draw(st.sampled_from([n, m, m + 1]))
            ones = self.draw(st.sampled_from([Ones(size, over), Transposed(Ones(over, size))]))
            return MatApply(ones, self.block(over))
        src = self.draw(st.sampled_from(sorted(SIZES.values(), key=str)))
        return MatApply(self.mat(size, src, 2), self.linear(src, depth - 1))

    def term(self, size):
        """A term of degree at most two of this size."""
        kinds = ["linear", "linear", "hadamard", "gate", "scale"]
        pairs = [(a, b) for a in SIZES for b in SIZES if same_size(SIZES[a] * SIZES[b], size)]
        kinds += ["outer", "outer"] * bool(pairs) + ["dot"] * same_size(size, 1)
        kind = self.draw(st.sampled_from(kinds))
        if kind == "linear":
            return self.linear(size, 2)
        if kind == "hadamard":
            return hadamard(self.block(size), self.linear(size, 1))
        if kind == "gate":
            return gate(self.x.one, self.linear(size, 1))
        if kind == "scale":
            return Scale(self.draw(st.sampled_from(COEFFS)), self.linear(size, 1))
        if kind == "dot":
            s = self.draw(st.sampled_from([n, m]))
            return dot(self.block(s), self.linear(s, 1))
        a, b = self.draw(st.sampled_from(pairs))
        e = outer(self.x[a], self.x[b])
        return MatApply(self.mat(size, size, 1), e) if self.draw(st.booleans()) else e


def _random_map(data):
    env = {n: data.draw(st.integers(1, 5), label="n"), m: data.draw(st.integers(1, 5), label="m")}
    g = Gen(data, env)
    assign = {}
    for b, size in SIZES.items():
        terms = [g.term(size) for _ in range(data.draw(st.integers(1, 2)))]
        assign[b] = terms[0] if len(terms) == 1 else terms[0] + terms[1]
    return Map("P", LAYOUT, OUT, assign), env


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_structured_maps_agree_with_their_compiled_form(data):
    mp, env = _random_map(data)
    cm = mp.instantiate(env, SUBS)
    rng = random.Random(data.draw(st.integers(0, 2**16), label="seed"))
    x = [rng.randint(-3, 3) for _ in range(cm.d_in)]
    assert symbolic_outputs(mp, env, SUBS, x) == cm(x)


@pytest.mark.parametrize("size", [m**2 + 1, 2 * m**2, n**3, n * m * H, m**2 * n, sp.floor(n / 2), sp.Rational(1, 2)],
                         ids=str)
def test_a_size_without_an_index_shape_is_unsupported(size):
    with pytest.raises(Unsupported):
        shape_of(size)


def _evaluator():
    sizes = {n: z3.Int("n"), m: z3.Int("m")}
    return MapEval(sizes, {}, lambda size, body, what: z3.Real("sum"))


def _read_all(mp):
    rep = Rep({b: (lambda idx: z3.RealVal(0)) for b in mp.src.names})
    out = MapEval({n: z3.IntVal(3), m: z3.IntVal(3)}, {}, lambda s, body, w: z3.RealVal(0)).apply(mp, rep)
    return [out.read(b, tuple(z3.Int(f"i{k}") for k in range(len(shape_of(mp.dst.size(b)))))) for b in mp.dst.names]


def test_a_block_without_an_index_shape_is_unsupported():
    lay = Layout("odd", [("v", m**2 + 1)])
    mp = Map("P", lay, lay, {"v": Shift(m**2 + 1) @ lay.vars().v})
    out = _evaluator().apply(mp, Rep({"v": lambda idx: z3.RealVal(1)}))
    for idx in [(z3.Int("i"),), (z3.Int("a"), z3.Int("b"))]:
        with pytest.raises(Unsupported):
            out.read("v", idx)


def test_matrices_the_algebra_cannot_read_are_unsupported():
    x = LAYOUT.vars()
    ix = IndexMatrix(m, m, lambda i, j, env: int(i == j), "D")
    cases = [
        {"m": ix @ x.m},  # entry-wise defined: no symbolic row
        {"m": (Ones(m, m) @ Shift(m)) @ x.m},  # a row of J inside a product sums over m coordinates
        {"mm": Ones(m**2, m**2) @ x.mm},  # a sum over a block with two indices
        {"one": Transposed(Ramp(m, 0, 1, "r")) @ x.m},  # a row of a transposed ramp sums over m coordinates
    ]
    for assign in cases:
        full = {b: 0 for b in SIZES if b not in assign} | assign
        with pytest.raises(Unsupported):
            _read_all(Map("P", LAYOUT, OUT, full))


def test_an_index_of_the_wrong_arity_is_unsupported():
    ev = _evaluator()
    with pytest.raises(Unsupported):
        ev.rows(Shift(m**2), (z3.Int("i"),))
    with pytest.raises(Unsupported):
        ev.rows(UnitVector(n, 1), (z3.Int("a"), z3.Int("b")))


def test_a_unit_vector_of_an_m_by_m_block_is_read_at_its_flat_position():
    ev = _evaluator()
    a, b = z3.Ints("a b")
    (coef, col, guard), = ev.rows(UnitVector(m**2, 1), (a, b))
    s = z3.Solver()
    s.add(z3.Int("m") == 3, z3.Not(guard == z3.And(a == 0, b == 1)), a >= 0, a < 3, b >= 0, b < 3)
    assert s.check() == z3.unsat


#: Matrices on blocks with two indices that a one-index reading gets wrong (the flat coordinate is ``a·cols + b``).
TWO_INDEX_CASES = {
    "e_1 on mm": lambda x: Const(UnitVector(m**2, 1), sp.Max(0, m - 2)),
    "e_m on mm": lambda x: Const(UnitVector(m**2, m)),
    "e_(mm-1) on mm": lambda x: Const(UnitVector(m**2, m**2 - 1)),
    "e_2 on nm": lambda x: Const(UnitVector(n * m, 2)),
    **{f"S^{k} on mm": (lambda x, k=k: Shift(m**2, k) @ x.mm) for k in (-4, -1, 1, 2, 5)},
    "S^T on mm": lambda x: Transposed(Shift(m**2, 2)) @ x.mm,
    "S on nm": lambda x: Shift(n * m, 3) @ x.nm,
    "S from mm to nm": lambda x: Shift(n * m, 1, cols=m**2) @ x.mm,
    "S from n to mm": lambda x: Shift(m**2, -1, cols=n) @ x.n,
    "ramp on mm": lambda x: Const(Ramp(m**2, 1, 2, "r")),
    "ramp on nm": lambda x: Const(Ramp(n * m, 0, 1, "r")),
    "K on mm": lambda x: Commutation(m) @ x.mm,
    "e_1^T on mm": lambda x: MatApply(Ones(m**2, 1), Transposed(UnitVector(m**2, 1)) @ x.mm),
    "e_m^T on nm": lambda x: MatApply(Ones(n * m, 1), Transposed(UnitVector(n * m, m)) @ x.nm),
    "outer n, m": lambda x: outer(x.n, x.m),
    "outer m, n": lambda x: outer(x.m, x.n),
    "outer 1, nm": lambda x: outer(x.one, x.nm),
    "(S K)^T on mm": lambda x: Transposed(MatProduct(Shift(m**2, 1), Commutation(m))) @ x.mm,
}


@pytest.mark.parametrize("name", sorted(TWO_INDEX_CASES))
def test_two_index_blocks_are_read_at_their_flat_coordinates(name):
    x = LAYOUT.vars()
    e = TWO_INDEX_CASES[name](x)
    block = next(b for b, s in SIZES.items() if same_size(s, e.size))
    mp = Map("P", LAYOUT, OUT, {b: e if b == block else 0 for b in SIZES})
    rng = random.Random(1)
    for nv, mv in [(1, 1), (2, 3), (3, 2), (4, 4), (2, 5)]:
        env = {n: nv, m: mv}
        try:
            cm = mp.instantiate(env, SUBS)
        except DimensionError:  # e_i with i beyond the block at these sizes
            continue
        x_in = [rng.randint(-3, 3) for _ in range(cm.d_in)]
        assert symbolic_outputs(mp, env, SUBS, x_in) == cm(x_in), env


def _reads_exactly_for_every_m(mat, idx, col, flat_rel, ranges):
    """For every ``m`` and in-range indices: some entry's guard holds at ``col`` iff ``flat_rel``; at most one does."""
    ents = MapEval({m: z3.Int("M")}, {}, lambda *a: None).rows(mat, idx)
    guards = [z3.BoolVal(True) if g is True else g for _c, _col, g in ents]
    hit = z3.Or(*[z3.And(g, *[p == q for p, q in zip(c, col)]) for g, (_a, c, _g) in zip(guards, ents)])
    twice = [z3.And(g, h) for i, g in enumerate(guards) for h in guards[i + 1:]]
    for claim in (hit != flat_rel, z3.Or(*twice) if twice else z3.BoolVal(False)):
        s = z3.Solver()
        s.set("timeout", 20000)
        s.add(*ranges, claim)
        assert s.check() == z3.unsat, mat.latex()


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 4])
def test_shifts_and_unit_vectors_on_m_by_m_blocks_are_exact_for_every_m(k):
    mz, a, b, a2, b2 = z3.Ints("M a b a2 b2")
    ranges = [mz >= 1, *[z3.And(v >= 0, v < mz) for v in (a, b, a2, b2)]]
    _reads_exactly_for_every_m(Shift(m**2, k), (a, b), (a2, b2), a2 * mz + b2 == a * mz + b - k, ranges)
    _reads_exactly_for_every_m(Transposed(Shift(m**2, k)), (a, b), (a2, b2), a2 * mz + b2 == a * mz + b + k, ranges)
    if k >= 0:
        unit = UnitVector(m**2, k)
        _reads_exactly_for_every_m(unit, (a, b), (0,), a * mz + b == k, ranges)
        _reads_exactly_for_every_m(Transposed(unit), (0,), (a2, b2), a2 * mz + b2 == k, ranges)
    _reads_exactly_for_every_m(Commutation(m), (a, b), (a2, b2), z3.And(a2 == b, b2 == a), ranges)
