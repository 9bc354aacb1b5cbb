"""Larger exhaustive sizes, deselected by default: run with ``pytest -m slow``."""

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.check.exhaustive import run_construction_check


@pytest.mark.slow
def test_dfs_as_written_on_every_rooted_labeled_tree_up_to_7(dfs_proofs):
    row = run_construction_check("thm:cotdfs:tree", DfsConstruction(), dfs_proofs.TREE_SPEC, [dfs_proofs.TREES], 7,
                                 dfs_proofs.PAPER_SIZES, jobs=2)
    assert row.verdict == "verified" and row.max_size == 7
    assert row.inputs_checked == sum(k ** (k - 1) for k in range(1, 8))
