"""Where a ``symcot verify --reach K`` run spends its time: seconds per row and per phase of the batched check.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_phases.py --reach 12
    python benchmarks/bench_phases.py --reach 13 thm:cotdijkstra thm:cotwidoftree --json /tmp/phases.json

It runs ``symcot verify CLAIMS --reach K --jobs 1`` in this process with timers around the phases of
:func:`symcot.check.kernel_check.check_input_batch` and prints, per row (claim and variant), the seconds of:

- *enumeration*: building the batch (``Family.batch_range``) and its arrays (words, parent arrays, adjacency);
- *reference*: the claim's batch reference (``StepwiseSpec.reference_batch``);
- *encoding*: the encoding read on the reference's fields (``batch_field_arrays``, ``StateEncoding.evaluate``);
- *prompt*: the batch's prompt (``Construction.prompt_batch``) and its token table;
- *spot*: the rows of every batch also prepared per input (``spot_check``);
- *kernel*: the native kernel's run and comparison (``check_indexed``);
- *conclusions*: the conclusions read on the batch (``_conclusion_failures``);
- *exact*: exact replay of the rows the kernel flagged or could not decide (``check_input``);
- *compile*: building the decoder's native kernel;
- *per-input*: inputs checked one by one (``BatchedChecker.check``: families and sizes without batches);
- *λ scan*: the smallest-λ scan of a λ-scan row;
- *other*: the rest of the row (the row's own seconds minus the phases).

The timers are exclusive (a phase called inside another counts only once). The script imports ``symcot`` from
``PYTHONPATH``, so the same file times an older checkout side by side::

    PYTHONPATH=/tmp/old python benchmarks/bench_phases.py --reach 12

Every figure is measured, none is stored; on a shared machine compare rows of one run, not seconds of two.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from bench_reach import CLAIMS as REACH_CLAIMS

CLAIMS = ["thm:cotdfs:tree", "thm:cotdfs:phi", "thm:cotdijkstra", "thm:cotwidoftree", "thm:cottreestrahler",
          "thm:cotpathtotree", "thm:cotwidofpath", "thm:cotpathstrahler"]
PHASES = ["enumeration", "reference", "encoding", "prompt", "spot", "kernel", "conclusions", "exact", "compile",
          "per-input", "λ scan", "other"]


class Timers:
    """Exclusive seconds per (row, phase): a phase entered inside another is subtracted from the outer one."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.seconds: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.row = "?"
        self._stack: list[list[float]] = []  # [start, nested seconds]

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time the block as ``name`` of the current row."""
        self._stack.append([self.clock(), 0.0])
        try:
            yield
        finally:
            start, nested = self._stack.pop()
            spent = self.clock() - start
            self.seconds[self.row][name] += spent - nested
            if self._stack:
                self._stack[-1][1] += spent

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` timed as ``name``."""
        def timed(*a: Any, **k: Any) -> Any:
            with self.phase(name):
                return fn(*a, **k)
        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed


def install(t: Timers) -> None:  # noqa: C901 - one patch per phase
    """Put the timers around the phases (module docstring)."""
    import symcot.check.batched_check as bc
    import symcot.check.kernel_check as kc
    from symcot.claims import Claim
    from symcot.replay.batched.decoder import BatchedDecoder

    for name, phase in (("spot_check", "spot"), ("_token_table", "prompt"), ("check_indexed", "kernel"),
                        ("_conclusion_failures", "conclusions"), ("check_input", "exact"),
                        ("batch_field_arrays", "encoding")):
        setattr(kc, name, t.wrap(phase, getattr(kc, name)))
    original_batch = kc.check_input_batch

    def check_input_batch(cons: Any, spec: Any, batch: Any, dec: Any, kernel: Any) -> Any:
        with t.phase("enumeration"):
            for attr in ("words", "parents", "adjacency", "roots"):
                with contextlib.suppress(Exception):
                    getattr(batch, attr)
        ref, prompt_batch, enc = spec.reference_batch, type(cons).prompt_batch, cons.encoding
        evaluate = type(enc).evaluate
        spec.reference_batch = t.wrap("reference", ref)
        type(cons).prompt_batch = t.wrap("prompt", prompt_batch)
        type(enc).evaluate = t.wrap("encoding", evaluate)
        try:
            with t.phase("other"):
                return original_batch(cons, spec, batch, dec, kernel)
        finally:
            spec.reference_batch, type(cons).prompt_batch, type(enc).evaluate = ref, prompt_batch, evaluate

    bc.check_input_batch = check_input_batch
    for cls, name, phase in ((bc.BatchedChecker, "check", "per-input"),
                             (BatchedDecoder, "native_kernel", "compile")):
        setattr(cls, name, t.wrap(phase, getattr(cls, name)))
    original_range = bc.batched_family

    def batched_family(fam: Any, checker: Any, chunk: int | None = None) -> Any:
        if fam.batch_range is not None:
            from dataclasses import replace
            fam = replace(fam, batch_range=t.wrap("enumeration", fam.batch_range))
        return original_range(fam, checker, chunk)

    bc.batched_family = batched_family
    with contextlib.suppress(ImportError):
        from symcot.prove.lam.scan import LambdaScanCheck
        LambdaScanCheck._scan = t.wrap("λ scan", LambdaScanCheck._scan)  # type: ignore[method-assign]
    run_check = Claim.run_check

    def timed_run_check(self: Any, chk: Any, *a: Any, **k: Any) -> Any:
        t.row = f"{self.id} {getattr(chk, 'variant', '?')}"
        start = time.perf_counter()
        try:
            with t.phase("other"):
                return run_check(self, chk, *a, **k)
        finally:
            t.seconds[t.row]["row"] += time.perf_counter() - start

    Claim.run_check = timed_run_check  # type: ignore[method-assign]


def table(seconds: dict[str, dict[str, float]], least: float, ordered: bool = True) -> str:
    """Rows of at least ``least`` seconds, one column per phase that any of them spends time in."""
    rows = {r: p for r, p in seconds.items() if p.get("row", 0.0) >= least}
    cols = [c for c in PHASES if any(p.get(c, 0.0) >= 0.005 for p in rows.values())]
    out = [f"{'row':58s} {'total':>7s} " + " ".join(f"{c:>11s}" for c in cols)]
    items = sorted(rows.items(), key=lambda kv: -kv[1]["row"]) if ordered else list(rows.items())
    for r, p in items:
        out.append(f"{r:58s} {p['row']:7.2f} " + " ".join(f"{p.get(c, 0.0):11.2f}" for c in cols))
    total = {c: sum(p.get(c, 0.0) for p in rows.values()) for c in ["row", *cols]}
    out.append(f"{'all rows above':58s} {total['row']:7.2f} " + " ".join(f"{total[c]:11.2f}" for c in cols))
    return "\n".join(out)


#: The eight claims with a reach family in batches: ``bench_reach.py``'s list, stated there once.
REACH = REACH_CLAIMS


def reach_check(mod: str, cid: str) -> Any:
    """The check ``--reach`` verifies: the ``repaired`` variant where there is one, else the first."""
    import importlib

    claim = next(c for c in importlib.import_module(mod).CLAIMS if c.id == cid)
    checks = [c for c in claim.checks if not getattr(c, "symbolic", False) and hasattr(c, "spec")]
    return next((c for c in checks if c.variant == "repaired"), checks[0])


def batches(sizes: list[int], count: int, claims: list[str], t: Timers, reps: int = 1) -> None:
    """``reps`` batches of ``count`` inputs per claim and size (spread over the size's ranks), CPU seconds per phase."""
    from symcot.check.batched_check import BatchedChecker
    from symcot.inputs.batch import tree_batch, word_batch
    from symcot.inputs.dyck import catalan

    for mod, cid, kind in REACH:
        if claims and cid not in claims:
            continue
        chk = reach_check(mod, cid)
        cons = chk.make() if hasattr(chk, "make") else chk.construction()
        make = tree_batch if kind == "tree" else word_batch
        for size in sizes:
            total = catalan(size - 1)
            checker = BatchedChecker(cons, chk.spec)
            t.row = "(warm-up)"
            checker.check_batch(make(size, 0, 8))  # the decoder and its kernel
            t.row = f"{cid} {cons.variant} n={size}"
            inputs = 0
            for k in range(reps):
                start = max(0, min((2 * k + 1) * total // (2 * reps), total - count))
                with t.phase("other"):
                    b = make(size, start, min(start + count, total))
                    out = checker.check_batch(b)
                assert out.failure is None, f"{t.row}: a failing row"
                inputs += b.count
            t.seconds[t.row]["row"] = sum(t.seconds[t.row].values())
            t.seconds[t.row]["inputs"] = inputs


def main() -> None:
    """Run the verify command (or the batches) under the timers and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("claims", nargs="*", default=CLAIMS)
    ap.add_argument("--reach", type=int, default=12)
    ap.add_argument("-k", default=None, help="only the rows matching (as symcot verify -k)")
    ap.add_argument("--json", default=None, help="write the seconds per row and phase here")
    ap.add_argument("--least", type=float, default=1.0, help="print rows of at least this many seconds")
    ap.add_argument("--sizes", type=int, nargs="*", default=None,
                    help="instead of the verify command: one batch per claim at each of these sizes (CPU seconds)")
    ap.add_argument("--batch", type=int, default=2048, help="inputs of that batch")
    ap.add_argument("--batches", type=int, default=4, help="batches per claim and size")
    args = ap.parse_args()
    import symcot
    from symcot.cli import main as cli

    if args.sizes:
        t = Timers(time.process_time)
        install(t)
        batches(args.sizes, args.batch, args.claims if args.claims != CLAIMS else [], t, args.batches)
        t.seconds.pop("(warm-up)", None)
        seconds = {r: {c: round(s, 4) for c, s in p.items()} for r, p in t.seconds.items()}
        print(f"symcot from {os.path.dirname(symcot.__file__)}; {args.batches} batches of {args.batch} per claim "
              f"and size; "
              f"CPU seconds; load {os.getloadavg()[0]:.1f}")
        print(table(seconds, 0.0, ordered=False))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"sizes": args.sizes, "batch": args.batch, "rows": seconds}, f, indent=1)
        return
    t = Timers()
    install(t)
    argv = ["verify", *args.claims, "--reach", str(args.reach), "--jobs", "1", "--no-progress", "--yes"]
    if args.k:
        argv += ["-k", args.k]
    load = os.getloadavg()
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        cli(argv)
    wall = time.perf_counter() - start
    seconds = {r: {c: round(s, 3) for c, s in p.items()} for r, p in t.seconds.items()}
    for p in seconds.values():
        p["other"] = round(p.get("row", 0.0) - sum(s for c, s in p.items() if c not in ("row", "other")), 3)
    print(f"symcot from {os.path.dirname(symcot.__file__)}; --reach {args.reach}; {wall:.1f} s wall; "
          f"load {load[0]:.1f} → {os.getloadavg()[0]:.1f}")
    print(table(seconds, args.least))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"reach": args.reach, "wall": wall, "rows": seconds}, f, indent=1)


if __name__ == "__main__":
    main()
