"""``symcot verify --all-n --smt2 DIR``: every obligation as an SMT-LIB 2 file, an index, cvc5's status in the rows."""

import dataclasses
import json

import pytest
import z3

from symcot.cli import main
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.context import Context
from symcot.prove.alln.prover import AllNResult
from symcot.prove.alln.smt2 import INDEX_NAME

#: The concrete phase's record as the kernel makes it: witnesses at three sizes beyond it, the families the domain.
CONCRETE = {"inputs": 5, "facts_size": 3, "sizes_complete": 3,
            "witness": {"sizes": [5, 6, 9], "input": None, "inputs": 0},
            "domain": {"sizes": [1, 2, 3], "family_inputs": 5, "universe_inputs": 5, "in_domain": 5, "assumed": []}}


def _one_line_error(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("symcot: error:"), err
    return err[0]


def test_smt2_without_all_n_is_an_error_of_one_line(tmp_path, capsys):
    assert main(["verify", "thm:cotdfs", "--smt2", str(tmp_path)]) == 2
    line = _one_line_error(capsys)
    assert "--smt2" in line and "add --all-n" in line
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    assert main(["verify", "--all-n", "thm:cotdfs", "--smt2", str(a_file)]) == 2
    assert "is not a directory" in _one_line_error(capsys)


def test_rows_without_obligations_give_an_index_with_its_header_only(tmp_path, capsys):
    from tests.fixtures.unstated import write_claims

    out = tmp_path / "smt"
    claims = write_claims(tmp_path / "claims")
    assert main(["verify", "--all-n", "--proofs", str(claims), "--smt2", str(out), "--no-progress"]) == 2
    assert (out / INDEX_NAME).read_text().splitlines() == ["claim\tvariant\tobligation\tphase\twhere\tfile\tz3\tcvc5"]
    assert f"SMT-LIB 2 obligations written to {out}" in capsys.readouterr().out


def _result(cons):
    """A small proof in place of the real one (minutes): a quantified fact, two goals that follow, one by a lemma."""
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    par = z3.Function("par", z3.IntSort(), z3.IntSort())  # a reserved word of SMT-LIB, as in DFS
    x = z3.Int("x")
    ctx = Context([("f positive", z3.ForAll([x], f(x) > 0)), ("par", z3.ForAll([x], par(x) == x - 1))])
    ctx.check(f(3) + 1 > 1, "base", "block cur", "f(3) + 1 > 1")
    ctx.check(par(f(2)) >= 0, "step", "head T", "par(f(2)) ≥ 0", layer=1)
    return AllNResult(cons.label, ctx.log)


def test_all_n_smt2_writes_every_obligation_and_the_index(tmp_path, capsys, monkeypatch):
    pytest.importorskip("cvc5")

    def proved_quickly(self, claim_id, cons, *_args, **_kw):  # the concrete phase and the proof take minutes
        plain = dataclasses.replace(self, concludes=())  # the two obligations below state no conclusion's fact
        return plain._verdict(claim_id, cons, cons.all_n, _result(cons), dict(CONCRETE), [], 0.0)

    monkeypatch.setattr(AllNCheck, "_checked", proved_quickly)
    out, report = tmp_path / "smt", tmp_path / "r.json"
    rc = main(["verify", "--all-n", "thm:cotdfs", "--smt2", str(out), "--json", str(report), "--no-progress"])
    assert rc == 0
    row = json.loads(report.read_text())["claims"][0]
    assert row["verdict"] == "proved" and row["scope"].endswith("proved (Z3, cvc5)")
    assert row["details"]["second_solver"]["closed"] == 2
    files = sorted(p.name for p in out.glob("*.smt2"))
    assert files == ["thm_cotdfs__as-written__000.smt2", "thm_cotdfs__as-written__001.smt2"]
    assert "par!smt" in (out / files[1]).read_text()
    lines = (out / INDEX_NAME).read_text().splitlines()
    assert lines[1:] == [f"thm:cotdfs\tas-written\t0\tbase\tblock cur\t{files[0]}\tproved\tproved",
                         f"thm:cotdfs\tas-written\t1\tstep\tlayer 1 head T\t{files[1]}\tproved\tproved"]
    assert f"SMT-LIB 2 obligations written to {out}" in capsys.readouterr().out


@pytest.mark.slow
def test_all_n_smt2_on_the_real_dfs_proof(tmp_path):
    pytest.importorskip("cvc5")
    out, report = tmp_path / "smt", tmp_path / "r.json"
    assert main(["verify", "--all-n", "thm:cotdfs", "--smt2", str(out), "--json", str(report), "--no-progress"]) == 0
    row = json.loads(report.read_text())["claims"][0]
    n = len(row["details"]["obligations"])
    assert len(list(out.glob("*__???.smt2"))) == n and len((out / INDEX_NAME).read_text().splitlines()) == n + 1
    assert "(Z3, cvc5)" in row["scope"] or "(Z3; cvc5 closed" in row["scope"]
