r"""Departures from plain Section-3 matrices, and whether Fact 1, Fact 2 and lem:bilinearstack absorb them.

Section 3 (``sec:trans``) has linear maps only: ``Q, K, V, W_O, W_1, W_2`` are matrices. The constructions
write affine maps (a constant term, e.g. ``γ_t - 1``) and degree-2 maps (a Hadamard product in a query). The
paper licenses them in its Appendix "Main Results": Fact 1 (``Wv + c = [W ‖ I][v; c]``: a constant becomes a
column applied to a coordinate holding 1), Fact 2 (a linear map is a bilinear map ``B(v, c) = Wv·c`` with a
scalar second argument) and lem:bilinearstack (stacked bilinear maps are bilinear). Neither Fact says which
coordinate of the token holds that 1; this module finds one and replays the decoder without the departures.

For a construction, on small inputs:

1. :func:`map_terms` lists, per layer and map, its constant terms (by output block, with their values) and
   its degree-2 monomials (by blocks);
2. :func:`one_coordinates` replays the inputs exactly and records, for every map, which coordinates of the
   vectors it is applied to equal 1 at every ``y`` position (``y_0`` and the generated tokens) and at every
   ``x`` position (the input tokens): the maps are applied at every position, input tokens included;
3. :class:`Homogenised` rewrites each departing map through one such coordinate ``u``: at the level
   ``constants`` a constant ``c`` becomes ``c·x_u`` (Fact 1), and at the level ``bilinear`` a degree-2 map
   becomes a homogeneous bilinear form too (``c ↦ c·x_u·x_u``, ``a·x_i ↦ a·x_i·x_u``; Fact 2 and
   lem:bilinearstack);
4. :class:`DeparturesCheck` replays the rewritten decoder beside the original on every input of the claim's
   families: verified when it generates the same tokens (the departures are absorbed through the coordinates
   named per map, in ``details``), refuted when a map has no coordinate that is 1 on every ``y`` token, or at
   the first step where the two decoders differ (the layer and the block or head where they part). A
   coordinate that is 1 on the ``y`` tokens only gives the input tokens 0 instead of the constant; the replay
   says whether that matters.

The check compares the decoder with itself, not with the reference: it holds or fails whether or not the
construction is right.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family, run_property_check, size_schedule
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import token_labels
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.constructions.derived import Derived
from symcot.ir.layout import ConcreteLayout
from symcot.ir.maps import ConcreteMap
from symcot.model.decoder import ConcreteDecoder
from symcot.model.semantics import Context, generate

MapKey = tuple[int, str]  # (1-based layer, label: Q_T, K_T, V_T, W_O, W_1, W_2)
Coord = tuple[str, int]  # (block, index in the block): stable across sizes


def map_labels(dec: ConcreteDecoder, k: int) -> list[str]:
    """The labels of layer ``k``'s maps, in the order the layer applies them."""
    layer = dec.layers[k - 1]
    heads = layer.attention.heads if layer.attention is not None else []
    return [lbl for h in heads for lbl in (f"Q_{h.name}", f"K_{h.name}", f"V_{h.name}")] + (
        ["W_O"] if layer.attention is not None else []) + ["W_1", "W_2"]


def coord_of(layout: ConcreteLayout, index: int) -> Coord:
    """``(block, index within the block)`` of a coordinate."""
    for name in layout.names:
        sl = layout.slice(name)
        if sl.start <= index < sl.stop:
            return name, index - sl.start
    raise IndexError(f"coordinate {index} outside a layout of dimension {layout.dim}")


def index_of(layout: ConcreteLayout, c: Coord) -> int:
    """The coordinate ``c`` in ``layout`` (``IndexError`` if the block is smaller at these sizes)."""
    block, i = c
    sl = layout.slice(block)
    if not 0 <= i < sl.stop - sl.start:
        raise IndexError(f"{block}[{i}] outside a block of size {sl.stop - sl.start}")
    return sl.start + i


def coord_text(c: Coord, layout: ConcreteLayout | None = None) -> str:
    """``flg3`` for a block of size 1, ``pos[0]`` otherwise."""
    block, i = c
    if layout is not None and layout.sizes[block] == 1:
        return block
    return f"{block}[{i}]"


@dataclass
class MapTerms:
    """What one map adds to a plain matrix: constants by output block, degree-2 monomials by blocks."""

    layer: int
    label: str
    constants: dict[str, list[Any]] = field(default_factory=dict)
    quadratic: list[str] = field(default_factory=list)
    linear_terms: int = 0

    @property
    def departs(self) -> bool:
        """Whether the map is not a plain matrix."""
        return bool(self.constants or self.quadratic)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"layer": self.layer, "map": self.label,
                "constants": {b: sorted(set(v), key=str) for b, v in self.constants.items()},
                "degree_2": self.quadratic}


def map_terms(dec: ConcreteDecoder) -> list[MapTerms]:
    """Every map's departures (:class:`MapTerms`), layer by layer."""
    out = []
    for k in range(1, len(dec.layers) + 1):
        for label in map_labels(dec, k):
            mp = dec.get_map(k, label)
            t = MapTerms(k, label, linear_terms=len(mp.lin))
            for o, c in mp.const:
                t.constants.setdefault(coord_of(mp.dst, o)[0], []).append(c)
            seen: list[str] = []
            for o, i, j, _ in mp.quad:
                text = f"{coord_of(mp.dst, o)[0]} ← {coord_of(mp.src, i)[0]}·{coord_of(mp.src, j)[0]}"
                if text not in seen:
                    seen.append(text)
            t.quadratic = seen
            out.append(t)
    return out


@dataclass
class Ones:
    """Per map, the input coordinates equal to 1 at every ``y`` position and at every ``x`` position seen."""

    y: dict[MapKey, set[Coord]] = field(default_factory=dict)
    x: dict[MapKey, set[Coord]] = field(default_factory=dict)

    def see(self, key: MapKey, layout: ConcreteLayout, vec: Sequence[Any], on_y: bool) -> None:
        """Intersect with the coordinates of ``vec`` that are 1."""
        here = {coord_of(layout, i) for i, v in enumerate(vec) if v == 1}
        table = self.y if on_y else self.x
        table[key] = here if key not in table else table[key] & here


def one_coordinates(cons: Construction, spec: StepwiseSpec, inputs: Iterable[Any]) -> Ones:
    """Replay every input exactly (as many steps as the reference) and record :class:`Ones` for every map."""
    ones = Ones()
    for inp in inputs:
        dec = cons.concrete(inp)
        prompt = cons.prompt(inp)
        steps = len(spec.reference(inp)) - 1
        ctx = Context(dec, record=True)
        tokens = list(prompt.tokens)
        is_y = [label.startswith("y") for label in prompt.labels]
        y: list[Any] = []
        for pos in range(len(tokens) + steps):
            tok = tokens[pos] if pos < len(tokens) else y
            on_y = is_y[pos] if pos < len(tokens) else True
            y, recs = ctx.push(tok)
            for k, rec in enumerate(recs, 1):
                layer = dec.layers[k - 1]
                z = ctx.reps[k - 1][pos]
                if layer.attention is not None:
                    outs: list[Any] = []
                    for h, choice in zip(layer.attention.heads, rec.heads):
                        for lbl, mp in ((f"Q_{h.name}", h.query), (f"K_{h.name}", h.key), (f"V_{h.name}", h.value)):
                            ones.see((k, lbl), mp.src, z, on_y)
                        outs.extend(h.value(ctx.reps[k - 1][choice.index]))
                    ones.see((k, "W_O"), layer.attention.out.src, outs, on_y)
                assert rec.ffn_in is not None and rec.hidden is not None
                ones.see((k, "W_1"), layer.ffn.w1.src, rec.ffn_in, on_y)
                ones.see((k, "W_2"), layer.ffn.w2.src, rec.hidden, on_y)
    return ones


Level = str  # "constants" (Fact 1) or "bilinear" (Fact 1, Fact 2 and lem:bilinearstack)
LEVELS = ("constants", "bilinear")


def needs_coordinate(t: MapTerms, level: Level) -> bool:
    """Whether the map needs a coordinate holding 1 at this level."""
    return bool(t.constants) or (level == "bilinear" and bool(t.quadratic) and t.linear_terms > 0)


def homogenise(mp: ConcreteMap, u: int, level: Level = "bilinear") -> ConcreteMap:
    """The map without constant terms, through the coordinate ``x_u``.

    ``c ↦ c·x_u`` (Fact 1); at the level ``bilinear`` a degree-2 map becomes homogeneous as well
    (``c ↦ c·x_u·x_u``, ``a·x_i ↦ a·x_i·x_u``).
    """
    if level == "bilinear" and mp.quad:
        quad = list(mp.quad) + [(o, u, u, c) for o, c in mp.const] + [
            (o, min(i, u), max(i, u), c) for o, i, c in mp.lin]
        return ConcreteMap(mp.name + "·hom", mp.src, mp.dst, [], [], quad)
    return ConcreteMap(mp.name + "·hom", mp.src, mp.dst, [], list(mp.lin) + [(o, u, c) for o, c in mp.const],
                       list(mp.quad))


class Homogenised(Derived):
    """``base`` with its departing maps rewritten through their chosen coordinates (see :func:`homogenise`)."""

    def __init__(self, base: Construction, through: dict[MapKey, Coord], level: Level = "bilinear"):
        super().__init__(base, base.variant, base.decoder, [
            f"departures absorbed ({level}) through " + ", ".join(
                f"layer {k} {lbl}: {b}[{i}]" for (k, lbl), (b, i) in sorted(through.items()))])
        self.through, self.level = dict(through), level

    def concrete(self, inp: Any) -> ConcreteDecoder:
        """The base's weights with the departing maps rewritten (cached per base decoder)."""
        dec = self.base.concrete(inp)
        key = id(dec)
        if key in self._cache:
            return self._cache[key]
        out = dec
        for (k, lbl), c in self.through.items():
            mp = dec.get_map(k, lbl)
            out = out.with_map(k, lbl, homogenise(mp, index_of(mp.src, c), self.level))
        self._cache[key] = out
        return out


def _choose(ones: Ones, key: MapKey) -> tuple[Coord | None, str, list[Coord]]:
    """A coordinate that is 1 on every token (else on every ``y`` token), how far it holds, the other candidates."""
    on_y = sorted(ones.y.get(key, set()))
    everywhere = [c for c in on_y if c in ones.x.get(key, set())] if key in ones.x else on_y
    if everywhere:
        return everywhere[0], "every token", [c for c in on_y if c != everywhere[0]]
    if on_y:
        return on_y[0], "y tokens only (the input tokens get 0 in its place)", on_y[1:]
    return None, "", []


def first_difference(cons: Construction, other: Construction, steps: int, inp: Any) -> dict[str, Any] | None:
    """Where ``other`` first generates a different token than ``cons`` on ``inp`` (``None``: the same tokens).

    Both run exactly for ``steps`` tokens; the step is located at the first layer whose head choice or
    output differs at the generated position.
    """
    a, b = cons.concrete(inp), other.concrete(inp)
    prompt = cons.prompt(inp)
    ga = generate(a, prompt.tokens, steps, record=True)
    gb = generate(b, prompt.tokens, steps, record=True)
    layout = a.layout
    for t, (ya, yb) in enumerate(zip(ga.outputs, gb.outputs), 1):
        if list(ya) == list(yb):
            continue
        labels = token_labels(prompt, t)
        for k, (ra, rb) in enumerate(zip(ga.records[t - 1], gb.records[t - 1]), 1):
            for ha, hb in zip(ra.heads, rb.heads):
                if ha.index != hb.index:
                    return {"step": t, "layer": k, "kind": "head", "head": ha.head, "expected": labels[ha.index],
                            "got": labels[hb.index],
                            "explanation": f"with the departures absorbed, head {ha.head} of layer {k} selects "
                                           f"{labels[hb.index]} instead of {labels[ha.index]}"}
            assert ra.out is not None and rb.out is not None
            bad = [nm for nm in layout.names if layout.pi(nm, ra.out) != layout.pi(nm, rb.out)]
            if bad:
                return {"step": t, "layer": k, "kind": "block", "block": bad[0],
                        "expected": layout.pi(bad[0], ra.out), "got": layout.pi(bad[0], rb.out),
                        "explanation": f"with the departures absorbed, π_{bad[0]} after layer {k} differs",
                        "other_differences": bad[1:]}
    if len(ga.outputs) != len(gb.outputs):
        return {"step": min(len(ga.outputs), len(gb.outputs)), "layer": None, "kind": "steps", "what": "length",
                "expected": len(ga.outputs), "got": len(gb.outputs)}
    return None


@dataclass
class DeparturesCheck:
    """Departures of a construction from Section-3 matrices, absorbed through a coordinate, replayed beside it.

    Attributes:
        variant: the construction variant.
        make: builds it.
        spec: the claim's comparison (its reference fixes the number of steps of each run).
        families: the inputs (probed for the coordinates up to ``probe_size``, replayed up to the row's size).
        level: ``constants`` (Fact 1 only: constants through a coordinate) or ``bilinear`` (degree-2 maps made
            homogeneous too: Fact 2 and lem:bilinearstack).
        probe_size: the largest size whose inputs are probed for the coordinates that are 1.

    """

    variant: str
    make: Callable[[], Construction]
    spec: StepwiseSpec
    families: list[Family]
    level: Level = "constants"
    probe_size: int = 3
    input_kind: str = "graph"

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level is one of {LEVELS}, got {self.level!r}")

    @property
    def method(self) -> str:
        """How the row is computed."""
        what = ("constants through a coordinate that is 1 on the tokens concerned (Fact 1)" if self.level ==
                "constants" else "constants and degree-2 maps made homogeneous bilinear through such a coordinate "
                                 "(Fact 1, Fact 2, lem:bilinearstack)")
        return f"compiled maps inspected; {what}; exact replay beside the decoder, every step"

    def plan(self, cons: Construction) -> tuple[dict[str, Any], dict[MapKey, Coord], list[dict[str, Any]], int]:
        """The departures (``details``), the coordinate per map, the maps without one, the inputs probed."""
        probe = [inp for f in self.families if f.exhaustive
                 for size in range(f.min_size, min(self.probe_size, f.max_size or self.probe_size) + 1)
                 for inp in f.inputs(size)]
        if not probe:
            raise ValueError("no input to probe the coordinates on")
        dec = cons.concrete(probe[-1])
        terms = map_terms(dec)
        ones = one_coordinates(cons, self.spec, probe)
        rows: list[dict[str, Any]] = []
        through: dict[MapKey, Coord] = {}
        missing: list[dict[str, Any]] = []
        for t in terms:
            if not t.departs:
                continue
            mp = dec.get_map(t.layer, t.label)
            row = t.as_dict()
            if needs_coordinate(t, self.level):
                c, how, others = _choose(ones, (t.layer, t.label))
                row.update({"through": None if c is None else coord_text(c, mp.src), "one_on": how or None,
                            "other_candidates": [coord_text(o, mp.src) for o in others]})
                if c is None:
                    missing.append({"layer": t.layer, "map": t.label, "constants": row["constants"]})
                else:
                    through[(t.layer, t.label)] = c
            else:
                row.update({"through": None, "one_on": "not needed at this level"})
            rows.append(row)
        details = {"level": self.level, "departures": rows, "plain_maps": sum(1 for t in terms if not t.departs),
                   "maps": len(terms), "probe": f"every input up to size {self.probe_size} ({len(probe)} inputs)"}
        return details, through, missing, len(probe)

    def schedule(self, ctx: RunContext) -> Schedule:
        """Every family up to ``ctx.max_size`` (``reach`` does not apply), each input replayed exactly twice."""
        return Schedule(size_schedule(self.families, ctx.max_size), "exact")

    def run(self, ctx: RunContext) -> Verdict:
        """Inspect, choose a coordinate per departing map, replay the rewritten decoder beside the original."""
        start = time.perf_counter()
        claim_id = ctx.claim_id
        cons = self.make()
        details, through, missing, probed = self.plan(cons)
        if missing:
            first = missing[0]
            cex = {"input": {"text": f"the compiled maps and every input up to size {self.probe_size}"},
                   "kind": "departure", "layer": first["layer"], "what": f"{first['map']} has no coordinate",
                   "expected": "an input coordinate equal to 1 on every y token",
                   "got": "none on the probed inputs", "maps_without": missing}
            return Verdict(claim_id, cons.variant, "refuted", self.method, None, probed,
                           time.perf_counter() - start, cex, details=details,
                           scope=f"no coordinate of {first['map']} (layer {first['layer']}) is 1 on every y token "
                                 f"of the inputs up to size {self.probe_size}")
        hom = Homogenised(cons, through, self.level)

        def per_input(inp: Any) -> dict[str, Any] | None:
            return first_difference(cons, hom, len(self.spec.reference(inp)) - 1, inp)

        row = run_property_check(claim_id, cons.variant, self.method, self.families, ctx.max_size, per_input,
                                 ctx.progress, ctx.jobs)
        row.details = details
        row.notes = list(hom.notes) + row.notes
        row.seconds = time.perf_counter() - start
        return row


__all__ = ["LEVELS", "DeparturesCheck", "Homogenised", "MapTerms", "Ones", "coord_of", "first_difference",
           "homogenise", "map_labels", "map_terms", "one_coordinates"]
