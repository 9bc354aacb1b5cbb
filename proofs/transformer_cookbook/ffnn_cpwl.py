r"""sec:ffnn_cpwl -- a univariate continuous piecewise linear function by one hidden layer.

Claimed (draft 582e0e1, ch. 3): a CPWL ``f : ℝ → ℝ`` with ``n ≥ 2`` pieces (the first and last unbounded), given
by points ``x_1 < … < x_{n+1}`` and values ``y_k = f(x_k)``, with slopes ``m_k = (y_{k+1} - y_k)/(x_{k+1} - x_k)``,
is computed by ``f(x) = y_1 + m_1 (x - x_1) + Σ_{k=2}^n (m_k - m_{k-1}) ReLU(x - x_k)``, which equals
``y_1 + m_1 (x - x_1)`` for ``x ≤ x_2``, ``y_k + m_k (x - x_k)`` for ``x_k ≤ x ≤ x_{k+1}`` and
``y_n + m_n (x - x_n)`` for ``x ≥ x_n``. Weights: :func:`.recipes.cpwl` (the linear term ``m_1 (x - x_1)`` by the
two units ``ReLU(±(x - x_1))``, since an FFN has no unrectified hidden unit).

The data: the function is given by ``x_1 … x_{n+1}``, ``y_1`` and the slopes ``m_1 … m_n`` (then
``y_{k+1} = y_k + m_k (x_{k+1} - x_k)``: the same functions as points and values). The points are an input block
(every real ``x_1 < … < x_{n+1}``, a named hypothesis), and so is the argument ``x``. ``y_1`` and the slopes are
``W_2``'s weights; they are input blocks carried to ``W_2`` (see :mod:`.recipes`) and range over ``{0, 1}``:
for fixed points and ``x`` both the network's output and the target are linear in ``(y_1, m_1, …, m_n)``, and
``{0, 1}^{n+1}`` contains a basis of ``ℝ^{n+1}``, so the check covers every real ``y_1`` and slope. (Real-valued
weights make every query nonlinear, and Z3 leaves them undecided from ``n = 3`` on.)

The output row sums over the ``n - 1`` units (a row with no form at one symbolic index), so the claim is proved for
every ``n`` by induction on that sum (:mod:`symcot.lemmas.induction`): the target is the display's piecewise form
written as a fold over the breakpoints ``x_2 … x_n`` (:data:`PIECEWISE`: the value ``y_k`` at the breakpoint and
the form so far, a new piece from each breakpoint on), and the invariant says that after ``k`` units the network
is the form so far and its last piece is ``y_{k+1} + m_{k+1}(x - x_{k+1})`` from ``x_{k+1}`` on. Z3 proves the
base, the step (at a symbolic ``k``, the ordering ``x_{k+1} < x_{k+2}`` instantiated where the step reads it) and
the conclusion; the sweep ``n = 2 … max size`` runs first. The multivariate remark (``O(log k)`` layers, Arora
et al.) is a citation without a construction and is not checked.
"""

from __future__ import annotations

from typing import Any

from symcot.claims import Claim, as_written
from symcot.ir import Layout
from symcot.lemmas import Lemma, LemmaCheck, dim_hyp, each, whole
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.induction import Fold, Induction

from .recipes import cpwl, n, notes, where

LAYOUT = Layout("cpwl.in", [("x", 1), ("xs", n + 1), ("y1", 1), ("ms", n)])


def _init(x: Any, i: Any, K: Any) -> tuple[Any, Any]:
    """Before any unit: ``(y_1, y_1 + m_1 (x - x_1))``, the value at ``x_1`` and the first piece."""
    return x.y1(), x.y1() + x.ms(0) * (x.x() - x.xs(0))


def _step(st: tuple[Any, Any], k: Any, x: Any, i: Any, K: Any) -> tuple[Any, Any]:
    """Piece ``k + 2`` from ``x_{k+2}`` on: the value there, and the piecewise form with it (0-based ``k``)."""
    y, out = st
    y_next = y + x.ms(k) * (x.xs(k + 1) - x.xs(k))
    return y_next, K.ite(x.x() >= x.xs(k + 1), y_next + x.ms(k + 1) * (x.x() - x.xs(k + 1)), out)


def _out(st: tuple[Any, Any], x: Any, i: Any, K: Any) -> Any:
    return st[1]


def _inv(S: Any, F: Any, st: tuple[Any, Any], k: Any, x: Any, i: Any, K: Any) -> Any:
    """With ``k`` units summed: the network is the piecewise form so far, whose last piece starts at ``x_{k+1}``."""
    y, out = st
    t = x.x()
    return K.And(F(S) == out, K.Implies(t >= x.xs(k), out == y + x.ms(k) * (t - x.xs(k))))


#: The display's piecewise form, ``y_k + m_k (x - x_k)`` on the piece of ``x`` (the first and last unbounded), as a
#: fold over the ``n - 1`` breakpoints ``x_2 … x_n``: the target of the sweep and of the proof for every ``n``.
PIECEWISE = Fold(lambda x: x.size("ms") - 1, _init, _step, _out, _inv,
                 "the piecewise form, one breakpoint a step")


def _increasing(x: Any, K: Any) -> Any:
    xs = x.vec("xs")
    return K.And(*[xs[k] < xs[k + 1] for k in range(len(xs) - 1)])


def _increasing_read(x: Any, K: Any, reads: Any) -> Any:
    """The all-``n`` form: ``x_{j+1} < x_{j+2}`` at every coordinate ``j`` a query reads (and its successor)."""
    size = x.size("xs")
    return K.And(*[K.Implies(K.And(j >= 0, j + 1 < size), x.raw("xs", j) < x.raw("xs", j + 1))
                   for j in list(x.reads["xs"])])


HYPS = (whole("x_1 < x_2 < … < x_{n+1}", _increasing, _increasing_read),
        each("y_1 ∈ {0, 1} (a basis by linearity)", "y1", lambda v, K: K.Or(v == 0, v == 1)),
        each("m_k ∈ {0, 1} (a basis by linearity)", "ms", lambda v, K: K.Or(v == 0, v == 1)),
        dim_hyp("n ≥ 2", lambda s, K: s[n] >= 2))


def lemma() -> Lemma:
    """The printed network against the piecewise form, every ``n`` pieces up to the sweep's bound."""
    v = LAYOUT.vars()
    w1, w2 = gadget_maps(cpwl(v.x, v.xs, v.y1, v.ms, n), LAYOUT, "cpwl")
    return Lemma("sec:ffnn_cpwl", LAYOUT, w2, {"y": PIECEWISE.row}, w1=w1, hyps=HYPS, dims={n: 2},
                 induction=Induction("y", PIECEWISE))


CLAIM = Claim(
    id="sec:ffnn_cpwl", kind="section",
    statement="y_1 + m_1(x - x_1) + Σ_{k=2}^n (m_k - m_{k-1}) ReLU(x - x_k) is the CPWL function through "
              "(x_k, y_k), k = 1 … n+1: y_k + m_k(x - x_k) on [x_k, x_{k+1}], the first and last pieces unbounded.",
    where=where("Continuous Piecewise Linear Functions", "sec:ffnn_cpwl", "the univariate construction"),
    checks=[LemmaCheck(lemma, notes=notes(
        "every n ≥ 2: the output sums over the n - 1 units, proved by induction on that sum (the piecewise form "
        "as a fold over the breakpoints); n = 2 … max size concretely first",
        "every real x and x_1 < … < x_{n+1}; y_1 and the slopes over {0, 1}, which covers every real value by "
        "linearity (the network and the target are linear in them)"))],
    default_max_size=5,
    readings={"as-written": as_written("points x_1 < … < x_{n+1}, n ≥ 2 pieces, every real x; the linear term "
                                       "m_1(x - x_1) as ReLU(x - x_1) - ReLU(x_1 - x)")},
)
