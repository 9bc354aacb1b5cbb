"""``symcot verify -k EXPR``: pytest-like expressions over row names ``claim [variant]``."""

from types import SimpleNamespace

import pytest

from symcot.cli import main
from symcot.cli.select import compile_keyword, row_name, select_failed, select_keyword
from symcot.errors import SymcotError

NAMES = ["thm:cotdfs [as-written]", "thm:cotdfs:phi [as-written]", "thm:cotdfs:fact1 [as-written]",
         "lem:mMc [in:thm:cotdfs]", "eq:depth-height [repaired]", "eq:depth-height [as-written]"]


def plan(names=NAMES):
    out = []
    for name in names:
        claim, variant = name[:-1].split(" [")
        out.append((SimpleNamespace(id=claim), SimpleNamespace(variant=variant)))
    return out


def matching(expr):
    m = compile_keyword(expr)
    return [n for n in NAMES if m(n)]


def test_words_are_case_insensitive_substrings_of_claim_and_variant():
    assert matching("cotdfs") == NAMES[:4]
    assert matching("COTDFS:PHI") == ["thm:cotdfs:phi [as-written]"]
    assert matching("[repaired]") == ["eq:depth-height [repaired]"]
    assert matching("in:") == ["lem:mMc [in:thm:cotdfs]"]


def test_and_or_not_and_parentheses():
    assert matching("cotdfs and not phi") == [NAMES[0], NAMES[2], NAMES[3]]
    assert matching("cotdfs and not (phi or fact1 or lem:)") == [NAMES[0]]
    assert matching("phi or depth and repaired") == [NAMES[1], NAMES[4]]  # and binds tighter than or
    assert matching("(phi or depth) and as-written") == [NAMES[1], NAMES[5]]
    assert matching("not not mMc") == [NAMES[3]]
    assert matching("not cotdfs and not depth") == []


@pytest.mark.parametrize("expr, message", [
    ("", "-k: empty expression"),
    ("cotdfs and", "expected a word, 'not' or '(' at column 11, found the end"),
    ("(cotdfs or phi", "expected ')' at column 15, found the end"),
    ("cotdfs phi", "expected and, or or the end at column 8, found 'phi'"),
    ("or phi", "expected a word, 'not' or '(' at column 1, found 'or'"),
    ("cotdfs)", "found ')'"),
])
def test_malformed_expressions_name_the_column(expr, message):
    with pytest.raises(SymcotError) as e:
        compile_keyword(expr)
    assert message in str(e.value)


def test_select_keyword_and_failed_keep_plan_order():
    p = plan()
    kept = select_keyword(p, "depth or phi")
    assert [row_name(c.id, k.variant) for c, k in kept] == [NAMES[1], NAMES[4], NAMES[5]]
    with pytest.raises(SymcotError, match="matches none of the 6 selected rows"):
        select_keyword(p, "nosuchclaim")
    again = select_failed(p, {"eq:depth-height [as-written]", "gone:claim [as-written]"})
    assert [row_name(c.id, k.variant) for c, k in again] == [NAMES[5]]


def test_verify_k_runs_the_matching_rows_and_a_miss_is_one_line(capsys):
    assert main(["verify", "eq:depth-height", "--max-size", "3", "--no-progress", "-k", "repaired"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("1 verified, 1 deselected in ")
    assert main(["verify", "eq:depth-height", "--no-progress", "-k", "phi and not cotdfs"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err == ("symcot: error: -k 'phi and not cotdfs' matches none of the 2 selected rows (rows are named "
                   "'claim [variant]'; `symcot claims` lists them)")
    assert main(["verify", "--no-progress", "-k", "(phi"]) == 2
    assert "expected ')' at column 5" in capsys.readouterr().err
