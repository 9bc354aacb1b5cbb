"""Batched exact replay against per-input exact replay, for every construction the proofs declare.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_replay.py              # n = 10, 4096 inputs per construction
    python benchmarks/bench_replay.py --size 8 --inputs 2048 --jobs 2

For each :class:`~symcot.claims.ConstructionCheck` (found through ``symcot.registry.load_claims``) and
its first family with a ranked enumeration, ``--inputs`` inputs of size ``--size`` are drawn uniformly by
rank (seeded), and, in the same process:

- *per-input*: :func:`symcot.model.semantics.generate`, one input at a time, for the reference's number
  of steps (the exact replay the checker uses; time-boxed to ``--per-input-seconds``);
- *numpy batched*: :meth:`symcot.replay.batched.BatchedDecoder.run` with ``native=False`` (the numpy
  engine alone) on all of them at once (best of 3 runs);
- *batched (native)*: ``BatchedDecoder.run`` as the checker calls it, from the prompt lists: the compiled
  kernel of :mod:`symcot.replay.native` where a C compiler works (compiled before the timing);
- *native, all cores*: the same split over ``--jobs`` forked processes (when ``--jobs > 1``);
- *checker*: :func:`symcot.check.stepwise.check_input` per input against
  :class:`symcot.check.batched_check.BatchedChecker` (reference, encoding and comparisons included).

Throughput is (inputs × CoT steps)/s. The arithmetic rate counts the operations the polynomial maps and
the scores need (2 per constant or linear term, 3 per quadratic term, 2 per score term ``K_i·Q_i``,
1 per ReLU), divided by the native run's time, and is compared with a float64 and a float32 matrix
multiply (``numpy`` BLAS, 2·N³ flops) timed in the same run. Every figure is measured, none is stored.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symcot.check.batched_check import BatchedChecker  # noqa: E402
from symcot.check.pool import limit_blas_threads  # noqa: E402
from symcot.check.shard import range_function  # noqa: E402
from symcot.check.stepwise import check_input  # noqa: E402
from symcot.claims import ConstructionCheck  # noqa: E402
from symcot.model.decoder import ConcreteDecoder  # noqa: E402
from symcot.model.semantics import generate  # noqa: E402
from symcot.replay.batched import BatchedDecoder  # noqa: E402


def load_checks(proofs: Path) -> tuple[list[tuple[str, ConstructionCheck]], list[str]]:
    """Every ``(claim id, ConstructionCheck)`` of the proofs directory (see :func:`symcot.registry.discover`)."""
    from symcot.registry import claims_of, discover, import_modules

    out: list[tuple[str, ConstructionCheck]] = []
    for c in claims_of(import_modules(discover(proofs))).values():
        for chk in c.checks:
            if isinstance(chk, ConstructionCheck):
                out.append((c.id, chk))
    return out, []


def sample(chk: ConstructionCheck, size: int, k: int, seed: int) -> tuple[str, list[Any]] | None:
    """``k`` inputs of ``size`` drawn uniformly by rank from the first family with a ranked enumeration."""
    rng = random.Random(seed)
    for fam in chk.families:
        rf = range_function(fam)
        if rf is None or not fam.exhaustive or size < fam.min_size:
            continue
        total = fam.count(size)
        ranks = sorted(rng.randrange(total) for _ in range(k)) if total > k else list(range(total))
        return fam.name, [next(iter(rf(size, r, r + 1))) for r in ranks]
    return None


def map_ops(m: Any) -> int:
    """Arithmetic operations of one polynomial map: 2 per constant/linear term, 3 per quadratic term."""
    return 2 * (len(m.const) + len(m.lin)) + 3 * len(m.quad)


def push_ops(dec: ConcreteDecoder, position: int) -> int:
    """Operations of one token's pass at ``position`` (0-based): maps, scores over ``position + 1`` keys, ReLU."""
    ops = 0
    for lay in dec.layers:
        if lay.attention is not None:
            for h in lay.attention.heads:
                ops += map_ops(h.query) + map_ops(h.key) + map_ops(h.value) + 2 * (position + 1) * h.key.d_out
            ops += map_ops(lay.attention.out) + dec.layout.dim  # W_O and the residual
        ops += map_ops(lay.ffn.w1) + lay.ffn.w1.d_out + map_ops(lay.ffn.w2)
    return ops


def matmul_rate(dtype: Any, n: int = 1024, reps: int = 5) -> float:
    """Flops per second of an ``n×n`` matrix multiply (best of ``reps``)."""
    a = np.ones((n, n), dtype=dtype)
    b = np.ones((n, n), dtype=dtype)
    a @ b
    best = math.inf
    for _ in range(reps):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2 * n**3 / best


def best_of(f: Callable[[], Any], reps: int = 3) -> tuple[float, Any]:
    """The shortest of ``reps`` timings and the last result."""
    best, out = math.inf, None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


_JOB: Callable[[], Any] | None = None


def _run_job(i: int) -> float:
    assert _JOB is not None
    limit_blas_threads(1)
    t = time.perf_counter()
    _JOB(i)  # type: ignore[call-arg]
    return time.perf_counter() - t


def parallel_time(job: Callable[[int], Any], jobs: int) -> float:
    """Wall time of ``job(0) … job(jobs-1)`` in ``jobs`` forked processes at once."""
    global _JOB
    _JOB = job  # type: ignore[assignment]
    with mp.get_context("fork").Pool(jobs) as pool:
        pool.map(_run_job, range(jobs))  # warm up (forking, first-touch)
        t = time.perf_counter()
        pool.map(_run_job, range(jobs))
        return time.perf_counter() - t


class Workload:
    """The sampled inputs of one construction check, encoded, with their step counts (shared by the benchmarks).

    Attributes:
        family: the family sampled; inputs, totals (CoT steps per input), decs and prompts per input;
        groups: input indices by (decoder, prompt length), the batches an engine can run together;
        steps: the total number of CoT steps.

    """

    def __init__(self, chk: ConstructionCheck, family: str, inputs: list[Any]):
        self.family, self.inputs = family, inputs
        self.cons = chk.construction()
        self.spec = chk.spec
        self.totals = [len(self.spec.reference(inp)) - 1 for inp in inputs]
        self.decs = [self.cons.concrete(inp) for inp in inputs]
        self.prompts = [self.cons.prompt(inp).tokens for inp in inputs]
        self.groups: dict[tuple[int, int], list[int]] = {}
        for i, (d, p) in enumerate(zip(self.decs, self.prompts)):
            self.groups.setdefault((id(d), len(p)), []).append(i)
        self.steps = sum(self.totals)

    @classmethod
    def sampled(cls, chk: ConstructionCheck, args: argparse.Namespace) -> Workload | None:
        """``args.inputs`` inputs of size ``args.size`` (``None`` when the check has no ranked family)."""
        got = sample(chk, args.size, args.inputs, args.seed)
        return None if got is None else cls(chk, *got)

    def per_input(self, seconds: float, keep: bool = False) -> tuple[float, int, list[Any]]:
        """Per-input exact replay (``generate``), time-boxed: ``(steps/s, inputs done, outputs if keep)``."""
        t0 = time.perf_counter()
        done_steps = done = 0
        outs: list[Any] = []
        while done < len(self.inputs) and (time.perf_counter() - t0 < seconds or done < 20):
            gen = generate(self.decs[done], self.prompts[done], self.totals[done])
            if keep:
                outs.append(gen.outputs)
            done_steps += self.totals[done]
            done += 1
        return done_steps / (time.perf_counter() - t0), done, outs


def bench(cid: str, chk: ConstructionCheck, args: argparse.Namespace) -> dict[str, Any] | None:
    """All figures of one construction check."""
    w = Workload.sampled(chk, args)
    if w is None:
        return None
    fam_name, inputs, cons, spec = w.family, w.inputs, w.cons, w.spec
    totals, decs, prompts, groups, steps = w.totals, w.decs, w.prompts, w.groups, w.steps
    per_input, done, _ = w.per_input(args.per_input_seconds)
    # batched engine, one process
    engines = {key: BatchedDecoder(decs[idx[0]]) for key, idx in groups.items()}
    certs: list[Any] = []

    def run_all(part: int = 0, parts: int = 1, native: bool | None = False) -> None:
        certs.clear()
        for key, idx in groups.items():
            sub = idx[part::parts]
            if sub:
                r = engines[key].run([prompts[i] for i in sub], [totals[i] for i in sub], native=native)
                certs.append(r.certificate)

    t_batched, _ = best_of(run_all)  # the numpy engine
    batched = steps / t_batched
    cert = certs[0]
    # BatchedDecoder.run as the checker calls it: the compiled kernel where a C compiler works
    for eng in engines.values():  # compile (or load) the kernels outside the timing
        eng.native_kernel(1)
    t_native, _ = best_of(lambda: run_all(native=None))
    native_cert = certs[0]
    # arithmetic rate of the batched run: exact operation counts of every pass of every input
    ops_total = 0
    for idx in groups.values():
        d = decs[idx[0]]
        n_push = [len(prompts[i]) + max(totals[i] - 1, 0) for i in idx]
        cum = np.cumsum([0] + [push_ops(d, p) for p in range(max(n_push))])
        ops_total += int(sum(cum[k] for k in n_push))
    rate = ops_total / t_native
    out: dict[str, Any] = {
        "claim": cid, "variant": cons.variant, "family": fam_name, "size": args.size, "inputs": len(inputs),
        "steps": steps, "per_input": per_input, "batched": batched, "ratio": batched / per_input,
        "native": steps / t_native, "native_ratio": steps / t_native / per_input, "native_mode": native_cert.mode,
        "path": cert.path, "mode": cert.mode, "bound": cert.as_dict()["bound"], "ops_per_s": rate,
        "d": decs[0].layout.dim,
    }
    if args.jobs > 1:
        t_par = parallel_time(lambda i: run_all(i, args.jobs, None), args.jobs)
        out["batched_jobs"] = steps / t_par
        out["ratio_jobs"] = out["batched_jobs"] / per_input
    # checkers, end to end (reference, encoding, comparisons included); a refuted sample stops the
    # batched checker at its first failure, so both are timed on the inputs up to it
    checker = BatchedChecker(chk.construction(), spec, batch=args.batch)
    t_chk, res = best_of(lambda: checker.check(inputs), 1)
    n_chk = len(res[0])
    out["sample_passes"] = res[1] is None and all(r is None for r in res[0])
    k = min(n_chk, max(20, done))
    t0 = time.perf_counter()
    for inp in inputs[:k]:
        check_input(cons, spec, inp)
    out["check_exact"] = sum(totals[:k]) / (time.perf_counter() - t0)
    out["check_batched"] = sum(totals[:n_chk]) / t_chk
    out["check_ratio"] = out["check_batched"] / out["check_exact"]
    return out


def fmt(x: float) -> str:
    """A rate with thousands separators."""
    return f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10, help="input size n (default 10)")
    ap.add_argument("--inputs", type=int, default=4096, help="inputs per construction (default 4096)")
    ap.add_argument("--batch", type=int, default=2048, help="batch of the batched checker (default 2048)")
    ap.add_argument("--jobs", type=int, default=1, help="also time the batched engine on this many processes")
    ap.add_argument("--per-input-seconds", type=float, default=5.0, help="time box of the per-input replay")
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--proofs", default=str(ROOT / "proofs" / "cot_path_to_tree"))
    ap.add_argument("--blas-threads", type=int, default=1, help="OpenBLAS threads (default 1: one core)")
    args = ap.parse_args(argv)
    if args.blas_threads:
        limit_blas_threads(args.blas_threads)
    checks, skipped = load_checks(Path(args.proofs))
    mm64, mm32 = matmul_rate(np.float64), matmul_rate(np.float32)
    rows = []
    for cid, chk in checks:
        r = bench(cid, chk, args)
        if r is not None:
            rows.append(r)
            print(f"# {r['claim']} [{r['variant']}] done", file=sys.stderr)
    cmd = "python benchmarks/bench_replay.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"Command: `{cmd.strip()}`  ")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}; matmul 1024³: float64 {mm64 / 1e9:.1f} GFLOP/s, "
          f"float32 {mm32 / 1e9:.1f} GFLOP/s (same run)  ")
    if skipped:
        print(f"Skipped proofs modules that did not import: {'; '.join(skipped)}  ")
    print()
    head = ["claim", "variant", "family", "n", "inputs", "steps", "per-input steps/s", "numpy batched steps/s",
            "ratio", "batched (native) steps/s", "ratio"]
    if args.jobs > 1:
        head += [f"native ×{args.jobs} procs", f"ratio ×{args.jobs}"]
    head += ["numpy path (bound)", "native ops/s", "% of float64 matmul", "% of float32 matmul",
             "check_input steps/s", "batched checker steps/s", "checker ratio"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [r["claim"], r["variant"], r["family"], str(r["size"]), str(r["inputs"]), fmt(r["steps"]),
                 fmt(r["per_input"]), fmt(r["batched"]), f"{r['ratio']:.1f}×",
                 fmt(r["native"]) + ("" if r["native_mode"] == "native-checked" else " (no kernel)"),
                 f"{r['native_ratio']:.1f}×"]
        if args.jobs > 1:
            cells += [fmt(r["batched_jobs"]), f"{r['ratio_jobs']:.1f}×"]
        cells += [f"{r['path']} ({r['bound']})", f"{r['ops_per_s'] / 1e9:.2f} G",
                  f"{100 * r['ops_per_s'] / mm64:.1f}%", f"{100 * r['ops_per_s'] / mm32:.1f}%",
                  fmt(r["check_exact"]), fmt(r["check_batched"]),
                  f"{r['check_ratio']:.1f}×" + ("" if r["sample_passes"] else " (sample refuted)")]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
