"""``symcot mutate --deep``: deep mutants of an all-n-checked construction, their replay and all-n verdicts."""

import json

import pytest

from symcot.cli import main
from symcot.study import deep_mutants


def _one_line_error(capsys, argv):
    rc = main(argv)
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err.startswith("symcot: error:") and "\n" not in err, err
    return err


def test_deep_all_n_on_a_small_selection_reports_the_table_and_json(tmp_path, capsys):
    out, md = tmp_path / "deep.json", tmp_path / "deep.md"
    rc = main(["mutate", "thm:cotdfs", "--deep", "--all-n", "--deep-id", "max-block:1/W_2/buf<-buf@5",
               "--replay-inputs", "20", "--replay-sizes", "2", "--json", str(out), "--markdown", str(md)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "thm:cotdfs [as-written]: 1 deep mutants at k = 5 (concrete phase to 4)" in text
    assert "| mutant | kind | block | k | replay | all-n | first failing obligation | s |" in text
    assert "| `max-block:1/W_2/buf<-buf@5` | max-block | buf (one index) | 5 | refuted at size 6 | not proved |" in text
    assert "1 deep mutants: 1 refuted by replay, 0 equivalent as far as replay went; 0 soundness failure(s)" in text
    data = json.loads(out.read_text())
    assert data["schema"] == "symcot-mutate-deep/1"
    assert data["meta"]["command"].startswith("symcot mutate thm:cotdfs --deep --deep-id 'max-block:1/W_2/buf<-buf@5'")
    (first,) = data["mutants"]
    assert first["kind"] == "max-block" and first["block"] == "buf" and first["k"] == 5
    assert first["replay"]["status"] == "refuted" and first["replay"]["refuted_at"] == 6
    assert first["all_n"]["verdict"] == "not proved" and "block buf" in first["all_n"]["first_failure"]
    assert first["all_n"]["concrete"].startswith("same weights as the base to size 4")
    assert not first["soundness_failure"]
    assert "| `max-block:1/W_2/buf<-buf@5` |" in md.read_text()


def test_limit_and_kind_select_and_list_stops(capsys):
    assert main(["mutate", "thm:cotdfs", "--deep", "--limit", "3", "--list"]) == 0
    text = capsys.readouterr().out
    ids = [line.split()[0] for line in text.splitlines()[1:]]
    assert len(ids) == 3 and [i.split(":")[0] for i in ids] == ["shift", "max-unit", "max-block"]
    assert main(["mutate", "thm:cotdfs", "--deep", "--kind", "shift", "--limit", "2", "--list"]) == 0
    ids = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert len(ids) == 2 and all(i.startswith("shift:") for i in ids)


def test_replay_only_without_all_n(capsys):
    rc = main(["mutate", "thm:cotpathtotree", "--deep", "--deep-id", "shift:1/W_2/A<-A@9", "--deep-id",
               "shift:1/W_O/A<-U.A@9", "--replay-inputs", "20", "--replay-sizes", "1"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "| `shift:1/W_2/A<-A@9` | shift | A (m×m) | 9 | refuted at size 10 | - |" in text
    assert "| `shift:1/W_O/A<-U.A@9` | shift | A (m×m) | 9 | equivalent (not refuted by replay up to size 10); " \
           "inert: π_U.A is zero: V_U of layer 1 zeroes A | - |" in text


def test_a_proved_mutant_that_replay_refutes_is_a_soundness_failure_and_exits_1(monkeypatch, capsys):
    monkeypatch.setattr(deep_mutants, "run_all_n", lambda mu, *a, **k: deep_mutants.AllNOutcome("proved"))
    rc = main(["mutate", "thm:cotdfs", "--deep", "--all-n", "--deep-id", "max-unit:2/W_O/vis@5",
               "--replay-inputs", "10", "--replay-sizes", "1"])
    text = capsys.readouterr().out
    assert rc == 1
    assert "PROVED -- SOUNDNESS FAILURE" in text
    assert "SOUNDNESS FAILURE: thm:cotdfs/as-written~max-unit:2/W_O/vis@5 (layer 2 W_O → vis: + max(0, n - 5)·e_0) " \
           "is proved for every size, but exact replay refutes it at size 6" in text


@pytest.mark.parametrize(("argv", "message"), [
    (["--all-n"], "--all-n is an option of --deep"),
    (["--limit", "2"], "--limit is an option of --deep"),
    (["--deep", "--kind", "shfit"], "unknown --kind 'shfit'; the kinds are shift, max-unit"),
    (["--deep", "--state", "s.json"], "--state does not apply to --deep"),
    (["--deep", "--limit", "0"], "--limit must be at least 1, got 0"),
    (["--deep", "--full"], "--full is an option of --all-n"),
    (["--deep", "--deep-id", "nope@5"], "thm:cotdfs/as-written has no deep mutant 'nope@5' at k = 5"),
    (["--deep", "--variant", "repaired"], "thm:cotdfs has no all-n variant 'repaired'; it has as-written"),
])
def test_bad_deep_options_are_one_line_errors(capsys, argv, message):
    err = _one_line_error(capsys, ["mutate", "thm:cotdfs", *argv])
    assert message in err


def test_a_claim_without_an_all_n_statement_is_named(capsys, tmp_path):
    """A user's claim whose all-n checks have no statement (tests/fixtures/unstated.py)."""
    from tests.fixtures.unstated import write_claims

    claims = str(write_claims(tmp_path / "claims"))
    err = _one_line_error(capsys, ["mutate", "mine:width", "--deep", "--proofs", claims])
    assert "mine:width's all-n checks have no all-n statement" in err
    err = _one_line_error(capsys, ["mutate", "thm:cotdfs:tree:nope", "--deep"])
    assert "unknown claim" in err


def test_a_fast_z3_proof_the_declared_check_does_not_confirm_is_a_warning(monkeypatch, capsys):
    def fake(mu, check, timeout_s=None, full=False, claim_id=""):
        if full:
            return deep_mutants.AllNOutcome("not proved", "cvc5 disagrees", mode="full")
        return deep_mutants.AllNOutcome("proved")

    monkeypatch.setattr(deep_mutants, "run_all_n", fake)
    rc = main(["mutate", "thm:cotdfs", "--deep", "--all-n", "--deep-id", "max-unit:2/W_O/vis@5",
               "--replay-inputs", "10", "--replay-sizes", "1"])
    text = capsys.readouterr().out
    assert rc == 0 and "SOUNDNESS FAILURE" not in text
    assert "WARNING: the stop-early Z3 run proved thm:cotdfs/as-written~max-unit:2/W_O/vis@5, which exact replay " \
           "refutes at size 6; the check as declared says not proved: cvc5 disagrees" in text
