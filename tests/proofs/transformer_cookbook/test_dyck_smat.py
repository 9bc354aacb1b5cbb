"""Dyck-1 by one SMAT layer: refuted as a recogniser at w = ][ (no FFN at the last position can see condition (1));
it holds under Bhattamishra et al.'s per-position reading and, as a recogniser, with a second uniform layer."""

import itertools
from fractions import Fraction

from proofs.transformer_cookbook.dyck_smat import DYCK_SMAT, _embed, dyck_smat_decoder, rejects
from symcot.model.described import encode


def rows(claim):
    out = {chk.variant: claim.run_check(chk) for chk in claim.checks}
    assert all(r.notes[0].startswith("subject: draft 582e0e1") for r in out.values())
    return out


def brute_dyck1(w):
    """Dyck-1 by its grammar S -> [ S ] S | ε: erase [] until nothing changes."""
    s = "".join(w)
    while "[]" in s:
        s = s.replace("[]", "")
    return s == ""


def test_the_reference_is_the_grammar():
    for n in range(11):
        for w in itertools.product("[]", repeat=n):
            assert rejects(w) == (not brute_dyck1(w)), "".join(w)


def test_verdicts_and_the_smallest_counterexamples():
    got = rows(DYCK_SMAT)
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "refuted", "per-position": "verified", "two-layer": "verified", "AHAT": "verified",
        "strict-future": "refuted", "no-mask": "refuted", "UHAT": "refuted", "keyed": "refuted"}
    c = got["as-written"].counterexample
    assert (c["input"]["string"], c["position"], c["layer"], c["got"], c["expected"]) == ("][", 1, 1, False, True)
    assert got["strict-future"].counterexample["input"]["string"] == "["
    assert got["no-mask"].counterexample["input"]["string"] == "]["
    assert got["UHAT"].counterexample["input"]["string"] == "[]"
    keyed = got["keyed"].counterexample  # non-rational weights: v at [] is a certified ball, decided > 0
    assert keyed["input"]["string"] == "[]" and keyed["got"] == "reject" and "+/-" in keyed["u, v"][1][1]
    assert got["two-layer"].inputs_checked == 2**11 - 2 and got["two-layer"].max_size == 10
    assert DYCK_SMAT.readings["two-layer"].kind == "repair" and DYCK_SMAT.readings["UHAT"].kind == "mutant"


def _last_ffn_input(w):
    dec = dyck_smat_decoder().instantiate({})
    enc = encode(dec, [_embed(a, i, len(w)) for i, a in enumerate(w)], True)
    return enc.records[-1][0].ffn_in


def test_no_ffn_at_the_last_position_separates_a_member_from_a_non_member():
    """[[]] ∈ Dyck-1 and ][[] ∉ Dyck-1 give the last position the same FFN input (softmax weights exactly 1/i)."""
    a, b = _last_ffn_input(tuple("[[]]")), _last_ffn_input(tuple("][[]"))
    assert a == b and rejects(tuple("][[]")) and not rejects(tuple("[[]]"))
    assert a[:4] == [-1, 1, 0, 0]


def test_the_head_computes_the_displayed_counts():
    w = tuple("[[]]][")
    dec = dyck_smat_decoder(direction="encoder").instantiate({})
    enc = encode(dec, [_embed(a, i, len(w)) for i, a in enumerate(w)], True)
    for i in range(len(w)):
        d = w[:i + 1].count("[") - w[:i + 1].count("]")
        assert enc.records[i][0].ffn_in[2:4] == [Fraction(d, i + 1), Fraction(-d, i + 1)]
