"""Z3's limits as resource counts: a query is decided, or not, the same way on a loaded machine as on an idle one.

Every Z3 solver and optimiser whose answer can change a verdict, a derived rule or a reported counterexample is
limited by :func:`budget`: Z3's resource count (``rlimit``), :data:`RLIMIT_PER_MS` units per millisecond of the
nominal ``timeout_ms``, with the clock (:data:`BACKSTOP` times the nominal limit) a backstop only, where the
resource count grows slowly.
"""

from __future__ import annotations

from typing import Any

#: Z3's resource units per nominal millisecond (Z3 spent about 2,200 units a millisecond on the 2-core machine).
RLIMIT_PER_MS = 5_000
#: The clock limit, a multiple of ``timeout_ms``: a backstop only.
BACKSTOP = 10


def budget(s: Any, timeout_ms: int) -> None:
    """Limit every ``check`` of ``s`` (a ``z3.Solver`` or ``z3.Optimize``) by resources, the clock a backstop."""
    s.set("rlimit", int(timeout_ms) * RLIMIT_PER_MS)
    s.set("timeout", int(timeout_ms) * BACKSTOP)
