"""The Preliminaries' facts and lem:bilinearstack, proved with SymPy; deliberately false variants refuted."""

import importlib

from symcot.check.context import RunContext
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck, decide


def mod(stem):
    return importlib.import_module(f"proofs.cot_path_to_tree.{stem}")


def test_facts_and_bilinearstack_are_proved(claims):
    for cid in ("fact:affine", "fact:bilinear", "lem:bilinearstack"):
        (v,) = claims[cid].run()
        assert v.verdict == "proved", (cid, v.details)
        assert all(r["status"] == "proved" for r in v.details["identities"])


def test_wrong_identity_block_in_w_prime_is_refuted(claims):
    v = SymbolicCheck(lambda: mod("facts").affine_identities(2), variant="mutant").run(RunContext("fact:affine", 1))
    assert v.verdict == "refuted"
    c = v.counterexample
    assert c["input"]["sizes"] == {"m": 1, "n": 1} and c["input"]["values"]["c"] == [[1]] and c["got"] == [[1]]


def test_an_affine_b_is_not_bilinear(claims):
    v = SymbolicCheck(lambda: mod("facts").bilinear_identities(1), variant="mutant").run(RunContext("fact:bilinear", 1))
    assert v.verdict == "refuted" and v.counterexample["what"].startswith("B(αv_1 + βv_2, c)")


def test_stacking_an_affine_map_is_refuted(claims):
    v = SymbolicCheck(lambda: mod("lem_bilinearstack").generic_identities(1), variant="mutant").run(RunContext("x", 1))
    assert v.verdict == "refuted" and v.counterexample["got"] == [[0], [-1], [-1]]


def test_undecided_identity_is_unknown():
    import sympy as sp

    x = sp.Symbol("x")
    # False, but zero at every assignment the search tries (x = 1, x = 2): neither proved nor refuted.
    c = IdentityClaim("(x - 1)(x - 2) = 0", lambda: (x - 1) * (x - 2), [x])
    r = decide(c)
    assert r["status"] == "unknown" and "counterexample" not in r
