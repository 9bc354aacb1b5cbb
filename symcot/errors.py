"""Exceptions with messages meant for a user, not a traceback reader."""

from __future__ import annotations

import functools
from collections.abc import Iterable


class SymcotError(Exception):
    """Base class of every error symcot raises on purpose."""


class InvalidInputError(SymcotError, ValueError):
    """An input (graph, tree, Dyck word, size) outside the domain a construction or algorithm accepts."""


class DimensionError(SymcotError, ValueError):
    """A map, block or matrix whose sizes do not fit together (raised when the construction is stated)."""


class DegreeError(SymcotError, ValueError):
    """A map that is not a polynomial of degree at most two in its input coordinates."""


class UnknownClaimError(SymcotError, KeyError):
    """A claim id that no module in ``proofs/`` declares."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable.
        return str(self.args[0]) if self.args else "unknown claim"


class UserCodeError(SymcotError):
    """An exception raised in a user's code (a reference, prompt, parser, family or proofs module), located.

    The message names the file and line where it was raised (the innermost frame outside symcot, the
    standard library and installed packages), the exception, and what symcot was doing (claim, variant,
    input). ``traceback_text`` keeps the formatted traceback for ``--debug``; both survive pickling, so
    an exception raised in a worker process arrives in the parent with its location.
    """

    def __init__(self, message: str, traceback_text: str | None = None):
        super().__init__(message)
        self.message = message
        self.traceback_text = traceback_text

    def __reduce__(self) -> tuple[type, tuple[str, str | None]]:
        return (type(self), (self.message, self.traceback_text))

    def __str__(self) -> str:
        return self.message


class StatementNameError(SymcotError, ValueError):
    """A block, view, head or token class named in a statement that the layout, decoder or views do not have.

    Raised when the statement or the construction is made; the message is one line: where the name was written,
    the name, the names that exist and the closest of them.
    """


@functools.lru_cache(maxsize=1)
def _library_dirs() -> tuple[str, ...]:
    """Directories whose frames are not the user's: symcot itself, the standard library, site-packages."""
    import os
    import sysconfig

    dirs = {os.path.dirname(os.path.abspath(__file__))}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.abspath(p))
    return tuple(sorted(d.rstrip(os.sep) + os.sep for d in dirs))


def user_frame(exc: BaseException) -> tuple[str, int, str] | None:
    """``(file, line, function)`` of the innermost traceback frame in the user's code, or ``None``.

    The user's code is any file outside the symcot package, the standard library and installed
    packages (a proofs module, a notebook cell, a script); code that Dask rebuilt from a pickle
    (``<dynamic-code>``) is not. ``None`` when every frame is library code.
    """
    found = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        path = code.co_filename
        if _is_user_file(path):
            found = (path, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found


def _is_user_file(path: str) -> bool:
    import os

    generated = path.startswith(("<frozen", "<dynamic-code>", "<string>"))  # <string>: a dataclass's __init__
    return not generated and not os.path.abspath(path).startswith(_library_dirs())


def caller_site() -> str:
    """``file:line`` of the innermost frame of the running stack in the user's code (``""`` when there is none).

    What a statement records when it is made, so that an error found later (a block name checked against the
    decoder's layout) names the line the user wrote.
    """
    import sys

    frame = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if _is_user_file(path):
            return f"{path}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return ""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'cnt'?"`` for the closest of ``known`` to ``name`` (``""`` when none is close)."""
    import difflib

    near = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def locate(exc: BaseException, context: str = "") -> SymcotError:
    """``exc`` as a one-line :class:`SymcotError` that says where and in what it was raised.

    A :class:`SymcotError` raised on purpose (bad input, a size that does not fit) keeps its message,
    with ``context`` (``"claim X [variant], input Y"``) appended once. Any other exception becomes a
    :class:`UserCodeError` naming the user's file and line (when the traceback reaches the user's code).
    """
    import traceback

    if isinstance(exc, UserCodeError):
        if context and context not in exc.message:
            return UserCodeError(f"{exc.message}; {context}", exc.traceback_text)
        return exc
    if isinstance(exc, SymcotError):
        return UserCodeError(f"{exc} ({context})") if context else exc
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    where = user_frame(exc)
    head, func = "", ""
    if where is not None:
        head = f"{where[0]}:{where[1]}: "
        func = f"in {where[2]}" if where[2] != "<module>" else ""
    parts = [p for p in (func, context) if p]
    detail = f" ({', '.join(parts)})" if parts else ""
    return UserCodeError(f"{head}{type(exc).__name__}: {exc}{detail}", text)


class DescriptionError(SymcotError, ValueError):
    """A model description that states no model (an unknown mask, a tie rule on softmax, ε ≤ 0, …)."""


class UnsupportedDescription(SymcotError, NotImplementedError):
    """An engine asked to run a model description it cannot run exactly (the exact engine can)."""


class Undecided(SymcotError):
    """A decision (an argmax, a comparison with a reference) that certified intervals could not settle.

    ``what`` says which decision, ``interval`` the values it was asked about; ``position``, ``layer`` and
    ``head`` locate it (``None`` where they do not apply or are not known yet).
    """

    def __init__(self, what: str, interval: str, position: int | None = None, layer: int | None = None,
                 head: str | None = None):
        self.what, self.interval, self.position, self.layer, self.head = what, interval, position, layer, head
        super().__init__(self.message())

    def message(self) -> str:
        """One line: the decision, where it was asked, and the interval."""
        where = ", ".join(f"{k} {v}" for k, v in (("position", self.position), ("layer", self.layer),
                                                    ("head", self.head)) if v is not None)
        return f"undecided: {self.what}{f' at {where}' if where else ''}: {self.interval}"

    def at(self, position: int | None = None, layer: int | None = None, head: str | None = None) -> Undecided:
        """The same, located (fields already set are kept)."""
        return Undecided(self.what, self.interval, self.position if self.position is not None else position,
                         self.layer if self.layer is not None else layer, self.head if self.head is not None else head)

    def as_dict(self) -> dict[str, object]:
        """JSON-friendly form (the report's counterexample field for an ``unknown`` row)."""
        return {"kind": "undecided", "what": self.what, "interval": self.interval, "position": self.position,
                "layer": self.layer, "head": self.head}

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), (self.what, self.interval, self.position, self.layer, self.head))
