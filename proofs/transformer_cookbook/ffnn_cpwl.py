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

The output row sums over the ``n - 1`` units (a non-local row), so there is no all-``n`` proof: the claim is
checked for ``n = 2 … max size`` (``verified``). The multivariate remark (``O(log k)`` layers, Arora et al.) is a
citation without a construction and is not checked.
"""

from __future__ import annotations

from typing import Any

from symcot.claims import Claim, as_written
from symcot.ir import Layout
from symcot.lemmas import Lemma, LemmaCheck, dim_hyp, each, whole
from symcot.lemmas.gadget_lemma import gadget_maps

from .recipes import cpwl, n, notes, where

LAYOUT = Layout("cpwl.in", [("x", 1), ("xs", n + 1), ("y1", 1), ("ms", n)])


def piecewise(x: Any, i: Any, K: Any) -> Any:
    """The display's piecewise form: ``y_k + m_k (x - x_k)`` on the piece of ``x`` (first and last unbounded)."""
    xs, ms, t = x.vec("xs"), x.vec("ms"), x.x()
    ys = [x.y1()]
    for k, m in enumerate(ms):
        ys.append(ys[-1] + m * (xs[k + 1] - xs[k]))
    out = ys[0] + ms[0] * (t - xs[0])                       # x ≤ x_2
    for k in range(1, len(ms)):                             # x_k ≤ x (≤ x_{k+1}), the last piece unbounded
        out = K.ite(t >= xs[k], ys[k] + ms[k] * (t - xs[k]), out)
    return out


def _increasing(x: Any, K: Any) -> Any:
    xs = x.vec("xs")
    return K.And(*[xs[k] < xs[k + 1] for k in range(len(xs) - 1)])


HYPS = (whole("x_1 < x_2 < … < x_{n+1}", _increasing),
        each("y_1 ∈ {0, 1} (a basis by linearity)", "y1", lambda v, K: K.Or(v == 0, v == 1)),
        each("m_k ∈ {0, 1} (a basis by linearity)", "ms", lambda v, K: K.Or(v == 0, v == 1)),
        dim_hyp("n ≥ 2", lambda s, K: s[n] >= 2))


def lemma() -> Lemma:
    """The printed network against the piecewise form, every ``n`` pieces up to the sweep's bound."""
    v = LAYOUT.vars()
    w1, w2 = gadget_maps(cpwl(v.x, v.xs, v.y1, v.ms, n), LAYOUT, "cpwl")
    return Lemma("sec:ffnn_cpwl", LAYOUT, w2, {"y": piecewise}, w1=w1, hyps=HYPS, dims={n: 2})


CLAIM = Claim(
    id="sec:ffnn_cpwl", kind="section",
    statement="y_1 + m_1(x - x_1) + Σ_{k=2}^n (m_k - m_{k-1}) ReLU(x - x_k) is the CPWL function through "
              "(x_k, y_k), k = 1 … n+1: y_k + m_k(x - x_k) on [x_k, x_{k+1}], the first and last pieces unbounded.",
    where=where("Continuous Piecewise Linear Functions", "sec:ffnn_cpwl", "the univariate construction"),
    checks=[LemmaCheck(lemma, notes=notes(
        "n = 2 … max size only: the output sums over the n - 1 units (non-local), so there is no all-n proof",
        "every real x and x_1 < … < x_{n+1}; y_1 and the slopes over {0, 1}, which covers every real value by "
        "linearity (the network and the target are linear in them)"))],
    default_max_size=5,
    readings={"as-written": as_written("points x_1 < … < x_{n+1}, n ≥ 2 pieces, every real x; the linear term "
                                       "m_1(x - x_1) as ReLU(x - x_1) - ReLU(x_1 - x)")},
)
