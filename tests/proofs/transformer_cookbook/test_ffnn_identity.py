from proofs.transformer_cookbook import ffnn_identity as mod
from symcot.lemmas import Override

from .helpers import mutant_refuted, rows


def test_zero_ffn_with_residual_is_the_identity_for_every_d():
    r = rows(mod.CLAIM, max_size=4)["as-written"]
    assert r.verdict == "proved" and r.details["dimension"].startswith("every d")


def test_a_nonzero_bias_is_refuted_at_d_1():
    c = mutant_refuted(mod.lemma(), Override("W_2", ("x", 0), (), 1))
    assert c.sizes == {"d": 1} and c.inputs == {"x": [0]}
    assert (c.mismatches[0]["expected"], c.mismatches[0]["got"]) == (0, 1)


def test_a_weight_on_a_dead_unit_is_not_a_change():
    # the units are ReLU(0) = 0, so a W_2 weight on them changes nothing: still proved
    from symcot.lemmas import prove

    assert prove(mod.lemma().mutate(Override("W_2", ("x", 0), (("h", 0),), 5)), 3).status == "verified"
