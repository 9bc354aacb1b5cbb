"""``symcot verify --all-n``: one claim's crash is its own ``error`` row; the claims beside it still run."""

import json
import textwrap

from symcot.cli import main
from tests.fixtures.unstated import write_claims

BROKEN = '''
from proofs.cot_path_to_tree.thm_cotdfs import DIGRAPHS, SPEC
import dataclasses
from symcot.prove.alln.check import AllNCheck
from symcot.claims import Claim
from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction


def crash(inp):
    raise RuntimeError("my reference crashed")


CLAIMS = [Claim(id="mine:broken", kind="theorem", statement="s", where="w", default_max_size=2,
                checks=[AllNCheck(DfsConstruction, dataclasses.replace(SPEC, reference=crash), [DIGRAPHS],
                                  concrete_size=2, facts_size=2)])]
'''




def test_one_crash_does_not_stop_the_all_n_run(tmp_path, capsys):
    d = tmp_path / "claims"
    d.mkdir()
    (d / "broken.py").write_text(textwrap.dedent(BROKEN))
    write_claims(d, "other.py")
    out = tmp_path / "r.json"
    rc = main(["verify", "--all-n", "--proofs", str(d), "--no-progress", "--json", str(out)])
    rows = {(r["id"], r["variant"]): r for r in json.loads(out.read_text())["claims"]}
    broken = " ".join(rows["mine:broken", "as-written"]["notes"])
    assert rows["mine:broken", "as-written"]["verdict"] == "error" and "my reference crashed" in broken
    assert "broken.py:10" in broken
    assert rows["mine:width", "as-written"]["verdict"] == "refuted"
    assert rows["mine:width", "repaired"]["verdict"] == "unknown"
    assert rc != 0
