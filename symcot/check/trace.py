"""Exact single-input replay with a readable trace.

Per step and layer: the named blocks of the new token, and per head the selected token, its score and
the margin to the runner-up (ties flagged).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.stepwise import StepwiseSpec, token_labels
from symcot.constructions.base import Construction
from symcot.ir.layout import ConcreteLayout
from symcot.model.interval import is_ball
from symcot.model.semantics import LayerRecord, generate


@dataclass
class StepTrace:
    """One CoT step: the layer records of the new token, the reference state and any mismatch."""

    t: int
    layers: list[LayerRecord]
    token: list[Any]
    reference: str | None = None
    mismatches: list[str] = field(default_factory=list)


@dataclass
class Trace:
    """A whole replay."""

    construction: str
    input_text: str
    layout: ConcreteLayout
    labels: list[str]
    prompt: list[list[Any]]
    steps: list[StepTrace]
    stopped: bool

    @property
    def ok(self) -> bool:
        """No step differs from the reference (when one was given)."""
        return all(not s.mismatches for s in self.steps)


def fmt_value(v: Any) -> str:
    """An exact scalar: ``3``, ``-1/2``, or the SymPy expression."""
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return str(v)


def fmt_block(vals: Sequence[Any]) -> str:
    """``0`` for a zero block, ``e3`` for a one-hot block, the scalar for size 1, else ``[a, b, …]``."""
    if len(vals) == 1:
        return fmt_value(vals[0])
    nz = [i for i, v in enumerate(vals) if is_ball(v) or v != 0]
    if not nz:
        return "0"
    if len(nz) == 1 and not is_ball(vals[nz[0]]) and vals[nz[0]] == 1:
        return f"e{nz[0]}"
    return "[" + ", ".join(fmt_value(v) for v in vals) + "]"


def replay(
    cons: Construction,
    inp: Any,
    spec: StepwiseSpec | None = None,
    max_steps: int | None = None,
    input_text: str | None = None,
) -> Trace:
    """Run one input exactly, recording everything; compare with ``spec``'s reference when given.

    With a reference, the run lasts as many steps as the reference has; otherwise until the construction's
    stop rule (if any) or ``max_steps`` (default ``4n + 4`` for the input's ``n``).
    """
    dec = cons.concrete(inp)
    prompt = cons.prompt(inp)
    layout = dec.layout
    states = spec.reference(inp) if spec is not None else None
    if states is not None:
        steps = len(states) - 1 if max_steps is None else min(max_steps, len(states) - 1)
    else:
        steps = max_steps if max_steps is not None else 4 * max(dec.env.values(), default=1) + 4
    stop = (lambda y: cons.terminal(layout, y)) if (cons.stop is not None and states is None) else None
    gen = generate(dec, prompt.tokens, steps, stop=stop, record=True)
    out: list[StepTrace] = []
    labels = token_labels(prompt, len(gen.outputs))
    for t, (y, recs) in enumerate(zip(gen.outputs, gen.records), 1):
        st = StepTrace(t, recs, y)
        if states is not None and spec is not None:
            st.reference = spec.state_text(states[t])
            invariants = [e for e in cons.invariants(inp, states, t)
                          if not (e.kind == "block" and spec.ignores(cons, e.name))]
            st.mismatches += _invariant_mismatches(invariants, recs, layout, labels)
            if cons.stop is not None:
                stops = cons.terminal(layout, y)
                last = len(states) - 1
                if stops and t < last:
                    st.mismatches.append(f"the stop rule fires at step {t}, before the reference ends")
                if t == last:
                    gen.stopped = stops
                    if not stops:
                        st.mismatches.append("the reference has ended but the stop rule does not fire")
            for name, want in spec.expected(cons, inp, states[t], t).items():
                got = layout.pi(name, y)
                if list(got) != list(want):
                    st.mismatches.append(f"{name}: expected {fmt_block(want)}, got {fmt_block(got)}")
        out.append(st)
    return Trace(cons.label, input_text or str(inp), layout, labels, prompt.tokens, out, gen.stopped)


def _invariant_mismatches(invariants: Sequence[Any], recs: list[LayerRecord], layout: ConcreteLayout,
                          labels: list[str]) -> list[str]:
    """Where the layers and heads of one step depart from what the proof says (``Construction.invariants``)."""
    out = []
    for exp in invariants:
        rec = recs[exp.layer - 1]
        if exp.kind == "head":
            ch = next((h for h in rec.heads if h.head == exp.name), None)
            if ch is not None and labels[ch.index] != exp.expected:
                out.append(f"layer {exp.layer} head {exp.name}: proof says {exp.expected}, selected {labels[ch.index]}")
        elif rec.out is not None and list(layout.pi(exp.name, rec.out)) != list(exp.expected):
            out.append(f"layer {exp.layer} {exp.name}: proof says {fmt_block(exp.expected)}, "
                       f"got {fmt_block(layout.pi(exp.name, rec.out))}")
    return out


def render_text(trace: Trace, changed_only: bool = True) -> str:
    """A readable rendering; ``changed_only`` prints only the blocks a layer changed."""
    lay = trace.layout
    lines = [f"{trace.construction} on {trace.input_text}",
             f"blocks: {', '.join(f'{b}:{lay.sizes[b]}' for b in lay.names)}  (d = {lay.dim})",
             "prompt: " + " ".join(trace.labels[: len(trace.prompt)])]
    y0 = trace.prompt[-1]
    lines.append("  y_0  " + _blocks(lay, y0, None, False))
    prev = y0
    for st in trace.steps:
        head = f"step {st.t}"
        if st.reference:
            head += f"   reference: {st.reference}"
        lines.append(head)
        z = prev
        for rec in st.layers:
            if not rec.heads:
                lines.append(f"  layer {rec.layer}: trivial attention")
            else:
                lines.append(f"  layer {rec.layer}:")
                lines += [f"    {_head(trace.labels, h)}" for h in rec.heads]
            assert rec.out is not None
            lines.append("    " + _blocks(lay, rec.out, z, changed_only))
            z = rec.out
        lines.append(f"  y_{st.t} " + _blocks(lay, st.token, None, False))
        if st.reference is not None:
            ok = "  ok: matches the reference"
            lines.append("  !! MISMATCH " + "; ".join(st.mismatches) if st.mismatches else ok)
        prev = st.token
    lines.append("stopped by the stop rule" if trace.stopped else f"ran {len(trace.steps)} steps")
    return "\n".join(lines)


def _head(labels: list[str], h: Any) -> str:
    kind = getattr(h, "kind", "unique")
    if kind != "unique" or h.index < 0:  # a described head: average hard, softmax, or nothing allowed by its mask
        weights = getattr(h, "weights", [])
        shown = ", ".join(f"{labels[j]}: {fmt_value(w)}" for j, w in weights[:6]) + (", …" if len(weights) > 6 else "")
        return f"head {h.head} ({kind}) -> {{{shown}}}" if weights else f"head {h.head} ({kind}) -> nothing (masked)"
    s = f"head {h.head} -> {labels[h.index]} (score {fmt_value(h.score)}"
    if h.margin is not None:
        s += f", margin {fmt_value(h.margin)}"
    s += ")"
    if h.tie:
        shown = ", ".join(labels[i] for i in h.tied[:4]) + (", …" if len(h.tied) > 4 else "")
        rule = "smallest index wins" if h.index == h.tied[0] else "largest index wins"
        s += f"  TIE among {len(h.tied)} tokens ({shown}): {rule}"
    return s


def _same(a: list[Any], b: list[Any]) -> bool:
    """Equal blocks (certified balls, which have no ``==``, by their printed intervals)."""
    try:
        return a == b
    except TypeError:
        return [str(x) for x in a] == [str(x) for x in b]


def _blocks(lay: ConcreteLayout, v: list[Any], before: list[Any] | None, changed_only: bool) -> str:
    parts = []
    for b in lay.names:
        cur = lay.pi(b, v)
        if changed_only and before is not None and _same(lay.pi(b, before), cur):
            continue
        parts.append(f"{b}={fmt_block(cur)}")
    return " ".join(parts) if parts else "(no block changed)"
