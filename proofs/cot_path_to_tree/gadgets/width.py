r"""The feed-forward lemmas of Appendix "Realizing wid on Trees and Paths" (``app:cotwid``).

- lem:widsupffn: the width update ``f(v)`` of thm:cotwidoftree's third layer, hidden dimension 4::

      W_1 = [[1,0,0], [-λ,1,0], [0,0,1], [-λ,1,-1]],  b_1 = [0,0,0,1]
      W_2 = [[1,0,0,0], [0,1,0,0], [0,0,1,1]],        b_2 = [0,1,0]

- lem:addwidplus1 (eq:addwidplus1): ``wd ← wd + Σ_i ReLU(p_i - wd)``, hidden dimension ``2H + 1``::

      W_1 = [I_{H+1}; I_H  -1_H],   W_2 = [[I_H, 0, 0], [0, 1, 1_Hᵀ]]

- lem:addonetospecificheight (eq:addonetospecificheight): ``h ← h + m`` and ``p_{h+1} ← p_{h+1} + 1`` when
  ``m = 1``, by the state units ``W_{1,id}`` (``ReLU(±m)``, ``ReLU(h)``, ``ReLU(p_i)``) and, for pulses
  ``k = first_k … H-1``, the three units ``ReLU(h - (k-1)m)``, ``ReLU(h - km)``, ``ReLU(h - (k+1)m)``
  routed with ``[1, -2, 1]`` into ``p_{k+1}`` (``W_{1,pls}``, ``W_{2,pls}``). As printed ``first_k = 1``
  (hidden width ``4H``); thm:cotwidofpath's repair starts at ``k = 0`` (width ``4H + 3``).

  The units are grouped by their place in the pulse (blocks ``pls0``, ``pls1``, ``pls2``, entry ``k -
  first_k`` each) where the proof stacks consecutive triples. A permutation of hidden units commutes with
  the ReLU, so the network is the same function; the grouped order keeps every row's index arithmetic
  linear, which the all-dimension proof needs (interleaved triples need ``div``/``mod`` by 3).
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets.identities import signed_sum, signed_units
from symcot.gadgets.base import Gadget, Names, Read, Writes, make
from symcot.ir.expr import Expr, bcast
from symcot.ir.matrices import Ramp, Shift


def widsupffn(v1: Expr, v2: Expr, v3: Expr, lam: Any, units: Names = None, writes: Writes = None) -> Gadget:
    """lem:widsupffn on ``v = [v_1 ‖ v_2 ‖ v_3]`` with the large constant ``lam`` (units ``h1 … h4``)."""
    pre = {"h1": v1, "h2": v2 - lam * v1, "h3": v3, "h4": v2 - v3 - lam * v1 + 1}

    def post(u: Read) -> dict[str, Expr]:
        return {"v1": u("h1"), "v2": u("h2") + 1, "v3": u("h3") + u("h4")}

    return make("lem:widsupffn", "widsupffn", widsupffn, {"v1": v1, "v2": v2, "v3": v3, "lam": lam}, pre, post,
                ["v1", "v2", "v3"], units, writes)


def addwidplus1(p: Expr, wd: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """lem:addwidplus1 on ``[p_1 … p_H ‖ wd]`` (units ``p``, ``wd``, ``tmp`` with ``tmp_i = p_i - wd``)."""
    pre = {"p": p, "wd": wd, "tmp": p - bcast(wd, p.size)}

    def post(u: Read) -> dict[str, Expr]:
        return {"p": u("p"), "wd": u("wd") + u("tmp").sum()}

    return make("lem:addwidplus1", "addwidplus1", addwidplus1, {"p": p, "wd": wd}, pre, post, ["p", "wd"],
                units, writes)


def addonetospecificheight(m: Expr, h: Expr, p: Expr, first_k: int = 1, units: Names = None,
                           writes: Writes = None) -> Gadget:
    """lem:addonetospecificheight on ``[m ‖ h ‖ p_1 … p_H]``, pulses ``k = first_k … H-1``.

    Units ``m_pos``, ``m_neg``, ``h``, ``p`` (``W_{1,id}``) and ``pls0``, ``pls1``, ``pls2`` of size
    ``H - first_k``: entry ``j`` of ``pls<s>`` is row ``s`` of pulse ``k = j + first_k``,
    ``h - (k - 1 + s) m``. ``W_2``: ``m``, ``h + m`` and ``p`` plus ``[1, -2, 1]`` of pulse ``k`` into
    ``p_{k+1}`` (the 0-based coordinate ``k``).
    """
    size_h = p.size
    size = size_h - first_k
    pre = signed_units(m, "m_pos", "m_neg")
    pre.update({"h": h, "p": p})
    for s in range(3):
        col = Ramp(size, -(first_k - 1 + s), -1, tex=f"a_{s}")  # -(k - 1 + s) for k = j + first_k
        pre[f"pls{s}"] = col @ m + bcast(h, size)
    route = Shift(size_h, first_k, name="R", cols=size)  # pulse k (entry k - first_k) into p_{k+1}

    def post(u: Read) -> dict[str, Expr]:
        mm = signed_sum(u, "m_pos", "m_neg")
        return {"m": mm, "h": mm + u("h"),
                "p": u("p") + route @ u("pls0") - 2 * (route @ u("pls1")) + route @ u("pls2")}

    return make("lem:addonetospecificheight", "addonetospecificheight", addonetospecificheight,
                {"m": m, "h": h, "p": p, "first_k": first_k}, pre, post, ["m", "h", "p"], units, writes)
