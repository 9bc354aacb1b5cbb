"""Step-by-step comparison of a construction's CoT with a reference algorithm, on one input.

Every generated token ``y_t`` is compared, block by block and exactly, with the encoding of the
reference state after ``t`` steps, and the stop rule must fire at the reference's last step and not
before. When they differ, the step is replayed with intermediate vectors recorded and the proof's own
invariants (:meth:`Construction.invariants`) locate the first layer, head or block that departs from
the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.spec import StepwiseSpec
from symcot.constructions.base import Construction, Expectation, Prompt
from symcot.errors import Undecided
from symcot.ir.layout import ConcreteLayout
from symcot.model.interval import is_ball, is_exact
from symcot.model.semantics import LayerRecord, generate

__all__ = ["Mismatch", "StepwiseSpec", "check_input", "compare_blocks", "diagnose", "final_mismatch",
           "step_mismatch", "token_labels"]


@dataclass
class Mismatch:
    """Where a construction departs from the reference (the core of a counterexample)."""

    step: int
    layer: int | None
    kind: str  # "block" | "head" | "termination" | "steps" (a conclusion of StepwiseSpec.conclusions)
    name: str
    expected: Any
    got: Any
    explanation: str
    proof_says: str = ""
    reference_state: str = ""
    also: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "step": self.step, "layer": self.layer, "kind": self.kind, "block" if self.kind == "block" else
            "head" if self.kind == "head" else "what": self.name, "expected": self.expected, "got": self.got,
            "explanation": self.explanation, "proof_says": self.proof_says,
            "reference_state": self.reference_state, "other_differences": self.also,
        }


def token_labels(prompt: Prompt, generated: int) -> list[str]:
    """Labels of every position: the prompt's, then ``y_1 … y_generated``."""
    return list(prompt.labels) + [f"y_{k}" for k in range(1, generated + 1)]


def compare_blocks(layout: ConcreteLayout, y: list[Any], want: dict[str, list[Any]]) -> list[tuple[str, Any, Any]]:
    """The blocks of ``y`` that differ from ``want``: ``(name, expected, got)``."""
    bad = []
    for name, vals in want.items():
        got = layout.pi(name, y)
        try:
            differs = list(got) != list(vals)
        except TypeError:  # a certified ball has no == of its own
            differs = _ball_block_differs(name, got, list(vals))
        if differs:
            bad.append((name, list(vals), got))
    return bad


def _ball_block_differs(name: str, got: list[Any], want: list[Any]) -> bool:
    """Whether a block holding certified balls differs from ``want``; raises ``Undecided`` when it cannot tell.

    A ball differs from a reference value it does not contain; one that contains it (with a positive radius)
    is undecided (:mod:`symcot.model.interval`).
    """
    if len(got) != len(want):
        return True
    for g, w in zip(got, want):
        if not is_ball(g):
            if g != w:
                return True
        elif not g.contains(w):
            return True
    for g, w in zip(got, want):
        if is_ball(g) and not is_exact(g):
            raise Undecided(f"block {name} against the reference {w}", str(g))
    return False


def step_mismatch(cons: Construction, spec: StepwiseSpec, inp: Any, states: Sequence[Any], t: int, y: list[Any],
                  layout: ConcreteLayout, layers: int) -> Mismatch | None:
    """Compare ``y_t`` with ``enc(states[t])`` and the stop rule; ``None`` when they agree.

    This is the per-step comparison of :func:`check_input` (every engine that produces tokens, the float
    replay included, reads it from here): the blocks of the construction's encoding first, then its stop
    rule, which must fire at the reference's last step ``len(states) - 1`` and not before.
    """
    total = len(states) - 1
    bad = compare_blocks(layout, y, spec.expected(cons, inp, states[t], t))
    if bad:
        name, want, got = bad[0]
        return Mismatch(t, layers, "block", name, want, got,
                        f"π_{name}(y_{t}) differs from the reference state after step {t}",
                        reference_state=spec.state_text(states[t]), also=[b[0] for b in bad[1:]])
    if cons.stop is not None:
        stops = cons.terminal(layout, y)
        if stops and t < total:
            return Mismatch(t, layers, "termination", "stop rule", f"continue to step {total}",
                            f"stops at step {t}", "the stop rule fires before the reference ends",
                            reference_state=spec.state_text(states[t]))
        if not stops and t == total:
            return Mismatch(t, layers, "termination", "stop rule", f"stop at step {total}",
                            "does not stop", "the reference has ended but the stop rule does not fire",
                            reference_state=spec.state_text(states[t]))
    return None


def final_mismatch(spec: StepwiseSpec, inp: Any, outputs: Sequence[list[Any]], y0: Sequence[Any],
                   layout: ConcreteLayout) -> Mismatch | None:
    """The theorem's conclusions (``spec.conclusions``) on the generated tokens; ``None`` when they hold."""
    if not spec.conclusions:
        return None
    msg = spec.final_failure(inp, outputs, y0, layout)
    if msg:
        return Mismatch(len(outputs), None, "steps", "step count", "as stated", msg, msg)
    return None


def check_input(cons: Construction, spec: StepwiseSpec, inp: Any) -> Mismatch | None:
    """Replay ``inp`` exactly and compare every step; ``None`` when all steps agree."""
    spec.check_selection(cons)
    states = spec.reference(inp)
    total = len(states) - 1
    dec = cons.concrete(inp)
    prompt = cons.prompt(inp)
    layout = dec.layout
    found: list[Mismatch] = []

    y0_bad = compare_blocks(layout, prompt.tokens[-1], spec.expected(cons, inp, states[0], 0))
    if y0_bad:
        name, want, got = y0_bad[0]
        return Mismatch(0, None, "block", name, want, got, "y_0 does not encode the initial state",
                        reference_state=spec.state_text(states[0]))

    def on_step(t: int, y: list[Any], _recs: list[LayerRecord]) -> bool:
        mm = step_mismatch(cons, spec, inp, states, t, y, layout, len(dec.layers))
        if mm is not None:
            found.append(mm)
            return False
        return True

    gen = generate(dec, prompt.tokens, total, on_step=on_step)
    if not found:
        return final_mismatch(spec, inp, gen.outputs, prompt.tokens[-1], layout)
    return diagnose(cons, inp, states, found[0], spec)


def diagnose(cons: Construction, inp: Any, states: Sequence[Any], mm: Mismatch,
             spec: StepwiseSpec | None = None) -> Mismatch:
    """Replay up to the failing step with records and report the first violated proof invariant.

    An invariant on a block of the encoding that ``spec`` leaves out of its comparison is skipped (a claim
    about the width blocks is not refuted by the distance block).
    """
    t = mm.step
    if t < 1:
        return mm
    dec = cons.concrete(inp)
    prompt = cons.prompt(inp)
    gen = generate(dec, prompt.tokens, t, record=True)
    recs = gen.records[t - 1]
    labels = token_labels(prompt, t)
    layout = dec.layout

    def order(e: Expectation) -> tuple[int, int]:
        return (e.layer, 0 if e.kind == "head" else 1)

    for exp in sorted(cons.invariants(inp, states, t), key=order):
        if exp.kind == "block" and spec is not None and spec.ignores(cons, exp.name):
            continue
        rec = recs[exp.layer - 1]
        if exp.kind == "head":
            choice = next((h for h in rec.heads if h.head == exp.name), None)
            if choice is None:
                continue
            got = labels[choice.index]
            if got != exp.expected:
                return Mismatch(t, exp.layer, "head", exp.name, exp.expected, got,
                                f"head {exp.name} of layer {exp.layer} selects {got} "
                                f"(score {choice.score}, margin {choice.margin}) instead of {exp.expected}",
                                proof_says=exp.source, reference_state=mm.reference_state,
                                also=[f"final block {mm.name}"] + [f"final block {b}" for b in mm.also])
        else:
            assert rec.out is not None
            got_v = layout.pi(exp.name, rec.out)
            if list(got_v) != list(exp.expected):
                return Mismatch(t, exp.layer, "block", exp.name, exp.expected, got_v,
                                f"after layer {exp.layer}, π_{exp.name} differs from what the proof states",
                                proof_says=exp.source, reference_state=mm.reference_state,
                                also=[f"final block {mm.name}"] + [f"final block {b}" for b in mm.also])
    return mm
