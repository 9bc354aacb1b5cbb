r"""The feed-forward lemmas of Appendix "Realizing str on Trees and Paths" (``app:cotstr``), and the fold.

- lem:shiftonehot: ``[m ‖ h ‖ 0_d] ↦ [m ‖ h ‖ h']``, ``h'`` the zero-padded shift of the one-hot ``h`` by
  the sign of ``m``; hidden width ``3d + 2``::

      W_1 = [[1, 0, 0], [-1, 0, 0], [0_d, I_d, 0], [0.5·1_d, S_R, 0], [-0.5·1_d, S_L, 0]]
      b_1 = [0, 0, 0_d, -0.5·1_d, -0.5·1_d]
      W_2 = [[1, -1, 0, 0, 0], [0, 0, I_d, 0, 0], [0, 0, 0, I_d, I_d]],  b_2 = 0

  with ``(S_R)_{ij} = 1`` iff ``i - j = 1`` and ``S_L = S_Rᵀ``; ``0.5`` is the exact ``1/2``.
- lem:mMc: ``[m ‖ M ‖ c] ↦ [m ‖ g(m, M) ‖ g(m, c)]`` with ``g(m, x) = ReLU(x) - ReLU(x + λm/2 - λ/2)``::

      W_1 = [[1,0,0], [-1,0,0], [0,1,0], [λ/2,1,0], [0,0,1], [λ/2,0,1]],  b_1 = [0,0,0,-λ/2,0,-λ/2]
      W_2 = [[1,-1,0,0,0,0], [0,0,1,-1,0,0], [0,0,0,0,1,-1]],            b_2 = 0

- eq:strahM and eq:strahc as thm:cottreestrahler's ``W_1^{(4)}`` writes them from the indicators
  (:func:`fold`): ``M + 1[D=0]·1[c_u>0]`` and ``1[D>0]·c_u + 1[D=0]·1[c_u=0] + 1[D<0]·1``. It is a bilinear
  row, not a ReLU network; thm:cotpathstrahler's completion reuses it.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets.identities import signed_sum, signed_units
from symcot.gadgets.base import Gadget, Names, Read, Writes, half, make
from symcot.ir.expr import Expr, bcast, ones
from symcot.ir.matrices import Shift


def shiftonehot(m: Expr, h: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """lem:shiftonehot on ``[m ‖ h]`` (units ``zm_pos``, ``zm_neg``, ``z_h``, ``z_plus``, ``z_minus``).

    The input's third block ``0_d`` has zero weights and is not read; outputs ``m``, ``h``, ``h_shift``.
    """
    d = h.size
    s_r = Shift(d, name="S_R")
    one_half = half(1)
    pre = signed_units(m, "zm_pos", "zm_neg")
    pre.update({
        "z_h": h,
        "z_plus": one_half * bcast(m, d) + s_r @ h - one_half * ones(d),
        "z_minus": -one_half * bcast(m, d) + s_r.T @ h - one_half * ones(d),
    })

    def post(u: Read) -> dict[str, Expr]:
        return {"m": signed_sum(u, "zm_pos", "zm_neg"), "h": u("z_h"), "h_shift": u("z_plus") + u("z_minus")}

    return make("lem:shiftonehot", "shiftonehot", shiftonehot, {"m": m, "h": h}, pre, post, ["m", "h", "h_shift"],
                units, writes)


def gate_units(x: Expr, m: Expr, lam: Any, keep: str, gate: str) -> dict[str, Expr]:
    """lem:mMc's ``g(m, x)``: the units ``x`` and ``x + λm/2 - λ/2`` (roles ``keep``, ``gate``)."""
    hl = half(lam)
    return {keep: x, gate: x + hl * m - hl}


def mmc(m: Expr, M: Expr, c: Expr, lam: Any, units: Names = None, writes: Writes = None) -> Gadget:  # noqa: N803
    """lem:mMc on ``[m ‖ M ‖ c]`` with the bound ``lam`` (units ``m_pos, m_neg, M, M_gate, c, c_gate``)."""
    pre = signed_units(m, "m_pos", "m_neg")
    pre.update(gate_units(M, m, lam, "M", "M_gate"))
    pre.update(gate_units(c, m, lam, "c", "c_gate"))

    def post(u: Read) -> dict[str, Expr]:
        return {"m": signed_sum(u, "m_pos", "m_neg"), "M": u("M") - u("M_gate"), "c": u("c") - u("c_gate")}

    return make("lem:mMc", "mmc", mmc, {"m": m, "M": M, "c": c, "lam": lam}, pre, post, ["m", "M", "c"],
                units, writes)


def fold(M: Expr, d_pos: Expr, d_zero: Expr, d_neg: Expr, cu_pos: Expr, cu_zero: Expr,  # noqa: N803
         c_u: Expr) -> tuple[Expr, Expr]:
    """eq:strahM and eq:strahc from the indicators: ``(M + 1[D=0]·1[c_u>0], 1[D>0]·1 + 1[D=0]·1[c_u=0] + 1[D<0]·c_u)``.

    Arguments as thm:cottreestrahler's ``W_1^{(4)}`` reads them: ``π_M``, ``π_{tmp_{D-1}} = 1[D>0]``,
    ``π_{tmp_D} = 1[D=0]``, ``π_{tmp_{D+1}} = 1[D<0]``, ``π_{tmp_{c_buf}} = 1[c_u>0]``,
    ``π_{tmp_{c_buf-1}} = 1[c_u=0]``, ``π_{c_buf} = c_u``; the proof's products ``π_{tmp_{D-1}}·1``,
    ``π_{tmp_D} π_{tmp_{c_buf-1}}`` and ``π_{tmp_{D+1}} π_{c_buf}``, in that order.
    """
    return M + d_zero * cu_pos, d_pos * 1 + d_zero * cu_zero + d_neg * c_u
