"""``--reach``: families marked ``reach`` go further; ``partial`` families never widen the verdict's size."""

import json

from symcot.check.exhaustive import Family, run_property_check
from symcot.cli import main
from symcot.inputs.dyck import catalan
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, ordered_rooted_tree_family, word_count


def _fam(name, reach=False, partial=False, max_size=None):
    return Family(name, lambda n: range(n), lambda n: n, lambda x: {"x": x}, reach=reach, partial=partial,
                  max_size=max_size)


def _sizes(row):
    return {f["family"]: f["sizes_complete"] for f in row.families}


def test_reach_takes_only_reach_families_further():
    fams = [_fam("domain"), _fam("scales", reach=True)]
    row = run_property_check("c", "v", "m", fams, 3, lambda x: None, reach=6)
    assert _sizes(row) == {"domain": [1, 2, 3], "scales": [1, 2, 3, 4, 5, 6]}
    assert row.verdict == "verified" and row.max_size == 3  # the domain family stops at 3
    alone = run_property_check("c", "v", "m", [_fam("scales", reach=True)], 3, lambda x: None, reach=6)
    assert alone.max_size == 6
    no_reach = run_property_check("c", "v", "m", fams, 3, lambda x: None)
    assert _sizes(no_reach)["scales"] == [1, 2, 3]


def test_a_partial_family_is_reported_but_does_not_widen_max_size():
    fams = [_fam("labeled", max_size=None), _fam("ordered", reach=True, partial=True)]
    row = run_property_check("c", "v", "m", fams, 2, lambda x: None, reach=5)
    assert row.max_size == 2 and _sizes(row)["ordered"] == [1, 2, 3, 4, 5]
    assert any(n.startswith("also every input of ordered") and n.endswith("size 5") for n in row.notes)
    only_partial = run_property_check("c", "v", "m", [_fam("ordered", reach=True, partial=True)], 2,
                                      lambda x: None, reach=4)
    assert only_partial.verdict == "unknown" and only_partial.max_size is None


def test_a_failure_in_a_partial_family_refutes_with_its_size():
    fams = [_fam("labeled"), _fam("ordered", reach=True, partial=True)]
    row = run_property_check("c", "v", "m", fams, 2, lambda x: {"why": "x = 3"} if x == 3 else None, reach=5)
    assert row.verdict == "refuted"
    assert row.counterexample["family"] == "ordered" and row.counterexample["size"] == 4
    # within one size, the domain family is checked first
    both = run_property_check("c", "v", "m", fams, 5, lambda x: {"why": "x = 3"} if x == 3 else None, reach=5)
    assert both.counterexample["family"] == "labeled"


def test_the_reach_families_enumerate_by_rank():
    fam = ordered_rooted_tree_family(lambda inp: {"n": inp[0].n})
    assert fam.reach and fam.partial and fam.count(6) == catalan(5)
    full = list(fam.inputs(6))
    assert [(g.arcs, r) for g, r in fam.inputs_range(6, 7, 19)] == [(g.arcs, r) for g, r in full[7:19]]
    assert len({g.arcs for g, _ in full}) == len(full) and all(r == 0 for _, r in full)
    assert fam.describe(full[0])["dyck"] == "UUUUUDDDDD"
    words = NONEMPTY_DYCK_WORDS
    assert words.reach and not words.partial and list(words.inputs(1)) == [] and words.count(1) == 0
    assert list(words.inputs_range(5, 3, 9)) == list(words.inputs(5))[3:9]
    assert words.count(7) == word_count(7)


def test_cli_reach_errors_and_json_meta(tmp_path, capsys):
    assert main(["verify", "lem:mMc", "--reach", "0", "--no-progress"]) == 2
    assert "--reach must be at least 1" in capsys.readouterr().err
    assert main(["verify", "--symbolic", "--reach", "5", "--no-progress"]) == 2
    assert "--symbolic" in capsys.readouterr().err
    out = tmp_path / "r.json"
    assert main(["verify", "lem:mMc", "--reach", "5", "--no-progress", "--json", str(out)]) == 0
    meta = json.loads(out.read_text())["meta"]
    assert meta["reach"] == 5 and meta["engine"] == "batched"


def test_engine_option_reaches_only_checks_that_take_it():
    """A lemma has no engine: --engine batched used to crash with a TypeError."""
    assert main(["verify", "lem:mMc", "--engine", "batched", "--no-progress"]) == 0
