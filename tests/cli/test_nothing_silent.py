"""A run that checks nothing fails and says why; unknown names say what exists; paths and sizes checked first."""

import importlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symcot.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def _one_line_error(capsys, argv, status=2):
    rc = main(argv)
    err = capsys.readouterr().err.strip()
    assert rc == status, (argv, err)
    assert err.startswith("symcot: error:") and "\n" not in err and "Traceback" not in err, (argv, err)
    return err


def test_unknown_variant_of_a_named_claim_exits_2_and_lists_its_variants(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotdfs", "--variant", "repaired", "--no-progress"])
    assert "thm:cotdfs has no variant 'repaired' (its variants: as-written)" in err


def test_misspelt_variant_gets_a_suggestion(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotwidofpath", "--variant", "repiared", "--no-progress"])
    assert "did you mean repaired?" in err and "as-written, read-repaired, repaired" in err
    err = _one_line_error(capsys, ["verify", "--variant", "as-writen", "--no-progress"])
    assert "no selected claim has a variant 'as-writen'; did you mean as-written?" in err


def test_named_claim_without_the_variant_among_others_is_an_error(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotdfs", "thm:cotwidofpath", "--variant", "repaired"])
    assert "thm:cotdfs has no variant 'repaired' (its variants: as-written)" in err


def test_symbolic_on_a_claim_without_symbolic_check(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotdfs", "thm:cotdijkstra", "--symbolic"])
    assert "thm:cotdfs has no symbolic check (of the selected claims, thm:cotdijkstra has one)" in err


def test_unknown_claim_suggests_the_closest(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotdsf"])
    assert "unknown claim 'thm:cotdsf'; did you mean thm:cotdfs" in err


def test_a_directory_without_claim_modules_is_an_error(tmp_path, capsys):
    paper = tmp_path / "paper"
    (paper / "proofs").mkdir(parents=True)
    (paper / "proofs" / "appendix.tex").write_text("\\section{Proofs}\n")
    err = _one_line_error(capsys, ["verify", "--proofs", str(paper / "proofs")])
    assert "has no claim module" in err and "appendix.tex" in err


def test_a_module_without_claim_is_an_error_naming_its_file(tmp_path, capsys):
    d = tmp_path / "p"
    d.mkdir()
    (d / "helpers.py").write_text("X = 1\n")
    err = _one_line_error(capsys, ["verify", "--proofs", str(d)])
    assert f"{d / 'helpers.py'}: declares neither CLAIM nor CLAIMS" in err
    (d / "helpers.py").rename(d / "_helpers.py")  # a helper module starting with _ is skipped
    err = _one_line_error(capsys, ["verify", "--proofs", str(d)])
    assert "has no claim module" in err


def test_verify_says_which_proofs_directory_it_used(capsys):
    assert main(["verify", "eq:depth-height", "--no-progress"]) == 1
    lines = capsys.readouterr().out.splitlines()
    end = next(k for k, x in enumerate(lines) if x.startswith("  subject: "))
    first = " ".join(x.strip() for x in lines[:end])  # the proofs line, wrapped
    modules = len(importlib.import_module("proofs.cot_path_to_tree").MODULES)
    assert first.startswith("proofs: ") and all(len(x) <= 80 for x in lines)  # the header wraps at the width
    assert f"(package proofs.cot_path_to_tree, {modules} modules from MODULES)" in first


def test_report_paths_are_checked_before_the_run(tmp_path, capsys):
    t0 = time.perf_counter()
    err = _one_line_error(capsys, ["verify", "--json", str(tmp_path / "missing" / "r.json")])
    assert time.perf_counter() - t0 < 1.0
    assert f"--json {tmp_path / 'missing' / 'r.json'}: directory {tmp_path / 'missing'} does not exist" in err
    err = _one_line_error(capsys, ["verify", "--markdown", str(tmp_path)])
    assert "is a directory" in err
    same = str(tmp_path / "r.out")
    err = _one_line_error(capsys, ["verify", "--json", same, "--markdown", same])
    assert "--json and --markdown name the same file" in err
    assert not list(tmp_path.iterdir())  # nothing was written


def test_out_of_reach_sizes_need_yes(capsys):
    err = _one_line_error(capsys, ["verify", "thm:cotdfs", "--max-size", "50", "--no-progress"])
    assert "out of reach: --max-size 50 means at least" in err and "thm:cotdfs [as-written]" in err
    assert "years at ~" in err and "pass --yes to run it anyway" in err
    err = _one_line_error(capsys, ["verify", "thm:cotdfs", "--max-size", "6", "--jobs", "1"])
    assert "6.4e09 inputs (thm:cotdfs [as-written] 6.4e09)" in err and "days" in err


def test_yes_runs_it_after_the_warning(capsys, monkeypatch):
    import symcot.cli.verify as verify

    monkeypatch.setattr(verify, "REACH_LIMIT_S", 0.0)  # everything looks out of reach
    assert main(["verify", "eq:depth-height", "--no-progress"]) == 2
    assert "out of reach" in capsys.readouterr().err
    assert main(["verify", "eq:depth-height", "--no-progress", "--yes"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("symcot: warning: this run means") and "\neq:depth-height  refuted; a repaired " \
        "variant holds" in captured.out and captured.out.rstrip().endswith(" s")


def test_the_default_run_is_not_out_of_reach():
    from symcot.cli.verify import RATE, REACH_LIMIT_S, schedule_in
    from symcot.registry import load, select_checks

    _, claims = load()
    for reach in (None, 13):  # the default run and the documented --reach 13
        plan = select_checks(list(claims.values()))
        seconds = 0.0
        for c, chk in plan:
            sched = schedule_in(c, chk, None, reach, "batched")
            seconds += (sched.inputs() or 0) / RATE[sched.engine] if sched is not None else 0
        assert 0 < seconds < REACH_LIMIT_S


def test_the_schedule_counts_what_the_run_checks(claims):
    from symcot.cli.verify import schedule_in

    claim = claims["thm:cotdfs"]
    chk = claim.checks[0]
    sched = schedule_in(claim, chk, 2, None)
    assert sched.inputs() == 1 * 1 + 2 * 4 + 12 * 8  # as test_verify_json_and_exit_code
    assert sched.engine == "exact" and schedule_in(claim, chk, 2, None, "batched").engine == "batched"
    row = claim.run_check(chk, 2)
    assert row.inputs_checked == sched.inputs()


def test_closed_pipe_ends_quietly():
    # `symcot claims | head -1`: head exits after one line
    p = subprocess.run(f"{sys.executable} -m symcot.cli claims | head -1; exit ${{PIPESTATUS[0]}}", shell=True,
                       executable="/bin/bash", cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout.count("\n") == 1


def test_closed_pipe_during_verify_keeps_the_report(tmp_path):
    out = tmp_path / "r.json"
    cmd = (f"{sys.executable} -m symcot.cli verify eq:depth-height eq:strahc --no-progress --json {out} "
           "| head -4; exit ${PIPESTATUS[0]}")  # the header: a proofs line and a subject per paper
    p = subprocess.run(cmd, shell=True, executable="/bin/bash", cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.stderr == "" and p.stdout.startswith("proofs: ")
    assert p.returncode in (141, 1)  # 1 when every line fitted in the pipe before head closed it
    rows = json.loads(out.read_text())["claims"]
    assert len(rows) == 4 and rows[0]["verdict"] == "refuted"
    assert all(r["verdict"] != "unknown" or r["notes"][-1].startswith("interrupted: standard output closed")
               for r in rows)


@pytest.mark.parametrize("argv", [
    ["verify", "--reach", "3", "--symbolic"],
    ["verify", "--engine", "exact", "--symbolic"],
    ["verify", "--jobs", "0"],
])
def test_options_that_do_not_apply_say_so(capsys, argv):
    _one_line_error(capsys, argv)


def test_stdout_closed_before_the_run_runs_nothing_and_says_so_in_the_report(tmp_path):
    out = tmp_path / "r.json"
    cmd = f"{sys.executable} -m symcot.cli verify eq:depth-height --json {out} | head -0; exit ${{PIPESTATUS[0]}}"
    p = subprocess.run(cmd, shell=True, executable="/bin/bash", cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 141 and p.stderr == ""
    rows = json.loads(out.read_text())["claims"]
    assert [r["verdict"] for r in rows] == ["unknown", "unknown"]
    assert rows[0]["notes"] == ["interrupted: standard output closed: not started"]
