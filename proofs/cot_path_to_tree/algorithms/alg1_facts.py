r"""Algorithm 1 (algo:pathtotree) as a vocabulary of its runs, with the facts an all-n proof uses.

Symbols (``-1`` stands for "none"):

* input: ``m`` (nodes), ``T = 2(m - 1)`` (letters), ``up(τ)`` (letter ``τ`` is ``U``), ``ups(τ)`` (the
  number of ``U`` among the first ``τ`` letters, so the height is ``s_τ = 2·ups(τ) - τ``);
* run: ``i(τ)``, ``nl(τ)``, ``A(τ, a, b)`` (``A_w[a, b] = 1``) after ``τ`` letters, and ``par(τ)`` (the node
  current before letter ``τ - 1`` when it was ``U``, -1 otherwise: the ``par`` block of thm:cotpathtotree);
* auxiliary: ``pj(τ)`` (the ``j`` line 8 finds) and ``made(v)`` (the first step at which ``v`` is current,
  its creation).

A Dyck word is stated through ``ups``: ``s_τ ≥ 0`` throughout and ``s_T = 0``. The derived facts are the
shape of the partial tree (``A`` holds exactly the edges between each created node ``v ≥ 1`` and its
creator ``cr(v) = par(made(v))``, with ``cr(v) < v``) and the depth invariant (the height ``s_τ`` is the
height at which the current node was created), so that a ``D`` is never read at the root and line 8
finds the creator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.paths import Alg1State
from symcot.algorithms.logic import Fact, Induction, Sig, Var, Vocabulary, table
from symcot.inputs.dyck import UP

SYMBOLS = (
    Sig("m", 0, doc="number of nodes"),
    Sig("T", 0, doc="number of letters, 2(m - 1)", result="step"),
    Sig("up", 1, "bool", "letter τ is U", ("step",)),
    Sig("ups", 1, "int", "number of U among the first τ letters", ("step",)),
    Sig("i", 1, "int", "the current node after τ letters", ("step",), "node"),
    Sig("nl", 1, "int", "the last created node after τ letters", ("step",), "node"),
    Sig("A", 3, "bool", "A_w[a, b] = 1 after τ letters", ("step", "node", "node")),
    Sig("par", 1, "int", "the node current before letter τ - 1 if it was U; -1 otherwise", ("step",), "node"),
    Sig("pj", 1, "int", "the j < i with A_w[j, i] = 1 that line 8 finds at letter τ", ("step",), "node"),
    Sig("made", 1, "int", "the first step at which v is the current node", ("node",), "step"),
)

STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
LETTER = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")


def node(name: str) -> Var:
    """A node variable."""
    return Var(name, lambda c, *_: 0, lambda c, *_: c.m - 1, "node")


def height(c: Any, t: Any) -> Any:
    """``s_τ = 2·ups(τ) - τ``."""
    return 2 * c.ups(t) - t


def cr(c: Any, v: Any) -> Any:
    """The creator of node ``v``: the node current before it was created."""
    return c.par(c.made(v))


DOMAIN = (
    Fact("word", (), lambda c: c.and_(c.m >= 1, c.T == 2 * c.m - 2, c.ups(0) == 0), "domain",
         source="w is a Dyck word of length 2(m - 1)"),
    Fact("count", (LETTER,), lambda c, t: c.ups(t + 1) == c.ups(t) + c.ite(c.up(t), 1, 0), "domain",
         source="ups(τ) counts the U among w_0 … w_{τ-1}"),
    Fact("dyck", (STEP,), lambda c, t: c.and_(height(c, t) >= 0, height(c, c.T) == 0), "domain",
         source="an excursion: s_τ ≥ 0 throughout and s_{2(m-1)} = 0"),
)

DEFINITION = (
    Fact("init", (node("a"), node("b")),
         lambda c, a, b: c.and_(c.i(0) == 0, c.nl(0) == 0, c.par(0) == -1, c.not_(c.A(0, a, b))), "definition",
         source="line 1: A_w initialised to 0; line 2: nl ← 0, i ← 0"),
    Fact("U", (LETTER, node("a"), node("b")),
         lambda c, t, a, b: c.implies(c.up(t), c.and_(
             c.nl(t + 1) == c.nl(t) + 1, c.i(t + 1) == c.nl(t) + 1, c.par(t + 1) == c.i(t),
             c.A(t + 1, a, b) == c.or_(c.A(t, a, b), c.and_(a == c.i(t), b == c.nl(t) + 1),
                                       c.and_(a == c.nl(t) + 1, b == c.i(t))))), "definition",
         source="lines 5-7: nl ← nl + 1; A_w[i, nl] ← 1, A_w[nl, i] ← 1; i ← nl"),
    Fact("D", (LETTER, node("a"), node("b")),
         lambda c, t, a, b: c.implies(c.not_(c.up(t)), c.and_(
             c.nl(t + 1) == c.nl(t), c.i(t + 1) == c.pj(t), c.par(t + 1) == -1, c.A(t + 1, a, b) == c.A(t, a, b))),
         "definition", source="lines 8-9: i ← j; nl and A_w unchanged"),
    Fact("search", (LETTER, node("j")),
         lambda c, t, j: c.implies(c.and_(c.not_(c.up(t)), j < c.i(t), c.A(t, j, c.i(t))),
                                   c.and_(0 <= c.pj(t), c.pj(t) <= j, c.A(t, c.pj(t), c.i(t)))), "definition",
         source="line 8: search j < i s.t. A_w[j, i] = 1 (the lowest such j)"),
    Fact("made", (STEP, node("v")),
         lambda c, t, v: c.implies(c.i(t) == v, c.and_(0 <= c.made(v), c.made(v) <= t, c.i(c.made(v)) == v)),
         "definition", source="made(v): the least step at which v is current"),
)


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
    Fact("shape", (STEP, node("v"), Var("τ'", lambda c, *_: 0, lambda c, t, *_: t, "step")), _shape, "derived",
         Induction("τ", joint=("tree",), split=lambda c, t: [c.up(t), c.not_(c.up(t))], hints=_hints),
         source="i ≤ nl = #U read, and every node current so far is ≤ nl; node v ≥ 1 was created at made(v) by a "
                "U from cr(v) < v, one level below it; the height is the current node's creation height"),
    Fact("tree", (STEP, node("a"), node("b")), _tree, "derived",
         Induction("τ", joint=("shape",), split=lambda c, t: [c.up(t), c.not_(c.up(t))], hints=_hints),
         source="A_w holds exactly the edges between each created node v ≥ 1 and its creator cr(v)"),
)


def interpret(word: str, states: Sequence[Alg1State]) -> dict[str, Any]:
    """The symbols' values on the run of Algorithm 1 on ``word``."""
    T = len(word)
    size = T // 2 + 1
    ups = [0]
    for ch in word:
        ups.append(ups[-1] + (1 if ch == UP else 0))
    made: dict[int, int] = {}
    for t, st in enumerate(states):
        made.setdefault(st.i, t)
    pj = []
    for t, st in enumerate(states):
        found = [j for j in range(st.i) if st.a[j][st.i]] if t < T and word[t] != UP else []
        pj.append(found[0] if found else -1)
    return {
        "m": size, "T": T,
        "up": lambda t: 0 <= t < T and word[t] == UP,
        "ups": table(ups, 0),
        "i": table([st.i for st in states]),
        "nl": table([st.nl for st in states]),
        "A": lambda t, a, b: 0 <= t <= T and 0 <= a < size and 0 <= b < size and bool(states[t].a[a][b]),
        "par": table([st.par for st in states]),
        "pj": table(pj),
        "made": lambda v: made.get(v, T + 1),
    }


VIEWS = {
    "i": lambda c, t: c.i(t),
    "nl": lambda c, t: c.nl(t),
    "par": lambda c, t: c.par(t),
    "a": lambda c, t: c.mat(lambda a, b: c.ite(c.A(t, a, b), 1, 0), c.m, c.m),
    "cursor": lambda c, t: c.ite(t < c.T, t, -1),
    "t": lambda c, t: t,
}

VOCABULARY = Vocabulary("algo:pathtotree", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS, interpret, size="m")
