"""thm:cotdijkstra (Appendix "Dijkstra Algorithm"), and the smallest λ that makes it work.

Claimed:
    *thm:cotdijkstra* -- "A two-layer, single-head Transformer decoder can simulate the Dijkstra
    algorithm Dkst on any simple connected directed graph G = (V, E, A) with A = R_{>0} in exactly
    |V| - 1 chain-of-thought steps."

Checked:
    The proof's construction (:mod:`symcot.constructions.cotdijkstra`) is replayed exactly. After every
    CoT step ``t = 1 .. n-1`` the blocks ``cur``, ``vis``, ``dis`` and ``crd`` of ``y_t`` must equal
    ``enc(Dkst^(t))`` (``∞ ↦ λ``) of the reference dynamic of Section 2.1
    (:mod:`symcot.algorithms.dijkstra`); ``y_0`` is compared on ``cur``, ``vis``, ``crd``; the halting
    criterion ``π_vis = 1^n`` must fire at ``t = n - 1`` exactly. Size accounting: ``d = 5n + 1``, two
    layers, one head. Variants: ``as-written`` (a non-arc is 0 in ``A_{i,:}``) and ``repaired`` (a
    non-arc is λ, ``a_ii = 0``), each at the rule ``λ = 1 + (n-1)·max weight``.

    Each row's ``details`` then reports the smallest integer λ that works for every input of each
    (family, size) group: λ = 1, 2, … is tried on the whole group (inputs that failed at a smaller λ
    first), and the first λ that passes must also pass at the next ``CONFIRM`` values. It is compared
    with ``⌊D*⌋ + 1``, ``D*`` the largest finite tentative distance of the group, and for the
    exhaustive weight families with ``(n - 1)·W + 1``.

Inputs (connected = every vertex reachable from the source): every such digraph with every weight
assignment from {1, 2, 3} and every source (n ≤ 3: 62,816,256 inputs at n = 4 are out of reach); every
such digraph with BFS weights and every source (n ≤ 4); every labeled tree with every root, BFS
weights (n ≤ 6); 12 seeded random digraphs with exact rational weights at each n = 4..10.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from symcot.algorithms.dijkstra import INF, dijkstra_dynamic, state_text
from symcot.check.batched_check import run_batched_check
from symcot.check.exhaustive import Family, Progress, run_construction_check
from symcot.check.stepwise import StepwiseSpec, check_input
from symcot.check.symbolic_check import SymbolicCheck
from symcot.check.verdict import Verdict
from symcot.claims import Claim
from symcot.constructions.base import Construction
from symcot.constructions.cotdijkstra import (
    PAPER_D,
    DijkstraConstruction,
    FixedLambda,
    Inp,
    Number,
    expected_blocks,
    expected_table,
    is_terminal,
    lambda_rule,
)
from symcot.inputs import rooted_labeled_trees
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.inputs.weighted import (
    connected_count,
    connected_digraphs_with_sources,
    describe,
    random_weighted_digraph,
    weighted_digraphs_with_sources,
)
from symcot.replay.symbolic_targets import DijkstraTarget

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 1}
#: How many λ values above the smallest one must also pass.
CONFIRM = 3
#: A λ-scan pass over at least this many inputs is split over processes (``--jobs``).
PARALLEL_MIN = 2_000


def make_spec(lam_of: Callable[[Inp], Number] = lambda_rule) -> StepwiseSpec:
    """Compare ``y_t`` with ``enc(Dkst^(t))`` under the encoding ``∞ ↦ lam_of(input)``."""
    return StepwiseSpec(
        reference=lambda inp: dijkstra_dynamic(*inp),
        expected=lambda inp, st, t: expected_blocks(st, t, lam_of(inp), inp[0].n),
        expected_table=lambda inp, states: expected_table(states, lam_of(inp), inp[0].n),
        terminal=is_terminal,
        state_text=state_text,
    )


SPEC = make_spec()


def _random_inputs(size: int, per_size: int = 12) -> list[Inp]:
    rng = random.Random(20261126 + size)
    return [random_weighted_digraph(size, rng, p=[0.15, 0.3, 0.5][k % 3]) for k in range(per_size)]


WEIGHTED = Family("connected digraphs × weights {1,2,3} × every source", weighted_digraphs_with_sources,
                  lambda k: connected_count(k, 3), describe, max_size=3)
UNIT = Family("connected digraphs × every source, BFS weights", connected_digraphs_with_sources,
              lambda k: connected_count(k, 1), describe, max_size=4)
TREES = Family("labeled trees × every root, BFS weights", rooted_labeled_trees, lambda k: k ** (k - 1), describe,
               max_size=6)
RANDOM = Family("seeded random digraphs, rational weights (12 per size)", _random_inputs, lambda k: 12, describe,
                min_size=4, exhaustive=False, max_size=10)
#: Scanned for λ only (the growth in the weight bound W): weights {1, 2}.
WEIGHTS12 = Family("connected digraphs × weights {1,2} × every source",
                   lambda k: weighted_digraphs_with_sources(k, (1, 2)), lambda k: connected_count(k, 2), describe,
                   max_size=3)

#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED = ordered_rooted_tree_family(describe, ", BFS weights")

FAMILY_W = {WEIGHTED.name: 3, UNIT.name: 1, TREES.name: 1, WEIGHTS12.name: 2, ORDERED.name: 1}


def _scan_slice(cons: Construction, spec: StepwiseSpec, inputs: list[Any], lo: int, hi: int, out: Any) -> None:
    try:
        for i in range(lo, hi):
            if check_input(cons, spec, inputs[i]) is not None:
                out.put(i)
                return
        out.put(None)
    except Exception as e:  # noqa: BLE001 - reported to the parent, which raises it
        out.put(f"{type(e).__name__}: {e}")


def _first_failure(cons: Construction, spec: StepwiseSpec, inputs: list[Any], jobs: int = 1) -> Any:
    """The first input (in order) on which ``cons`` departs from ``spec``; ``None`` if there is none.

    With ``jobs > 1`` a long list is split into contiguous slices checked by forked processes (nothing
    is pickled but slice indices); the answer is the same as in one process.
    """
    if jobs > 1 and len(inputs) >= PARALLEL_MIN and "fork" in mp.get_all_start_methods():
        ctx = mp.get_context("fork")
        out = ctx.Queue()
        step = -(-len(inputs) // jobs)
        procs = [ctx.Process(target=_scan_slice, args=(cons, spec, inputs, lo, min(lo + step, len(inputs)), out))
                 for lo in range(0, len(inputs), step)]
        for p in procs:
            p.start()
        found = [out.get() for _ in procs]
        for p in procs:
            p.join()
        errors = [x for x in found if isinstance(x, str)]
        if errors:
            raise RuntimeError(f"λ-scan worker failed: {errors[0]}")
        bad = [i for i in found if i is not None]
        return inputs[min(bad)] if bad else None
    for inp in inputs:
        if check_input(cons, spec, inp) is not None:
            return inp
    return None


def largest_finite_distance(inputs: Iterable[Inp]) -> Number:
    """``D*``: the largest finite entry of any ``Dist^(t)`` over the inputs (0 if none)."""
    best: Number = 0
    for g, s in inputs:
        for st in dijkstra_dynamic(g, s):
            for d in st.dist:
                if d is not INF and d > best:
                    best = d
    return best


def smallest_lambda(make: Callable[[Callable[[Inp], Number]], Construction], inputs: list[Inp], limit: int,
                    confirm: int = CONFIRM, jobs: int = 1) -> dict[str, Any]:
    """The smallest integer λ in ``1..limit`` that passes every input and the next ``confirm`` values.

    Returns ``{"smallest": λ or None, "confirmed": [...], "not_upward_closed": [...], "limit": limit}``;
    ``not_upward_closed`` lists λ that passed every input while a larger λ within ``confirm`` failed.
    """
    hard: list[int] = []  # indices of inputs that failed at some smaller λ: tried first
    skipped: list[int] = []
    for value in range(1, limit + 1):
        cons, spec = make(FixedLambda(value)), make_spec(FixedLambda(value))
        bad = _first_failure(cons, spec, [inputs[i] for i in hard])  # earlier failures first
        if bad is None:
            bad = _first_failure(cons, spec, inputs, jobs)
        if bad is not None:
            idx = inputs.index(bad)
            if idx not in hard:
                hard.append(idx)
            continue
        later = [value + k for k in range(1, confirm + 1)]
        failed = [v for v in later
                  if _first_failure(make(FixedLambda(v)), make_spec(FixedLambda(v)), inputs, jobs) is not None]
        if not failed:
            return {"smallest": value, "confirmed": later, "not_upward_closed": skipped, "limit": limit}
        skipped.append(value)
    return {"smallest": None, "confirmed": [], "not_upward_closed": skipped, "limit": limit}


@dataclass
class LambdaScanCheck:
    """The exact-replay check at the λ rule, then a smallest-λ scan per (family, size) in ``details``.

    ``make(lam_of)`` builds the variant's construction with a given λ rule. ``scan_only`` families are
    scanned for λ but not part of the verdict.
    """

    variant: str
    make: Callable[[Callable[[Inp], Number]], Construction]
    families: list[Family]
    scan_only: list[Family] = field(default_factory=list)
    paper_sizes: dict[str, Any] = field(default_factory=lambda: dict(PAPER_SIZES))
    method: str = "exhaustive exact replay, every CoT step; smallest-λ scan"

    @property
    def spec(self) -> StepwiseSpec:
        """The comparison at the λ rule (used by ``symcot replay``)."""
        return SPEC

    def construction(self) -> Construction:
        """The variant at the λ rule (used by ``symcot replay``)."""
        return self.make(lambda_rule)

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1, engine: str = "exact",
            reach: int | None = None) -> Verdict:
        """The verdict at the λ rule; ``details`` gets the scan.

        ``engine`` picks exact or batched replay for the verdict; ``reach`` takes the ordered trees further.
        The λ scan stays at ``max_size``.
        """
        start = time.perf_counter()
        progress = progress or Progress(False)
        if engine == "batched":
            row = run_batched_check(claim_id, self.make(lambda_rule), SPEC, self.families, max_size, self.paper_sizes,
                                    progress=progress, method=f"{self.method} [batched engine]", jobs=jobs,
                                    reach=reach)
        elif engine == "exact":
            row = run_construction_check(claim_id, self.make(lambda_rule), SPEC, self.families, max_size,
                                         self.paper_sizes, progress=progress, method=self.method, jobs=jobs,
                                         reach=reach)
        else:
            raise ValueError(f"unknown engine {engine!r}")
        if row.verdict == "error":
            return row
        groups = []
        for fam in [*self.families, *self.scan_only]:
            top = fam.max_size if not fam.exhaustive else min(max_size, fam.max_size or max_size)
            for size in range(fam.min_size, (top or 0) + 1):
                inputs = list(fam.inputs(size))
                d_star = largest_finite_distance(inputs)
                limit = 2 * (int(d_star // 1) + 1) + 1
                with progress.bar(1, f"{claim_id}/{self.variant} λ-scan {fam.name} n={size}") as bar:
                    res = smallest_lambda(self.make, inputs, limit, jobs=jobs)
                    bar.update(1)
                entry: dict[str, Any] = {"family": fam.name, "n": size, "inputs": len(inputs), **res,
                                         "largest_finite_distance": d_star,
                                         "floor_D_plus_1": int(d_star // 1) + 1}
                if fam.name in FAMILY_W and size >= 2:
                    entry["W"] = FAMILY_W[fam.name]
                    entry["(n-1)W+1"] = (size - 1) * FAMILY_W[fam.name] + 1
                groups.append(entry)
        found = [g for g in groups if g["smallest"] is not None]
        row.details = {
            "lambda_rule": "λ = 1 + (n-1)·max arc weight, per input (what the proof needs: λ above every "
                           "tentative distance)",
            "scan": f"integer λ = 1, 2, … up to 2(⌊D*⌋ + 1) + 1 per group (D*: the group's largest finite "
                    f"tentative distance); the first λ passing every input must also pass the next {CONFIRM} values",
            "smallest_lambda": groups,
            "smallest_equals_floor_D_plus_1": all(g["smallest"] == g["floor_D_plus_1"] for g in found) if found
            else None,
            "smallest_equals_(n-1)W+1": all(g["smallest"] == g["(n-1)W+1"] for g in found if "(n-1)W+1" in g)
            if any("(n-1)W+1" in g for g in found) else None,
            "groups_without_working_lambda": [f"{g['family']} n={g['n']} (none in 1..{g['limit']})"
                                              for g in groups if g["smallest"] is None],
        }
        row.seconds = time.perf_counter() - start
        return row


def _as_written(lam_of: Callable[[Inp], Number]) -> Construction:
    return DijkstraConstruction("as-written", lam_of=lam_of)


def _repaired(lam_of: Callable[[Inp], Number]) -> Construction:
    return DijkstraConstruction("repaired", lam_of=lam_of)


FAMILIES = [WEIGHTED, UNIT, TREES, ORDERED, RANDOM]

CLAIMS = [
    Claim(
        id="thm:cotdijkstra",
        kind="theorem",
        statement="A two-layer, single-head decoder simulates Dkst on any simple connected digraph with "
                  "A = R_{>0} in exactly |V| - 1 CoT steps.",
        where="Section 4.1; proof in Appendix Dijkstra Algorithm (app:cotdij)",
        checks=[LambdaScanCheck("as-written", _as_written, FAMILIES, [WEIGHTS12]),
                LambdaScanCheck("repaired", _repaired, FAMILIES, [WEIGHTS12]),
                SymbolicCheck("as-written", DijkstraTarget("as-written"), default_size=3, claim_default=6),
                SymbolicCheck("repaired", DijkstraTarget("repaired"), default_size=3, claim_default=6)],
        default_max_size=6,
        notes=["Connected = every vertex reachable from the source. Family caps: weights {1,2,3} to n = 3, "
               "BFS weights to n = 4, trees to n = 6; max_size is the largest size every exhaustive family "
               "reached, so the {1,2,3} cap bounds it."],
    ),
]
