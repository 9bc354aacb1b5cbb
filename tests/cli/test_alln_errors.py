"""``symcot verify --all-n``: one claim's crash is its own ``error`` row; the claims beside it still run."""

import json
import textwrap

from symcot.cli import main

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

NO_STATEMENT = '''
from proofs.cot_path_to_tree.thm_cotwidoftree import SPEC, TREE_FAMILIES
from symcot.prove.alln.check import AllNCheck
from symcot.claims import Claim
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction

CLAIMS = [Claim(id="mine:other", kind="theorem", statement="s", where="w", default_max_size=2,
                checks=[AllNCheck(lambda: WidthTreeConstruction("repaired"), SPEC, TREE_FAMILIES)])]
'''


def test_one_crash_does_not_stop_the_all_n_run(tmp_path, capsys):
    d = tmp_path / "claims"
    d.mkdir()
    (d / "broken.py").write_text(textwrap.dedent(BROKEN))
    (d / "other.py").write_text(textwrap.dedent(NO_STATEMENT))
    out = tmp_path / "r.json"
    rc = main(["verify", "--all-n", "--proofs", str(d), "--no-progress", "--json", str(out)])
    rows = {r["id"]: r for r in json.loads(out.read_text())["claims"]}
    broken = " ".join(rows["mine:broken"]["notes"])
    assert rows["mine:broken"]["verdict"] == "error" and "my reference crashed" in broken and "broken.py:10" in broken
    assert rows["mine:other"]["verdict"] == "unknown"
    assert rc != 0
