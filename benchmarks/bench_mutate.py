"""``symcot mutate`` on a small one-layer construction: the analysis, and its survivors compared two ways.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_mutate.py                       # the tutorial's demo:prefixsum at its default size 8
    python benchmarks/bench_mutate.py --baseline 0          # the per-input baseline on every survivor
    python benchmarks/bench_mutate.py --proofs DIR --claim ID --size 5

In one process, for the claim's first construction variant (``--proofs``, ``--claim``; the tutorial's complete
example by default), at ``--size`` (default: the claim's default size):

- *analysis*: what ``symcot mutate`` runs (:func:`symcot.study.adequacy.analyse`, every mutant, ``--budget``
  seconds per survivor), twice, with a kernel cache of its own (``$SYMCOT_CACHE``, a temporary directory):
  the first run compiles every kernel, the second finds them there. Wall and CPU seconds of each (the
  compiler's included), and the second run's seconds per status.
- *survivors*, the first ``--baseline`` survivors whose tokens differ from the original's (scratch-only or
  exposed; default 2, 0: every survivor): :func:`~symcot.study.survivors.compare_beyond` as the analysis runs
  it (the inputs whose tokens differ checked together by the batched checker) against the baseline
  ``exact=True`` (each such input checked by exact replay, one at a time: how survivors were compared before
  the batched checker, less the departure that was also located on every such input). The two records must
  agree (else exit status 1); the ratio is baseline ÷ batched, CPU seconds per input compared.

The load averages are printed before and after: on a shared machine the wall seconds depend on them, the
CPU seconds less so. Every figure is measured, none is stored.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_reach import uptime  # noqa: E402

from symcot.constructions.mutant import symbolic_mutants  # noqa: E402
from symcot.registry import load_claims  # noqa: E402
from symcot.study.adequacy import Analysis, Settings, analyse  # noqa: E402
from symcot.study.mutation import target_of  # noqa: E402
from symcot.study.survivors import Beyond, compare_beyond  # noqa: E402


def cpu() -> float:
    """CPU seconds of this process and its finished children (the C compiler)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn: Any) -> tuple[Any, float, float]:
    """``(fn(), wall seconds, CPU seconds)``."""
    w, c = time.perf_counter(), cpu()
    out = fn()
    return out, time.perf_counter() - w, cpu() - c


def record(b: Beyond) -> dict[str, Any]:
    """What a comparison found, without its timing."""
    return {k: v for k, v in b.as_dict().items() if k != "seconds"}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print Markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--proofs", default=str(ROOT / "docs" / "examples" / "prefix_sum"), help="claims directory")
    ap.add_argument("--claim", default="demo:prefixsum")
    ap.add_argument("--size", type=int, default=None, help="the size the check runs at (default: the claim's)")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per survivor (symcot mutate's default 60)")
    ap.add_argument("--baseline", type=int, default=2, help="survivors compared both ways (default 2; 0: all)")
    args = ap.parse_args(argv)
    target = target_of(load_claims(args.proofs)[args.claim])
    size = args.size or target.default_size
    settings = Settings(size, sample=0, budget=args.budget)
    os.environ["SYMCOT_CACHE"] = tempfile.mkdtemp(prefix="symcot-bench-mutate-")
    load_before = uptime()
    runs: list[tuple[Analysis, float, float]] = [timed(lambda: analyse(target, settings)) for _ in range(2)]
    a = runs[-1][0]
    per_status: Counter[str] = Counter()
    for r in a.done():
        per_status[r.status] += r.seconds
    base = target.make()
    mutants = {m.id: m for m in symbolic_mutants(base)}
    differing = [r for r in a.done() if r.status in ("scratch-only", "exposed")]
    picked = differing if args.baseline == 0 else differing[:args.baseline]
    rows = []
    for r in picked:
        m = mutants[r.id]
        fast, fw, fc = timed(lambda: compare_beyond(target, base, m, size, settings.reach, args.budget))  # noqa: B023
        slow, sw, sc = timed(lambda: compare_beyond(target, base, m, size, settings.reach, args.budget,  # noqa: B023
                                                    exact=True))
        rows.append((r.id, r.status, fast, fw, fc, slow, sw, sc))
        print(f"# {r.id} compared both ways (load {uptime()})", file=sys.stderr)
    cmd = "python benchmarks/bench_mutate.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"Command: `{cmd.strip()}`  ")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load averages "
          f"{load_before} before, {uptime()} after  ")
    print()
    print(f"{target.label} at n = {size}: {len(a.selected)} mutants; " + ", ".join(
        f"{k} {v}" for k, v in sorted(Counter(r.status for r in a.done()).items())))
    print()
    print("| analysis | wall s | CPU s |")
    print("|---|---|---|")
    for name, (_, wall, secs) in zip(("first run (every kernel compiled)", "second run (kernels cached)"), runs):
        print(f"| {name} | {wall:.1f} | {secs:.1f} |")
    print()
    print("Second run, seconds per status: " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(per_status.items())))
    if not rows:
        return 0
    print()
    head = ["survivor", "status", "inputs compared", "batched wall s", "batched CPU s", "per-input wall s",
            "per-input CPU s", "per-input inputs compared", "ratio (CPU s per input)", "same record"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    same_all = True
    for rid, status, fast, fw, fc, slow, sw, sc in rows:
        same = record(fast) == record(slow)
        same_all = same_all and same
        ratio = (sc / max(1, slow.inputs_compared)) / max(1e-9, fc / max(1, fast.inputs_compared))
        print(f"| `{rid}` | {status} | {fast.inputs_compared:,} | {fw:.1f} | {fc:.1f} | {sw:.1f} | {sc:.1f} | "
              f"{slow.inputs_compared:,} | {ratio:.1f}× | {'yes' if same else 'NO'} |")
    return 0 if same_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
