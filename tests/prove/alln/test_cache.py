"""The prover's query cache: a query asked twice is solved once, and only the same query is answered from it."""

import z3

from symcot.prove.alln.cache import Answer, QueryCache
from symcot.prove.alln.context import _solve
from symcot.prove.alln.ops import fresh_int


def test_a_query_asked_again_is_answered_from_the_cache():
    from symcot.prove.alln.cache import CACHE

    x = fresh_int("x")
    hyps = [("pos", x >= 1)]
    before = CACHE.hits
    first = _solve(hyps, x >= 0, 5)
    second = _solve(hyps, x >= 0, 5)
    assert first == second and first[0] == "proved" and first[1] == ["pos"]
    assert CACHE.hits == before + 1


def test_fresh_constants_are_renamed_and_other_symbols_are_not():
    cache = QueryCache()
    a, b = fresh_int("x"), fresh_int("x")
    assert cache.key([("h", a >= 1)], a >= 0) == cache.key([("h", b >= 1)], b >= 0)
    y = z3.Int("y")  # a symbol of the vocabulary, not fresh: another query
    assert cache.key([("h", a >= 1)], a >= 0) != cache.key([("h", y >= 1)], y >= 0)
    # consistent renaming only: x!1 ≥ x!2 is not x!1 ≥ x!1
    c = fresh_int("x")
    assert cache.key([], a >= c) != cache.key([], a >= a)
    assert cache.key([("h", a >= 1)], a >= 0) != cache.key([("g", a >= 1)], a >= 0)


def test_symbols_of_one_name_and_another_sort_are_other_queries():
    # f = g ∨ f = h ∨ g = h holds for booleans and not for integers: the same text must not share an answer
    x = z3.Int("x")
    outs = []
    for sort in (z3.BoolSort(), z3.IntSort()):
        f, g, h = (z3.Function(name, z3.IntSort(), sort) for name in "fgh")
        goal = z3.Or(f(x) == g(x), f(x) == h(x), g(x) == h(x))
        outs.append(_solve([], goal, 5)[0])
    assert outs == ["proved", "failed"]


def test_an_answer_is_one_query_under_one_limit():
    """An answer is stored under the query with its resource limit: under another limit it is asked again."""
    from symcot.prove.alln.cache import CACHE
    from symcot.prove.alln.context import rlimit

    x = fresh_int("x")
    key = CACHE.key([("pos", x >= 1)], x >= 0)
    short, long = (CACHE.derived(key, "quantified", f"rlimit={rlimit(s)}") for s in (1.0, 2.0))
    assert short != long != key
    assert _solve([("pos", x >= 1)], x >= 0, 1.0)[0] == "proved"
    assert CACHE.get(short) is not None and CACHE.get(long) is None
    cache = QueryCache()
    cache.put(short, Answer("unknown", (), "Z3: max. resource limit exceeded", (), 1.0))
    cache.put(short, Answer("proved", (), "", (), 1.0))  # one query, one answer: the first stands
    assert cache.get(short).status == "unknown" and cache.get(long) is None


def test_the_ground_try_is_keyed_by_the_query_with_its_hints_and_the_kinds():
    """Queries alike up to renaming share the ground try's key; another hint's constant or other kinds: not."""
    from symcot.prove.alln.cache import CACHE

    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    v = z3.Int("v")
    kinds = {"f": (("vertex",), "vertex")}

    def key(hint_first, kinds=kinds):
        a, b = fresh_int("x"), fresh_int("x")
        hyps = [("f grows", z3.ForAll([v], f(v) > v)), ("a below b", a < b)]
        goal = f(f(a)) > b
        return CACHE.key(hyps, goal), CACHE.key(hyps, goal, [a if hint_first else b], kinds)

    (q1, g1), (q2, g2), (q3, g3) = key(True), key(True), key(False)
    assert q1 == q2 == q3  # the query: the same up to renaming
    assert g1 == g2 and g1 != g3 and g1 != q1
    assert key(True, {})[1] != g1


def _old_key(hyps, goal):
    """The key as it was: raw names joined with Z3's printed text (what the adversarial tests below break)."""
    import hashlib

    def text(f):
        s = z3.Solver()
        s.add(f)
        return s.sexpr()

    return hashlib.sha256("\n".join([*(f"{n}\t{text(f)}" for n, f in hyps), f"goal\t{text(goal)}"]).encode()).digest()


def _fresh_cache(monkeypatch):
    import symcot.prove.alln.context as context

    cache = QueryCache()
    monkeypatch.setattr(context, "CACHE", cache)
    return cache


def test_a_fact_name_holding_the_separator_and_smt_text_is_not_another_list_of_facts(monkeypatch):
    """``[h1: x ≥ 1, h2: y = y]`` and ``[h1⏎(x ≥ 1 as text)⏎h2: y = y]`` read alike when names and text are joined:
    the second has no ``x ≥ 1`` and must not take the first's ``unsat``."""
    _fresh_cache(monkeypatch)
    x, y = z3.Ints("x y")
    s = z3.Solver()
    s.add(x >= 1)
    honest = [("h1", x >= 1), ("h2", y == y)]
    forged = [(f"h1\t{s.sexpr()}\nh2", y == y)]
    assert _old_key(honest, x >= 0) == _old_key(forged, x >= 0)  # the collision the old key had
    assert QueryCache().key(honest, x >= 0) != QueryCache().key(forged, x >= 0)
    assert _solve(honest, x >= 0, 5)[:2] == ("proved", ["h1"])
    assert _solve(forged, x >= 0, 5)[0] == "failed"
    for name in ("a\nb", "a\tb", "goal", "hint", '"h1", "x"', "(assert false)", "; comment", "|x|"):
        keys = {QueryCache().key([(name, x >= 1)], x >= 0), QueryCache().key([(name + " ", x >= 1)], x >= 0),
                QueryCache().key([(name, x >= 2)], x >= 0), QueryCache().key([(name, x >= 1)], x >= 1)}
        assert len(keys) == 4, name


def _forall_named(name, body):
    """``∀`` over de Bruijn variable 0 of ``body``, its binder named ``name`` (whatever else is named so)."""
    ctx = z3.main_ctx()
    sorts, names = (z3.Sort * 1)(), (z3.Symbol * 1)()
    sorts[0], names[0] = z3.IntSort().ast, z3.to_symbol(name)
    return z3.QuantifierRef(z3.z3core.Z3_mk_forall(ctx.ref(), 0, 0, None, 1, sorts, names, body.as_ast()), ctx)


def test_a_binder_that_prints_like_a_free_constant_is_not_that_constant(monkeypatch):
    """Z3 prints ``∀x'. x' = x → x' ≥ 0`` with ``x'`` named ``x`` as ``(forall ((x Int)) (=> (= x x) …))``, the same
    text as ``∀x'. x' = x' → x' ≥ 0``, which is false (so everything follows). Terms are keyed as Z3 holds them."""
    _fresh_cache(monkeypatch)
    x, v = z3.Int("x"), z3.Var(0, z3.IntSort())
    weak = [("h", z3.And(x == x, _forall_named("x", z3.Implies(v == x, v >= 0))))]
    absurd = [("h", z3.And(x == x, _forall_named("x", z3.Implies(v == v, v >= 0))))]
    assert _old_key(weak, x >= 5) == _old_key(absurd, x >= 5)
    assert _solve(absurd, x >= 5, 5)[0] == "proved"
    assert _solve(weak, x >= 5, 5)[0] == "failed"


def test_a_constant_named_like_a_renamed_fresh_one_is_another_constant(monkeypatch):
    """Renaming fresh constants is a renaming of symbols, not of text: ``x!5 > x!~0`` is not ``x!7 > x!7``."""
    _fresh_cache(monkeypatch)
    a, b, c = z3.Int("x!5"), z3.Int("x!~0"), z3.Int("x!7")
    assert _solve([("h", c > c)], z3.BoolVal(False), 5)[0] == "proved"
    assert _solve([("h", a > b)], z3.BoolVal(False), 5)[0] == "failed"
    k = QueryCache()
    assert k.key([("h", a > b)], b >= 0) == k.key([("h", z3.Int("x!9") > b)], b >= 0)  # a fresh x!5 renamed
    assert k.key([("h", a > b)], b >= 0) != k.key([("h", z3.Int("y!9") > b)], b >= 0)  # not to another prefix


def test_each_component_of_a_query_is_part_of_its_key():
    """Declarations (sorts), hypotheses (names, order, formulas), goal, hints, kinds and the try's limit."""
    cache = QueryCache()
    x, y = z3.Ints("x y")
    f_int = z3.Function("f", z3.IntSort(), z3.IntSort())
    f_real = z3.Function("f", z3.IntSort(), z3.RealSort())
    h = [("a", x >= 1), ("b", y >= 1)]
    base = cache.key(h, x >= 0)
    variants = [cache.key(h[::-1], x >= 0), cache.key(h[:1], x >= 0), cache.key([("a", x >= 1), ("c", y >= 1)], x >= 0),
                cache.key(h, y >= 0), cache.key(h, x >= 0, hints=[x]), cache.key(h, x >= 0, hints=[y]),
                cache.key(h, x >= 0, kinds={"x": ((), "vertex")}), cache.key([*h, ("hint", x == x)], x >= 0),
                cache.key([("a", f_int(x) >= 1)], x >= 0), cache.key([("a", f_real(x) >= 1)], x >= 0),
                cache.key([("a", z3.Real("x") >= 1)], x >= 0), cache.key(h, x >= 0, kinds={"x": ((), "edge")})]
    keys = [base, *variants, QueryCache.derived(base, "quantified", "rlimit=1"),
            QueryCache.derived(base, "quantified", "rlimit=2"), QueryCache.derived(base, "ground", "rlimit=1")]
    assert len(set(keys)) == len(keys)
    assert cache.key(h, x >= 0) == base  # and the same query has the same key


def test_a_term_the_key_does_not_know_is_solved_not_looked_up(monkeypatch):
    cache = _fresh_cache(monkeypatch)
    v = z3.BitVec("v", 8)
    goal = z3.Extract(3, 0, v) == z3.Extract(3, 0, v)  # an operator with parameters
    assert cache.key([], goal) is None
    assert _solve([], goal, 5)[0] == "proved" and cache.unkeyed == 2 and cache.hits == cache.misses == 0
    assert _solve([], goal, 5)[0] == "proved" and cache.unkeyed == 3 and cache.hits == 0
