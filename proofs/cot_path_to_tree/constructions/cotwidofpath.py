r"""thm:cotwidofpath -- the two-layer, one-head decoder computing wid(ψ(w)) on a Dyck word, as written.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix "Realizing wid on Trees and Paths"
(``app:cotwid``): proof of ``thm:cotwidofpath``, with ``lem:addonetospecificheight``
(``eq:addonetospecificheight``) in layer 1 and ``lem:addwidplus1`` (``eq:addwidplus1``) in layer 2. ``n = |w|``
and ``H = n/2 + 1`` is the number of counters ``p_1 … p_H``.

Embedding (``d = 3n/2 + 4``), blocks in the paper's order::

    x_τ = [e_τ ‖ q_τ ‖ 0 ‖ 0^{n/2+1} ‖ 0]      (pos q ht p wd),  q_τ = s_{τ+1} - s_τ (the letter w_τ)
    y_0 = [e_0 ‖ 0 ‖ 0 ‖ 0^{n/2+1} ‖ 0]

The prompt is ``[x_0, …, x_{n-1}, y_0]``; ``π_wd(y_n) = wid(ψ(w))`` is claimed after ``n`` steps.

Layer 1: one head with ``Q = S π_pos`` and ``K = π_pos`` ("Analogous to thm:cotpathstrahler, the attention
mechanism of the first layer employs a shift matrix S to find the π_pos and records the corresponding
π_q from the input tokens"; thm:cotpathstrahler's layer 1 is ``Q^{(1)} y_t = S π_pos(y_t)``,
``K α = π_pos(α)``); the value is 0 except ``π_q = q_τ``. The FFN is lem:addonetospecificheight's network on
``v = [π_q ‖ π_ht ‖ π_p]`` (``m``, ``h``, ``p_1 … p_H``): hidden units ``ReLU(m)``, ``ReLU(-m)``, ``ReLU(h)``,
``ReLU(p)`` and, for ``k = 1 … H-1``, the pulse ``ReLU(h - (k-1)m)``, ``ReLU(h - km)``, ``ReLU(h - (k+1)m)``
routed with ``[1, -2, 1]`` to ``p_{k+1}``; ``W_2`` gives ``m``, ``h + m`` and ``p``: the gadget
:func:`symcot.gadgets.addonetospecificheight` (its pulse units grouped by their place in the triple,
``pls0``, ``pls1``, ``pls2``, a permutation of the proof's hidden units).
Layer 2: trivial attention; the FFN is lem:addwidplus1's network on ``[p_1 … p_H ‖ wd]`` (hidden
``p``, ``wd``, ``ReLU(p_i - wd)``; ``wd ← wd + Σ_i ReLU(p_i - wd)``; :func:`symcot.gadgets.addwidplus1`),
and ``W_2^{(2)}`` sets ``q`` to 0.

Variants (each a separate decoder, compared on the same inputs):

* ``as-written`` -- as above. The text never advances ``π_pos`` of a generated token ("The remaining
  positions remain unchanged"; layer 2 "do[es] not affect any other positions ... except that W_2^{(2)}
  updates the block q to 0"), so every ``y_t`` keeps ``π_pos = e_0`` and the shifted query ``S e_0 = e_1``
  reads ``x_1`` at every step.
* ``read-repaired`` -- the reading fixed, the lemma kept: ``Q = π_pos`` (no shift) and
  ``π_pos(y_{t+1}) = S π_pos(y_t)`` written by ``W_2^{(2)}``, so step ``t+1`` reads ``x_t``.
* ``repaired`` -- the reading fixed and lem:addonetospecificheight's pulses extended to ``k = 0 … H-1``
  (one more pulse, ``ReLU(h + m)``, ``ReLU(h)``, ``ReLU(h - m)`` routed to ``p_1``), so that a ``U`` from
  height 0 increments ``p_1``. The lemma assumes ``h ≥ 1`` and has no pulse for ``h = 0``; in the theorem
  ``h = π_ht`` starts at 0 and returns to 0 at every return to the root.

Interpretive choices:

1. ``q_τ`` of ``x_τ`` is the step of the letter ``w_τ`` (``s_{τ+1} - s_τ``), as in thm:cotpathtotree; the
   theorem's text defines ``q_τ = s_τ - s_{τ-1}`` inside ``p_i``'s definition, which is the same letter
   indexed from 1 (``x_0`` would otherwise carry the undefined ``s_0 - s_{-1}``). The variants ``q-literal…``
   take the printed definition (:mod:`proofs.cot_path_to_tree.constructions.pathsteps`: ``x_0`` carries ``q_0 = 0``);
   then the
   printed shifted query ``S π_pos`` reads the right token, ``x_{t+1} = q_{t+1}``, once ``π_pos`` advances,
   and no token carries the last step ``q_n``. Each of the literal reading's three defects (no ``k = 0``
   pulse, ``π_pos`` never advanced, the last step on no token) is isolated by a variant that repairs the
   other two (:data:`OPTIONS`).
2. ``p`` has ``n/2 + 1`` coordinates ``p_1 … p_{n/2+1}`` (the block size the proof states), so
   lem:addonetospecificheight runs with ``H = n/2 + 1``; height ``n/2`` is the largest reached.
3. The value map carries only ``π_q`` ("every block is 0 except π_q(α') = q_τ") and ``W_O^{(1)}`` is the
   identity.
4. FFN hidden layers are the lemmas' hidden units plus one unit per coordinate of the blocks the proof
   keeps unchanged (``pos`` and ``wd`` in layer 1, ``pos`` and ``ht`` in layer 2); these are non-negative,
   so ``ReLU`` passes them. ``q`` is not carried through layer 2 (it is set to 0).
5. The lemmas' biases are constant terms of ``W_1``/``W_2`` (lem:addonetospecificheight has none).
6. ``n`` steps, no stop rule; the empty word (``n = 0``) is outside the family: the proof's ``y_0`` has
   ``π_wd = 0`` while a single vertex has width 1, which is prop:widthpathtree's ``n ≥ 2``.

For every n: :func:`all_n_statement` states what every token holds for ``repaired`` and ``q-literal-repaired``
(``y_τ = [e_τ ‖ 0 ‖ s_τ ‖ p_1 … p_H ‖ max_i p_i]``, head ``read``'s token, the blocks after each layer), over the
width counts' vocabulary :mod:`proofs.cot_path_to_tree.algorithms.pathwidth_facts`; the prompt of every variant is
stated by its segments (:func:`prompt_statement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from proofs.cot_path_to_tree.algorithms.alg1_facts import height
from proofs.cot_path_to_tree.algorithms.paths import WidthState
from proofs.cot_path_to_tree.algorithms.pathwidth_facts import VOCABULARY as WIDTH_VOCABULARY
from proofs.cot_path_to_tree.algorithms.pathwidth_facts import raised
from proofs.cot_path_to_tree.constructions.pathsteps import LETTER, LITERAL, LITERAL_LAST, StepReading, letter_step, x_q
from proofs.cot_path_to_tree.gadgets import addonetospecificheight, addwidplus1
from symcot.constructions.alln import AllNStatement, Choice, PromptStatement, Segment
from symcot.constructions.base import Construction, Expectation
from symcot.constructions.encoding import StateEncoding, const, onehot, scalar, vector
from symcot.constructions.readings import Reading, as_written, reading, repair
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import validate_dyck
from symcot.ir import Layout, Map, Shift, n
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

BLOCKS = ["pos", "q", "ht", "p", "wd"]
#: H = n/2 + 1 counters p_1..p_H.
H_P = n / 2 + 1
#: d = 3n/2 + 4, as stated in the proof.
PAPER_D = sp.Rational(3, 2) * n + 4


@dataclass(frozen=True)
class Options:
    """What a variant reads or repairs: the prompt's steps, the query's shift, ``π_pos``, the first pulse."""

    steps: StepReading
    shift_query: bool  # Q = S π_pos (as printed) or π_pos
    advance_pos: bool  # W_2^{(2)} writes π_pos ← S π_pos (the text never advances it)
    first_k: int  # lem:addonetospecificheight's pulses k = first_k .. H-1 (1 as printed)


#: Each variant's choices (choice 1 and the module docstring's variants).
OPTIONS: dict[str, Options] = {
    "as-written": Options(LETTER, True, False, 1),
    "read-repaired": Options(LETTER, False, True, 1),
    "repaired": Options(LETTER, False, True, 0),
    "q-literal": Options(LITERAL, True, False, 1),
    "q-literal-read-last-repaired": Options(LITERAL_LAST, True, True, 1),
    "q-literal-pulse-last-repaired": Options(LITERAL_LAST, True, False, 0),
    "q-literal-pulse-read-repaired": Options(LITERAL, True, True, 0),
    "q-literal-repaired": Options(LITERAL_LAST, True, True, 0),
}
VARIANTS = tuple(OPTIONS)
#: The variants (``symcot claims`` lists them with their verdicts).
READINGS: dict[str, Reading] = {
    "as-written": as_written("x_τ carries the letter w_τ; query S π_pos; π_pos of a generated token is never "
                             "advanced (the text never writes it); lem:addonetospecificheight as printed"),
    "read-repaired": repair("query π_pos and π_pos(y_{t+1}) = S π_pos(y_t), so step t+1 reads x_t; "
                            "lem:addonetospecificheight as printed (pulses k = 1..H-1)"),
    "repaired": repair("read-repaired, and a pulse for k = 0 in lem:addonetospecificheight (a U from height 0 "
                       "increments p_1)"),
    "q-literal": reading("x_τ carries q_τ = s_τ - s_{τ-1} as printed (x_0: q_0 = 0); the weights as printed "
                         "(query S π_pos, π_pos never advanced, pulses k = 1..H-1)"),
    "q-literal-read-last-repaired": repair("q-literal with two of its three repairs: π_pos(y_{t+1}) = S π_pos(y_t) "
                                           "(the printed query S π_pos then reads x_{t+1} = q_{t+1}) and x_0 carrying "
                                           "the last step q_n = -1; no k = 0 pulse"),
    "q-literal-pulse-last-repaired": repair("q-literal with the k = 0 pulse and x_0 carrying the last step q_n = -1; "
                                            "π_pos never advanced"),
    "q-literal-pulse-read-repaired": repair("q-literal with the k = 0 pulse and π_pos(y_{t+1}) = S π_pos(y_t); x_0 "
                                            "carries q_0 = 0, so no token carries the last step"),
    "q-literal-repaired": repair("q-literal with all three: the k = 0 pulse, π_pos advanced, x_0 carrying the last "
                                 "step q_n = -1 (read at the final step, where S e_{n-1} = 0 ties every score)"),
}


def layout() -> Layout:
    """``[pos ‖ q ‖ ht ‖ p ‖ wd]`` with ``|pos| = n``, ``|p| = n/2 + 1``."""
    return Layout("widpath", [("pos", n), ("q", 1), ("ht", 1), ("p", H_P), ("wd", 1)])


def build_decoder(variant: str = "as-written") -> Decoder:
    """The decoder of ``variant`` (see the module docstring)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; variants are {VARIANTS}")
    opt = OPTIONS[variant]
    first_k = opt.first_k  # pulses k = first_k .. H-1
    L = layout()
    x = L.vars()

    # Layer 1: read q_τ; lem:addonetospecificheight.
    kr = Layout("widpath.key", [("v", n)])
    head = Head(
        "read",
        query=Map("Q_read^{(1)}", L, kr, {"v": Shift(n) @ x.pos if opt.shift_query else x.pos}, max_degree=1,
                  doc="S π_pos(y_t)" if opt.shift_query else "π_pos(y_t) (repaired)"),
        key=Map("K_read^{(1)}", L, kr, {"v": x.pos}, max_degree=1, doc="π_pos(α)"),
        value=Map("V_read^{(1)}", L, L, {"q": x.q}, zero=["pos", "ht", "p", "wd"], max_degree=1,
                  doc="every block 0 except π_q(α') = q_τ"),
    )
    o = value_space([head]).vars()
    w_o = Map("W_O^{(1)}", value_space([head]), L, {b: o[f"read.{b}"] for b in BLOCKS}, max_degree=1,
              doc="identity")
    height = addonetospecificheight(x.q, x.ht, x.p, first_k, units={"m_pos": "m+", "m_neg": "m-"},
                                    writes={"m": "q", "h": "ht", "p": "p"})
    h1 = Layout("widpath.hidden1", [*height.units(), ("pos", n), ("wd", 1)])
    w1_1 = Map("W_1^{(1)}", L, h1, {**height.w1(), "pos": x.pos, "wd": x.wd}, max_degree=1,
               doc="lem:addonetospecificheight W_1 = [W_{1,id}; W_{1,pls}] on [q ‖ ht ‖ p]; pos, wd kept"
                   + ("; pulses k = 0..H-1 (repaired)" if first_k == 0 else "; pulses k = 1..H-1"))
    h = h1.vars()
    w2_1 = Map("W_2^{(1)}", h1, L, {**height.w2(h), "pos": h.pos, "wd": h.wd}, max_degree=1,
               doc="lem:addonetospecificheight W_2 = [W_{2,id} ‖ W_{2,pls}]: m, h + m, p + pulses")
    layer1 = Layer(Attention([head], w_o), FFN(w1_1, w2_1, gadgets=(height,)))

    # Layer 2: trivial attention; lem:addwidplus1; q ← 0.
    grow = addwidplus1(x.p, x.wd)
    h2 = Layout("widpath.hidden2", [*grow.units(), ("pos", n), ("ht", 1)])
    w1_2 = Map("W_1^{(2)}", L, h2, {**grow.w1(), "pos": x.pos, "ht": x.ht},
               max_degree=1, doc="lem:addwidplus1 W_1 = [I_{H+1}; I_H  -1_H]; pos, ht kept")
    g = h2.vars()
    w2_2 = Map("W_2^{(2)}", h2, L, {
        **grow.w2(g), "ht": g.ht,
        "pos": Shift(n) @ g.pos if opt.advance_pos else g.pos,
    }, zero=["q"], max_degree=1,
        doc="lem:addwidplus1 W_2: wd + Σ tmp_i; q ← 0" + ("; π_pos ← S π_pos (repaired)" if opt.advance_pos else ""))
    layer2 = Layer(None, FFN(w1_2, w2_2, gadgets=(grow,)))
    return Decoder(f"thm:cotwidofpath/{variant}", L, [layer1, layer2])


#: ``y_t`` carries ``ht = s_t``, ``p = (p_1 … p_H)``, ``wd = max_i p_i`` and ``q = 0``.
ENCODING = StateEncoding({"ht": scalar("ht"), "p": vector("p"), "wd": scalar("wd"), "q": const(0)})


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------

#: ``x_τ = [e_τ ‖ q_τ ‖ 0 ‖ 0^{n/2+1} ‖ 0]``: the prompt's input tokens (:func:`prompt_statement`, read at ``τ``).
X_TOKEN = StateEncoding({"pos": onehot("x_tau"), "q": scalar("x_q")})
#: ``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 0^{n/2+1} ‖ 0]``.
Y0_TOKEN = StateEncoding({"pos": onehot("y0_at")})
#: ``y_τ = [e_τ ‖ 0 ‖ s_τ ‖ p_1 … p_H ‖ max_i p_i]`` (``e_n = 0``: the shift drops the last position).
TOKEN = ENCODING.extended(pos=onehot("t"))


def prompt_statement(steps: StepReading) -> PromptStatement:
    """The prompt ``[x_0, …, x_{n-1}, y_0]`` under the reading ``steps`` of ``q_τ`` (choice 1).

    ``x_τ`` (:data:`X_TOKEN`) reads ``τ`` and its step; ``y_0`` (:data:`Y0_TOKEN`) nothing. The construction's prompt
    for every variant: its all-n statement's segments where it has one, these alone for the others.
    """
    return PromptStatement(
        WIDTH_VOCABULARY,
        (Segment("x", lambda c: c.T, X_TOKEN, {"x_tau": lambda c, i: i, "x_q": x_q(steps)}, lambda i: f"x_{i}"),),
        Segment("y_0", lambda c: 1, Y0_TOKEN, {"y0_at": lambda c, i: 0}, lambda i: "y_0"))


#: The variants a statement is written for: both repairs of lem:addonetospecificheight and of the reading.
STATED = ("repaired", "q-literal-repaired")


def all_n_statement(variant: str) -> AllNStatement | None:
    """What every token holds at every step, for the variants whose proof this is (``None`` for the others).

    The proof of thm:cotwidofpath with its repairs (:data:`STATED`): at step ``t`` (``y_t`` to ``y_{t+1}``) head
    ``read`` selects the token carrying the letter ``w_t`` (``x_t`` under the letter reading, query ``π_pos(y_t) =
    e_t``; ``x_{t+1}`` under the printed ``q_τ``, query ``S π_pos(y_t) = e_{t+1}``, and ``x_0``, carrying the last
    step, at the last step, where ``S e_{n-1} = 0`` ties every score); after layer 1 (lem:addonetospecificheight,
    eq:addonetospecificheight) ``q = w_t``, ``ht = s_{t+1}`` and ``p`` is ``p`` with ``p_{s_{t+1}}`` raised by one
    on a ``U``; after layer 2 (lem:addwidplus1, eq:addwidplus1) ``wd = max(wd, p_{s_{t+1}})`` on a ``U`` (stated
    in the counts at ``t``), ``q = 0`` and ``π_pos(y_{t+1}) = e_{t+1}``.

    The cut of ``p`` is stated by the one coordinate a ``U`` raises, so that layer 2's ``Σ_i ReLU(p_i - wd)`` is
    valued by finite support (L1, docs/all-n.md): every other counter is at most ``wd`` (``counts``). The variants
    with the printed pulses (``k ≥ 1``), the printed query or ``π_pos`` never advanced, or ``q_0 = 0`` on ``x_0`` have
    none (each is refuted by exact replay, and :meth:`WidthPathConstruction.invariants` locates its failure).
    """
    if variant not in STATED:
        return None
    steps = OPTIONS[variant].steps
    if steps.convention == "letter":  # Q = π_pos(y_t) = e_t: x_t and y_t score 1, x_t comes first
        def read(c: Any, t: Any) -> list[tuple[Any, str, Any]]:
            return [(True, "x", t)]
        source = "Q^{(1)} = π_pos(y_t) = e_t (repaired): x_t carries the letter w_t and comes before y_t"
    else:  # Q = S π_pos(y_t) = e_{t+1}; at the last step S e_{n-1} = 0 ties every score and x_0 wins
        def read(c: Any, t: Any) -> list[tuple[Any, str, Any]]:
            return [(t + 1 < c.T, "x", t + 1), (True, "x", 0)]
        source = ("Q^{(1)} = S π_pos(y_t) selects x_{t+1}, which carries q_{t+1} = w_t; at the last step S e_{n-1} = 0 "
                  "ties every score and x_0, carrying the last step q_n (repaired), wins")
    views = {
        "step_read": lambda c, t: letter_step(c, t),
        "h_next": lambda c, t: height(c, t + 1),
        "p_raised": lambda c, t: c.vec(lambda h: c.ite(raised(c, t, h), c.p(t, h) + 1, c.p(t, h)), c.levels),
        "wd_raised": lambda c, t: c.ite(c.and_(c.up(t), c.p(t, height(c, t + 1) - 1) + 1 > c.wd(t)),
                                        c.p(t, height(c, t + 1) - 1) + 1, c.wd(t)),
    }
    cuts = {1: StateEncoding({"q": scalar("step_read"), "ht": scalar("h_next"), "p": vector("p_raised"),
                              "wd": scalar("wd")}),
            2: StateEncoding({"wd": scalar("wd_raised")})}
    prompt = prompt_statement(steps)
    return AllNStatement(
        WIDTH_VOCABULARY, {n: lambda c: c.T}, prompt.segments, prompt.y0, TOKEN, views,
        (Choice(1, "read", read, source),), cuts,
        notes=("no hand fact: the width counts' definitions (the transition WIDTH) and the Dyck domain; H = n/2 + 1 "
               "counters (choice 2)",),
        quotes={(1, "q"): "the attention records the corresponding π_q from the input tokens",
                (1, "ht"): "eq:addonetospecificheight: h ← h + m",
                (1, "p"): "eq:addonetospecificheight: p_{h+1} ← p_{h+1} + 1 on m = 1, p unchanged on m = -1",
                (1, "wd"): "layer 1 keeps wd",
                (2, "wd"): "eq:addwidplus1: wd ← wd + 1 iff some p_i = wd + 1"})


class WidthPathConstruction(Construction):
    """The paper's width-on-path decoder (a variant), its input encoding and the proof's invariants."""

    encoding = ENCODING

    def __init__(self, variant: str = "as-written", decoder: Decoder | None = None):
        notes = {
            "as-written": ["π_pos of the generated tokens is never advanced and the query is S π_pos, as written"],
            "read-repaired": ["repair 1 only: Q = π_pos and π_pos(y_{t+1}) = S π_pos(y_t); "
                              "lem:addonetospecificheight as written (pulses k = 1..H-1)"],
            "repaired": ["repair 1: Q = π_pos and π_pos(y_{t+1}) = S π_pos(y_t); repair 2: a pulse for k = 0 in "
                         "lem:addonetospecificheight, so a U from height 0 increments p_1"],
        }.get(variant, [READINGS[variant].text] if variant in READINGS else [])
        super().__init__("thm:cotwidofpath", variant, decoder or build_decoder(variant), notes)
        self.steps = OPTIONS[variant].steps if variant in OPTIONS else LETTER
        #: The statement of this variant's proof (``None`` for the variants it is not written for): a variant of the
        #: same class may have none, so it is the instance's.
        self.all_n = all_n_statement(variant)  # type: ignore[misc]
        if self.all_n is None:  # the prompt of the reading, stated by the same segments as a statement's
            self.prompt_segments = prompt_statement(self.steps)  # type: ignore[misc]

    def env(self, inp: str) -> dict:
        """``{n: |w|}``."""
        return {n: len(inp)}

    def validate(self, inp: str) -> None:
        """A non-empty Dyck word."""
        validate_dyck(inp)
        if not inp:
            raise InvalidInputError("thm:cotwidofpath needs a non-empty Dyck word (e_0 needs n ≥ 1; wid needs n ≥ 2 "
                                    "vertices)")

    def invariants(self, inp: str, states: Sequence[WidthState], t: int) -> list[Expectation]:
        """Inside step ``t``: what the head reads, ``ht = s_t`` and ``p`` after layer 1, ``wd`` after layer 2.

        The head must read the token that carries the step's letter under the variant's reading; under the
        printed ``q_τ = s_τ - s_{τ-1}`` no token carries the last one (``q_n``).
        """
        st = states[t]
        carrier = self.steps.carrier(t, len(inp)) or "none: no input token carries q_n"
        return [
            Expectation(1, "head", "read", carrier, "the attention reads q_τ of the current letter"),
            Expectation(1, "block", "ht", [st.ht], "eq:addonetospecificheight: h ← h + m"),
            Expectation(1, "block", "p", list(st.p),
                        "eq:addonetospecificheight: p_{h+1} ← p_{h+1} + 1 on m = 1, p unchanged on m = -1"),
            Expectation(2, "block", "wd", [st.wd], "eq:addwidplus1: wd ← wd + 1 iff some p_i = wd + 1"),
        ]


