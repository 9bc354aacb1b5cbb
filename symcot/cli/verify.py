"""``symcot verify``: run the claims' checks and print a verdict per claim variant.

The output fits the terminal: one line per paper label, its sub-checks counted (``-v``: every row), then
a count line; the reports hold every row. ``-k``, ``-x`` and ``--lf`` select rows as pytest's options do
(:mod:`symcot.cli.select`, :mod:`symcot.cli.cache`).
A run that would check nothing is an error (exit 2). The report paths are checked before the run. A run
whose inputs are out of reach asks for ``--yes``. Ctrl-C (SIGINT) or SIGTERM stops the run; the table
and the reports then hold every finished row, the rest as ``unknown`` (reason ``interrupted``), and the
exit status is 130 or 143.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from symcot import __version__
from symcot.check.context import Schedule, schedule_of
from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict, exit_status
from symcot.cli.cache import CACHE_DIR, Cache, mode_of
from symcot.cli.common import (
    check_distinct,
    check_output_path,
    interrupt_status,
    interruptible,
    not_applicable,
    silence_stdout,
    uninterruptible,
)
from symcot.cli.progress import RowProgress
from symcot.cli.scheduler import check_scheduler, scheduler_engine
from symcot.cli.select import row_name, select_failed, select_keyword
from symcot.errors import SymcotError
from symcot.report.fit import terminal_width

#: Inputs per second and core that the out-of-reach estimate assumes: the batched engine checked the
#: 5,259,561 inputs of a DFS decoder at 5 vertices at about 18,000 per second and core, exact replay
#: runs about 2,000 per second and core at small sizes (both are slower at larger sizes, so the estimate
#: is a lower bound).
#: A check's rate is that of the engine its schedule names (:class:`symcot.check.context.Schedule`): a check
#: without a decoder (a property of a reference algorithm) is taken at the ``property`` rate.
RATE = {"batched": 20_000, "exact": 2_000, "property": 50_000}
#: A run estimated to take longer than this (seconds) needs ``--yes``.
REACH_LIMIT_S = 3600.0
#: Exit status when standard output was closed during the run (128 + SIGPIPE).
CLOSED_PIPE = 141


def add_parser(sub: Any) -> None:
    """The ``verify`` subcommand's options."""
    v = sub.add_parser("verify", help="check claims and print a verdict per claim variant")
    v.add_argument("claims", nargs="*", metavar="CLAIM", help="paper labels (default: every claim)")
    v.add_argument("--max-size", type=int, default=None,
                   help="largest input size: the vertices of a graph or tree (of the ordered tree of a Dyck word "
                        "w), a lemma's dimension; the scopes name it in each construction's size parameter, e.g. "
                        "n = |w| (default: each claim's own)")
    v.add_argument("--json", metavar="PATH", help="write the JSON report here")
    v.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    v.add_argument("--variant", action="append", help="only these variants (repeatable)")
    v.add_argument("--no-progress", action="store_true",
                   help="no progress output (bars on a terminal, else a letter per finished row)")
    v.add_argument("--engine", choices=["exact", "batched"], default=None,
                   help="batched replay (the default: a compiled kernel or numpy, certified exact, every failure "
                        "re-checked by exact replay) or exact per-input replay")
    v.add_argument("--reach", type=int, default=None, metavar="K",
                   help="also take the families that scale (Dyck words; ordered trees for the tree-side "
                        "constructions) up to K vertices, e.g. --reach 13")
    v.add_argument("--symbolic", action="store_true",
                   help="run the symbolic checks (λ and weights as symbols, decided by Z3) instead")
    v.add_argument("--all-n", action="store_true", dest="all_n",
                   help="run the all-n proofs instead: one CoT step proved for every size by Z3 (minutes per "
                        "construction)")
    v.add_argument("--explain", action="store_true",
                   help="with --all-n: list every obligation of each row (layer, head or block, statement, facts "
                        "used, how it was discharged)")
    v.add_argument("--smt2", metavar="DIR",
                   help="with --all-n: write every obligation as an SMT-LIB 2 file into DIR (created if missing), "
                        "with an index (obligation, file, Z3's and cvc5's status)")
    v.add_argument("--jobs", type=int, default=None,
                   help="worker processes for large sizes and for the rows of --all-n (default: all cores)")
    v.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the batched engine's shards on a Dask cluster: a scheduler's address (tcp://HOST:8786), "
                        "or 'local' for a LocalCluster of --jobs worker processes (needs symcot[distributed])")
    v.add_argument("--yes", action="store_true", help="run even when the input count looks out of reach")
    v.add_argument("--proofs", metavar="DIR", help="claims directory (default ./proofs)")
    v.add_argument("-k", dest="keyword", metavar="EXPR",
                   help="only the rows whose name 'claim [variant]' matches EXPR: words (substrings, any case) "
                        "joined by and, or, not and parentheses, e.g. -k \"main and not phi\"")
    v.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first refuted or error row")
    v.add_argument("--lf", "--last-failed", action="store_true", dest="last_failed",
                   help=f"only the rows refuted, unknown or an error in the last run (kept in ./{CACHE_DIR})")
    v.add_argument("-v", "--verbose", action="store_true",
                   help="list every row (default: one line per paper label, sub-checks counted)")
    v.set_defaults(func=run)


def _check_options(args: argparse.Namespace) -> None:
    """Numbers in range, options that apply, report paths writable: all before any work."""
    for opt, value in (("--max-size", args.max_size), ("--jobs", args.jobs), ("--reach", args.reach)):
        if value is not None and value < 1:
            raise SymcotError(f"{opt} must be at least 1, got {value}")
    if args.explain and not args.all_n:
        raise not_applicable("--explain", "lists the obligations of the all-n proofs; add --all-n")
    _check_smt2(args)
    check_scheduler(args)
    if args.all_n:
        for opt, given in (("--symbolic", args.symbolic), ("--reach", args.reach is not None),
                           ("--engine", args.engine is not None)):
            if given:
                raise not_applicable(opt, "does not apply to --all-n (the all-n proofs run alone)")
    if args.symbolic:
        if args.reach is not None:
            raise not_applicable("--reach", "applies to exhaustive checks, not to --symbolic")
        if args.engine is not None:
            raise not_applicable("--engine", "chooses the replay engine of exhaustive checks; --symbolic uses Z3")
    if args.json:
        check_output_path(args.json, "--json")
    if args.markdown:
        check_output_path(args.markdown, "--markdown")
    check_distinct({"--json": args.json, "--markdown": args.markdown})


def _check_smt2(args: argparse.Namespace) -> None:
    """``--smt2 DIR`` goes with ``--all-n`` and names a writable directory, or one that can be created."""
    directory = getattr(args, "smt2", None)
    if directory is None:
        return
    if not args.all_n:
        raise not_applicable("--smt2", "writes the obligations of the all-n proofs; add --all-n")
    p = Path(directory).expanduser()
    if not directory.strip():
        raise SymcotError("--smt2: empty directory name")
    if p.exists() and not p.is_dir():
        raise SymcotError(f"--smt2 {directory}: is not a directory")
    if p.is_dir() and not os.access(p, os.W_OK):
        raise SymcotError(f"--smt2 {directory}: directory is not writable")
    parent = next((q for q in p.absolute().parents if q.exists()), None)
    if not p.exists() and (parent is None or not os.access(parent, os.W_OK)):
        raise SymcotError(f"--smt2 {directory}: cannot create it (no writable parent directory)")


def _with_options(chk: Any, args: argparse.Namespace) -> Any:
    """``chk`` with the all-n options set on the checks that have them (``--smt2``)."""
    smt2 = getattr(args, "smt2", None)
    if smt2 is not None and dataclasses.is_dataclass(chk) and not isinstance(chk, type) and hasattr(chk, "smt2_dir"):
        return dataclasses.replace(chk, smt2_dir=smt2)
    return chk


def schedule_in(claim: Any, chk: Any, max_size: int | None, reach: int | None, engine: str = "exact",
                jobs: int = 1) -> Schedule | None:
    """What ``chk`` enumerates in a run with these options: its own schedule (``None``: it enumerates no families).

    The check states it (``chk.schedule(ctx)``, :mod:`symcot.check.context`) at the size and options
    :meth:`~symcot.claims.Claim.context` gives it, as :meth:`~symcot.claims.Claim.run_check` does for the run.
    """
    return schedule_of(chk, claim.context(chk, max_size, jobs=jobs, engine=engine, reach=reach))


#: Counting stops above this many inputs (the sums of counts like ``2^(n(n-1))`` stay cheap).
COUNT_CAP = 10**100


def _out_of_reach(plan: list[tuple[Any, Any]], args: argparse.Namespace, engine: str, jobs: int) -> str | None:
    """One line when the run's estimated time exceeds :data:`REACH_LIMIT_S`, else ``None``."""
    seconds = 0.0
    counts = []
    capped = False
    for claim, chk in plan:
        sched = schedule_in(claim, chk, args.max_size, args.reach, engine, jobs)
        k = sched.inputs(stop_above=COUNT_CAP) if sched is not None else None
        if sched is not None and k:
            capped |= k > COUNT_CAP
            seconds += min(k, COUNT_CAP) / (RATE[sched.engine] * jobs)
            counts.append((k, f"{claim.id} [{chk.variant}]"))
    if seconds <= REACH_LIMIT_S:
        return None
    total = sum(k for k, _ in counts)
    counts.sort(reverse=True)
    top = ", ".join(f"{name} {_count(k)}" for k, name in counts[:3]) + (", …" if len(counts) > 3 else "")
    asked = " ".join(f"{o} {v}" for o, v in (("--max-size", args.max_size), ("--reach", args.reach)) if v is not None)
    bound = "at least " if capped else "about "
    return (f"{asked or 'this run'} means {bound if capped else ''}{_count(total)} inputs ({top}), "
            f"{bound}{_duration(seconds)} at ~{RATE[engine] * jobs:,} inputs/s ({engine} engine, "
            f"{jobs} {'job' if jobs == 1 else 'jobs'})")


def _count(k: int) -> str:
    return f"{k:,}" if k < 10**7 else f"{k:.1e}".replace("e+", "e")


def _duration(seconds: float) -> str:
    for unit, length in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= length:
            value = seconds / length
            return f"{value:.1e} {unit}".replace("e+", "e") if value >= 1e6 else f"{value:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _interrupted_row(claim: Any, chk: Any, started: bool, why: str, engine: str, seconds: float = 0.0) -> Verdict:
    """An ``unknown`` row for a check the interruption stopped (``started``) or never reached.

    Its method is the one the check's row would have: `` [batched engine]`` added where its schedule replays
    through the batched engine.
    """
    note = why if started else f"{why}: not started"
    sched = schedule_in(claim, chk, None, None, engine)
    method = chk.method + (" [batched engine]" if sched is not None and sched.engine == "batched" else "")
    return Verdict(claim.id, chk.variant, "unknown", method, None, 0, seconds, None, [note])


#: Why a run stopped early and its exit status, or ``None`` when every row finished.
Stopped = tuple[str, int] | None


def _execute(plan: list[tuple[Any, Any]], args: argparse.Namespace, engine: str, jobs: int,
             stopped: Stopped) -> tuple[list[Verdict], Stopped]:
    """Run the plan's checks in order (``-x``: up to the first refuted or error row), showing the progress.

    Stops cleanly on a signal or a closed pipe.
    """
    address = getattr(args, "scheduler", None) if stopped is None else None
    if stopped is None and _pooled(plan, args, jobs, address):
        return _execute_pooled(plan, args, engine, jobs)
    rows: list[Verdict] = []
    progress = Progress(not args.no_progress)
    shown = RowProgress(len(plan) if stopped is None else 0, not args.no_progress, terminal_width())
    with interruptible(), scheduler_engine(address, jobs) as shard_engine, _stopping(shown) as stop:
        for claim, chk in plan if stopped is None else []:
            t_row = time.perf_counter()
            shown.start(f"{claim.id} [{chk.variant}]")
            try:
                row = claim.run_check(_with_options(chk, args), args.max_size, progress, jobs, engine, args.reach,
                                      shard_engine=shard_engine)
            except KeyboardInterrupt:
                rows.append(_interrupted_row(claim, chk, True, "interrupted", engine, time.perf_counter() - t_row))
                raise
            rows.append(row)
            shown.finish(row)
            if getattr(args, "exitfirst", False) and (row.failed and row.verdict != "unknown"):
                break
    stopped = stop[0] or stopped
    if stopped is not None:
        rows += [_interrupted_row(c, chk, False, stopped[0], engine) for c, chk in plan[len(rows):]]
    return rows, stopped


@contextmanager
def _stopping(shown: RowProgress) -> Iterator[list[Stopped]]:
    """Take a signal or a closed pipe inside as the run's stop (``stop[0]``), then close the progress display."""
    stop: list[Stopped] = [None]
    try:
        yield stop
    except KeyboardInterrupt as e:
        stop[0] = ("interrupted", interrupt_status(e))
    except BrokenPipeError:
        silence_stdout()
        stop[0] = ("interrupted: standard output closed", CLOSED_PIPE)
    finally:
        shown.close()


def _pooled(plan: list[tuple[Any, Any]], args: argparse.Namespace, jobs: int, address: str | None) -> bool:
    """Whether the rows run in worker processes (:mod:`symcot.cli.pooled`).

    They do with ``--all-n``, more than one job and row, no ``-x`` (which stops at a row in plan order) and no
    ``--scheduler``.
    """
    return (bool(getattr(args, "all_n", False)) and jobs > 1 and address is None
            and not getattr(args, "exitfirst", False) and len(plan) > 1)


def _execute_pooled(plan: list[tuple[Any, Any]], args: argparse.Namespace, engine: str,
                    jobs: int) -> tuple[list[Verdict], Stopped]:
    """The plan's rows in ``jobs`` worker processes, reported in plan order; a signal keeps the finished rows."""
    from symcot.cli.pooled import run_pooled

    done: dict[int, Verdict] = {}
    shown = RowProgress(len(plan), not args.no_progress, terminal_width())
    shown.start(f"{len(plan)} rows in {jobs} workers")

    def seen(i: int, row: Verdict) -> None:
        done[i] = row
        shown.finish(row)

    with interruptible(), _stopping(shown) as stop:
        run_pooled([(claim, _with_options(chk, args)) for claim, chk in plan], jobs, args.max_size, engine,
                   args.reach, seen)
    stopped = stop[0]
    rows = [done[i] if i in done else _interrupted_row(claim, chk, False, stopped[0] if stopped else "interrupted",
                                                       engine)
            for i, (claim, chk) in enumerate(plan)]
    return rows, stopped


def _report(rows: list[Verdict], meta: dict[str, Any], args: argparse.Namespace, extra: list[str],
            kinds: dict[tuple[str, str], str], labels: Sequence[str] = ()) -> None:
    """Write the reports (first: a second Ctrl-C or a closed pipe must not lose them), then print the results.

    The results fit the terminal's width: one line per paper label (``-v``: the table of every row), then
    the lines naming the reports, then the count line (``extra`` adds to it: deselected, not run).
    """
    from symcot.report import write_json, write_markdown
    from symcot.report.fold import count_line

    with uninterruptible():
        if args.json:
            write_json(args.json, rows, meta)
        if args.markdown:
            write_markdown(args.markdown, rows, meta)
        if getattr(args, "smt2", None) is not None:
            from symcot.prove.alln.smt2 import write_index

            write_index(args.smt2, rows)
    try:
        print()
        print(_results(rows, args, kinds, labels))
        if getattr(args, "explain", False):
            from symcot.report.explain import render_obligations

            print()
            print(render_obligations(rows))
        if args.json:
            print(f"\nJSON report written to {args.json}")
        if args.markdown:
            print(f"Markdown report written to {args.markdown}")
        if getattr(args, "smt2", None) is not None:
            from symcot.prove.alln.smt2 import INDEX_NAME

            print(f"SMT-LIB 2 obligations written to {args.smt2} (index: {Path(args.smt2) / INDEX_NAME})")
        print(count_line(rows, float(meta.get("seconds_total", 0.0)), extra))
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    if getattr(args, "debug", False):
        for r in rows:
            tb = (r.details or {}).get("traceback") if r.verdict == "error" else None
            if tb:
                print(f"\ntraceback of {r.id} [{r.variant}]:\n{tb}", file=sys.stderr)


def _results(rows: list[Verdict], args: argparse.Namespace, kinds: dict[tuple[str, str], str],
             labels: Sequence[str] = ()) -> str:
    """The rows for the terminal, at its width: folded by paper label, or (``-v``) the table of every row."""
    from symcot.report import render_table
    from symcot.report.fold import default_kind, render_folded

    width = terminal_width()
    if getattr(args, "verbose", False):
        return render_table(rows, width)
    folded = render_folded(rows, width, lambda r: kinds.get((r.id, r.variant)) or default_kind(r), labels)
    return folded + f"\n(-v lists every row{'' if len(rows) < 2 else f', all {len(rows)}'})"


def _narrow(plan: list[tuple[Any, Any]], args: argparse.Namespace, say: bool) -> list[tuple[Any, Any]]:
    """The plan after ``-k`` and ``--lf``; ``--lf`` says in one line what it reruns (when ``say``)."""
    if getattr(args, "keyword", None) is not None:
        plan = select_keyword(plan, args.keyword)
    if not getattr(args, "last_failed", False):
        return plan
    cache = Cache()
    failed = cache.last_failed(mode_of(args.symbolic, args.all_n))
    if failed is None:
        line = f"--lf: no earlier run in {CACHE_DIR}/; running all {len(plan)} rows"
    elif not failed:
        line = f"--lf: no row failed in the last run; running all {len(plan)} rows"
    else:
        rerun = select_failed(plan, failed)
        if rerun:
            line = f"--lf: rerunning the {len(rerun)} of {len(plan)} rows that failed last time"
            plan = rerun
        else:
            line = f"--lf: no row that failed last time is selected; running all {len(plan)} rows"
    if say:
        print(line, flush=True)
    return plan


def _selection_meta(meta: dict[str, Any], args: argparse.Namespace, deselected: int, not_run: int) -> list[str]:
    """Record ``-k``, ``--lf`` and ``-x`` in the report's ``meta``; the additions to the count line."""
    extra = []
    if getattr(args, "keyword", None) is not None:
        meta["keyword"] = args.keyword
    if getattr(args, "last_failed", False):
        meta["last_failed"] = True
    if deselected:
        meta["deselected"] = deselected
        extra.append(f"{deselected} deselected")
    if not_run:
        meta["not_run"] = not_run
        extra.append(f"{not_run} not run (-x)")
    return extra


def _remember(rows: list[Verdict], args: argparse.Namespace) -> str | None:
    """Record the failures of the rows that finished, for ``--lf``; a line when the cache cannot be written."""
    unfinished = [row_name(r.id, r.variant) for r in rows
                  if r.verdict == "unknown" and r.notes[-1:] and r.notes[-1].startswith("interrupted")]
    return Cache().record(mode_of(args.symbolic, args.all_n), rows, unfinished)


def _kinds(plan: list[tuple[Any, Any]]) -> dict[tuple[str, str], str]:
    """The kind of each planned row's variant (``as-written``, ``reading``, ``repair``, ``mutant``)."""
    out = {}
    for claim, chk in plan:
        found = claim.reading(chk.variant) if hasattr(claim, "reading") else None
        if found is not None:
            out[(claim.id, chk.variant)] = found.kind
    return out


def _header(text: str, width: int) -> str:
    """The proofs lines, each wrapped to ``width`` under its own indent (nothing cut)."""
    from symcot.report.fit import wrap

    out: list[str] = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        out += wrap(line.strip(), width, indent, indent + "  ") if len(line) > width else [line]
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Run the selected claims' checks, print the table, write the reports; the exit status of the verdicts."""
    from symcot.check.pool import default_jobs
    from symcot.registry import is_glob, load, select, select_checks

    _check_options(args)
    engine = "exact" if args.symbolic else (args.engine or "batched")
    jobs = args.jobs or default_jobs()
    src, claims = load(args.proofs)
    stopped: Stopped = None
    try:
        print(_header(src.describe(), terminal_width()), flush=True)  # like pytest's rootdir line: wrapped, not cut
    except BrokenPipeError:  # nobody reads: run nothing, write the reports (every row unknown)
        silence_stdout()
        stopped = ("interrupted: standard output closed", CLOSED_PIPE)
    named = bool(args.claims) and not any(is_glob(c) for c in args.claims)  # a pattern need not match each
    plan = select_checks(select(claims, args.claims), args.variant, args.symbolic, named=named,
                         all_n=args.all_n)
    selected = len(plan)
    plan = _narrow(plan, args, stopped is None)
    warning = None if args.symbolic or args.all_n else _out_of_reach(plan, args, engine, jobs)
    if warning and not args.yes:
        raise SymcotError(f"out of reach: {warning}; pass --yes to run it anyway")
    if warning:
        print(f"symcot: warning: {warning}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    rows, stopped = _execute(plan, args, engine, jobs, stopped)
    meta: dict[str, Any] = {"symcot": __version__, "python": platform.python_version(),
                            "max_size_requested": args.max_size, "reach": args.reach, "engine": engine,
                            "all_n": args.all_n, "papers": src.papers(),
                            "seconds_total": round(time.perf_counter() - t0, 3)}
    if stopped is not None:
        meta["interrupted"] = stopped[0]
    extra = _selection_meta(meta, args, selected - len(plan), len(plan) - len(rows))
    warn = _remember(rows, args)
    _report(rows, meta, args, extra, _kinds(plan), src.labels)
    if warn:
        print(f"symcot: warning: {warn}", file=sys.stderr)
    if stopped is None:
        return exit_status(rows)
    if stopped[1] != CLOSED_PIPE:
        done = sum(1 for r in rows if not (r.verdict == "unknown" and r.notes[-1:] and
                                           r.notes[-1].startswith("interrupted")))
        print(f"symcot: {stopped[0]}: {done} of {len(plan)} rows finished"
              + (" (in the reports)" if args.json or args.markdown else ""), file=sys.stderr)
    return stopped[1]
