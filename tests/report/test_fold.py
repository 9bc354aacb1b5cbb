"""The default output of ``symcot verify``: rows folded per paper label, cut to the width, and the count line."""

from proofs.cot_path_to_tree import LABELS
from symcot.check.verdict import Verdict
from symcot.report.fit import cut, fit_table, wrap
from symcot.report.fold import Group, count_line, group_rows, label_of, outcome, render_folded
from symcot.report.table import render_table

LONG = "every input, n ≤ 4; seeded samples of seeded random digraphs (12 per size) to n = 12, and more words"


def v(claim, variant, verdict, size=2, scope="", notes=None):
    cex = {"size": size, "input": {"text": f"w of size {size}"}, "step": 1, "expected": 1, "got": 0} \
        if verdict == "refuted" else None
    return Verdict(claim, variant, verdict, "exhaustive exact replay, every CoT step [batched engine]", 4, 10, 0.5,
                   cex, notes or [], scope=scope)


ROWS = [
    v("thm:cotdfs:pargate", "as-written", "proved"),
    v("thm:cotdfs:pargate", "in:thm:cotdfs", "verified"),
    v("eq:depth-height", "as-written", "refuted", size=3),
    v("eq:depth-height", "repaired", "verified"),
    v("thm:cotdfs", "as-written", "verified", scope=LONG),
    v("intro:frv", "as-written", "verified"),
    v("intro:frv", "leaf-strahler-1", "refuted"),
    v("thm:cotdfs:phi", "as-written", "refuted"),
    v("thm:cotdfs:phi:domains", "as-written", "unknown", notes=["solver timeout after 30 s"]),
    v("thm:cotdfs:fact1", "as-written", "verified"),
]


def test_rows_group_under_the_paper_label_their_id_extends():
    assert label_of("thm:cotdfs:phi:fact1", labels=LABELS) == "thm:cotdfs"
    assert label_of("lem:widsupffn:note", labels=LABELS) == "lem:widsupffn"
    assert label_of("intro:frv", labels=LABELS) == "intro:frv"  # an id of ours heads its own group
    assert label_of("demo:x:sub", ids=["demo:x", "demo:x:sub"], labels=LABELS) == "demo:x"
    # a sub-claim whose label's claim is not among the rows heads its own group
    assert label_of("thm:cotdfs:tree", ids=["thm:cotdfs:tree", "thm:cotdfs:phi"], labels=LABELS) == "thm:cotdfs:tree"
    ids = ["thm:cotdfs:phi", "thm:cotdfs:phi:fact1"]
    assert label_of("thm:cotdfs:phi:fact1", ids=ids, labels=LABELS) == "thm:cotdfs:phi"
    groups = group_rows(ROWS, LABELS)
    # thm:cotdfs comes where its own row came, not where its first sub-check (pargate) did
    assert [g.label for g in groups] == ["eq:depth-height", "thm:cotdfs", "intro:frv"]
    assert len(groups[1].rows) == 6 and [r.id for r in groups[1].main] == ["thm:cotdfs"]


def test_outcomes():
    groups = {g.label: g for g in group_rows(ROWS, LABELS)}
    text, spoken, shown = outcome(groups["eq:depth-height"])
    assert text == "refuted; a repaired variant holds (repaired)" and shown is ROWS[2]
    text, _, shown = outcome(groups["thm:cotdfs"])
    assert text == f"holds as written (verified: {LONG})" and shown is None
    text, _, _ = outcome(groups["intro:frv"], kind_of=lambda r: "reading" if r.variant != "as-written" else None)
    assert text.startswith("holds as written")
    bad = v("lem:x", "as-written", "error", notes=["check failed: demo.py:8: ZeroDivisionError"])
    lemma = group_rows([bad], LABELS)[0]
    assert outcome(lemma)[0] == "error" and outcome(lemma)[2] is not None
    only_subs = Group("thm:cotdfs", [v("thm:cotdfs:fact1", "as-written", "verified"),
                                     v("thm:cotdfs:phi", "x", "refuted")])
    assert outcome(only_subs)[0] == "2 rows: 1 verified, 1 refuted"
    assert outcome(group_rows([v("demo:x", "broken", "refuted")], LABELS)[0])[0] == "broken: refuted"


def test_render_folded_fits_the_width():
    out = render_folded(ROWS, 60, labels=LABELS).splitlines()
    assert all(len(line) <= 60 for line in out)
    # on a narrow terminal the outcome keeps its start, and the sub-check count goes to a line of its own
    assert out[1] == "eq:depth-height  refuted; a repaired variant holds (repaire…"
    assert out[2] == "    (+1 sub-check: 1 verified)"
    assert out[3] == "    counterexample: w of size 3: step 1: expected 1, got 0"
    # an unknown sub-check's reason wraps, whole
    assert out[7:9] == ["    thm:cotdfs:phi:domains [as-written]: unknown: solver", "      timeout after 30 s"]
    out = render_folded(ROWS, 120, labels=LABELS).splitlines()
    assert all(len(line) <= 120 for line in out)
    assert out[1] == "eq:depth-height  refuted; a repaired variant holds (repaired)  (+1 sub-check: 1 verified)"
    assert out[3].startswith("thm:cotdfs       holds as written (verified: every") and "…" in out[3]
    assert out[3].endswith("(+5 sub-checks: 1 proved, 2 verified, 1 refuted, 1 unknown)")
    unlimited = render_folded(ROWS, None, labels=LABELS)
    assert LONG in unlimited and "…" not in unlimited


def test_count_line():
    assert count_line(ROWS, 130.4) == "1 proved, 5 verified, 3 refuted, 1 unknown in 130 s"
    assert count_line(ROWS[:1], 2.04, ["5 deselected"]) == "1 proved, 5 deselected in 2.0 s"
    assert count_line([], 0.0) == "no rows in 0.0 s"


def test_table_at_a_width_wraps_or_moves_the_long_columns():
    rows = [ROWS[4], ROWS[2]]
    wide = render_table(rows, 400).splitlines()
    assert wide[0].split() == ["claim", "variant", "verdict", "scope", "max_size", "inputs", "seconds", "method"]
    assert len(wide) == 2 + 2 + 1 and LONG in wide[2]
    mid = render_table(rows, 190).splitlines()  # scope and method wrap inside their columns, on two lines at most
    assert all(len(line) <= 190 for line in mid)
    assert len(mid) == 2 + 2 * 2 + 1 and mid[0].split()[3] == "scope"
    tall = render_table(rows, 150).splitlines()  # cells of 3 lines or more: scope and method under each row
    assert tall[0].split() == ["claim", "variant", "verdict", "max_size", "inputs", "seconds"]
    assert all(len(line) <= 150 for line in tall) and tall[3] == f"    scope: {LONG}"
    narrow = render_table(rows, 80).splitlines()  # no room: they move under their row
    assert narrow[0].split() == ["claim", "variant", "verdict", "max_size", "inputs", "seconds"]
    assert all(len(line) <= 80 for line in narrow if "counterexample:" not in line)
    assert narrow[3].startswith("    scope: every input, n ≤ 4;") and any(
        line.startswith("    method: exhaustive") for line in narrow)
    assert "".join(line.strip() + " " for line in narrow[3:6]).count("seeded random digraphs") == 1


def test_fit_helpers():
    assert cut("abcdef", 4) == "abc…" and cut("abc", 4) == "abc" and cut("a\nb", None) == "a b"
    assert wrap("one two three four", 9, "  ") == ["  one two", "    three", "    four"]
    table = fit_table(["a", "b"], [["x", "y"]], None, flexible=(1,))
    assert table == [["a  b", "-  -"], ["x  y"]]


ALLN = "all n (every input of every size; the statement's trusted base in details); proved (Z3, cvc5)"
WHY = ("first obligation not proved: [unknown] step: output y_{t+1} (t + 1 < T): block cnt of layer 1, "
       "by Z3 (10.0 s): timed out")


def test_a_narrow_line_keeps_the_verdict_and_the_solvers_and_shortens_the_scope():
    rows = [v("demo:count", "as-written", "proved", scope=ALLN), v("demo:count", "capped", "unknown", notes=[WHY])]
    out = render_folded(rows, 100).splitlines()
    assert all(len(line) <= 100 for line in out)
    assert out[1].startswith("demo:count  holds as written (proved: all n (every") and "…" in out[1]
    assert out[1].endswith("; proved (Z3, cvc5))  (+1 sub-check: 1 unknown)")
    # the unknown sub-check's reason, with the block that failed, wraps whole under the line
    assert " ".join(line.strip() for line in out[2:]) == f"demo:count [capped]: unknown: {WHY}"
    # an unknown as-written row: the verdict on the line, its reason under it
    out = render_folded([v("demo:count", "as-written", "unknown", notes=[WHY])], 60).splitlines()
    assert out[1] == "demo:count  unknown" and "block cnt of layer 1" in " ".join(out[2:])
    assert all(len(line) <= 60 for line in out)


def test_the_verbose_table_keeps_every_rows_message():
    err = v("demo:count", "as-written", "error", notes=["the all-n statement is not stated: no views for cnt"])
    table = render_table([err, v("demo:count", "capped", "unknown", notes=[WHY])], 80)
    assert "    the all-n statement is not stated: no views for cnt" in table.splitlines()
    assert "block cnt of layer 1" in table and all(len(line) <= 80 for line in table.splitlines())
