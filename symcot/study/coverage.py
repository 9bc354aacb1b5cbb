"""Coverage of activation regions during exhaustive checking: which ReLU regions, gadget cases and head decisions occur.

A size is large enough, as evidence, when checking it exercises every way the construction's piecewise-linear
pieces can be entered. While the claim's exhaustive families are replayed exactly (the Section-3 rules of
:mod:`symcot.model.semantics`, every layer recorded), this module records

* per ReLU unit (a hidden block of one layer's ``W_1``; a block of size ``n`` counts as one unit whose
  coordinates are pooled, so that units compare across sizes) the regions its pre-activation visits:
  ``neg`` (< 0), ``zero`` (= 0) or ``pos`` (> 0);
* per gadget of a layer (``FFN.gadgets``: the indicator identities, the ReLU lemmas' networks) which of its
  cases occurs: the regions of all its units at one coordinate, together (``1[v > 0] = ReLU(v) - ReLU(v - 1)``
  has the cases ``(neg, neg)``, ``(zero, neg)``, ``(pos, zero)``, ``(pos, pos)`` on integers);
* per head whether the choice was a strict maximum or a tie broken by the smallest index, and which class
  of token won (``x_⊥``, an input token ``x``, a generated token ``y``).

Per size, the first size at which each region appears; the *saturation size* is the last size at which a new
region appeared, up to the largest size checked.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from symcot.check.exhaustive import Family, Progress
from symcot.check.spec import StepwiseSpec
from symcot.constructions.base import Construction
from symcot.model.decoder import ConcreteDecoder, Decoder
from symcot.model.semantics import LayerRecord, generate

#: A region: (kind, layer, unit or head, region); kind is ``relu``, ``gadget`` or ``head``.
Region = tuple[str, int, str, str]


def sign(v: Any) -> str:
    """``neg``, ``zero`` or ``pos``."""
    return "neg" if v < 0 else "zero" if v == 0 else "pos"


def token_class(label: str) -> str:
    """``x_⊥``, ``x`` or ``y`` (the class of a prompt or generated token by its label)."""
    return label if label == "x_⊥" else label.split("_")[0]


@dataclass
class _Plan:
    """Per layer: hidden blocks ``(name, slice)`` and gadgets ``(name, [unit slices])``."""

    units: list[list[tuple[str, slice]]]
    gadgets: list[list[tuple[str, list[slice]]]]


def _plan(dec: Decoder, cdec: ConcreteDecoder) -> _Plan:
    units, gadgets = [], []
    for layer, clayer in zip(dec.layers, cdec.layers):
        hid = clayer.ffn.w1.dst
        units.append([(name, hid.slice(name)) for name in hid.names])
        here = []
        for g in layer.ffn.gadgets:
            names = [name for name, _size in g.units()]
            if not names or any(name not in hid.names for name in names):
                continue
            here.append((f"{g.label}({', '.join(names)})", [hid.slice(name) for name in names]))
        gadgets.append(here)
    return _Plan(units, gadgets)


@dataclass
class Coverage:
    """Regions seen, each with the first size it appeared at; ``sizes``: inputs replayed per size."""

    first: dict[Region, int] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, region: Region, size: int) -> None:
        """Record ``region`` at ``size`` (keeps the smallest size)."""
        if region not in self.first or size < self.first[region]:
            self.first[region] = size

    def new_per_size(self) -> dict[int, int]:
        """How many regions appeared first at each size replayed."""
        out = {s: 0 for s in sorted(self.sizes)}
        for s in self.first.values():
            out[s] = out.get(s, 0) + 1
        return out

    @property
    def largest(self) -> int | None:
        """The largest size replayed."""
        return max(self.sizes) if self.sizes else None

    @property
    def saturation(self) -> int | None:
        """The last size at which a new region appeared (none appears after it, up to :attr:`largest`)."""
        return max(self.first.values()) if self.first else None

    def regions(self, kind: str | None = None) -> list[tuple[Region, int]]:
        """``(region, first size)`` sorted by kind, layer, unit and region."""
        return sorted(((r, s) for r, s in self.first.items() if kind is None or r[0] == kind))

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"sizes": {str(k): v for k, v in sorted(self.sizes.items())}, "largest": self.largest,
                "saturation": self.saturation, "new_per_size": {str(k): v for k, v in self.new_per_size().items()},
                "regions": [{"kind": k, "layer": lay, "unit": u, "region": r, "first_size": s}
                            for (k, lay, u, r), s in self.regions()],
                "seconds": round(self.seconds, 3)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Coverage:
        """Inverse of :meth:`as_dict`."""
        first = {(r["kind"], r["layer"], r["unit"], r["region"]): r["first_size"] for r in d["regions"]}
        return cls(first, {int(k): v for k, v in d["sizes"].items()}, d.get("seconds", 0.0))


def record_run(cov: Coverage, size: int, plan: _Plan, cdec: ConcreteDecoder, labels: list[str],
               pushes: Iterable[list[LayerRecord]]) -> None:
    """Add the regions of one run (every push's layer records) to ``cov``."""
    for recs in pushes:
        for k, rec in enumerate(recs):
            for h in rec.heads:
                cov.add(("head", k + 1, h.head, f"{'tie' if h.tie else 'max'}:{token_class(labels[h.index])}"), size)
            assert rec.ffn_in is not None
            pre = cdec.layers[k].ffn.w1(rec.ffn_in)
            for name, sl in plan.units[k]:
                for v in pre[sl]:
                    cov.add(("relu", k + 1, name, sign(v)), size)
            for name, slices in plan.gadgets[k]:
                width = min(s.stop - s.start for s in slices)
                for i in range(width):
                    cov.add(("gadget", k + 1, name, ",".join(sign(pre[s.start + i]) for s in slices)), size)


def coverage(cons: Construction, spec: StepwiseSpec, families: list[Family], max_size: int,
             progress: Progress | None = None, cov: Coverage | None = None, min_size: int = 1) -> Coverage:
    """Replay every input of the exhaustive ``families`` up to ``max_size`` exactly and record the regions.

    Each input runs the reference's number of steps (as the check does). ``cov`` continues an earlier record
    (sizes below ``min_size`` are then not replayed again).
    """
    progress = progress or Progress(False)
    cov = cov or Coverage()
    start = time.perf_counter()
    plans: dict[int, _Plan] = {}
    for size in range(min_size, max_size + 1):
        for fam in families:
            top = max_size if fam.max_size is None else min(max_size, fam.max_size)
            if not fam.exhaustive or not fam.min_size <= size <= top:
                continue
            with progress.bar(fam.count(size), f"coverage {cons.label} {fam.name} n={size}") as bar:
                for inp in fam.inputs(size):
                    steps = len(spec.reference(inp)) - 1
                    cdec = cons.concrete(inp)
                    plan = plans.get(id(cdec))
                    if plan is None:
                        plan = plans[id(cdec)] = _plan(cons.decoder, cdec)
                    prompt = cons.prompt(inp)
                    gen = generate(cdec, prompt.tokens, steps, record=True)
                    labels = list(prompt.labels) + [f"y_{t}" for t in range(1, steps + 1)]
                    record_run(cov, size, plan, cdec, labels, [*gen.prompt_records, *gen.records])
                    cov.sizes[size] = cov.sizes.get(size, 0) + 1
                    bar.update(1)
    cov.seconds += time.perf_counter() - start
    return cov
