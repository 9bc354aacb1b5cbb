r"""The kernel: the one place an all-n row becomes ``proved`` (or ``proved assuming …``).

Everything else — the concrete phase, the witnesses, the second solver, the reports — gathers evidence or reads
the kernel's result. The kernel builds its own inputs and decides:

1. **What is proved is what runs** (:func:`refusal`, :func:`kernel_copy`). The prover reads the construction's
   IR decoder, its statement's prompt segments, its ``lam_fixed``/``lam_rule`` and its stop rule. A construction
   that computes any of these its own way — a subclass or an instance that writes ``concrete``, ``token``,
   ``token_keys``, ``prompt``, ``lam_value``, ``subs``, ``terminal`` …, a λ or stop rule of another type — runs
   something the proof does not read, and is refused (the row is ``unknown`` with the reason). A derived construction
   (:class:`~symcot.constructions.derived.Derived`) passes when its base does and both share one statement.
2. **One reading** (:mod:`symcot.prove.alln.trace`). The construction's own statement (``all_n`` of the
   instance) is traced once; the kernel's copy of the construction carries the traced statement, so the
   prompt it runs, the facts and views the concrete phase evaluates and the terms the prover reads are one
   set of terms.
3. **The verdict** (:func:`decide`). ``proved`` only when every obligation is proved, the witnesses ran at
   sizes beyond the concrete phase, and nothing is assumed beyond the trusted base every proof shares. A hand
   fact (proved by hand, used as given), a second solver not run, or an input family that declares no universe
   (nothing checks that it covers the statement's domain: :mod:`symcot.prove.alln.domain`) makes it
   ``proved assuming …``, a verdict of its own in the table, the JSON, the count line and the exit status (3).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from symcot.algorithms.logic import Vocabulary
from symcot.constructions.alln import AllNStatement
from symcot.constructions.base import Construction
from symcot.constructions.derived import Derived
from symcot.constructions.encoding import LambdaRule, StopRule
from symcot.prove.alln.conclude import narrowed
from symcot.prove.alln.trace import Tracer, trace_statement

#: Methods through which a construction's runs get their prompt, weights, λ and stop: the prover reads the
#: statement, the IR and the λ attributes instead, so none may be the construction's own.
RUN_METHODS = ("token_keys", "token", "prompt", "cached_token", "prompt_batch", "stated_prompt", "_segments",
               "lam_value", "subs", "concrete", "terminal", "expected")
#: What a derived construction may write: each delegates to its base (checked in turn).
DELEGATED = frozenset({"token_keys", "token"})

#: The verdict word of a proof that rests on an assumption beyond the shared trusted base.
ASSUMING = "proved assuming"


def refusal(cons: Construction) -> str | None:
    """Why the prover would prove something other than what ``cons`` runs, or ``None`` (see the module docstring)."""
    for name in RUN_METHODS:
        if name in vars(cons):
            return f"the construction object sets its own {name}: what it runs is not what the prover reads"
        impl = getattr(type(cons), name, None)
        if impl is getattr(Construction, name, None):
            continue
        if isinstance(cons, Derived) and name in DELEGATED and impl is getattr(Derived, name):
            continue
        owner = next((k.__name__ for k in type(cons).__mro__ if name in vars(k)), type(cons).__name__)
        return (f"{owner}.{name} is the construction's own: its runs get their "
                f"{'weights' if name == 'concrete' else 'λ' if name in ('lam_value', 'subs') else 'prompt or stop'} "
                "another way than the all-n prover reads them (the IR decoder, the statement's segments, lam_fixed or "
                "lam_rule, the stop rule)")
    rule = cons.lam_rule
    if rule is not None and type(rule) is not LambdaRule:
        return f"the λ rule is a {type(rule).__name__}, not a LambdaRule: its value per input is not the rule proved"
    desc = getattr(cons.decoder, "description", None)
    if desc is not None and not desc.section3:
        return (f"the decoder's model description ({desc.summary()}) is not Section 3's: the all-n prover's layer "
                "semantics are Section 3's (causal decoder, leftmost unique hard attention, residual around attention "
                "only, no layer norm, no positional encoding), so it cannot read this one")
    if cons.stop is not None and type(cons.stop) is not StopRule:
        return f"the stop rule is a {type(cons.stop).__name__}, not a StopRule: when it fires is not what is proved"
    if isinstance(cons, Derived):
        if cons.base.all_n is not cons.all_n:
            return "a derived construction whose statement is not its base's"
        return refusal(cons.base)
    return None


def kernel_copy(cons: Construction, stmt: AllNStatement) -> Construction:
    """A copy of ``cons`` whose statement is ``stmt`` (the traced one), down to the base of a derived construction."""
    k = copy.copy(cons)
    k.all_n = stmt  # type: ignore[misc]
    # compiled weights, tokens and keys are made anew from the IR and the traced statement: nothing cached before
    k._cache, k._tokens, k._batch_tokens, k._keys = {}, {}, {}, {}
    if isinstance(k, Derived):
        k.base = kernel_copy(k.base, stmt)
    return k


def traced(cons: Construction, vocabulary: Vocabulary | None) -> tuple[Construction, AllNStatement, AllNStatement]:
    """``(kernel's copy, its statement, the statement over the claim's vocabulary)``, every function traced once."""
    stmt = cons.all_n
    assert stmt is not None
    tr = Tracer(vocabulary or stmt.vocabulary)
    own = trace_statement(stmt, tracer=tr)
    full = own if vocabulary is None else narrowed(own, tr.vocabulary(vocabulary))
    return kernel_copy(cons, own), own, full


def assumptions(stmt: AllNStatement, second_solver: bool, witness_sizes: Sequence[int],
                concrete_size: int, domain: Sequence[str] = ()) -> list[str]:
    """What a proof of ``stmt`` assumes beyond the shared trusted base (empty: a plain ``proved``).

    ``domain`` is what the input families leave assumed about the statement's domain
    (:func:`symcot.prove.alln.domain.assumptions_of`: a family without a universe, or with a restricted one).
    """
    out: list[str] = list(domain)
    hand = [f.name for f in stmt.vocabulary.facts if f.kind == "hand"]
    if hand:
        out.append(f"the hand facts {', '.join(hand)} (proved by hand, used as given)")
    if not second_solver:
        out.append("Z3 alone (the second solver was not run)")
    beyond = [s for s in witness_sizes if s > concrete_size]
    if len(beyond) < 2:
        out.append(f"that the hypotheses hold together beyond size {concrete_size} (witness runs only at "
                   f"{list(witness_sizes) or 'no size'})")
    return out


def decide(proved: bool, assumed: Sequence[str]) -> str | None:
    """``proved``, ``proved assuming``, or ``None`` when the obligations are not all proved."""
    if not proved:
        return None
    return ASSUMING if assumed else "proved"
