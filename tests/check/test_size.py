"""A construction's size parameter: its symbol, its value at each input size, and scopes written in it."""

import pytest

from symcot.check.size import check_size_parameter, size_symbols
from symcot.check.verdict import Verdict, default_scope


def _cons(claims, claim_id):
    return next(c for c in claims[claim_id].checks if hasattr(c, "construction")).construction()


def _param(claims, claim_id):
    chk = next(c for c in claims[claim_id].checks if hasattr(c, "construction"))
    return check_size_parameter(chk)


@pytest.mark.parametrize(("claim", "name", "values", "text"), [
    ("thm:cotdfs", "n", {1: 1, 4: 4}, "n ≤ 6"),
    ("thm:cottreestrahler", "n", {2: 2, 5: 5}, "n ≤ 6"),
    ("thm:cotpathtotree", "m", {2: 2, 5: 5}, "m ≤ 6"),
    ("thm:cotwidofpath", "n", {2: 2, 4: 6, 10: 18}, "n = |w| ≤ 10"),
    ("thm:cotpathstrahler", "n", {3: 4}, "n = |w| ≤ 10"),
])
def test_the_symbol_and_its_value_per_number_of_vertices(claims, claim, name, values, text):
    param = _param(claims, claim)
    assert param.name == name and [str(s) for s in size_symbols(_cons(claims, claim))] == [name]
    assert {s: param.value(s) for s in values} == values
    assert param.text("≤", 6) == text
    for size, value in values.items():
        assert param.size_of(value) == size


def test_a_value_no_input_has_and_the_nearest(claims):
    param = _param(claims, "thm:cotwidofpath")
    assert param.size_of(5) is None and param.nearest(5) == [4, 6]


def test_default_scope_in_the_size_parameter(claims):
    param = _param(claims, "thm:cotwidofpath")
    v = Verdict("c", "v", "verified", "m", 10, 1, 0.0, families=[
        {"family": "Dyck words", "exhaustive": True, "sizes_complete": [1, 12]}])
    assert default_scope(v, param.text) == "every input, n = |w| ≤ 18; every input of Dyck words to n = |w| = 22"
    r = Verdict("c", "v", "refuted", "m", 2, 1, 0.0, {"size": 3})
    assert default_scope(r, param.text) == "counterexample at n = |w| = 4; every input passes for n = |w| ≤ 2"
    assert default_scope(r) == "counterexample at n = 3; every input passes for n ≤ 2"  # unchanged default


def test_verify_names_the_size_parameter_in_the_scope(claims):
    rows = {chk.variant: claims["thm:cotwidofpath"].run_check(chk, max_size=3, engine="exact")
            for chk in claims["thm:cotwidofpath"].checks if type(chk).__name__ == "ConstructionCheck"
            and chk.variant in ("as-written", "repaired")}
    assert rows["repaired"].scope == "every input, n = |w| ≤ 4" and rows["repaired"].max_size == 3
    assert rows["as-written"].scope == "counterexample at n = |w| = 2; every input passes for n = |w| ≤ 0"
    dfs = claims["thm:cotdfs"]
    row = dfs.run_check(next(c for c in dfs.checks if type(c).__name__ == "ConstructionCheck"), max_size=2)
    assert row.scope.startswith("every input, n ≤ 2")


def test_a_lemma_where_a_path_side_decoder_uses_it_names_n_as_its_decoder_does(claims):
    lem = claims["lem:addwidplus1"]
    chk = next(c for c in lem.checks if c.variant == "in:thm:cotwidofpath")
    row = lem.run_check(chk, max_size=3)
    assert row.verdict == "verified" and row.scope.endswith("domain confirmed on every input, n = |w| ≤ 4")
