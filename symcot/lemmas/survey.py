"""What a decoder feeds its gadgets: every input of a claim's families replayed exactly, the gadgets' inputs recorded.

For a construction variant and a size bound, :func:`survey` replays every input of the claim's
exhaustive families (the whole domain at each size; partial and sampled families are left out) for the
steps its reference prescribes (the construction's stop rule may end a run earlier), with the
intermediate vectors recorded (:func:`symcot.model.semantics.generate` with ``record=True``). At every
CoT step -- the position of ``y_t`` producing ``y_{t+1}``, for ``t = 0 … T-1`` -- and every layer whose
FFN is built from gadgets, it evaluates each gadget's input expressions on the vector the gadget reads
(the FFN input ``α'' + z`` for a gadget with units, the hidden vector for a ``W_2``-only gadget) and
keeps each distinct value, with the sizes and constants of its input and where it first occurred. Prompt
positions are not surveyed: the proofs apply the lemmas to the generated tokens.

Surveys are cached in-process by (claim, variant, size): the lemmas used by one decoder share one replay;
large sizes run in forked processes (``jobs``), merged in the family's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import sympy as sp

from symcot.check.exhaustive import Family, Progress
from symcot.check.pool import map_ordered
from symcot.check.stepwise import StepwiseSpec
from symcot.constructions.base import Construction
from symcot.errors import SymcotError
from symcot.ir.layout import Layout
from symcot.ir.maps import ConcreteMap, Map
from symcot.model.semantics import generate


@dataclass(frozen=True)
class Occurrence:
    """Where a fed value first occurred: family, size, rank of the input in the family, step, the input itself."""

    family: str
    size: int
    rank: int
    step: int
    input: Any

    @property
    def order(self) -> tuple[int, int, int]:
        """Sort key: smallest size, then the family's order, then the step."""
        return (self.size, self.rank, self.step)


@dataclass
class Fed:
    """The distinct values fed to one gadget instance: ``(sizes, constants, values by role) → first occurrence``."""

    layer: int
    index: int
    values: dict[tuple[Any, ...], Occurrence] = field(default_factory=dict)
    steps: int = 0


@dataclass
class Survey:
    """The outcome of :func:`survey` for one construction variant."""

    claim: str
    variant: str
    size: int
    inputs: int = 0
    steps: int = 0
    sizes_complete: list[int] = field(default_factory=list)
    families: list[dict[str, Any]] = field(default_factory=list)
    fed: dict[tuple[int, int], Fed] = field(default_factory=dict)
    describe: Any = None


_CACHE: dict[tuple[str, str, int], Survey] = {}


def _key(d: dict[sp.Symbol, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((str(k), v) for k, v in d.items()))


def input_map(g: Any, src: Layout, name: str) -> Map:
    """A map from ``src`` to one block per input role of gadget ``g`` (its input expressions)."""
    lay = Layout(name, [(r, e.size) for r, e in g.inputs.items()])
    return Map(name, src, lay, dict(g.inputs), max_degree=2)


#: Below this many inputs of one size a survey runs in-process (a pool costs more than it saves).
PARALLEL_THRESHOLD = 2_000
CHUNK = 500


class _Replayer:
    """Replays inputs of one construction and records, per gadget use, the distinct values fed."""

    def __init__(self, cons: Construction, spec: StepwiseSpec):
        self.cons, self.spec = cons, spec
        dec = cons.decoder
        self.uses: list[tuple[int, int, Any]] = [(k, i, g) for k, layer in enumerate(dec.layers, start=1)
                                                 for i, g in enumerate(layer.ffn.gadgets)]
        self.maps = {(k, i): input_map(g, dec.layers[k - 1].ffn.w1.src if g.stage == "pre"
                                       else dec.layers[k - 1].ffn.w2.src, f"{g.label}@{k}.{i}")
                     for k, i, g in self.uses}
        self.compiled: dict[int, dict[tuple[int, int], ConcreteMap]] = {}

    def chunk(self, job: tuple[int, list[tuple[int, Any]]]) -> tuple[int, dict[tuple[int, int], Any], int]:
        """``(inputs, {use: (steps, {value: (rank, step, input)})}, steps)`` for ``(size, [(rank, input)])``."""
        _size, items = job
        found: dict[tuple[int, int], Any] = {u: [0, {}] for u in self.maps}
        steps = 0
        cons = self.cons
        for rank, inp in items:
            states = self.spec.reference(inp)
            cdec = cons.concrete(inp)
            prompt = cons.prompt(inp)
            cmaps = self.compiled.get(id(cdec))
            if cmaps is None:
                cmaps = self.compiled[id(cdec)] = {u: m.instantiate(cdec.env, cdec.subs) for u, m in self.maps.items()}
            stop = None
            if cons.stop is not None:
                lay_c = cdec.layout

                def stop(y: list[Any], lay_c: Any = lay_c) -> bool:
                    return bool(cons.terminal(lay_c, y))
            gen = generate(cdec, prompt.tokens, len(states) - 1, stop=stop, record=True)
            ctx = (_key(cdec.env), _key(cdec.subs))
            for t, recs in enumerate(gen.records):
                steps += 1
                for k, i, g in self.uses:
                    rec = recs[k - 1]
                    vec = rec.ffn_in if g.stage == "pre" else rec.hidden
                    assert vec is not None
                    slot = found[(k, i)]
                    slot[0] += 1
                    vk = (ctx, tuple(cmaps[(k, i)](vec)))
                    if vk not in slot[1]:
                        slot[1][vk] = (rank, t, inp)
        return len(items), found, steps


def _chunks(inputs: Any, size: int) -> Any:
    it = enumerate(inputs)
    while chunk := list(islice(it, CHUNK)):
        yield (size, chunk)


def _merge(out: Survey, found: dict[tuple[int, int], Any], family: str, size: int) -> None:
    """Add one chunk's fed values to ``out`` (chunks arrive in the family's order: first occurrences stay first)."""
    for u, (n_steps, values) in found.items():
        fed = out.fed[u]
        fed.steps += n_steps
        for vk, (rank, t, inp) in values.items():
            if vk not in fed.values:
                fed.values[vk] = Occurrence(family, size, rank, t, inp)


def _replay_size(rep: _Replayer, f: Family, s: int, workers: int, bar: Any, out: Survey) -> int:
    """Replay every input of ``f`` at size ``s`` in ordered chunks (``workers`` processes); the inputs replayed."""
    got = 0
    results = map_ordered(rep.chunk, _chunks(f.inputs(s), s), workers)
    try:
        for _, (done, found, steps) in results:
            got += done
            bar.update(done)
            out.steps += steps
            _merge(out, found, f.name, s)
    finally:
        results.close()
    return got


def survey(cons: Construction, spec: StepwiseSpec, families: Sequence[Family], size: int,
           progress: Progress | None = None, cache: bool = True, jobs: int = 1) -> Survey:
    """Replay every input of ``families`` (exhaustive, not partial) up to ``size``; record what each gadget is fed.

    ``jobs > 1`` replays large sizes in that many forked processes (:mod:`symcot.check.pool`), in ordered
    chunks: the first occurrence of each value is the same as in one process.
    """
    key = (cons.claim, cons.variant, size)
    if cache and key in _CACHE:
        return _CACHE[key]
    progress = progress or Progress(False)
    rep = _Replayer(cons, spec)
    out = Survey(cons.claim, cons.variant, size)
    out.fed = {(k, i): Fed(k, i) for k, i, _g in rep.uses}
    fams = [f for f in families if f.exhaustive and not f.partial]
    if not fams:
        raise SymcotError(f"{cons.label}: no exhaustive family to replay")
    for f in fams:
        out.families.append({"family": f.name, "sizes_complete": [], "inputs_checked": 0})
    for s in range(1, size + 1):
        for fi, f in enumerate(fams):
            if s < f.min_size or (f.max_size is not None and s > f.max_size):
                continue
            count = f.count(s)
            with progress.bar(count, f"{cons.label} survey n={s}") as bar:
                got = _replay_size(rep, f, s, jobs if count >= PARALLEL_THRESHOLD else 1, bar, out)
            if got != count:
                raise SymcotError(f"family {f.name!r} yielded {got} inputs at size {s}, expected {count}")
            out.inputs += got
            out.families[fi]["sizes_complete"].append(s)
            out.families[fi]["inputs_checked"] += got
        out.sizes_complete.append(s)
    out.describe = {f.name: f.describe for f in fams}
    if cache:
        _CACHE[key] = out
    return out


def split(g: Any, vals: tuple[Any, ...], sizes: dict[str, int]) -> dict[str, list[Any]]:
    """A recorded value tuple as ``{role: coordinates}`` (``sizes``: the concrete size of each role)."""
    out: dict[str, list[Any]] = {}
    pos = 0
    for r in g.inputs:
        out[r] = list(vals[pos:pos + sizes[r]])
        pos += sizes[r]
    return out
