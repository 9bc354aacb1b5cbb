"""Exact margins of an encoder or recogniser over every string checked, and the float formats they allow.

For an :class:`~symcot.check.encoder.EncoderCheck`, every string of its families up to the size asked is run
through the exact engine of its model description (:func:`symcot.model.described.encode`, with an algebra that
also records what the run computes) and compared with the check's reference. Per size:

- per layer and head with a hard choice (unique or average hard attention), over every head event (one
  position of one string): the **margin** ``a_{j0} - max_{j≠j0} a_j`` between the chosen score and the next
  among the positions the mask allows, **0 on a tie** (another position attains the maximum; the tie rule, or
  the average, makes the choice), and the **relative margin** ``min_j (a_{j0} - a_j) / (S_{j0} + S_j)``,
  ``S_j = Σ_t |k_{j,t} q_t|``, over the positions ``j`` outside the chosen group: ``{j0}``, or on a tie whose
  tied positions have the same key vector, the whole tied group (every format computes their scores alike, so
  it keeps the tie: ``same_key_ties``); a tie between different keys has relative margin 0. Softmax heads make
  no hard choice and are counted only;
- per ReLU unit (a coordinate of a layer's ``W_1``), over every position of every string: the smallest
  nonzero ``|pre-activation|``, how many were exactly 0, and the relative figure ``|x| / T`` with ``T`` the
  sum of ``|c|·|monomial|`` over the unit's terms.

Where scores are certified balls (a sinusoid, a layer norm's root), a head event's margin and relative margin
are certified rational lower bounds (``balls`` counts these events); a pre-activation held as a ball is counted
as ``inexact`` and not measured.

**Formats.** A score formed in a float format whose inputs are exact up to their own rounding differs from the
exact one by at most about ``(t·u_a + 3·u_s)·S`` (``t`` terms summed with unit roundoff ``u_a = 2^-p_a`` of the
accumulator, each input and product rounded once with ``u_s = 2^-p`` of the storage format: first order). A
decision is kept when its relative margin exceeds that factor (a tie between different keys never is: nothing
makes their float scores round alike), and a ReLU's sign when ``|x|/T`` does. :func:`format_lengths` gives, per
format, the first length at which some event breaks the condition. The condition bounds each decision's own
rounding only; errors carried from earlier layers are not bounded, so it is a first-order estimate, not a
certificate. The readout (a value, or a bit against a threshold) is not part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.exhaustive import family_top
from symcot.check.grid import GridCheck
from symcot.check.verdict import jsonable
from symcot.errors import SymcotError, Undecided
from symcot.inputs.family import Family
from symcot.ir.maps import ConcreteMap
from symcot.model.attention import allowed
from symcot.model.decoder import ConcreteDecoder, ConcreteHead
from symcot.model.described import DescribedAlgebra, encode
from symcot.model.interval import is_ball
from symcot.replay.floating import FLOAT_FORMATS, FORMATS
from symcot.study.precision.margins import Extreme, Witness


def _is_encoder_check(c: Any) -> bool:
    return hasattr(c, "construction") and hasattr(c, "reference") and hasattr(c, "per_input") and hasattr(c, "families")


def encoder_checks(claim: Any) -> list[Any]:
    """The claim's encoder checks (a ``construction`` returning an encoder, a ``reference`` and ``per_input``).

    A :class:`~symcot.check.grid.GridCheck` gives one check per point, at the claim's default length less the
    point's ``shorter``, named ``variant [k=1,D=2]`` (``symcot precision --variant 'repaired [k=1,D=2]'``).
    """
    out = []
    for c in claim.checks:
        if _is_encoder_check(c):
            out.append(c)
        elif isinstance(c, GridCheck):
            for point in c.points:
                chk = c.make(point, max(claim.default_max_size - c.shorter(point), 0))
                if _is_encoder_check(chk):
                    at = ",".join(f"{n}={v}" for n, v in zip(c.params, point))
                    out.append(_AtPoint(chk, f"{c.variant} [{at}]"))
    return out


class _AtPoint:
    """A grid point's encoder check under the name ``variant [k=1,D=2]``; everything else is the check's."""

    def __init__(self, check: Any, variant: str) -> None:
        self._check = check
        self.variant = variant

    def __getattr__(self, name: str) -> Any:
        return getattr(self._check, name)


@dataclass
class HeadMargins:
    """The margins of one head (``layer``, ``head``) over every event of one size."""

    layer: int
    head: str
    kind: str
    terms: int
    events: int = 0
    ties: int = 0
    same_key_ties: int = 0
    balls: int = 0
    margin: Extreme = field(default_factory=lambda: Extreme(largest=False))
    relative: Extreme = field(default_factory=lambda: Extreme(largest=False))


@dataclass
class ReluMargins:
    """The pre-activations of one ReLU unit over every position of one size."""

    layer: int
    unit: str
    terms: int
    evaluations: int = 0
    zeros: int = 0
    inexact: int = 0
    smallest: Extreme = field(default_factory=lambda: Extreme(largest=False))
    relative: Extreme = field(default_factory=lambda: Extreme(largest=False))


@dataclass
class EncoderSize:
    """Every string of one family at one size: head and ReLU margins, and the strings that depart."""

    family: Family
    size: int
    strings: int = 0
    heads: dict[tuple[int, str], HeadMargins] = field(default_factory=dict)
    relus: dict[tuple[int, int], ReluMargins] = field(default_factory=dict)
    departures: int = 0
    first_departure: dict[str, Any] | None = None
    undecided: int = 0


def _abs(x: Any) -> Any:
    return -x if x < 0 else x


def _terms(m: ConcreteMap) -> list[list[tuple[Any, tuple[int, ...]]]]:
    """Per output, its ``(|c|, monomial)`` terms."""
    out: list[list[tuple[Any, tuple[int, ...]]]] = [[] for _ in range(m.d_out)]
    for o, c in m.const:
        out[o].append((_abs(c), ()))
    for o, i, c in m.lin:
        out[o].append((_abs(c), (i,)))
    for o, i, j, c in m.quad:
        out[o].append((_abs(c), (i, j)))
    return out


def _bound(terms: list[tuple[Any, tuple[int, ...]]], x: list[Any]) -> Any:
    """``T``: the sum of ``|c|·|monomial|`` (an upper bound where an input is a ball)."""
    total: Any = 0
    for c, mono in terms:
        v = c
        for i in mono:
            v = v * _mag(x[i])
        total = total + v
    return total


class _Sink:
    """Folds the events of one string into an :class:`EncoderSize`."""

    def __init__(self, acc: EncoderSize, string: Any, dec: ConcreteDecoder):
        self.acc, self.string, self.dec = acc, string, dec
        self.terms: dict[int, list[list[tuple[Any, tuple[int, ...]]]]] = {}

    def _witness(self, pos: int, layer: int, where: str) -> Witness:
        return Witness(self.string, pos, f"position {pos}", layer, where)

    def head(self, layer: int, head: ConcreteHead, kind: str, keys: list[list[Any]], q: list[Any], sel: Any,
             positions: range, pos: int) -> None:
        hm = self.acc.heads.setdefault((layer, head.name), HeadMargins(layer, head.name, kind, head.query.d_out))
        hm.events += 1
        if kind == "softmax" or len(positions) < 2 or not sel.weights:
            return
        scores = [sum((a * b for a, b in zip(k, q)), Fraction(0)) for k in keys]
        if any(is_ball(scores[j]) for j in positions):
            hm.balls += 1
            self._ball_margins(hm, scores, keys, q, sel, positions, self._witness(pos, layer, f"head {head.name}, "
                               f"chose {sel.index} (certified lower bound)"))
            return
        j0 = sel.index
        sums = [sum((_abs(a) * _abs(b) for a, b in zip(k, q)), Fraction(0)) for k in keys]
        top = [j for j in positions if scores[j] == scores[j0]]
        where = f"head {head.name}, chose {j0}"
        group = {j0}
        if len(top) > 1:
            hm.ties += 1
            hm.margin.offer(Fraction(0), self._witness(pos, layer, where + " (tie)"))
            if any(keys[j] != keys[j0] for j in top):
                hm.relative.offer(Fraction(0), self._witness(pos, layer, where + " (tie, different keys)"))
                return
            hm.same_key_ties += 1
            group = set(top)
        gaps = [(scores[j0] - scores[j], sums[j0] + sums[j]) for j in positions if j not in group]
        if not gaps:
            return
        if len(top) == 1:
            hm.margin.offer(min(g for g, _ in gaps), self._witness(pos, layer, where))
        rel = min((g / s if s else _INF for g, s in gaps), key=_order)
        if rel is not _INF:
            hm.relative.offer(rel, self._witness(pos, layer, where))

    @staticmethod
    def _ball_margins(hm: HeadMargins, scores: list[Any], keys: list[list[Any]], q: list[Any], sel: Any,
                      positions: range, w: Witness) -> None:
        """Certified lower bounds of the margin and the relative margin where scores are balls."""
        if len(sel.tied) > 1:  # the engine found exact equals among them: a tie
            hm.ties += 1
            hm.margin.offer(Fraction(0), w)
            hm.relative.offer(Fraction(0), w)
            return
        j0 = sel.index
        qb = [_mag(v) for v in q]
        gaps = [(_lo(scores[j0]) - _hi(scores[j]),
                 sum((_mag(a) * b for a, b in zip(keys[j0], qb)), Fraction(0))
                 + sum((_mag(a) * b for a, b in zip(keys[j], qb)), Fraction(0)))
                for j in positions if j != j0]
        hm.margin.offer(max(min(g for g, _ in gaps), Fraction(0)), w)
        rel = min((max(g, Fraction(0)) / t if t else _INF for g, t in gaps), key=_order)
        if rel is not _INF:
            hm.relative.offer(rel, w)

    def pre(self, layer: int, m: ConcreteMap, x: list[Any], y: list[Any], pos: int) -> None:
        if id(m) not in self.terms:
            self.terms[id(m)] = _terms(m)
        terms = self.terms[id(m)]
        for o, v in enumerate(y):
            rm = self.acc.relus.setdefault((layer, o), ReluMargins(layer, _unit(m, o), len(terms[o])))
            rm.evaluations += 1
            if is_ball(v):
                rm.inexact += 1
                continue
            if v == 0:
                rm.zeros += 1
                continue
            w = self._witness(pos, layer, f"W_1: {rm.unit}")
            rm.smallest.offer(_abs(v), w)
            t = _bound(terms[o], x)
            if t:
                rm.relative.offer(Fraction(_abs(v)) / t if isinstance(v, int) else _abs(v) / t, w)


_INF = object()


def _lo(x: Any) -> Any:
    return x.lower if is_ball(x) else x


def _hi(x: Any) -> Any:
    return x.upper if is_ball(x) else x


def _mag(x: Any) -> Any:
    """An upper bound of ``|x|``."""
    return max(_abs(x.lower), _abs(x.upper)) if is_ball(x) else _abs(x)


def _order(v: Any) -> Any:
    return float("inf") if v is _INF else v


def _unit(m: ConcreteMap, o: int) -> str:
    try:
        return m.dst.coordinate_name(o)
    except (IndexError, AttributeError):
        return f"[{o}]"


class _RecordingAlgebra(DescribedAlgebra):
    """The exact engine's algebra, also handing every hard choice and pre-activation to a :class:`_Sink`."""

    sink: _Sink

    def __init__(self, dec: ConcreteDecoder, n: int, record: bool):
        super().__init__(dec, n, record)
        self.n_positions = n
        self.w1 = {id(lay.ffn.w1): k for k, lay in enumerate(dec.layers)}
        self.seen = [0] * len(dec.layers)

    def attend(self, k: int, h: int, head: ConcreteHead, a: list[Any], i: int) -> tuple[list[Any], Any]:
        out, sel = super().attend(k, h, head, a, i)
        rule = self.rules[k][h]
        self.sink.head(k + 1, head, rule.attention.kind, self.keys[k][h], head.query(a), sel,
                       allowed(rule.mask, i, len(self.keys[k][h])), i)
        return out, sel

    def apply(self, m: ConcreteMap, x: list[Any]) -> list[Any]:  # type: ignore[override]
        y = m(x)
        k = self.w1.get(id(m))
        if k is not None:
            pos = self.seen[k] % self.n_positions
            self.seen[k] += 1
            self.sink.pre(k + 1, m, x, y, pos)
        return y


def _tokens(cons: Any, s: Any) -> list[list[Any]]:
    n = len(s)
    return [list(cons.embed(a, i, n)) for i, a in enumerate(s)]


def study_string(check: Any, cons: Any, acc: EncoderSize, s: Any) -> None:
    """Run one string with the recording algebra, fold its margins into ``acc`` and compare it with the reference."""
    dec = cons.concrete(s)
    sink = _Sink(acc, s, dec)

    def algebra(d: ConcreteDecoder, n: int, record: bool) -> DescribedAlgebra:
        alg = _RecordingAlgebra(d, n, record)
        alg.sink = sink
        return alg

    acc.strings += 1
    try:
        encode(dec, _tokens(cons, s), False, algebra)
        failure = check.per_input(cons, s)
    except Undecided:
        acc.undecided += 1
        return
    if failure is not None:
        acc.departures += 1
        if acc.first_departure is None:
            acc.first_departure = {"input": acc.family.describe(s), **failure}


@dataclass
class EncoderPrecision:
    """The margins study of one encoder claim (rendered by :mod:`symcot.report.precision`)."""

    claim: str
    variant: str
    rows: list[EncoderSize]
    rejected: list[dict[str, Any]]
    formats: tuple[str, ...]


def study_check(claim: Any, check: Any, max_size: int | None, reach: int | None = None) -> list[EncoderSize]:
    """Every string of every family of ``check`` up to the size asked, size by size."""
    cons = check.construction()
    top = max_size if max_size is not None else claim.default_max_size
    rows = []
    for fam in check.families:
        for size in range(fam.min_size, family_top(fam, top, reach) + 1):
            acc = EncoderSize(fam, size)
            for s in fam.inputs(size):
                if len(s):
                    study_string(check, cons, acc, s)
            if acc.strings:
                rows.append(acc)
    return rows


def study_encoder(claim: Any, max_size: int | None = None, variant: str | None = None,
                  formats: tuple[str, ...] = FLOAT_FORMATS, reach: int | None = None) -> EncoderPrecision:
    """The first variant (or ``variant``) whose every string agrees with the reference; a named one in any case."""
    checks = encoder_checks(claim)
    if not checks:
        raise SymcotError(f"{claim.id} is not checked through a construction: no decoder or encoder to study")
    if variant is not None:
        named = [c for c in checks if c.variant == variant]
        if not named:
            known = ", ".join(c.variant for c in checks)
            raise SymcotError(f"{claim.id} has no construction variant {variant!r}; variants: {known}")
        return EncoderPrecision(claim.id, variant, study_check(claim, named[0], max_size, reach), [], formats)
    rejected: list[dict[str, Any]] = []
    for chk in checks:
        rows = study_check(claim, chk, max_size, reach)
        bad = next((r for r in rows if r.departures), None)
        if bad is None:
            return EncoderPrecision(claim.id, chk.variant, rows, rejected, formats)
        rejected.append({"variant": chk.variant, "size": bad.size, "counterexample": bad.first_departure})
    fails = "; ".join(f"{r['variant']} departs at n = {r['size']}" for r in rejected)
    raise SymcotError(f"{claim.id}: no variant agrees with its reference on every string analysed ({fails})")


def _factor(fmt: str, terms: int) -> Fraction:
    f = FORMATS[fmt]
    assert f.bits is not None and f.accum_bits is not None
    return Fraction(terms, 2**f.accum_bits) + Fraction(3, 2**f.bits)


def format_lengths(rows: list[EncoderSize], formats: tuple[str, ...] = FLOAT_FORMATS) -> dict[str, dict[str, Any]]:
    """Per format: the first length at which some decision or ReLU sign breaks the first-order condition."""
    out: dict[str, dict[str, Any]] = {}
    sizes = sorted({r.size for r in rows})
    for fmt in formats:
        first, why = None, None
        for n in sizes:
            for r in (r for r in rows if r.size == n):
                why = _breaks(r, fmt)
                if why:
                    first = n
                    break
            if first is not None:
                break
        out[fmt] = {"n": first, "reason": why, "kept_up_to": (first - 1) if first is not None else
                    (sizes[-1] if sizes else None)}
    return out


def _breaks(r: EncoderSize, fmt: str) -> str | None:
    for hm in r.heads.values():
        if hm.relative.value is not None and hm.relative.value <= _factor(fmt, hm.terms):
            what = ("a tie between different keys" if hm.relative.value == 0 else
                    f"relative margin {float(hm.relative.value):.3g}")
            return f"layer {hm.layer}, head {hm.head}: {what} ≤ {float(_factor(fmt, hm.terms)):.3g}"
    for rm in r.relus.values():
        if rm.relative.value is not None and rm.relative.value <= _factor(fmt, rm.terms):
            return (f"layer {rm.layer}, ReLU {rm.unit}: |x|/T = {float(rm.relative.value):.3g} ≤ "
                    f"{float(_factor(fmt, rm.terms)):.3g}")
    return None


def _ext(e: Extreme, describe: Callable[[Any], dict[str, Any]]) -> dict[str, Any] | None:
    if e.value is None:
        return None
    return {"value": jsonable(e.value), "approx": float(e.value),
            **(e.witness.as_dict(describe) if e.witness else {})}


def size_json(r: EncoderSize) -> dict[str, Any]:
    """One family at one size."""
    d = r.family.describe
    heads = [{"layer": h.layer, "head": h.head, "attention": h.kind, "events": h.events, "ties": h.ties,
              "same_key_ties": h.same_key_ties, "balls": h.balls, "margin": _ext(h.margin, d),
              "relative_margin": _ext(h.relative, d)}
             for h in sorted(r.heads.values(), key=lambda h: (h.layer, h.head))]
    relus = [{"layer": u.layer, "unit": u.unit, "evaluations": u.evaluations, "zeros": u.zeros, "inexact": u.inexact,
              "smallest": _ext(u.smallest, d), "relative": _ext(u.relative, d)}
             for _, u in sorted(r.relus.items())]
    return {"family": r.family.name, "n": r.size, "strings": r.strings, "heads": heads, "relus": relus,
            "departures": r.departures, "first_departure": jsonable(r.first_departure), "undecided": r.undecided}


def encoder_json(ep: EncoderPrecision) -> dict[str, Any]:
    """The whole study of one encoder claim."""
    return {"claim": ep.claim, "variant": ep.variant, "model": "encoder", "rejected": jsonable(ep.rejected),
            "rows": [size_json(r) for r in ep.rows], "formats": format_lengths(ep.rows, ep.formats)}
