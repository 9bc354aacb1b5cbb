"""Does a construction behave like another? Every coordinate of every generated token, compared exactly.

A mutant that passes a claim's check is either *equivalent* (its chain of thought is the original's, token
for token, coordinate for coordinate), *scratch-only* (its tokens differ, but only in blocks or at steps the
check does not compare, so the claim still holds), or *behaviour-changing* (on some input the check fails).
:func:`token_diffs` runs both constructions on the same inputs for the same number of steps and lists
the inputs whose tokens differ (exact replay for a few inputs, the batched engine for many; both exact);
:func:`locate` replays one such input exactly with every layer recorded and names the first place the two
runs part: the step, the position's token, the layer, and the head or block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.constructions.base import Construction
from symcot.model.semantics import Context, LayerRecord, generate
from symcot.replay.batched import BatchedDecoder, StepView

#: Below this many inputs a group is replayed exactly, input by input (no kernel to compile).
BATCH_FROM = 64


@dataclass
class TokenDiff:
    """One input whose generated tokens differ.

    ``step``: the first step ``t`` whose ``y_t`` differs; ``blocks``: every block that differs at some step.
    """

    index: int
    step: int
    blocks: list[str]


def _blocks(layout: Any, a: Sequence[Any], b: Sequence[Any]) -> list[str]:
    return [name for name in layout.names if layout.pi(name, a) != layout.pi(name, b)]


def _exact_outputs(cons: Construction, inp: Any, steps: int) -> list[list[Any]]:
    return generate(cons.concrete(inp), cons.prompt(inp).tokens, steps).outputs


def _diff_rows(layout: Any, ya: list[list[Any]], yb: list[list[Any]]) -> tuple[int, list[str]] | None:
    first, blocks = None, set()
    for t, (a, b) in enumerate(zip(ya, yb), start=1):
        if a != b:
            first = t if first is None else first
            blocks.update(_blocks(layout, a, b))
    if len(ya) != len(yb):
        first = first or min(len(ya), len(yb)) + 1
    return None if first is None else (first, [n for n in layout.names if n in blocks])


def token_diffs(base: Construction, other: Construction, inputs: Sequence[Any], steps: Sequence[int],
                batch_from: int = BATCH_FROM) -> list[TokenDiff]:
    """The inputs on which ``other``'s tokens ``y_1 … y_steps`` differ from ``base``'s, in input order."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i, inp in enumerate(inputs):
        groups.setdefault((id(base.concrete(inp)), len(base.token_keys(inp))), []).append(i)
    out: list[TokenDiff] = []
    for rows in groups.values():
        if len(rows) < batch_from:
            for i in rows:
                layout = base.concrete(inputs[i]).layout
                d = _diff_rows(layout, _exact_outputs(base, inputs[i], steps[i]),
                               _exact_outputs(other, inputs[i], steps[i]))
                if d is not None:
                    out.append(TokenDiff(i, *d))
        else:
            out += _batched_diffs(base, other, [inputs[i] for i in rows], [steps[i] for i in rows], rows)
    return sorted(out, key=lambda d: d.index)


def _run_steps(cons: Construction, inputs: Sequence[Any], steps: Sequence[int]) -> list[tuple[np.ndarray, np.ndarray,
                                                                                                int]]:
    """Every step's ``(rows, y (d, rows) scaled, scale)`` of one batched run."""
    kept: list[tuple[np.ndarray, np.ndarray, int]] = []

    def on_step(view: StepView) -> None:
        kept.append((np.asarray(view.rows).copy(), np.array(view.y, copy=True), int(view.scale)))

    BatchedDecoder(cons.concrete(inputs[0])).run([cons.prompt(i).tokens for i in inputs],
                                                 [int(s) for s in steps], on_step=on_step)
    return kept


def _batched_diffs(base: Construction, other: Construction, inputs: list[Any], steps: list[int],
                   index: list[int]) -> list[TokenDiff]:
    layout = base.concrete(inputs[0]).layout
    a, b = _run_steps(base, inputs, steps), _run_steps(other, inputs, steps)
    names = list(layout.names)
    spans = [layout.slice(name) for name in names]
    first = np.zeros(len(inputs), dtype=np.int64)  # per row: the first step that differs (0: none)
    blocks = np.zeros((len(inputs), len(names)), dtype=bool)  # per row and block: differs at some step
    for t, ((ra, ya, sa), (rb, yb, sb)) in enumerate(zip(a, b), start=1):
        if not np.array_equal(ra, rb):  # every row runs its own step count in both: the rows agree
            raise AssertionError("batched runs of one group disagree on their rows")
        if sa == sb:
            diff = np.asarray(ya != yb, dtype=bool)
        else:  # compare y_a / s_a with y_b / s_b exactly
            diff = np.asarray(ya.astype(object) * sb != yb.astype(object) * sa, dtype=bool)
        cols = np.flatnonzero(diff.any(axis=0))
        if not len(cols):
            continue
        rows = np.asarray(ra)[cols]  # distinct rows
        first[rows] = np.where(first[rows] == 0, t, first[rows])
        blocks[rows] |= np.stack([diff[sl][:, cols].any(axis=0) for sl in spans], axis=1)
    return [TokenDiff(index[r], int(first[r]), [n for n, hit in zip(names, blocks[r]) if hit])
            for r in np.flatnonzero(first).tolist()]


@dataclass
class Departure:
    """The first place two runs on one input part.

    ``step``: the CoT step whose token is being produced (0 while reading the prompt before ``y_0``);
    ``token``: the position read; then the ``layer`` and the head or block, with both runs' values.
    """

    step: int
    token: str
    layer: int
    kind: str  # "head" or "block"
    name: str
    base: Any
    other: Any

    def text(self) -> str:
        """``step 3 (reading y_2), layer 2, block par: [0, 1] → [1, 0]``."""
        where = f"step {self.step} (reading {self.token})" if self.step else f"prompt token {self.token}"
        return f"{where}, layer {self.layer}, {self.kind} {self.name}: {self.base} → {self.other}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"step": self.step, "token": self.token, "layer": self.layer, "kind": self.kind, "name": self.name,
                "base": self.base, "other": self.other}


def _first(layout: Any, labels: list[str], pos: int, step: int, ra: list[LayerRecord],
           rb: list[LayerRecord]) -> Departure | None:
    for la, lb in zip(ra, rb):
        for ha, hb in zip(la.heads, lb.heads):
            if ha.index != hb.index:
                return Departure(step, labels[pos], la.layer, "head", ha.head, labels[ha.index], labels[hb.index])
        assert la.out is not None and lb.out is not None
        if la.out != lb.out:
            name = _blocks(layout, la.out, lb.out)[0]
            return Departure(step, labels[pos], la.layer, "block", name, layout.pi(name, la.out),
                             layout.pi(name, lb.out))
    return None


def locate(base: Construction, other: Construction, inp: Any, steps: int) -> Departure | None:
    """Replay ``inp`` on both exactly, every layer recorded, and return where they first part (``None``: nowhere)."""
    da, db = base.concrete(inp), other.concrete(inp)
    prompt = base.prompt(inp)
    labels = list(prompt.labels) + [f"y_{k}" for k in range(1, steps + 1)]
    ca, cb = Context(da, record=True), Context(db, record=True)
    last = len(prompt.tokens) - 1
    ya: list[Any] = []
    yb: list[Any] = []
    for pos, (tok_a, tok_b) in enumerate(zip(prompt.tokens, other.prompt(inp).tokens)):
        ya, ra = ca.push(tok_a)
        yb, rb = cb.push(tok_b)
        found = _first(da.layout, labels, pos, 1 if pos == last else 0, ra, rb)
        if found is not None:
            return found
    for t in range(2, steps + 1):
        pos = last + t - 1
        ya, ra = ca.push(ya)
        yb, rb = cb.push(yb)
        found = _first(da.layout, labels, pos, t, ra, rb)
        if found is not None:
            return found
    return None
