"""``symcot verify`` uses the batched engine by default; verdicts and counterexamples equal exact replay's."""

import json

import pytest

from symcot.cli import main

#: What may differ between the engines: the method's engine suffix, the engine's details, timings.
ENGINE_DETAILS = {"engine", "batch", "certificate", "exact_fallbacks", "shards"}


def _normalised(path):
    rows = json.loads(path.read_text())["claims"]
    for r in rows:
        r.pop("seconds")
        r["method"] = r["method"].removesuffix(" [batched engine]")
        details = {k: v for k, v in (r.get("details") or {}).items() if k not in ENGINE_DETAILS}
        details.pop("solver_seconds", None)
        r["details"] = details or None
    return rows


def _both(tmp_path, claims, *extra):
    out = {}
    for engine in ("exact", None):
        path = tmp_path / f"{engine or 'default'}.json"
        argv = ["verify", *claims, *extra, "--no-progress", "--jobs", "1", "--json", str(path)]
        main(argv + (["--engine", engine] if engine else []))
        out[engine or "default"] = path
    return out


def test_default_engine_is_batched_with_the_same_verdicts(tmp_path, capsys):
    claims = ["thm:cotwidofpath", "thm:cottreestrahler", "thm:cotpathstrahler", "thm:cotdfs:tree",
              "thm:cotpathtotree", "thm:cotwidoftree", "thm:cotdfs:phi"]
    paths = _both(tmp_path, claims, "--max-size", "5")
    default = json.loads(paths["default"].read_text())
    assert default["meta"]["engine"] == "batched"
    assert all(r["method"].endswith("[batched engine]") and r["details"]["engine"] == "batched"
               for r in default["claims"])
    exact, batched = _normalised(paths["exact"]), _normalised(paths["default"])
    assert [r["verdict"] for r in exact].count("refuted") >= 5 and [r["verdict"] for r in exact].count("verified") >= 5
    assert exact == batched  # verdicts, sizes, counts, counterexamples, notes, families


@pytest.mark.slow
def test_lambda_scan_claim_gives_the_same_verdicts_with_both_engines(tmp_path, capsys):
    paths = _both(tmp_path, ["thm:cotdijkstra"])
    assert _normalised(paths["exact"]) == _normalised(paths["default"])
