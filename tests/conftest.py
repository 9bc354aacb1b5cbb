import importlib
from pathlib import Path

import pytest

from symcot.registry import load_claims

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def claims():
    return load_claims(ROOT / "proofs")


@pytest.fixture(scope="session")
def dfs_proofs(claims):
    return importlib.import_module("proofs.thm_cotdfs")
