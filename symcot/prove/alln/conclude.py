r"""What a claim concludes beyond the decoder's realization, proved as facts of a narrower vocabulary.

An all-n statement says what every token holds for ``τ ≤ T`` and that the stop rule fires exactly at ``T``. A claim
often says more, and on a narrower domain than the construction's: "on a tree the decoder needs ``2n - 1`` steps"
is ``T = 2n - 1`` on trees, where the construction is stated for every graph.
:class:`~symcot.prove.alln.check.AllNCheck` states both:

* ``vocabulary`` -- the construction's statement read over an extension of its vocabulary (:func:`narrowed`): the
  same symbols, facts and views first, then the claim's domain facts and the definitions and derived facts its
  conclusions need. The concrete phase checks the statement and every fact over it; the step obligations are the
  construction's own (proved over its vocabulary: fewer hypotheses, so they hold over the extension too, and a
  run over several claims asks them once), and the facts the extension adds are proved after them
  (:func:`prove_extension`).
* ``concludes`` -- per conclusion of the claim's spec (:class:`Concluded`), the derived facts of that vocabulary
  that state it, and how the conclusion is read from them and the realization. The facts are proved with the rest
  of the vocabulary, so the row is ``proved`` only if they are; the reading is an item of the row's trusted base
  (the spec's conclusion itself is checked on every input of the claim's exact rows).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from symcot.algorithms.logic import Vocabulary
from symcot.check.spec import StepwiseSpec
from symcot.constructions.alln import AllNStatement
from symcot.prove.alln.context import Context, Obligation
from symcot.prove.alln.facts import prove_fact
from symcot.prove.alln.ops import Symbolic, reading
from symcot.prove.alln.prover import AllNResult


@dataclass(frozen=True)
class Concluded:
    """One conclusion of the claim's spec, stated by derived facts of the statement's vocabulary.

    Attributes:
        conclusion: the spec's :class:`~symcot.check.spec.Conclusion` name, as written there.
        facts: the derived facts that state it.
        reads: how the conclusion follows from the facts and the realization (the statement at ``τ ≤ T``, the stop
            rule exactly at ``T``).

    """

    conclusion: str
    facts: tuple[str, ...]
    reads: str


def narrowed(stmt: AllNStatement, vocab: Vocabulary) -> AllNStatement:
    """``stmt`` over ``vocab``, which must extend its vocabulary (its symbols, facts and views first, unchanged).

    Its input interpretation may read more symbols of the input (a search of it, for a domain fact); the prompt is
    read through the construction's own statement.
    """
    own = stmt.vocabulary
    n_sym, n_fact = len(own.symbols), len(own.facts)
    if vocab.symbols[:n_sym] != own.symbols or vocab.facts[:n_fact] != own.facts:
        raise ValueError(f"vocabulary {vocab.name!r} does not extend the statement's {own.name!r}: its first symbols "
                         "and facts must be the statement's (Vocabulary.extended)")
    changed = sorted(k for k, v in own.views.items() if vocab.views.get(k) is not v)
    if changed:
        raise ValueError(f"vocabulary {vocab.name!r} changes the statement's views {changed}")
    if own.inputs is not None and vocab.inputs is None:
        raise ValueError(f"vocabulary {vocab.name!r} has no input interpretation, the statement's {own.name!r} has one")
    return replace(stmt, vocabulary=vocab)


def prove_extension(res: AllNResult, base: Vocabulary, vocab: Vocabulary, timeout_s: float) -> None:
    """Prove the derived facts ``vocab`` adds to ``base`` (its facts after ``base``'s), appending to ``res``."""
    t0 = time.perf_counter()
    c = Symbolic(vocab)
    ctx = Context([], timeout_s)
    ctx.kinds = c.kinds
    for f in vocab.facts[len(base.facts):]:
        with reading(f"fact {f.name}"):
            prove_fact(ctx, vocab, c, f)
    res.obligations = [*res.obligations, *ctx.log]
    res.seconds += time.perf_counter() - t0


def check_concludes(concludes: Sequence[Concluded], spec: StepwiseSpec, vocab: Vocabulary) -> None:
    """Each names one of the spec's conclusions and derived facts of ``vocab``; a ValueError says which does not."""
    names = [c.text for c in spec.conclusions]
    facts = {f.name: f for f in vocab.facts}
    for c in concludes:
        if c.conclusion not in names:
            raise ValueError(f"concludes {c.conclusion!r}: the spec's conclusions are {names}")
        if not c.facts:
            raise ValueError(f"concludes {c.conclusion!r}: no fact states it")
        for f in c.facts:
            if f not in facts:
                raise ValueError(f"concludes {c.conclusion!r}: no fact {f!r} in vocabulary {vocab.name!r}")
            if facts[f].kind != "derived":
                raise ValueError(f"concludes {c.conclusion!r}: fact {f!r} is a {facts[f].kind} fact; a conclusion is "
                                 "stated by derived (proved) facts")


def concluded(concludes: Sequence[Concluded], obligations: Sequence[Obligation]) -> list[dict[str, Any]]:
    """Per conclusion: its facts, their obligations (counted), and whether it is proved.

    It is when its facts have obligations, and every fact obligation is proved (a fact's proof rests on the facts
    before it).
    """
    facts_proved = all(o.ok for o in obligations if o.phase == "fact")
    out = []
    for c in concludes:
        mine = [o for o in obligations if o.phase == "fact" and o.where in c.facts]
        stated = {o.where for o in mine}
        out.append({"conclusion": c.conclusion, "facts": list(c.facts), "reads": c.reads,
                    "obligations": len(mine), "proved": facts_proved and stated == set(c.facts)})
    return out


def trusted_items(concludes: Sequence[Concluded]) -> list[str]:
    """The readings, as items of the row's trusted base."""
    return [f"the conclusion \"{c.conclusion}\" is read from the facts {', '.join(c.facts)} and the realization: "
            f"{c.reads}; the conclusion itself is checked on every input of the claim's exact rows"
            for c in concludes]
