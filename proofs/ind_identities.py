r"""The two indicator identities in the proof of thm:cottreestrahler (Appendix "Realizing str").

Claimed, for the third layer of the Strahler decoder ("The activation reads off indicators through the
integer identities")::

    1[v = 0] = relu(v + 1) - 2 relu(v) + relu(v - 1)
    1[v > 0] = relu(v) - relu(v - 1)

The paper gives them no label; our ids are ``thm:cottreestrahler:ind0`` and
``thm:cottreestrahler:indpos``. Each is an FFN: ``W_1`` writes the shifted copies of ``v`` (the shifts are
the map's constants), ``W_2`` the signed sum. The domain is ``v ∈ ℤ`` ("integer identities"), a named
hypothesis, so the unsat core shows the identities need it; the relaxation "v real" is refuted.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import Layout, Map
from symcot.lemmas import Lemma, LemmaCheck, Relaxation, integral

INT = integral("v ∈ ℤ", "v")
REAL = Relaxation("v real (integrality dropped)", drop=("v ∈ ℤ",))


def ind0() -> Lemma:
    """``1[v = 0] = relu(v+1) - 2 relu(v) + relu(v-1)`` for integer ``v``."""
    L = Layout("ind.in", [("v", 1)])
    Hd = Layout("ind0.hidden", [("vp1", 1), ("v0", 1), ("vm1", 1)])
    Out = Layout("ind0.out", [("ind", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {"vp1": x.v + 1, "v0": x.v, "vm1": x.v - 1}, max_degree=1, doc="v+1, v, v-1")
    w2 = Map("W_2", Hd, Out, {"ind": z.vp1 - 2 * z.v0 + z.vm1}, max_degree=1, doc="[1, -2, 1]")
    return Lemma("thm:cottreestrahler:ind0", L, w2, {"ind": lambda x, i, K: K.ite(x.v() == 0, 1, 0)}, w1=w1,
                 hyps=(INT,), relaxations=(REAL,))


def indpos() -> Lemma:
    """``1[v > 0] = relu(v) - relu(v-1)`` for integer ``v``."""
    L = Layout("ind.in", [("v", 1)])
    Hd = Layout("indpos.hidden", [("v0", 1), ("vm1", 1)])
    Out = Layout("indpos.out", [("ind", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {"v0": x.v, "vm1": x.v - 1}, max_degree=1, doc="v, v-1")
    w2 = Map("W_2", Hd, Out, {"ind": z.v0 - z.vm1}, max_degree=1, doc="[1, -1]")
    return Lemma("thm:cottreestrahler:indpos", L, w2, {"ind": lambda x, i, K: K.ite(x.v() > 0, 1, 0)}, w1=w1,
                 hyps=(INT,), relaxations=(REAL,))


WHERE = "Appendix \"Realizing str\" (app:cotstr), proof of thm:cottreestrahler, third layer (no label; id ours)"

CLAIMS = [
    Claim(id="thm:cottreestrahler:ind0", kind="equation",
          statement="1[v=0] = relu(v+1) - 2relu(v) + relu(v-1) for integer v.", where=WHERE,
          checks=[LemmaCheck(ind0)], default_max_size=1),
    Claim(id="thm:cottreestrahler:indpos", kind="equation",
          statement="1[v>0] = relu(v) - relu(v-1) for integer v.", where=WHERE,
          checks=[LemmaCheck(indpos)], default_max_size=1),
]
