r"""The statement checked on concrete runs before any proof: facts, views, prompt, choices, cuts, tokens.

On every input of the claim's exhaustive families up to a size (:func:`check_statement`):

* the vocabulary's facts hold at every assignment of their variables on the reference run (the
  definitions thereby agree with the reference implementation), up to ``facts_size``;
* the views the construction's ``enc`` reads equal the reference states' fields, and the statement's step
  count ``T`` is the reference run's;
* the prover's reading of the statement (its Z3 terms, every symbol pinned to the run's values:
  :mod:`symcot.prove.alln.pinned`) equals this one: facts, views, choices, sizes, counts, up to ``facts_size``;
* the prompt read from the statement's segments through the run's interpretation is the construction's prompt,
  token for token. The construction reads its prompt from the same segments through the vocabulary's input
  interpretation (:class:`~symcot.constructions.alln.PromptStatement`), so this compares the input symbols of
  ``Vocabulary.inputs`` with the run's, and catches a construction whose prompt is another (a statement handed
  to a construction that is not its own);
* exact replay (:func:`symcot.model.semantics.generate` with records): at every prompt token before ``y_0``
  each head with a choice stated for the token's class selects the stated token; at every step each head selects the
  stated token, the stated cuts hold after their layer, ``y_{t+1}`` is the stated token (every block; only
  ``enc`` on the last one), and the run takes exactly ``T`` steps.

A false statement is caught here with the input and step, before Z3 is asked anything.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.algorithms.logic import Concrete, FactCount, check_facts, check_views
from symcot.check.exhaustive import Family
from symcot.constructions.alln import AllNStatement, Y, blocks_of
from symcot.constructions.base import Construction
from symcot.model.semantics import generate
from symcot.prove.alln.pinned import check_z3_reading


@dataclass
class ConcreteFailure:
    """Where the statement is false on a concrete run."""

    kind: str
    input: dict[str, Any]
    step: int | None
    what: str
    expected: Any = None
    got: Any = None
    decoder_departs: bool = False

    def text(self) -> str:
        """One line."""
        at = f" at step {self.step}" if self.step is not None else ""
        shown = self.expected is not None or self.got is not None
        exp = f": statement {self.expected}, run {self.got}" if shown else ""
        return f"{self.kind}{at}, {self.what}{exp} ({self.input.get('text', self.input)})"


@dataclass
class ConcreteReport:
    """What the concrete phase checked, and the first failure."""

    inputs: int = 0
    max_size: int | None = None
    facts_size: int | None = None
    fact_instances: dict[str, int] = field(default_factory=dict)
    failure: ConcreteFailure | None = None
    seconds: float = 0.0
    #: Inputs on which the prover's (Z3) reading of the statement was compared with the concrete one.
    z3_reading_inputs: int = 0
    #: Families left out because they cannot be enumerated exhaustively.
    skipped: list[str] = field(default_factory=list)


def _prompt_tokens(stmt: AllNStatement, c: Concrete, cl: Any, lam: Any) -> tuple[list[list[Any]], list[str]]:
    """The statement's prompt read through the run's interpretation ``c`` (the run's λ bound in it)."""
    prompt = stmt.prompt
    keys = prompt.keys_of(c)
    return [prompt.token(cl, key, lam) for _, key in keys], [label for label, _ in keys]


def _position(stmt: AllNStatement, c: Concrete, cls: str, p: int) -> int:
    off = 0
    for seg in stmt.segments:
        if seg.cls == cls:
            return off + p
        off += seg.count(c)
    return off + p


def _chosen(stmt: AllNStatement, c: Concrete, layer: int, head: str, t: int, at: str = Y) -> tuple[str, int] | None:
    ch = stmt.choice(layer, head, at)
    if ch is None:
        return None
    for cond, cls, p in ch.cases(c, t):
        if cond:
            return cls, p
    return None


def _check_prompt(cons: Construction, stmt: AllNStatement, c: Concrete, inp: Any, desc: dict[str, Any],
                  lam: Any) -> ConcreteFailure | None:
    cl = cons.concrete(inp).layout
    prompt = cons.prompt(inp)
    toks, labels = _prompt_tokens(stmt, c, cl, lam)
    if labels != prompt.labels or toks != prompt.tokens:
        k = next((i for i, (a, b) in enumerate(zip(toks, prompt.tokens)) if a != b), min(len(toks), len(prompt.tokens)))
        return ConcreteFailure("prompt", desc, None, f"token {k}", labels[k:k + 1], prompt.labels[k:k + 1])
    return None


def _check_prompt_records(stmt: AllNStatement, c: Concrete, records: Sequence[Sequence[Any]],
                          desc: dict[str, Any]) -> ConcreteFailure | None:
    """The choices stated at prompt tokens against the recorded pass over the prompt (before ``y_0``).

    Only heads with a choice stated for the token's class are compared (the prover uses no other).
    """
    tokens = [(seg, i) for seg in stmt.segments for i in range(seg.count(c))]
    if len(tokens) != len(records):
        return ConcreteFailure("prompt", desc, None, "the number of prompt tokens before y_0", len(tokens),
                               len(records))
    for (seg, i), recs in zip(tokens, records):
        for rec in recs:
            for hc in rec.heads:
                if stmt.choice(rec.layer, hc.head, seg.cls) is None:
                    continue
                want = _chosen(stmt, c, rec.layer, hc.head, i, seg.cls)
                if want is None:
                    return ConcreteFailure("choice", desc, None, f"layer {rec.layer} head {hc.head} at {seg.label(i)}: "
                                           "no case applies")
                if _position(stmt, c, *want) != hc.index:
                    return ConcreteFailure("choice", desc, None, f"layer {rec.layer} head {hc.head} at {seg.label(i)}",
                                           f"{want[0]}[{want[1]}]", f"position {hc.index}")
    return None


def _check_records(stmt: AllNStatement, c: Concrete, records: Sequence[Any], t: int, cl: Any, lam: Any,
                   desc: dict[str, Any]) -> ConcreteFailure | None:
    """The head choices and cuts of step ``t`` against its layer records."""
    views = stmt.all_views()
    for rec in records:
        for hc in rec.heads:
            want = _chosen(stmt, c, rec.layer, hc.head, t)
            if want is None:
                return ConcreteFailure("choice", desc, t, f"head {hc.head} of layer {rec.layer} has no stated choice")
            if _position(stmt, c, *want) != hc.index:
                return ConcreteFailure("choice", desc, t, f"layer {rec.layer} head {hc.head}",
                                       f"{want[0]}[{want[1]}]", f"position {hc.index}")
        cut = stmt.cuts.get(rec.layer)
        if cut is not None and rec.out is not None:
            for b, vals in blocks_of(cut, views, c, t, cl.sizes, lam).items():
                if cl.pi(b, rec.out) != vals:
                    return ConcreteFailure("cut", desc, t, f"layer {rec.layer} block {b}", vals, cl.pi(b, rec.out))
    return None


def _check_output(cons: Construction, stmt: AllNStatement, c: Concrete, y: Any, t: int, last: bool, cl: Any,
                  lam: Any, desc: dict[str, Any]) -> ConcreteFailure | None:
    """``y_t`` against ``enc`` (every token) and the statement's token (every token but the last one)."""
    views = stmt.all_views()
    for b, vals in blocks_of(cons.encoding, views, c, t, cl.sizes, lam).items():
        if cl.pi(b, y) != vals:
            return ConcreteFailure("encoding", desc, t, f"block {b} of y_{t}", vals, cl.pi(b, y), True)
    if not last:
        for b, vals in blocks_of(stmt.token, views, c, t, cl.sizes, lam).items():
            if cl.pi(b, y) != vals:
                return ConcreteFailure("token", desc, t, f"block {b} of y_{t}", vals, cl.pi(b, y))
    return None


def _check_steps(T: Any, states: Sequence[Any], desc: dict[str, Any]) -> ConcreteFailure | None:
    if T != len(states) - 1:
        return ConcreteFailure("steps", desc, None, "the statement's step count T against the reference run's",
                               T, len(states) - 1)
    return None


def _check_sizes_and_lambda(cons: Construction, stmt: AllNStatement, c: Concrete, inp: Any, lam: Any,
                            desc: dict[str, Any]) -> ConcreteFailure | None:
    """The sizes the run compiles its weights at are the statement's, and its λ meets the hypothesis the prover states.

    The prover reads the sizes from the statement and assumes ``λ ≥ rule`` (the construction's rule, at the
    statement's sizes); the run reads :meth:`Construction.env` and :meth:`Construction.lam_value`.
    """
    env = {str(k): v for k, v in cons.env(inp).items()}
    sizes = {sym: fn(c) for sym, fn in stmt.sizes.items()}
    stated = {str(k): v for k, v in sizes.items()}
    used = sorted({str(s) for b in cons.decoder.layout.blocks for s in sp.sympify(b.size).free_symbols})
    for sym in used:
        if env.get(sym) != stated.get(sym):
            return ConcreteFailure("sizes", desc, None, f"size {sym} of the layout: the run compiles at env(input), "
                                   "the prover reads the statement's size", stated.get(sym), env.get(sym))
    rule = cons.lam_rule
    if cons.lam_fixed is None and rule is not None and lam is not None:
        bound = sp.sympify(rule.formula).subs(sizes)
        if not bound.free_symbols and not sp.Rational(lam) >= bound:
            return ConcreteFailure("lambda", desc, None, f"λ of the run against the hypothesis λ ≥ {rule.formula} the "
                                   "prover assumes", f"≥ {bound}", lam)
    return None


def check_run(cons: Construction, stmt: AllNStatement, inp: Any, states: Sequence[Any], describe: Any,
              facts: bool, counts: FactCount, z3_reading: bool | None = None) -> ConcreteFailure | None:
    """Check the statement on one input (see the module docstring); ``z3_reading`` defaults to ``facts``."""
    vocab = stmt.vocabulary
    values = vocab.interpret(inp, states)
    lam = cons.lam_value(inp)
    # the run's λ is bound: a traced term reads ∞ as the statement writes it, λ (the prover's reading)
    c = Concrete(values if lam is None else {**values, "lam": lam})
    desc = describe(inp)
    if facts:
        bad = check_facts(vocab, c, counts)
        if bad is not None:
            return ConcreteFailure("fact", desc, None, f"{bad.fact} is false at {bad.values}")
    msg = check_views(vocab, c, states, sorted(cons.encoding.fields()), stmt.all_views(), lam)
    if msg:
        return ConcreteFailure("view", desc, None, msg)
    T = stmt.steps(c)
    fail = _check_steps(T, states, desc) or _check_sizes_and_lambda(cons, stmt, c, inp, lam, desc)
    if fail is not None:
        return fail
    if facts if z3_reading is None else z3_reading:
        diff = check_z3_reading(stmt, values, lam, facts)
        counts.checked["z3 reading"] = counts.checked.get("z3 reading", 0) + 1
        if diff is not None:
            return ConcreteFailure("reading", desc, None, f"the prover reads the statement otherwise: {diff.text()}")
    fail = _check_prompt(cons, stmt, c, inp, desc, lam)
    if fail is not None:
        return fail
    dec = cons.concrete(inp)
    cl = dec.layout
    gen = generate(dec, cons.prompt(inp).tokens, T, stop=(lambda y: cons.terminal(cl, y)) if cons.stop else None,
                   record=True)
    if len(gen.outputs) != T:
        return ConcreteFailure("steps", desc, None, "the run's length", T, len(gen.outputs), True)
    fail = _check_prompt_records(stmt, c, gen.prompt_records, desc)
    if fail is not None:
        return fail
    for t in range(T):
        fail = _check_records(stmt, c, gen.records[t], t, cl, lam, desc) or _check_output(
            cons, stmt, c, gen.outputs[t], t + 1, t + 1 == T and stmt.last_token == "encoding", cl, lam, desc)
        if fail is not None:
            return fail
    return None


def check_statement(cons: Construction, stmt: AllNStatement, reference: Any, families: Sequence[Family],
                    max_size: int, facts_size: int, reading_size: int | None = None) -> ConcreteReport:
    """Every exhaustive family up to ``max_size`` (facts up to ``facts_size``); stops at the first failure.

    The prover's reading of the statement is compared on every input up to ``reading_size`` (default:
    ``facts_size``).
    """
    reading_size = facts_size if reading_size is None else reading_size
    t0 = time.perf_counter()
    rep = ConcreteReport(facts_size=min(facts_size, max_size))
    counts = FactCount()
    done = 0
    rep.skipped = [f.name for f in families if not f.exhaustive]
    for size in range(1, max_size + 1):
        for fam in families:
            if not fam.exhaustive or size < fam.min_size or (fam.max_size is not None and size > fam.max_size):
                continue
            for inp in fam.inputs(size):
                rep.inputs += 1
                fail = check_run(cons, stmt, inp, reference(inp), fam.describe, size <= facts_size, counts,
                                 size <= reading_size)
                if fail is not None:
                    rep.failure = fail
                    rep.fact_instances = counts.checked
                    rep.seconds = time.perf_counter() - t0
                    return rep
        done = size
    rep.max_size = done
    rep.z3_reading_inputs = counts.checked.pop("z3 reading", 0)
    rep.fact_instances = counts.checked
    rep.seconds = time.perf_counter() - t0
    return rep


@dataclass
class WitnessReport:
    """Real runs beyond the concrete phase, on each of which every hypothesis of the proof holds.

    ``inputs`` lists the witness inputs that ran (each passed), ``sizes`` the sizes they cover; ``failure`` is the
    first run that did not pass (``fact``: a hypothesis false on a real run; ``decoder_departs``: the decoder leaves
    the reference there).
    """

    inputs: list[dict[str, Any]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    failure: ConcreteFailure | None = None
    seconds: float = 0.0

    @property
    def input(self) -> dict[str, Any] | None:
        """The largest witness input (``None``: none ran)."""
        return self.inputs[-1] if self.inputs else None


def witness_sizes(concrete_size: int, asked: int | None = None) -> list[int]:
    """The witness sizes: ``c + 1``, ``c + 2`` and ``2c + 1`` (and ``asked`` where it is beyond ``c``)."""
    c = concrete_size
    return sorted({c + 1, c + 2, 2 * c + 1, *([asked] if asked is not None and asked > c else [])})


def check_witness(cons: Construction, stmt: AllNStatement, reference: Any, families: Sequence[Family],
                  sizes: Sequence[int], tries: int = 3) -> WitnessReport:
    """The hypotheses hold together on real runs beyond the concrete phase, at every size of ``sizes``.

    The first ``tries`` inputs of every exhaustive family at each size are run through :func:`check_run` with every
    fact at every assignment. Every one of them must pass: a fact false on one is a hypothesis no run satisfies
    there (an inconsistent set, a hidden bound such as ``n ≤ 4``), a departure of the decoder refutes it, and either
    ends the check with that input. A size at which no family has an input is left out of ``sizes``.
    """
    t0 = time.perf_counter()
    rep = WitnessReport()
    for size in sizes:
        ran = False
        for fam in families:
            if not fam.exhaustive or size < fam.min_size or (fam.max_size is not None and size > fam.max_size):
                continue
            for k, inp in enumerate(fam.inputs(size)):
                if k >= tries:
                    break
                fail = check_run(cons, stmt, inp, reference(inp), fam.describe, True, FactCount(), z3_reading=False)
                if fail is not None:
                    rep.failure = fail
                    rep.seconds = time.perf_counter() - t0
                    return rep
                rep.inputs.append(fam.describe(inp))
                ran = True
        if ran:
            rep.sizes.append(size)
    rep.seconds = time.perf_counter() - t0
    return rep
