"""The batched reading of each reference transition against its per-input reading, on the same inputs.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_reference.py              # 13 vertices (Dyck words of length 24), 4096 inputs
    python benchmarks/bench_reference.py --size 10 --inputs 2048

For every ``Reference`` of the paper's claims (``StepwiseSpec.reference`` with a batched reading), the first
``--inputs`` ordered trees / Dyck words of the size are run, in the same process, by the transition read in
numpy (``Reference.batch``: one batch, best of 3) and read in Python (``Reference(inp)``, one input at a time,
time-boxed to ``--per-input-seconds``). Printed: microseconds per input each way and their ratio. Every figure
is measured, none is stored.

``--against DIR`` also times the claims' batch references (``SPEC.reference_batch`` of each claim module, on the
same words) in a checkout ``DIR`` of an older version, in a subprocess with ``PYTHONPATH=DIR``, and in this one:
the version before references were read from one transition (commit ``d176ceb``) had them vectorised by hand,
so the column *÷ hand* is the batched reading's cost against the hand-written code it replaced (the target is
1.2×). Both columns are measured in the same run::

    git worktree add /tmp/old d176ceb
    python benchmarks/bench_reference.py --against /tmp/old
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from symcot.inputs.batch import TreeBatch, WordBatch, unrank_words

#: ``(reference, claim module, batch kind)``: the claim whose ``SPEC.reference_batch`` reads each reference.
SPECS = [("DFS", "thm_cotdfs", "tree"), ("Strahler fold", "thm_cottreestrahler", "tree"),
         ("Dijkstra", "thm_cotdijkstra", "tree"), ("BFS width", "thm_cotwidoftree", "tree"),
         ("Algorithm 1", "thm_cotpathtotree", "word"), ("fold along w", "thm_cotpathstrahler", "word"),
         ("width along w", "thm_cotwidofpath", "word")]

#: Run in this process and in the older checkout's: µs per input of each claim's ``SPEC.reference_batch``.
SPEC_TIMER = """
import importlib, json, sys, time
from symcot.inputs.batch import tree_batch, word_batch
size, count = int(sys.argv[1]), int(sys.argv[2])
out = {}
for name, mod, kind in json.loads(sys.argv[3]):
    spec = importlib.import_module("proofs.cot_path_to_tree." + mod).SPEC
    make = tree_batch if kind == "tree" else word_batch
    spec.reference_batch(make(size, 0, 8))
    best = float("inf")
    for _ in range(5):
        b = make(size, 0, count)
        t = time.process_time()
        spec.reference_batch(b)
        best = min(best, time.process_time() - t)
    out[name] = 1e6 * best / count
print(json.dumps(out))
"""


def spec_times(size: int, count: int, path: str | None) -> dict[str, float]:
    """µs per input of each claim's batch reference, here (``path=None``) or in the checkout at ``path``."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=path or os.getcwd())
    res = subprocess.run([sys.executable, "-c", SPEC_TIMER, str(size), str(count), json.dumps(SPECS)],
                         capture_output=True, text=True, env=env, cwd=path or os.getcwd(), check=True)
    return dict(json.loads(res.stdout.strip().splitlines()[-1]))


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
    ap.add_argument("--against", default=None, metavar="DIR",
                    help="also time the claims' batch references in the older checkout DIR (module docstring)")
    args = ap.parse_args()
    if args.against:
        here, hand = spec_times(args.size, args.inputs, None), spec_times(args.size, args.inputs, args.against)
        print(f"{args.inputs} inputs of {args.size} vertices; µs per input of SPEC.reference_batch (CPU, best of 5)")
        print(f"{'reference':16s} {'here':>9s} {'in ' + args.against:>16s} {'÷ hand':>7s}")
        for name, _, _ in SPECS:
            print(f"{name:16s} {here[name]:9.2f} {hand[name]:16.2f} {here[name] / hand[name]:6.2f}×")
        print()
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
