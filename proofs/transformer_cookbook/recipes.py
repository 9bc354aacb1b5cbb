r"""The feed-forward recipes of the draft's chapter 3, each network stated once, by its action.

Subject: a draft of *The Transformer Cookbook*, LaTeX source at commit 582e0e1 (4 February 2025) of
``pentagonalize/Transformer-Cookbook``, chapter 3 "Feed-Forward Layers". Every weight below is the draft's,
written as IR expressions over the caller's blocks (as the first paper's gadgets are): a recipe is a
:class:`~symcot.gadgets.base.Gadget` whose *units* are the rows of ``W_1`` with their biases and whose
*outputs* are the rows of ``W_2`` with theirs. The claim modules of this package apply them to their own
input layouts (``gadget_maps``) and never restate a weight.

Notation: an FFN is ``f(x) = W_2 ReLU(W_1 x + b_1) + b_2`` (the draft's "Feed-Forward Layer" definition);
when the draft adds the residual connection, the claims compare ``x + f(x)`` with the target.

- :func:`identity` (sec:ffnn_identity): ``W_1 = W_2 = 0``, ``b_1 = b_2 = 0`` (``d_ff = d``).
- :func:`cancel_residual` (sec:ffnn_cancel_residual): ``f'`` from ``f``: ``W_1' = [W_1; I; -I]``,
  ``b_1' = [b_1; 0; 0]``, ``W_2' = [W_2, -I, I]``, ``b_2' = b_2``; applied to a chosen set of stream blocks
  (all of them as printed; one block for the addition recipe's repair).
- :func:`minimum`, :func:`maximum` (sec:ffnn_minmax): the two diagrams, units ``ReLU(x)``, ``ReLU(-x)`` and
  ``ReLU(x - y)`` (min) or ``ReLU(y - x)`` (max), output weights ``[1, -1, -1]`` and ``[1, -1, 1]``.
- :func:`addition` (sec:ffnn_addition): ``W_1`` rows ``e_{d1}, -e_{d1}, e_{d2}, -e_{d2}``, ``W_2`` row ``d3``
  ``[1, -1, 1, -1]`` and every other row 0 (biases 0: the draft gives none).
- :func:`negation`, :func:`conjunction_units`, :func:`conjunctions` and :func:`dnf` (sec:ffnn_boolean):
  ``¬x = 1 - x``; the full-DNF network ``h_ξ = ReLU(λ_{1,·} + … + λ_{n,·} - n + 1)``, ``y = Σ_{φ(ξ)=1} h_ξ``.
- :func:`conditional` (sec:ffnn_conditional): ``h_1 = ReLU(-p1 + φ)``, ``h_2 = ReLU(p1 - 1 + ψ)``, ``h_1 + h_2``.
- :func:`cpwl` (sec:ffnn_cpwl): ``y_1 + m_1(x - x_1) + Σ_{k=2}^n (m_k - m_{k-1}) ReLU(x - x_k)``.
- :func:`gelu_exact`, :func:`gelu_tanh`, :func:`gelu_sigmoid` (eq:gelu and the line after it) and
  :func:`taylor`, :func:`taylor2` (SymPy), for sec:ffnn_multiplication.

Where a recipe's weights depend on data the draft leaves arbitrary (the breakpoints and slopes of a CPWL
function, the truth table of ``φ``), the data are input blocks of the lemma, so that one proof covers every
choice: data in a bias of ``W_1`` enter as a linear term (``x - x_k`` with ``x_k`` an input, as
``fact:affine`` of the first paper moves a bias into the input), and data in ``W_2`` are carried to ``W_2`` by
units ``ReLU(v) = v`` (``v ≥ 0`` in the domain) and multiplied there (a bilinear ``W_2``). For fixed data this
is exactly the printed ``W_2``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
import z3

from symcot.gadgets.base import Gadget, Names, Read, Writes, is_zero, make
from symcot.ir.expr import Const, Expr, bcast, dot, gate, zeros
from symcot.ir.matrices import Shift
from symcot.lemmas.kit import sympy_to_z3
from symcot.lemmas.symbolic import SummedIndexMatrix

#: The document every claim of this package is about (every report row carries it in its notes).
DRAFT = ("a draft of The Transformer Cookbook, LaTeX source at commit 582e0e1 (4 February 2025) of "
         "pentagonalize/Transformer-Cookbook")
#: The first note of every check: what the verdict is about.
SUBJECT_NOTE = f"subject: {DRAFT}, chapter 3 (feed-forward networks); a finding is about this draft only"


def where(section: str, label: str, extra: str = "") -> str:
    """``where=`` of a claim: the draft, the chapter and the section (``""``: the chapter's introduction)."""
    tail = f"; {extra}" if extra else ""
    place = f"§ \"{section}\"" if section else "introduction"
    return f"draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 3, {place} ({label}){tail}"


def notes(*more: str) -> list[str]:
    """A check's notes: the subject first (so the last note stays the check's own reason)."""
    return [SUBJECT_NOTE, *more]


#: The width of the residual stream, ``x ∈ ℝ^d`` (symbolic: the all-dimension proofs quantify over it).
d = sp.Symbol("d", integer=True, positive=True)
#: A number of pieces (sec:ffnn_cpwl) or of Boolean inputs (sec:ffnn_boolean), swept size by size.
n = sp.Symbol("n", integer=True, positive=True)


def through_residual(block: str, want: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
    """A target row for an FFN behind a residual connection: ``x + f(x) = want`` is ``f(x) = want - x``."""
    return lambda x, i, K: want(x, i, K) - x[block](i)


# -- sec:ffnn_identity ------------------------------------------------------------------------------------


def identity(x: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_identity: ``W_1 = W_2 = 0``, ``b_1 = b_2 = 0`` on ``x ∈ ℝ^d`` (one unit per coordinate)."""
    return make("sec:ffnn_identity", "identity", identity, {"x": x}, {"h": 0 * x},
                lambda u: {"x": 0 * u("h")}, ["x"], units, writes)


# -- sec:ffnn_cancel_residual ------------------------------------------------------------------------------


def cancel_residual(f: Gadget, stream: dict[str, Expr], units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_cancel_residual: ``f'`` with ``W_1' = [W_1; I; -I]``, ``W_2' = [W_2, -I, I]`` on ``stream``'s blocks.

    ``f`` is the network to keep (its units and outputs are ``f``'s own); for each block ``b`` of ``stream``
    (the residual coordinates to cancel) the units ``pos_b = ReLU(x_b)`` and ``neg_b = ReLU(-x_b)`` are added
    and the output ``b`` gets ``- pos_b + neg_b``. As printed, ``stream`` is every coordinate of ``x``.
    """
    pre: dict[str, Expr] = dict(f.unit_roles)
    for b, e in stream.items():
        pre[f"pos_{b}"] = e
        pre[f"neg_{b}"] = -e

    def post(u: Read) -> dict[str, Expr]:
        outs = dict(f.post(u))
        for b in stream:
            cancel = u(f"neg_{b}") - u(f"pos_{b}")
            outs[b] = cancel if b not in outs or is_zero(outs[b]) else outs[b] + cancel
        return outs

    roles = list(dict.fromkeys([*f.used(), *stream]))
    return make("sec:ffnn_cancel_residual", "cancel_residual", cancel_residual, {**stream, "f": f}, pre, post,
                roles, units, writes)


def ffn(z: Expr, out: str = "x", units: Names = None, writes: Writes = None) -> Gadget:
    """A generic FFN ``f`` for sec:ffnn_cancel_residual: its pre-activation ``z = W_1 x + b_1`` given, ``W_2 = I``."""
    return make("sec:ffnn_cancel_residual", "ffn", ffn, {"z": z, "out": out}, {"fh": z},
                lambda u: {out: u("fh")}, [out], units, writes)


# -- sec:ffnn_minmax --------------------------------------------------------------------------------------


def minimum(x: Expr, y: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_minmax, left diagram: ``min(x, y) = ReLU(x) - ReLU(-x) - ReLU(x - y)``."""
    return make("sec:ffnn_minmax", "minimum", minimum, {"x": x, "y": y},
                {"x_pos": x, "x_neg": -x, "diff": x - y},
                lambda u: {"min": u("x_pos") - u("x_neg") - u("diff")}, ["min"], units, writes)


def maximum(x: Expr, y: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_minmax, right diagram: ``max(x, y) = ReLU(x) - ReLU(-x) + ReLU(-x + y)``."""
    return make("sec:ffnn_minmax", "maximum", maximum, {"x": x, "y": y},
                {"x_pos": x, "x_neg": -x, "diff": -x + y},
                lambda u: {"max": u("x_pos") - u("x_neg") + u("diff")}, ["max"], units, writes)


# -- sec:ffnn_addition ------------------------------------------------------------------------------------


def addition(stream: dict[str, Expr], d1: str = "d1", d2: str = "d2", d3: str = "d3", units: Names = None,
             writes: Writes = None) -> Gadget:
    """sec:ffnn_addition: ``W_1`` rows ``e_{d1}, -e_{d1}, e_{d2}, -e_{d2}`` (units 1-4), ``W_2`` row ``[1,-1,1,-1]``.

    ``stream`` is the residual stream by block; every block other than ``d3`` gets the zero row of ``W_2``.
    """
    a, b = stream[d1], stream[d2]
    pre = {"u1": a, "u2": -a, "u3": b, "u4": -b}

    def post(u: Read) -> dict[str, Expr]:
        outs: dict[str, Expr] = {k: zeros(e.size) for k, e in stream.items()}
        outs[d3] = u("u1") - u("u2") + u("u3") - u("u4")
        return outs

    return make("sec:ffnn_addition", "addition", addition, {**stream, "d1": d1, "d2": d2, "d3": d3}, pre, post,
                list(stream), units, writes)


# -- sec:ffnn_boolean -------------------------------------------------------------------------------------


def negation(x: Expr, rectified: bool = False, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_boolean: ``¬x = 1 - x`` as an FFN (``1 - ReLU(x) + ReLU(-x)``); ``rectified``: ``ReLU(1 - x)``.

    The draft writes the affine map ``1 - x``; an FFN computes it exactly on ℝ with ``b_2 = 1`` and the signed
    copy of ``x``. ``ReLU(1 - x)`` is the one-unit form, equal to it on ``x ≤ 1``.
    """
    if rectified:
        return make("sec:ffnn_boolean", "negation", negation, {"x": x, "rectified": True}, {"n": 1 - x},
                    lambda u: {"not": u("n")}, ["not"], units, writes)
    return make("sec:ffnn_boolean", "negation", negation, {"x": x, "rectified": False},
                {"x_pos": x, "x_neg": -x}, lambda u: {"not": 1 - u("x_pos") + u("x_neg")}, ["not"], units, writes)


#: ``B(ξ, i)``: the bits of a unit at a symbolic index ``ξ`` (an uninterpreted predicate, so that a proof holds for
#: every assignment of bits to every index, the binary one included).
_BITS = z3.Function("bit", z3.IntSort(), z3.IntSort(), z3.BoolSort())


def bit(xi: Any, i: Any) -> Any:
    """``ξ_{i+1}``: bit ``i`` of the hidden unit's index ``ξ`` (unit ``ξ`` reads ``x_{i+1}`` through bit ``i``).

    ``(ξ >> i) & 1`` for integers; for Z3 terms (a unit at a symbolic index) ``If(B(ξ, i), 1, 0)``.
    """
    if isinstance(xi, int) and isinstance(i, int):
        return (xi >> i) & 1
    return z3.If(_BITS(z3.IntVal(xi) if isinstance(xi, int) else xi, z3.IntVal(i) if isinstance(i, int) else i), 1, 0)


def _size_at(size: sp.Expr, sizes: dict[sp.Symbol, Any]) -> Any:
    """``size`` at the sizes of a :class:`~symcot.lemmas.symbolic.SummedIndexMatrix` row (integers or Z3 terms)."""
    if all(isinstance(v, int) for v in sizes.values()):
        return int(size.subs(sizes))
    return sympy_to_z3(size, sizes)


def conjunction_units(x: Expr, size: Any, printed: bool = True) -> Expr:
    """The ``2^n`` pre-activations ``λ_{1,·} + … + λ_{n,·} - n + 1`` of sec:ffnn_boolean's units ``h_ξ``.

    ``x`` has ``size = n`` coordinates; unit ``ξ`` (index ``Σ_i ξ_{i+1} 2^i``) adds ``λ_{i,1} = x_i`` or
    ``λ_{i,0} = 1 - x_i``. ``printed``: the second index of every ``λ`` is ``ξ_1``, as the draft prints
    ``λ_{1,ξ_1} + ⋯ + λ_{n,ξ_1}``; otherwise ``λ_{i,ξ_i}`` (the repair). Unit ``ξ`` is the sign row
    ``(2ξ_i - 1)_i`` applied to ``x`` plus the bias ``Σ_i (1 - ξ_i) - n + 1``; both are also stated as sums over
    the ``n`` inputs (``sym_sum``), which the proof for every ``n`` reads.
    """
    n = sp.sympify(size)

    def pick(xi: Any, i: Any) -> Any:
        return bit(xi, 0) if printed else bit(xi, i)

    def sign(xi: int, i: int, env: Any) -> int:
        return 1 if pick(xi, i) else -1

    def bias(xi: int, _j: int, env: Any) -> int:
        k = int(n.subs(env))
        return sum(1 - pick(xi, i) for i in range(k)) - k + 1

    def sign_row(xi: Any, sizes: dict[sp.Symbol, Any], summer: Any, col: Any) -> Any:
        return summer(_size_at(n, sizes), lambda j: (2 * pick(xi, j) - 1) * col(j), "signs")

    def bias_row(xi: Any, sizes: dict[sp.Symbol, Any], summer: Any, col: Any) -> Any:
        k = _size_at(n, sizes)
        return col(0) * (summer(k, lambda j: 1 - pick(xi, j), "bias") - k + 1)

    which = "λ_{i,ξ_1}" if printed else "λ_{i,ξ_i}"
    return (SummedIndexMatrix(2**n, n, sign, f"\\Lambda^{{({which})}}", sign_row) @ x
            + Const(SummedIndexMatrix(2**n, 1, bias, f"\\beta^{{({which})}}", bias_row)))


def conjunctions(x: Expr, size: Any, printed: bool = True, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_boolean, the conjunction units alone: output ``h`` (``W_2 = I``), ``h_ξ`` the clause of ``ξ``."""
    return make("sec:ffnn_boolean", "conjunctions", conjunctions, {"x": x, "size": size, "printed": printed},
                {"h": conjunction_units(x, size, printed)}, lambda u: {"h": u("h")}, ["h"], units, writes)


def dnf(x: Expr, phi: Expr, size: Any, printed: bool = True, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_boolean, full DNF: units ``h_ξ`` (:func:`conjunction_units`) and ``y = Σ_ξ φ(ξ) h_ξ``.

    ``phi`` is the truth table (entry ``ξ``), carried to ``W_2`` by units ``ReLU(φ(ξ)) = φ(ξ)``, so ``W_2`` is
    the bilinear ``φᵀ h``: for a fixed ``φ`` the printed ``W_2``, the sum of the units with ``φ(ξ) = 1``.
    """
    return make("sec:ffnn_boolean", "dnf", dnf, {"x": x, "phi": phi, "size": size, "printed": printed},
                {"h": conjunction_units(x, size, printed), "phi": phi}, lambda u: {"y": dot(u("phi"), u("h"))},
                ["y"], units, writes)


# -- sec:ffnn_conditional ---------------------------------------------------------------------------------


def conditional(p: Expr, phi: Expr, psi: Expr, printed: bool = True, units: Names = None,
                writes: Writes = None) -> Gadget:
    """sec:ffnn_conditional: ``h_1 = ReLU(-p1 + φ)``, ``h_2 = ReLU(p1 - 1 + ψ)``, output ``h_1 + h_2``.

    ``printed=False`` is the repair: the two branches exchange their gates, ``h_1 = ReLU(p1 - 1 + φ)``,
    ``h_2 = ReLU(-p1 + ψ)``.
    """
    ones = bcast(p, phi.size)
    if printed:
        pre = {"h1": -ones + phi, "h2": ones - 1 + psi}
    else:
        pre = {"h1": ones - 1 + phi, "h2": -ones + psi}
    return make("sec:ffnn_conditional", "conditional", conditional, {"p": p, "phi": phi, "psi": psi,
                "printed": printed}, pre, lambda u: {"out": u("h1") + u("h2")}, ["out"], units, writes)


# -- sec:ffnn_cpwl ----------------------------------------------------------------------------------------


def cpwl(x: Expr, xs: Expr, y1: Expr, ms: Expr, pieces: Any, units: Names = None, writes: Writes = None) -> Gadget:
    """sec:ffnn_cpwl: ``f(x) = y_1 + m_1 (x - x_1) + Σ_{k=2}^n (m_k - m_{k-1}) ReLU(x - x_k)`` with ``n = pieces``.

    ``xs`` holds ``x_1 … x_{n+1}``, ``ms`` the slopes ``m_1 … m_n``, ``y1`` the value ``y_1``. Units: ``r`` (size
    ``n - 1``, ``r_k = ReLU(x - x_{k+2})``, the printed ``ReLU(x - x_k)`` for ``k = 2 … n``) and the linear term's
    signed copy ``lin_pos = ReLU(x - x_1)``, ``lin_neg = ReLU(x_1 - x)`` (the display's ``m_1 (x - x_1)`` is not a
    ReLU unit; ``x - x_1 = ReLU(x - x_1) - ReLU(x_1 - x)`` is how an FFN writes it). The output weights ``y_1``,
    ``m_1`` and ``m_k - m_{k-1}`` are data, carried to ``W_2`` by units ``ReLU(v) = v``.
    """
    n = sp.sympify(pieces)
    first = Shift(1, k=0, cols=n + 1, name="e_1^\\top")       # x_1
    inner = Shift(n - 1, k=-1, cols=n + 1, name="P")          # x_2 … x_n
    m_first = Shift(1, k=0, cols=n, name="e_1^\\top")         # m_1
    m_cur = Shift(n - 1, k=-1, cols=n, name="P")              # m_2 … m_n
    m_prev = Shift(n - 1, k=0, cols=n, name="Q")              # m_1 … m_{n-1}
    pre = {"lin_pos": x - first @ xs, "lin_neg": first @ xs - x, "r": bcast(x, n - 1) - inner @ xs,
           "y1": y1, "ms": ms}

    def post(u: Read) -> dict[str, Expr]:
        m = u("ms")
        return {"y": u("y1") + gate(m_first @ m, u("lin_pos") - u("lin_neg")) + dot(m_cur @ m - m_prev @ m, u("r"))}

    return make("sec:ffnn_cpwl", "cpwl", cpwl, {"x": x, "xs": xs, "y1": y1, "ms": ms, "pieces": pieces}, pre, post,
                ["y"], units, writes)


# -- eq:gelu and sec:ffnn_multiplication (SymPy) ------------------------------------------------------------

#: The tanh form's cubic coefficient and the sigmoid form's scale, as printed (exact decimals).
TANH_CUBIC = sp.Rational(44715, 10**6)
SIGMOID_SCALE = sp.Rational(1702, 1000)


def gelu_exact(x: sp.Expr) -> sp.Expr:
    """``GELU(x) = x Φ(x) = (x/2)(1 + erf(x/√2))`` (the definition's first two lines)."""
    return x / 2 * (1 + sp.erf(x / sp.sqrt(2)))


def gelu_tanh(x: sp.Expr) -> sp.Expr:
    """eq:gelu: ``(x/2)(1 + tanh(√(2/π)(x + 0.044715 x³)))``."""
    return x / 2 * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (x + TANH_CUBIC * x**3)))


def gelu_sigmoid(x: sp.Expr) -> sp.Expr:
    """The definition's last line: ``x σ(1.702 x)``."""
    return x / (1 + sp.exp(-SIGMOID_SCALE * x))


#: The method column of the SymPy checks (``SymbolicCheck``'s own text speaks of matrix symbols).
TAYLOR_METHOD = "SymPy: exact Taylor polynomials at 0; the difference must simplify to 0 (else x = 1 shows it is not)"


def taylor(e: sp.Expr, x: sp.Symbol, degree: int) -> sp.Expr:
    """The Taylor polynomial of degree ``degree`` of ``e`` at ``x = 0``."""
    return sp.expand(sp.series(e, x, 0, degree + 1).removeO())


def taylor2(e: sp.Expr, x: sp.Symbol, y: sp.Symbol, degree: int) -> sp.Expr:
    """The Taylor polynomial of total degree ``degree`` of ``e(x, y)`` at ``(0, 0)`` (the series of ``e(tx, ty)``)."""
    t = sp.Symbol("t")
    return sp.expand(taylor(e.subs({x: t * x, y: t * y}, simultaneous=True), t, degree).subs(t, 1))
