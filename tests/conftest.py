import importlib
from pathlib import Path

import pytest

from symcot.ir import Layout, Map
from symcot.registry import load_claims

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def claims():
    return load_claims(ROOT / "proofs" / "cot_path_to_tree")


@pytest.fixture(scope="session")
def dfs_proofs(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")



def _dense(g, L, env=None, subs=None):
    """``(b_1, W_1, b_2, W_2, Q_2)`` of gadget ``g`` (applied to ``L``'s blocks) at sizes ``env``."""
    env = env or {}
    if g.stage == "pre":
        hid = Layout("t.hid", g.units())
        b1, w1, _q1 = Map("W_1", L, hid, g.w1()).instantiate(env, subs).dense()
        h = hid.vars()
        src = hid
    else:
        b1 = w1 = None
        h, src = None, L
    outs = g.outputs(h)
    out = Layout("t.out", [(r, e.size) for r, e in outs.items()])
    b2, w2, q2 = Map("W_2", src, out, outs).instantiate(env, subs).dense()
    return b1, w1, b2, w2, q2


@pytest.fixture
def dense():
    return _dense
