r"""The input families against the statement's domain: exactly the inputs the ``domain`` facts admit, size by size.

An all-n proof assumes the statement's ``domain`` facts and nothing else of the input; the concrete phase checks
the statement (definitions against the reference, views, prompt) on the inputs of the claim's exhaustive
families. The two agree only if, at each size, the families' inputs are *exactly* the inputs the domain facts
admit. :func:`check_domain` checks both sides on each size up to the concrete size, where the families declare a
:attr:`~symcot.inputs.family.Family.universe` (every candidate input of a size, a superset of the family):

* every input of an exhaustive family satisfies every domain fact (else: the family yields an input outside the
  domain, and the concrete phase checked the statement on something the proof does not cover);
* every universe input that satisfies every domain fact is an input of some exhaustive family of that size, compared
  by a canonical key (the ``describe`` of the first family with a universe, as JSON): else the family omits part of
  the domain, and the proof covers inputs the concrete phase never ran. The statement's prompt, sizes and λ are
  the kernel's on every input (they run from the traced statement), so an omission leaves only the agreement of
  the definitions and views with the reference on the omitted inputs unchecked: the row is ``proved assuming``
  it, naming the first omitted input.

The facts are the *traced* statement's (:class:`~symcot.prove.alln.trace.TermFn`: the terms the prover reads, never
the user's functions), evaluated on the vocabulary's input interpretation ``inputs(inp)`` where a fact reads only
input symbols, else on ``interpret(inp, reference(inp))``. A universe input that the input-only facts reject is
outside the domain without a run; one they admit is run through the reference, and a reference that fails on it is
an error (the domain admits an input the algorithm cannot run).

The same check (the same families, reference, interpretations and domain terms, read again by another row of the
same statement) is answered from a cache, marked ``cached``.

Sizes whose universe has more than ``cap`` candidates are not enumerated: the check stops at the first such size
(reported with the row). A family without a universe, or whose universe is only a part of each size's candidates
(:attr:`~symcot.inputs.family.Family.restricted`, e.g. a finite weight set), leaves an assumption: the row is
``proved assuming`` it (:func:`symcot.prove.alln.kernel.assumptions`).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

import z3

from symcot.algorithms.logic import Fact, Vocabulary
from symcot.constructions.alln import AllNStatement
from symcot.inputs.family import Family
from symcot.prove.alln.term import LAMBDA, compile_term
from symcot.prove.alln.trace import Shaped, TermFn

#: The most candidate inputs of one size the check enumerates (a deterministic count, not a clock): about ten
#: seconds of the slowest shipped universe (digraphs with every source at n = 4: 16,384).
UNIVERSE_CAP = 60_000


class DomainMismatch(Exception):
    """The families and the domain facts disagree on an input (the message names the family, size and input)."""


@dataclass
class DomainReport:
    """What the domain check covered, and its first mismatch."""

    sizes: list[int] = field(default_factory=list)
    #: The first size not checked because its universe has more than ``cap`` candidates (``None``: none).
    capped_at: int | None = None
    cap: int = UNIVERSE_CAP
    family_inputs: int = 0
    universe_inputs: int = 0
    in_domain: int = 0
    assumed: list[str] = field(default_factory=list)
    failure: str | None = None
    #: The first domain input the families omit (their checks then cover a part of the domain: an assumption).
    omitted: str | None = None
    seconds: float = 0.0
    #: The same check (the same families, reference, interpretations and domain terms) ran before in this process.
    cached: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly (``details.concrete.domain``)."""
        return {"sizes": self.sizes, "capped_at": self.capped_at, "cap": self.cap,
                "family_inputs": self.family_inputs, "universe_inputs": self.universe_inputs,
                "in_domain": self.in_domain, "assumed": self.assumed, "failure": self.failure, "omitted": self.omitted,
                "seconds": round(self.seconds, 3), "cached": self.cached}


def _term_symbols(out: Any, into: set[str]) -> None:
    if isinstance(out, tuple):
        for x in out:
            _term_symbols(x, into)
    elif isinstance(out, Shaped):
        _term_symbols(out.sizes, into)
        _term_symbols(out.body, into)
    elif isinstance(out, z3.ExprRef):
        todo, seen = [out], set()
        while todo:
            e = todo.pop()
            if e.get_id() in seen:
                continue
            seen.add(e.get_id())
            if z3.is_app(e):
                if e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                    name = e.decl().name()
                    if name == LAMBDA:
                        into.add("lam")
                    elif "!" not in name:
                        into.add(name)
                todo.extend(e.children())


def fact_symbols(fact: Fact) -> set[str]:
    """The vocabulary symbols a traced fact reads (its body and its variables' bounds)."""
    out: set[str] = set()
    for fn in (fact.body, *(v.lo for v in fact.vars), *(v.hi for v in fact.vars)):
        if not isinstance(fn, TermFn):
            raise TypeError(f"fact {fact.name}: not traced (the domain check reads the traced statement only)")
        _term_symbols(fn.out, out)
    return out


def _compiled(fn: Any) -> Callable[..., Any]:
    """A traced function's term as one Python function ``f(V, *args)`` (the evaluator the concrete phase uses)."""
    if isinstance(fn, TermFn) and not isinstance(fn.out, (tuple, Shaped)):
        return compile_term(fn.out, fn.params)
    return fn


@dataclass(frozen=True)
class _Fact:
    """A traced domain fact with its body and bounds compiled once."""

    name: str
    names: tuple[str, ...]
    lo: tuple[Callable[..., Any], ...]
    hi: tuple[Callable[..., Any], ...]
    body: Callable[..., Any]

    @classmethod
    def of(cls, f: Fact) -> _Fact:
        return cls(f.name, tuple(v.name for v in f.vars), tuple(_compiled(v.lo) for v in f.vars),
                   tuple(_compiled(v.hi) for v in f.vars), _compiled(f.body))

    def false_at(self, V: Any) -> tuple[int, ...] | None:
        """The first assignment at which the fact is false on the values ``V``, or ``None``."""
        k = len(self.names)

        def rec(prefix: tuple[int, ...]) -> tuple[int, ...] | None:
            if len(prefix) == k:
                return None if self.body(V, *prefix) else prefix
            i = len(prefix)
            for x in range(self.lo[i](V, *prefix), self.hi[i](V, *prefix) + 1):
                got = rec((*prefix, x))
                if got is not None:
                    return got
            return None

        return rec(())


def _false_at(facts: Sequence[_Fact], values: dict[str, Any]) -> str | None:
    """The first fact false on ``values`` (with its variables' values), or ``None``."""
    V = SimpleNamespace(**values)
    for f in facts:
        vals = f.false_at(V)
        if vals is not None:
            at = ", ".join(f"{v} = {x}" for v, x in zip(f.names, vals))
            return f"{f.name}{f' at {at}' if at else ''}"
    return None


@dataclass
class _Domain:
    """The domain facts of a vocabulary, split by whether they read only input symbols."""

    vocab: Vocabulary
    reference: Callable[[Any], Sequence[Any]]
    facts: tuple[_Fact, ...]
    symbols: dict[str, set[str]]

    def outside(self, inp: Any) -> str | None:
        """Why ``inp`` is outside the domain (the false fact), or ``None`` when every domain fact holds on it."""
        given = self.vocab.inputs(inp) if self.vocab.inputs is not None else {}
        early = [f for f in self.facts if self.symbols[f.name] <= given.keys()]
        bad = _false_at(early, dict(given))
        if bad is not None:
            return bad
        rest = [f for f in self.facts if not self.symbols[f.name] <= given.keys()]
        if not rest:
            return None
        try:
            values = self.vocab.interpret(inp, self.reference(inp))
        except Exception as e:  # noqa: BLE001 - the reference's failure is reported with the input
            raise DomainMismatch(f"the reference fails ({type(e).__name__}: {e}) on an input that every domain fact "
                                 f"reading only input symbols admits ({', '.join(f.name for f in early) or 'none'})"
                                 ) from e
        return _false_at(rest, values)


def _text(fam: Family, inp: Any) -> str:
    try:
        d = fam.describe(inp)
        return str(d.get("text", d)) if isinstance(d, dict) else str(d)
    except Exception:  # noqa: BLE001 - an input the family's description refuses is shown as Python writes it
        return repr(inp)[:200]


def _key(describe: Callable[[Any], Any], inp: Any) -> str:
    return json.dumps(describe(inp), sort_keys=True, default=str)


def _active(families: Sequence[Family], size: int) -> list[Family]:
    return [f for f in families if f.exhaustive and size >= f.min_size and (f.max_size is None or size <= f.max_size)]


def _universe(fam: Family, size: int, cap: int) -> list[Any] | None:
    """The universe of ``fam`` at ``size``, or ``None`` when it has more than ``cap`` candidates."""
    assert fam.universe is not None
    if fam.universe_count is not None and fam.universe_count(size) > cap:
        return None
    got = list(itertools.islice(iter(fam.universe(size)), cap + 1))
    return None if len(got) > cap else got


def assumptions_of(families: Sequence[Family]) -> list[str]:
    """What the families leave assumed about the domain: a family with no universe, or a restricted one."""
    out = []
    exh = [f for f in families if f.exhaustive]
    bare = [f.name for f in exh if f.universe is None and not f.partial]
    if bare:
        out.append(f"that the input families {'; '.join(bare)} cover the statement's domain (they declare no "
                   "universe, so nothing checks that the concrete phase ran every input the proof covers)")
    for f in exh:
        if f.universe is not None and f.restricted:
            out.append(f"that the domain beyond {f.restricted} behaves as checked (the universe of {f.name} holds "
                       f"only the inputs with {f.restricted}: the concrete phase and the domain check cover that "
                       "part of each size)")
    return out


def _describe(describe: Callable[[Any], Any], inp: Any) -> str | None:
    """The canonical key of ``inp`` (``None``: the description refuses it, so it is no family's input)."""
    try:
        return _key(describe, inp)
    except Exception:  # noqa: BLE001 - a family describes each of its inputs; one it refuses is none of them
        return None


def _admitted(dom: _Domain, active: Sequence[Family], universes: dict[str, list[Any]], describe: Any, size: int,
              rep: DomainReport) -> dict[str, tuple[Family, Any]]:
    """The keys of the universe inputs the domain facts admit (each with where it was found)."""
    out: dict[str, tuple[Family, Any]] = {}
    for fam in active:
        for inp in universes.get(fam.name, ()):
            rep.universe_inputs += 1
            try:
                if dom.outside(inp) is not None:
                    continue
            except DomainMismatch as e:
                raise DomainMismatch(f"the universe of family {fam.name!r} at size {size}, input "
                                     f"{_text(fam, inp)}: {e}") from e
            rep.in_domain += 1
            k = _describe(describe, inp)
            out[k if k is not None else f"?{len(out)}"] = (fam, inp)
    return out


def _size(dom: _Domain, active: Sequence[Family], universes: dict[str, list[Any]], size: int,
          rep: DomainReport) -> None:
    """One size: every family input in the domain, every domain input of the universes in a family.

    A family input whose key is among the universe inputs the domain facts admit is in the domain (its facts were
    evaluated there); any other is evaluated, and is outside the domain or outside every universe.
    """
    keyed = next((f for f in active if f.name in universes), None)
    admitted = _admitted(dom, active, universes, keyed.describe, size, rep) if keyed is not None else {}
    found: set[str] = set()
    for fam in active:
        for inp in fam.inputs(size):
            rep.family_inputs += 1
            k = _key(keyed.describe, inp) if keyed is not None else None
            if k is not None and k in admitted:
                found.add(k)
                continue
            try:
                bad = dom.outside(inp)
            except DomainMismatch as e:
                raise DomainMismatch(f"family {fam.name!r} at size {size}, input {_text(fam, inp)}: {e}") from e
            if bad is not None:
                raise DomainMismatch(f"family {fam.name!r} yields an input outside the domain at size {size}: "
                                     f"{_text(fam, inp)} (the domain fact {bad} is false)")
            if keyed is not None:
                raise DomainMismatch(f"family {fam.name!r} has an input at size {size} that no universe of the row "
                                     f"holds: {_text(fam, inp)} (a universe must be a superset of its family)")
    missing = [k for k in admitted if k not in found]
    if missing and rep.omitted is None:
        fam, inp = admitted[missing[0]]
        names = ", ".join(f.name for f in active)
        rep.omitted = (f"the families ({names}) omit inputs of the domain, the first at size {size}: {_text(fam, inp)} "
                       f"(every domain fact holds on it; {len(missing)} at that size)")


def _sizes(families: Sequence[Family], max_size: int) -> Iterator[tuple[int, list[Family]]]:
    for size in range(0, max_size + 1):
        active = _active(families, size)
        if active:
            yield size, active


def _canon(out: Any, pairs: list[tuple[Any, Any]]) -> str:
    """A traced term as text, its parameters renamed by position (two traces of one function read alike)."""
    if isinstance(out, z3.ExprRef):
        return str(z3.substitute(out, *pairs).sexpr() if pairs else out.sexpr())
    if isinstance(out, tuple):
        return "(" + " ".join(_canon(x, pairs) for x in out) + ")"
    if isinstance(out, Shaped):
        inner = [*pairs, *((p, z3.Int(f"arg!{len(pairs) + j}")) for j, p in enumerate(out.params))]
        return f"({out.kind} {_canon(out.sizes, pairs)} {_canon(out.body, inner)})"
    return repr(out)


def _term_text(fn: Any) -> str:
    if not isinstance(fn, TermFn):
        return f"untraced {id(fn)}"
    return _canon(fn.out, [(p, z3.Int(f"arg!{k}")) for k, p in enumerate(fn.params)])


def _cache_key(facts: Sequence[Fact], vocab: Vocabulary, reference: Any, families: Sequence[Family], max_size: int,
               cap: int) -> tuple[Any, ...]:
    """Everything the check reads, as a key.

    The families (each function by identity), the reference, the interpretations, the domain facts' terms (their
    parameters renamed by position) and the sizes.
    """
    fams = tuple((id(f), f.name, id(f.inputs), id(f.universe), id(f.describe), f.min_size, f.max_size, f.exhaustive,
                  f.partial, f.restricted) for f in families)
    terms = tuple((f.name, tuple(v.name for v in f.vars), _term_text(f.body),
                   tuple((_term_text(v.lo), _term_text(v.hi)) for v in f.vars)) for f in facts)
    return fams, id(reference), id(vocab.inputs), id(vocab.interpret), terms, max_size, cap


#: Reports by :func:`_cache_key`, each with the objects whose identities the key holds (kept alive, so no other
#: object takes their identity).
_CACHE: dict[tuple[Any, ...], tuple[tuple[Any, ...], DomainReport]] = {}


def check_domain(stmt: AllNStatement, reference: Callable[[Any], Sequence[Any]], families: Sequence[Family],
                 max_size: int, cap: int = UNIVERSE_CAP) -> DomainReport:
    """The exhaustive families against the domain facts of the traced ``stmt`` at every size up to ``max_size``.

    See the module docstring; ``failure`` is the first mismatch (family, size, input, side).
    """
    t0 = time.perf_counter()
    vocab = stmt.vocabulary
    facts = tuple(f for f in vocab.facts if f.kind == "domain")
    key = _cache_key(facts, vocab, reference, families, max_size, cap)
    got = _CACHE.get(key)
    if got is not None:
        return replace(got[1], sizes=list(got[1].sizes), assumed=list(got[1].assumed), cached=True,
                       seconds=time.perf_counter() - t0)
    dom = _Domain(vocab, reference, tuple(_Fact.of(f) for f in facts), {f.name: fact_symbols(f) for f in facts})
    rep = DomainReport(cap=cap, assumed=assumptions_of(families))
    try:
        for size, active in _sizes(families, max_size):
            universes: dict[str, list[Any]] = {}
            seen: set[int] = set()
            for fam in active:
                if fam.universe is None or id(fam.universe) in seen:
                    continue
                seen.add(id(fam.universe))
                uni = _universe(fam, size, cap)
                if uni is None:
                    rep.capped_at = size
                    break
                universes[fam.name] = uni
            if rep.capped_at is not None:
                break
            _size(dom, active, universes, size, rep)
            rep.sizes.append(size)
    except DomainMismatch as e:
        rep.failure = str(e)
    if rep.omitted is not None:
        rep.assumed.append(f"that the statement's definitions, views and prompt agree with the reference on the domain "
                           f"inputs the exhaustive families omit ({rep.omitted}); a domain fact narrowing the domain "
                           "to the families, or families covering it, would discharge this")
    rep.seconds = time.perf_counter() - t0
    _CACHE[key] = ((tuple(families), reference, vocab.inputs, vocab.interpret), rep)
    return replace(rep, sizes=list(rep.sizes), assumed=list(rep.assumed))
