"""The survey of what a decoder feeds its gadgets (every input, every CoT step)."""

import importlib

from symcot.lemmas.survey import _CACHE, split, survey


def test_the_survey_records_every_step_and_the_first_occurrence():
    claim = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")
    chk = next(c for c in next(c for c in claim.CLAIMS if c.id == "thm:cotwidoftree").checks
               if c.variant == "repaired" and hasattr(c, "families"))
    cons = chk.construction()
    sv = survey(cons, chk.spec, chk.families, 3, cache=False)
    assert sv.inputs == 1 + 2 + 9 and sv.sizes_complete == [1, 2, 3]
    assert sv.steps == sum(k - 1 for k, count in ((1, 1), (2, 2), (3, 9)) for _ in range(count))  # n - 1 steps each
    (fed,) = sv.fed.values()
    assert fed.layer == 3 and fed.steps == sv.steps
    (first, occ), *_ = sorted(fed.values.items(), key=lambda kv: kv[1].order)
    assert occ.size == 2 and occ.step == 0 and dict(first[0][0]) == {"n": 2}
    g = cons.decoder.layers[2].ffn.gadgets[0]
    assert split(g, first[1], {"v1": 1, "v2": 1, "v3": 1}) == {"v1": [1], "v2": [1], "v3": [1]}


def test_surveys_are_cached_per_construction_variant_and_size():
    claim = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")
    chk = next(c for c in claim.CLAIMS[0].checks if c.variant == "repaired")
    a = survey(chk.construction(), chk.spec, chk.families, 2)
    b = survey(chk.construction(), chk.spec, chk.families, 2)
    assert a is b and ("thm:cotwidofpath", "repaired", 2) in _CACHE


def test_a_parallel_survey_records_the_same_first_occurrences(monkeypatch):
    import symcot.lemmas.survey as sv_mod

    claim = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")
    chk = next(c for c in claim.CLAIMS[0].checks if c.variant == "read-repaired")
    one = survey(chk.construction(), chk.spec, chk.families, 5, cache=False)
    monkeypatch.setattr(sv_mod, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(sv_mod, "CHUNK", 7)
    two = survey(chk.construction(), chk.spec, chk.families, 5, cache=False, jobs=2)
    assert (two.inputs, two.steps) == (one.inputs, one.steps)
    for u, fed in one.fed.items():
        assert {k: (o.size, o.rank, o.step) for k, o in fed.values.items()} == \
            {k: (o.size, o.rank, o.step) for k, o in two.fed[u].values.items()}
