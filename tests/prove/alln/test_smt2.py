"""SMT-LIB 2 text of an obligation's query: standalone, parsed by cvc5, reserved names translated; files and index."""

import pytest
import z3

from symcot.check.verdict import Verdict
from symcot.prove.alln.context import Context, Obligation, Query
from symcot.prove.alln.smt2 import (
    INDEX_NAME,
    file_name,
    index_lines,
    obligation_text,
    text,
    write_index,
    write_obligations,
)

cvc5 = pytest.importorskip("cvc5")

from symcot.prove.alln.second import check_text  # noqa: E402 - after the skip: it is only run with cvc5


def _proved_by_hand():
    """A quantified fact and a goal that follows from one instance of it (plus an unrelated fact)."""
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x, n = z3.Int("x:vertex"), z3.Int("n")
    ctx = Context([("f positive", z3.ForAll([x], z3.Implies(x >= 0, f(x) > 0))), ("unrelated", n == 3)])
    ob = ctx.check(f(n * 0 + 2) + 1 > 1, "step", "head T", "f(2) + 1 > 1")
    return ctx, ob


def test_a_proved_obligation_keeps_its_core_query_and_its_text_is_unsat_in_cvc5():
    _, ob = _proved_by_hand()
    assert ob.ok and ob.used == ["f positive"]
    q = ob.query
    assert q is not None and q.core and [name for name, _ in q.hyps] == ["f positive"]
    body = obligation_text(ob)
    assert body is not None and "(set-logic ALL)" in body and body.rstrip().endswith("(check-sat)")
    assert "; hypothesis: f positive" in body and "; the negated goal" in body and "unrelated" not in body
    assert "set-info :status" not in body and "declare-fun f (Int) Int" in body
    assert check_text(cvc5, body, 5) == ("proved", "")


def test_a_ground_query_is_kept_when_the_ground_try_proved_it(monkeypatch):
    import symcot.prove.alln.context as context

    calls = []
    real = context._solve

    def quantified_fails(hyps, goal, timeout_s, key=context._OWN_KEY, how="quantified"):
        calls.append(hyps)
        if len(calls) == 1:  # the first, quantified try: pretend Z3 gave up
            return "unknown", [], "Z3: pretend", []
        return real(hyps, goal, timeout_s, key, how)

    monkeypatch.setattr(context, "_solve", quantified_fails)
    _, ob = _proved_by_hand()
    assert ob.ok and ob.query is not None and ob.query.ground
    assert not z3.is_quantifier(ob.query.hyps[0][1])  # the instance, not the fact
    body = obligation_text(ob)
    assert "ground instances of the hypotheses" in body and "forall" not in body
    assert check_text(cvc5, body, 5)[0] == "proved"


def test_reserved_names_are_renamed_consistently():
    par = z3.Function("par", z3.IntSort(), z3.IntSort(), z3.IntSort())  # DFS's parent: a reserved word of SMT-LIB
    absf = z3.Function("abs", z3.IntSort(), z3.IntSort())  # shadows a theory function
    dot = z3.Int("str.len")
    x, y = z3.Ints("x y")
    q = Query((("parent", z3.ForAll([x, y], par(x, y) == absf(y) - x)), ("len", dot == 4)),
              par(1, dot) == absf(4) - 1)
    body = text(q, "renaming")
    assert "par!smt" in body and "abs!smt" in body and "str_len!smt" in body
    assert "(declare-fun par (" not in body and "renamed (reserved in SMT-LIB or cvc5): " in body
    assert check_text(cvc5, body, 5)[0] == "proved"


def test_a_sat_query_text_is_sat_in_cvc5():
    x = z3.Int("x")
    body = text(Query((("x positive", x > 0),), x > 5))
    assert check_text(cvc5, body, 5)[0] == "sat"


def test_files_and_index(tmp_path):
    ctx, ob = _proved_by_hand()
    y = z3.Int("y")
    bad = ctx.check(y > 5, "stop", "block cur", "y > 5")
    assert bad.status == "failed" and bad.query is not None and not bad.query.core  # every hypothesis tried
    unstated = ctx.unsupported("step", "statement", "the step", "why")
    obs = [ob, bad, unstated]
    files = write_obligations(tmp_path, "thm:cotdfs", "as-written", obs)
    assert files == {0: file_name("thm:cotdfs", "as-written", 0), 1: "thm_cotdfs__as-written__001.smt2"}
    assert check_text(cvc5, (tmp_path / files[0]).read_text(), 5)[0] == "proved"
    assert check_text(cvc5, (tmp_path / files[1]).read_text(), 5)[0] != "proved"  # Z3 failed it (a model)
    ob.second = "proved"
    dicts = [o.as_dict() for o in obs]
    for k, name in files.items():
        dicts[k]["smt2"] = name
    row = Verdict("thm:cotdfs", "as-written", "unknown", "m", None, 0, 0.0, details={"obligations": dicts})
    path = write_index(tmp_path, [row])
    assert path.name == INDEX_NAME
    lines = path.read_text().splitlines()
    assert lines == index_lines([row]) and lines[0].split("\t")[-2:] == ["z3", "cvc5"]
    assert lines[1].split("\t")[-3:] == [files[0], "proved", "proved"]
    assert lines[2].split("\t")[-3:] == [files[1], "failed", "-"]
    assert lines[3].split("\t")[-3:] == ["-", "unsupported", "-"]


def test_second_status_is_validated_and_shown():
    with pytest.raises(ValueError):
        Obligation("step", "w", "s", "proved", second="maybe")
    ob = Obligation("step", "w", "s", "proved", second="proved")
    assert ob.as_dict()["second"] == "proved" and "cvc5: proved" in ob.line()
