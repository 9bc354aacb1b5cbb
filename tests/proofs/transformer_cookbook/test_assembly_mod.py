"""MOD without positions: no key for a_i = 0 as written, ε > 0 breaks exact equality; ε = 0 gives parity and MOD 3."""

import itertools

from proofs.transformer_cookbook import assembly_mod as m
from tests.proofs.transformer_cookbook.helpers import rows


def test_the_reference_is_counting():
    for n in range(0, 9):
        for w in itertools.product("ab", repeat=n):
            for mod in (2, 3):
                got = m.count_reference(mod, w)
                assert got == [w[:i + 1].count("a") % mod == 0 for i in range(n)]


def test_verdicts_and_smallest_counterexamples():
    got = rows(m.MOD, 6)
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "refuted", "zero-based-keys": "refuted", "eps0": "verified", "mod3-eps0": "verified",
        "odd-keys": "refuted", "joint-norm-eps0": "refuted", "tolerance": "verified",
        "tolerance-eps-rule": "verified"}
    joint = got["joint-norm-eps0"].counterexample
    assert (joint["string"], joint["position"], joint["a_i"], joint["attends"]) == ("$aa", 3, 2, [3])
    first = got["as-written"].counterexample
    assert (first["string"], first["position"], first["attends"]) == ("$", 1, [])
    eps = got["zero-based-keys"].counterexample
    assert (eps["string"], eps["position"], eps["attends"], eps["got"]) == ("$b", 2, [1], False)
    assert got["eps0"].inputs_checked == 2 ** 6 - 1


def test_eps0_retrieves_the_matching_key():
    bit, top = m._bit_eps0((m.Fraction(4, 7), m.Fraction(1, 7)), [(2 * j, 1) for j in range(7)])
    assert bit and top == [2]
    bit, top = m._bit_eps0((m.Fraction(3, 7), m.Fraction(1, 7)), [(2 * j, 1) for j in range(7)])
    assert not bit and top == [2]  # 3 is nearer 4 than 2 on the hash's circle


def test_an_undecided_comparison_makes_the_row_unknown():
    """A comparison the balls cannot settle is never guessed: the row is unknown and names the input."""
    from symcot.check.context import RunContext
    from symcot.check.exhaustive import Progress
    from symcot.model.interval import compare, sqrt

    def per_input(s):
        r = sqrt(2)
        compare(r * r, 2, "√2·√2 against 2")  # equal reals, a ball: undecidable
        return None

    row = m.CertifiedCheck("probe", [m.STRINGS], per_input).run(RunContext("ch8:mod", 2, Progress(False)))
    assert row.verdict == "unknown" and row.details["undecided"]["input"] == "$"
    assert row.notes[0].startswith("subject: a draft of The Transformer Cookbook")


def test_the_drafts_eps_admits_no_tolerance_from_length_19_and_the_rule_holds():
    from symcot.check.context import RunContext
    from symcot.check.exhaustive import Progress

    chk = {c.variant: c for c in m.MOD.checks}
    row = chk["tolerance"].run(RunContext("ch8:mod", 20, Progress(False)))
    assert row.verdict == "refuted" and row.max_size == 18
    cex = row.counterexample
    witnesses = (cex["size"], cex["even"]["i"], cex["even"]["a_i"], cex["odd"]["i"], cex["odd"]["a_i"])
    assert witnesses == (19, 19, 0, 18, 17)
    assert chk["tolerance-eps-rule"].run(RunContext("ch8:mod", 12, Progress(False))).verdict == "verified"
    assert m._distance(m.EPS, 1, 0) == 0 and m.compare(m._distance(m.EPS, 2, 1), 0) > 0
