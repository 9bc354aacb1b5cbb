"""What every command shares: output paths checked before a run, options that do not apply, signals, pipes.

Every command that writes a file calls :func:`check_output_path` on it *before* it starts working, so a
missing directory or an unusable file name fails in well under a second rather than after a long run.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from symcot.errors import SymcotError
from symcot.latex.text import plural  # noqa: F401 - re-exported for the commands


def check_output_path(path: str | os.PathLike[str], option: str, suffixes: Sequence[str] | None = None) -> Path:
    """``path`` as a :class:`Path` if a file can be written there; else a :class:`SymcotError` naming ``option``.

    Checks, without creating anything: the name is not empty and not a directory, its directory exists
    and is writable, an existing file is writable, and (when ``suffixes`` is given, e.g.
    ``(".png", ".svg", ".pdf")``) the extension is one of them.
    """
    text = os.fspath(path)
    if not text.strip():
        raise SymcotError(f"{option}: empty file name")
    p = Path(text).expanduser()
    if p.is_dir():
        raise SymcotError(f"{option} {text}: is a directory; give a file name")
    if suffixes is not None and p.suffix.lower() not in suffixes:
        kinds = ", ".join(suffixes[:-1]) + (f" or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0])
        raise SymcotError(f"{option} writes {kinds}, not {p.suffix or 'a file without extension'} ({text})")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise SymcotError(f"{option} {text}: directory {parent} does not exist")
    if not parent.is_dir():
        raise SymcotError(f"{option} {text}: {parent} is not a directory")
    if p.exists() and not os.access(p, os.W_OK):
        raise SymcotError(f"{option} {text}: file is not writable")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise SymcotError(f"{option} {text}: directory {parent} is not writable")
    return p


def check_distinct(paths: dict[str, str | None]) -> None:
    """Two options (``--json``, ``--markdown``) must not name the same file."""
    seen: dict[Path, str] = {}
    for option, path in paths.items():
        if not path:
            continue
        key = Path(path).expanduser().resolve()
        if key in seen:
            raise SymcotError(f"{seen[key]} and {option} name the same file {path}")
        seen[key] = option


def not_applicable(option: str, why: str) -> SymcotError:
    """The error for an option given where it does nothing (``--n only applies to --graph``)."""
    return SymcotError(f"{option} {why}")


# -- signals ---------------------------------------------------------------------------------------


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so the same clean-up runs (pools terminated, reports written)."""

    signum = signal.SIGTERM


def interrupt_status(exc: BaseException) -> int:
    """The exit status of an interrupted run: 143 after SIGTERM, 130 after SIGINT."""
    return 128 + int(getattr(exc, "signum", signal.SIGINT))


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise in this process (``KeyboardInterrupt`` / :class:`Terminated`).

    Worker processes forked inside the block inherit the handlers: there SIGINT is ignored (a Ctrl-C on
    the terminal reaches the whole process group; the parent terminates its pools) and SIGTERM ends the
    worker at once, without a traceback.
    """
    main_pid = os.getpid()

    def on_int(signum: int, frame: FrameType | None) -> None:
        if os.getpid() == main_pid:
            raise KeyboardInterrupt

    def on_term(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != main_pid:
            os._exit(128 + signum)
        raise Terminated

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    # a signal the parent process ignores stays ignored (a background job of a non-interactive shell)
    if old[signal.SIGINT] != signal.SIG_IGN:
        signal.signal(signal.SIGINT, on_int)
    if old[signal.SIGTERM] != signal.SIG_IGN:
        signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@contextmanager
def uninterruptible() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends (used while the reports of an interrupted run are written)."""
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in old:
        signal.signal(s, signal.SIG_IGN)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def silence_stdout() -> None:
    """Point standard output at ``/dev/null`` (its reader went away: ``symcot claims | head``).

    Later writes, and the interpreter's flush at exit, then succeed quietly instead of raising
    ``BrokenPipeError``.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - no file descriptor (a replaced sys.stdout)
        pass


def add_debug(parser: Any) -> None:
    """``--debug``: print the traceback of an error instead of one line."""
    parser.add_argument("--debug", action="store_true",
                        help="on an error, print the full traceback (for a bug in your own code or in symcot)")
