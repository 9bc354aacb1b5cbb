r"""The small ReLU identities the constructions are built from: a signed copy, two indicators, a branch.

- ``x = ReLU(x) - ReLU(-x)``: the proof of lem:mMc ("the identity mapping for the binary variable
  ``m`` can be expressed exactly as ``m = relu(m) - relu(-m)``"); lem:mMc, lem:shiftonehot and
  lem:addonetospecificheight carry ``m`` this way (:func:`signed_units`, :func:`signed_sum`), and
  thm:cotpathstrahler carries its signed blocks through every FFN with it (:func:`signed_pass`).
- ``1[v = 0] = ReLU(v+1) - 2 ReLU(v) + ReLU(v-1)`` and ``1[v > 0] = ReLU(v) - ReLU(v-1)`` for integer
  ``v``: the proof of thm:cottreestrahler, third layer (our ids ``thm:cottreestrahler:ind0`` and
  ``thm:cottreestrahler:indpos``). The DFS flag ``ReLU(γ) - ReLU(γ - 1)`` (proof of thm:cotdfs, first
  layer) is ``1[γ > 0]``. Each comes in two forms: ``…_at(v, one)`` writes the shifted copies itself
  (``v + one``, ``v``, ``v - one``; ``one`` is ``1`` or a block that is 1, such as ``π_flg3``), and the
  plain form takes the pre-activations a caller already holds (tree Strahler keeps ``D + 1, D, D - 1``
  from its second layer).
- eq:proprelu: ``ReLU(v + q - 1) = 1[q = +1] v`` and ``ReLU(v - q - 1) = 1[q = -1] v`` for
  ``v ∈ {0, 1}``, ``q ∈ {±1}`` (proof of thm:cotpathtotree): one unit per branch (:func:`branch`).
"""

from __future__ import annotations

from typing import Any

from symcot.gadgets.base import Gadget, Names, Read, Writes, make
from symcot.ir.expr import Expr, bcast
from symcot.ir.symbols import same_size

# -- x = ReLU(x) - ReLU(-x) -----------------------------------------------------------------------------


def signed_units(x: Expr, pos: str = "pos", neg: str = "neg") -> dict[str, Expr]:
    """The two units ``x``, ``-x`` of the signed copy (roles ``pos``, ``neg``)."""
    return {pos: x, neg: -x}


def signed_sum(u: Read, pos: str = "pos", neg: str = "neg") -> Expr:
    """``ReLU(x) - ReLU(-x) = x``: the ``W_2`` row of the signed copy."""
    return u(pos) - u(neg)


def signed_pass(x: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """``x`` through a ReLU as ``ReLU(x) - ReLU(-x)`` (units ``pos``, ``neg``; output ``x``). lem:mMc's proof."""
    return make("lem:mMc", "signed_pass", signed_pass, {"x": x}, signed_units(x),
                lambda u: {"x": signed_sum(u)}, ["x"], units, writes)


# -- 1[v = 0], 1[v > 0] ---------------------------------------------------------------------------------

IND0 = "thm:cottreestrahler:ind0"
INDPOS = "thm:cottreestrahler:indpos"


def _zero_post(u: Read) -> dict[str, Expr]:
    return {"ind": u("vp1") - 2 * u("v") + u("vm1")}


def _pos_post(u: Read) -> dict[str, Expr]:
    return {"ind": u("v") - u("vm1")}


def ind_zero(vp1: Expr, v: Expr, vm1: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """``1[v = 0] = ReLU(v+1) - 2 ReLU(v) + ReLU(v-1)`` on pre-activations the caller holds (units ``vp1, v, vm1``)."""
    return make(IND0, "ind_zero", ind_zero, {"vp1": vp1, "v": v, "vm1": vm1}, {"vp1": vp1, "v": v, "vm1": vm1},
                _zero_post, ["ind"], units, writes)


def ind_zero_at(v: Expr, one: Any = 1, units: Names = None, writes: Writes = None) -> Gadget:
    """``1[v = 0]`` with the shifted copies ``v + one``, ``v``, ``v - one`` written here."""
    return make(IND0, "ind_zero_at", ind_zero_at, {"v": v, "one": one}, {"vp1": v + one, "v": v, "vm1": v - one},
                _zero_post, ["ind"], units, writes)


def ind_pos(v: Expr, vm1: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """``1[v > 0] = ReLU(v) - ReLU(v-1)`` on pre-activations the caller holds (units ``v, vm1``)."""
    return make(INDPOS, "ind_pos", ind_pos, {"v": v, "vm1": vm1}, {"v": v, "vm1": vm1}, _pos_post, ["ind"],
                units, writes)


def ind_pos_at(v: Expr, one: Any = 1, units: Names = None, writes: Writes = None) -> Gadget:
    """``1[v > 0]`` with the copies ``v``, ``v - one`` written here (the DFS flag: ``v = γ``)."""
    return make(INDPOS, "ind_pos_at", ind_pos_at, {"v": v, "one": one}, {"v": v, "vm1": v - one}, _pos_post,
                ["ind"], units, writes)


# -- eq:proprelu ----------------------------------------------------------------------------------------


def branch(v: Expr, q: Expr, sign: int, units: Names = None, writes: Writes = None) -> Gadget:
    """eq:proprelu: the unit ``ReLU(v + sign·q - 1) = 1[q = sign] v`` (role ``sel``; ``q`` a scalar, broadcast)."""
    if sign not in (1, -1):
        raise ValueError(f"eq:proprelu selects the branch q = +1 or q = -1, not {sign!r}")
    qv = q if same_size(v.size, 1) else bcast(q, v.size)
    pre = v + qv - 1 if sign == 1 else v - qv - 1
    return make("eq:proprelu", "branch", branch, {"v": v, "q": q, "sign": sign}, {"sel": pre},
                lambda u: {"sel": u("sel")}, ["sel"], units, writes)
