"""The batched reading of each reference transition against its per-input reading, on the same inputs.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_reference.py              # 13 vertices (Dyck words of length 24), 4096 inputs
    python benchmarks/bench_reference.py --size 10 --inputs 2048

For every ``Reference`` of the paper's claims (``StepwiseSpec.reference`` with a batched reading), the first
``--inputs`` ordered trees / Dyck words of the size are run, in the same process, by the transition read in
numpy (``Reference.batch``: one batch, best of 3) and read in Python (``Reference(inp)``, one input at a time,
time-boxed to ``--per-input-seconds``). Printed: microseconds per input each way and their ratio. Every figure
is measured, none is stored.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from symcot.inputs.batch import TreeBatch, WordBatch, unrank_words


def _best(f: Any, reps: int = 3) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def _per_input(ref: Any, items: list[Any], limit: float) -> float:
    t0, k = time.perf_counter(), 0
    for inp in items:
        ref(inp)
        k += 1
        if time.perf_counter() - t0 > limit:
            break
    return (time.perf_counter() - t0) / k


def main() -> None:
    """Time every reference both ways and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=13, help="vertices (a Dyck word has 2(size - 1) letters)")
    ap.add_argument("--inputs", type=int, default=4096)
    ap.add_argument("--per-input-seconds", type=float, default=5.0)
    args = ap.parse_args()
    from proofs.cot_path_to_tree.algorithms.batched.dfs import DFS_REFERENCE, STRAHLER_REFERENCE
    from proofs.cot_path_to_tree.algorithms.batched.dijkstra import BFS_WIDTH_REFERENCE, DIJKSTRA_REFERENCE
    from proofs.cot_path_to_tree.algorithms.batched.paths import ALG1_REFERENCE, FOLD_REFERENCE, WIDTH_REFERENCE

    words = unrank_words(args.size - 1, 0, args.inputs)
    total = args.inputs
    trees, dyck = TreeBatch(args.size, 0, words, total), WordBatch(args.size, 0, words, total)
    refs = [("DFS", DFS_REFERENCE, trees), ("Strahler fold", STRAHLER_REFERENCE, trees),
            ("Dijkstra", DIJKSTRA_REFERENCE, trees), ("BFS width", BFS_WIDTH_REFERENCE, trees),
            ("Algorithm 1", ALG1_REFERENCE, dyck), ("fold along w", FOLD_REFERENCE, dyck),
            ("width along w", WIDTH_REFERENCE, dyck)]
    print(f"{args.inputs} inputs of {args.size} vertices; µs per input")
    print(f"{'reference':16s} {'batched':>9s} {'per input':>10s} {'ratio':>7s}")
    for name, ref, batch in refs:
        def fresh(b: Any = batch) -> Any:  # a new batch each time: no memo between runs
            return type(b)(b.size, 0, np.array(b.words), b.total)

        batched = _best(lambda r=ref, f=fresh: r.batch(f())) / batch.count
        single = _per_input(ref, [batch.item(i) for i in range(min(batch.count, 2000))], args.per_input_seconds)
        print(f"{name:16s} {batched * 1e6:9.1f} {single * 1e6:10.1f} {single / batched:6.1f}×")


if __name__ == "__main__":
    main()
