from proofs.transformer_cookbook import ffnn_cancel_residual as mod
from symcot.check.context import RunContext
from symcot.lemmas import Override
from symcot.lemmas.facts import SymbolicCheck

from .helpers import mutant_refuted, rows


def test_cancellation_is_proved_for_every_d():
    r = rows(mod.CLAIMS[0], max_size=4)["as-written"]
    assert r.verdict == "proved" and r.details["dimension"].startswith("every d")


def test_block_algebra_is_proved_for_symbolic_sizes():
    r = rows(mod.CLAIMS[1])["as-written"]
    assert r.verdict == "proved" and [i["status"] for i in r.details["identities"]] == ["proved", "proved"]


def test_a_changed_cancellation_weight_is_refuted():
    # W_2' = [W_2, -I, 2I]: the residual is no longer cancelled for negative x
    c = mutant_refuted(mod.lemma(), Override("W_2", ("x", 0), (("neg_x", 0),), 2))
    assert c.sizes == {"d": 1} and c.inputs["x"][0] < 0


def test_a_changed_block_is_refuted_by_sympy():
    r = SymbolicCheck(lambda: mod.block_identities(sign=-1)).run(RunContext("mutant", 1))
    assert r.verdict == "refuted" and r.counterexample["input"]["sizes"] == {"k": 1, "d": 1}
