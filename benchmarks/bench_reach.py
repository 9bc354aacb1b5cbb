"""Throughput of the ``--reach`` path: whole batches of Dyck words and ordered trees checked in the kernel.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_reach.py                       # sizes 10, 13, 15; 3 batches of 2048 per size
    python benchmarks/bench_reach.py --sizes 10 11 12 13 14 15 --batches 2

For each claim whose reach family comes in batches (the variant ``--reach`` verifies), at each size, on
``--batches`` batches spread over the size's ranks, in one process:

- *checker*: :meth:`BatchedChecker.check_batch <symcot.check.batched_check.BatchedChecker.check_batch>`, the
  whole check of a batch as ``symcot verify --reach`` runs it (batch reference, prompts, the kernel, the
  conclusions, the spot checks);
- *kernel*: :meth:`KernelRun.run <symcot.check.kernel_check.KernelRun.run>` alone, on the batch prepared
  beforehand (best of 3);
- *baseline* (same run, first ``--baseline`` inputs of the first batch): the same inputs checked one by one as
  objects by :meth:`BatchedChecker.check` (reference, prompt and expected table per input, the kernel per
  group), the checker ``--reach`` used before batches; the ratio is *checker ÷ baseline*;
- *naive* (same run, first ``--naive`` inputs of the first batch): naive exact replay, input by input
  (:func:`~symcot.check.stepwise.check_input`: the reference, the prompt and ``generate`` in exact arithmetic,
  every block of every step compared), the guard's yardstick: the ratio *checker ÷ naive* is measured in one
  run, so it does not depend on the machine's load as seconds do. ``--guard R`` exits with status 1 when a
  claim's ratio at some size is below ``R`` (a regression of the batched path).

Throughput is inputs/s and CoT steps/s (CPU time of this process). The kernel's arithmetic rate counts the
int64 operations of its straight-line code (the additions, multiplications, negations and ReLUs of the
generated plain push, one per line of C; the attention's score loops and the comparisons are not counted, so
the rate is a lower bound) times the pushes the rows make (prompt positions a row shares with the row run
before it are not pushed), per second of kernel time. It is compared with a plain C loop of int64
multiply-adds on operands in L1 (8 independent accumulators), compiled with the kernel's flags and timed in
the same run: the rate this machine sustains for that kind of arithmetic. The load averages are printed
before and after. Every figure is measured, none is stored.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_replay import fmt  # noqa: E402

from symcot.check.batched_check import BatchedChecker, kernel_opt  # noqa: E402
from symcot.check.kernel_check import prepare_batch  # noqa: E402
from symcot.check.stepwise import check_input  # noqa: E402
from symcot.inputs.batch import tree_batch, word_batch  # noqa: E402
from symcot.inputs.dyck import catalan  # noqa: E402
from symcot.replay.native import DEFAULT_OPT, compiler, native_available  # noqa: E402

#: ``(proofs module, claim id, batch kind)``: the eight claims ``--reach`` checks on batches.
CLAIMS = [
    ("proofs.cot_path_to_tree.thm_cotdfs", "thm:cotdfs:tree", "tree"),
    ("proofs.cot_path_to_tree.thm_cotdfs_phi", "thm:cotdfs:phi", "tree"),
    ("proofs.cot_path_to_tree.thm_cotdijkstra", "thm:cotdijkstra", "tree"),
    ("proofs.cot_path_to_tree.thm_cotwidoftree", "thm:cotwidoftree", "tree"),
    ("proofs.cot_path_to_tree.thm_cottreestrahler", "thm:cottreestrahler", "tree"),
    ("proofs.cot_path_to_tree.thm_cotpathtotree", "thm:cotpathtotree", "word"),
    ("proofs.cot_path_to_tree.thm_cotwidofpath", "thm:cotwidofpath", "word"),
    ("proofs.cot_path_to_tree.thm_cotpathstrahler", "thm:cotpathstrahler", "word"),
]

LOOP_C = r"""
#include <stdint.h>
/* reps passes of nterm int64 multiply-adds, acc[k % 8] += coef[k] * x[idx[k]]: operands in L1. */
int64_t symcot_loop(const int64_t *x, const int32_t *idx, const int64_t *coef, int64_t nterm, int64_t reps) {
    int64_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int64_t r = 0; r < reps; r++)
        for (int64_t k = 0; k < nterm; k += 8)
            for (int j = 0; j < 8; j++) acc[j] += coef[k + j] * x[idx[k + j]];
    int64_t s = 0;
    for (int j = 0; j < 8; j++) s += acc[j];
    return s;
}
"""


def loop_rate() -> float:
    """Integer operations per second (a multiply and an add each) of :data:`LOOP_C`, compiled like a kernel."""
    import ctypes

    cc = compiler()
    assert cc is not None
    d = tempfile.mkdtemp()
    src, lib = os.path.join(d, "loop.c"), os.path.join(d, "loop.so")
    with open(src, "w") as f:
        f.write(LOOP_C)
    subprocess.run([cc, DEFAULT_OPT, "-shared", "-fPIC", "-o", lib, src], check=True)
    fn = ctypes.CDLL(lib).symcot_loop
    fn.restype = ctypes.c_int64
    p = ctypes.c_void_p
    fn.argtypes = [p, p, p, ctypes.c_int64, ctypes.c_int64]
    rng = np.random.default_rng(0)
    nterm, reps = 4096, 20000
    x = rng.integers(-3, 4, 512).astype(np.int64)
    idx = rng.integers(0, 512, nterm).astype(np.int32)
    coef = rng.integers(-3, 4, nterm).astype(np.int64)
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        fn(x.ctypes.data, idx.ctypes.data, coef.ctypes.data, nterm, reps)
        best = min(best, time.process_time() - t)
    return 2 * nterm * reps / best


def reach_check(mod: str, cid: str) -> Any:
    """The check ``--reach`` verifies: the ``repaired`` variant where there is one, else ``as-written``."""
    claim = next(c for c in importlib.import_module(mod).CLAIMS if c.id == cid)
    checks = [c for c in claim.checks if not getattr(c, "symbolic", False) and hasattr(c, "spec")]
    return next((c for c in checks if c.variant == "repaired"), checks[0])


def straight_line_ops(kernel: Any) -> int:
    """int64 operations in the generated plain push (one per line that adds, multiplies, negates or takes a ReLU)."""
    src = kernel.source
    start = src.find("int push_plain(")
    if start < 0:  # no plain push: the checked one
        start = src.find("int push_checked(")
    body = src[start: src.find("\n}\n", start)]
    ops = 0
    for line in body.splitlines():
        line = line.strip()
        if not line.startswith(("const int64_t v", "int64_t v")) or "cache[" in line or "select_head" in line:
            continue
        if any(tok in line for tok in (" + ", " * ", "= -", "_overflow", " > 0 ?")):
            ops += 1
    return ops


def pushes(kr: Any) -> int:
    """Pushes the kernel makes: every row's steps after the first, and the prompt positions it does not share."""
    idx = kr.index[kr.order]
    same = np.concatenate([np.zeros((1, idx.shape[1]), dtype=bool), idx[1:] == idx[:-1]])
    shared = np.minimum(np.argmin(np.concatenate([same, np.zeros((len(idx), 1), dtype=bool)], axis=1), axis=1),
                        idx.shape[1] - 1)
    return int((idx.shape[1] - shared).sum() + np.maximum(kr.steps - 1, 0).sum())


def bench(mod: str, cid: str, kind: str, size: int, args: argparse.Namespace) -> dict[str, Any]:
    """The figures of one claim at one size."""
    chk = reach_check(mod, cid)
    cons = chk.make() if hasattr(chk, "make") else chk.construction()
    spec = chk.spec
    make = tree_batch if kind == "tree" else word_batch
    total = catalan(size - 1)
    checker = BatchedChecker(cons, spec, args.batch)
    starts = sorted({min(k * total // args.batches, max(total - args.batch, 0)) for k in range(args.batches)})
    batches = [make(size, a, a + args.batch) for a in starts]
    checker.check_batch(make(size, 0, 8))  # the decoder and its kernel, outside the timings
    inputs = steps = 0
    t_check = t_kernel = 0.0
    ops = 0
    for b in batches:
        t = time.process_time()
        out = checker.check_batch(b)
        t_check += time.process_time() - t
        assert out.failure is None and out.exact_rows == 0, f"{cid} n={size}: the benchmark expects passing rows"
        dec = checker._concrete(b.item(0))
        kr = prepare_batch(cons, spec, b, dec, checker.engine(dec).native_kernel(1, kernel_opt(total)))
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            kr.run()
            best = min(best, time.process_time() - t)
        t_kernel += best
        inputs += b.count
        steps += int(kr.steps.sum())
        ops += pushes(kr) * straight_line_ops(kr.kernel)
    base_inputs = [batches[0].item(i) for i in range(min(args.baseline, batches[0].count))]
    base = BatchedChecker(cons, spec, args.batch)
    base.check(base_inputs[:8])
    t = time.process_time()
    res, _ = base.check(base_inputs)
    t_base = time.process_time() - t
    assert all(r is None for r in res)
    naive_inputs = base_inputs[: args.naive]
    check_input(cons, spec, naive_inputs[0])
    t = time.process_time()
    assert all(check_input(cons, spec, inp) is None for inp in naive_inputs)
    t_naive = time.process_time() - t
    return {"naive_inputs": len(naive_inputs) / t_naive,
            "claim": cid, "variant": cons.variant, "n": size, "inputs": inputs, "steps": steps,
            "check_inputs": inputs / t_check, "check_steps": steps / t_check,
            "kernel_inputs": inputs / t_kernel, "kernel_steps": steps / t_kernel,
            "kernel_share": t_kernel / t_check, "base_inputs": len(base_inputs) / t_base,
            "us_check": 1e6 * t_check / inputs, "us_kernel": 1e6 * t_kernel / inputs, "kernel_ops": ops / t_kernel,
            "opt": kernel_opt(total) or DEFAULT_OPT}


def uptime() -> str:
    """The load averages (``/proc/loadavg``)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print Markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 13, 15])
    ap.add_argument("--batches", type=int, default=3, help="batches per size, spread over its ranks (default 3)")
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--baseline", type=int, default=256, help="inputs of the per-input baseline (default 256)")
    ap.add_argument("--claims", nargs="*", default=None, help="claim ids (default: all eight)")
    ap.add_argument("--naive", type=int, default=64, help="inputs of the naive exact replay (default 64)")
    ap.add_argument("--guard", type=float, default=None,
                    help="exit 1 when a claim checks fewer than this many times the naive replay's inputs/s")
    args = ap.parse_args(argv)
    if not native_available():
        print("no working C compiler: the batch path needs the native kernel", file=sys.stderr)
        return 2
    load_before = uptime()
    limit = loop_rate()
    rows = []
    for mod, cid, kind in CLAIMS:
        if args.claims and cid not in args.claims:
            continue
        for size in args.sizes:
            rows.append(bench(mod, cid, kind, size, args))
            print(f"# {cid} n={size} done (load {uptime()})", file=sys.stderr)
    cmd = "python benchmarks/bench_reach.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"Command: `{cmd.strip()}`  ")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy "
          f"{np.__version__}; plain C loop of int64 multiply-adds ({DEFAULT_OPT}): {limit / 1e9:.2f} G ops/s; "
          f"load averages {load_before} before, {uptime()} after  ")
    print()
    head = ["claim", "variant", "n", "inputs", "checker inputs/s", "checker steps/s", "µs/input", "kernel",
            "kernel inputs/s", "kernel steps/s", "kernel µs/input", "kernel share", "per-input baseline inputs/s",
            "ratio", "naive exact replay inputs/s", "÷ naive", "kernel ops/s", "% of the C loop"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [r["claim"], r["variant"], str(r["n"]), fmt(r["inputs"]), fmt(r["check_inputs"]),
                 fmt(r["check_steps"]), f"{r['us_check']:.1f}", r["opt"], fmt(r["kernel_inputs"]),
                 fmt(r["kernel_steps"]),
                 f"{r['us_kernel']:.1f}", f"{100 * r['kernel_share']:.0f}%", fmt(r["base_inputs"]),
                 f"{r['check_inputs'] / r['base_inputs']:.1f}×", fmt(r["naive_inputs"]),
                 f"{r['check_inputs'] / r['naive_inputs']:.0f}×", f"{r['kernel_ops'] / 1e9:.2f} G",
                 f"{100 * r['kernel_ops'] / limit:.0f}%"]
        print("| " + " | ".join(cells) + " |")
    if args.guard is not None:
        low = [r for r in rows if r["check_inputs"] / r["naive_inputs"] < args.guard]
        for r in low:
            print(f"guard: {r['claim']} n={r['n']} checks {r['check_inputs'] / r['naive_inputs']:.0f}× the naive "
                  f"exact replay's inputs/s, below {args.guard:g}×", file=sys.stderr)
        return 1 if low else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
