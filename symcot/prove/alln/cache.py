"""The answers of the prover's solver queries within one process, so that a query asked twice is solved once.

Rows of one run ask many of the same queries: every row over a vocabulary proves its derived facts, and the
variants of a construction share most of their step obligations. A query is the list of named hypotheses and
the goal; two queries are the same when their SMT-LIB text (each formula with the declarations of the symbols
it uses, so two symbols of one name and different sorts never read alike) is, up to a consistent renaming of
the prover's fresh constants (``x!17``: :func:`symcot.prove.alln.ops.fresh_int` numbers them per process). Renaming free
constants one to one changes no answer, so the stored answer is the answer.

``proved`` and ``failed`` answers are kept whatever the time limit; an ``unknown`` one only answers a query
asked with at most the time it had. The unsat core is kept as positions in the hypothesis list, which is the
same list. Every formula whose text is memoised is kept alive with it (Z3 reuses the ids of freed terms).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

#: A fresh constant's name: a prefix and ``!`` and a number (the prover's ``t!``, ``λ!`` have no number).
_FRESH = re.compile(r"([^\s()|!]+)!(\d+)")


def digest(text: str) -> bytes:
    """The digest of a query's ``text`` with the fresh constants numbered by first appearance (module docstring)."""
    seen: dict[str, int] = {}

    def rename(m: re.Match[str]) -> str:
        return f"{m.group(1)}!~{seen.setdefault(m.group(0), len(seen))}"

    return hashlib.sha256(_FRESH.sub(rename, text).encode()).digest()


@dataclass(frozen=True)
class Answer:
    """A stored answer: ``(status, names in the core, detail, positions of the core)`` and the time it had."""

    status: str
    used: tuple[str, ...]
    detail: str
    core: tuple[int, ...]
    timeout_s: float


class QueryCache:
    """Answers by canonical query text (module docstring); ``hits`` and ``misses`` count the lookups.

    :meth:`share` adds a store that other processes read and write too (the workers of a pooled run): an answer
    found there is an answer to the same query, whichever process's solver gave it.
    """

    def __init__(self) -> None:
        self._text: dict[int, tuple[Any, str]] = {}
        self._answers: dict[bytes, Answer] = {}
        self._shared: MutableMapping[bytes, Answer] | None = None
        self.hits = 0
        self.misses = 0

    def share(self, store: MutableMapping[bytes, Answer] | None) -> None:
        """Also look answers up in, and store them to, ``store`` (``None``: this process's answers only)."""
        self._shared = store

    def _sexpr(self, f: Any) -> str:
        key = f.get_id() if hasattr(f, "get_id") else id(f)
        got = self._text.get(key)
        if got is None or got[0] is not f:
            s = z3.Solver()
            s.add(f)
            got = (f, s.sexpr())  # declare-fun of every symbol in f, then the assertion
            self._text[key] = got
        return got[1]

    def key(self, hyps: Sequence[tuple[str, Any]], goal: Any) -> bytes:
        """The canonical text's digest: names, formulas, goal, fresh constants numbered by first appearance."""
        return digest("\n".join([*(f"{name}\t{self._sexpr(f)}" for name, f in hyps), f"goal\t{self._sexpr(goal)}"]))

    @staticmethod
    def derived(key: bytes, *parts: str) -> bytes:
        """The key of a query computed from the query of ``key`` by a deterministic rule named by ``parts``.

        The ground instances of a query (:func:`symcot.prove.alln.ground.ground`) are a function of its terms'
        structure, the symbols' kinds and the hints: keyed by those, their own (large) text is never hashed.
        """
        return hashlib.sha256(b"\0".join([key, *(p.encode() for p in parts)])).digest()

    def get(self, key: bytes, timeout_s: float) -> Answer | None:
        """The stored answer for ``key`` if it answers a query with this time limit."""
        a = self._answers.get(key)
        if (a is None or a.status == "unknown") and self._shared is not None:
            other = self._shared.get(key)
            if other is not None:
                self._put(self._answers, key, other)
                a = self._answers[key]
        if a is None or (a.status == "unknown" and timeout_s > a.timeout_s):
            self.misses += 1
            return None
        self.hits += 1
        return a

    def put(self, key: bytes, answer: Answer) -> None:
        """Store ``answer`` (an ``unknown`` one does not replace a decided one), in the shared store too."""
        self._put(self._answers, key, answer)
        if self._shared is not None:
            self._put(self._shared, key, answer)

    @staticmethod
    def _put(store: MutableMapping[bytes, Answer], key: bytes, answer: Answer) -> None:
        old = store.get(key)
        better = old is None or (old.status == "unknown"
                                 and (answer.status != "unknown" or answer.timeout_s > old.timeout_s))
        if better:
            store[key] = answer


#: The process's cache (the prover's queries all go through it).
CACHE = QueryCache()
