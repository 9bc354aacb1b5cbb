"""Which rows ``symcot verify`` runs: ``-k EXPR`` (a pytest-like expression) and ``--lf`` (the last failures).

A row is named ``claim [variant]`` (``thm:main [as-written]``). ``-k`` takes words joined by ``and``,
``or``, ``not`` and parentheses; a word holds when it is a substring of the row's name, ignoring case, as
pytest's ``-k`` does with test names (``-k "main and not phi"``, ``-k "[repaired]"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from symcot.errors import SymcotError

#: A check of the plan: the claim and one of its checks (``check.variant`` names the variant).
PlanItem = tuple[Any, Any]
#: A compiled ``-k`` expression: does it hold for a row name?
Matcher = Callable[[str], bool]

_KEYWORDS = ("and", "or", "not")
_TOKEN = re.compile(r"\s*(?:(\()|(\))|([^\s()]+))")


def row_name(claim_id: str, variant: str) -> str:
    """How a row is named for ``-k`` and in the cache: ``claim [variant]``."""
    return f"{claim_id} [{variant}]"


@dataclass(frozen=True)
class _Token:
    """A token of a ``-k`` expression: its kind (``(``, ``)``, ``and``, ``or``, ``not``, ``word``, ``end``)."""

    kind: str
    text: str
    column: int


def _tokens(expr: str) -> list[_Token]:
    """The tokens of ``expr``, ending with an ``end`` token; columns count from 1."""
    out: list[_Token] = []
    pos = 0
    while True:
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            break
        if m.group(1):
            out.append(_Token("(", "(", m.start(1) + 1))
        elif m.group(2):
            out.append(_Token(")", ")", m.start(2) + 1))
        else:
            word = m.group(3)
            kind = word if word in _KEYWORDS else "word"
            out.append(_Token(kind, word, m.start(3) + 1))
        pos = m.end()
    out.append(_Token("end", "", len(expr) + 1))
    return out


class _Parser:
    """Recursive descent: ``or`` binds loosest, then ``and``, then ``not``, as in Python and pytest."""

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.tokens = _tokens(expr)
        self.i = 0

    def _peek(self) -> _Token:
        return self.tokens[self.i]

    def _take(self) -> _Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def _error(self, what: str, tok: _Token) -> SymcotError:
        found = "the end" if tok.kind == "end" else repr(tok.text)
        return SymcotError(f"-k {self.expr!r}: expected {what} at column {tok.column}, found {found}")

    def parse(self) -> Matcher:
        if self._peek().kind == "end":
            raise SymcotError("-k: empty expression; give words joined by and, or, not "
                              "(e.g. -k \"main and not phi\")")
        matcher = self._or()
        tok = self._peek()
        if tok.kind != "end":
            raise self._error("and, or or the end", tok)
        return matcher

    def _or(self) -> Matcher:
        parts = [self._and()]
        while self._peek().kind == "or":
            self._take()
            parts.append(self._and())
        return parts[0] if len(parts) == 1 else (lambda name: any(p(name) for p in parts))

    def _and(self) -> Matcher:
        parts = [self._not()]
        while self._peek().kind == "and":
            self._take()
            parts.append(self._not())
        return parts[0] if len(parts) == 1 else (lambda name: all(p(name) for p in parts))

    def _not(self) -> Matcher:
        tok = self._take()
        if tok.kind == "not":
            inner = self._not()
            return lambda name: not inner(name)
        if tok.kind == "(":
            inner = self._or()
            close = self._take()
            if close.kind != ")":
                raise self._error("')'", close)
            return inner
        if tok.kind == "word":
            word = tok.text.lower()
            return lambda name: word in name.lower()
        raise self._error("a word, 'not' or '('", tok)


def compile_keyword(expr: str) -> Matcher:
    """The ``-k`` expression ``expr`` as a predicate on row names; a malformed one is a :class:`SymcotError`."""
    return _Parser(expr).parse()


def select_keyword(plan: Sequence[PlanItem], expr: str) -> list[PlanItem]:
    """The checks of ``plan`` whose row name ``-k expr`` matches; none is a :class:`SymcotError`."""
    matches = compile_keyword(expr)
    kept = [item for item in plan if matches(row_name(item[0].id, item[1].variant))]
    if not kept:
        raise SymcotError(f"-k {expr!r} matches none of the {len(plan)} selected rows (rows are named "
                          "'claim [variant]'; `symcot claims` lists them)")
    return kept


def select_failed(plan: Sequence[PlanItem], failed: Iterable[str]) -> list[PlanItem]:
    """The checks of ``plan`` whose row name is in ``failed`` (empty when none is)."""
    names = set(failed)
    return [item for item in plan if row_name(item[0].id, item[1].variant) in names]


__all__ = ["Matcher", "PlanItem", "compile_keyword", "row_name", "select_failed", "select_keyword"]
