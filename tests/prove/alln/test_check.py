"""AllNCheck rows: proved with scope all n, unknown with the reason, never proved without a proof."""

import dataclasses
import importlib

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.context import RunContext
from symcot.ir import n
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.context import Obligation
from symcot.prove.alln.prover import AllNResult


def test_no_statement_is_unknown_with_the_reason():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")
    chk = AllNCheck(lambda: WidthTreeConstruction("repaired", v_max=n + 1), m.SPEC, m.TREE_FAMILIES)
    row = chk.run(RunContext("x", 4))  # it passes every input to size 4 (nothing to refute); its V_max has no statement
    assert row.verdict == "unknown" and "no all-n statement" in row.notes[-1]
    assert row.scope == "nothing established for all n" and row.details == {"obligations": []}


def test_a_statement_false_on_a_concrete_run_is_refuted_where_the_decoder_departs():
    """Tree Strahler as written: its statement fails at head B (step 2), and replay finds the decoder departing."""
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cottreestrahler")
    row = AllNCheck(lambda: StrahlerTreeConstruction("as-written"), m.SPEC, [m.TREES], concrete_size=3,
                    facts_size=2).run(RunContext("thm:cottreestrahler", 3))
    assert row.verdict == "refuted" and row.method.startswith("all-n row refuted by exact replay")
    assert any("false on a concrete run" in x and "head B" in x for x in row.notes)
    assert row.details["concrete_failure"]["step"] == 2 and row.details["obligations"] == []
    c = row.counterexample
    assert (c["size"], c["step"], c["layer"], c["block"]) == (2, 3, 2, "c_buf")  # the default run's counterexample


def test_a_false_statement_of_a_right_decoder_is_unknown_before_any_proof():
    """Path Strahler repaired with a wrong cut ("tmp_D carries D + 1"): nothing to refute, nothing proved."""
    from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction, all_n_statement
    from symcot.constructions.encoding import scalar

    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")
    stmt = all_n_statement("repaired")
    wrong = dataclasses.replace(stmt, cuts={**stmt.cuts, 2: stmt.cuts[2].extended(tmp_D=scalar("d", offset=1))})

    def make():
        cons = StrahlerPathConstruction("repaired")
        cons.all_n = wrong
        return cons

    row = AllNCheck(make, m.SPEC, [m.NONEMPTY_DYCK_WORDS], concrete_size=4, facts_size=3).run(
        RunContext("thm:cotpathstrahler", 4))
    assert row.verdict == "unknown" and "false on a concrete run" in row.notes[-1] and "tmp_D" in row.notes[-1]
    assert row.details["obligations"] == []


def _row(res, **kw):
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    chk = AllNCheck(DfsConstruction, m.SPEC, [m.DIGRAPHS], **kw)
    cons = DfsConstruction()
    # sizes_complete 4: the counterexample search of a row not proved starts at 5, beyond what it enumerates for DFS
    concrete = {"inputs": 5, "facts_size": 3, "sizes_complete": 4,
                "witness": {"sizes": [5, 6, 9], "input": None, "inputs": 0},
                "domain": {"sizes": [1, 2, 3], "family_inputs": 5, "universe_inputs": 5, "in_domain": 5, "assumed": []}}
    return chk._verdict("thm:cotdfs", cons, cons.all_n, res, concrete, [], 1.0)


def test_rows_from_results():
    ok = Obligation("step", "head T", "s", "proved")
    res = AllNResult("thm:cotdfs/as-written", [ok])
    row = _row(res)
    assert row.verdict == "proved" and row.scope.startswith("all n")
    assert any("definition nxt:lowest" in t for t in row.details["trusted_base"])
    ends = next(t for t in row.details["trusted_base"] if t.startswith("definition ends"))
    assert ends.endswith("; the facts run are proved without it")  # DFS's `run` holds on runs that need not stop
    res_bad = AllNResult("thm:cotdfs/as-written", [ok, Obligation("stop", "block cur", "s", "unknown", detail="Z3")])
    row = _row(res_bad)
    assert row.verdict == "unknown" and "first obligation not proved: [unknown] stop" in row.notes[-1]
    row = _row(res, beyond="the count on trees")
    assert row.verdict == "unknown" and "the count on trees" in row.notes[-1]
    assert _row(AllNResult("x", [])).verdict == "unknown"  # no obligation: never proved
    assert any(t.startswith("the input families are the statement's domain") and "checked at sizes 1..3" in t
               for t in _row(res).details["trusted_base"])


def _broken_reference(inp):
    raise RuntimeError("the reference crashed")


def test_a_crashing_reference_is_an_error_row_naming_the_users_line():
    import dataclasses

    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    spec = dataclasses.replace(m.SPEC, reference=_broken_reference)
    row = AllNCheck(DfsConstruction, spec, [m.DIGRAPHS], concrete_size=2, facts_size=2).run(RunContext("thm:cotdfs", 2))
    assert row.verdict == "error" and "the reference crashed" in row.notes[-1]
    assert "test_check.py" in row.notes[-1] and row.details["obligations"] == []


def test_a_variant_without_a_statement_is_refuted_by_exact_replay_or_left_unknown():
    """No all-n statement: a departure on a real run refutes every n (the replay's counterexample); else unknown."""
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")
    bad, good = (AllNCheck(make, m.SPEC, m.TREE_FAMILIES).run(RunContext("thm:cotwidoftree", 4))
                 for make in (lambda: WidthTreeConstruction("as-written"),
                              lambda: WidthTreeConstruction("repaired", v_max=n + 1)))
    assert bad.verdict == "refuted" and bad.method.startswith("all-n row refuted by exact replay")
    c = bad.counterexample
    assert (c["input"]["edges"], c["step"], c["layer"], c["block"]) == ([[0, 1]], 1, 1, "dis")
    assert good.verdict == "unknown" and good.counterexample is None
    assert "no all-n statement" in good.notes[-1] and "exact replay up to size 4: verified" in good.notes[-1]
