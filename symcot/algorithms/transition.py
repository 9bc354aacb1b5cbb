r"""A reference algorithm written once: its initial state and its step over an interpretation.

A :class:`Transition` states an algorithm as the paper's dynamics do: named state variables (scalars such as
the current vertex, and arrays over an index range such as ``vst`` or ``par``), the initial state, one step
``s_τ → s_{τ+1}``, and the condition under which the run goes on. The step is a Python function of an
*algebra* ``o`` (:class:`PyOps`, :class:`NumpyOps`, :class:`FactOps`), of the input's symbols ``g`` and of the
state ``s``; it builds conditions with ``o.ite``, ``o.and_``, ``o.or_``, ``o.not_`` (Python's ``and``/``or``
cannot be overloaded), reads and writes arrays with ``o.at``/``o.put``/``o.array``, names an intermediate with
``o.let`` and the lowest index satisfying a predicate with ``o.lowest``. Three readings of the same function:

* :func:`run` -- Python values, one input: the per-input reference;
* :func:`symcot.algorithms.batched.run.run_batch` -- numpy arrays, one row per input: the batched reference;
* :func:`definitions` -- facts over a vocabulary's symbols (``cur(τ + 1) = …`` for every step, every index),
  read by the all-n prover as Z3 terms and evaluated on concrete runs as Python values.

An array read outside its range gives the array's default (``-1``, ``False``) in Python and numpy; the
definitions leave it unconstrained (a proof that holds without knowing it holds whatever it is). A write
outside the range changes nothing in every reading. The ``lowest`` of a predicate nowhere true is ``-1``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.algorithms.logic import Fact, Interp, Sig, Var

#: A state, a step's result: state variable → value in the algebra's terms.
State = dict[str, Any]


@dataclass(frozen=True)
class Index:
    """The range ``0 … size(g) - 1`` an array is indexed by, and the kind of its indices (``vertex``)."""

    kind: str
    size: Callable[[Any], Any]

    def var(self, name: str) -> Var:
        """A quantified variable over this range."""
        return Var(name, lambda c, *_: 0, lambda c, *_: self.size(c) - 1, self.kind)


@dataclass(frozen=True)
class StateVar:
    """A state variable: a scalar, or an array over ``index``; ``sort`` ``int`` or ``bool``.

    ``result`` is the kind of an integer value (``vertex``: ``-1`` stands for none, as φ).
    """

    name: str
    sort: str = "int"
    index: Index | None = None
    doc: str = ""
    result: str = ""

    @property
    def default(self) -> int | bool:
        """What a read outside the range gives in Python and numpy."""
        return False if self.sort == "bool" else -1


@dataclass(frozen=True)
class Aux:
    """A value the step names: ``let`` (an intermediate), ``lowest`` or ``argmin``.

    ``lowest`` is the least index of ``over`` where a predicate holds; ``argmin`` the index of ``over`` with the
    least key among those where a condition holds, the lowest index among equal keys; ``-1`` if there is none.
    One value per step; a symbol ``name(τ)`` of the vocabulary.
    """

    name: str
    kind: str
    sort: str = "int"
    doc: str = ""
    over: Index | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("let", "lowest", "argmin"):
            raise ValueError(f"aux {self.name}: kind must be 'let', 'lowest' or 'argmin'")
        if (self.kind != "let") != (self.over is not None):
            raise ValueError(f"aux {self.name}: a lowest or argmin names the range it searches, and only those")


Step = Callable[[Any, Any, Any], State]


@dataclass(frozen=True)
class Transition:
    """An algorithm: state variables, ``init(o, g)``, ``step(o, g, s)`` and ``running(o, g, s)``.

    ``running`` is true of every state but the last: the run is ``s_0 … s_T`` with ``T`` the first step where
    it is false. ``bound(g)`` caps the number of steps of the Python and numpy runs (a run that reaches it
    raises: the algorithm does not terminate there).
    """

    name: str
    state: tuple[StateVar, ...]
    init: Callable[[Any, Any], State]
    step: Step
    running: Callable[[Any, Any, Any], Any]
    bound: Callable[[Any], int]
    aux: tuple[Aux, ...] = ()
    step_kind: str = "step"

    def __post_init__(self) -> None:
        names = [v.name for v in self.state] + [a.name for a in self.aux]
        if len(set(names)) != len(names):
            raise ValueError(f"transition {self.name}: a name is used twice")

    def var(self, name: str) -> StateVar:
        """The state variable ``name``."""
        return next(v for v in self.state if v.name == name)

    def symbols(self) -> tuple[Sig, ...]:
        """The run's symbols: ``T``, each state variable over the steps, each aux over the moving steps."""
        out = [Sig("T", 0, doc="the last step (the first state that does not run on)", result=self.step_kind)]
        for v in self.state:
            args = (self.step_kind,) if v.index is None else (self.step_kind, v.index.kind)
            out.append(Sig(v.name, len(args), v.sort, v.doc, args, v.result))
        for a in self.aux:
            out.append(Sig(a.name, 1, a.sort, a.doc, (self.step_kind,), a.over.kind if a.over else ""))
        return tuple(out)


def extend(base: Transition, name: str, state: Sequence[StateVar], init: Callable[[Any, Any], State],
           step: Callable[[Any, Any, Any, Any], State], aux: Sequence[Aux] = ()) -> Transition:
    """``base`` with more state variables; the run stops where ``base``'s does.

    ``init(o, g)`` gives the new variables' initial values and ``step(o, g, s, new)`` their next values, ``new``
    being ``base``'s next state (a namespace; ``o.get`` reads the values ``base``'s step named).
    """

    def init_all(o: Any, g: Any) -> State:
        return {**base.init(o, g), **init(o, g)}

    def step_all(o: Any, g: Any, s: Any) -> State:
        new = base.step(o, g, s)
        return {**new, **step(o, g, s, StateView(new))}

    return Transition(name, base.state + tuple(state), init_all, step_all, base.running, base.bound,
                      base.aux + tuple(aux), base.step_kind)


def checked_state(tr: Transition, s: State, where: str) -> State:
    """``s`` if it names exactly ``tr``'s state variables (``where`` says which function gave it); else ValueError."""
    want = {v.name for v in tr.state}
    if set(s) != want:
        raise ValueError(f"transition {tr.name}: {where} gives {sorted(s)}, the state variables are {sorted(want)}")
    return s


# -- Python values ------------------------------------------------------------------------------------------


class StateView:
    """A state read by attribute (``s.cur``), as the step and the conditions read it."""

    def __init__(self, values: Mapping[str, Any]):
        self.__dict__.update(values)


class PyOps:
    """The algebra on Python values for one input; arrays are tuples. Records each step's aux values."""

    def __init__(self, tr: Transition, g: Any):
        self.tr, self.g = tr, g
        self.aux: dict[str, Any] = {}
        #: The index ``τ`` of the state being read (``0`` in ``init``).
        self.step = 0

    ite = staticmethod(lambda c, a, b: a if c else b)
    and_ = staticmethod(lambda *xs: all(xs))
    or_ = staticmethod(lambda *xs: any(xs))
    not_ = staticmethod(lambda x: not x)

    def lt(self, a: Any, b: Any) -> Any:
        """``a < b`` for the algorithm's numbers (a reading may decide it another way: :class:`DecidingOps`)."""
        return a < b

    def at(self, arr: tuple[Any, ...], i: Any, default: Any = -1) -> Any:
        """``arr[i]``; ``default`` outside the range."""
        return arr[i] if 0 <= i < len(arr) else default

    def put(self, arr: tuple[Any, ...], i: Any, x: Any) -> tuple[Any, ...]:
        """``arr`` with ``arr[i] = x`` (unchanged outside the range)."""
        return arr[:i] + (x,) + arr[i + 1:] if 0 <= i < len(arr) else arr

    def array(self, index: Index, f: Callable[[int], Any]) -> tuple[Any, ...]:
        """``(f(0), …, f(size - 1))``."""
        return tuple(f(j) for j in range(index.size(self.g)))

    def let(self, name: str, x: Any) -> Any:
        """Name ``x`` (recorded for this step)."""
        self.aux[name] = x
        return x

    def get(self, name: str) -> Any:
        """The value this step named ``name`` (a ``let`` or ``lowest`` computed before)."""
        return self.aux[name]

    def lowest(self, name: str, pred: Callable[[int], Any]) -> int:
        """The least index of the aux's range where ``pred`` holds, ``-1`` if none (recorded)."""
        over = aux_decl(self.tr, name, "lowest").over
        assert over is not None
        j = next((j for j in range(over.size(self.g)) if pred(j)), -1)
        self.aux[name] = j
        return j

    def argmin(self, name: str, cond: Callable[[int], Any], key: Callable[[int], Any]) -> int:
        """The index with the least ``key`` among those where ``cond`` holds (lowest on ties), ``-1`` if none."""
        over = aux_decl(self.tr, name, "argmin").over
        assert over is not None
        js = [j for j in range(over.size(self.g)) if cond(j)]
        j = min(js, key=lambda j: (key(j), j)) if js else -1
        self.aux[name] = j
        return j


class _Decision:
    """``a < b``, decided by ``less`` only when its truth value is needed (``and_``/``or_`` short-circuit)."""

    def __init__(self, less: Callable[[Any, Any], bool], a: Any, b: Any):
        self.less, self.a, self.b = less, a, b
        self.value: bool | None = None

    def __bool__(self) -> bool:
        if self.value is None:
            self.value = bool(self.less(self.a, self.b))
        return self.value


class DecidingOps(PyOps):
    """Python values whose order is decided by ``less(a, b)`` (a symbolic engine decides it, or forks).

    A comparison is decided when a condition needs it, in the order the step reads it; ``argmin`` scans the
    candidates in index order and compares each with the best so far, deciding only those comparisons.
    """

    def __init__(self, tr: Transition, g: Any, less: Callable[[Any, Any], bool]):
        super().__init__(tr, g)
        self.less = less

    def lt(self, a: Any, b: Any) -> Any:
        """A comparison decided when it is read."""
        return _Decision(self.less, a, b)

    def argmin(self, name: str, cond: Callable[[int], Any], key: Callable[[int], Any]) -> int:
        """Index order; ``j`` replaces the best so far only when ``less(key(j), key(best))``."""
        over = aux_decl(self.tr, name, "argmin").over
        assert over is not None
        best = -1
        for j in range(over.size(self.g)):
            if cond(j) and (best == -1 or self.less(key(j), key(best))):
                best = j
        self.aux[name] = best
        return best


def aux_decl(tr: Transition, name: str, kind: str) -> Aux:
    """The declaration of the named value ``name``; ValueError if undeclared or declared as another kind."""
    for a in tr.aux:
        if a.name == name:
            if a.kind != kind:
                raise ValueError(f"transition {tr.name}: {name} is a {a.kind}, used as a {kind}")
            return a
    raise ValueError(f"transition {tr.name}: the step names {name!r}, which is not declared in its aux")


@dataclass
class Run:
    """A Python run: the states ``s_0 … s_T`` and, for each step ``τ < T``, the aux values of the step from it."""

    states: list[State]
    aux: list[dict[str, Any]] = field(default_factory=list)

    @property
    def T(self) -> int:
        """The last step."""
        return len(self.states) - 1


def step_once(tr: Transition, g: Any, s: State, ops: PyOps | None = None,
              t: int = 0) -> tuple[State, dict[str, Any]]:
    """One step from ``s``, the state at step ``t``: the next state and the step's aux values.

    ``ops`` is the algebra (:class:`PyOps` by default).
    """
    o = ops if ops is not None else PyOps(tr, g)
    o.aux, o.step = {}, t
    return checked_state(tr, tr.step(o, g, StateView(s)), "step"), dict(o.aux)


def initial(tr: Transition, g: Any, ops: PyOps | None = None) -> State:
    """The initial state (with ``ops``, :class:`PyOps` by default)."""
    return checked_state(tr, tr.init(ops if ops is not None else PyOps(tr, g), g), "init")


def run(tr: Transition, g: Any, ops: PyOps | None = None) -> Run:
    """The run on one input; ``g`` holds the input's symbols as attributes (``g.n``, ``g.adj(i, j)``).

    ``ops`` replaces the Python algebra (:class:`DecidingOps` hands every comparison to a caller).
    """
    o = ops if ops is not None else PyOps(tr, g)
    s = checked_state(tr, tr.init(o, g), "init")
    out = Run([s])
    limit = tr.bound(g)
    while tr.running(o, g, StateView(s)):
        o.step = len(out.states) - 1
        if len(out.states) > limit:
            raise RuntimeError(f"{tr.name} runs past {limit} steps on {g!r}")
        o.aux = {}
        s = checked_state(tr, tr.step(o, g, StateView(s)), "step")
        out.aux.append(dict(o.aux))
        out.states.append(s)
        o.step = len(out.states) - 1
    return out


def interpretation(tr: Transition, r: Run) -> dict[str, Any]:
    """The run's symbols as Python values: ``T``, ``name(τ)``/``name(τ, v)`` for the state, ``aux(τ)``.

    Outside the steps or the range, a symbol gives its default (``-1``, ``False``).
    """
    T = r.T
    out: dict[str, Any] = {"T": T}
    for v in tr.state:
        vals = [s[v.name] for s in r.states]
        if v.index is None:
            out[v.name] = _scalar(vals, v.default)
        else:
            out[v.name] = _array(vals, v.default)
    for a in tr.aux:
        out[a.name] = _scalar([x.get(a.name, -1) for x in r.aux], False if a.sort == "bool" else -1)
    return out


def _scalar(vals: Sequence[Any], default: Any) -> Callable[[int], Any]:
    return lambda t: vals[t] if 0 <= t < len(vals) else default


def _array(vals: Sequence[Sequence[Any]], default: Any) -> Callable[[int, int], Any]:
    return lambda t, v: vals[t][v] if 0 <= t < len(vals) and 0 <= v < len(vals[t]) else default


# -- the definitions, as facts ------------------------------------------------------------------------------


class FactOps:
    """The algebra on a vocabulary's symbols at step ``τ``: arrays are index functions, aux values symbols.

    ``c`` is an interpretation (:class:`~symcot.algorithms.logic.Concrete` or the prover's Z3 one).
    """

    def __init__(self, tr: Transition, c: Interp, t: Any):
        self.tr, self.c, self.t = tr, c, t
        #: The step ``τ`` (a term).
        self.step = t
        self.preds: dict[str, Callable[[Any], Any]] = {}
        self.keys: dict[str, Callable[[Any], Any]] = {}
        self.lets: dict[str, Any] = {}

    def ite(self, cond: Any, a: Any, b: Any) -> Any:
        """``c.ite``, pointwise on arrays."""
        if callable(a) or callable(b):
            fa, fb = _fn(a), _fn(b)
            return lambda v: self.c.ite(cond, fa(v), fb(v))
        return self.c.ite(cond, a, b)

    def and_(self, *xs: Any) -> Any:
        """``c.and_``."""
        return self.c.and_(*xs)

    def or_(self, *xs: Any) -> Any:
        """``c.or_``."""
        return self.c.or_(*xs)

    def not_(self, x: Any) -> Any:
        """``c.not_``."""
        return self.c.not_(x)

    @staticmethod
    def lt(a: Any, b: Any) -> Any:
        """``a < b`` as a term."""
        return a < b

    def at(self, arr: Callable[[Any], Any], i: Any, default: Any = -1) -> Any:
        """``arr(i)`` (unconstrained outside the range)."""
        return arr(i)

    def put(self, arr: Callable[[Any], Any], i: Any, x: Any) -> Callable[[Any], Any]:
        """``v ↦ x if v = i else arr(v)``."""
        return lambda v: self.c.ite(v == i, x, arr(v))

    def array(self, index: Index, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``f`` itself."""
        return f

    def let(self, name: str, x: Any) -> Any:
        """The symbol ``name(τ)`` (its definition: ``name(τ) = x``)."""
        aux_decl(self.tr, name, "let")
        self.lets[name] = x
        return getattr(self.c, name)(self.t)

    def get(self, name: str) -> Any:
        """The symbol ``name(τ)`` of a value this step named."""
        aux_decl(self.tr, name, next((a.kind for a in self.tr.aux if a.name == name), "let"))
        return getattr(self.c, name)(self.t)

    def lowest(self, name: str, pred: Callable[[Any], Any]) -> Any:
        """The symbol ``name(τ)`` (its definition: the least index where ``pred`` holds)."""
        aux_decl(self.tr, name, "lowest")
        self.preds[name] = pred
        return getattr(self.c, name)(self.t)

    def argmin(self, name: str, cond: Callable[[Any], Any], key: Callable[[Any], Any]) -> Any:
        """The symbol ``name(τ)`` (its definition: the least key where ``cond`` holds, lowest index on ties)."""
        aux_decl(self.tr, name, "argmin")
        self.preds[name] = cond
        self.keys[name] = key
        return getattr(self.c, name)(self.t)


def _fn(x: Any) -> Callable[[Any], Any]:
    return x if callable(x) else (lambda v: x)


def state_at(tr: Transition, c: Interp, t: Any) -> StateView:
    """The state ``s_τ`` in the vocabulary's symbols: ``c.cur(τ)``, ``v ↦ c.par(τ, v)``."""
    vals: dict[str, Any] = {}
    for v in tr.state:
        f = getattr(c, v.name)
        vals[v.name] = f(t) if v.index is None else (lambda j, f=f: f(t, j))
    return StateView(vals)


def _stepped(tr: Transition, c: Interp, t: Any) -> tuple[State, FactOps]:
    o = FactOps(tr, c, t)
    return checked_state(tr, tr.step(o, c, state_at(tr, c, t)), "step"), o


def _equal(c: Interp, v: StateVar, new: Any, t1: Any, j: Any = None) -> Any:
    f = getattr(c, v.name)
    return f(t1) == new if v.index is None else f(t1, j) == _fn(new)(j)


def definitions(tr: Transition, moves: Var, steps: Var) -> tuple[Fact, ...]:
    """The transition as definition facts: init, one step per state variable and aux, moves and ends.

    ``moves`` ranges over ``0 … T - 1`` and ``steps`` over ``0 … T`` (the vocabulary's step variables).
    """
    out: list[Fact] = []
    src = f"the initial state of {tr.name}"
    for v in tr.state:
        idx = () if v.index is None else (v.index.var("v"),)
        out.append(Fact(f"init:{v.name}", idx,
                        lambda c, *j, v=v: _equal(c, v, tr.init(FactOps(tr, c, 0), c)[v.name], 0, *j),
                        "definition", source=src))
    for v in tr.state:
        idx = () if v.index is None else (v.index.var("v"),)
        out.append(Fact(f"step:{v.name}", (moves, *idx),
                        lambda c, t, *j, v=v: _equal(c, v, _stepped(tr, c, t)[0][v.name], t + 1, *j),
                        "definition", source=f"one step of {tr.name}: {v.name}"))
    for a in tr.aux:
        out.extend(_aux_facts(tr, a, moves))
    out.append(Fact("moves", (moves,), lambda c, t: tr.running(FactOps(tr, c, t), c, state_at(tr, c, t)),
                    "definition", source=f"{tr.name} runs on until its last step"))
    out.append(Fact("ends", (), lambda c: c.and_(c.T >= 0, c.not_(tr.running(FactOps(tr, c, c.T), c,
                                                                           state_at(tr, c, c.T)))),
                    "definition", source=f"{tr.name} stops at its last step T ≥ 0"))
    return tuple(out)


def _aux_facts(tr: Transition, a: Aux, moves: Var) -> list[Fact]:
    if a.kind == "let":
        return [Fact(a.name, (moves,), lambda c, t: getattr(c, a.name)(t) == _stepped(tr, c, t)[1].lets[a.name],
                     "definition", source=a.doc)]
    over = a.over
    assert over is not None

    def chosen(c: Interp, t: Any) -> Any:
        x = getattr(c, a.name)(t)
        pred = _stepped(tr, c, t)[1].preds[a.name]
        return c.implies(x != -1, c.and_(0 <= x, x <= over.size(c) - 1, pred(x)))

    def least(c: Interp, t: Any, j: Any) -> Any:
        x = getattr(c, a.name)(t)
        pred = _stepped(tr, c, t)[1].preds[a.name]
        return c.implies(pred(j), c.and_(x != -1, x <= j))

    def least_key(c: Interp, t: Any, j: Any) -> Any:
        x = getattr(c, a.name)(t)
        o = _stepped(tr, c, t)[1]
        key = o.keys[a.name]
        return c.implies(o.preds[a.name](j), c.and_(x != -1, c.or_(key(x) < key(j), c.and_(key(x) == key(j), x <= j))))

    if a.kind == "argmin":
        return [Fact(f"{a.name}:choice", (moves,), chosen, "definition", source=f"{a.doc}: it satisfies the condition"),
                Fact(f"{a.name}:least", (moves, over.var("j")), least_key, "definition",
                     source=f"{a.doc}: the least key, the lowest index among equal keys (-1 when none)")]
    return [Fact(f"{a.name}:choice", (moves,), chosen, "definition", source=f"{a.doc}: it satisfies the predicate"),
            Fact(f"{a.name}:lowest", (moves, over.var("j")), least, "definition",
                 source=f"{a.doc}: the least index that does (-1 when none does)")]
