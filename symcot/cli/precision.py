"""``symcot precision``: attention margins, magnitudes, softmax temperature, bits and float thresholds."""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

from symcot import __version__
from symcot.cli.common import check_output_path
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``precision`` subcommand's options."""
    p = sub.add_parser("precision", help="exact attention margins and magnitudes, softmax β, bits, float thresholds")
    p.add_argument("claims", nargs="+", metavar="CLAIM", help="paper labels of claims checked through a construction")
    p.add_argument("--max-size", type=int, default=None, help="largest exhaustive size (default: each claim's own)")
    p.add_argument("--reach", type=int, default=None, metavar="K",
                   help="also the families that scale (Dyck words, ordered trees) up to K vertices")
    p.add_argument("--variant", help="this construction variant (default: as written where it holds)")
    p.add_argument("--eps", type=float, default=1e-3, help="ε of β(n, ε) (default 1e-3)")
    p.add_argument("--betas", default="10,100,1000", help="softmax inverse temperatures to run (default 10,100,1000)")
    p.add_argument("--formats", default="float64,float32,float16,bfloat16",
                   help="float formats for hard attention (default: all four)")
    p.add_argument("--softmax-formats", default="float64,float32", help="formats of the softmax runs")
    p.add_argument("--measure-up-to", type=int, default=300, metavar="N",
                   help="largest n of the float search on the path and star beyond the exhaustive sizes (default 300)")
    p.add_argument("--search-budget", type=int, default=None, metavar="K",
                   help="inputs the search of each larger size may evaluate per family beyond its pool (default 64)")
    p.add_argument("--search-trees", action="store_true",
                   help="on trees or Dyck words, search the claim's own families with the path and star (slower)")
    p.add_argument("--json", metavar="PATH", help="write the full report here")
    p.add_argument("--plot", metavar="PATH", help="plot predicted vs measured thresholds (.png/.svg/.pdf)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--proofs", metavar="DIR", help="claims directory (default: the bundled proofs package)")
    p.set_defaults(func=run)


def _floats(text: str, what: str) -> tuple[float, ...]:
    try:
        vals = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise SymcotError(f"{what} must be comma-separated numbers, got {text!r}") from None
    if not vals or any(not v > 0 or v == float("inf") for v in vals):
        raise SymcotError(f"{what} must be positive finite numbers, got {text!r}")
    return vals


def _formats(text: str, what: str) -> tuple[str, ...]:
    from symcot.replay.floating import FLOAT_FORMATS

    names = tuple(x.strip() for x in text.split(",") if x.strip())
    bad = [x for x in names if x not in FLOAT_FORMATS]
    if bad or not names:
        raise SymcotError(f"{what}: unknown format {bad[0] if bad else text!r}; known: {', '.join(FLOAT_FORMATS)}")
    return names


def _options(args: argparse.Namespace) -> Any:
    """The study's options, every bad value one clear error."""
    from symcot.study.precision.run import Options

    for opt, val in (("--max-size", args.max_size), ("--reach", args.reach)):
        if val is not None and val < 1:
            raise SymcotError(f"{opt} must be at least 1, got {val}")
    if args.search_budget is not None and args.search_budget < 0:
        raise SymcotError(f"--search-budget must be at least 0, got {args.search_budget}")
    if args.measure_up_to < 1:
        raise SymcotError(f"--measure-up-to must be at least 1, got {args.measure_up_to}")
    if not 0 < args.eps < 1:
        raise SymcotError(f"--eps must lie strictly between 0 and 1, got {args.eps}")
    opts = Options(max_size=args.max_size, reach=args.reach, eps=args.eps, betas=_floats(args.betas, "--betas"),
                   formats=_formats(args.formats, "--formats"),
                   softmax_formats=_formats(args.softmax_formats, "--softmax-formats"),
                   measure_up_to=args.measure_up_to, variant=args.variant, search_trees=args.search_trees,
                   **({} if args.search_budget is None else {"search_budget": args.search_budget}))
    return opts


def _is_encoder(claim: Any, opts: Any) -> bool:
    """Whether ``claim`` is studied as an encoder (it has encoder checks and no decoder construction)."""
    from symcot.study.precision.encoder import encoder_checks
    from symcot.study.precision.run import candidates, construction_checks

    if not construction_checks(claim) and encoder_checks(claim):
        if opts.variant is not None and opts.variant not in {c.variant for c in encoder_checks(claim)}:
            known = ", ".join(c.variant for c in encoder_checks(claim))
            raise SymcotError(f"{claim.id} has no construction variant {opts.variant!r}; variants: {known}")
        return True
    candidates(claim, opts)
    return False


def run(args: argparse.Namespace) -> int:
    """Study every claim named, print the tables, write JSON and the plot; 0 when every study ran."""
    from symcot.check.exhaustive import Progress
    from symcot.registry import load_claims, select
    from symcot.report.precision import plot_thresholds, render_claim, render_encoder
    from symcot.study.precision.encoder import study_encoder
    from symcot.study.precision.encoder_replay import with_float_replay
    from symcot.study.precision.run import study
    from symcot.study.precision.summary import claim_json

    opts = _options(args)
    if args.json:
        check_output_path(args.json, "--json")
    if args.plot:
        check_output_path(args.plot, "--plot", (".png", ".svg", ".pdf"))
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise SymcotError("--plot needs matplotlib: pip install 'symcot[plot]'") from None
    claims = select(load_claims(args.proofs), args.claims)
    encoders = {claim.id for claim in claims if _is_encoder(claim, opts)}  # every claim's problem before any run
    t0 = time.perf_counter()
    results = []
    for claim in claims:
        if claim.id in encoders:
            js = with_float_replay(claim, study_encoder(claim, args.max_size, args.variant, opts.formats, args.reach))
            print(render_encoder(js), flush=True)
        else:
            js = claim_json(study(claim, opts, Progress(not args.no_progress)))
            print(render_claim(js), flush=True)
        results.append(js)
        print()
    if args.json:
        report = {"symcot": __version__, "python": platform.python_version(),
                  "seconds_total": round(time.perf_counter() - t0, 2), "claims": results}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1, ensure_ascii=False)
        print(f"JSON report written to {args.json}")
    plotted = [r for r in results if "thresholds" in r]
    if args.plot and plotted:
        plot_thresholds(plotted, args.plot)
        print(f"plot written to {args.plot}")
    elif args.plot:
        print("no plot: an encoder claim has no float thresholds to plot")
    return 0
