r"""Statements about an algorithm's runs, written once and read both on concrete runs and by a solver.

A *vocabulary* names the symbols a proof about every input size speaks in: constants (``n``, the source
``src``, the number of steps ``T``), functions of the input (``adj(i, j)``) and of the run's history
(``cur(τ)``, ``vis(τ, v)``), each with a concrete meaning on a reference run. *Facts* are universally
quantified statements over those symbols, each with its variables' ranges:

* ``domain`` -- the theorem's hypotheses on the input (a simple digraph has no self-loop);
* ``definition`` -- the algorithm itself as the paper states it (the transition of eq:dfsdynamic), and the
  definitions of the auxiliary symbols (``first(v)``: the first step at which ``v`` is current);
* ``derived`` -- consequences, each with a proof: :class:`Induction` over one variable, or :class:`Direct`
  (follows from the facts before it);
* ``hand`` -- proved by hand (the proof is in docs/all-n.md), used as stated.

Every fact is checked on every reachable configuration of the reference runs of small inputs
(:func:`check_facts`); the definitions are thereby compared with the reference implementation, which is
what makes them the same algorithm.

Statements are Python functions of an *interpretation* ``c``: its attributes are the vocabulary's symbols,
and ``c.ite``, ``c.and_``, ``c.or_``, ``c.not_``, ``c.implies`` build conditions (Python's ``and``/``or``
cannot be overloaded). :class:`Concrete` evaluates them on Python numbers; the all-n prover
(:mod:`symcot.prove.alln`) interprets the same functions as Z3 terms. Vector-valued fields use
``c.vec(f, size)``, ``c.set(p, size)`` and ``c.mat(f, rows, cols)``: a list, a set and a matrix on a
concrete run, the index function itself for the solver.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

#: An interpretation: :class:`Concrete` here, a Z3 interpretation in the prover.
Interp = Any
#: A view of a run at a step (or of a prompt token at its index): ``view(c, τ) -> value``.
View = Callable[[Interp, Any], Any]


@dataclass(frozen=True)
class Sig:
    """A symbol of a vocabulary: ``arity`` integer arguments, an ``int`` or ``bool`` value.

    ``args`` and ``result`` name the *kinds* of the arguments and of an integer value (``step``, ``vertex``):
    the prover instantiates a fact's variable of a kind with the terms of that kind (:mod:`symcot.prove.alln`).
    """

    name: str
    arity: int
    sort: str = "int"
    doc: str = ""
    args: tuple[str, ...] = ()
    result: str = ""

    def __post_init__(self) -> None:
        if self.sort not in ("int", "bool"):
            raise ValueError(f"symbol {self.name}: sort must be int or bool, got {self.sort!r}")


@dataclass(frozen=True)
class Var:
    """A quantified variable with inclusive bounds ``lo ≤ v ≤ hi`` (functions of ``c`` and earlier variables).

    ``kind`` is the kind of its values (``step``, ``vertex``; see :class:`Sig`).
    """

    name: str
    lo: Callable[..., Any]
    hi: Callable[..., Any]
    kind: str = ""


@dataclass(frozen=True)
class Induction:
    """Proof by induction on ``var``: the statement at its lower bound, and from ``v`` to ``v + 1``.

    ``joint`` names facts proved by a simultaneous induction with this one (over the same variable and
    range): the step of each may assume all of them at ``v``. ``split(c, v)`` lists case conditions (they
    must cover every case: the prover checks it) under which the step is proved separately. ``hints(c, v)``
    lists terms the prover instantiates the hypotheses' variables with (guidance only: instances of true
    statements are true). ``without`` names facts the proof may not use (see :class:`Direct`); a joint group
    shares it.
    """

    var: str
    joint: tuple[str, ...] = ()
    split: Callable[[Any, Any], Sequence[Any]] | None = None
    hints: Callable[[Any, Any], Sequence[Any]] | None = None
    without: tuple[str, ...] = ()


@dataclass(frozen=True)
class Direct:
    """Proof from the facts stated before (no induction).

    ``hints(c, *vars)`` lists terms the prover instantiates the hypotheses' variables with (guidance only, as for
    :class:`Induction`): ``T - 1``, say, for a statement about the last move.

    ``without`` names domain or definition facts the proof may not use: they are left out of its hypotheses, and
    so is every derived fact not itself proved without them. The fact then holds in every model of the others:
    ``without=("ends",)`` proves it of every prefix of a run that moves at each step, one that never stops included
    (a bound on its length is a proof that it stops).
    """

    hints: Callable[..., Sequence[Any]] | None = None
    without: tuple[str, ...] = ()


FACT_KINDS = ("domain", "definition", "derived", "hand")


@dataclass(frozen=True)
class Fact:
    """``∀ vars in range: body(c, *vars)``; see the module docstring for ``kind``.

    ``source`` says where it comes from: the paper's words for a definition, the hand proof's place in
    docs/all-n.md for ``hand``. A ``lemma`` is a hypothesis of the facts after it only, not of a statement's step
    obligations (fewer quantified hypotheses there; leaving one out never proves more).
    """

    name: str
    vars: tuple[Var, ...]
    body: Callable[..., Any]
    kind: str
    proof: Induction | Direct | None = None
    source: str = ""
    lemma: bool = False

    def __post_init__(self) -> None:
        if self.kind not in FACT_KINDS:
            raise ValueError(f"fact {self.name}: kind must be one of {FACT_KINDS}")
        if (self.kind == "derived") != (self.proof is not None):
            raise ValueError(f"fact {self.name}: a derived fact has a proof, and only a derived fact")
        if isinstance(self.proof, Induction) and self.proof.var not in [v.name for v in self.vars]:
            raise ValueError(f"fact {self.name}: no variable {self.proof.var!r} to induct on")


@dataclass(frozen=True)
class Vocabulary:
    """Symbols, facts and views of one algorithm's runs.

    Attributes:
        name: the algorithm (``eq:dfsdynamic``).
        symbols: constants (arity 0) and functions.
        facts: in order; a derived fact's proof may use every fact before it (and definitions anywhere).
        views: the reference state's fields (``cur``, ``vst``, ``par_cur``, …) as functions of ``(c, τ)``; the
            encodings of the constructions read these, and :func:`check_views` compares them with the
            reference states' attributes.
        interpret: ``interpret(inp, states) -> {symbol: value or function}``, the concrete meaning.
        size: the input size as a symbol name (``n``), for reports.
        inputs: ``inputs(inp) -> {symbol: value or function}``, the input symbols alone (``n``, ``adj``, a word's
            letters), read without a reference run: what a prompt token may depend on
            (:class:`symcot.constructions.alln.PromptStatement`). Written so that it also reads a batch's stand-in
            (:mod:`symcot.inputs.batch`), where a value that differs between rows is a ``(B,)`` array. ``None``: the
            vocabulary states no input interpretation (its constructions' prompts cannot be read from segments).

    """

    name: str
    symbols: tuple[Sig, ...]
    facts: tuple[Fact, ...]
    views: dict[str, View]
    interpret: Callable[[Any, Sequence[Any]], dict[str, Any]]
    size: str = "n"
    inputs: Callable[[Any], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        names = [s.name for s in self.symbols]
        if len(set(names)) != len(names):
            raise ValueError(f"vocabulary {self.name}: a symbol is declared twice")
        fnames = [f.name for f in self.facts]
        if len(set(fnames)) != len(fnames):
            raise ValueError(f"vocabulary {self.name}: a fact name repeats")

    def symbol(self, name: str) -> Sig:
        """The symbol called ``name``."""
        for s in self.symbols:
            if s.name == name:
                return s
        raise KeyError(name)

    def extended(self, name: str, symbols: Sequence[Sig] = (), facts: Sequence[Fact] = (),
                 views: dict[str, View] | None = None,
                 interpret: Callable[[Any, Sequence[Any]], dict[str, Any]] | None = None,
                 inputs: Callable[[Any], dict[str, Any]] | None = None) -> Vocabulary:
        """The vocabulary with more symbols, facts and views (a run that carries more than this one).

        The input interpretation is this one's unless ``inputs`` is given (the same input, a longer run).
        """
        return Vocabulary(name, self.symbols + tuple(symbols), self.facts + tuple(facts),
                          {**self.views, **(views or {})}, interpret or self.interpret, self.size,
                          inputs or self.inputs)


# -- the concrete interpretation -------------------------------------------------------------------------


class Concrete:
    """Python values for a vocabulary's symbols, and the condition builders on Python booleans."""

    def __init__(self, values: dict[str, Any]):
        self._values = dict(values)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no symbol {name!r} in this interpretation") from None

    @staticmethod
    def ite(cond: Any, a: Any, b: Any) -> Any:
        """``a`` if ``cond`` else ``b``."""
        return a if cond else b

    @staticmethod
    def and_(*xs: Any) -> bool:
        """Conjunction."""
        return all(xs)

    @staticmethod
    def or_(*xs: Any) -> bool:
        """Disjunction."""
        return any(xs)

    @staticmethod
    def not_(x: Any) -> bool:
        """Negation."""
        return not x

    @staticmethod
    def implies(a: Any, b: Any) -> bool:
        """``a → b``."""
        return (not a) or bool(b)

    @staticmethod
    def vec(f: Callable[[int], Any], size: int) -> list[Any]:
        """The vector ``(f(0), …, f(size - 1))``."""
        return [f(j) for j in range(size)]

    @staticmethod
    def set(p: Callable[[int], Any], size: int) -> frozenset[int]:
        """The set ``{j < size : p(j)}``."""
        return frozenset(j for j in range(size) if p(j))

    @staticmethod
    def mat(f: Callable[[int, int], Any], rows: int, cols: int) -> list[list[Any]]:
        """The matrix ``(f(a, b))``."""
        return [[f(a, b) for b in range(cols)] for a in range(rows)]


def table(values: Sequence[Any], default: Any = -1) -> Callable[[int], Any]:
    """A function of one index over ``values`` (``default`` outside; ``None`` entries become ``default``)."""

    def f(i: int) -> Any:
        if 0 <= i < len(values):
            v = values[i]
            return default if v is None else v
        return default

    return f


def assignments(c: Concrete, variables: Sequence[Var]) -> Iterator[tuple[int, ...]]:
    """Every assignment of ``variables`` within their bounds (earlier variables bound the later ones)."""
    if not variables:
        yield ()
        return

    def rec(prefix: tuple[int, ...], k: int) -> Iterator[tuple[int, ...]]:
        if k == len(variables):
            yield prefix
            return
        v = variables[k]
        for x in range(v.lo(c, *prefix), v.hi(c, *prefix) + 1):
            yield from rec((*prefix, x), k + 1)

    yield from rec((), 0)


@dataclass
class FactFailure:
    """A fact false on a concrete run: the fact, the variables' values."""

    fact: str
    values: dict[str, int]


@dataclass
class FactCount:
    """How many assignments of each fact were evaluated."""

    checked: dict[str, int] = field(default_factory=dict)


def check_facts(vocab: Vocabulary, c: Concrete, counts: FactCount | None = None) -> FactFailure | None:
    """Evaluate every fact of ``vocab`` at every assignment of its variables on the run ``c``."""
    for fact in vocab.facts:
        k = 0
        for vals in assignments(c, fact.vars):
            k += 1
            if not fact.body(c, *vals):
                return FactFailure(fact.name, {v.name: x for v, x in zip(fact.vars, vals)})
        if counts is not None:
            counts.checked[fact.name] = counts.checked.get(fact.name, 0) + k
    return None


def normalise(v: Any) -> Any:
    """A value in the reference's terms: ``-1`` is ``None`` (φ); tuples are lists; sets are frozensets."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v == -1:
        return None
    if isinstance(v, (set, frozenset)):
        return frozenset(v)
    if isinstance(v, (list, tuple)):
        return [x if isinstance(x, bool) else (normalise(x) if isinstance(x, (list, tuple)) else x) for x in v]
    return v


def _finite(v: Any, lam: Any) -> Any:
    """``v`` with a reference's ``∞`` (an object whose ``is_infinite`` is true) written as ``lam``, as encodings do."""
    if isinstance(v, (list, tuple)):
        return type(v)(_finite(x, lam) for x in v)
    return lam if getattr(v, "is_infinite", False) is True else v


def check_views(vocab: Vocabulary, c: Concrete, states: Sequence[Any], fields: Sequence[str],
                views: dict[str, View] | None = None, lam: Any = None) -> str | None:
    """Compare the views named ``fields`` with the reference states' attributes; the first difference, or None.

    ``views`` defaults to the vocabulary's (a statement passes all of its views: the ones the prover reads). With
    the run's ``lam`` (bound in ``c``), a reference's ``∞`` is compared as ``λ``, the value a statement's view and
    the encodings write for it.
    """
    views = vocab.views if views is None else views
    for t, st in enumerate(states):
        for f in fields:
            if f not in views:
                return f"no view {f!r}: the encoding reads a field that the statement does not define"
            want = getattr(st, f) if lam is None else _finite(getattr(st, f), lam)
            got = views[f](c, t)
            if isinstance(want, bool):
                same = bool(got) == want
            else:
                same = normalise(got) == normalise(want)
            if not same:
                return f"view {f!r} at step {t}: the statement gives {got!r}, the reference {want!r}"
    return None


def product_ranges(*sizes: int) -> Iterator[tuple[int, ...]]:
    """All index tuples below ``sizes``."""
    return itertools.product(*(range(s) for s in sizes))
