"""``symcot claims``: readings with verdicts from a real report, the Markdown tables, bad reports, coverage."""

from __future__ import annotations

from symcot.cli import main


def test_claims_show_readings_and_the_verdicts_of_a_report(tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main(["verify", "eq:strahc", "--max-size", "7", "--no-progress", "--json", str(report)]) == 1
    capsys.readouterr()
    assert main(["claims", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    block = out.split("\neq:strahc", 1)[1].split("\n    where:", 1)[0]
    assert "as-written [as-written]:" in block and "repaired [repair]:" in block
    assert ": refuted (counterexample at n = 7" in block and "UUDUDDUUDUDD" in block
    assert ": verified (every input, n ≤ 7)" in block
    other = out.split("\nthm:cotdfs ", 1)[1].split("\n    where:", 1)[0]
    assert "not in the report" in other
    assert main(["claims", "--report", str(report), "--markdown"]) == 0
    md = capsys.readouterr().out
    assert "#### `eq:strahc`" in md and "| repaired | repair |" in md and "**verified**" in md


def test_claims_without_a_report_list_kinds_and_checkers(capsys):
    assert main(["claims"]) == 0
    out = capsys.readouterr().out
    assert "    missing-arc-0 [reading]: A_{i,:} is the adjacency-matrix row" in out
    assert main(["claims", "--markdown"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("| id | kind | statement | where | variants (kind; checker) | id ours? |")
    assert "missing-arc-0 (reading; exhaustive exact replay" in md


def test_a_bad_report_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    for argv in (["claims", "--report", str(tmp_path / "none.json")], ["claims", "--report", str(bad)]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("symcot: error: report") and "\n" not in err


def test_claims_marks_our_ids_and_lists_uncovered_paper_labels_with_the_reason(capsys):
    assert main(["claims"]) == 0
    out = capsys.readouterr().out
    assert "thm:cotdfs:tree" in out and "[id ours]" in out.split("thm:cotdfs:tree", 1)[1].splitlines()[0]
    tail = out.split("Paper labels without a claim:", 1)[1]
    assert "def:algorelationbycot" in tail and "eq:dfsdynamic" in tail
    assert "ch8:induction-heads" in tail and "ch8:eliza" in tail  # recipes the draft has not written yet
    reasons = ("definition", "no construction in this draft", "figure: ")
    assert all(any(r in line for r in reasons) for line in tail.strip().splitlines())
    assert "no claim checks it yet" not in tail
    assert main(["claims", "--markdown"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("| id | kind | statement |") and "| `thm:cotdfs` | theorem |" in md


def test_replay_honours_a_claims_block_selection(capsys):
    """thm:cotwidoftree:width leaves dis out: its replay of the as-written decoder matches every step."""
    assert main(["replay", "thm:cotwidoftree:width", "--tree", "(()())"]) == 0
    assert "MISMATCH" not in capsys.readouterr().out
    assert main(["replay", "thm:cotwidoftree", "--tree", "(()())"]) == 1
    out = capsys.readouterr().out
    assert "dis: expected [0, 1, 1], got [3, 1, 1]" in out and "dis: expected [0, 1, 1], got [2, 1, 1]" in out


def test_a_users_claims_directory_speaks_of_its_own_labels_only(tmp_path, capsys):
    """No label of the repository's papers is listed for a user's directory; its own LABELS are."""
    import shutil
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"
    d = tmp_path / "mine"
    d.mkdir()
    shutil.copy(example, d / "prefix_sum.py")
    assert main(["claims", "--proofs", str(d)]) == 0
    out = capsys.readouterr().out
    assert "demo:prefixsum" in out and "thm:cot" not in out and "without a claim" not in out
    (d / "__init__.py").write_text('MODULES = ("prefix_sum",)\nTITLE = "Mine"\nSUBJECT = "my notes, v1"\n'
                                   'LABELS = {"demo:prefixsum": ("theorem", True), "lem:todo": ("lemma", True)}\n')
    assert main(["claims", "--proofs", str(d)]) == 0
    out = capsys.readouterr().out
    assert "subject: my notes, v1" in out and "lem:todo" in out.split("without a claim:", 1)[1]
    assert "thm:cot" not in out
