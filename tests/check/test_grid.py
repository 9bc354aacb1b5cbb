"""A grid check: one row over every point (the first failing point refutes it), point choice, ``--at`` parsing."""

import itertools
from fractions import Fraction

import pytest

from symcot.check.context import RunContext
from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.exhaustive import Progress
from symcot.check.grid import GridCheck, is_grid, parse_at
from symcot.errors import InvalidInputError, SymcotError
from symcot.inputs.family import Family
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, HeadRule, ModelDescription

LAY = Layout("t.grid", [("x", 1), ("a", 1)])
KEY = Layout("t.grid.key", [("k", 1)])
VAL = Layout("t.grid.value", [("v", 1)])


def _mean_decoder() -> Decoder:
    """Uniform attention over the prefix averaging ``x`` into ``a``; no FFN contribution."""
    x = LAY.vars()
    head = Head("u", Map("Q", LAY, KEY, zero=["k"]), Map("K", LAY, KEY, zero=["k"]), Map("V", LAY, VAL, {"v": x.x}))
    vs = value_space([head])
    w_o = Map("W_O", vs, LAY, {"a": vs.vars()["u.v"]}, zero=["x"])
    ffn = FFN(Map("W_1", LAY, LAY, zero=["x", "a"]), Map("W_2", LAY, LAY, zero=["x", "a"]))
    desc = ModelDescription("t mean", direction="encoder", head=HeadRule("future", AHAT()), residual="both")
    return Decoder("mean", LAY, [Layer(Attention([head], w_o), ffn)], desc)


def _make(scale_ok: int):
    """The check at point ``(m,)``: strings over ``0..m-1``, the mean of the digits; wrong when ``m > scale_ok``."""
    def make(point, length):
        (m,) = point

        def construction():
            return EncoderConstruction("v", _mean_decoder(), lambda a, i, n: [int(a), 0], Readout("a"))

        def reference(s):
            out, total = [], 0
            for i, a in enumerate(s):
                total += int(a)
                out.append([Fraction(total, i + 1) if m <= scale_ok else total])
            return out

        return EncoderCheck(construction, reference, [strings_family(tuple(str(d) for d in range(m)), max_size=length)])

    return make


def _grid(scale_ok: int = 9, **kw) -> GridCheck:
    return GridCheck("v", ("m",), [(2,), (3,)], _make(scale_ok), **kw)


def _run(grid: GridCheck, size: int = 3):
    return grid.run(RunContext("t:grid", size, Progress(False)))


def test_every_point_passing_gives_one_verified_row_covering_the_grid():
    row = _run(_grid(), 3)
    assert row.verdict == "verified" and row.max_size == 3
    assert row.inputs_checked == sum(m ** n for m in (2, 3) for n in (1, 2, 3))
    assert row.scope == "every string w, m = 2: |w| ≤ 3; m = 3: |w| ≤ 3"
    assert row.notes[-1] == "grid: m = 2: |w| ≤ 3; m = 3: |w| ≤ 3"
    assert row.method == "exhaustive exact replay of every position, each point of the grid"


def test_a_failing_point_refutes_the_row_naming_the_point():
    # the negative case: at m = 3 the reference is the sum, not the mean: the row must be refuted there
    row = _run(_grid(scale_ok=2), 3)
    assert row.verdict == "refuted"
    assert row.counterexample["m"] == 3 and row.counterexample["input"]["string"] == "01"
    assert row.notes[0] == "m = 3" and row.details["m"] == 3 and row.scope.startswith("m = 3: ")
    assert row.inputs_checked == (2 + 4 + 8) + (3 + 2)  # every input of m = 2; m = 3 up to 01


def test_shorter_lowers_the_length_per_point():
    row = _run(_grid(shorter=lambda p: p[0] - 2), 3)
    assert row.scope == "every string w, m = 2: |w| ≤ 3; m = 3: |w| ≤ 2"


def test_the_grid_keeps_the_rows_of_the_dyck_claims():
    from proofs.transformer_cookbook.dyck_uhat import DYCK_UHAT

    row = DYCK_UHAT.run_check(DYCK_UHAT.checks[0], 2)
    assert row.verdict == "refuted" and (row.counterexample["k"], row.counterexample["D"]) == (1, 1)
    assert list(row.counterexample)[:2] == ["k", "D"] and row.scope.startswith("k = 1, D = 1: ")


def test_pick_takes_the_smallest_point_whose_inputs_include_the_string():
    grid = _grid()
    assert grid.pick("0101") == ((2,), ("0", "1", "0", "1"))
    assert grid.pick("012") == ((3,), ("0", "1", "2"))
    with pytest.raises(InvalidInputError, match="at no point of the grid .*m = 2: symbol '7'"):
        grid.pick("07")


def test_wrap_and_a_family_without_an_alphabet():
    def fam(length):
        return Family("every < w >", lambda n: (("<", *w, ">") for w in itertools.product("ab", repeat=n)),
                      lambda n: 2 ** n, min_size=0, max_size=length)

    grid = GridCheck("w", ("d",), [(1,)], lambda p, n: EncoderCheck(lambda: None, lambda s: None, [fam(n)]),
                     symbols=lambda p: ("a", "b"), wrap=lambda w: ("<", *w, ">"))
    assert grid.read("ab", (1,)) == ("<", "a", "b", ">")
    assert grid.read("", (1,)) == ("<", ">")
    with pytest.raises(InvalidInputError, match="not in the alphabet"):
        grid.read("ac", (1,))


@pytest.mark.parametrize(("text", "why"), [("m=4", "is not a point of the grid"), ("n=2", "no parameter 'n'"),
                                           ("m", "write name=value pairs"), ("m=2,m=3", "m given twice")])
def test_a_bad_at_is_one_line_listing_the_valid_points(text, why):
    with pytest.raises(SymcotError) as e:
        parse_at(text, _grid())
    assert why in str(e.value) and "valid points: m=2; m=3" in str(e.value) and "\n" not in str(e.value)


def test_parse_at_reads_every_parameter_in_any_order():
    grid = GridCheck("g", ("k", "D"), [(1, 1), (2, 3)], _make(9))
    assert parse_at("D=3,k=2", grid) == (2, 3) and parse_at(" k = 1 , D = 1 ", grid) == (1, 1)
    with pytest.raises(SymcotError, match="give D too"):
        parse_at("k=2", grid)
    assert is_grid(grid) and not is_grid(object()) and grid.smallest() == (1, 1)
    assert grid.label((2, 3)) == "k = 2, D = 3" and grid.at((2, 3)) == {"k": 2, "D": 3}


def test_a_grid_needs_points_of_its_parameters():
    with pytest.raises(SymcotError):
        GridCheck("g", ("k", "D"), [(1,)], _make(9))
    with pytest.raises(SymcotError):
        GridCheck("g", ("k", "k"), [(1, 1)], _make(9))
