r"""Algorithm 1 (algo:pathtotree) as a vocabulary of its runs, with the facts an all-n proof uses.

The run is that of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.ALG1`; its definitions are the
transition's (:func:`~symcot.algorithms.transition.definitions`). Symbols (``-1`` stands for "none"):

* input: ``m`` (nodes), ``T = 2(m - 1)`` (letters, the run's last step), ``up(τ)`` (letter ``τ`` is ``U``),
  ``ups(τ)`` (the number of ``U`` among the first ``τ`` letters, so the height is ``s_τ = 2·ups(τ) - τ``),
  ``pair(a, b)`` (``a·m + b``, the number of the entry ``(a, b)`` of an ``m × m`` matrix) with its inverse
  ``row``, ``col`` (the domain states the numbering one to one onto ``0 … m² - 1``, all a proof needs of it);
* run: ``nread(τ)`` (letters read, ``τ``), ``i(τ)``, ``nl(τ)``, ``Aw(τ, pair(a, b))`` (``A_w[a, b] = 1``, flattened)
  after ``τ`` letters, ``par(τ)`` (the node current before letter ``τ - 1`` when it was ``U``, -1 otherwise: the
  ``par`` block of thm:cotpathtotree) and ``pj(τ)`` (the lowest ``j < i`` with ``A_w[j, i] = 1``, what line 8 finds);
* auxiliary: ``A(τ, a, b)`` (``A_w[a, b] = 1``, the flattened entry read back) and ``made(v)`` (the first step at
  which ``v`` is current, its creation).

A Dyck word is stated through ``ups``: ``s_τ ≥ 0`` throughout and ``s_T = 0``. The derived facts first restate one
step by the letter ``w_τ`` and by ``A`` (``init``, ``U``, ``D``, ``search``: lines 1-9 as the proofs read them, from
the transition's definitions), then the shape of the partial tree (``A`` holds exactly the edges between each created
node ``v ≥ 1`` and its creator ``cr(v) = par(made(v))``, with ``cr(v) < v``) and the depth invariant (the height
``s_τ`` is the height at which the current node was created), so that a ``D`` is never read at the root and line 8
finds the creator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.path_transitions import ALG1, WordInput, height
from proofs.cot_path_to_tree.algorithms.paths import Alg1State
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var, Vocabulary, table
from symcot.algorithms.transition import Transition, definitions, interpretation, run
from symcot.inputs.dyck import UP

SYMBOLS = (
    Sig("m", 0, doc="number of nodes"),
    Sig("T", 0, doc="number of letters, 2(m - 1)", result="step"),
    Sig("up", 1, "bool", "letter τ is U", ("step",)),
    Sig("ups", 1, "int", "number of U among the first τ letters", ("step",)),
    Sig("pair", 2, "int", "the index a·m + b of the entry (a, b) of an m × m matrix", ("node", "node"), "pair"),
    Sig("row", 1, "int", "the row a of the entry numbered a·m + b", ("pair",), "node"),
    Sig("col", 1, "int", "the column b of the entry numbered a·m + b", ("pair",), "node"),
    *(s for s in ALG1.symbols() if s.name != "T"),
    Sig("A", 3, "bool", "A_w[a, b] = 1 after τ letters", ("step", "node", "node")),
    Sig("made", 1, "int", "the first step at which v is the current node", ("node",), "step"),
)

STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
LETTER = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")


def node(name: str) -> Var:
    """A node variable."""
    return Var(name, lambda c, *_: 0, lambda c, *_: c.m - 1, "node")


def cr(c: Any, v: Any) -> Any:
    """The creator of node ``v``: the node current before it was created."""
    return c.par(c.made(v))


#: The input is a Dyck word (what the fold's vocabulary shares).
DYCK = (
    Fact("word", (), lambda c: c.and_(c.m >= 1, c.T == 2 * c.m - 2, c.ups(0) == 0), "domain",
         source="w is a Dyck word of length 2(m - 1)"),
    Fact("count", (LETTER,), lambda c, t: c.ups(t + 1) == c.ups(t) + c.ite(c.up(t), 1, 0), "domain",
         source="ups(τ) counts the U among w_0 … w_{τ-1}"),
    Fact("dyck", (STEP,), lambda c, t: c.and_(height(c, t) >= 0, height(c, c.T) == 0), "domain",
         source="an excursion: s_τ ≥ 0 throughout and s_{2(m-1)} = 0"),
)

DOMAIN = (
    *DYCK,
    Fact("pair", (node("a"), node("b")),
         lambda c, a, b: c.and_(c.row(c.pair(a, b)) == a, c.col(c.pair(a, b)) == b, 0 <= c.pair(a, b),
                                c.pair(a, b) <= c.m * c.m - 1), "domain",
         source="the entries (a, b) of an m × m matrix are numbered a·m + b: one to one onto 0 … m² - 1"),
)

#: The transition's definitions (init, one step of each state variable, ``pj``, moves, ends) and the auxiliary
#: ``A`` and ``made``.
DEFINITION = (
    *definitions(ALG1, LETTER, STEP),
    Fact("A", (STEP, node("a"), node("b")), lambda c, t, a, b: c.A(t, a, b) == c.Aw(t, c.pair(a, b)), "definition",
         source="A(τ, a, b): the entry pair(a, b) = a·m + b of the flattened A_w"),
    Fact("made", (STEP, node("v")),
         lambda c, t, v: c.implies(c.i(t) == v, c.and_(0 <= c.made(v), c.made(v) <= t, c.i(c.made(v)) == v)),
         "definition", source="made(v): the least step at which v is current"),
)

#: ``nread(τ) = τ``: the step from ``τ`` reads the letter ``w_τ``.
READ = Fact("read", (STEP,), lambda c, t: c.nread(t) == t, "derived", Induction("τ"),
            source="the step from τ reads the letter w_τ: τ letters are read at τ")


def _counts(c: Any, t: Any) -> Any:
    return c.and_(c.nl(t) == c.ups(t), -1 <= c.i(t), c.i(t) <= c.nl(t), c.ups(t) <= c.m - 1)


def _u(c: Any, t: Any, a: Any, b: Any) -> Any:
    return c.implies(c.up(t), c.and_(
        c.nl(t + 1) == c.nl(t) + 1, c.i(t + 1) == c.nl(t) + 1, c.par(t + 1) == c.i(t),
        c.implies(0 <= c.i(t), c.A(t + 1, a, b) == c.or_(c.A(t, a, b), c.and_(a == c.i(t), b == c.nl(t) + 1),
                                                         c.and_(a == c.nl(t) + 1, b == c.i(t))))))


def _shape(c: Any, t: Any, v: Any, t1: Any) -> Any:
    return c.and_(
        0 <= c.i(t), c.i(t) <= c.nl(t), c.nl(t) == c.ups(t), c.made(0) == 0, c.i(t1) <= c.nl(t),
        height(c, t) == height(c, c.made(c.i(t))),
        c.implies(c.and_(1 <= v, v <= c.nl(t)), c.and_(
            1 <= c.made(v), c.made(v) <= t, c.i(c.made(v)) == v, c.up(c.made(v) - 1), c.nl(c.made(v)) == v,
            0 <= cr(c, v), cr(c, v) < v, height(c, c.made(v)) == height(c, c.made(cr(c, v))) + 1)))


def _tree(c: Any, t: Any, a: Any, b: Any) -> Any:
    return c.A(t, a, b) == c.or_(c.and_(1 <= b, b <= c.nl(t), a == cr(c, b)),
                                 c.and_(1 <= a, a <= c.nl(t), b == cr(c, a)))


def _hints(c: Any, t: Any) -> list[Any]:
    """The current node, its creator and creation step, the node a U creates: where the step's cases look."""
    return [t, c.i(t), cr(c, c.i(t)), c.made(c.i(t)), c.nl(t) + 1]


DERIVED = (
    Fact("ups-monotone", (Var("τ1", lambda c, *_: 0, lambda c, *_: c.T, "step"),
                          Var("τ2", lambda c, t1, *_: t1, lambda c, *_: c.T, "step")),
         lambda c, t1, t2: c.ups(t1) <= c.ups(t2), "derived", Induction("τ2"),
         source="the number of U read so far never decreases"),
    READ,
    Fact("init", (node("a"), node("b")),
         lambda c, a, b: c.and_(c.i(0) == 0, c.nl(0) == 0, c.par(0) == -1, c.not_(c.A(0, a, b))), "derived",
         Direct(), source="line 1: A_w initialised to 0; line 2: nl ← 0, i ← 0"),
    Fact("counts", (STEP,), _counts, "derived", Induction("τ"),
         source="nl is the number of U read, at most m - 1; -1 ≤ i ≤ nl (line 8 finds -1 or a j < i)"),
    Fact("U", (LETTER, node("a"), node("b")), _u, "derived", Direct(),
         source="lines 5-7: nl ← nl + 1; A_w[i, nl] ← 1, A_w[nl, i] ← 1; i ← nl"),
    Fact("D", (LETTER, node("a"), node("b")),
         lambda c, t, a, b: c.implies(c.not_(c.up(t)), c.and_(
             c.nl(t + 1) == c.nl(t), c.i(t + 1) == c.pj(t), c.par(t + 1) == -1, c.A(t + 1, a, b) == c.A(t, a, b))),
         "derived", Direct(), source="lines 8-9: i ← j; nl and A_w unchanged"),
    Fact("search", (LETTER, node("j")),
         lambda c, t, j: c.implies(c.and_(c.not_(c.up(t)), j < c.i(t), c.A(t, j, c.i(t))),
                                   c.and_(0 <= c.pj(t), c.pj(t) <= j, c.A(t, c.pj(t), c.i(t)))), "derived", Direct(),
         source="line 8: search j < i s.t. A_w[j, i] = 1 (the lowest such j)"),
    Fact("shape", (STEP, node("v"), Var("τ'", lambda c, *_: 0, lambda c, t, *_: t, "step")), _shape, "derived",
         Induction("τ", joint=("tree",), split=lambda c, t: [c.up(t), c.not_(c.up(t))], hints=_hints),
         source="i ≤ nl = #U read, and every node current so far is ≤ nl; node v ≥ 1 was created at made(v) by a "
                "U from cr(v) < v, one level below it; the height is the current node's creation height"),
    Fact("tree", (STEP, node("a"), node("b")), _tree, "derived",
         Induction("τ", joint=("shape",), split=lambda c, t: [c.up(t), c.not_(c.up(t))], hints=_hints),
         source="A_w holds exactly the edges between each created node v ≥ 1 and its creator cr(v)"),
)


def _numbering(size: int) -> dict[str, Any]:
    """``pair``, ``row``, ``col`` of ``m × m`` matrices (-1 outside)."""
    def inside(k: int) -> bool:
        return 0 <= k < size * size

    return {"pair": lambda a, b: a * size + b if 0 <= a < size and 0 <= b < size else -1,
            "row": lambda k: k // size if inside(k) else -1, "col": lambda k: k % size if inside(k) else -1}


def run_symbols(word: str, tr: Transition = ALG1) -> dict[str, Any]:
    """The symbols' values on the run of ``tr`` on ``word`` (:data:`ALG1`, or a transition with its state)."""
    g = WordInput(word)
    r = run(tr, g)
    size, T = g.m, g.T
    made: dict[int, int] = {}
    for t, st in enumerate(r.states):
        made.setdefault(st["i"], t)
    aw = interpretation(tr, r)
    return {
        **_numbering(size), "m": size, "up": g.up, "ups": g.ups, **aw,
        "A": lambda t, a, b: 0 <= a < size and 0 <= b < size and bool(aw["Aw"](t, a * size + b)),
        "made": lambda v: made.get(v, T + 1),
    }


def interpret(word: str, states: Sequence[Alg1State]) -> dict[str, Any]:
    """The symbols' values on the run of Algorithm 1 on ``word``.

    :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.ALG1` is run again (``states`` is
    :func:`~proofs.cot_path_to_tree.algorithms.paths.algorithm1_states` of that run).
    """
    return run_symbols(word)


def inputs(word: Any) -> dict[str, Any]:
    """The input symbols ``m``, ``T``, ``up``, ``ups`` of a Dyck word, without a run.

    Also of a batch's stand-in (:class:`~symcot.inputs.batch.WordColumns`): ``up(τ)`` and ``ups(τ)`` are then
    every row's, ``(B,)`` arrays.
    """
    T = len(word)
    ups: list[Any] = [0]
    for ch in word:
        ups.append(ups[-1] + 1 * (ch == UP))

    def up(t: int) -> Any:
        return word[t] == UP if 0 <= t < T else False

    return {**_numbering(T // 2 + 1), "m": T // 2 + 1, "T": T, "up": up, "ups": table(ups, 0)}


VIEWS = {
    "i": lambda c, t: c.i(t),
    "nl": lambda c, t: c.nl(t),
    "par": lambda c, t: c.par(t),
    "a": lambda c, t: c.mat(lambda a, b: c.ite(c.A(t, a, b), 1, 0), c.m, c.m),
    "cursor": lambda c, t: c.ite(t < c.T, t, -1),
    "t": lambda c, t: t,
}

VOCABULARY = Vocabulary("algo:pathtotree", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS, interpret, size="m",
                        inputs=inputs)
