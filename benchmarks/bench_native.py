"""Native (generated C) batched replay against the numpy batched engine and per-input exact replay.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_native.py              # n = 10, 4096 inputs per construction
    python benchmarks/bench_native.py --size 8 --inputs 1024

For each :class:`~symcot.claims.ConstructionCheck` in ``proofs/`` (found and sampled as in
``benchmarks/bench_replay.py``: ``--inputs`` inputs of size ``--size`` drawn uniformly by rank), in the same
process and on one core:

- *per-input*: :func:`symcot.model.semantics.generate`, one input at a time, for the reference's number of
  steps (time-boxed to ``--per-input-seconds``); its outputs are kept to check the native ones;
- *batched*: :meth:`symcot.replay.batched.BatchedDecoder.run` with ``native=False`` (the numpy engine) on all
  inputs (best of ``--reps``);
- *native*: :class:`symcot.replay.native.NativeDecoder`: prompt conversion (``BatchedDecoder.tokens``) and
  the kernel, end to end from the prompts (best of ``--reps``); the compile time is measured with an empty
  kernel cache (a fresh temporary ``SYMCOT_CACHE``) unless ``--keep-cache``.

Throughput is (inputs × CoT steps)/s. The native outputs of every input the per-input replay ran are
compared with it exactly ("checked" column). Every figure is measured, none is stored.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_replay import Workload, best_of, fmt, load_checks  # noqa: E402

from symcot.check.pool import limit_blas_threads  # noqa: E402
from symcot.claims import ConstructionCheck  # noqa: E402
from symcot.replay.batched import BatchedDecoder  # noqa: E402
from symcot.replay.native import (  # noqa: E402
    DEFAULT_OPT,
    NativeDecoder,
    compiler,
    index_prompts,
    native_available,
)


def exact_rows(outs: np.ndarray, scale: int) -> list[list[Any]]:
    """``(T, d)`` int64 outputs at ``scale`` as lists of exact numbers (``Fraction`` where not integral)."""
    if scale == 1:
        return outs.tolist()
    return [[(f.numerator if f.denominator == 1 else f) for f in (Fraction(v, scale) for v in row)]
            for row in outs.tolist()]


Outputs = dict[tuple[int, int], tuple[np.ndarray, np.ndarray, int]]


def _exactness(groups: dict[tuple[int, int], list[int]], totals: list[int], exact: list[Any], results: Outputs,
               indexed: Outputs) -> tuple[int, dict[int, int]]:
    """Inputs on which either entry point differs from per-input exact replay (those it ran); the status counts."""
    where = {i: (key, r) for key, idx in groups.items() for r, i in enumerate(idx)}
    status_counts: dict[int, int] = {}
    for _, status, _ in results.values():
        for s in status.tolist():
            status_counts[s] = status_counts.get(s, 0) + 1
    bad = 0
    for i, want in enumerate(exact):
        key, r = where[i]
        for res in (results, indexed):
            outs, status, s_out = res[key]
            if status[r] != 0 or exact_rows(outs[r, :totals[i]], s_out) != want:
                bad += 1
                break
    return bad, status_counts


def bench(cid: str, chk: ConstructionCheck, args: argparse.Namespace) -> dict[str, Any] | None:
    """All figures of one construction check."""
    w = Workload.sampled(chk, args)
    if w is None:
        return None
    fam_name, inputs, cons = w.family, w.inputs, w.cons
    totals, decs, prompts, groups, steps = w.totals, w.decs, w.prompts, w.groups, w.steps
    # per-input exact replay (time-boxed); outputs kept for the native check
    per_input, done, exact = w.per_input(args.per_input_seconds, keep=True)
    engines = {key: BatchedDecoder(decs[idx[0]]) for key, idx in groups.items()}

    def run_batched() -> None:
        for key, idx in groups.items():
            engines[key].run([prompts[i] for i in idx], [totals[i] for i in idx], native=False)

    t_batched, _ = best_of(run_batched, args.reps)
    # native: compile (cold cache), then end-to-end runs
    compile_s = 0.0
    natives: dict[tuple[int, int], NativeDecoder] = {}
    for key, idx in groups.items():
        toks, scale = engines[key].tokens([prompts[i] for i in idx[:1]])
        t = time.perf_counter()
        natives[key] = NativeDecoder(engines[key].scaled(scale), opt=args.opt)
        compile_s += time.perf_counter() - t
    results: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, int]] = {}

    def run_native() -> None:
        for key, idx in groups.items():
            toks, scale = engines[key].tokens([prompts[i] for i in idx])
            nd = natives[key]
            if nd.sd.s_token != scale:
                nd = natives[key] = NativeDecoder(engines[key].scaled(scale), opt=args.opt)
            outs, status = nd.run(toks, np.array([totals[i] for i in idx], dtype=np.int64))
            results[key] = (outs, status, nd.sd.s_out)

    t_native, _ = best_of(run_native, args.reps)
    indexed: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, int]] = {}

    def run_indexed() -> None:
        for key, idx in groups.items():
            table, index, scale = index_prompts([prompts[i] for i in idx])
            nd = natives[key]
            if nd.sd.s_token != scale:
                nd = natives[key] = NativeDecoder(engines[key].scaled(scale), opt=args.opt)
            outs, status = nd.run_indexed(table, index, np.array([totals[i] for i in idx], dtype=np.int64))
            indexed[key] = (outs, status, nd.sd.s_out)

    t_indexed, _ = best_of(run_indexed, args.reps)
    # kernel only (prompt conversion excluded)
    conv = {key: engines[key].tokens([prompts[i] for i in idx])[0] for key, idx in groups.items()}
    t_kernel, _ = best_of(lambda: [natives[key].run(conv[key], np.array([totals[i] for i in idx], dtype=np.int64))
                                   for key, idx in groups.items()], args.reps)
    bad, status_counts = _exactness(groups, totals, exact[:done], results, indexed)
    return {
        "claim": cid, "variant": cons.variant, "family": fam_name, "size": args.size, "inputs": len(inputs),
        "steps": steps, "d": decs[0].layout.dim, "per_input": per_input, "batched": steps / t_batched,
        "native": steps / t_native, "indexed": steps / t_indexed, "kernel": steps / t_kernel, "compile": compile_s,
        "checked": done, "bad": bad,
        "status": status_counts,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10, help="input size n (default 10)")
    ap.add_argument("--inputs", type=int, default=4096, help="inputs per construction (default 4096)")
    ap.add_argument("--reps", type=int, default=3, help="timed runs of the batched and native engines (best of)")
    ap.add_argument("--per-input-seconds", type=float, default=5.0, help="time box of the per-input replay")
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--opt", default=DEFAULT_OPT, help=f"optimisation flag of the kernels (default {DEFAULT_OPT})")
    ap.add_argument("--keep-cache", action="store_true", help="use the usual kernel cache (compile time may be 0)")
    ap.add_argument("--only", default="", help="only claims whose id contains this")
    ap.add_argument("--proofs", default=str(ROOT / "proofs" / "cot_path_to_tree"))
    args = ap.parse_args(argv)
    limit_blas_threads(1)
    if not native_available():
        print("no working C compiler: the native kernel is unavailable", file=sys.stderr)
        return 1
    tmp = None
    if not args.keep_cache:
        tmp = tempfile.TemporaryDirectory(prefix="symcot-bench-native-")
        os.environ["SYMCOT_CACHE"] = tmp.name
    checks, skipped = load_checks(Path(args.proofs))
    rows = []
    for cid, chk in checks:
        if args.only not in cid:
            continue
        r = bench(cid, chk, args)
        if r is not None:
            rows.append(r)
            print(f"# {r['claim']} [{r['variant']}] done", file=sys.stderr)
    cc = compiler() or "?"
    ver = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    cmd = "python benchmarks/bench_native.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"Command: `{cmd.strip()}`  ")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}; compiler {' '.join(ver) or cc} {args.opt}  ")
    if skipped:
        print(f"Skipped proofs modules that did not import: {'; '.join(skipped)}  ")
    print()
    head = ["claim", "variant", "n", "d", "inputs", "steps", "per-input", "batched", "native run", "native indexed",
            "kernel only", "batched ÷ per-input", "native run ÷ per-input", "native indexed ÷ per-input",
            "kernel ÷ per-input", "indexed ÷ batched", "compile s", "checked exact", "status"]
    print("Rates in (inputs × CoT steps)/s. *native run*: `BatchedDecoder.tokens` + `NativeDecoder.run`; *native "
          "indexed*: `index_prompts` + `NativeDecoder.run_indexed`; *kernel only*: `run` on converted tokens.")
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        pi = r["per_input"]
        cells = [r["claim"], r["variant"], str(r["size"]), str(r["d"]), str(r["inputs"]), fmt(r["steps"]),
                 fmt(pi), fmt(r["batched"]), fmt(r["native"]), fmt(r["indexed"]), fmt(r["kernel"]),
                 f"{r['batched'] / pi:.1f}×", f"{r['native'] / pi:.0f}×", f"{r['indexed'] / pi:.0f}×",
                 f"{r['kernel'] / pi:.0f}×", f"{r['indexed'] / r['batched']:.1f}×", f"{r['compile']:.2f}",
                 f"{r['checked'] - r['bad']}/{r['checked']}",
                 ", ".join(f"{k}: {v}" for k, v in sorted(r["status"].items()))]
        print("| " + " | ".join(cells) + " |")
    if tmp is not None:
        tmp.cleanup()
    return 0 if all(r["bad"] == 0 for r in rows) else 2


if __name__ == "__main__":
    raise SystemExit(main())
