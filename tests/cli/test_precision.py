"""``symcot precision``: the table, the JSON report, the plot, and one-line errors checked before any run."""

import json

import pytest

from symcot.cli import main


def test_precision_json_table_and_plot(tmp_path, capsys):
    out, img = tmp_path / "r.json", tmp_path / "r.png"
    rc = main(["precision", "thm:cotpathtotree", "--max-size", "4", "--measure-up-to", "6", "--betas", "100",
               "--json", str(out), "--plot", str(img), "--no-progress"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "thm:cotpathtotree [as-written]" in printed and "relies on ties" in printed
    assert "bfloat16 hard" in printed and "float64 softmax β=100" in printed
    data = json.loads(out.read_text())
    (js,) = data["claims"]
    assert js["claim"] == "thm:cotpathtotree" and js["variant"] == "as-written"
    exh = [r for r in js["rows"] if not r["extremal"]]
    assert [r["n"] for r in exh] == [2, 3, 4]  # n = 1 is the empty word: no step, nothing to analyse
    assert exh[-1]["inputs"] == 5 and exh[-1]["M"] == 2 and exh[-1]["gamma"]["value"] == 1
    assert exh[-1]["beta"]["beta"] == "inf" and exh[-1]["beta"]["without_deciding_ties"] > 0
    assert {r["n"] for r in js["rows"] if r["extremal"]} == {5, 6}
    soft = next(t for t in js["thresholds"] if t["setting"] == "float64 softmax β=100")
    assert soft["measured"]["n"] == 2 and soft["measured"]["input"]["word"] == "UD"
    assert img.stat().st_size > 1000


def test_precision_on_an_encoder_claim(tmp_path, capsys):
    out, img = tmp_path / "e.json", tmp_path / "e.png"
    rc = main(["precision", "sec:tie-breaking", "--max-size", "4", "--json", str(out), "--plot", str(img),
               "--no-progress"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "sec:tie-breaking [as-written] (encoder" in printed and "1/12" in printed  # the margin at n = 4
    assert "no plot" in printed and not img.exists()
    (js,) = json.loads(out.read_text())["claims"]
    assert js["model"] == "encoder" and [r["n"] for r in js["rows"]] == [1, 2, 3, 4]
    assert js["formats"]["bfloat16"]["kept_up_to"] == 4
    assert "first n changed" in printed  # the measured float replay, beside the first-order estimate
    assert {(r["format"], r["n"]) for r in js["float_replay"]} == {(f, n) for f in ("float64", "float32", "float16",
                                                                                   "bfloat16") for n in range(1, 5)}


@pytest.mark.parametrize("argv,message", [
    (["thm:cotdfs", "--max-size", "0"], "--max-size must be at least 1"),
    (["thm:cotdfs", "--reach", "0"], "--reach must be at least 1"),
    (["thm:cotdfs", "--eps", "2"], "--eps must lie strictly between 0 and 1"),
    (["thm:cotdfs", "--search-budget", "-1"], "--search-budget must be at least 0"),
    (["thm:cotdfs", "--betas", "ten"], "--betas must be comma-separated numbers"),
    (["thm:cotdfs", "--betas", "-1"], "--betas must be positive"),
    (["thm:cotdfs", "--formats", "float8"], "unknown format 'float8'"),
    (["thm:cotdfs", "--json", "/nonexistent/dir/r.json"], "does not exist"),
    (["thm:cotdfs", "--plot", "thresholds.txt"], "--plot writes .png, .svg or .pdf"),
    (["thm:cotdfs", "--json", "/tmp"], "is a directory"),
    (["thm:nope"], "unknown claim"),
    (["lem:addwidplus1"], "not checked through a construction"),
    (["thm:cotdfs", "thm:cottreestrahler:lambda"], "not checked through a construction"),
    (["thm:cotdfs", "--variant", "repaired"], "no construction variant"),
    (["sec:tie-breaking", "--variant", "nope"], "no construction variant 'nope'"),
])
def test_precision_errors_are_one_line(argv, message, capsys):
    assert main(["precision", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
