"""Sizes are sizes: a block whose size is negative or a fraction at some n the hypotheses allow is never proved.

The toy is docs/examples/prefix_sum with one more block, ``pad``, kept at 0: of size ``6 - n`` the decoder cannot be
built from n = 7, yet its layout passes every size the concrete phase and the witness build (n ≤ 5), and the block's
obligations hold vacuously once its index range is empty.
"""

import dataclasses

import sympy as sp
import z3

from symcot import FFN, AllNCheck, Attention, Decoder, Head, Layer, Layout, Map, Shift, n, value_space
from symcot.check.context import RunContext
from symcot.constructions.encoding import const
from symcot.prove.alln.sizes import is_size, layouts
from tests.fixtures.examples import example


def _example():
    return example("prefix_sum")


def _padded(pad, key_pad=None):
    """The prefix-sum decoder with a block ``pad`` of size ``pad`` (and one ``q`` of ``key_pad`` in the key space)."""
    m = _example()
    lay = Layout("prefix", [("pos", n), ("bit", 1), ("sum", 1), ("flg", 1), ("pad", pad)])
    x = lay.vars()
    keys = Layout("prefix.key", [("p", n)] + ([("q", key_pad)] if key_pad is not None else []))
    kz = {"zero": ["q"]} if key_pad is not None else {}
    head = Head("R", query=Map("Q", lay, keys, {"p": x.pos}, **kz), key=Map("K", lay, keys, {"p": x.pos}, **kz),
                value=Map("V", lay, lay, keep=["pos", "bit", "sum", "flg", "pad"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, lay, {"bit": vs.vars()["R.bit"]}, zero=["pos", "sum", "flg", "pad"])
    w_1 = Map("W_1", lay, lay, {"pos": Shift(n) @ x.pos, "sum": x.sum + x.bit}, keep=["flg", "pad"], zero=["bit"])
    w_2 = Map("W_2", lay, lay, keep=["pos", "bit", "sum", "flg", "pad"])
    dec = Decoder("prefix-sum-padded", lay, [Layer(Attention([head], w_o), FFN(w_1, w_2))])
    stmt = dataclasses.replace(
        m.STATEMENT, token=m.STATEMENT.token.extended(pad=const(0)),
        y0=dataclasses.replace(m.STATEMENT.y0, encoding=m.STATEMENT.y0.encoding.extended(pad=const(0))))

    class Padded(m.PrefixSum):
        all_n = stmt

    return lambda: Padded("demo:prefixsum", f"pad {pad}", dec)


def _row(pad, key_pad=None, concrete_size=2):
    """The row at a concrete size whose witnesses (3, 4, 5 for 2) are below where the block's size turns negative."""
    m = _example()
    return AllNCheck(_padded(pad, key_pad), m.SPEC, [m.BIT_STRINGS], timeout_s=10,
                     concrete_size=concrete_size).run(RunContext("demo:prefixsum", concrete_size))


def test_a_block_of_size_six_minus_n_fails_a_witness_run_at_the_default_concrete_size():
    row = _row(6 - n, concrete_size=4)  # witnesses at 5, 6 and 9: the decoder cannot be built at 9
    assert row.verdict == "error" and "block 'pad': size 6 - n is -3 at {n: 9}" in row.notes[-1]


def _first(row):
    return next(o for o in row.details["obligations"] if o["status"] != "proved")


def test_a_block_of_size_six_minus_n_is_not_proved():
    """Proved (Z3, cvc5) before the size obligations: the decoder cannot be built from n = 7."""
    row = _row(6 - n)
    assert row.verdict == "unknown"
    first = _first(row)
    assert (first["phase"], first["where"], first["status"]) == ("size", "block prefix.pad", "failed")
    assert "6 - n" in first["statement"] and "n = 7" in first["detail"]
    assert any("block prefix.pad" in note and "6 - n" in note for note in row.notes)


def test_a_key_space_block_of_size_six_minus_n_is_not_proved():
    """The head's key space is a layout of the decoder too (the concrete phase builds only the model's)."""
    first = _first(_row(1, 6 - n))
    assert (first["phase"], first["where"], first["status"]) == ("size", "block prefix.key.q", "failed")


def test_a_size_that_turns_negative_by_cases_is_not_proved():
    row = _row(sp.Piecewise((1, n <= 5), (-1, True)))
    first = _first(row)
    assert row.verdict == "unknown" and first["phase"] == "size" and "n = 6" in first["detail"]


def test_sizes_that_are_sizes_are_proved_and_the_row_with_them():
    """The same toy with ``pad`` of size ``n`` (or none, size 0): proved, its size obligations with it."""
    for pad in (n, 0):
        row = _row(pad)
        sizes = [o for o in row.details["obligations"] if o["phase"] == "size"]
        assert row.verdict == "proved", (pad, row.notes)
        assert sizes and all(o["status"] == "proved" for o in sizes)
        assert {o["where"] for o in sizes} >= {"segment x", "segment y_0", "the step count", "block prefix.pos"}


def test_a_size_is_a_non_negative_integer():
    k = z3.Int("k")
    r = z3.Real("r")

    def proved(hyp, term):
        s = z3.Solver()
        s.add(hyp, z3.Not(is_size(term)))
        return s.check() == z3.unsat

    assert proved(k >= 1, k) and proved(k >= 1, 6 - k + k)
    assert not proved(k >= 1, 6 - k) and not proved(k >= 1, z3.ToReal(k) / 2)
    assert proved(z3.And(r >= 0, r == z3.ToReal(k)), r) and not proved(r >= 0, r)
    assert not proved(z3.BoolVal(True), -1)


def test_every_layout_of_the_decoder_is_read_once():
    m = _example()
    names = [lay.name for lay in layouts(m.DECODER)]
    assert names[0] == "prefix" and "prefix.key" in names and "heads" in names and len(names) == len(set(names))


def test_a_size_left_undecided_is_an_assumption_and_a_refuted_one_is_not_proved():
    from symcot.prove.alln.context import Obligation
    from symcot.prove.alln.prover import AllNResult

    step = Obligation("step", "block sum", "s", "proved")
    open_size = Obligation("size", "block widpath.p", "its size n/2 + 1 is a non-negative integer", "unknown",
                           detail="Z3: canceled")
    res = AllNResult("c/v", [open_size, step])
    assert res.proved and len(res.assumed_sizes()) == 1 and "block widpath.p" in res.assumed_sizes()[0]
    refuted = Obligation("size", "block prefix.pad", "its size 6 - n is a non-negative integer", "failed")
    assert not AllNResult("c/v", [refuted, step]).proved
