"""Mutants: one compiled coefficient (Mutant) or one coefficient of the symbolic statement (SymbolicMutant)."""

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from symcot.constructions.mutant import Mutant, SymbolicMutant, inert, operators, sites, symbolic_mutants
from symcot.errors import SymcotError
from symcot.gadgets.audit import audit
from symcot.inputs import Digraph
from symcot.ir import lam, n


def _site(cons, sid):
    return next(s for s in sites(cons.decoder) if s.id == sid)


def test_mutant_takes_keyword_arguments():
    m = Mutant(DfsConstruction(), layer=2, map="W_2", output=("par", 0), monomial=[("flg1", 0), ("buf", 0)], value=0,
               variant="no-gate")
    dec = m.concrete((Digraph.from_arcs(2, [(0, 1)]), 0))
    w2 = dec.get_map(2, "W_2")
    par0, flg1, buf0 = w2.dst.offsets["par"], w2.src.offsets["flg1"], w2.src.offsets["buf"]
    assert w2.coefficient(par0, flg1, buf0) == 0 and m.variant == "no-gate"


def test_keywords_give_the_same_mutant_as_positions():
    a = Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0)
    b = Mutant(DfsConstruction(), layer=2, map="W_2", output=("par", 0), monomial=[("flg1", 0), ("buf", 0)], value=0)
    inp = (Digraph.from_arcs(2, [(0, 1)]), 0)
    assert a.notes == b.notes
    wa, wb = a.concrete(inp).get_map(2, "W_2"), b.concrete(inp).get_map(2, "W_2")
    assert wa.dense() == wb.dense() and wa.dense() != DfsConstruction().concrete(inp).get_map(2, "W_2").dense()


def test_a_missing_argument_says_what_is_needed():
    with pytest.raises(TypeError, match="Mutant needs output, monomial, value"):
        Mutant(DfsConstruction(), layer=2, map="W_2")


def test_every_coefficient_of_the_statement_is_a_site_with_a_unique_address():
    ss = sites(DfsConstruction().decoder)
    assert len({s.id for s in ss}) == len(ss) == 80
    assert {s.map for s in ss} >= {"W_1", "W_2", "Q_T", "K_T", "V_T", "Q_B", "K_B", "V_B", "W_O"}
    s = _site(DfsConstruction(), "2/W_O/cur/0:c")
    assert s.text() == "layer 2 W_O → cur: coefficient -1 of π_T.cur"


def test_operators_mutate_a_coefficient_in_n_or_lambda_as_a_function_of_them():
    assert [(k, v) for k, v in operators(1)] == [("0", 0), ("+1", 2), ("neg", -1)]
    assert [k for k, _ in operators(lam)] == ["0", "+1", "-1", "neg"]
    half = dict(operators(lam / 2))
    assert half["λ+1"] == (lam + 1) / 2 and half["λ-1"] == (lam - 1) / 2
    assert sp.expand(dict(operators(2 * n - 1))["n+1"] - (2 * n + 1)) == 0
    assert all(v != 0 for _, v in operators(0))  # 0 has no "0" and no "neg"


def test_the_symbolic_coefficients_of_the_constructions_are_found():
    symbolic = [s.id for s in sites(DijkstraConstruction("repaired").decoder) if s.symbolic]
    assert len(symbolic) == 3 and all(s.split("/")[1] in ("Q_S", "W_1") for s in symbolic)
    strahler = [s for s in sites(StrahlerPathConstruction("repaired").decoder) if s.symbolic]
    assert {str(s.coeff.value) for s in strahler} == {"lambda", "lambda/2", "-lambda/2"}


@pytest.mark.parametrize("size", [2, 3])
def test_a_symbolic_mutant_changes_one_block_of_one_map_at_every_size(size):
    base = DfsConstruction()
    m = SymbolicMutant(base, _site(base, "2/W_2/par/1.a.1:c"), 0)  # (1 - π_flg1) π_par → (1 - 0) π_par
    inp = (Digraph.from_arcs(size, [(0, 1)]), 0)
    a, b = base.concrete(inp), m.concrete(inp)
    differ = [(k, lbl) for k in (1, 2) for lbl, _ in base.decoder.maps_of(k)
              if (a.get_map(k, lbl).lin, a.get_map(k, lbl).quad) != (b.get_map(k, lbl).lin, b.get_map(k, lbl).quad)]
    assert differ == [(2, "W_2")]
    gone = {t[:3] for t in a.get_map(2, "W_2").quad} - {t[:3] for t in b.get_map(2, "W_2").quad}
    par, flg1 = a.layout.slice("par"), a.layout.offsets["flg1"]
    assert gone == {(r, *sorted((r, flg1))) for r in range(par.start, par.stop)}  # every par row's flg1·par
    assert m.prompt(inp).tokens == base.prompt(inp).tokens and m.encoding is base.encoding


def test_a_symbolic_mutant_that_changes_nothing_is_refused():
    base = DfsConstruction()
    with pytest.raises(SymcotError, match="changes nothing"):
        SymbolicMutant(base, _site(base, "2/W_O/cur/0:c"), -1)


def test_the_gadget_audit_is_told_which_rows_a_mutant_changes_on_purpose():
    base = DfsConstruction()
    m = SymbolicMutant(base, _site(base, "1/W_1/flg2/1:const"), 0)  # γ - 1 → γ in the flag gadget's second unit
    cdec = m.concrete((Digraph.from_arcs(3, [(0, 1)]), 0))
    found = audit(m.decoder, cdec)
    assert [(f.layer, f.map, f.coordinate) for f in found] == [(1, "W_1", "flg2")]
    assert audit(m.decoder, cdec, deliberate=m.deliberate()) == []
    other = SymbolicMutant(base, _site(base, "2/W_O/cur/0:c"), 0)  # outside every gadget: nothing to report
    assert audit(other.decoder, other.concrete((Digraph.from_arcs(3, [(0, 1)]), 0))) == []


def test_blocks_no_map_reads_and_terms_of_zero_blocks_are_inert_at_every_size():
    dec = DfsConstruction().decoder
    assert "does not read block vis of head T" in inert(dec, _site(DfsConstruction(), "2/V_T/vis/:implicit"))
    assert inert(dec, _site(DfsConstruction(), "2/V_T/cur/:implicit")) is None
    assert inert(dec, _site(DfsConstruction(), "1/W_1/flg1/:implicit")) is None
    # W_2^(2) keeps tmp, which W_1^(2) sets to zero: that term is always 0
    assert inert(dec, _site(DfsConstruction(), "2/W_2/tmp/:implicit")) == (
        "the term reads only tmp, set to zero by W_1 of layer 2")
    p2t = PathToTreeConstruction()
    assert inert(p2t.decoder, _site(p2t, "1/W_O/cur/0:implicit")) == (
        "the term reads only U.cur, set to zero by V_U of layer 1")
    assert inert(p2t.decoder, _site(p2t, "1/W_O/stp/0:implicit")) is None  # V_U copies stp


def test_every_mutant_of_a_construction_has_its_own_id_and_text():
    ms = symbolic_mutants(DfsConstruction())
    assert len({m.id for m in ms}) == len(ms) == 240
    m = next(m for m in ms if m.id == "2/W_O/par/1:c=0")
    assert m.text() == "layer 2 W_O → par: coefficient -1 of π_B.par set to 0 (0)"
    assert m.with_lambda(3).site == m.site
