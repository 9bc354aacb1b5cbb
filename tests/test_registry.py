"""Finding claims: which directory, what a run selects, and errors that say what exists."""

import pytest

from symcot.errors import SymcotError, UnknownClaimError
from symcot.registry import discover, load, select, select_checks


def test_discover_describes_the_directory_it_used(tmp_path):
    (tmp_path / "one.py").write_text("")
    src = discover(tmp_path)
    assert src.describe() == f"proofs: {tmp_path} (package symcot_user_proofs, 1 module from every *.py file)"


def test_select_checks_is_never_empty_and_names_what_exists(claims):
    widpath, dfs = claims["thm:cotwidofpath"], claims["thm:cotdfs"]
    plan = select_checks([widpath, dfs], ["repaired"])  # not named: the claim without it is skipped
    assert [(c.id, k.variant) for c, k in plan] == [("thm:cotwidofpath", "repaired")]
    with pytest.raises(SymcotError, match="thm:cotdfs has no variant 'repaired'"):
        select_checks([widpath, dfs], ["repaired"], named=True)
    with pytest.raises(SymcotError, match="thm:cotdfs has no symbolic check"):
        select_checks([dfs], None, symbolic=True, named=True)
    with pytest.raises(SymcotError, match="nothing to check: no symbolic check"):
        select_checks([dfs], None, symbolic=True)


def test_unknown_claim_suggests(claims):
    with pytest.raises(UnknownClaimError, match="did you mean thm:cotdijkstra"):
        select(claims, ["thm:cotdikstra"])


def test_a_list_of_claims_must_hold_claims(tmp_path):
    (tmp_path / "bad.py").write_text("CLAIMS = [1]\n")
    with pytest.raises(SymcotError, match="bad.py: CLAIM/CLAIMS must hold symcot.claims.Claim objects, got int"):
        load(tmp_path)


def test_a_statement_refused_at_import_names_the_users_line(tmp_path):
    (tmp_path / "bad.py").write_text("from symcot import Layout, Map, n\n"
                                     "L = Layout('p', [('pos', n), ('cnt', 1)])\n"
                                     "W = Map('W', L, L, {'cnt': L.vars().pos}, keep=['pos'])\n")
    with pytest.raises(SymcotError) as e:
        load(tmp_path)
    assert str(e.value) == (f"{tmp_path / 'bad.py'}:3: W: block 'cnt' has size 1 but is assigned an expression "
                            f"of size n: π_pos (while importing the proofs module {tmp_path / 'bad.py'})")


def test_an_id_found_nowhere_points_to_proofs_and_lists_five_ids(claims):
    with pytest.raises(UnknownClaimError) as e:
        select(claims, ["demo:prefixsum"])
    msg = str(e.value)
    assert msg.startswith("unknown claim 'demo:prefixsum'; claims of your own need --proofs DIR")
    listed = msg.split("ids here: ")[1].split(" (symcot claims")[0].split(", ")
    assert len(listed) == 5 and all(i in claims for i in listed) and len(msg) < 300
