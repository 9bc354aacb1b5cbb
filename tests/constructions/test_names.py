"""A name typed wrong in an encoding or an all-n statement is one line at the user's file and line, at load time."""

import pathlib

import pytest

from symcot.cli import main
from symcot.constructions.names import LISTED, unknown_name

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"


def _with_typo(tmp_path, old, new):
    text = EXAMPLE.read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    d = tmp_path / "claims"
    d.mkdir()
    (d / "prefix_sum.py").write_text(text)
    line = text[:text.index(new)].count("\n") + 1
    return d, line


CASES = [
    # (what is typed wrong, the text as written, the typo, what the message says)
    ("encoding block", 'ENCODING = StateEncoding({"sum"', 'ENCODING = StateEncoding({"summ"',
     "PrefixSum.encoding names block 'summ', but layout 'prefix' has no block of that name "
     "(blocks: bit, flg, pos, sum); did you mean 'sum'?"),
    ("statement block", 'pos=onehot("at"), bit=scalar("none")', 'pos=onehot("at"), bitt=scalar("none")',
     "the all-n statement's token names block 'bitt', but layout 'prefix' has no block of that name "
     "(blocks: bit, flg, pos, sum); did you mean 'bit'?"),
    ("segment block", 'PROMPT = StateEncoding({"pos"', 'PROMPT = StateEncoding({"poss"',
     "prompt segment 'x' names block 'poss', but layout 'prefix' has no block of that name "
     "(blocks: bit, flg, pos, sum); did you mean 'pos'?"),
    ("view", 'flg=scalar("one")),', 'flg=scalar("onne")),',
     "the all-n statement's token (block flg) names view 'onne', but the statement has no view of that name "
     "(views: at, none, one, total); did you mean 'one'?"),
    ("head", 'Choice(1, "R",', 'Choice(1, "RR",',
     "a choice at layer 1 names head 'RR', but layer 1 of decoder 'prefix-sum' has no head of that name "
     "(heads: R); did you mean 'R'?"),
    ("layer", 'Choice(1, "R",', 'Choice(2, "R",',
     "a choice at layer 2 names layer 2, but decoder 'prefix-sum' has layers 1 to 1"),
]


@pytest.mark.parametrize(("kind", "old", "new", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_typo_is_one_line_at_its_line_in_the_default_run(tmp_path, capsys, kind, old, new, message):
    d, line = _with_typo(tmp_path, old, new)
    assert main(["verify", "--proofs", str(d), "--no-progress", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("symcot: error:")]
    assert len(lines) == 1, err
    assert f"{d / 'prefix_sum.py'}:{line}: {message}" in lines[0]
    assert "KeyError" not in err and "Traceback" not in err


def test_the_correct_example_loads(tmp_path, capsys):
    d, _ = _with_typo(tmp_path, 'ENCODING = StateEncoding({"sum"', 'ENCODING = StateEncoding({"sum"')
    assert main(["verify", "--proofs", str(d), "--no-progress", "--jobs", "1"]) == 0
    assert "symcot: error" not in capsys.readouterr().err


def test_a_long_list_of_names_keeps_the_closest():
    known = [f"block{i:02d}" for i in range(60)] + ["cnt"]
    msg = str(unknown_name("f.py:3", "enc", "block", "cnnt", known, "layout 'L'"))
    assert msg.startswith("f.py:3: enc names block 'cnnt'") and msg.endswith("did you mean 'cnt'?")
    assert "cnt, " in msg and f"({len(known) - LISTED} more)" in msg
