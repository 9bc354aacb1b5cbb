"""``symcot mutate`` and ``symcot coverage``: summaries, reports, exit codes, one-line errors."""

import json
import textwrap

import pytest

from symcot.cli import main
from symcot.cli.mutate import parse_shard
from symcot.errors import SymcotError

#: A user's claims directory with the prefix-sum claim of the tests, with and without the planted deep pair.
PREFIX = textwrap.dedent('''
    from tests.check.prefix_sum import claim
    CLAIMS = [claim(deep=True), claim()]
    CLAIMS[1].id = "demo:plain"
''')


@pytest.fixture()
def proofs(tmp_path):
    d = tmp_path / "proofs"
    d.mkdir()
    (d / "prefix.py").write_text(PREFIX)
    return d


def test_a_deep_survivor_is_reported_with_its_input_and_exit_1(proofs, tmp_path, capsys):
    out, md = tmp_path / "m.json", tmp_path / "m.md"
    rc = main(["mutate", "demo:prefixsum", "--proofs", str(proofs), "--sample", "0", "--reach", "6", "--budget", "20",
               "--coverage", "--json", str(out), "--markdown", str(md), "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 1
    assert "demo:prefixsum [as-written]: 57 single-coefficient mutants, 57 selected, 57 decided at n = 4" in text
    assert "SURVIVOR layer 1 W_1 → sum: coefficient" in text
    assert "fails at n = 5 (every input of that size, bit strings)" in text
    assert "scratch-only in block flg (not compared by the check): 6 mutants" in text
    assert "recommended default size: 6 (current 4; largest kill size 5 + 1 = 6; coverage saturation 2)" in text
    words = " ".join(text.split())
    assert "A mutant's kill size is the least input size n at which the claim's check first refutes it" in words
    assert "The current default 4 is below that: raise the claim's default_max_size to 6." in words
    data = json.loads(out.read_text())
    (a,) = data["analyses"]
    assert a["recommended_default"] == 6 and a["counts"]["exposed"] == 4 and a["complete"]
    assert a["coverage"]["saturation"] == 2
    assert "| `demo:prefixsum` | as-written | 57 | 57 |" in md.read_text()


def test_every_behaviour_changing_mutant_killed_exits_0_and_resumes(proofs, tmp_path, capsys):
    state = tmp_path / "s.json"
    args = ["mutate", "demo:plain", "--proofs", str(proofs), "--sample", "0", "--reach", "6", "--budget", "20",
            "--state", str(state), "--no-progress"]
    assert main([*args, "--shard", "0/2"]) == 0
    first = capsys.readouterr().out
    assert "incomplete:" in first
    assert main(args) == 0
    second = capsys.readouterr().out
    assert "mutation score: 25/25 behaviour-changing mutants killed at n = 4 (100.0%)" in second
    assert "incomplete" not in second


@pytest.mark.parametrize("argv,message", [
    (["mutate", "thm:cotdfs", "--shard", "2/2"], "--shard takes I/K with 0 ≤ I < K"),
    (["mutate", "thm:cotdfs", "--sample", "-1"], "--sample must be at least 0"),
    (["mutate", "thm:cotdfs", "--json", "/no/such/dir/x.json"], "--json: the directory of /no/such/dir/x.json"),
    (["mutate", "lem:addwidplus1"], "lem:addwidplus1 is a lemma about a network gadget, with no construction: nothing "
                                    "to mutate"),
    (["mutate", "thm:cotdfs", "--variant", "nope"], "no construction variant 'nope'"),
    (["mutate", "thm:cotdfs", "thm:cotdfs:tree", "--state", "x.json"], "holds one claim variant"),
    (["coverage", "thm:cotdfs", "--max-size", "0"], "--max-size must be at least 1"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, message, capsys):
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_refuted_construction_is_not_analysed(capsys):
    rc = main(["mutate", "thm:cottreestrahler", "--variant", "as-written", "--no-progress"])
    assert rc == 2
    err = capsys.readouterr()
    assert "not analysed, the construction fails its own check at n = 2" in err.out
    assert "no construction variant to analyse" in err.err


def test_coverage_prints_regions_and_saturation(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert main(["coverage", "thm:cotdfs", "--max-size", "3", "--regions", "--json", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "thm:cotdfs [as-written], every input of the exhaustive families to n = 3:" in text
    assert "saturation n = 3 (none new up to n = 3)" in text
    assert "n=3  gadget layer 1  thm:cottreestrahler:indpos(flg1, flg2): pos,pos" in text
    data = json.loads(out.read_text())
    assert data["coverage"][0]["saturation"] == 3


def test_coverage_of_one_family_and_an_unknown_family(tmp_path, capsys):
    out = tmp_path / "c.json"
    fam = "labeled trees × every root"
    assert main(["coverage", "thm:cotdfs:tree", "--family", fam, "--max-size", "3", "--json", str(out),
                 "--no-progress"]) == 0
    assert f"thm:cotdfs:tree [as-written], every input of {fam} to n = 3:" in capsys.readouterr().out
    assert json.loads(out.read_text())["coverage"][0]["families"] == [fam]
    assert main(["coverage", "thm:cotdfs:tree", "--family", "no such", "--no-progress"]) == 2
    assert "--family 'no such': thm:cotdfs:tree [as-written] has the families" in capsys.readouterr().err


def test_parse_shard():
    assert parse_shard(None) == (0, 1) and parse_shard("1/3") == (1, 3)
    with pytest.raises(SymcotError):
        parse_shard("3/3")


def test_a_state_directory_holds_one_file_per_claim_variant(proofs, tmp_path, capsys):
    states = tmp_path / "states"
    states.mkdir()
    args = ["mutate", "demo:prefixsum", "demo:plain", "--proofs", str(proofs), "--sample", "5", "--reach", "5",
            "--budget", "5", "--state", str(states), "--no-progress"]
    assert main(args) in (0, 1)
    files = sorted(p.name for p in states.iterdir())
    assert files == ["demo_plain_as-written.json", "demo_prefixsum_as-written.json"]
    saved = json.loads((states / files[0]).read_text())
    assert saved["original"]["killed"] is False and saved["original"]["checked_to"] == 4  # kept for a rerun
    first = capsys.readouterr().out
    assert main(args) in (0, 1)
    assert capsys.readouterr().out.split("\n\n")[0] == first.split("\n\n")[0]  # the same results, read back
