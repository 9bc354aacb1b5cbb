import random
from fractions import Fraction

from proofs.transformer_cookbook import ffnn_cpwl as mod
from proofs.transformer_cookbook.recipes import n
from symcot.lemmas import Override, prove
from symcot.lemmas.encode import replay
from symcot.lemmas.induction import Fold, Induction
from symcot.lemmas.kit import ExactKit
from symcot.lemmas.lemma import ConcreteX
from symcot.lemmas.solver import prove_at

from .helpers import mutant_refuted, rows


def test_proved_for_every_number_of_pieces():
    r = rows(mod.CLAIM, max_size=4)["as-written"]
    assert r.verdict == "proved" and r.max_size == 4
    assert r.details["sizes_checked"] == [2, 4]
    assert "every n with n ≥ 2 (induction on the sum of block 'y'" in r.details["dimension"]
    assert any(note.startswith("induction obligations unsat: length: unsat, base: unsat, step: unsat, conclusion")
               for note in r.notes)


def _display(x, K):
    """The display's piecewise form, written directly: ``y_k + m_k (x - x_k)`` on the piece of ``x``."""
    xs, ms, t = x.vec("xs"), x.vec("ms"), x.x()
    ys = [x.y1()]
    for k, m in enumerate(ms):
        ys.append(ys[-1] + m * (xs[k + 1] - xs[k]))
    piece = max([0] + [k for k in range(1, len(ms)) if t >= xs[k]])
    return ys[piece] + ms[piece] * (t - xs[piece])


def _data(rng, pieces, low):
    xs = sorted(rng.sample(range(-40, 40), pieces + 1))
    return {"x": [Fraction(rng.randint(-50, 50), 3)], "xs": [Fraction(v) for v in xs],
            "y1": [Fraction(rng.randint(low, 9), 2)], "ms": [Fraction(rng.randint(low, 9), 4) for _ in range(pieces)]}


def test_the_fold_is_the_display_at_real_data_and_the_network_at_nonnegative_weights():
    # the network carries y_1 and the slopes to W_2 by ReLU(v) = v, so it is the printed one for v ≥ 0 (the
    # lemma's domain is {0, 1}, a basis); the fold is the display for every real value
    rng = random.Random(3)
    lem = mod.lemma()
    for pieces in (2, 3, 7, 12):
        for _ in range(20):
            x = ConcreteX(_data(rng, pieces, -9))
            assert mod.PIECEWISE.row(x, 0, ExactKit()) == _display(x, ExactKit())
            data = _data(rng, pieces, 0)
            flat = [v for b in mod.LAYOUT.names for v in data[b]]
            _hidden, out = replay(lem, {n: pieces}, None, flat)
            assert mod.PIECEWISE.row(ConcreteX(data), 0, ExactKit()) == out[0]


def _bent_step(st, k, x, i, K):
    y, out = mod._step(st, k, x, i, K)
    return y, out + K.ite(k >= 5, 1, 0)  # right for n ≤ 6, one too high from the sixth breakpoint on (n ≥ 7)


def test_a_target_right_up_to_six_pieces_and_wrong_after_is_not_proved():
    bent = Fold(mod.PIECEWISE.steps, mod._init, _bent_step, mod._out, mod._inv, "bent from n = 7")
    lem = mod.lemma().replace(target={"y": bent.row}, induction=Induction("y", bent))
    res = prove(lem, 5)  # the default sweep, n = 2 … 5, passes; the induction must not
    assert res.status == "verified" and res.max_size == 5
    assert "the induction: step (a model)" in res.dimension
    assert prove_at(lem, {n: 7}).status == "refuted"  # and the bent target is wrong at n = 7


def test_a_shifted_breakpoint_is_refuted():
    # the unit ReLU(x - x_2) with bias +1: the slope changes one unit too early
    c = mutant_refuted(mod.lemma(), Override("W_1", ("r", 0), (), 1), max_size=3)
    assert c.sizes == {"n": 2}
    xs, t = c.inputs["xs"], c.inputs["x"][0]
    assert xs[1] - 1 < t < xs[1] + 1  # the failure is where the two units disagree


def test_a_wrong_slope_change_is_refuted():
    # W_2 without the linear term's negative unit: m_1 (x - x_1) becomes m_1 ReLU(x - x_1)
    c = mutant_refuted(mod.lemma(), Override("W_2", ("y", 0), (("lin_neg", 0), ("ms", 0)), 0), max_size=3)
    assert c.sizes == {"n": 2} and c.inputs["x"][0] < c.inputs["xs"][0] and c.inputs["ms"][0] == 1
