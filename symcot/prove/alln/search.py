r"""From an obligation that is not proved to a real counterexample: exact replay beyond the concrete phase.

An all-n obligation that is not proved (a counter-model, or a timeout) says nothing about the decoder by itself:
the counter-model may violate a fact nobody stated, and a timeout is no answer at all. :func:`search` looks for a
real input on which the decoder departs from the reference, with the claim's own spec and families and the batched
engine of the default check (so a counterexample is reported exactly as ``symcot verify`` reports it), in this
order:

1. **exhaustive families, every size** from just above the concrete phase (``start``) up to :data:`EXHAUSTIVE_SIZE`,
   as long as a size has at most :data:`EXHAUSTIVE_INPUTS` inputs (a family stops at its first larger size), size
   by size: the first failure is the smallest input in the families' order, as the default check would report it;
2. **seeded samples**: :data:`SAMPLES` inputs per size (:data:`SEED`), at each size above the exhaustive ones up to
   :data:`SAMPLE_SIZE` and at the sizes the counter-model names, for the families that can give an input of a rank
   (``inputs_range``) or have at most :data:`ENUMERATE_INPUTS` inputs at that size; at a size the model names, the
   inputs that agree most with the model's values of the input symbols (``bit(5) = 1``) are replayed first.

The search stops at its first failure, or after :data:`SEARCH_SECONDS` between sizes. Its account (:class:`Search`)
says how far it went.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.batched_check import run_batched_check
from symcot.check.spec import StepwiseSpec
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.inputs.family import Family

#: The largest size replayed exhaustively.
EXHAUSTIVE_SIZE = 14
#: A family is replayed exhaustively at a size only while it has at most this many inputs there.
EXHAUSTIVE_INPUTS = 2 ** 15
#: The largest size sampled, and the number of seeded samples per size.
SAMPLE_SIZE = 2 * EXHAUSTIVE_SIZE
SAMPLES = 256
SEED = 0
#: A family without ranked access is sampled at a size only while enumerating it is cheap.
ENUMERATE_INPUTS = 2 ** 20
#: Seconds after which no further size is started.
SEARCH_SECONDS = 120.0

_GROUNDED = re.compile(r"^(\w+)\((-?\d+(?:, -?\d+)*)\) = (-?\d+)$")


@dataclass
class Search:
    """What the search did: the refuting row (``None``: no counterexample), the sizes and inputs it replayed."""

    row: Verdict | None = None
    exhaustive: dict[str, int] = field(default_factory=dict)
    sampled: dict[int, int] = field(default_factory=dict)
    inputs: int = 0
    seconds: float = 0.0
    stopped: str = ""

    @property
    def found(self) -> bool:
        """A real counterexample was found."""
        return self.row is not None and self.row.verdict == "refuted" and self.row.counterexample is not None

    def text(self) -> str:
        """One sentence: how far the search went."""
        ex = ", ".join(f"{name} up to n = {top}" for name, top in self.exhaustive.items()) or "no size"
        sizes = sorted(self.sampled)
        sm = (f"; {sum(self.sampled.values())} seeded samples at n = {_ranges(sizes)}" if sizes else "")
        stop = f"; {self.stopped}" if self.stopped else ""
        return f"exact replay of every input ({ex}){sm}: {self.inputs} inputs in {self.seconds:.1f} s{stop}"

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"found": self.found, "exhaustive": dict(self.exhaustive),
                "sampled": {str(k): v for k, v in sorted(self.sampled.items())}, "inputs": self.inputs,
                "seconds": round(self.seconds, 3), "stopped": self.stopped, "text": self.text()}


def _ranges(sizes: Sequence[int]) -> str:
    out: list[str] = []
    for _, grp in itertools.groupby(enumerate(sizes), lambda p: p[1] - p[0]):
        run = [s for _, s in grp]
        out.append(str(run[0]) if len(run) == 1 else f"{run[0]}..{run[-1]}")
    return ", ".join(out)


def exhaustive_top(fam: Family, start: int, limit: int = EXHAUSTIVE_SIZE, inputs: int = EXHAUSTIVE_INPUTS) -> int:
    """The largest size ``≤ limit`` up to which every size from ``start`` has at most ``inputs`` inputs."""
    top = start - 1
    for k in range(max(start, fam.min_size), min(limit, fam.max_size or limit) + 1):
        if fam.count(k) > inputs:
            break
        top = k
    return top


def model_inputs(values: Iterable[str]) -> dict[str, dict[tuple[int, ...], int]]:
    """The model's grounded values (``bit(t) = bit(5) = 1``) as ``{symbol: {arguments: value}}``."""
    out: dict[str, dict[tuple[int, ...], int]] = {}
    for v in values:
        m = _GROUNDED.match(v.split(" = ", 1)[1]) if " = " in v else None
        if m:
            out.setdefault(m.group(1), {})[tuple(int(a) for a in m.group(2).split(", "))] = int(m.group(3))
    return out


def agreement(symbols: Mapping[str, Any], model: Mapping[str, Mapping[tuple[int, ...], int]]) -> int:
    """How many of the model's values of input symbols an input's symbols (``vocabulary.inputs``) share."""
    score = 0
    for name, vals in model.items():
        f = symbols.get(name)
        if not callable(f):
            continue
        for args, v in vals.items():
            try:
                score += int(f(*args) == v)
            except Exception:  # noqa: BLE001 - a symbol read outside its domain agrees with nothing
                continue
    return score


def _agreement(input_symbols: Callable[[Any], Mapping[str, Any]], inp: Any,
               model: Mapping[str, Mapping[tuple[int, ...], int]]) -> int:
    try:
        symbols = input_symbols(inp)
    except Exception:  # noqa: BLE001 - an input the vocabulary cannot read is replayed last, not refused
        return 0
    return agreement(symbols, model)


def sample(fam: Family, k: int, count: int, seed: int = SEED) -> list[Any] | None:
    """``count`` inputs of ``fam`` at size ``k`` at seeded random ranks (all when it has fewer).

    ``None``: too many inputs to reach a rank without ranked access (``Family.inputs_range``).
    """
    total = fam.count(k)
    if total <= 0:
        return []
    if fam.inputs_range is None and total > ENUMERATE_INPUTS:
        return None
    rng = random.Random(f"{seed}:{fam.name}:{k}")
    chosen: set[int] = set(range(total)) if total <= count else set()
    while len(chosen) < min(count, total):
        chosen.add(rng.randrange(total))
    ranks = sorted(chosen)
    if fam.inputs_range is not None:
        return [x for r in ranks for x in fam.inputs_range(k, r, r + 1)]
    wanted = set(ranks)
    return [x for r, x in enumerate(fam.inputs(k)) if r in wanted]


def _replay(claim_id: str, cons: Construction, spec: StepwiseSpec, families: list[Family], top: int) -> Verdict:
    return run_batched_check(claim_id, cons, spec, families, top)


def _sampled_family(base: Family, plan: dict[int, list[Any]]) -> Family:
    lo, hi = min(plan), max(plan)
    return dataclasses.replace(base, name=f"{base.name} (seeded samples)", exhaustive=False, min_size=lo, max_size=hi,
                               inputs=lambda k: plan.get(k, []), count=lambda k: len(plan.get(k, [])),
                               inputs_range=None, batch_range=None, reach=False, partial=False)


def search(claim_id: str, cons: Construction, spec: StepwiseSpec, families: Sequence[Family], start: int,
           model_sizes: Sequence[int] = (), model: Mapping[str, Mapping[tuple[int, ...], int]] | None = None,
           input_symbols: Callable[[Any], Mapping[str, Any]] | None = None, *,
           exhaustive_size: int = EXHAUSTIVE_SIZE, sample_size: int = SAMPLE_SIZE, samples: int = SAMPLES,
           seconds: float = SEARCH_SECONDS) -> Search:
    """Look for a real counterexample (see the module docstring); ``start``: the first size not yet replayed."""
    t0 = time.perf_counter()
    out = Search()
    exh = [f for f in families if f.exhaustive]
    tops = {f.name: exhaustive_top(f, start, exhaustive_size) for f in exh}
    for k in range(start, max([start - 1, *tops.values()]) + 1):
        if time.perf_counter() - t0 > seconds:
            out.stopped = f"stopped at n = {k} after {seconds:g} s"
            break
        at_k = [dataclasses.replace(f, min_size=k, max_size=k) for f in exh
                if max(start, f.min_size) <= k <= tops[f.name]]
        if not at_k:
            continue
        row = _replay(claim_id, cons, spec, at_k, k)
        out.inputs += row.inputs_checked
        for f in at_k:
            out.exhaustive[f.name] = k
        if row.verdict == "refuted":
            out.row = row
            break
        if row.verdict == "error":
            out.stopped = f"the replay failed at n = {k}: {row.notes[-1] if row.notes else 'error'}"
            break
    if out.row is None and not out.stopped:
        _sampled(out, claim_id, cons, spec, families, tops, start, model_sizes, model or {}, input_symbols,
                 sample_size, samples, t0, seconds)
    out.seconds = time.perf_counter() - t0
    return out


def _sampled(out: Search, claim_id: str, cons: Construction, spec: StepwiseSpec, families: Sequence[Family],
             tops: Mapping[str, int], start: int, model_sizes: Sequence[int],
             model: Mapping[str, Mapping[tuple[int, ...], int]],
             input_symbols: Callable[[Any], Mapping[str, Any]] | None, sample_size: int, samples: int, t0: float,
             seconds: float) -> None:
    """Step 2 of the module docstring, family by family; sets ``out.row`` on a failure."""
    for f in families:
        first = max(tops.get(f.name, start - 1) + 1, start, f.min_size)
        sizes = sorted({*range(first, sample_size + 1), *(k for k in model_sizes if k >= first)})
        plan: dict[int, list[Any]] = {}
        for k in sizes:
            if time.perf_counter() - t0 > seconds:
                out.stopped = f"sampling stopped at n = {k} after {seconds:g} s"
                break
            if f.max_size is not None and k > f.max_size:
                break
            got = sample(f, k, samples)
            if got is None:
                continue
            if k in model_sizes and model and input_symbols is not None:
                got.sort(key=lambda x: -_agreement(input_symbols, x, model))
            if got:
                plan[k] = got
        if not plan:
            continue
        row = _replay(claim_id, cons, spec, [_sampled_family(f, plan)], max(plan))
        out.inputs += row.inputs_checked
        for k, xs in plan.items():
            out.sampled[k] = out.sampled.get(k, 0) + len(xs)
        if row.verdict == "refuted":
            out.row = row
            return
        if row.verdict == "error":
            out.stopped = f"the sampled replay failed: {row.notes[-1] if row.notes else 'error'}"
            return
