"""The second solver: cvc5 re-proves Z3's proofs; a disagreement is an error; no cvc5, no claim of two solvers."""

import importlib
import sys
import time

import pytest
import z3

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.context import Context, Obligation, Query
from symcot.prove.alln.prover import AllNResult
from symcot.prove.alln.second import agreement, load_cvc5, recheck, second_opinion
from symcot.prove.alln.smt2 import obligation_text

cvc5 = pytest.importorskip("cvc5")

CONCRETE = {"inputs": 5, "facts_size": 3, "sizes_complete": 3,
            "witness": {"sizes": [5, 6, 9], "input": None, "inputs": 0},
            "domain": {"sizes": [1, 2, 3], "family_inputs": 5, "universe_inputs": 5, "in_domain": 5, "assumed": []}}


def _proved_by_hand():
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")
    ctx = Context([("f positive", z3.ForAll([x], f(x) > 0))])
    a = ctx.check(f(3) + 1 > 1, "step", "head T", "f(3) + 1 > 1")
    b = ctx.check(f(4) >= 1, "step", "block cur", "f(4) ≥ 1")
    assert a.ok and b.ok
    return [a, b]


def _fake(status, query, where="block nbr"):
    """An obligation marked ``status`` with ``query`` (as if Z3 had answered so on it)."""
    return Obligation("step", where, "as stated", status, 1, query=query)


def _sat_query():
    x = z3.Int("x")
    return Query((("x positive", x > 0),), x > 5, core=True)  # x = 1 is a model: not a proof


def _pigeonhole(n=13):
    """``n`` pigeons in ``n - 1`` holes: unsat, but cvc5 needs about 2 s for 13."""
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    pigeons = [(f"pigeon {i}", z3.Or(*p[i])) for i in range(n)]
    holes = [(f"hole {j}", z3.And(*[z3.Not(z3.And(p[i][j], p[k][j])) for i in range(n) for k in range(i + 1, n)]))
             for j in range(n - 1)]
    return Query(tuple(pigeons + holes), z3.BoolVal(False), ground=True, core=True)


def _row(res, **kw):
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    chk = AllNCheck(DfsConstruction, m.SPEC, [m.DIGRAPHS], **kw)
    cons = DfsConstruction()
    return chk._verdict("thm:cotdfs", cons, cons.all_n, res, dict(CONCRETE), [], 1.0)


def test_an_obligation_built_by_hand_is_proved_by_both():
    obs = _proved_by_hand()
    rc = recheck(obs, 5)
    assert rc.installed and [o.second for o in obs] == ["proved", "proved"] and not rc.details
    a = agreement(obs)
    assert (a.status, a.text, a.closed, a.total, a.z3_only) == ("proved", "proved (Z3, cvc5)", 2, 2, ())
    row = _row(AllNResult("thm:cotdfs/as-written", obs))
    assert row.verdict == "proved" and row.method.endswith("; proved (Z3, cvc5)")
    assert row.scope.startswith("all n") and row.scope.endswith("proved (Z3, cvc5)")
    d = row.details["second_solver"]
    assert d["closed"] == 2 and d["total"] == 2 and d["installed"] and d["z3_only"] == []
    assert [o["second"] for o in row.details["obligations"]] == ["proved", "proved"]


def test_answers_map_to_a_row_status():
    proved = _fake("proved", None, "a")
    both = [_fake("proved", None, "b"), _fake("proved", None, "c")]
    for o in both:
        o.second = "proved"
    z3_only = _fake("proved", None, "d")
    z3_only.second = "unknown"
    sat = _fake("proved", None, "e")
    sat.second = "sat"
    not_proved = _fake("unknown", None, "f")  # not counted: only Z3's proofs are re-checked
    assert agreement(both).text == "proved (Z3, cvc5)"
    a = agreement([*both, z3_only, not_proved])
    assert (a.status, a.text, a.z3_only) == ("proved", "proved (Z3; cvc5 closed 2 of 3)", (2,))
    assert a.notes([*both, z3_only, not_proved]) == ["closed by Z3 only (1 of 3): #2 step: layer 1 d"]
    a = agreement([*both, sat, z3_only])
    assert a.status == "error" and a.disputed == (2,) and "sat on 1 of 4" in a.text
    assert "#2 step: layer 1 e" in a.notes([*both, sat, z3_only])[0]
    assert agreement([proved], installed=False).text == "proved (Z3; cvc5 not installed)"
    assert agreement([proved], ran=False).text == "proved (Z3; second solver not run)"


def test_cvc5_answering_sat_where_z3_said_unsat_makes_the_row_an_error():
    obs = [*_proved_by_hand(), _fake("proved", _sat_query())]
    rc = recheck(obs, 5)
    assert obs[2].second == "sat" and "sat" in rc.details[2]
    row = _row(AllNResult("thm:cotdfs/as-written", obs))
    assert row.verdict == "error" and "cvc5 answered sat where Z3 answered unsat" in row.notes[-1]
    assert "#2 step: layer 1 block nbr" in row.notes[-1]
    assert row.details["second_solver"]["disputed"] == ["#2 step: layer 1 block nbr"]


def test_a_hard_obligation_cvc5_times_out_on_is_closed_by_z3_only(monkeypatch):
    from symcot.prove.alln import second

    monkeypatch.setattr(second, "NARROW_MIN", 10**6)  # no narrowing: Z3 counts resources slowly on a pigeonhole
    obs = [*_proved_by_hand(), _fake("proved", _pigeonhole(), "head B")]
    t0 = time.perf_counter()
    rc = recheck(obs, 0.2)
    assert time.perf_counter() - t0 < 30
    # the limit is cvc5's resource count, not the clock: the same answer on a loaded machine as on an idle one
    assert [o.second for o in obs] == ["proved", "proved", "unknown"] and "RESOURCEOUT" in rc.details[2]
    row = _row(AllNResult("thm:cotdfs/as-written", obs), second_timeout_s=0.2)
    assert row.verdict == "proved" and row.scope.endswith("proved (Z3; cvc5 closed 2 of 3)")
    assert "closed by Z3 only (1 of 3): #2 step: layer 1 head B" in row.notes
    assert row.details["second_solver"]["z3_only"] == ["#2 step: layer 1 head B"]


def test_cvc5s_limit_is_its_resource_count_and_the_clock_only_a_backstop(monkeypatch):
    from symcot.prove.alln import second

    body = obligation_text(_fake("proved", _pigeonhole(), "head B"))
    assert second.cvc5_rlimit(1.0) == second.UNITS_PER_S and second.cvc5_rlimit(0.0) == 1
    slow_clock = iter(range(0, 10**9, 3600))  # every reading of the clock an hour after the last
    monkeypatch.setattr(second.time, "perf_counter", lambda: next(slow_clock))
    # a machine slow enough for the backstop: the answer says so (and is not shared)
    assert second._check_once(cvc5, body, 0.2, {}, "pigeonhole")[1].startswith(second.CVC5_BACKSTOP)
    monkeypatch.undo()
    answers = {second._check_once(cvc5, body, 0.2, {}, "pigeonhole") for _ in range(3)}
    assert answers == {("unknown", "cvc5: unknown (UnknownExplanation.RESOURCEOUT)")}
    assert second._check_once(cvc5, body, 4.0, {}, "pigeonhole")[0] == "proved"  # about a nominal second


def test_without_cvc5_the_row_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "cvc5", None)  # `import cvc5` now raises ImportError
    assert load_cvc5() is None
    obs = _proved_by_hand()
    assert not recheck(obs).installed and [o.second for o in obs] == ["", ""]
    row = _row(AllNResult("thm:cotdfs/as-written", obs))
    assert row.verdict == "proved assuming" and "proved (Z3; cvc5 not installed)" in row.method
    assert "proved (Z3; cvc5 not installed); assuming Z3 alone" in row.scope and "cvc5," not in row.scope
    assert row.details["second_solver"]["installed"] is False


def test_second_solver_off_and_rows_not_proved():
    obs = _proved_by_hand()
    row = _row(AllNResult("thm:cotdfs/as-written", obs), second_solver=False)
    assert row.verdict == "proved assuming" and "proved (Z3; second solver not run)" in row.scope
    assert row.details["assumptions"] == ["Z3 alone (the second solver was not run)"]
    assert [o.second for o in obs] == ["", ""]
    bad = [*_proved_by_hand(), _fake("unknown", _sat_query())]
    so = second_opinion("c", "v", bad, proved=False)
    assert so.recheck is None and [o.second for o in bad] == ["", "", ""]


def test_a_proved_obligation_without_a_query_is_not_closed_by_cvc5():
    ob = Obligation("step", "head T", "s", "proved")
    rc = recheck([ob])
    assert ob.second == "error" and "no query" in rc.details[0]
    assert agreement([ob]).text == "proved (Z3; cvc5 closed 0 of 1)"


@pytest.mark.slow
def test_every_obligation_of_the_dfs_step_proof_is_rechecked_by_cvc5(tmp_path):
    from symcot.prove.alln.prover import prove

    res = prove(DfsConstruction(), facts=False, lemmas=False)
    assert res.proved
    t0 = time.perf_counter()
    so = second_opinion("thm:cotdfs", "as-written", res.obligations, True, smt2_dir=str(tmp_path))
    seconds = time.perf_counter() - t0
    a = so.agreement
    assert a.status == "proved" and a.total == len(res.obligations)
    assert a.closed >= a.total - 2, (a.text, so.recheck.details if so.recheck else None)
    assert seconds < 300
    assert len(so.files) == a.total and all((tmp_path / f).exists() for f in so.files.values())
    assert all((tmp_path / f).exists() for f in so.ground_files.values())


def _count_cvc5_calls(monkeypatch):
    """cvc5's answers in this process emptied, and its calls recorded (their time limits) in the list returned."""
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    calls = []
    real = second._check_once

    def counting(mod, text, timeout_s, options, name):
        calls.append(timeout_s)
        return real(mod, text, timeout_s, options, name)

    monkeypatch.setattr(second, "_check_once", counting)
    return calls


def test_an_obligation_asked_again_takes_the_answer_cvc5_gave_it(monkeypatch):
    """Rows over one vocabulary re-prove the same facts: cvc5 answers each text once per process (up to the fresh
    constants' numbering and the comments); an ``unknown`` is asked again with more time, never reused for it."""

    calls = _count_cvc5_calls(monkeypatch)
    first, again = _proved_by_hand(), _proved_by_hand()
    recheck(first, 5)
    recheck(again, 5)
    assert [o.second for o in again] == ["proved", "proved"] and len(calls) == 2
    assert all(o.second_seconds > 0 for o in first) and [o.second_seconds for o in again] == [0.0, 0.0]
    assert first[0].as_dict()["second_seconds"] == round(first[0].second_seconds, 3)
    hard = _fake("proved", _pigeonhole(), "head B")
    recheck([hard], 0.2)
    tried = len(calls)  # the quantified tries (the query is ground: no ground-instance try)
    recheck([_fake("proved", _pigeonhole(), "head B")], 0.2)
    assert hard.second == "unknown" and len(calls) == tried  # the same limit: the unknown answer stands
    recheck([_fake("proved", _pigeonhole(), "head B")], 0.3)
    assert len(calls) > tried  # more time: asked again


def test_the_tries_go_quick_quantified_then_ground_then_quick_again(monkeypatch):
    """A quantified hypothesis no ground term triggers: cvc5's tries in order, the quantified ones under the quick
    limit, the ground instances under the full one; the first that answers ends them."""
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    seen = []

    def answering(verdicts):
        def fake(mod, text, timeout_s, options, name):
            seen.append((name.endswith("ground"), options, timeout_s))
            return verdicts[len(seen) - 1], "cvc5: unknown (TIMEOUT)"
        return fake

    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")
    query = Query((("f positive", z3.ForAll([x], f(x) > 0)),), f(3) > 0, core=True)
    monkeypatch.setattr(second, "_check_once", answering(["unknown", "proved"]))
    ob = _fake("proved", query)
    rc = recheck([ob], 8)
    assert ob.second == "proved" and "ground instances" in rc.details[0] and 0 in rc.ground_texts
    assert seen == [(False, {"enum-inst": "true"}, second.QUICK_S), (True, {}, 8)]
    seen.clear()
    monkeypatch.setattr(second, "_ANSWERS", {})
    monkeypatch.setattr(second, "_check_once", answering(["unknown"] * 6))
    ob = _fake("proved", query)
    rc = recheck([ob], 8)
    assert ob.second == "unknown" and "TIMEOUT" in rc.details[0] and not rc.ground_texts
    quick = [(False, {"enum-inst": "true"}, second.QUICK_S), (True, {}, 8), (False, {}, second.QUICK_S)]
    patient = [(False, {"enum-inst": "true"}, 8), (False, {}, 8)]  # min(PATIENT·QUICK_S, 8); the full-limit one not
    assert seen == quick + patient


def test_what_every_try_left_open_is_tried_again_with_longer_brief_limits(monkeypatch):
    """A try that closes an obligation in 5 s (a slow or loaded machine) runs out of the quick 3 s; the patient pass
    gives it :data:`PATIENT` times that, and only to the obligations left open: the one closed at once is asked
    once."""
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    seen = []

    def slow(mod, text, timeout_s, options, name):
        seen.append((name, timeout_s))
        if "(g " in text and "ground" not in name and timeout_s < 5:
            return "unknown", "cvc5: unknown (TIMEOUT)"
        return ("proved" if "ground" not in name else "unknown"), ""

    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    g = z3.Function("g", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")
    easy = _fake("proved", Query((("f positive", z3.ForAll([x], f(x) > 0)),), f(3) > 0, core=True))
    hard = _fake("proved", Query((("g positive", z3.ForAll([x], g(x) > 0)),), g(3) > 0, core=True), "block vis")
    monkeypatch.setattr(second, "_check_once", slow)
    recheck([easy, hard], 20)
    assert easy.second == "proved" and hard.second == "proved"
    assert seen[0] == ("obligation 0", second.QUICK_S) and sum(name == "obligation 0" for name, _ in seen) == 1
    assert seen[-1] == ("obligation 1", second.QUICK_S * second.PATIENT)
    assert all(s <= second.QUICK_S for name, s in seen[:-1] if "ground" not in name)
    assert agreement([easy, hard]).text == "proved (Z3, cvc5)"


def test_a_chain_of_facts_gets_the_ground_instances_of_four_rounds_next(monkeypatch):
    """Two rounds of instances do not reach the goal: the next try is on four rounds' instances."""
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    f, g, h = (z3.Function(name, z3.IntSort(), z3.IntSort()) for name in "fgh")
    x, a = z3.Ints("x a")
    query = Query((("f", z3.ForAll([x], f(x) == g(x))), ("g", z3.ForAll([x], g(x) == h(g(x)))),
                   ("h", z3.ForAll([x], h(x) > 0))), f(a) > 0, core=True)
    seen = []
    real = second._check_once

    def fake(mod, text, timeout_s, options, name):  # only the last try may answer: cvc5 itself, on its text
        seen.append((name.endswith("ground"), timeout_s))
        return real(mod, text, timeout_s, options, name) if len(seen) == 3 else ("unknown", "cvc5: unknown (TIMEOUT)")

    monkeypatch.setattr(second, "_check_once", fake)
    ob = _fake("proved", query)
    rc = recheck([ob], 8)
    assert seen == [(False, second.QUICK_S), (True, 8), (True, 8)]
    assert ob.second == "proved" and 0 in rc.ground_texts


def test_the_answer_key_is_the_query_up_to_the_numbering_of_fresh_constants_only():
    from symcot.prove.alln.ops import fresh_int
    from symcot.prove.alln.second import _key

    a, b = fresh_int("x"), fresh_int("x")
    qa, qb = Query((("pos", a > 0),), a >= 0, core=True), Query((("pos", b > 0),), b >= 0, core=True)
    assert _key(qa, 5, False) == _key(qb, 5, False)
    others = [Query((("pos", a > 1),), a >= 0, core=True), Query((("other", a > 0),), a >= 0, core=True),
              Query((("pos", a > 0),), a >= 0, ground=True, core=True), Query((("pos", a > 0),), a >= 0, hints=(a,))]
    keys = {_key(qa, 5, False), _key(qa, 6, False), _key(qa, 5, True), *(_key(q, 5, False) for q in others)}
    assert len(keys) == 7


def test_an_obligation_is_answered_on_its_own_query_not_on_one_that_reads_alike(monkeypatch):
    """``x!5 > x!~0`` has a model; ``x!7 > x!7`` has none. Their texts were one key once fresh constants were
    renamed in the text (``x!5`` → ``x!~0``): cvc5 must answer the second on its own query and find the model."""
    _count_cvc5_calls(monkeypatch)
    absurd = _fake("proved", Query((("h", z3.Int("x!7") > z3.Int("x!7")),), z3.BoolVal(False), core=True))
    forged = _fake("proved", Query((("h", z3.Int("x!5") > z3.Int("x!~0")),), z3.BoolVal(False), core=True))
    recheck([absurd, forged], 5)
    assert absurd.second == "proved" and forged.second == "sat"
    assert agreement([absurd, forged]).status == "error"


def test_a_shared_answer_writes_the_ground_text_of_the_obligations_own_query(monkeypatch):
    """Two obligations alike up to fresh constants: the second takes the first's answer, and its ground text is made
    from its own query (its own constants), not copied from the first's."""
    import symcot.prove.alln.second as second
    from symcot.prove.alln.ops import fresh_int

    calls = _count_cvc5_calls(monkeypatch)
    real = second._check_once
    monkeypatch.setattr(second, "_check_once", lambda mod, text, t, options, name: (
        real(mod, text, t, options, name) if name.endswith("ground") else ("unknown", "cvc5: unknown (TIMEOUT)")))
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")

    def ob():
        a = fresh_int("k")
        return _fake("proved", Query((("f positive", z3.ForAll([x], f(x) > 0)),), f(a) > 0, core=True)), a

    (first, a), (again, b) = ob(), ob()
    rc = recheck([first, again], 5)
    assert first.second == again.second == "proved"
    assert len(calls) == 1  # cvc5 read one ground text: the first obligation's; the second took its answer
    texts = dict(rc.ground_texts)
    assert str(a) in texts[0] and str(b) not in texts[0]
    assert str(b) in texts[1] and str(a) not in texts[1]


def test_a_query_z3_proved_from_ground_instances_gets_one_try_under_the_full_limit(monkeypatch):
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    seen = []

    def fake(mod, text, timeout_s, options, name):
        seen.append((options, timeout_s))
        return "unknown", "cvc5: unknown (TIMEOUT)"

    monkeypatch.setattr(second, "_check_once", fake)
    ob = _fake("proved", _pigeonhole())  # ground=True
    rc = recheck([ob], 8)
    assert ob.second == "unknown" and seen == [({}, 8)] and "TIMEOUT" in rc.details[0]


def test_an_answer_in_the_shared_store_is_taken_by_another_process(monkeypatch):
    """A pooled run's workers share cvc5's answers: an obligation another worker closed is not asked again."""
    import symcot.prove.alln.second as second

    shared: dict = {}
    calls = _count_cvc5_calls(monkeypatch)
    second.share(shared)
    try:
        recheck(_proved_by_hand(), 5)
        asked = len(calls)
        assert asked == 2 and len(shared) == 2
        monkeypatch.setattr(second, "_ANSWERS", {})  # another process: its own answers empty, the store shared
        again = _proved_by_hand()
        recheck(again, 5)
        assert len(calls) == asked and [o.second for o in again] == ["proved", "proved"]
    finally:
        second.share(None)


def test_the_ground_text_takes_the_kinds_and_hints_the_prover_asked_with():
    """A variable at no argument position of the query: its kind's terms, as in the prover's own ground try."""
    from symcot.prove.alln.second import _ground_texts

    cur = z3.Function("cur", z3.IntSort(), z3.IntSort())
    t = z3.Int("t")
    v = z3.Int("v:vertex")
    kinds = {"cur": (("step",), "vertex")}
    hyps = (("vertices", z3.ForAll([v], z3.Or(v == 0, v >= 1))),)  # v occurs at no argument position
    goal = z3.Or(cur(t) == 0, cur(t) >= 1)
    [(with_kinds, _)] = _ground_texts(_fake("proved", Query(hyps, goal, core=True, kinds=kinds)))
    [(without, _)] = _ground_texts(_fake("proved", Query(hyps, goal, core=True)))

    def answer(text):
        s = z3.Solver()
        s.from_string(text)
        return s.check()

    assert answer(with_kinds) == z3.unsat and answer(without) == z3.sat


def _many_instances(n=100):
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    facts = ("f above", z3.And(*[f(i) > i for i in range(n)]))
    return Query((facts, ("f(5) at most 6", f(5) <= 6)), f(5) == 6, ground=True, core=True)


def test_a_large_ground_query_is_narrowed_to_the_instances_that_decide_it():
    from symcot.prove.alln.second import NARROW_MIN, narrowed

    fine = narrowed(_many_instances())
    assert fine is not None and fine.ground and len(fine.hyps) == 2
    assert [name for name, _ in fine.hyps] == ["f above", "f(5) at most 6"] and "f(5) > 5" in str(fine.hyps[0][1])
    s = z3.Solver()
    for _, h in fine.hyps:
        s.add(h)
    s.add(z3.Not(fine.goal))
    assert s.check() == z3.unsat
    assert narrowed(_many_instances(NARROW_MIN - 2)) is None  # small: left whole
    wrong = Query(_many_instances().hyps, _many_instances().goal.arg(0) == 7, ground=True, core=True)
    assert narrowed(wrong) is None  # not unsat: nothing to narrow to


def test_cvc5_reads_the_narrowed_instances_briefly_then_the_whole_query(monkeypatch):
    import symcot.prove.alln.second as second

    monkeypatch.setattr(second, "_ANSWERS", {})
    seen = []

    def fake(mod, text, timeout_s, options, name):
        seen.append((name, timeout_s))
        return ("unknown", "cvc5: unknown (TIMEOUT)") if name.endswith("narrowed") else ("proved", "")

    monkeypatch.setattr(second, "_check_once", fake)
    ob = _fake("proved", _many_instances())
    rc = recheck([ob], 8)
    assert seen == [("obligation 0, narrowed", second.QUICK_S), ("obligation 0", 8)]
    assert ob.second == "proved" and 0 not in rc.ground_texts
    monkeypatch.setattr(second, "_ANSWERS", {})
    monkeypatch.setattr(second, "_check_once", lambda *a: ("proved", ""))
    ob = _fake("proved", _many_instances())
    rc = recheck([ob], 8)
    assert ob.second == "proved" and "core over single instances" in rc.details[0] and 0 in rc.ground_texts
