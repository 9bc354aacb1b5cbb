"""The ``symcot`` command line, one module per command (``verify``, ``claims``, ``replay``, ``latex``, …).

Every expected failure (unknown claim, malformed input, bad size) prints one line and exits non-zero. A
command module provides ``add_parser(subparsers)``, which registers its options and sets ``func`` to the
function that runs it; :func:`main` dispatches.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Iterable
from typing import Any

from symcot import __version__
from symcot.cli import claims, coverage, export, latex, mutate, precision, replay, temperature, verify
from symcot.cli.argv import attach_dash_values, unrecognized
from symcot.cli.common import add_debug, interrupt_status, silence_stdout
from symcot.errors import SymcotError, UserCodeError, locate, user_frame

#: The command modules, in the order ``symcot --help`` lists them.
COMMANDS = (verify, claims, replay, latex, precision, temperature, export, mutate, coverage)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2.

    A command's parser also takes a value that starts with a minus after its option (``--tree -1,0,0``) and
    answers an unknown option with the closest one (:mod:`symcot.cli.argv`).
    """

    def error(self, message: str) -> Any:
        self.exit(2, f"symcot: error: {message} (see '{self.prog} --help')\n")

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> tuple[Any, list[str]]:
        if args is not None:  # a command's own words, passed on by the top-level parser
            args = attach_dash_values(list(args), self._option_string_actions)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:  # a command: nothing after it may be left over
            self.error(unrecognized(extras, list(self._option_string_actions)))
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    p = _Parser(prog="symcot", description="Machine-check chain-of-thought Transformer constructions.")
    p.add_argument("--version", action="version", version=f"symcot {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for cmd in COMMANDS:
        cmd.add_parser(sub)
    for sp in sub.choices.values():  # every command takes --debug
        if not any("--debug" in a.option_strings for a in sp._actions):
            add_debug(sp)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``symcot`` console script.

    Expected failures print one line (``symcot: error: …``) and return 2; an exception raised in the
    user's own code names its file and line; ``--debug`` adds the traceback. A closed standard output
    (``symcot claims | head``) ends the command quietly.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    debug = bool(getattr(args, "debug", False))
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here when the output fitted in the buffer
        return status
    except BrokenPipeError:
        silence_stdout()
        return 0
    except KeyboardInterrupt as e:
        print("symcot: interrupted", file=sys.stderr)
        return interrupt_status(e)
    except SymcotError as e:
        if debug:
            traceback.print_exception(type(e), e, e.__traceback__)
        print(f"symcot: error: {e}" + ("" if debug or not _has_user_traceback(e) else
                                       " (--debug for the traceback)"), file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - never a traceback unless asked, never exit 1 (which means "refuted")
        if debug:
            traceback.print_exception(type(e), e, e.__traceback__)
        if user_frame(e) is not None:
            print(f"symcot: error: {locate(e)}" + ("" if debug else " (--debug for the traceback)"), file=sys.stderr)
        else:
            print(f"symcot: internal error: {type(e).__name__}: {e} (please report it; --debug for the traceback)",
                  file=sys.stderr)
        return 2


def _has_user_traceback(e: BaseException) -> bool:
    """Whether ``e`` wraps an exception from the user's code (so ``--debug`` has a traceback worth showing)."""
    if isinstance(e, UserCodeError):
        return e.traceback_text is not None
    cause = e.__cause__
    return isinstance(cause, Exception) and not isinstance(cause, SymcotError) and user_frame(cause) is not None
