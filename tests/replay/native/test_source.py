"""The kernel's C source: the fixed part is kernel.c (package data), the decoder's part is generated around it."""

import dataclasses
from fractions import Fraction
from importlib.resources import files

import pytest

from symcot.ir import Map
from symcot.model import FFN, Decoder, Layer
from symcot.replay.batched import BatchedDecoder
from symcot.replay.native import NativeError, generate_source, native_available
from symcot.replay.native.build import BASE_FLAGS, DEFAULT_OPT, build
from symcot.replay.native.source import kernel_c
from tests.fixtures.decoders import L, tiny_decoder

STUBS = """
static inline int push(const int64_t *restrict z, int64_t *restrict y, int64_t pos, int64_t *restrict cache) {
    (void)pos; (void)cache; for (int c = 0; c < D; c++) y[c] = z[c]; return 0;
}
static inline int feedback(int64_t *v) { (void)v; return 0; }
"""


def halving_decoder():
    """``W_1`` halves and ``W_2`` doubles: output scale 2 at token scale 1, so each feedback divides by 2."""
    x = L.vars()
    half = FFN(Map("W_1", L, L, {"a": Fraction(1, 2) * x.a + Fraction(1, 2)}, keep=["b", "c"]),
               Map("W_2", L, L, {"a": 2 * x.a - 1, "b": 2 * x.a + x.b}, keep=["c"]))
    return Decoder("half", L, [Layer(None, half)]).instantiate({})


def test_the_fixed_part_is_the_package_data_file():
    path = files("symcot.replay.native").joinpath("kernel.c")
    assert path.is_file() and kernel_c() == path.read_text(encoding="utf-8")
    assert "int symcot_run(" in kernel_c() and "int symcot_run_indexed(" in kernel_c()
    assert "static inline int push(" in kernel_c() and "static inline int feedback(" in kernel_c()  # declared


def test_a_source_is_the_constants_the_fixed_part_and_the_generated_functions():
    src = generate_source(BatchedDecoder(tiny_decoder()).scaled(1))
    head, rest = src.split(kernel_c())
    assert "#define D 3\n" in head and "#define ARGMAX_LAST 0\n" in head and "#define CACHE_W " in head
    for fn in ("int push_checked(", "int push_plain(", "static inline int push(", "static inline int feedback("):
        assert rest.count(fn) == 1, fn  # defined once, after the fixed part
    assert "(void)v;" in rest  # scale 1 everywhere: feedback copies


def test_feedback_divides_exactly_or_reports_status_2():
    sd = BatchedDecoder(halving_decoder()).scaled(1)
    assert (sd.fb_num, sd.fb_den) == (1, 2)
    rest = generate_source(sd).split(kernel_c())[1]
    assert "if (*v % ((int64_t)2LL) != 0) return 2;" in rest and "*v /= ((int64_t)2LL);" in rest


def test_a_feedback_denominator_beyond_int64_is_refused():
    sd = dataclasses.replace(BatchedDecoder(tiny_decoder()).scaled(1), s_out=2**64)
    assert sd.fb_den == 2**64
    with pytest.raises(NativeError, match="does not fit int64"):
        generate_source(sd)


@pytest.mark.skipif(not native_available(), reason="no working C compiler")
def test_the_fixed_part_compiles_with_any_push_and_feedback(tmp_path, monkeypatch):
    monkeypatch.setenv("SYMCOT_CACHE", str(tmp_path))
    consts = "#define D 3\n#define CACHE_W 1\n#define RB_BYTES 4096\n#define ARGMAX_LAST 0\n"
    lib, _ = build(consts + kernel_c() + STUBS, (DEFAULT_OPT, *BASE_FLAGS))
    assert lib.is_file()
    with pytest.raises(NativeError):  # negative: without the generated functions it does not link as a kernel
        build(consts + kernel_c() + "static inline int feedback(int64_t *v) { (void)v; return 0; }\n",
              (DEFAULT_OPT, "-Werror", *BASE_FLAGS))


def test_a_layer_whose_w_o_reads_no_value_still_gets_its_bounds():
    from symcot.model import Attention, Head, value_space
    from tests.fixtures.toys import TOY

    x = TOY.vars()
    ks = Map("K_A", TOY, TOY, keep=["k"], zero=["v", "q", "out"]).dst
    head = Head("A", query=Map("Q_A", TOY, ks, keep=["q"], zero=["k", "v", "out"]),
                key=Map("K_A", TOY, ks, keep=["k"], zero=["v", "q", "out"]),
                value=Map("V_A", TOY, TOY, keep=["v"], zero=["k", "q", "out"]))
    w_o = Map("W_O", value_space([head]), TOY, zero=["k", "v", "q", "out"])  # reads no value coordinate
    ffn = FFN(Map("W_1", TOY, TOY, keep=TOY.names), Map("W_2", TOY, TOY, {"out": x.out + x.v}, zero=["k", "v", "q"]))
    dec = Decoder("blind", TOY, [Layer(Attention([head], w_o), ffn)]).instantiate({})
    assert "#define D 4\n" in generate_source(BatchedDecoder(dec).scaled(1))
