"""Token classes, positions and encodings at a symbolic parameter; what cannot be stated is reported."""

import pytest
import z3

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
from symcot.constructions.encoding import StateEncoding, onehot
from symcot.prove.alln.blocks import Unsupported
from symcot.prove.alln.context import Context
from symcot.prove.alln.engine import Engine
from symcot.prove.alln.ops import Symbolic
from symcot.prove.alln.sums import Summer


def _engine():
    c = Symbolic(STATEMENT.vocabulary)
    t = z3.Int("t")
    return Engine(STATEMENT, DfsConstruction().decoder, c, Summer(Context([])), {}, t, []), c, t


def test_positions_follow_the_prompt_order():
    eng, c, t = _engine()
    assert z3.simplify(eng.position("x_⊥", 0)).eq(z3.IntVal(0))
    i = z3.Int("i")
    assert z3.simplify(eng.position("x", i) - (1 + i)).eq(z3.IntVal(0))
    assert z3.simplify(eng.position("y", 2) - (c.n + 3)).eq(z3.IntVal(0))
    s = z3.Solver()
    s.add(eng.in_range("y", t + 1, t))
    assert s.check() == z3.unsat  # y_{t+1} is not in the context of step t


def test_a_token_is_read_at_a_symbolic_index():
    eng, c, t = _engine()
    tok = eng.token("x", z3.IntVal(2))
    j = z3.Int("j")
    s = z3.Solver()
    s.add(j == 2, tok.read("cur", (j,)) != 1)
    assert s.check() == z3.unsat
    assert z3.simplify(tok.read("flg1", (0,))).eq(z3.RealVal(-1))


def test_a_missing_block_or_view_is_unsupported():
    eng, c, t = _engine()
    with pytest.raises(Unsupported, match="does not say what block"):
        eng.encode(StateEncoding({"cur": onehot("cur")}), eng.views, t, True, "y_t")
    with pytest.raises(Unsupported, match="no view"):
        eng.encode(StateEncoding({"cur": onehot("nowhere")}), eng.views, t, False, "y_t").read("cur", (0,))


def test_a_head_at_a_prompt_token_uses_the_choice_stated_for_its_class():
    import dataclasses

    from symcot.constructions.alln import Choice

    eng, c, t = _engine()
    with pytest.raises(Unsupported, match="no stated choice for head T of layer 2 at a token of class x"):
        eng.cases(2, "T", "x", z3.Int("u"))
    at_x = Choice(2, "T", lambda c, i: [(True, "x_⊥", 0)], cls="x")
    stmt = dataclasses.replace(STATEMENT, choices=(*STATEMENT.choices, at_x))
    eng2 = Engine(stmt, DfsConstruction().decoder, c, Summer(Context([])), {}, t, [])
    assert [(cls, p) for _, cls, p in eng2.cases(2, "T", "x", z3.Int("u"))] == [("x_⊥", 0)]
    with pytest.raises(Unsupported, match="at a token of class x_⊥"):
        eng2.cases(2, "T", "x_⊥", 0)
