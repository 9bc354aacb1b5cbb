"""The command line: verify (table, JSON, exit codes), claims, replay, and one-line errors."""

import json
import textwrap

from symcot.cli import main

PROOFS_WITH_MUTANT = textwrap.dedent('''
    """A user's claims directory: the DFS construction with one broken weight."""
    import importlib
    from symcot.claims import Claim, ConstructionCheck
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.constructions.mutant import Mutant
    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    CLAIM = Claim("demo:broken", "theorem", "DFS with a broken gate", "test", [
        ConstructionCheck(lambda: Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0,
                                         variant="broken"), P.SPEC, [P.DIGRAPHS]),
    ], default_max_size=3)
''')


def test_verify_json_and_exit_code(tmp_path, capsys):
    out = tmp_path / "r.json"
    rc = main(["verify", "thm:cotdfs", "--max-size", "2", "--json", str(out), "--no-progress"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "\nthm:cotdfs  holds as written (verified: every input, n ≤ 2" in printed
    assert printed.rstrip().splitlines()[-1].startswith("1 verified in ")
    data = json.loads(out.read_text())
    assert data["schema"] == 1
    (row,) = data["claims"]
    assert set(row) >= {"id", "variant", "verdict", "method", "max_size", "inputs_checked", "seconds",
                        "counterexample", "notes"}
    assert row["id"] == "thm:cotdfs" and row["variant"] == "as-written" and row["verdict"] == "verified"
    assert row["max_size"] == 2 and row["counterexample"] is None
    exhaustive = 1 * 1 + 2 * 4  # (graph, source) pairs with n ≤ 2
    assert row["inputs_checked"] == exhaustive + 12 * 8  # plus the seeded random digraphs n = 5..12
    assert row["sizes"]["d"] == "6*n + 3"


def test_verify_refuted_exits_1_with_counterexample(tmp_path, capsys):
    user = tmp_path / "user"
    user.mkdir()
    (user / "demo.py").write_text(PROOFS_WITH_MUTANT)
    out = tmp_path / "r.json"
    md = tmp_path / "r.md"
    rc = main(["verify", "--proofs", str(user), "--json", str(out), "--markdown", str(md), "--no-progress"])
    assert rc == 1
    report = md.read_text()
    assert "| `demo:broken` | broken | **refuted** |" in report
    assert "## `demo:broken` [broken]: refuted" in report and "- **where**: step 1, layer 2, block `par`" in report
    assert "- **expected**: `[1, 0]`" in report and "- **got**: `[0, 0]`" in report
    printed = capsys.readouterr().out
    assert "\ndemo:broken  broken: refuted\n    counterexample: Digraph(n=2; 0->1), source 0" in printed
    row = json.loads(out.read_text())["claims"][0]
    assert row["verdict"] == "refuted" and row["counterexample"]["block"] == "par"


def test_claims_lists_ids(capsys):
    assert main(["claims"]) == 0
    out = capsys.readouterr().out
    assert "thm:cotdfs " in out and "thm:cotdfs:tree" in out and "as-written" in out


def test_replay_prints_trace(capsys):
    assert main(["replay", "thm:cotdfs", "--graph", "0-1,1-2", "--source", "1"]) == 0
    out = capsys.readouterr().out
    assert "step 1   reference: t=1 traverse: dfs=v0" in out and "head T -> x_0" in out


def test_bad_arguments_give_one_line_and_nonzero(capsys):
    cases = [
        ["verify", "thm:nosuch"],
        ["verify", "thm:cotdfs", "--max-size", "0"],
        ["replay", "thm:cotdfs", "--graph", "0->0"],
        ["replay", "thm:cotdfs", "--graph", "0=>1"],
        ["replay", "thm:cotdfs", "--dyck", "UDDU"],
        ["replay", "thm:cotdfs", "--dyck", "UXD"],
        ["replay", "thm:cotdfs", "--graph", "0-1", "--source", "7"],
    ]
    for argv in cases:
        rc = main(argv)
        err = capsys.readouterr().err.strip()
        assert rc == 2, argv
        assert err.startswith("symcot: error:") and "\n" not in err and "Traceback" not in err, (argv, err)


def test_replay_accepts_tree_notations_and_graph_files(tmp_path, capsys):
    for argv in (["--tree", "(()(()))"], ["--tree=-1,0,0,2"], ["--tree", "UDUUDD"], ["--dyck", "UDUUDD"]):
        assert main(["replay", "thm:cotdfs", *argv]) == 0, argv
        assert "stopped by the stop rule" in capsys.readouterr().out
    f = tmp_path / "g.txt"
    f.write_text("# a path\n0 1\n1 2\n")
    assert main(["replay", "thm:cotdfs", "--graph-file", str(f), "--source", "0"]) == 0
    assert "Digraph(n=3; 0->1, 1->2), source 0" in capsys.readouterr().out
    assert main(["replay", "thm:cotdfs", "--graph-file", str(f), "--undirected", "--source", "2"]) == 0
    assert "source 2" in capsys.readouterr().out


def test_replay_plot(tmp_path, capsys):
    import pytest

    pytest.importorskip("matplotlib")
    out = tmp_path / "trace.png"
    assert main(["replay", "thm:cotdfs", "--tree", "(()())", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    assert main(["replay", "thm:cotdfs", "--tree", "(())", "--plot", str(tmp_path / "x.txt")]) == 2


def test_more_bad_arguments(tmp_path, capsys):
    cases = [
        ["replay", "thm:cotdfs", "--tree", "(()"],
        ["replay", "thm:cotdfs", "--tree=-1,-1"],
        ["replay", "thm:cotdfs", "--graph-file", str(tmp_path / "missing.txt")],
        ["replay", "thm:cotdfs", "--graph", "0-1", "--dyck", "UD"],
        ["replay", "thm:cotdfs"],
        ["verify", "--max-size", "x"],
        ["nosuchcommand"],
    ]
    for argv in cases:
        try:
            rc = main(argv)
        except SystemExit as e:  # argparse exits itself on malformed options
            rc = e.code
        err = capsys.readouterr().err.strip()
        assert rc == 2, argv
        assert err.startswith("symcot: error:") and "\n" not in err and "Traceback" not in err, (argv, err)


def test_eq_depth_height_as_printed_is_refuted_and_the_signed_reading_verified(claims):
    rows = {r.variant: r for r in claims["eq:depth-height"].run(max_size=6)}
    cex = rows["as-written"].counterexample
    assert rows["as-written"].verdict == "refuted" and cex["input"]["word"] == "UD" and cex["step"] == 2
    assert rows["repaired"].verdict == "verified" and rows["repaired"].max_size == 6


def test_verify_all_n_rows_explain_and_option_errors(tmp_path, capsys):
    from tests.fixtures.unstated import write_claims

    out = tmp_path / "r.json"
    rc = main(["verify", "--all-n", "--proofs", str(write_claims(tmp_path / "claims")), "--explain", "--json", str(out),
               "--no-progress"])
    assert rc == 2  # no all-n statement: the repaired row is unknown, with the reason in the row
    printed = capsys.readouterr().out
    assert "mine:width [repaired]: unknown" in printed and "== mine:width [as-written]: refuted" in printed
    assert "no obligation was stated" in printed and "exhaustive" not in printed.split("claim ")[0]
    data = json.loads(out.read_text())
    assert data["meta"]["all_n"] is True and [r["variant"] for r in data["claims"]] == ["as-written", "repaired"]
    assert all(r["scope"] == "nothing established for all n" for r in data["claims"] if r["verdict"] == "unknown")
    assert {r["verdict"] for r in data["claims"]} == {"refuted", "unknown"}
    for argv in (["verify", "--explain", "thm:cotdfs"], ["verify", "--all-n", "--symbolic"],
                 ["verify", "--all-n", "lem:addwidplus1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("symcot: error:"), (argv, err)
