r"""A statement read one way: every Python function of an all-n statement traced once into a Z3 term.

A statement's facts, views, choices, sizes, segment counts, step count and stop witness are Python functions of an
interpretation ``c``. Read on numbers by the concrete phase and on Z3 terms by the prover, one function can say two
things: a branch on the *kind* of its argument (``isinstance``, ``z3.is_int_value``) asks no term for a truth value,
so the prover may assume a fact that no run ever evaluated. :func:`trace_statement` calls each function exactly once,
on the prover's symbols and fresh parameters, and keeps the term it returns; the statement it gives back holds
:class:`TermFn` objects in place of the functions. Every phase then reads those terms and never the user's code
again:

* the prover (a Z3 interpretation, :class:`~symcot.prove.alln.ops.Symbolic`): the term with the parameters
  substituted by the prover's terms;
* the concrete phase (a :class:`~symcot.algorithms.logic.Concrete` interpretation of a reference run): the term
  evaluated by :func:`symcot.prove.alln.term.compile_term`, with Z3's semantics;
* the pinned phase (:class:`~symcot.prove.alln.pinned.Pinned`): the term evaluated by Z3 itself, every symbol
  replaced by the run's value — a check of the evaluator above on the same terms.

What cannot be traced exactly is refused with :class:`TraceError` naming the item: a float, ``None``, a value of a
type the trace does not know, a term built from constants that are not the vocabulary's, and (as before) a Python
truth value asked of a term. Hints and case splits of derived facts are traced too: they are read by the prover
only, and tracing them keeps one reading of everything a statement holds.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import z3

from symcot.algorithms.logic import Direct, Fact, Induction, Var, Vocabulary
from symcot.constructions.alln import AllNStatement, Choice, Segment
from symcot.errors import SymcotError
from symcot.prove.alln.ops import Symbolic, reading
from symcot.prove.alln.term import LAMBDA, TermError, compile_term

_fresh = itertools.count()


class TraceError(SymcotError):
    """A statement item that cannot be traced into one exact term."""


def _param(name: str) -> Any:
    """A parameter of a trace: an integer constant no vocabulary can name (``!``) and no query keeps."""
    return z3.Int(f"{name}!trace{next(_fresh)}")


@dataclass(frozen=True)
class Shaped:
    """A vector, set, matrix or function value of a traced item: its sizes and its body at index parameters."""

    kind: str
    sizes: tuple[Any, ...]
    params: tuple[Any, ...]
    body: Any


class _Mark:
    """What the tracing interpretation's ``vec``/``set``/``mat`` return: the index function and its sizes."""

    def __init__(self, kind: str, fn: Callable[..., Any], sizes: tuple[Any, ...]):
        self.kind, self.fn, self.sizes = kind, fn, sizes

    def __call__(self, *idx: Any) -> Any:
        return self.fn(*idx)


class _Tracing(Symbolic):
    """The prover's interpretation, with ``vec``, ``set`` and ``mat`` keeping their sizes for the concrete reading."""

    def vec(self, f: Callable[[Any], Any], size: Any) -> Any:  # type: ignore[override]
        return _Mark("vec", f, (size,))

    def set(self, p: Callable[[Any], Any], size: Any) -> Any:  # type: ignore[override]
        return _Mark("set", p, (size,))

    def mat(self, f: Callable[[Any, Any], Any], rows: Any, cols: Any) -> Any:  # type: ignore[override]
        return _Mark("mat", f, (rows, cols))


def _arity(fn: Callable[..., Any], label: str) -> int:
    try:
        ps = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError) as e:
        raise TraceError(f"{label}: returns a function whose parameters cannot be read ({e})") from e
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in ps):
        raise TraceError(f"{label}: returns a function with *args or **kwargs; the trace needs its arity")
    return len([p for p in ps if p.default is p.empty])


def _norm(x: Any, label: str) -> Any:
    """A traced item's value in the trace's forms (Z3 term, Python constant, :class:`Shaped`, tuple, class name)."""
    if isinstance(x, z3.ExprRef):
        return x
    if isinstance(x, (bool, int, str, Fraction)):
        return x
    if isinstance(x, float):
        raise TraceError(f"{label}: gives the float {x!r}; a statement is exact (use an integer, a Fraction or a "
                         "Z3 term)")
    if x is None:
        raise TraceError(f"{label}: gives None; a statement's value is a number, a condition or a term")
    if isinstance(x, (list, tuple)):
        return tuple(_norm(v, label) for v in x)
    if isinstance(x, _Mark):
        params = tuple(_param("i") for _ in x.sizes)
        return Shaped(x.kind, tuple(_norm(s, label) for s in x.sizes), params, _norm(x.fn(*params), label))
    if callable(x) and not isinstance(x, z3.FuncDeclRef):
        params = tuple(_param("i") for _ in range(_arity(x, label)))
        return Shaped("fn", (), params, _norm(x(*params), label))
    raise TraceError(f"{label}: gives a {type(x).__name__}, which the trace cannot read as a term")


def _z3(x: Any) -> Any:
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        return z3.IntVal(x)
    if isinstance(x, Fraction):
        return z3.Q(x.numerator, x.denominator)
    return x


def _mentions(out: Any, name: str) -> bool:
    """Whether the traced output ``out`` (a term, a tuple, a :class:`Shaped`) has the constant ``name``."""
    todo, seen = [out], set()
    while todo:
        x = todo.pop()
        if isinstance(x, tuple):
            todo += list(x)
        elif isinstance(x, Shaped):
            todo += [x.body, *getattr(x, "sizes", ())]
        elif isinstance(x, z3.ExprRef) and x.get_id() not in seen:
            seen.add(x.get_id())
            if z3.is_const(x) and x.decl().name() == name:
                return True
            todo += list(x.children())
    return False


class TermFn:
    """A traced statement function: called as the original was, it reads its term (see the module docstring)."""

    def __init__(self, label: str, params: tuple[Any, ...], out: Any):
        self.label, self.params, self.out = label, params, out
        self._compiled: dict[int, Callable[..., Any]] = {}

    def __repr__(self) -> str:
        return f"TermFn({self.label})"

    @property
    def reads_lam(self) -> bool:
        """Whether the term mentions λ (a prompt view that does is read with the run's λ bound)."""
        if not hasattr(self, "_reads_lam"):
            self._reads_lam = _mentions(self.out, LAMBDA)
        return self._reads_lam

    def __call__(self, c: Any, *args: Any) -> Any:
        if len(args) != len(self.params):
            raise TraceError(f"{self.label}: read with {len(args)} arguments, traced with {len(self.params)}")
        if isinstance(c, Symbolic):
            pin = getattr(c, "pin_value", None)
            if pin is not None:
                return self._pinned(c, args)
            return self._symbolic(c, self.out, self._pairs(c, self.params, args))
        return self._concrete(c, self.out, self.params, args)

    # -- the prover's reading: substitution -------------------------------------------------------------------
    @staticmethod
    def _pairs(c: Any, params: Sequence[Any], args: Sequence[Any]) -> list[tuple[Any, Any]]:
        pairs = [(p, _z3(a)) for p, a in zip(params, args)]
        lam = getattr(c, "_values", {}).get("lam")
        if lam is not None and not (z3.is_const(lam) and lam.decl().name() == LAMBDA):
            pairs.append((z3.Real(LAMBDA), _z3(lam)))
        return pairs

    def _symbolic(self, c: Any, out: Any, pairs: list[tuple[Any, Any]]) -> Any:
        if isinstance(out, z3.ExprRef):
            return z3.substitute(out, *pairs) if pairs else out
        if isinstance(out, tuple):
            return tuple(self._symbolic(c, x, pairs) for x in out)
        if isinstance(out, Shaped):
            def at(*idx: Any) -> Any:
                return self._symbolic(c, out.body, [*pairs, *((p, _z3(i)) for p, i in zip(out.params, idx))])
            return at
        return out

    # -- the concrete phase's reading: the compiled term -------------------------------------------------------
    def _fn(self, term: Any, params: tuple[Any, ...]) -> Callable[..., Any]:
        fn = self._compiled.get(id(term))
        if fn is None:
            try:
                fn = self._compiled[id(term)] = compile_term(term, params)
            except TermError as e:
                raise TraceError(f"{self.label}: {e}") from e
        return fn

    def _concrete(self, V: Any, out: Any, params: tuple[Any, ...], args: Sequence[Any]) -> Any:
        if isinstance(out, tuple):
            return tuple(self._concrete(V, x, params, args) for x in out)
        if isinstance(out, Shaped):
            return self._shaped(V, out, params, args)
        if isinstance(out, str):
            return out
        try:
            return self._fn(out, params)(V, *args)
        except TermError as e:
            raise TraceError(f"{self.label}: {e}") from e

    def _shaped(self, V: Any, out: Shaped, params: tuple[Any, ...], args: Sequence[Any]) -> Any:
        inner = (*params, *out.params)
        if out.kind == "fn":
            return lambda *idx: self._concrete(V, out.body, inner, (*args, *idx))
        sizes = [int(self._concrete(V, s, params, args)) for s in out.sizes]
        at = self._fn(out.body, inner) if not isinstance(out.body, (tuple, Shaped)) else None

        def val(*idx: Any) -> Any:
            return at(V, *args, *idx) if at is not None else self._concrete(V, out.body, inner, (*args, *idx))

        if out.kind == "vec":
            return [val(j) for j in range(sizes[0])]
        if out.kind == "set":
            return frozenset(j for j in range(sizes[0]) if val(j))
        return [[val(a, b) for b in range(sizes[1])] for a in range(sizes[0])]

    # -- the pinned phase: Z3 evaluates the same term ----------------------------------------------------------
    def _pinned(self, c: Any, args: Sequence[Any]) -> Any:
        return _pin_eval(c, self.out, list(zip(self.params, args)))


def _pin_eval(c: Any, out: Any, env: list[tuple[Any, Any]]) -> Any:
    """``out`` with every parameter and symbol replaced by the run's values (``c.pin_value``), simplified by Z3."""
    if isinstance(out, tuple):
        return tuple(_pin_eval(c, x, env) for x in out)
    if isinstance(out, Shaped):
        if out.kind == "fn":
            return lambda *idx: _pin_eval(c, out.body, [*env, *zip(out.params, idx)])
        sizes = [int(c.number(_pin_eval(c, s, env))) for s in out.sizes]

        def val(*idx: Any) -> Any:
            return c.number(_pin_eval(c, out.body, [*env, *zip(out.params, (z3.IntVal(i) for i in idx))]))

        if out.kind == "vec":
            return [val(j) for j in range(sizes[0])]
        if out.kind == "set":
            return frozenset(j for j in range(sizes[0]) if val(j))
        return [[val(a, b) for b in range(sizes[1])] for a in range(sizes[0])]
    if not isinstance(out, z3.ExprRef):
        return out
    pairs = [(p, _z3(v)) for p, v in env]
    term = z3.substitute(out, *pairs) if pairs else out
    return z3.simplify(_pin_apps(c, term, {}))


def _pin_apps(c: Any, e: Any, memo: dict[int, Any]) -> Any:
    """``e`` with each application of a vocabulary symbol replaced by its value on the run (innermost first)."""
    key = e.get_id()
    got = memo.get(key)
    if got is not None:
        return got
    if not z3.is_app(e) or e.num_args() == 0 and e.decl().kind() != z3.Z3_OP_UNINTERPRETED:
        memo[key] = e
        return e
    kids = [_pin_apps(c, a, memo) for a in e.children()]
    if e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        name = e.decl().name()
        out = c.pin_value(name, [z3.simplify(k) for k in kids])
    else:
        out = e.decl()(*kids) if kids else e
    memo[key] = out
    return out


class Tracer:
    """Traces each statement function once (by identity), so a function two items share is read once too."""

    def __init__(self, vocab: Vocabulary):
        self.c = _Tracing(vocab)
        self.c.bind("lam", z3.Real(LAMBDA))
        self._done: dict[tuple[int, int], tuple[Any, TermFn]] = {}

    def fn(self, f: Callable[..., Any], label: str, params: Sequence[str]) -> TermFn:
        """``f(c, *params)`` traced (``params`` name the parameters), once per function and number of parameters."""
        if isinstance(f, TermFn):
            return f
        key = (id(f), len(params))
        got = self._done.get(key)
        if got is not None and got[0] is f:
            return got[1]
        ps = tuple(_param(p) for p in params)
        try:
            with reading(label):
                out = _norm(f(self.c, *ps), label)
        except (TraceError, SymcotError):
            raise
        except Exception as e:  # noqa: BLE001 - the user's function failed on the prover's terms: say which
            raise TraceError(f"{label}: cannot be read on the prover's terms ({type(e).__name__}: {e})") from e
        tf = TermFn(label, ps, out)
        self._done[key] = (f, tf)
        return tf

    def var(self, v: Var, fact: str, prior: Sequence[Var]) -> Var:
        names = [p.name for p in prior]
        return replace(v, lo=self.fn(v.lo, f"fact {fact}: lower bound of {v.name}", names),
                       hi=self.fn(v.hi, f"fact {fact}: upper bound of {v.name}", names))

    def fact(self, f: Fact) -> Fact:
        names = [v.name for v in f.vars]
        vs = tuple(self.var(v, f.name, f.vars[:k]) for k, v in enumerate(f.vars))
        proof = f.proof
        if isinstance(proof, Induction):
            split = self.fn(proof.split, f"fact {f.name}: its case split", ["v"]) if proof.split else None
            hints = self.fn(proof.hints, f"fact {f.name}: its hints", ["v"]) if proof.hints else None
            proof = replace(proof, split=split, hints=hints)
        elif isinstance(proof, Direct) and proof.hints is not None:
            proof = replace(proof, hints=self.fn(proof.hints, f"fact {f.name}: its hints", names))
        return replace(f, vars=vs, body=self.fn(f.body, f"fact {f.name}", names), proof=proof)

    def views(self, views: dict[str, Any], what: str, param: str = "τ") -> dict[str, Any]:
        return {k: self.fn(v, f"view {k}{what}", [param]) for k, v in views.items()}

    def vocabulary(self, vocab: Vocabulary) -> Vocabulary:
        return replace(vocab, facts=tuple(self.fact(f) for f in vocab.facts), views=self.views(vocab.views, ""))

    def segment(self, seg: Segment) -> Segment:
        return replace(seg, count=self.fn(seg.count, f"the count of segment {seg.cls}", []),
                       views=self.views(seg.views, f" of segment {seg.cls}", "i"))

    def choice(self, ch: Choice) -> Choice:
        at = "" if ch.cls == "y" else f" at {ch.cls}"
        return replace(ch, cases=self.fn(ch.cases, f"the choice of head {ch.head} at layer {ch.layer}{at}", ["p"]))


def trace_statement(stmt: AllNStatement, vocabulary: Vocabulary | None = None,
                    tracer: Tracer | None = None) -> AllNStatement:
    """``stmt`` with every function traced once (see the module docstring), over ``vocabulary`` if given.

    ``vocabulary`` is an extension of the statement's (a claim's narrower domain); a ``tracer`` shared between two
    calls reads a function the two statements share once.
    """
    vocab = vocabulary or stmt.vocabulary
    tr = tracer or Tracer(vocab)
    tvocab = tr.vocabulary(vocab)
    witness = stmt.stop_witness
    return replace(
        stmt, vocabulary=tvocab,
        sizes={sym: tr.fn(fn, f"the statement's size {sym}", []) for sym, fn in stmt.sizes.items()},
        segments=tuple(tr.segment(s) for s in stmt.segments), y0=tr.segment(stmt.y0),
        views=tr.views(stmt.views, ""), choices=tuple(tr.choice(ch) for ch in stmt.choices),
        steps=tr.fn(stmt.steps, "the statement's step count T", []),
        stop_witness=tr.fn(witness, "the statement's stop witness", ["τ"]) if witness is not None else None)


def is_traced(stmt: AllNStatement) -> bool:
    """Every function of ``stmt`` is a :class:`TermFn` (the statement was made by :func:`trace_statement`)."""
    fns: list[Any] = [stmt.steps, *stmt.sizes.values(), *stmt.all_views().values()]
    for seg in (*stmt.segments, stmt.y0):
        fns += [seg.count, *seg.views.values()]
    fns += [ch.cases for ch in stmt.choices]
    for f in stmt.vocabulary.facts:
        fns += [f.body, *(v.lo for v in f.vars), *(v.hi for v in f.vars)]
    return all(isinstance(f, TermFn) for f in fns)
