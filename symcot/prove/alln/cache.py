"""The answers of the prover's solver queries within one process, so that a query asked twice is solved once.

Rows of one run ask many of the same queries: every row over a vocabulary proves its derived facts, and the
variants of a construction share most of their step obligations. A query's key is the digest of its canonical
serialisation (:func:`serialise`): every hypothesis with its name (JSON strings: any name, newlines and tabs
included, reads as itself), the goal, the hint terms, the symbol kinds, and then what the caller adds (which try,
its resource limit). The terms are written as Z3 holds them, not as a printer shows them: each node of a term's
DAG with its operator, its children's positions, a numeral with its value and sort, a bound variable by its de
Bruijn index and sort (its name is only a name: Z3's printer lets a binder capture a free constant of the same
name), a quantifier with its kind, weight, bound sorts and patterns; and every uninterpreted symbol by its position
in one table of the query's symbols, each entry with its name and its whole signature (two symbols of one name and
different sorts are two entries). So two queries have one key only if they are the same query up to a consistent
renaming of the prover's fresh constants (``x!17``: :func:`symcot.prove.alln.ops.fresh_int` numbers them per
process): a symbol named ``prefix!digits`` is written as ``prefix`` and its signature, and the table numbers it
by first appearance. Renaming uninterpreted symbols one to one changes no answer, so the stored answer is the
answer. A term the serialisation does not know (an operator with parameters, a sort other than Boolean, integer,
real, array and uninterpreted) has no key: the query is solved, never looked up.

An answer is stored under the key of the query with its limit (:meth:`QueryCache.derived`): a query asked under
another limit is another query, so whether it is decided never depends on which rows ran before it, or on which
worker of a pooled run asked it first. The unsat core is kept as positions in the hypothesis list, which is the
same list. Every formula whose serialisation is memoised is kept alive with it (Z3 reuses the ids of freed terms).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

#: A fresh constant's name: a prefix and ``!`` and a number (the prover's ``t!``, ``λ!`` have no number).
_FRESH = re.compile(r"(.+)!(\d+)", re.DOTALL)

_c = z3.z3core


class NoKey(Exception):
    """A term the canonical serialisation does not know: the query is solved without the cache."""


def _symbol(ref: Any, sym: Any) -> str:
    if _c.Z3_get_symbol_kind(ref, sym) == z3.Z3_INT_SYMBOL:
        return f"#{_c.Z3_get_symbol_int(ref, sym)}"  # an int symbol: no string symbol starts so (JSON-escaped)
    return "$" + _c.Z3_get_symbol_string(ref, sym)


_SORTS = {z3.Z3_BOOL_SORT: "Bool", z3.Z3_INT_SORT: "Int", z3.Z3_REAL_SORT: "Real"}


def _sort(ref: Any, s: Any) -> Any:
    kind = _c.Z3_get_sort_kind(ref, s)
    if kind in _SORTS:
        return _SORTS[kind]
    if kind == z3.Z3_UNINTERPRETED_SORT:
        return ["U", _symbol(ref, _c.Z3_get_sort_name(ref, s))]
    if kind == z3.Z3_ARRAY_SORT:
        return ["A", _sort(ref, _c.Z3_get_array_sort_domain(ref, s)), _sort(ref, _c.Z3_get_array_sort_range(ref, s))]
    raise NoKey(f"sort kind {kind}")


def _signature(ref: Any, d: Any) -> list[Any]:
    return [[_sort(ref, _c.Z3_get_domain(ref, d, k)) for k in range(_c.Z3_get_domain_size(ref, d))],
            _sort(ref, _c.Z3_get_range(ref, d))]


class _Term:
    """One formula's serialisation: its DAG's nodes, and the uninterpreted symbols it uses in order."""

    def __init__(self, f: Any) -> None:
        self.keep = f  # alive while memoised
        self.nodes: list[Any] = []
        self.symbols: list[tuple[str, str]] = []  # (name, signature as JSON) per symbol, local numbering
        ref = f.ctx.ref()
        self._ref = ref
        self._pos: dict[int, int] = {}
        self._sym: dict[tuple[str, str], int] = {}
        self.root = self._walk(f.as_ast())
        self.text = json.dumps(self.nodes, ensure_ascii=False, separators=(",", ":"))
        del self._pos, self._sym, self._ref

    def _walk(self, root: Any) -> int:
        ref = self._ref
        todo: list[tuple[Any, bool]] = [(root, False)]
        while todo:
            a, ready = todo.pop()
            k = _c.Z3_get_ast_id(ref, a)
            if k in self._pos:
                continue
            kids = self._children(a)
            if not ready:
                todo.append((a, True))
                todo.extend((b, False) for b in reversed(kids) if _c.Z3_get_ast_id(ref, b) not in self._pos)
                continue
            self._pos[k] = len(self.nodes)
            self.nodes.append(self._node(a, [self._pos[_c.Z3_get_ast_id(ref, b)] for b in kids]))
        return self._pos[_c.Z3_get_ast_id(ref, root)]

    def _children(self, a: Any) -> list[Any]:
        ref = self._ref
        kind = _c.Z3_get_ast_kind(ref, a)
        if kind == z3.Z3_APP_AST:
            return [_c.Z3_get_app_arg(ref, a, j) for j in range(_c.Z3_get_app_num_args(ref, a))]
        if kind == z3.Z3_QUANTIFIER_AST:
            pats = [_c.Z3_pattern_to_ast(ref, _c.Z3_get_quantifier_pattern_ast(ref, a, j))
                    for j in range(_c.Z3_get_quantifier_num_patterns(ref, a))]
            nopats = [_c.Z3_get_quantifier_no_pattern_ast(ref, a, j)
                      for j in range(_c.Z3_get_quantifier_num_no_patterns(ref, a))]
            return [_c.Z3_get_quantifier_body(ref, a), *pats, *nopats]
        if kind == z3.Z3_NUMERAL_AST or kind == z3.Z3_VAR_AST:
            return []
        raise NoKey(f"AST kind {kind}")

    def _node(self, a: Any, kids: list[int]) -> list[Any]:
        ref = self._ref
        kind = _c.Z3_get_ast_kind(ref, a)
        if kind == z3.Z3_NUMERAL_AST:
            return ["num", _c.Z3_get_numeral_string(ref, a), _sort(ref, _c.Z3_get_sort(ref, a))]
        if kind == z3.Z3_VAR_AST:
            return ["var", _c.Z3_get_index_value(ref, a), _sort(ref, _c.Z3_get_sort(ref, a))]
        if kind == z3.Z3_QUANTIFIER_AST:
            q = "forall" if _c.Z3_is_quantifier_forall(ref, a) else (
                "exists" if _c.Z3_is_quantifier_exists(ref, a) else "lambda")
            bound = [_sort(ref, _c.Z3_get_quantifier_bound_sort(ref, a, j))
                     for j in range(_c.Z3_get_quantifier_num_bound(ref, a))]
            return [q, _c.Z3_get_quantifier_weight(ref, a), bound, _c.Z3_get_quantifier_num_patterns(ref, a), kids]
        d = _c.Z3_get_app_decl(ref, a)
        op = _c.Z3_get_decl_kind(ref, d)
        if op == z3.Z3_OP_UNINTERPRETED:
            sym = (_symbol(ref, _c.Z3_get_decl_name(ref, d)), json.dumps(_signature(ref, d)))
            if sym not in self._sym:
                self._sym[sym] = len(self.symbols)
                self.symbols.append(sym)
            return ["sym", self._sym[sym], kids]
        if _c.Z3_get_decl_num_parameters(ref, d):
            raise NoKey(f"operator {_c.Z3_get_symbol_string(ref, _c.Z3_get_decl_name(ref, d))} with parameters")
        return ["op", op, _symbol(ref, _c.Z3_get_decl_name(ref, d)), _sort(ref, _c.Z3_get_range(ref, d)), kids]


def _entry(sym: tuple[str, str]) -> list[str]:
    """A symbol's entry in the query's table: a fresh constant by its prefix only (module docstring)."""
    name, sig = sym
    m = _FRESH.fullmatch(name)
    return ["fresh", m.group(1), sig] if m else ["name", name, sig]


def serialise(terms: Sequence[tuple[str, _Term]], extra: Any) -> str:
    """The canonical text of a query: each ``(section, term)`` with the query's symbols, then ``extra`` (JSON)."""
    table: dict[tuple[str, str], int] = {}
    entries: list[list[str]] = []
    parts = []
    for section, t in terms:
        refs = []
        for sym in t.symbols:
            if sym not in table:
                table[sym] = len(entries)
                entries.append(_entry(sym))
            refs.append(table[sym])
        parts.append([section, t.text, t.root, refs])
    return json.dumps({"terms": parts, "symbols": entries, "extra": extra}, ensure_ascii=False,
                      separators=(",", ":"))


@dataclass(frozen=True)
class Answer:
    """A stored answer: ``(status, names in the core, detail, positions of the core)`` and the limit it had."""

    status: str
    used: tuple[str, ...]
    detail: str
    core: tuple[int, ...]
    timeout_s: float


class QueryCache:
    """Answers by canonical query (module docstring); ``hits`` and ``misses`` count the lookups.

    :meth:`share` adds a store that other processes read and write too (the workers of a pooled run): an answer
    found there is an answer to the same query, whichever process's solver gave it.
    """

    def __init__(self) -> None:
        self._terms: dict[int, _Term] = {}
        self._answers: dict[bytes, Answer] = {}
        self._shared: MutableMapping[bytes, Answer] | None = None
        self.hits = 0
        self.misses = 0
        #: Queries with no key (a term :func:`serialise` does not know), solved without the cache.
        self.unkeyed = 0

    def share(self, store: MutableMapping[bytes, Answer] | None) -> None:
        """Also look answers up in, and store them to, ``store`` (``None``: this process's answers only)."""
        self._shared = store

    def _term(self, f: Any) -> _Term:
        if not z3.is_ast(f):
            raise NoKey(f"not a Z3 term: {type(f).__name__}")
        key = f.get_id()
        got = self._terms.get(key)  # an id names one term while it is alive, and the memo keeps it alive
        if got is None:
            got = _Term(f)
            self._terms[key] = got
        return got

    def key(self, hyps: Sequence[tuple[str, Any]], goal: Any, hints: Sequence[Any] = (),
            kinds: dict[str, Any] | None = None) -> bytes | None:
        """The digest of the query's canonical serialisation; ``None`` where it has none (module docstring).

        Hypotheses are sections ``["hyp", name]`` (the name a JSON string), then ``goal`` and each ``hint``;
        ``kinds`` (JSON) is part of the key.
        """
        try:
            terms = [*((json.dumps(["hyp", name], ensure_ascii=False), self._term(f)) for name, f in hyps),
                     ("goal", self._term(goal)), *(("hint", self._term(h)) for h in hints)]
            text = serialise(terms, {"kinds": sorted([k, list(v[0]), v[1]] for k, v in (kinds or {}).items())})
        except (NoKey, TypeError, ValueError, z3.Z3Exception):
            self.unkeyed += 1
            return None
        return hashlib.sha256(text.encode()).digest()

    @staticmethod
    def derived(key: bytes | None, *parts: str) -> bytes | None:
        """The key of the query of ``key`` asked in the way ``parts`` names (a try, a limit); ``None`` stays so.

        The ground instances of a query (:func:`symcot.prove.alln.ground.ground`) are a function of its terms'
        structure, the symbols' kinds and the hints, all in ``key``: keyed so, their own (large) text is never
        serialised.
        """
        if key is None:
            return None
        return hashlib.sha256(json.dumps([key.hex(), *parts], ensure_ascii=False).encode()).digest()

    def get(self, key: bytes | None) -> Answer | None:
        """The stored answer for ``key`` (the query with its limit)."""
        if key is None:
            return None
        a = self._answers.get(key)
        if a is None and self._shared is not None:
            a = self._shared.get(key)
            if a is not None:
                self._answers[key] = a
        if a is None:
            self.misses += 1
            return None
        self.hits += 1
        return a

    def put(self, key: bytes | None, answer: Answer) -> None:
        """Store ``answer`` (the one answer of this query under this limit), in the shared store too."""
        if key is None:
            return
        self._answers.setdefault(key, answer)
        if self._shared is not None:
            self._shared.setdefault(key, answer)


#: The process's cache (the prover's queries all go through it).
CACHE = QueryCache()
