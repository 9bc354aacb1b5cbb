"""One transition, three readings: Python values, numpy rows, definition facts (checked on runs and by Z3)."""

from dataclasses import dataclass, replace

import numpy as np
import pytest
import z3

from symcot.algorithms.batched.run import run_batch
from symcot.algorithms.logic import Concrete, Fact, Sig, Var, Vocabulary, check_facts
from symcot.algorithms.transition import (
    Aux,
    Index,
    StateVar,
    Transition,
    definitions,
    extend,
    interpretation,
    run,
)

CELL = Index("cell", lambda g: g.n)


def _step(o, g, s):
    # mark the lowest unmarked cell whose weight is at least the running level, else raise the level
    pick = o.lowest("pick", lambda j: o.and_(o.not_(o.at(s.mark, j, False)), g.w(j) >= s.level))
    found = o.let("found", pick != -1)
    return {"level": o.ite(found, s.level, s.level + 1), "mark": o.put(s.mark, pick, True),
            "last": o.ite(found, pick, s.last)}


#: A toy algorithm: mark cells in rounds of rising level; it stops when every cell is marked.
TOY = Transition(
    "toy", (StateVar("level"), StateVar("mark", "bool", CELL), StateVar("last", result="cell")),
    init=lambda o, g: {"level": 0, "mark": o.array(CELL, lambda j: False), "last": -1},
    step=_step,
    running=lambda o, g, s: s.level <= g.top,
    bound=lambda g: 100,
    aux=(Aux("pick", "lowest", doc="the cell marked", over=CELL), Aux("found", "let", "bool", doc="a cell is marked")),
)


@dataclass(frozen=True)
class Weights:
    n: int
    ws: tuple[int, ...]

    @property
    def top(self) -> int:
        return max(self.ws)

    def w(self, j: int) -> int:
        return self.ws[j] if 0 <= j < self.n else -1


class BatchWeights:
    def __init__(self, ws: np.ndarray):
        self.ws, self.n = ws, ws.shape[1]
        self.top = ws.max(axis=1)[:, None]

    def w(self, j) -> np.ndarray:
        j = np.broadcast_to(j, np.broadcast_shapes(np.shape(j), (len(self.ws), 1)))
        return self.ws[np.arange(len(self.ws))[:, None], j]


INPUTS = [Weights(3, ws) for ws in [(0, 0, 0), (2, 0, 1), (1, 1, 3), (3, 2, 1), (0, 2, 0)]]
STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
MOVE = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")


def _vocab(tr: Transition) -> Vocabulary:
    syms = (Sig("n", 0), Sig("top", 0), Sig("w", 1, args=("cell",)), *tr.symbols())
    return Vocabulary("toy", syms, definitions(tr, MOVE, STEP), {}, lambda inp, states: {})


def _concrete(tr: Transition, g: Weights) -> Concrete:
    return Concrete({"n": g.n, "top": g.top, "w": g.w, **interpretation(tr, run(tr, g))})


def test_python_run():
    r = run(TOY, Weights(3, (2, 0, 1)))
    assert [s["last"] for s in r.states] == [-1, 0, 1, 2, 2, 2, 2]
    assert r.states[-1]["mark"] == (True, True, True) and r.states[-1]["level"] == 3
    assert [a["pick"] for a in r.aux] == [0, 1, 2, -1, -1, -1]
    assert r.T == 6


def test_numpy_rows_equal_python_runs():
    ws = np.array([g.ws for g in INPUTS])
    b = run_batch(TOY, BatchWeights(ws), len(INPUTS), 100)
    for row, g in enumerate(INPUTS):
        r = run(TOY, g)
        assert b.lengths[row] == len(r.states)
        for t, s in enumerate(r.states):
            assert b.states["level"][row, t] == s["level"]
            assert tuple(b.states["mark"][row, t]) == s["mark"]
            assert b.states["last"][row, t] == s["last"]
        for t, a in enumerate(r.aux):
            assert b.aux["pick"][row, t] == a["pick"] and b.aux["found"][row, t] == a["found"]


def test_definitions_hold_on_every_run():
    vocab = _vocab(TOY)
    names = [f.name for f in vocab.facts]
    assert names == ["init:level", "init:mark", "init:last", "step:level", "step:mark", "step:last", "pick:choice",
                     "pick:lowest", "found", "moves", "ends"]
    for g in INPUTS:
        assert check_facts(vocab, _concrete(TOY, g)) is None


def test_definitions_catch_another_algorithm():
    # the runs of a step that forgets to record the cell it marks break the definition of ``last``
    wrong = replace(TOY, step=lambda o, g, s: {**_step(o, g, s), "last": s.last})
    fail = check_facts(_vocab(TOY), _concrete(wrong, Weights(3, (2, 0, 1))))
    assert fail is not None and fail.fact == "step:last" and fail.values == {"τ": 0}


def test_edge_cases():
    r = run(TOY, Weights(2, (0, 0)))
    assert r.aux[-1]["pick"] == -1  # a predicate true nowhere: -1, and put at -1 changes nothing
    assert r.states[-1]["mark"] == (True, True)
    with pytest.raises(RuntimeError, match="runs past"):
        run(replace(TOY, bound=lambda g: 2), Weights(2, (0, 0)))
    with pytest.raises(ValueError, match="not declared"):
        run(replace(TOY, aux=TOY.aux[1:]), Weights(2, (0, 0)))
    with pytest.raises(ValueError, match="state variables"):
        run(replace(TOY, step=lambda o, g, s: {"level": s.level + 1}), Weights(2, (0, 0)))
    with pytest.raises(ValueError, match="used twice"):
        replace(TOY, aux=(*TOY.aux, Aux("level", "let")))


class _Z3:
    """The toy vocabulary's symbols as Z3 functions (what the all-n prover does for a paper's vocabulary)."""

    def __init__(self):
        i, b = z3.IntSort(), z3.BoolSort()
        self.n, self.top, self.T = z3.Ints("n top T")
        self.w = z3.Function("w", i, i)
        self.level = z3.Function("level", i, i)
        self.mark = z3.Function("mark", i, i, b)
        self.last = z3.Function("last", i, i)
        self.pick = z3.Function("pick", i, i)
        self.found = z3.Function("found", i, b)

    ite, and_, or_, not_, implies = staticmethod(z3.If), staticmethod(z3.And), staticmethod(z3.Or), \
        staticmethod(z3.Not), staticmethod(z3.Implies)


def _holds(c: _Z3, fact: Fact, t: z3.ArithRef) -> z3.BoolRef:
    names = [v.name for v in fact.vars]
    bound = [z3.Int(f"q_{x}") for x in names]
    body = fact.body(c, *bound)
    rng = [z3.And(v.lo(c) <= x, x <= v.hi(c)) for v, x in zip(fact.vars, bound)]
    return z3.ForAll(bound, z3.Implies(z3.And(*rng), body)) if bound else body


def test_z3_reading_proves_a_step_fact_and_not_a_wrong_one():
    c = _Z3()
    facts = {f.name: f for f in definitions(TOY, MOVE, STEP)}
    t = z3.Int("t")
    # from the step definition: the level never falls
    claim = z3.Implies(z3.And(0 <= t, t <= c.T - 1), c.level(t + 1) >= c.level(t))
    wrong = z3.Implies(z3.And(0 <= t, t <= c.T - 1), c.level(t + 1) == c.level(t))
    for goal, want in ((claim, z3.unsat), (wrong, z3.sat)):
        s = z3.Solver()
        s.add(_holds(c, facts["step:level"], t), _holds(c, facts["found"], t))
        s.add(z3.Not(goal))
        assert s.check() == want


#: TOY with a count of the cells marked so far, read from the base step's named value.
COUNTED = extend(TOY, "toy+count", (StateVar("count"),), lambda o, g: {"count": 0},
                 lambda o, g, s, new: {"count": o.ite(o.get("found"), s.count + 1, s.count)})


def test_an_extension_reads_the_base_step_in_every_reading():
    g = Weights(3, (2, 0, 1))
    r = run(COUNTED, g)
    assert [s["count"] for s in r.states] == [0, 1, 2, 3, 3, 3, 3]
    assert [s["last"] for s in r.states] == [s["last"] for s in run(TOY, g).states]
    b = run_batch(COUNTED, BatchWeights(np.array([g.ws])), 1, 100)
    assert b.states["count"][0].tolist() == [0, 1, 2, 3, 3, 3, 3]
    vocab = _vocab(COUNTED)
    assert "step:count" in [f.name for f in vocab.facts]
    assert check_facts(vocab, _concrete(COUNTED, g)) is None
    wrong = extend(TOY, "toy+miscount", (StateVar("count"),), lambda o, g: {"count": 0},
                   lambda o, g, s, new: {"count": s.count + 1})
    fail = check_facts(vocab, _concrete(wrong, g))
    assert fail is not None and fail.fact == "step:count"


#: Prefix sums read the bit of the step they are at (``o.step``), in every reading.
SUMS = Transition("sums", (StateVar("acc"),), init=lambda o, g: {"acc": 0},
                  step=lambda o, g, s: {"acc": s.acc + g.w(o.step)}, running=lambda o, g, s: o.step < g.n,
                  bound=lambda g: g.n + 1)


def test_the_step_index_is_the_same_in_every_reading():
    g = Weights(4, (1, 0, 1, 1))
    assert [s["acc"] for s in run(SUMS, g).states] == [0, 1, 1, 2, 3]
    b = run_batch(SUMS, BatchWeights(np.array([g.ws, (0, 1, 1, 0)])), 2, 10)
    assert b.states["acc"].tolist() == [[0, 1, 1, 2, 3], [0, 0, 1, 2, 2]]
    vocab = _vocab(SUMS)
    assert check_facts(vocab, _concrete(SUMS, g)) is None
    shifted = replace(SUMS, step=lambda o, g, s: {"acc": s.acc + g.w(o.step + 1)})
    fail = check_facts(vocab, _concrete(shifted, g))
    assert fail is not None and fail.fact == "step:acc"
