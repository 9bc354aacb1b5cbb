r"""The all-n proof of one construction: lemmas, algorithm facts, base, one step at a symbolic ``t``, stop rule.

Why this proves the construction for every size (def:algorelationbycot): let ``P(t)`` say that the heads
select the stated tokens and the stated cuts hold at every step ``t' ≤ t``, and that ``y_{t'+1}`` is the
statement's token at ``t' + 1``. The base obligation gives ``y_0``. The step obligations are proved for a
symbolic ``t`` with ``0 ≤ t < T``, symbolic sizes and the whole history as uninterpreted functions
constrained only by the algorithm's facts; their hypotheses about earlier tokens are exactly ``P(t - 1)``
(the engine builds each earlier token's representation from the choices and cuts at its own step). So
``P(t - 1) → P(t)`` for every run, and by induction every ``y_t`` is the statement's token, whose encoded
blocks are the construction's ``enc(s_t)``. The stop obligations show the run stops at ``T``, the
reference's step count. Every obligation is decided by Z3 (``unsat`` of its negation); one that is not
proved leaves the verdict ``unknown``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
import z3

from symcot.algorithms.logic import Vocabulary
from symcot.constructions.alln import AllNStatement
from symcot.constructions.base import Construction
from symcot.ir.symbols import lam
from symcot.lemmas.kit import sympy_to_z3
from symcot.prove.alln.blocks import Unsupported
from symcot.prove.alln.context import DEFAULT_TIMEOUT_S, Context, EarlyStop, Obligation
from symcot.prove.alln.engine import Engine
from symcot.prove.alln.facts import prove_facts
from symcot.prove.alln.ops import Symbolic, as_arith, quantified, reading
from symcot.prove.alln.sizes import prove_sizes
from symcot.prove.alln.step import prove_base, prove_step, prove_stop
from symcot.prove.alln.sums import Summer, prove_lemmas
from symcot.prove.lam.rule import derive


@dataclass
class AllNResult:
    """What one all-n proof established: every obligation, and the first that is not proved."""

    label: str
    obligations: list[Obligation] = field(default_factory=list)
    seconds: float = 0.0
    lam_bound: str | None = None
    notes: list[str] = field(default_factory=list)
    #: The λ rule derived from the proof (:mod:`symcot.prove.lam.rule`), with its tries.
    lam_rule: Any = None
    #: The construction's fixed λ, when it has one (the proof is at that value only).
    lam_fixed: str | None = None

    @property
    def proved(self) -> bool:
        """Every obligation proved (and there is at least one step obligation).

        A size obligation left undecided (not refuted) does not stop it: the kernel makes the row ``proved assuming``
        that size (:meth:`assumed_sizes`); one Z3 refutes (a model where the size is negative) does.
        """
        return bool(self.obligations) and all(o.ok or (o.phase == "size" and o.status == "unknown")
                                              for o in self.obligations) and any(
            o.phase == "step" for o in self.obligations)

    def assumed_sizes(self) -> list[str]:
        """The size obligations left undecided, as assumptions of the row."""
        return [f"that {o.where}: {o.statement}, for every size the hypotheses allow (undecided: {o.detail})"
                for o in self.obligations if o.phase == "size" and o.status == "unknown"]

    @property
    def first_failure(self) -> Obligation | None:
        """The first obligation that is not proved."""
        return next((o for o in self.obligations if not o.ok), None)

    def counts(self) -> dict[str, int]:
        """Obligations per status."""
        out: dict[str, int] = {}
        for o in self.obligations:
            out[o.status] = out.get(o.status, 0) + 1
        return out


def _run_phases(cons: Construction, eng: Engine, ctx: Context, vocab: Any, c: Symbolic, lemmas: bool, facts: bool,
                only: tuple[str, ...]) -> None:
    """Lemmas, facts, sizes, base, step and stop, in order (an early stop ends the run quietly; it is in the log)."""
    try:
        if lemmas:
            prove_lemmas(ctx)
        if facts:
            prove_facts(ctx, vocab, c)
        if not only or "size" in only:
            prove_sizes(eng, ctx)
        if not only or "base" in only:
            prove_base(eng, ctx)
        if not only or "step" in only:
            prove_step(eng, ctx, dict(cons.encoding.blocks))
        if not only or "stop" in only:
            prove_stop(eng, ctx, cons.stop, dict(cons.encoding.blocks))
    except Unsupported as e:
        try:
            ctx.unsupported("step", "statement", "the step", str(e))
        except EarlyStop:
            pass
    except EarlyStop:
        pass


def size_terms(stmt: AllNStatement, c: Symbolic) -> dict[sp.Symbol, Any]:
    """The layout's size symbols as Z3 terms."""
    with reading("the statement's sizes"):
        return {sym: as_arith(fn(c)) for sym, fn in stmt.sizes.items()}


#: The prover's own constants: the step and λ. Their names carry ``!``, which no vocabulary name can
#: (:func:`symcot.prove.alln.ops.check_names`), so a symbol of the statement never denotes them.
STEP_NAME, LAMBDA_NAME = "t!", "λ!"


def lambda_hypothesis(cons: Construction, lam_bound: Any, sizes: dict[sp.Symbol, Any]) -> tuple[Any, str, Any] | None:
    """``(λ term, hypothesis name, hypothesis)`` for the construction's own λ; ``None`` when it has none.

    A construction with a fixed λ (:meth:`Construction.with_lambda`) is proved at exactly that value; one
    with a rule at ``λ ≥ lam_bound`` (default: the rule), ``λ`` a symbolic real. A fixed λ with a
    different ``lam_bound`` is refused: the proof would be about another decoder.
    """
    fixed = cons.lam_fixed
    if fixed is not None and not (isinstance(fixed, sp.Basic) and fixed.free_symbols):
        if lam_bound is not None:
            raise ValueError(f"{cons.label} has λ = {fixed}: a bound λ ≥ {lam_bound} would prove another decoder")
        q = sp.Rational(fixed)
        return z3.Q(int(q.p), int(q.q)), f"λ = {fixed}", None
    if lam_bound is None and cons.lam_rule is not None:
        lam_bound = cons.lam_rule.formula
    if lam_bound is None:
        return None
    lam_z = z3.Real(LAMBDA_NAME)
    return lam_z, f"λ ≥ {lam_bound}", lam_z >= sympy_to_z3(sp.sympify(lam_bound), sizes)


def step_hypotheses(vocab: Vocabulary, c: Symbolic) -> list[tuple[str, Any]]:
    """The named facts a statement's obligations assume: every fact of ``vocab`` but its lemmas."""
    return [(f.name, quantified(c, f)) for f in vocab.facts if not f.lemma]


def _prove_in(res: AllNResult, cons: Construction, stmt: AllNStatement, lam_bound: Any, overlay: Any,
              min_size: int | None, timeout_s: float, facts: bool, lemmas: bool, only: tuple[str, ...],
              stop_early: bool, derive_lambda: bool) -> None:
    vocab = stmt.vocabulary
    c = Symbolic(vocab)
    sizes = size_terms(stmt, c)
    consts: dict[sp.Symbol, Any] = {}
    hyps = step_hypotheses(vocab, c)
    lam_h = lambda_hypothesis(cons, lam_bound, sizes)
    lam_z = None
    if lam_h is not None:
        lam_term, lam_name, lam_hyp = lam_h
        consts[lam] = lam_term
        c.bind("lam", lam_term)
        if lam_hyp is not None:
            res.lam_bound = lam_name.removeprefix("λ ≥ ")
            lam_z = lam_term
            hyps.append((lam_name, lam_hyp))
        else:
            res.lam_fixed = str(cons.lam_fixed)
    if min_size is not None:
        hyps.append((f"size ≥ {min_size}", z3.And(*[v >= min_size for v in sizes.values()])))
    ctx = Context(hyps, timeout_s)
    ctx.stop_early = stop_early
    ctx.kinds = c.kinds
    ctx.keep_queries = lam_z is not None and derive_lambda
    t = z3.Int(STEP_NAME)
    with reading("the statement's step count T"):
        base = [("0 ≤ t < T", z3.And(t >= 0, t < as_arith(stmt.steps(c))))]
    eng = Engine(stmt, cons.decoder, c, Summer(ctx), consts, t, base, overlay)
    _run_phases(cons, eng, ctx, vocab, c, lemmas, facts, only)
    res.obligations = ctx.log
    if ctx.keep_queries and res.proved:
        rule = cons.lam_rule
        scale = rule.scale if rule is not None and rule.scale is not None else next(iter(stmt.sizes))
        res.lam_rule = derive(ctx, ctx.log, f"λ ≥ {res.lam_bound}", lam_z, sizes, scale)


def prove(cons: Construction, stmt: AllNStatement | None = None, *, lam_bound: Any = None,
          overlay: Any = None, min_size: int | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
          facts: bool = True, lemmas: bool = True, only: tuple[str, ...] = (), stop_early: bool = False,
          derive_lambda: bool = True) -> AllNResult:
    """Run every obligation of ``cons`` (``stmt`` defaults to its ``all_n``).

    Args:
        cons: the construction (its decoder's IR is what is evaluated).
        stmt: the statement (defaults to ``cons.all_n``).
        lam_bound: for a construction with ``λ``: the proof assumes ``λ ≥ lam_bound`` (a SymPy expression in
            the size symbols); ``λ`` is a symbolic real.
        overlay: a mutation of the weights (:mod:`symcot.prove.alln.mutate`).
        min_size: assume the size is at least this (a mutation addresses fixed coordinates).
        timeout_s: Z3's limit per obligation.
        facts: also prove the algorithm's derived facts (independent of the weights: a caller that proved
            them once may skip them).
        lemmas: also prove the sum lemmas (likewise independent of the weights).
        only: restrict to these phases (``size``, ``base``, ``step``, ``stop``); empty: all.
        stop_early: stop at the first obligation that is not proved (enough to show a mutant is not proved).
        derive_lambda: for a construction with ``λ``: after the proof under ``λ ≥ lam_bound`` (default: its
            rule), derive the least rule ``λ ≥ a·n + b`` (``a·scale + b`` for a rule with a ``scale``) the
            obligations need (:mod:`symcot.prove.lam.rule`).

    """
    t0 = time.perf_counter()
    stmt = stmt or cons.all_n
    res = AllNResult(cons.label)
    if stmt is None:
        ctx0 = Context([])
        ctx0.unsupported("statement", cons.label, "what every token holds",
                         "the construction states no all-n invariant (all_n is None)")
        res.obligations = ctx0.log
        return res
    with reading(f"the statement of {cons.label}"):
        _prove_in(res, cons, stmt, lam_bound, overlay, min_size, timeout_s, facts, lemmas, only, stop_early,
                  derive_lambda)
    res.seconds = time.perf_counter() - t0
    return res
