"""Exact attention margins, ties and magnitudes of a decoder run, gathered by a replay recorder.

For every head event (one head at one position of one input; the prompt positions count, since their
outputs are later layers' keys and values) with scores ``a_0 … a_{L-1}`` and outputs ``v_i``: the
head's contribution to ``α''`` when it selects position ``i`` (its block of ``W_O`` applied to
``V z_i``; the value ``V z_i`` itself when ``W_O`` has degree-2 terms that mix heads):

- the hard choice ``j0`` is the smallest index among the maxima (rule 1 of ``sec:trans``);
- a *strict* event has one maximum; its margin is ``γ_e = a_{j0} - max_{i≠j0} a_i``;
- a *tie* has several maxima; it is *benign* when every tied position contributes the same as ``j0``
  (softmax averages equal vectors) and *deciding* otherwise (only the smallest-index rule makes
  the choice; softmax, which treats tied positions alike, cannot). For a tie, the *group gap* is the
  maximum minus the best score outside the tied group;
- ``Δ_e`` is the largest ``‖v_i - v_{j0}‖_∞`` over the positions softmax must suppress (every ``i ≠ j0``
  for a strict event, every position outside the group for a benign tie);
- the inverse temperature that keeps this softmax output within ``ε`` of ``v_{j0}`` is
  ``β_e = ln((L - k)·Δ_e/ε) / g_e`` (``k`` the group size, ``g_e`` the margin or the group gap; 0 when
  nothing needs suppressing); :attr:`HeadStats.beta` is the largest over the events that are not
  deciding ties (no finite β serves those), see docs/precision.md;
- the *first-order softmax error* at ``β`` is ``‖Σ_i w_i v_i - v_{j0}‖_∞`` with ``w = softmax(β a)``
  computed from the exact scores and values (float64): the error one head makes when everything before
  it is exact.

Only computations whose result can reach a generated token count: in the last layer, a prompt position
other than ``y_0`` computes a query, scores, ``α''`` and an FFN output that nothing reads (its keys and
values are read, by later positions), so those are left out; every other layer's work at every position
feeds the next layer's keys and values and counts.

Magnitudes ``M`` are the largest ``|value|`` per category (tokens, queries, keys, values, scores,
``α''``, ``α'' + z``, the ``W_1`` output before the ReLU, the hidden layer, layer outputs, weights) and
``sums``, the largest ``Σ|c|·|monomial|`` of any map output or ``Σ|k_i q_i|`` of any score: a bound on
every partial sum and product formed, in any order. Each extreme keeps an input that attains it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

#: Magnitude categories, in report order.
CATEGORIES = ("weights", "tokens", "queries", "keys", "values", "scores", "attention", "ffn_in", "pre_relu",
              "hidden", "outputs")
#: Every integer of magnitude at most this is computed exactly in float64, with room for the bound itself.
CERTIFY_LIMIT = 2**52


def exact_number(x: Any) -> int | Fraction:
    """A value read from an array as an exact Python number (float64 arrays hold certified integers)."""
    if isinstance(x, (int, Fraction)):
        return x.numerator if isinstance(x, Fraction) and x.denominator == 1 else x
    if isinstance(x, (np.integer,)):
        return int(x)
    f = float(x)
    if f.is_integer():
        return int(f)
    return Fraction(f)


@dataclass
class Witness:
    """Where an extreme is attained: the input, the position (its label) and the place in the decoder."""

    input: Any
    position: int
    label: str
    layer: int | None
    where: str

    def as_dict(self, describe: Any) -> dict[str, Any]:
        """JSON-friendly, the input described by its family."""
        return {"input": describe(self.input), "position": self.label, "layer": self.layer, "where": self.where}


@dataclass
class Extreme:
    """A running maximum (or minimum) with the first witness that attained it."""

    largest: bool = True
    value: Any = None
    witness: Witness | None = None

    def better(self, v: Any) -> bool:
        """Whether ``v`` would replace the current extreme."""
        return self.value is None or (v > self.value if self.largest else v < self.value)

    def offer(self, v: Any, witness: Witness) -> None:
        """Keep ``v`` if it is more extreme."""
        if self.better(v):
            self.value, self.witness = v, witness

    def merge(self, other: Extreme) -> None:
        """Fold another extreme of the same kind into this one."""
        if other.value is not None:
            self.offer(other.value, other.witness)  # type: ignore[arg-type]


@dataclass
class HeadStats:
    """Margins and ties of one head (``layer``, ``head``) over every event of a group of inputs."""

    layer: int
    head: str
    events: int = 0
    strict: int = 0
    ties: int = 0
    deciding: int = 0
    gamma: Extreme = field(default_factory=lambda: Extreme(largest=False))
    group_gap: Extreme = field(default_factory=lambda: Extreme(largest=False))
    delta: Extreme = field(default_factory=Extreme)
    beta: Extreme = field(default_factory=Extreme)
    winners: Counter[str] = field(default_factory=Counter)
    deciding_example: Witness | None = None
    error_at: dict[float, Extreme] = field(default_factory=dict)

    def merge(self, o: HeadStats) -> None:
        """Fold in the statistics of the same head over other inputs."""
        self.events += o.events
        self.strict += o.strict
        self.ties += o.ties
        self.deciding += o.deciding
        for mine, theirs in ((self.gamma, o.gamma), (self.group_gap, o.group_gap), (self.delta, o.delta),
                             (self.beta, o.beta)):
            mine.merge(theirs)
        self.winners.update(o.winners)
        if self.deciding_example is None:
            self.deciding_example = o.deciding_example
        for b, e in o.error_at.items():
            self.error_at.setdefault(b, Extreme()).merge(e)


@dataclass
class RunStats:
    """What a group of inputs showed: per-head margins, magnitudes, partial-sum bound, context length."""

    heads: dict[tuple[int, str], HeadStats] = field(default_factory=dict)
    magnitudes: dict[str, Extreme] = field(default_factory=lambda: {c: Extreme() for c in CATEGORIES})
    sums: Extreme = field(default_factory=Extreme)
    context: int = 0
    denominator: int = 1
    inputs: int = 0

    def merge(self, o: RunStats) -> None:
        """Fold in another group's statistics."""
        for key, hs in o.heads.items():
            if key in self.heads:
                self.heads[key].merge(hs)
            else:
                self.heads[key] = hs
        for c, e in o.magnitudes.items():
            self.magnitudes.setdefault(c, Extreme()).merge(e)
        self.sums.merge(o.sums)
        self.context = max(self.context, o.context)
        self.denominator = math.lcm(self.denominator, o.denominator)
        self.inputs += o.inputs

    @property
    def stored(self) -> Any:
        """The largest magnitude of any stored value (every category)."""
        vals = [e.value for e in self.magnitudes.values() if e.value is not None]
        return max(vals) if vals else 0


def _label(labels: list[str], pos: int) -> str:
    return labels[pos] if pos < len(labels) else f"y_{pos - len(labels) + 1}"


def token_class(label: str) -> str:
    """``x_⊥``, ``x_i`` (an input token), ``y_0`` or ``y_t`` (a generated token)."""
    if label in ("x_⊥", "y_0"):
        return label
    head = label.split("_", 1)[0]
    return "y_t" if head == "y" else f"{head}_i"


def _as_float(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) if a.dtype == object else a.astype(np.float64, copy=False)


class MarginRecorder:
    """A :class:`~symcot.replay.floating.Recorder` that gathers :class:`RunStats` for one batch.

    Args:
        inputs: the batch's inputs (row order).
        labels: the prompt's position labels (``x_⊥``, ``x_0``, …, ``y_0``); later positions are ``y_t``.
        coordinate: ``coordinate(layer, label, index)`` names an output coordinate of a map, for witnesses.
        eps: the ``ε`` of ``β_e``.
        betas: inverse temperatures at which the first-order softmax error is measured.
        margins: gather margins, ties and ``Δ`` (each event costs ``O(L·d)``); ``False`` keeps magnitudes,
            partial sums and the context length only (for very long runs).
        layers: the decoder's number of layers (its last layer's work at prompt positions before ``y_0`` is
            unused, module docstring); 0 counts everything.
        contributions: ``{(layer, head): f}`` with ``f(values)`` the head's contribution to ``α''`` for
            ``(L, B, d_value)`` values (module docstring); a head without one is judged on its values.

    """

    sums = True

    def __init__(self, inputs: list[Any], labels: list[str], coordinate: Any, eps: float,
                 betas: tuple[float, ...] = (), margins: bool = True, layers: int = 0,
                 contributions: dict[tuple[int, str], Any] | None = None):
        self.inputs, self.labels, self.coordinate = inputs, labels, coordinate
        self.contributions = contributions or {}
        self.eps, self.betas, self.margins = eps, tuple(betas), margins
        self.last_layer = layers
        self.first_used = len(labels) - 1
        self.stats = RunStats(inputs=len(inputs))

    # -- internals -------------------------------------------------------------------------------
    def _witness(self, row: int, pos: int, layer: int | None, where: str) -> Witness:
        return Witness(self.inputs[row], pos, _label(self.labels, pos), layer, where)

    def _largest(self, ext: Extreme, arr: np.ndarray, pos: int, layer: int | None, where: str,
                 absolute: bool = True, scores: bool = False) -> None:
        """Offer the largest entry of ``arr`` (``(B, k)``), naming its row and coordinate (or scored position)."""
        if arr.size == 0:
            return
        a = np.abs(arr) if absolute else arr
        flat = int(np.argmax(a))
        row, col = divmod(flat, a.shape[1])
        v = exact_number(a[row, col])
        if ext.better(v):
            what = f"{where}, score of {_label(self.labels, col)}" if scores else self.coordinate(layer, where, col)
            ext.offer(v, self._witness(row, pos, layer, what))

    def _unused(self, pos: int, layer: int) -> bool:
        return layer == self.last_layer and pos < self.first_used

    # -- Recorder -------------------------------------------------------------------------------
    def token(self, pos: int, z: np.ndarray) -> None:
        self.stats.context = max(self.stats.context, pos + 1)
        self._largest(self.stats.magnitudes["tokens"], z, pos, None, "token")

    def map(self, pos: int, layer: int, label: str, out: np.ndarray, sums: np.ndarray | None) -> None:
        if self._unused(pos, layer) and label[:2] not in ("K_", "V_"):
            return
        cat = {"Q": "queries", "K": "keys", "V": "values"}.get(label[0], None) if label[1:2] == "_" else None
        if cat is None:
            cat = {"W_O": "attention", "W_1": "pre_relu", "W_2": "outputs"}[label]
        self._largest(self.stats.magnitudes[cat], out, pos, layer, label)
        if sums is not None:
            self._largest(self.stats.sums, sums, pos, layer, label, absolute=False)

    def layer(self, pos: int, layer: int, ffn_in: np.ndarray, hidden: np.ndarray, out: np.ndarray) -> None:
        if self._unused(pos, layer):
            return
        self._largest(self.stats.magnitudes["ffn_in"], ffn_in, pos, layer, "ffn_in")
        self._largest(self.stats.magnitudes["hidden"], hidden, pos, layer, "hidden")

    def head(self, pos: int, layer: int, name: str, scores: np.ndarray, score_sums: np.ndarray | None,
             chosen: np.ndarray, values: np.ndarray) -> None:
        hs = self.stats.heads.setdefault((layer, name), HeadStats(layer, name))
        if self._unused(pos, layer):
            return
        where = f"head {name}"
        self._largest(self.stats.magnitudes["scores"], scores, pos, layer, where, scores=True)
        if score_sums is not None:
            self._largest(self.stats.sums, score_sums, pos, layer, where, absolute=False, scores=True)
        hs.events += scores.shape[0]
        if not self.margins:
            return
        project = self.contributions.get((layer, name))
        ev = _Event(scores, chosen, project(values) if project is not None else values)
        self._ties(hs, ev, pos, layer)
        if ev.length > 1:
            self._margins(hs, ev, pos, layer, where)
        if self.betas:
            self._first_order(hs, ev, pos, layer, where)

    def _ties(self, hs: HeadStats, ev: _Event, pos: int, layer: int) -> None:
        hs.strict += int(ev.strict.sum())
        hs.ties += int((~ev.strict).sum())
        hs.deciding += int(ev.deciding.sum())
        for ri in np.flatnonzero(ev.deciding):
            won = _label(self.labels, int(ev.chosen[ri]))
            hs.winners[token_class(won)] += 1
            if hs.deciding_example is None:
                hs.deciding_example = self._witness(int(ri), pos, layer, f"head {hs.head} picks {won} among "
                                                    f"{int(ev.nmax[ri])} tied positions with different values")

    def _offer_rows(self, ext: Extreme, values: np.ndarray, mask: np.ndarray, pos: int, layer: int, where: str) -> None:
        """Offer the extreme of ``values`` over the rows in ``mask`` (its smallest or largest, as ``ext`` keeps)."""
        if not mask.any():
            return
        idx = np.flatnonzero(mask)
        row = int(idx[np.argmax(values[idx]) if ext.largest else np.argmin(values[idx])])
        value = exact_number(values[row])
        if ext.better(value):
            ext.offer(value, self._witness(row, pos, layer, where))

    def _margins(self, hs: HeadStats, ev: _Event, pos: int, layer: int, where: str) -> None:
        """γ, the group gap, Δ and β over the positions softmax must suppress (module docstring)."""
        # the positions to suppress: every other one (strict) or those outside the tied group
        others = ~ev.ismax
        others[ev.rows, ev.chosen] = False
        has_others = others.any(axis=1)
        outside_best = np.where(others, ev.scores, float("-inf")).max(axis=1)
        gap = ev.best - np.where(has_others, outside_best, ev.best)  # margin (strict) or group gap (tie)
        delta = np.where(others, ev.vdiff, 0 * ev.vdiff).max(axis=1)
        self._offer_rows(hs.gamma, gap, ev.strict & has_others, pos, layer, where)
        self._offer_rows(hs.group_gap, gap, ~ev.strict & has_others, pos, layer, where)
        self._offer_rows(hs.delta, delta, has_others, pos, layer, where)
        sup = has_others & ~ev.deciding
        if not sup.any():
            return
        count = (ev.length - ev.nmax).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            d, g = _as_float(delta), _as_float(gap)
            need = np.log(np.where(sup & (d > 0), count * d / self.eps, 1.0))
            beta = np.where(sup & (need > 0), need / np.where(g > 0, g, 1.0), 0.0)
        top = int(np.argmax(beta))
        if beta[top] > 0 and hs.beta.better(float(beta[top])):
            hs.beta.offer(float(beta[top]), self._witness(top, pos, layer, where))

    def _first_order(self, hs: HeadStats, ev: _Event, pos: int, layer: int, where: str) -> None:
        """The first-order softmax error at every β of :attr:`betas` (module docstring)."""
        s = _as_float(ev.scores)
        fv = _as_float(ev.values)
        diff = fv - fv[ev.chosen, ev.rows][None, :, :]  # (L, B, dv)
        for bt in self.betas:
            w = np.exp(bt * (s - s.max(axis=1, keepdims=True)))
            w /= w.sum(axis=1, keepdims=True)
            err = np.abs(np.einsum("bl,lbd->bd", w, diff)).max(axis=1) if diff.shape[2] else np.zeros(len(ev.rows))
            worst = int(np.argmax(err))
            ext = hs.error_at.setdefault(bt, Extreme())
            if ext.better(float(err[worst])):
                ext.offer(float(err[worst]), self._witness(worst, pos, layer, where))


class _Event:
    """The head events of one position over a batch: scores ``(B, L)``, choices, values ``(L, B, dv)``."""

    def __init__(self, scores: np.ndarray, chosen: np.ndarray, values: np.ndarray):
        self.scores, self.chosen, self.values = scores, chosen, values
        b, self.length = scores.shape
        self.rows = np.arange(b)
        self.best = scores[self.rows, chosen]
        self.ismax = scores == self.best[:, None]
        self.nmax = self.ismax.sum(axis=1)
        self.strict = self.nmax == 1
        if values.shape[2]:
            self.vdiff = np.abs(values - values[chosen, self.rows][None, :, :]).max(axis=2).T  # (B, L)
        else:
            self.vdiff = np.zeros((b, self.length), dtype=values.dtype)
        self.deciding = ~self.strict & (self.ismax & (self.vdiff > 0)).any(axis=1)
