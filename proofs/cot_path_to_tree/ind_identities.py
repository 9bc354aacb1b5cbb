r"""The two indicator identities in the proof of thm:cottreestrahler (Appendix "Realizing str").

Claimed, for the third layer of the Strahler decoder ("The activation reads off indicators through the
integer identities")::

    1[v = 0] = relu(v + 1) - 2 relu(v) + relu(v - 1)
    1[v > 0] = relu(v) - relu(v - 1)

The paper gives them no label; our ids are ``thm:cottreestrahler:ind0`` and
``thm:cottreestrahler:indpos``. Each is an FFN: ``W_1`` writes the shifted copies of ``v`` (the shifts are
the map's constants), ``W_2`` the signed sum -- the gadgets :func:`symcot.gadgets.ind_zero_at` and
:func:`symcot.gadgets.ind_pos_at`. The domain is ``v ∈ ℤ`` ("integer identities"), a named hypothesis,
so the unsat core shows the identities need it; the relaxation "v real" is refuted.

Where they are used (rows ``in:<claim>``): the third layers of thm:cottreestrahler and of
thm:cotpathstrahler's completion (``1[D = 0]``, ``1[D > 0]``, ``1[D < 0] = 1[-D > 0]``, ``1[c_u > 0]``,
``1[c_u = 0] = 1[-c_u = 0]``), and the DFS flag ``ReLU(γ) - ReLU(γ - 1) = 1[γ > 0]`` of thm:cotdfs's first
layer (in thm:cotdfs, thm:cotdfs:phi and thm:cottreestrahler). Where a layer reads units an earlier layer
wrote (tree Strahler's ``tmp_{D+1}, tmp_D, tmp_{D-1}``; ``tmp_{c_buf-1} = ReLU(c_u - 1)``), the in-use
lemma's inputs are those units and the hypotheses ``vp1 = v + 1``, ``vm1 = v - 1`` (or
``vm1 = max(v - 1, 0)``) state what they carry; the replay checks it at every step.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets import ind_pos_at, ind_zero_at
from symcot.claims import Claim
from symcot.ir import Layout
from symcot.lemmas import Hyp, Lemma, LemmaCheck, Relaxation, each, integral, whole
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck

INT = integral("v ∈ ℤ", "v")
REAL = Relaxation("v real (integrality dropped)", drop=("v ∈ ℤ",))
ZERO = {"ind": lambda x, i, K: K.ite(x.v() == 0, 1, 0)}
POSITIVE = {"ind": lambda x, i, K: K.ite(x.v() > 0, 1, 0)}


def _lemma(g: Any, claim_id: str, target: dict, name: str) -> Lemma:
    L = Layout("ind.in", [("v", 1)])
    w1, w2 = gadget_maps(g(L.vars().v), L, name)
    return Lemma(claim_id, L, w2, target, w1=w1, hyps=(INT,), relaxations=(REAL,))


def ind0() -> Lemma:
    """``1[v = 0] = relu(v+1) - 2 relu(v) + relu(v-1)`` for integer ``v`` (:func:`symcot.gadgets.ind_zero_at`)."""
    return _lemma(lambda v: ind_zero_at(v, 1, units={"v": "v0"}), "thm:cottreestrahler:ind0", ZERO, "ind0")


def indpos() -> Lemma:
    """``1[v > 0] = relu(v) - relu(v-1)`` for integer ``v`` (:func:`symcot.gadgets.ind_pos_at`)."""
    return _lemma(lambda v: ind_pos_at(v, 1, units={"v": "v0"}), "thm:cottreestrahler:indpos", POSITIVE, "indpos")


# -- where the decoders use them ------------------------------------------------------------------------

ONE = each("one = 1 (π_flg3, π_flg)", "one", lambda v, K: v == 1)
#: The units a caller hands the plain forms carry the shifted copies (kept from an earlier layer).
UNITS_ZERO = (whole("vp1 = v + 1", lambda x, K: x.vp1() == x.v() + 1),
              whole("vm1 = v - 1", lambda x, K: x.vm1() == x.v() - 1))
UNIT_DOWN = whole("vm1 = v - 1", lambda x, K: x.vm1() == x.v() - 1)
#: tmp_{c_buf-1} holds ReLU(c_u - 1) (layer 2 rectified it), not c_u - 1: the identity needs only ReLU of it.
UNIT_RELU_DOWN = whole("vm1 = max(v - 1, 0)", lambda x, K: x.vm1() == K.max(x.v() - 1, 0))
C_U = (each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 2", "v", lambda v, K: v <= 2))
MINUS_C_U = (each("v ≥ -2", "v", lambda v, K: v >= -2), each("v ≤ 0", "v", lambda v, K: v <= 0))


def _writes(g: Any) -> str:
    return next(iter(g.written().values()), "")


def use_hyps(g: Any) -> tuple[Hyp, ...]:
    """What each use feeds: ``v ∈ ℤ`` and the ranges and unit contents of that use (by the block it writes)."""
    out: tuple[Hyp, ...] = (INT,) + ((ONE,) if "one" in g.inputs else ())
    c_u = _writes(g) in ("tmp_cbuf", "tmp_c_buf", "tmp_cbuf-1", "tmp_c_buf-1")
    if g.kind == "ind_zero":
        out += UNITS_ZERO
    elif g.kind == "ind_pos":
        out += (UNIT_RELU_DOWN,) + C_U if c_u else (UNIT_DOWN,)
    elif g.kind == "ind_zero_at" and c_u:
        out += MINUS_C_U
    elif g.kind == "ind_pos_at" and _writes(g) == "flg1":
        out += (each("v ≥ 0 (γ counts unvisited neighbours)", "v", lambda v, K: v >= 0),)
    return out


def _use(label: str, target: dict, claim: Any, variant: str, **changes: Any) -> InUseCheck:
    opts: dict[str, Any] = dict(target=target, hyps=use_hyps, construction_variant=variant,
                                notes=["each use's v as its layer computes it: D = str(v) - M_u, -D, c_u, -c_u (the "
                                       "1s from π_flg3 / π_flg), the DFS γ = (1 - π_vis)ᵀ π_nbr; the plain forms "
                                       "read units kept from layer 2, whose contents are hypotheses"])
    opts.update(changes)
    return InUseCheck(label, claim, **opts)


def _claim(module: str, claim_id: str) -> Any:
    import importlib

    mod = importlib.import_module(f"{__package__}.{module}")
    return next(c for c in getattr(mod, "CLAIMS", [getattr(mod, "CLAIM", None)]) if c is not None and c.id == claim_id)


def in_use_zero(claim: str, variant: str = "as-written", **changes: Any) -> InUseCheck:
    """``in:<claim>[/variant]`` of thm:cottreestrahler:ind0 (``claim``: the Strahler theorems)."""
    return _use("thm:cottreestrahler:ind0", ZERO, _claim(USES[claim], claim), variant, **changes)


def in_use_positive(claim: str, variant: str = "as-written", **changes: Any) -> InUseCheck:
    """``in:<claim>[/variant]`` of thm:cottreestrahler:indpos (the Strahler theorems and the DFS flag)."""
    return _use("thm:cottreestrahler:indpos", POSITIVE, _claim(USES[claim], claim), variant, **changes)


#: The claim modules of the decoders that use the indicators.
USES = {"thm:cottreestrahler": "thm_cottreestrahler", "thm:cotpathstrahler": "thm_cotpathstrahler",
        "thm:cotdfs": "thm_cotdfs", "thm:cotdfs:phi": "thm_cotdfs_phi"}


WHERE = "Appendix \"Realizing str\" (app:cotstr), proof of thm:cottreestrahler, third layer (no label; id ours)"

CLAIMS = [
    Claim(id="thm:cottreestrahler:ind0", kind="equation",
          statement="1[v=0] = relu(v+1) - 2relu(v) + relu(v-1) for integer v.", where=WHERE,
          checks=[LemmaCheck(ind0),
                  *[in_use_zero(c, v) for c in ("thm:cottreestrahler", "thm:cotpathstrahler")
                    for v in ("as-written", "repaired")]],
          default_max_size=1),
    Claim(id="thm:cottreestrahler:indpos", kind="equation",
          statement="1[v>0] = relu(v) - relu(v-1) for integer v.", where=WHERE,
          checks=[LemmaCheck(indpos), in_use_positive("thm:cotdfs"), in_use_positive("thm:cotdfs:phi"),
                  *[in_use_positive(c, v) for c in ("thm:cottreestrahler", "thm:cotpathstrahler")
                    for v in ("as-written", "repaired")]],
          default_max_size=1),
]
