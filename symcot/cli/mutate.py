"""``symcot mutate``: mutation analysis of claims' constructions and the default size the evidence asks for."""

from __future__ import annotations

import argparse
import platform
import re
import time
from pathlib import Path
from typing import Any

from symcot import __version__
from symcot.check.exhaustive import Progress
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``mutate`` subcommand's options."""
    p = sub.add_parser("mutate", help="single-coefficient mutants of a construction: killed by the claim's check?")
    p.add_argument("claims", nargs="+", metavar="CLAIM", help="paper labels of claims with a construction check")
    p.add_argument("--variant", action="append", help="only these construction variants (repeatable; default: "
                   "every variant whose construction passes its own check)")
    p.add_argument("--sample", type=int, default=150, metavar="N",
                   help="mutants of constant coefficients to draw per variant (0: all; default 150); mutants of "
                        "coefficients in n or λ are always all taken")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw and of the random inputs (default 0)")
    p.add_argument("--size", type=int, default=None, metavar="N",
                   help="the size the claim's check runs at (default: the claim's default size)")
    p.add_argument("--reach", type=int, default=13, metavar="K",
                   help="largest size of the seeded random inputs a survivor is compared on (default 13)")
    p.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                   help="time per survivor for comparing it beyond the default size (default 60)")
    p.add_argument("--coverage", action="store_true",
                   help="also record the activation regions of the original up to the size (symcot coverage)")
    p.add_argument("--state", action="append", metavar="PATH",
                   help="JSON state file: results are saved there as each mutant finishes and a rerun resumes "
                        "from it; repeat to read the state files of other shards (the first is written); a "
                        "directory holds one state file per claim variant")
    p.add_argument("--reuse", action="append", metavar="PATH",
                   help="state file (or directory of them) of the same analysis at another --size: what still holds "
                        "at this size is taken over (inert mutants, kills by an exhaustive family up to this size, "
                        "survivors compared on every input up to it) (repeatable)")
    p.add_argument("--shard", metavar="I/K", help="decide only every K-th selected mutant from the I-th (0-based)")
    p.add_argument("--json", metavar="PATH", help="write the JSON report here")
    p.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--proofs", metavar="DIR", help="claims directory (default ./proofs)")
    d = p.add_argument_group("deep mutants", "decoders that are the base's up to a size k and wrong after it, "
                             "against exact replay beyond k and the claim's all-n check (docs/all-n.md, Deep "
                             "mutants); --sample, --reach and --budget do not apply")
    d.add_argument("--deep", action="store_true", help="deep mutants of the claims' all-n-checked constructions")
    d.add_argument("--deep-k", type=int, metavar="K", help="the size the mutants vanish up to (default: the all-n "
                   "check's concrete_size + 1)")
    d.add_argument("--all-n", action="store_true", help="run each deep mutant through the claim's all-n check")
    d.add_argument("--limit", type=int, metavar="N", help="at most N deep mutants per construction, every kind "
                   "before a second of one (default: all)")
    d.add_argument("--kind", action="append", metavar="KIND", help="only deep mutants of this kind (repeatable): "
                   "shift, max-unit, max-block, size-const, lambda-const, lambda-fixed")
    d.add_argument("--deep-id", action="append", metavar="ID", help="only this deep mutant (repeatable; ids as the "
                   "table prints them, e.g. shift:1/W_2/buf<-buf@5)")
    d.add_argument("--replay-sizes", type=int, default=3, metavar="R",
                   help="exact replay at sizes k+1 … k+R (default 3)")
    d.add_argument("--replay-inputs", type=int, default=100, metavar="N",
                   help="inputs per family and size in the replay: all of them when there are at most N, else a "
                        "seeded sample of N (default 100)")
    d.add_argument("--timeout", type=float, default=15.0, metavar="SECONDS",
                   help="Z3's limit per obligation (default 15)")
    d.add_argument("--full", action="store_true", help="the all-n check exactly as the claim declares it (facts, "
                   "sum lemmas, every obligation) instead of stopping at the first obligation not proved")
    d.add_argument("--list", action="store_true", help="list the selected deep mutants and stop")
    p.set_defaults(func=run)


def parse_shard(text: str | None) -> tuple[int, int]:
    """``"i/k"`` → ``(i, k)`` with ``0 ≤ i < k``."""
    if text is None:
        return 0, 1
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or not 0 <= int(m.group(1)) < int(m.group(2)):
        raise SymcotError(f"--shard takes I/K with 0 ≤ I < K (e.g. 0/4), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def check_options(args: argparse.Namespace) -> None:
    """One line per bad option, before anything runs."""
    for name in ("sample", "size", "reach"):
        v = getattr(args, name)
        if v is not None and v < (0 if name == "sample" else 1):
            raise SymcotError(f"--{name} must be at least {0 if name == 'sample' else 1}, got {v}")
    if args.budget < 0:
        raise SymcotError(f"--budget must not be negative, got {args.budget}")
    paths = [("json", args.json), ("markdown", args.markdown), *(("state", p) for p in args.state or [])]
    for opt, path in paths:
        if path and not Path(path).resolve().parent.is_dir():
            raise SymcotError(f"--{opt}: the directory of {path} does not exist")
    for path in args.reuse or []:
        if not Path(path).exists():
            raise SymcotError(f"--reuse: no state file or directory {path}")
    files = [p for p in [*(args.state or []), *(args.reuse or [])] if not Path(p).is_dir()]
    if files and (len(args.claims) > 1 or (args.variant and len(args.variant) > 1)):
        raise SymcotError("a --state or --reuse file holds one claim variant's results: give one CLAIM and one "
                          "--variant, or directories")


def refuse_deep_options(args: argparse.Namespace) -> None:
    """An option of ``--deep`` given without it is an error."""
    deep_only = [o for o in ("deep_k", "limit", "kind", "deep_id") if getattr(args, o) is not None]
    deep_only += [o for o in ("all_n", "full", "list") if getattr(args, o)]
    if deep_only:
        raise SymcotError(f"--{deep_only[0].replace('_', '-')} is an option of --deep")


def state_paths(paths: list[str] | None, label: str) -> list[Path]:
    """The state file of claim variant ``label`` for each path: the path itself, or a file in it if a directory."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_") + ".json"
    return [Path(p) / name if Path(p).is_dir() else Path(p) for p in paths or []]


def run(args: argparse.Namespace) -> int:
    """Analyse each selected claim variant, print the summaries, write the reports.

    Exit status: 0 when every behaviour-changing mutant decided is killed at the size checked, 1 when a
    behaviour-changing mutant survives it, 2 when a mutant's check fails with an error or on bad usage.
    """
    from symcot.cli.kinds import no_construction
    from symcot.registry import load_claims, select
    from symcot.report.mutation import render_text, write_json, write_markdown
    from symcot.study.adequacy import Settings, analyse
    from symcot.study.coverage import coverage
    from symcot.study.mutation import construction_checks, target_of

    if args.deep:
        return run_deep(args)
    refuse_deep_options(args)
    check_options(args)
    shard = parse_shard(args.shard)
    claims = select(load_claims(args.proofs), args.claims)
    progress = Progress(not args.no_progress)
    analyses = []
    skipped: list[str] = []
    t0 = time.perf_counter()
    for claim in claims:
        checks = construction_checks(claim)
        if not checks:
            raise no_construction(claim, "mutate", "mutate",
                                  "symcot verify checks each encoder variant, mutants included")
        variants = [c.variant for c in checks]
        unknown = [v for v in args.variant or [] if v not in variants]
        if unknown and len(claims) == 1:
            raise SymcotError(f"{claim.id} has no construction variant {unknown[0]!r}; it has {', '.join(variants)}")
        for v in [v for v in variants if not args.variant or v in args.variant]:
            target = target_of(claim, v)
            size = args.size or target.default_size
            settings = Settings(size, args.sample, args.seed, args.reach, args.budget)
            a = analyse(target, settings, shard, state_paths(args.state, target.label), progress,
                        reuse=[p for p in state_paths(args.reuse, target.label) if p.exists()])
            if a.original_fails:
                skipped.append(f"{target.label}: not analysed, {a.original_fails}")
                print(skipped[-1], flush=True)
                continue
            if args.coverage:
                a.coverage = coverage(target.make(), target.spec, target.families, size, progress)
            analyses.append(a)
            print(render_text(a), flush=True)
    if not analyses:
        raise SymcotError("no construction variant to analyse (" + "; ".join(skipped) + ")")
    meta = {"symcot": __version__, "python": platform.python_version(), "seconds_total": round(time.perf_counter() - t0,
                                                                                                 3),
            "command": "symcot mutate " + " ".join(args.claims), "skipped": skipped}
    if args.json:
        write_json(args.json, analyses, meta)
        print(f"\nJSON report written to {args.json}")
    if args.markdown:
        write_markdown(args.markdown, analyses, meta)
        print(f"Markdown report written to {args.markdown}")
    if any(a.by_status("error") for a in analyses):
        return 2
    return 1 if any(a.by_status("exposed") for a in analyses) else 0


# -- deep mutants ----------------------------------------------------------------------------------------------


def check_deep_options(args: argparse.Namespace) -> None:
    """One line per option that does not fit ``--deep``, before anything runs."""
    from symcot.cli.common import check_distinct, check_output_path
    from symcot.constructions.deep import KINDS

    for opt in ("state", "reuse", "shard", "size"):
        if getattr(args, opt) not in (None, []):
            raise SymcotError(f"--{opt} does not apply to --deep")
    if args.coverage:
        raise SymcotError("--coverage does not apply to --deep")
    for opt, low in (("deep_k", 1), ("limit", 1), ("replay_sizes", 1), ("replay_inputs", 1)):
        v = getattr(args, opt)
        if v is not None and v < low:
            raise SymcotError(f"--{opt.replace('_', '-')} must be at least {low}, got {v}")
    if args.timeout <= 0:
        raise SymcotError(f"--timeout must be positive, got {args.timeout}")
    bad = [k for k in args.kind or [] if k not in KINDS]
    if bad:
        raise SymcotError(f"unknown --kind {bad[0]!r}; the kinds are {', '.join(KINDS)}")
    if args.full and not args.all_n:
        raise SymcotError("--full is an option of --all-n")
    for opt in ("json", "markdown"):
        if getattr(args, opt):
            check_output_path(getattr(args, opt), f"--{opt}")
    check_distinct({"--json": args.json, "--markdown": args.markdown})


def deep_checks(claim: Any, variants: list[str] | None, strict: bool = True) -> list[Any]:
    """The claim's all-n checks (of the variants named, if any; ``strict``: each named variant must exist)."""
    from symcot.prove.alln.check import AllNCheck

    checks = [c for c in claim.checks if isinstance(c, AllNCheck)]
    if not checks:
        raise SymcotError(f"{claim.id} has no all-n check: no construction to build deep mutants of")
    checks = [c for c in checks if c.construction().all_n is not None]
    if not checks:
        raise SymcotError(f"{claim.id}'s all-n checks have no all-n statement (the constructions state no all_n): "
                          "no all-n check to run deep mutants through")
    names = [c.variant for c in checks]
    unknown = [v for v in variants or [] if v not in names]
    if unknown and strict:
        raise SymcotError(f"{claim.id} has no all-n variant {unknown[0]!r}; it has {', '.join(names)}")
    return [c for c in checks if not variants or c.variant in variants]


def _short(text: str | None, width: int = 110) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= width else text[:width - 1] + "…"


def deep_row_line(row: Any) -> str:
    """One table row: mutant, kind, block, k, replay, all-n verdict, first failing obligation, seconds."""
    mu, o = row.mutant, row.outcome
    verdict = "-" if o is None else o.verdict
    if row.soundness_failure:
        verdict = "PROVED -- SOUNDNESS FAILURE"
    secs = row.replayed.seconds + (o.seconds if o is not None else 0.0)
    first = "" if o is None else _short(o.first_short or o.first_failure)
    shape = "m×m" if mu.two_index else "scalar" if mu.scalar else "one index"
    block = f"{mu.block} ({shape})" if mu.block else "-"
    replayed = row.replayed.text() + (f"; inert: {mu.inert}" if mu.inert else "")
    return (f"| `{mu.id}` | {mu.kind} | {block} | {mu.k} | {replayed} | {verdict} | "
            f"{first.replace('|', '/')} | {secs:.1f} |")


DEEP_HEADER = ("| mutant | kind | block | k | replay | all-n | first failing obligation | s |\n"
               "|---|---|---|---|---|---|---|---|")


def deep_command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run (its deep options, in a fixed order)."""
    parts = ["symcot mutate", *args.claims, "--deep"]
    parts += [f"--variant {v}" for v in args.variant or []]
    parts += [f"--{o.replace('_', '-')} {getattr(args, o)}" for o in ("deep_k", "limit")
              if getattr(args, o) is not None]
    parts += [f"--kind {k}" for k in args.kind or []] + [f"--deep-id '{i}'" for i in args.deep_id or []]
    parts += [f"--seed {args.seed}", f"--replay-sizes {args.replay_sizes}", f"--replay-inputs {args.replay_inputs}"]
    if args.all_n:
        parts += ["--all-n", f"--timeout {args.timeout:g}"] + (["--full"] if args.full else [])
    return " ".join(parts)


def row_lines(row: Any) -> list[str]:
    """The table row of one mutant, then a warning or a SOUNDNESS FAILURE line where there is one."""
    out = [deep_row_line(row)]
    o = row.outcome
    if o is not None and o.fast_verdict == "proved" and not row.soundness_failure:
        out.append(f"WARNING: the stop-early Z3 run proved {row.mutant.label}, which exact replay refutes at size "
                   f"{row.replayed.refuted_at}; the check as declared says {o.verdict}: "
                   f"{_short(o.first_failure, 300)}")
    if row.soundness_failure:
        out.append(f"SOUNDNESS FAILURE: {row.mutant.label} ({row.mutant.text()}) is proved for every size, but exact "
                   f"replay refutes it at size {row.replayed.refuted_at} on {row.replayed.input}")
    return out


def deep_summary(rows: list[Any]) -> str:
    """``N deep mutants: R refuted by replay, E equivalent …; F soundness failure(s), X error(s)``."""
    errors = [r for r in rows if r.replayed.status == "error" or (r.outcome is not None and r.outcome.verdict ==
                                                                  "error")]
    return (f"{len(rows)} deep mutants: {sum(r.replayed.status == 'refuted' for r in rows)} refuted by replay, "
            f"{sum(r.replayed.status == 'equivalent' for r in rows)} equivalent as far as replay went; "
            f"{sum(r.soundness_failure for r in rows)} soundness failure(s), {len(errors)} error(s)")


def write_deep_reports(args: argparse.Namespace, rows: list[Any], skipped: list[str], seconds: float) -> None:
    """The JSON and Markdown reports of the rows so far (rewritten after each mutant: a long run leaves them)."""
    import json

    meta = {"symcot": __version__, "python": platform.python_version(), "seconds_total": round(seconds, 3),
            "command": deep_command(args),
            "settings": {"k": args.deep_k, "limit": args.limit, "kinds": args.kind, "ids": args.deep_id,
                         "seed": args.seed, "replay_sizes": args.replay_sizes, "replay_inputs": args.replay_inputs,
                         "all_n": args.all_n, "timeout_s": args.timeout, "full": args.full},
            "skipped": skipped}
    summary = deep_summary(rows)
    if args.json:
        data = {"schema": "symcot-mutate-deep/1", "meta": meta, "summary": summary,
                "mutants": [r.as_dict() for r in rows]}
        Path(args.json).write_text(json.dumps(data, indent=1, ensure_ascii=False))
    if args.markdown:
        lines = [DEEP_HEADER, *(line for r in rows for line in row_lines(r))]
        Path(args.markdown).write_text(f"# symcot deep mutants\n\n`{meta['command']}`\n\n{summary}\n\n"
                                       + "\n".join(lines) + "\n")


def run_deep(args: argparse.Namespace) -> int:
    """``symcot mutate --deep``: the deep mutants of each all-n check, replayed and (``--all-n``) all-n checked.

    Exit status: 1 when a mutant that exact replay refutes is proved (a soundness failure), 2 when a replay or
    an all-n check ends in an error or on bad usage, else 0.
    """
    from symcot.registry import load_claims, select
    from symcot.study.deep_mutants import Settings, base_control, chosen, k_of, study

    check_deep_options(args)
    settings = Settings(k=args.deep_k, limit=args.limit, kinds=tuple(args.kind) if args.kind else None,
                        ids=tuple(args.deep_id or ()), seed=args.seed, replay_sizes=args.replay_sizes,
                        replay_inputs=args.replay_inputs, all_n=args.all_n, timeout_s=args.timeout, full=args.full)
    claims = select(load_claims(args.proofs), args.claims)
    t0 = time.perf_counter()
    rows: list[Any] = []
    skipped: list[str] = []
    for claim in claims:
        for check in deep_checks(claim, args.variant, strict=len(claims) == 1):
            base = check.construction()
            mutants = chosen(base, check, settings)
            print(f"{claim.id} [{base.variant}]: {len(mutants)} deep mutants at k = {k_of(check, settings)} "
                  f"(concrete phase to {check.concrete_size})", flush=True)
            if args.list:
                print("\n".join(f"  {mu.id}  {mu.text()}" for mu in mutants), flush=True)
                continue
            control = base_control(base, check, settings)
            if control.status != "equivalent":
                skipped.append(f"{claim.id} [{base.variant}]: the base itself fails the replay: {control.text()}")
                print(skipped[-1], flush=True)
                continue
            print(DEEP_HEADER, flush=True)
            for row in study(claim.id, check, settings, mutants):
                rows.append(row)
                print("\n".join(row_lines(row)), flush=True)
                write_deep_reports(args, rows, skipped, time.perf_counter() - t0)
    if args.list:
        return 0
    print(deep_summary(rows), flush=True)
    write_deep_reports(args, rows, skipped, time.perf_counter() - t0)
    for opt in ("json", "markdown"):
        if getattr(args, opt):
            print(f"{opt.capitalize() if opt == 'markdown' else 'JSON'} report written to {getattr(args, opt)}")
    if any(r.soundness_failure for r in rows):
        return 1
    errors = [r for r in rows if r.replayed.status == "error" or (r.outcome is not None and r.outcome.verdict ==
                                                                  "error")]
    return 2 if errors else 0
