r"""sec:ffnn_boolean -- Boolean functions by one FFN: the connectives, and any ``φ`` through its full DNF.

Claimed (draft 582e0e1, ch. 3), with ``true = 1``, ``false = 0``: ``∧`` is ``min``, ``∨`` is ``max`` and ``¬x`` is
``1 - x``; and for any ``φ : {0,1}^n → {0,1}``, the FFN with ``2^n`` hidden units
``h_ξ = ReLU(λ_{1,ξ_1} + ⋯ + λ_{n,ξ_1} - n + 1)`` (``λ_{i,1} = x_i``, ``λ_{i,0} = 1 - x_i``) and output
``y = Σ_{ξ : φ(ξ) = 1} h_ξ`` computes ``φ`` (one unit per clause of the full DNF, at most one clause true, so
the disjunction is a sum). Weights: :func:`.recipes.dnf`, :func:`.recipes.minimum`, :func:`.recipes.maximum`,
:func:`.recipes.negation`.

``sec:ffnn_boolean`` (the DNF network): the truth table ``φ`` is an input block of ``2^n`` entries in
``{0, 1}`` carried to ``W_2`` (see :mod:`.recipes`), so one proof covers every ``φ`` at a given ``n`` (all
``2^(2^n)`` of them). The output sums over ``2^n`` units each of which sums over all ``n`` inputs (two nested
sums over blocks of symbolic size), which neither the index-function encoding nor the induction of
:mod:`symcot.lemmas.induction` reads: each variant is checked for every ``n`` from 1 up to the sweep's bound
(``verified``). The units alone are proved for every ``n`` (``sec:ffnn_boolean:clauses``, below). Variants:

- ``as-written``: the printed index ``ξ_1`` in every ``λ_{i,ξ_1}`` (the first and last printed terms both read
  ``ξ_1``). Refuted at ``n = 2``: the units become ``[x = 11]`` (``ξ_1 = 1``) and ``[x = 00]`` (``ξ_1 = 0``), so
  e.g. XOR comes out as XNOR. (Reading only the last term as a typo, ``λ_{n,ξ_1}`` after ``λ_{i,ξ_i}`` for
  ``i < n``, is the same network at ``n = 2``.)
- ``repaired``: ``λ_{i,ξ_i}``.
- ``true-geq-1``: the repaired network under the representation of sec:booleans, which the section cites
  ("see sec:booleans"): ``false = 0``, ``true ≥ 1``; checked on the inputs where ``φ`` is false (its output must
  then be ``0`` exactly, the only representation of false).

``sec:ffnn_boolean:clauses`` (the display's "conjunctions" line): the units alone, ``h_ξ = [x = ξ]`` on
``{0,1}^n``, as printed (refuted at ``n = 2``) and repaired: checked up to ``n = 8`` (a sweep is cheap: no truth
table), then proved for every ``n`` by induction on the unit's sums over its inputs (:data:`CLAUSE`: the clause
as a fold over the inputs, counting the false literals; the unit ``ξ`` at a symbolic index, its bits an
uninterpreted 0/1 function, so the proof holds for every assignment of bits). Since ``W_2`` is linear in its
weights ``φ(ξ)``, ``y = Σ_ξ φ(ξ) h_ξ = φ(x)`` for every ``φ`` exactly when ``h_ξ = [x = ξ]`` for every ``ξ``
(exactly one ``ξ < 2^n`` has the bits of ``x``): with the units proved for every ``n``, the repaired DNF network
is correct for every ``φ`` and every ``n`` by that step, which is argued here and not machine-checked; its own
check (with ``φ`` an input) reaches ``n = 3`` before Z3 slows down (``n = 4`` is undecided within 10 s).

``sec:ffnn_boolean:and-or``: ``min`` and ``max`` (the networks of sec:ffnn_minmax) on ``{0,1}^2`` are ``∧`` and
``∨``. ``sec:ffnn_boolean:not``: ``¬x = 1 - x`` (as an FFN: ``1 - ReLU(x) + ReLU(-x)``) on ``{0, 1}``
(``as-written``); on ``false = 0``, ``true ≥ 1`` (``true-geq-1``, the sec:booleans representation), where
``1 - 2 = -1`` is not a truth value; and its repair ``ReLU(1 - x)`` (``true-geq-1-relu``).
"""

from __future__ import annotations

from typing import Any

from symcot.claims import Claim, as_written, reading, repair
from symcot.gadgets.base import hidden_units, merge_units
from symcot.ir import Layout, Map
from symcot.lemmas import Gate, Lemma, LemmaCheck, each, whole
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.induction import Fold, Induction

from .recipes import bit, conjunctions, dnf, maximum, minimum, n, negation, notes, where

WHERE = where("Boolean Functions", "sec:ffnn_boolean")

# -- the full-DNF network ---------------------------------------------------------------------------------

DNF_LAYOUT = Layout("dnf.in", [("x", n), ("phi", 2**n)])
BIT = each("x_i ∈ {0, 1}", "x", lambda v, K: K.Or(v == 0, v == 1))
TABLE = each("φ(ξ) ∈ {0, 1}", "phi", lambda v, K: K.Or(v == 0, v == 1))
TRUE_GEQ_1 = each("x_i = 0 or x_i ≥ 1", "x", lambda v, K: K.Or(v == 0, v >= 1))


def _index(x: Any, K: Any, truth: Any = None) -> Any:
    """``Σ_i t(x_i) 2^i``: the truth table's entry for the input (``t`` reads a coordinate's truth value)."""
    return K.sum((v if truth is None else truth(v, K)) * 2**k for k, v in enumerate(x.vec("x")))


def _truth(v: Any, K: Any) -> Any:
    return K.ite(v >= 1, 1, 0)


TARGET = {"y": lambda x, i, K: x.phi(_index(x, K))}


def _dnf(printed: bool, target: dict, hyps: tuple) -> Lemma:
    v = DNF_LAYOUT.vars()
    w1, w2 = gadget_maps(dnf(v.x, v.phi, n, printed=printed), DNF_LAYOUT, "dnf")
    return Lemma("sec:ffnn_boolean", DNF_LAYOUT, w2, dict(target), w1=w1, hyps=hyps, dims={n: 1})


def dnf_as_printed() -> Lemma:
    """The printed units ``ReLU(Σ_i λ_{i,ξ_1} - n + 1)``, every ``φ``, ``x ∈ {0,1}^n``."""
    return _dnf(True, TARGET, (BIT, TABLE))


def dnf_repaired() -> Lemma:
    """``ReLU(Σ_i λ_{i,ξ_i} - n + 1)``, every ``φ``, ``x ∈ {0,1}^n``."""
    return _dnf(False, TARGET, (BIT, TABLE))


def dnf_true_geq_1() -> Lemma:
    """The repaired network with ``true ≥ 1``, on the inputs where ``φ`` is false (output must be ``0``)."""
    false = whole("φ(x) is false", lambda x, K: x.phi(_index(x, K, _truth)) == 0)
    return _dnf(False, {"y": lambda x, i, K: 0}, (TRUE_GEQ_1, TABLE, false))


def _no_mismatch(x: Any, i: Any, K: Any) -> tuple[Any, Any]:
    """Before any input: ``(1, 0)``, the unit's clause so far holds and no literal is false."""
    return 1, 0


def _literal(st: tuple[Any, Any], k: Any, x: Any, i: Any, K: Any) -> tuple[Any, Any]:
    """Input ``x_{k+1}`` against ``ξ_{k+1}`` (bit ``k`` of ``ξ = i``): the clause so far, and the false literals."""
    match, wrong = st
    same = x.x(k) == bit(i, k)
    return K.ite(same, match, 0), wrong + K.ite(same, 0, 1)


def _clause_out(st: tuple[Any, Any], x: Any, i: Any, K: Any) -> Any:
    return st[0]


def _clause_inv(S: Any, F: Any, st: tuple[Any, Any], k: Any, x: Any, i: Any, K: Any) -> Any:
    """After ``k`` inputs the unit's two partial sums (signs·x, bias) add to ``k`` minus the false literals."""
    signs, ones = S
    match, wrong = st
    return K.And(signs + ones == k - wrong, K.Or(wrong == 0, wrong >= 1), match == K.ite(wrong == 0, 1, 0))


#: ``[x = ξ]`` for the unit ``ξ = i`` (bit ``k`` of ``i`` is ``ξ_{k+1}``), as a fold over the inputs: the target of
#: the units alone, and of the proof for every ``n`` (the units read all ``n`` inputs: induction on that sum).
CLAUSE = Fold(lambda x: x.size("x"), _no_mismatch, _literal, _clause_out, _clause_inv,
              "the clause [x = ξ], one input a step")


def clauses(printed: bool = False) -> Lemma:
    """The units alone (``W_2 = I``): ``h_ξ = [x = ξ]`` on ``x ∈ {0,1}^n`` (repaired indices unless ``printed``)."""
    lay = Layout("clauses.in", [("x", n)])
    w1, w2 = gadget_maps(conjunctions(lay.vars().x, n, printed=printed), lay, "clauses")
    return Lemma("sec:ffnn_boolean:clauses", lay, w2, {"h": CLAUSE.row}, w1=w1, hyps=(BIT,), dims={n: 1},
                 induction=Induction("h", CLAUSE))


# -- the connectives ----------------------------------------------------------------------------------------

PAIR = Layout("andor.in", [("a", 1), ("b", 1)])
PAIR_GATES = (Gate("a", (0, 1), "a ∈ {0, 1}"), Gate("b", (0, 1), "b ∈ {0, 1}"))


def and_or() -> Lemma:
    """``min`` and ``max`` (sec:ffnn_minmax's networks) on ``{0,1}^2`` against ``a ∧ b`` and ``a ∨ b``."""
    v = PAIR.vars()
    lo = minimum(v.a, v.b, units={"diff": "diff_min"}, writes={"min": "and"})
    hi = maximum(v.a, v.b, units={"diff": "diff_max"}, writes={"max": "or"})
    hid = Layout("andor.hidden", hidden_units(lo, hi))
    w1 = Map("W_1", PAIR, hid, merge_units(lo, hi), max_degree=1, doc="the min and max diagrams")
    out = Layout("andor.out", [("and", 1), ("or", 1)])
    w2 = Map("W_2", hid, out, {**lo.w2(hid.vars()), **hi.w2(hid.vars())}, max_degree=1, doc="min, max")
    target = {"and": lambda x, i, K: K.ite(K.And(x.a() == 1, x.b() == 1), 1, 0),
              "or": lambda x, i, K: K.ite(K.Or(x.a() == 1, x.b() == 1), 1, 0)}
    return Lemma("sec:ffnn_boolean:and-or", PAIR, w2, target, w1=w1, gates=PAIR_GATES)


ONE = Layout("not.in", [("x", 1)])
NOT = {"not": lambda x, i, K: K.ite(x.x() == 0, 1, 0)}


def _not(rectified: bool, gates: tuple, hyps: tuple) -> Lemma:
    w1, w2 = gadget_maps(negation(ONE.vars().x, rectified=rectified), ONE, "not")
    return Lemma("sec:ffnn_boolean:not", ONE, w2, dict(NOT), w1=w1, gates=gates, hyps=hyps)


def not_as_printed() -> Lemma:
    """``1 - x`` on ``x ∈ {0, 1}``."""
    return _not(False, (Gate("x", (0, 1), "x ∈ {0, 1}"),), ())


def not_true_geq_1() -> Lemma:
    """``1 - x`` on ``x = 0`` or ``x ≥ 1`` (sec:booleans: ``false = 0``, ``true ≥ 1``)."""
    return _not(False, (), (each("x = 0 or x ≥ 1", "x", lambda v, K: K.Or(v == 0, v >= 1)),))


def not_true_geq_1_relu() -> Lemma:
    """``ReLU(1 - x)`` on ``x = 0`` or ``x ≥ 1``."""
    return _not(True, (), (each("x = 0 or x ≥ 1", "x", lambda v, K: K.Or(v == 0, v >= 1)),))


SWEEP = ("n = 1 … max size only: the output sums over 2^n units, each a sum over all n inputs (nested sums), so "
         "there is no all-n proof of this row; every φ at each n (its truth table an input)")

CLAUSES = ("the units alone (W_2 = I), n = 1 … max size, then every n by induction on each unit's sum over its "
           "inputs (the clause as a fold over the inputs)")

CLAIMS = [
    Claim(id="sec:ffnn_boolean", kind="section",
          statement="For any φ: {0,1}^n → {0,1}, the FFN with units h_ξ = ReLU(λ_{1,ξ_1} + ⋯ + λ_{n,ξ_1} - n + 1) "
                    "and y = Σ_{φ(ξ)=1} h_ξ computes φ (true = 1, false = 0).",
          where=WHERE + ", the full-DNF construction",
          checks=[
              LemmaCheck(dnf_as_printed, notes=notes(SWEEP, "λ_{i,ξ_1} in every term, as printed")),
              LemmaCheck(dnf_repaired, variant="repaired", notes=notes(SWEEP, "λ_{i,ξ_i}: the index of the i-th "
                                                                              "literal is ξ_i")),
              LemmaCheck(dnf_true_geq_1, variant="true-geq-1",
                         notes=notes(SWEEP, "the repaired network, inputs false = 0 or true ≥ 1 (sec:booleans), on "
                                            "the inputs where φ is false: the output must be 0")),
          ],
          default_max_size=3,
          readings={
              "as-written": as_written("λ_{i,ξ_1} for every i (the printed first and last terms), true = 1, "
                                       "false = 0, every φ"),
              "repaired": repair("λ_{i,ξ_i}: the i-th literal reads ξ_i (h_ξ = 1 exactly at x = ξ)"),
              "true-geq-1": reading("the repaired network with the sec:booleans representation false = 0, "
                                    "true ≥ 1 (cited by the section), where φ is false"),
          }),
    Claim(id="sec:ffnn_boolean:clauses", kind="equation",
          statement="The units h_ξ = ReLU(λ_{1,ξ_1} + ⋯ + λ_{n,ξ_1} - n + 1) are the clause indicators [x = ξ] on "
                    "{0,1}^n, so y = Σ_{φ(ξ)=1} h_ξ = φ(x) for every φ (id ours).",
          where=WHERE + ", the line 'conjunctions' of the display (id ours)",
          checks=[
              LemmaCheck(lambda: clauses(True), notes=notes(CLAUSES, "λ_{i,ξ_1} in every term, as printed")),
              LemmaCheck(clauses, variant="repaired", notes=notes(
                  CLAUSES, "λ_{i,ξ_i}; with the printed W_2 (the units with φ(ξ) = 1 summed) this gives "
                           "sec:ffnn_boolean's repaired variant for every φ at every n checked here, W_2 being "
                           "linear in its weights φ(ξ)")),
          ],
          default_max_size=8,
          readings={"as-written": as_written("the printed units (λ_{i,ξ_1}), x ∈ {0,1}^n, W_2 = I"),
                    "repaired": repair("λ_{i,ξ_i}: the i-th literal reads ξ_i")}),
    Claim(id="sec:ffnn_boolean:and-or", kind="sentence",
          statement="Conjunction is min and disjunction is max on {0,1}, computed by the networks of sec:ffnn_minmax.",
          where=WHERE + ", second paragraph (id ours)",
          checks=[LemmaCheck(and_or, notes=notes("a, b ∈ {0, 1} enumerated"))], default_max_size=1,
          readings={"as-written": as_written("a, b ∈ {0, 1}; min and max by the diagrams of sec:ffnn_minmax")}),
    Claim(id="sec:ffnn_boolean:not", kind="sentence",
          statement="Logical negation is 1 - x.",
          where=WHERE + ", second paragraph (id ours)",
          checks=[
              LemmaCheck(not_as_printed, notes=notes("x ∈ {0, 1}; 1 - x as the FFN 1 - ReLU(x) + ReLU(-x)")),
              LemmaCheck(not_true_geq_1, variant="true-geq-1",
                         notes=notes("x = 0 or x ≥ 1 (sec:booleans): 1 - x maps true = 2 to -1, not a truth value")),
              LemmaCheck(not_true_geq_1_relu, variant="true-geq-1-relu",
                         notes=notes("ReLU(1 - x) maps every x ≥ 1 to 0 and 0 to 1")),
          ],
          default_max_size=1,
          readings={
              "as-written": as_written("x ∈ {0, 1} (true = 1, false = 0), ¬x = 1 - x"),
              "true-geq-1": reading("x ∈ {0} ∪ [1, ∞) (sec:booleans: true ≥ 1), ¬x = 1 - x"),
              "true-geq-1-relu": repair("¬x = ReLU(1 - x) (one unit), for the true ≥ 1 representation"),
          }),
]
