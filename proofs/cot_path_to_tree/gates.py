r"""Gating identities inside constructions, stated as lemmas over their flag domains.

``eq:gatingTBstrahlertree`` (Appendix "Realizing str", proof of thm:cottreestrahler, fourth layer)::

    π_M(y_{t+1}) = (1 - π_flg1(y_t^(3))) π_M(β'''),   π_c(y_{t+1}) = (1 - π_flg1(y_t^(3))) π_c(β'''),
    and W_2^(4) sets flg2 = 0, flg3 = 1.

"On a backtrack the gate is 1 and the accumulator commits; on a traverse it is 0, so the freshly visited
vertex receives the empty accumulator (0, 0)." Stated as the fourth layer's FFN restricted to the blocks
it gates: ``β''' = relu(W_1^(4) y)``, where ``W_1^(4)`` leaves ``flg1`` intact ("leaving the remaining
coordinates intact") and writes ``M̂ = π_M(W_1^(4) y)``, ``ĉ = π_c(W_1^(4) y)``, taken here as the inputs
``M``, ``c``; then the bilinear ``W_2^(4)``, the gadget :func:`symcot.gadgets.traverse_gate`. Reading:
``W_2^(4)`` sees ``β'''`` only, so its gate is ``π_flg1(β''') = relu(π_flg1(y_t^(3)))``, equal to
``π_flg1(y_t^(3))`` on the flag domain ``{0, 1}`` (1 = traverse, 0 = backtrack). Hypotheses: ``M̂ ≥ 0`` and
``ĉ ≥ 0`` (the ReLU must pass them; they hold in the construction, where both are sums of non-negative terms).
The relaxation without them is reported.

``thm:cotdfs:pargate`` (our id; Appendix "DFS", proof of thm:cotdfs): the bilinear ``W_2^(2)`` of the DFS
decoder "sets π_par(β) to value π_flg1(β) π_buf(β) + (1 - π_flg1(β)) π_par(β), which selects the buffered
vertex ... when π_flg1(y_t) = 1 and retains the existing parent otherwise". The map is the gadget
:func:`symcot.gadgets.parent_gate`, which the DFS decoder's ``W_2^{(2)}`` (and those of thm:cotdfs:phi and
thm:cottreestrahler) is built from; the lemma reads its ``par`` output over ``flg1 ∈ {0, 1}``, ``buf`` and
``par`` one-hot or zero (the proof's ``π_par, π_buf : ℝ^d → E ∪ {0^n}``), for every ``n``.

Both gates also get a row per decoder that uses them (``in:<claim>``, :class:`~symcot.lemmas.inuse.InUseCheck`).
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets import parent_gate, traverse_gate
from symcot.claims import Claim
from symcot.ir import Layout, Map, n
from symcot.lemmas import Gate, Lemma, LemmaCheck, Relaxation, each, integral, onehot
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck

TB_TARGET = {"M": lambda x, i, K: K.ite(x.flg1() == 0, x.M(), 0),
             "c": lambda x, i, K: K.ite(x.flg1() == 0, x.c(), 0),
             "flg2": lambda x, i, K: 0, "flg3": lambda x, i, K: 1}
TB_GATE = (Gate("flg1", (0, 1), "flg1 ∈ {0, 1} (backtrack, traverse)"),)
TB_HYPS = (each("M̂ ≥ 0", "M", lambda v, K: v >= 0), each("ĉ ≥ 0", "c", lambda v, K: v >= 0))


def gating_tb() -> Lemma:
    """eq:gatingTBstrahlertree: ``relu``, then ``W_2^(4)`` (:func:`symcot.gadgets.traverse_gate`) on its five blocks."""
    L = Layout("gateTB.in", [("flg1", 1), ("flg2", 1), ("flg3", 1), ("M", 1), ("c", 1)])
    x = L.vars()
    g = traverse_gate(x.flg1, x.M, x.c)
    w1 = Map("W_1^{(4)}|", L, L, g.w1(), keep=["flg2", "flg3"], max_degree=1,
             doc="the part of W_1^(4) the gate reads: flg1 kept, M̂ and ĉ as computed")
    w2 = Map("W_2^{(4)}", L, L, g.w2(x), keep=["flg1"], zero=g.zero(x),
             doc="eq:gatingTBstrahlertree; flg2 = 0, flg3 = 1")
    return Lemma(
        "eq:gatingTBstrahlertree", L, w2, target=TB_TARGET, w1=w1, gates=TB_GATE, hyps=TB_HYPS,
        relaxations=(Relaxation("M̂, ĉ real (ReLU inputs unconstrained)", drop=("M̂ ≥ 0", "ĉ ≥ 0")),),
    )


PAR_TARGET = {"par": lambda x, i, K: K.ite(x.flg1() == 1, x.buf(i), x.par(i))}
PAR_GATE = (Gate("flg1", (0, 1), "flg1 ∈ {0, 1} (backtrack, traverse)"),)
PAR_HYPS = tuple(onehot("buf", zero_ok=True)) + tuple(onehot("par", zero_ok=True))


def par_gate() -> Lemma:
    """thm:cotdfs:pargate: ``π_par ← π_flg1 π_buf + (1 - π_flg1) π_par`` (:func:`symcot.gadgets.parent_gate`)."""
    L = Layout("pargate.in", [("flg1", 1), ("buf", n), ("par", n)])
    x = L.vars()
    _w1, w2 = gadget_maps(parent_gate(x.flg1, x.buf, x.par), L, "pargate")
    return Lemma("thm:cotdfs:pargate", L, w2, target=PAR_TARGET, gates=PAR_GATE, hyps=PAR_HYPS, relu=False,
                 dims={n: 1})


def _claim(module: str, claim_id: str) -> Any:
    import importlib

    mod = importlib.import_module(f"{__package__}.{module}")
    return next(c for c in mod.CLAIMS if c.id == claim_id)


def tb_in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """``in:thm:cottreestrahler[/variant]`` of eq:gatingTBstrahlertree: layer 4's gate on the fold's ``M̂``, ``ĉ``."""
    opts: dict[str, Any] = dict(
        target=TB_TARGET, gates=TB_GATE, hyps=(*TB_HYPS, integral("M̂ ∈ ℤ", "M"), integral("ĉ ∈ ℤ", "c")),
        construction_variant=variant,
        notes=["layer 4: the units flg1, M, c with the pre-activations W_1^(4) writes (flg1 kept; M̂, ĉ the fold "
               "of eq:strahM, eq:strahc), read after the ReLU"])
    opts.update(changes)
    return InUseCheck("eq:gatingTBstrahlertree", _claim("thm_cottreestrahler", "thm:cottreestrahler"), **opts)


def par_in_use(claim: str, variant: str = "as-written", **changes: Any) -> InUseCheck:
    """``in:<claim>[/variant]`` of thm:cotdfs:pargate: ``W_2^{(2)}`` on the hidden vector ``β`` of the DFS layer 2."""
    module = {"thm:cotdfs": "thm_cotdfs", "thm:cotdfs:phi": "thm_cotdfs_phi",
              "thm:cottreestrahler": "thm_cottreestrahler"}[claim]
    opts: dict[str, Any] = dict(
        target=PAR_TARGET, gates=PAR_GATE, hyps=PAR_HYPS, dims={n: 1}, construction_variant=variant,
        notes=["layer 2: β = ReLU(W_1^(2)(α'' + y_t^(1))), the hidden vector the bilinear W_2^(2) reads"])
    opts.update(changes)
    return InUseCheck("thm:cotdfs:pargate", _claim(module, claim), **opts)


CLAIMS = [
    Claim(id="eq:gatingTBstrahlertree", kind="equation",
          statement="W_2^(4) gates (M, c) by 1 - flg1: committed on a backtrack (flg1 = 0), (0, 0) on a traverse.",
          where="Appendix \"Realizing str\" (app:cotstr), proof of thm:cottreestrahler, fourth layer",
          checks=[LemmaCheck(gating_tb), tb_in_use("as-written"), tb_in_use("repaired")], default_max_size=1),
    Claim(id="thm:cotdfs:pargate", kind="sentence",
          statement="W_2^(2) of the DFS decoder sets π_par to π_flg1 π_buf + (1 - π_flg1) π_par: buf on a "
                    "traverse, par otherwise.",
          where="Appendix \"DFS\" (app:cotdfs), proof of thm:cotdfs, last paragraph (no label; id ours)",
          checks=[LemmaCheck(par_gate), par_in_use("thm:cotdfs"), par_in_use("thm:cotdfs:phi"),
                  par_in_use("thm:cottreestrahler"), par_in_use("thm:cottreestrahler", "repaired")],
          default_max_size=16),
]
