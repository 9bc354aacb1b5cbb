"""Exceptions with messages meant for a user, not a traceback reader."""


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
