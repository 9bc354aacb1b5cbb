"""``symcot export``: a claim's compiled decoder at one size as a numpy ``.npz`` or a ``torch.nn.Module`` file."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from symcot.cli.size import N_HELP
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``export`` subcommand's options."""
    p = sub.add_parser("export", help="write a construction's weights at one size (numpy .npz or torch)")
    p.add_argument("claim", metavar="CLAIM")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--n", type=int, metavar="N", help=f"export at this value of {N_HELP}")
    size.add_argument("--vertices", type=int, metavar="V",
                      help="instead of --n: the number of vertices of the example input (of the ordered tree of "
                           "a Dyck word w)")
    p.add_argument("--lam", help="the constant λ (an integer or p/q; default: the construction's rule at this size)")
    p.add_argument("--variant", help="construction variant (default: as-written)")
    p.add_argument("--format", choices=["numpy", "torch"], required=True, dest="fmt")
    p.add_argument("-o", "--output", required=True, metavar="PATH")
    p.add_argument("--proofs", metavar="DIR")
    p.set_defaults(func=run)


def _lam(text: str) -> int | Fraction:
    try:
        v = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SymcotError(f"--lam must be an integer or a fraction p/q, got {text!r}") from None
    return v.numerator if v.denominator == 1 else v


def example_input(chk: Any, size: int) -> tuple[Any, Any]:
    """An input of ``size`` and its family.

    The path (the ordered tree of U^{n-1}D^{n-1}) where the claim's domain has it, else the first input of the first
    exhaustive
    family with that size.
    """
    from symcot.check.extremal import extremal_family, extremal_inputs, in_domain

    kind = getattr(chk, "input_kind", "graph")
    if in_domain(kind, chk.families):
        return extremal_inputs(kind, size)[0][1], extremal_family(kind)
    for fam in chk.families:
        if fam.exhaustive and fam.min_size <= size:
            for inp in fam.inputs(size):
                return inp, fam
    raise SymcotError(f"no input family of this claim has size {size}")


def run(args: argparse.Namespace) -> int:
    """Build the decoder at ``--n`` or ``--vertices`` (and ``--lam``) and write it; 0 on success."""
    from symcot.check.size import check_size_parameter
    from symcot.cli.common import check_output_path
    from symcot.cli.kinds import decoders_only, is_encoder
    from symcot.cli.replay import find_construction
    from symcot.cli.size import at_least_one, parameter_or_none, size_words, vertices_for
    from symcot.export import TORCH_HINT, save_npz, state_dict
    from symcot.ir.symbols import lam

    at_least_one("--n" if args.n is not None else "--vertices", args.n if args.n is not None else args.vertices)
    lam_value = _lam(args.lam) if args.lam is not None else None
    check_output_path(args.output, "-o")
    if args.fmt == "torch":
        try:
            import torch  # noqa: F401
        except ImportError:
            raise SymcotError(f"--format torch needs PyTorch: {TORCH_HINT}") from None
    claim, chk, _ = find_construction(args.claim, args.variant, args.proofs, "export")
    if is_encoder(chk):
        raise decoders_only(claim, "export", "its torch module runs a causal decoder; symcot latex prints an "
                                             "encoder's weights and rules")
    cons = chk.construction()
    if lam_value is not None:
        if cons.lam_rule is None and cons.lam_fixed is None:
            raise SymcotError(f"{args.claim} [{cons.variant}] has no constant λ; drop --lam")
        cons = cons.with_lambda(lam_value)
    param = check_size_parameter(chk, cons) if args.n is not None else parameter_or_none(chk, cons)
    size = vertices_for(param, args.n, cons) if param is not None and args.n is not None else args.vertices
    inp, fam = example_input(chk, size)
    dec = cons.concrete(inp)
    subs = dec.subs
    state, meta = state_dict(dec)
    prompt = cons.prompt(inp)
    meta.update({"claim": args.claim, "variant": cons.variant, "vertices": size, "lambda_rule": cons.lambda_text,
                 "example": {"input": fam.describe(inp), "labels": prompt.labels,
                             "prompt": [[float(v) for v in tok] for tok in prompt.tokens]}})
    if args.fmt == "numpy":
        save_npz(args.output, state, meta)
    else:
        from symcot.export import torch_api

        tm = torch_api()
        tm.save(args.output, tm.CoTDecoder(state, meta))
    lam_text = f", λ = {subs[lam]}" if lam in subs else ""
    print(f"{args.output}: {args.claim} [{cons.variant}] at {size_words(param, size)}{lam_text}: "
          f"d = {meta['d_model']}, {meta['n_layers']} layer{'' if meta['n_layers'] == 1 else 's'}, "
          f"heads per layer {[len(x['heads']) for x in meta['layers']]}, "
          f"{sum(a.size for a in state.values())} weights ({args.fmt}; see docs/export.md)")
    return 0
