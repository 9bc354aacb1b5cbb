r"""The bilinear gates of the DFS and tree-Strahler decoders: the parent gate and the traverse gate.

- thm:cotdfs:pargate (our id; proof of thm:cotdfs, second layer): the bilinear ``W_2^{(2)}`` "sets
  ``π_par(β)`` to value ``π_flg1(β) π_buf(β) + (1 - π_flg1(β)) π_par(β)``". It reads the hidden vector ``β``
  (after the ReLU), so it is a ``W_2``-only gadget (stage ``hidden``): its inputs are the caller's hidden
  units.
- eq:gatingTBstrahlertree (proof of thm:cottreestrahler, fourth layer): ``W_2^{(4)}`` assigns
  ``π_M(y_{t+1}) = (1 - π_flg1) π_M(β''')``, the same for ``c``, "and sets ``flg_2 = 0``, ``flg_3 = 1``". Its
  units are ``flg1``, ``M``, ``c`` with the pre-activations the caller's ``W_1^{(4)}`` writes (``flg1`` kept,
  ``M̂`` and ``ĉ`` the fold); the gate reads them after the ReLU.
"""

from __future__ import annotations

from symcot.gadgets.base import Gadget, Names, Read, Writes, make
from symcot.ir.expr import Expr, const, zeros


def parent_gate(flg1: Expr, buf: Expr, par: Expr, units: Names = None, writes: Writes = None) -> Gadget:
    """thm:cotdfs:pargate: ``par ← flg1·buf + (1 - flg1)·par`` on the caller's hidden units (it has none of its own)."""
    def post(u: Read) -> dict[str, Expr]:
        return {"par": u("flg1") * u("buf") + (1 - u("flg1")) * u("par")}

    return make("thm:cotdfs:pargate", "parent_gate", parent_gate, {"flg1": flg1, "buf": buf, "par": par}, {},
                post, ["par"], units, writes, stage="hidden")


def traverse_gate(flg1: Expr, M: Expr, c: Expr, units: Names = None, writes: Writes = None) -> Gadget:  # noqa: N803
    """eq:gatingTBstrahlertree: units ``flg1``, ``M``, ``c``; ``M, c ← (1 - flg1)·M, c``, ``flg2 ← 0``, ``flg3 ← 1``."""
    def post(u: Read) -> dict[str, Expr]:
        return {"M": (1 - u("flg1")) * u("M"), "c": (1 - u("flg1")) * u("c"), "flg2": zeros(1), "flg3": const(1)}

    return make("eq:gatingTBstrahlertree", "traverse_gate", traverse_gate, {"flg1": flg1, "M": M, "c": c},
                {"flg1": flg1, "M": M, "c": c}, post, ["M", "c", "flg2", "flg3"], units, writes)
