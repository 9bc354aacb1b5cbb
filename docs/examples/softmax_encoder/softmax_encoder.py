"""demo:prefixshare -- an encoder with softmax attention: at every position, the share of a's so far.

Run from the repository root:  symcot verify --proofs docs/examples/softmax_encoder
"""

from fractions import Fraction

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, SMAT, Attention, Decoder, Head, HeadRule, Layer, ModelDescription, value_space

# two coordinates: the symbol (x = 1 for a, 0 for b) and the share the layer writes (m)
L = Layout("share", [("x", 1), ("m", 1)])
KEY = Layout("share.key", [("k", 1)])


def decoder(mask: str) -> Decoder:
    """One softmax head with zero scores (uniform weights over the mask), reading x into m; identity FFN."""
    x = L.vars()
    head = Head("u", Map("Q", L, KEY, zero=["k"]), Map("K", L, KEY, zero=["k"]), Map("V", L, L, {"x": x.x}, zero=["m"]))
    heads = value_space([head])
    w_o = Map("W_O", heads, L, {"m": heads.vars()["u.x"]}, zero=["x"])
    ffn = FFN(Map("W_1", L, L, keep=["x", "m"]), Map("W_2", L, L, keep=["x", "m"]))
    # an encoder: every position is an output; softmax at temperature 1; the mask is the variant's
    desc = ModelDescription("share", direction="encoder", head=HeadRule(mask, SMAT(1)))
    return Decoder("share", L, [Layer(Attention([head], w_o), ffn)], desc)


def embed(symbol: str, i: int, n: int) -> list[int]:
    """The token of a symbol at position i of n: x = 1 for a, else 0; m = 0."""
    return [1 if symbol == "a" else 0, 0]


def share(s: tuple[str, ...]) -> list[Fraction]:
    """The reference: at position i, the share of a's among positions 0..i."""
    return [Fraction(s[:i + 1].count("a"), i + 1) for i in range(len(s))]


def check(variant: str, mask: str) -> EncoderCheck:
    """The variant's check: every string over {a, b}, every position's m against the share."""
    return EncoderCheck(lambda: EncoderConstruction(variant, decoder(mask), embed, Readout("m")), share,
                        [strings_family("ab")])


CLAIM = Claim(
    id="demo:prefixshare", kind="sentence", where="docs/tutorial.md", default_max_size=6,
    statement="A future-masked softmax head with zero scores writes the share of a's so far at every position.",
    checks=[check("as-written", "future"), check("strict", "strict-future")],
    readings={"as-written": as_written("the future mask (j ≤ i), softmax at τ = 1"),
              "strict": mutant("the strict future mask (j < i): position 0 sees nothing")},
)
