"""The ``symcot`` command line, one module per command (``verify``, ``claims``, ``replay``, ``latex``, …).

Every expected failure (unknown claim, malformed input, bad size) prints one line and exits non-zero. A
command module provides ``add_parser(subparsers)``, which registers its options and sets ``func`` to the
function that runs it; :func:`main` dispatches.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from symcot import __version__
from symcot.cli import claims, export, latex, precision, replay, verify
from symcot.errors import SymcotError

#: The command modules, in the order ``symcot --help`` lists them.
COMMANDS = (verify, claims, replay, latex, precision, export)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(2, f"symcot: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    p = _Parser(prog="symcot", description="Machine-check chain-of-thought Transformer constructions.")
    p.add_argument("--version", action="version", version=f"symcot {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for cmd in COMMANDS:
        cmd.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``symcot`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except SymcotError as e:
        print(f"symcot: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("symcot: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - never a traceback, never exit 1 (which means "refuted")
        print(f"symcot: internal error: {type(e).__name__}: {e} (please report it)", file=sys.stderr)
        return 2
