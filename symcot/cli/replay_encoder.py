"""``symcot replay`` on an encoder construction: one string, its heads, blocks, readout and reference.

A grid check (:class:`~symcot.check.grid.GridCheck`) is replayed at one point: ``--at k=2,D=3``, or else the
smallest point whose inputs include the string (the first line says which). The string comes with ``--input``
(or ``--string``): one symbol per character (``0110``), or symbols separated by spaces or commas. It must be
an input of the check's families (a symbol outside the alphabet, or a length the claim does not read, is one
error line naming them). The table is :func:`symcot.report.encoder_text.render_encoder`'s, fitted to the
terminal's width.
"""

from __future__ import annotations

import argparse
from typing import Any

from symcot.errors import SymcotError

#: Options of ``replay`` that build a graph, a tree or a λ: none applies to an encoder's string.
DECODER_OPTIONS = (("graph", "--graph"), ("graph_file", "--graph-file"), ("tree", "--tree"), ("dyck", "--dyck"),
                   ("n", "--n"), ("source", "--source"), ("lam", "--lam"), ("plot", "--plot"))


def alphabet_text(families: list[Any]) -> str:
    """``strings over {0, 1}``, or the families' names where they have no fixed alphabet."""
    texts = []
    for fam in families:
        symbols = getattr(fam, "symbols", None)
        texts.append(f"strings over {{{', '.join(symbols)}}}" if symbols is not None else str(fam.name))
    return "; or ".join(dict.fromkeys(texts))


def _example(families: list[Any]) -> str:
    """A short input of the first family, as ``--input`` takes it."""
    import itertools

    fam = families[0]
    for size in (3, 2, 4, 1, 5):
        if size >= fam.min_size and fam.count(size):
            s = next(itertools.islice(fam.inputs(size), fam.count(size) // 2, None))
            return "".join(s) if all(len(a) == 1 for a in s) else repr(" ".join(s))
    return "…"


def read_input(args: argparse.Namespace, title: str, chk: Any) -> tuple[str, ...]:
    """The string of ``--input``, checked against ``chk``'s families (one error line otherwise)."""
    from symcot.errors import InvalidInputError
    from symcot.inputs.strings import read_string

    reads = f"{title} reads {alphabet_text(chk.families)}"
    _no_decoder_options(args, reads)
    if args.input is None:
        raise SymcotError(f"{reads}: give one with --input, e.g. --input {_example(chk.families)}")
    try:
        return read_string(args.input, chk.families)
    except InvalidInputError as e:
        raise SymcotError(f"--input {e} ({title})") from None


def replay_encoder(args: argparse.Namespace, claim_id: str, chk: Any) -> int:
    """Replay ``--input`` through ``chk``'s encoder and print the table; 0 when everything matches, else 1."""
    if getattr(args, "at", None) is not None:
        raise SymcotError(f"--at names a point of a parametrised check; {claim_id} [{chk.variant}] has no parameters")
    title = f"{claim_id} [{chk.variant}]"
    return show_trace(args, title, chk, read_input(args, title, chk))


def _no_decoder_options(args: argparse.Namespace, reads: str) -> None:
    for dest, option in DECODER_OPTIONS:
        if getattr(args, dest, None) not in (None, False):
            raise SymcotError(f"{option} does not apply to an encoder: {reads}; give one with --input")
    if args.undirected:
        raise SymcotError(f"--undirected does not apply to an encoder: {reads}; give one with --input")


def replay_grid(args: argparse.Namespace, claim_id: str, grid: Any) -> int:
    """Replay ``--input`` at the point ``--at`` of a grid check (else the smallest point whose inputs include it)."""
    from symcot.check.grid import parse_at
    from symcot.errors import InvalidInputError

    title = f"{claim_id} [{grid.variant}]"
    point = None if args.at is None else parse_at(args.at, grid)
    shown = grid.smallest() if point is None else point
    reads = f"{title} reads, at each point ({', '.join(grid.params)}), strings over its alphabet"
    _no_decoder_options(args, reads)
    if args.input is None:
        example = "".join(grid.alphabet(shown) or ("…",))
        raise SymcotError(f"{reads}: give one with --input, e.g. --input {example}")
    try:
        if point is None:
            point, s = grid.pick(args.input)
            picked = (f"at {grid.label(point)}: the smallest point of the grid whose inputs include the string "
                      f"(--at name=value,… for another; points: {grid.valid_points()})")
        else:
            s = grid.read(args.input, point)
            picked = f"at {grid.label(point)} (--at)"
    except InvalidInputError as e:
        shape = "".join(grid.wrap(("w",)))
        typed = f"; type w alone, the input is {shape}" if shape != "w" else ""
        raise SymcotError(f"--input {e} ({title}{typed})") from None
    print(picked)
    if grid.note:
        print(grid.note)
    return show_trace(args, f"{title} at {grid.label(point)}", grid.make(point, len(s)), s)


def show_trace(args: argparse.Namespace, title: str, chk: Any, s: tuple[str, ...]) -> int:
    """Run ``s`` through ``chk``'s encoder and print the table; 0 when everything matches, else 1."""
    from symcot.check.encoder_trace import trace_encoder
    from symcot.errors import locate
    from symcot.report.encoder_text import render_encoder
    from symcot.report.fit import terminal_width

    if args.width is not None and args.width < 20:
        raise SymcotError(f"--width must be at least 20, got {args.width}")
    word = "".join(s) if all(len(a) == 1 for a in s) else " ".join(s)
    try:
        trace = trace_encoder(chk, s, title)
    except Exception as e:  # noqa: BLE001 - an undecided choice, or the user's code: one line naming where
        raise locate(e, f"replaying {title} on w = {word}") from e
    print(render_encoder(trace, args.width or terminal_width(), args.all_blocks))
    return 0 if trace.ok else 1
