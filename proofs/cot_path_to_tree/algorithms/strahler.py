r"""The Strahler number (Section 2.2) and the ``(M, c)`` fold of obs:dynamicstrdfs, each equation separately.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Section 2.2 (definition of ``str``, observation
``obs:dynamicstrdfs`` with ``eq:dynamicstrdfs`` and its "reduces to" form) and the proof of
``thm:cottreestrahler`` (``eq:strahM``, ``eq:strahc``).

*Recursive definition* (:func:`strahler_numbers`): a leaf has ``str = 0``; a vertex with subtrees
``τ_1..τ_k`` has ``M = max_i str(τ_i)``, ``c = |{i : str(τ_i) = M}|`` and ``str = M + 1`` if ``c ≥ 2``,
else ``M``. It is computed bottom-up from the children lists, without any fold.

*The fold* (:func:`fold_transition`, a :class:`~symcot.algorithms.transition.Transition` extending the DFS
dynamic eq:dfsdynamic; :data:`STRAHLER` with the case form): the DFS is run from the root and every vertex
carries an accumulator ``(M, c)``. A *traverse* gives the new vertex ``(0, 0)``. A *backtrack* from ``v`` to
``u`` finishes ``v`` with ``str(τ_v) = M_v + 1[c_v ≥ 2]`` and folds it into ``u``'s accumulator with an
*update* ``(str(τ_v), (M_u, c_u)) ↦ (M, c)``. :data:`STRAHLER` is stated once and read three ways: per input
(:func:`strahler_dynamic`), on a batch (``algorithms.batched.dfs.strahler_dynamic_batch``) and as the
definitions of ``algorithms.strahler_facts``. Its update is written over an algebra (:func:`fold_m`,
:func:`fold_c`); :func:`strahler_dynamic` also runs the fold with any Python update. The updates, one
function each:

* :func:`fold_case` -- eq:dynamicstrdfs as printed, with ``D = str(τ_v) - M_u``::

      D < 0:  M = M_u,                    c = c_u
      D = 0:  M = M_u + 1[c_u ≥ 1],       c = 1[c_u + 1 < 2]
      D > 0:  M = str(τ_v),               c = 1

* :func:`fold_reduced` -- the "reduces to" form printed right after it::

      M = max(str(τ_v), M_u) + 1[D=0] 1[c_u > 0]
      c = 1[D<0] c_u + 1[D=0] 1[c_u=0] + 1[D>0] 1

* :func:`strah_m` -- eq:strahM: ``M = M_u + ReLU(str(v) - M_u) + 1[D=0] 1[c_u>0]`` (the new ``M`` only);
* :func:`strah_c` -- eq:strahc as printed: ``c = 1[D>0] c_u + 1[D=0] 1[c_u=0] + 1[D<0] 1`` (the new ``c``
  only); :func:`strah_c_repaired` swaps ``1[D>0]`` and ``1[D<0]``, which is the reduced form's ``c``.
  :func:`combine` pairs a rule for ``M`` with one for ``c`` into an update.

The case form keeps ``c ∈ {0, 1}``: when a second child attains the maximum (``D = 0``, ``c_u = 1``) it
*lifts* ``M`` by one and resets ``c`` to 0 -- the footnote's "or one more than it, in a boundary case
when D = 0 is observed a priori". :func:`footnote_accumulator` states that reading directly from the
multiset of finished children's Strahler numbers: ``(max, count)`` while the count is at most one,
``(max + 1, 0)`` once it is two or more (and ``(0, 0)`` with no finished child).

*The final backtrack* (from the root ``s``, into φ): "this final backtrack folds s under the same
invariant, giving π_M(y_{2n-1}) = str(s)" (proof of thm:cottreestrahler). The accumulator of φ is taken
to be empty, so the state after the last step is ``update(str(s), (0, 0))``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs import DFS, VERTEX, DfsState, dfs_input, states_of
from symcot.algorithms.transition import Run, StateVar, Transition, extend, run
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import OrderedTree, validate_tree

#: An accumulator ``(M, c)``.
Acc = tuple[int, int]
#: ``update(str(τ_v), (M_u, c_u)) -> (M, c)``.
Update = Callable[[int, Acc], Acc]
#: The empty accumulator of a freshly visited vertex (and of φ).
EMPTY: Acc = (0, 0)


def ind(b: bool) -> int:
    """The indicator ``1[b]``."""
    return 1 if b else 0


def relu(v: int) -> int:
    """``max(0, v)``."""
    return v if v > 0 else 0


def _check_nat(v: object, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise InvalidInputError(f"{what} must be a non-negative integer, got {v!r}")
    return v


def _check(str_v: object, acc_u: object) -> tuple[int, int, int]:
    if not isinstance(acc_u, tuple) or len(acc_u) != 2:
        raise InvalidInputError(f"an accumulator is a pair (M, c), got {acc_u!r}")
    return _check_nat(str_v, "str(τ_v)"), _check_nat(acc_u[0], "M_u"), _check_nat(acc_u[1], "c_u")


# -- the recursive definition ---------------------------------------------------------------------


def children_lists(g: Digraph, root: int) -> list[list[int]]:
    """Children of every vertex of the rooted labeled tree ``(g, root)``, in increasing index (DFS) order."""
    validate_tree(g, root)
    nbrs: list[list[int]] = [[] for _ in range(g.n)]
    for u, v in g.arcs:  # arcs are sorted: each list is in increasing index order (Digraph.out_neighbors)
        nbrs[u].append(v)
    kids: list[list[int]] = [[] for _ in range(g.n)]
    seen = {root}
    stack = [root]
    while stack:
        u = stack.pop()
        for v in nbrs[u]:
            if v not in seen:
                seen.add(v)
                kids[u].append(v)
                stack.append(v)
    return [sorted(k) for k in kids]


def strahler_numbers(children: Sequence[Sequence[int]], root: int = 0) -> list[int]:
    """``str(τ_v)`` for every vertex ``v`` by the recursive definition (leaf 0; ``M + 1[c ≥ 2]``)."""
    out = [0] * len(children)
    order: list[int] = []
    stack = [root]
    while stack:  # preorder; children after parents, so the reversed list is a valid bottom-up order
        u = stack.pop()
        order.append(u)
        stack.extend(children[u])
    for u in reversed(order):
        vals = [out[v] for v in children[u]]
        if vals:
            big = max(vals)
            out[u] = big + 1 if vals.count(big) >= 2 else big
    return out


def strahler_number(g: Digraph, root: int) -> int:
    """``str(G_T)`` of the labeled tree ``g`` rooted at ``root`` (recursive definition)."""
    return strahler_numbers(children_lists(g, root), root)[root]


def strahler_ordered(tree: OrderedTree) -> int:
    """``str`` of an ordered tree (root 0), by the recursive definition."""
    return strahler_numbers(tree.children, 0)[0]


# -- the fold: one function per equation ------------------------------------------------------------


def str_of(acc: Acc) -> int:
    """``str(τ_v) = M_v + 1[c_v ≥ 2]`` (obs:dynamicstrdfs)."""
    return acc[0] + ind(acc[1] >= 2)


def fold_case(str_v: int, acc_u: Acc) -> Acc:
    """eq:dynamicstrdfs, the case form as printed (``D = str(τ_v) - M_u``)."""
    return _fold_case(*_check(str_v, acc_u))


def _fold_case(s: int, m_u: int, c_u: int) -> Acc:
    """:func:`fold_case` on checked arguments (``str(τ_v)``, ``M_u``, ``c_u``: non-negative ints)."""
    d = s - m_u
    if d < 0:
        return m_u, c_u
    if d == 0:
        return m_u + ind(c_u >= 1), ind(c_u + 1 < 2)
    return s, 1


def fold_reduced(str_v: int, acc_u: Acc) -> Acc:
    """The "reduces to" form after eq:dynamicstrdfs: ``max(str, M_u) + 1[D=0]1[c_u>0]`` and its ``c``."""
    s, m_u, c_u = _check(str_v, acc_u)
    d = s - m_u
    m = max(s, m_u) + ind(d == 0) * ind(c_u > 0)
    c = ind(d < 0) * c_u + ind(d == 0) * ind(c_u == 0) + ind(d > 0) * 1
    return m, c


def strah_m(str_v: int, acc_u: Acc) -> int:
    """eq:strahM: ``π_M(y_{t+1}) = M_u + ReLU(str(v) - M_u) + 1[D=0] 1[c_u>0]``."""
    s, m_u, c_u = _check(str_v, acc_u)
    d = s - m_u
    return m_u + relu(s - m_u) + ind(d == 0) * ind(c_u > 0)


def strah_c(str_v: int, acc_u: Acc) -> int:
    """eq:strahc as printed: ``π_c(y_{t+1}) = 1[D>0] c_u + 1[D=0] 1[c_u=0] + 1[D<0] 1``."""
    s, m_u, c_u = _check(str_v, acc_u)
    d = s - m_u
    return ind(d > 0) * c_u + ind(d == 0) * ind(c_u == 0) + ind(d < 0) * 1


def strah_c_repaired(str_v: int, acc_u: Acc) -> int:
    """eq:strahc with ``1[D>0]`` and ``1[D<0]`` swapped: ``1[D<0] c_u + 1[D=0] 1[c_u=0] + 1[D>0] 1``."""
    s, m_u, c_u = _check(str_v, acc_u)
    d = s - m_u
    return ind(d < 0) * c_u + ind(d == 0) * ind(c_u == 0) + ind(d > 0) * 1


def combine(m_rule: Callable[[int, Acc], int] | None = None, c_rule: Callable[[int, Acc], int] | None = None,
            base: Update = fold_case) -> Update:
    """An update taking ``M`` from ``m_rule`` and ``c`` from ``c_rule``; a missing rule comes from ``base``."""

    def update(str_v: int, acc_u: Acc) -> Acc:
        b = base(str_v, acc_u)
        return (b[0] if m_rule is None else m_rule(str_v, acc_u), b[1] if c_rule is None else c_rule(str_v, acc_u))

    return update


def footnote_accumulator(finished: Sequence[int]) -> Acc:
    """What ``(M_u, c_u)`` means by the observation and its footnote, from the finished children's ``str``.

    ``(0, 0)`` for no child; ``(max, count)`` while the maximum is attained at most once; ``(max + 1, 0)``
    once it is attained twice or more ("or one more than it, in a boundary case when D = 0 ...").
    """
    if not finished:
        return EMPTY
    big = max(finished)
    cnt = list(finished).count(big)
    return (big, cnt) if cnt <= 1 else (big + 1, 0)


# -- the fold along the DFS dynamic: one transition ---------------------------------------------------


def str_term(o: Any, m: Any, k: Any) -> Any:
    """``str(τ_v) = M_v + 1[c_v ≥ 2]`` (obs:dynamicstrdfs) over an algebra ``o`` (anything with ``ite``)."""
    return m + o.ite(k >= 2, 1, 0)


def fold_m(o: Any, s: Any, m_u: Any, c_u: Any) -> Any:
    """``M`` of eq:dynamicstrdfs, case form: ``M_u`` (``D < 0``), ``M_u + 1[c_u ≥ 1]`` (``D = 0``), ``str`` (else)."""
    d = s - m_u
    return o.ite(d < 0, m_u, o.ite(d == 0, m_u + o.ite(c_u >= 1, 1, 0), s))


def fold_c(o: Any, s: Any, m_u: Any, c_u: Any) -> Any:
    """``c`` of eq:dynamicstrdfs (case form): ``c_u`` if ``D < 0``, ``1[c_u + 1 < 2]`` if ``D = 0``, 1 if ``D > 0``."""
    d = s - m_u
    return o.ite(d < 0, c_u, o.ite(d == 0, o.ite(c_u + 1 < 2, 1, 0), 1))


#: An update over an algebra: ``rule(o, str(τ_v), M_u, c_u) -> (M, c)``.
FoldRule = Callable[[Any, Any, Any, Any], tuple[Any, Any]]


def case_form(o: Any, s: Any, m_u: Any, c_u: Any) -> tuple[Any, Any]:
    """eq:dynamicstrdfs, the case form, over an algebra: ``(fold_m, fold_c)`` (:func:`fold_case` in Python)."""
    return fold_m(o, s, m_u, c_u), fold_c(o, s, m_u, c_u)


def python_rule(update: Update) -> FoldRule:
    """A Python update ``(str(τ_v), (M_u, c_u)) -> (M, c)`` as a rule of the Python reading only."""
    return lambda o, s, m_u, c_u: update(s, (m_u, c_u))


#: The fold's state: the accumulator kept for each vertex and the one the state carries.
FOLD_STATE = (
    StateVar("stM", "int", VERTEX, "M of the accumulator kept for v after step τ"),
    StateVar("stC", "int", VERTEX, "c of the accumulator kept for v after step τ"),
    StateVar("accM", doc="M of the accumulator y_τ carries"),
    StateVar("accC", doc="c of the accumulator y_τ carries"),
)


def fold_transition(rule: FoldRule = case_form) -> Transition:
    """obs:dynamicstrdfs along eq:dfsdynamic (:data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS`) with ``rule``.

    Every accumulator starts empty. A traverse gives the new vertex ``(0, 0)``; a backtrack from ``v`` into
    ``u`` folds ``str(τ_v) = M_v + 1[c_v ≥ 2]`` into ``u``'s accumulator; the final backtrack from the root
    folds ``str(s)`` into φ's empty accumulator ("this final backtrack folds s under the same invariant",
    proof of thm:cottreestrahler), which no vertex keeps. The state carries the accumulator the step writes.
    """

    def init(o: Any, g: Any) -> dict[str, Any]:
        return {"stM": o.array(VERTEX, lambda v: 0), "stC": o.array(VERTEX, lambda v: 0), "accM": 0, "accC": 0}

    def step(o: Any, g: Any, s: Any, new: Any) -> dict[str, Any]:
        traverse = o.get("tr")
        u = o.at(s.par, s.cur)  # where a backtrack goes; -1 (φ) on the final one
        into_phi = u == -1
        m_u, c_u = o.ite(into_phi, 0, o.at(s.stM, u)), o.ite(into_phi, 0, o.at(s.stC, u))
        m, c = rule(o, str_term(o, o.at(s.stM, s.cur), o.at(s.stC, s.cur)), m_u, c_u)
        m, c = o.ite(traverse, 0, m), o.ite(traverse, 0, c)
        into = o.ite(traverse, o.get("nxt"), u)
        return {"stM": o.put(s.stM, into, m), "stC": o.put(s.stC, into, c), "accM": m, "accC": c}

    return extend(DFS, "obs:dynamicstrdfs", FOLD_STATE, init, step)


#: obs:dynamicstrdfs with the case form eq:dynamicstrdfs, stated once: the per-input reference
#: (:func:`strahler_dynamic`), the batched one (``algorithms.batched.dfs.strahler_dynamic_batch``) and the
#: definitions of ``algorithms.strahler_facts`` are its three readings.
STRAHLER = fold_transition()


@dataclass(frozen=True)
class StrahlerState:
    """One step of the DFS dynamic with the accumulators of obs:dynamicstrdfs.

    Attributes:
        dfs: the DFS state (eq:dfsdynamic).
        acc: ``(M, c)`` that ``y_t`` carries: the accumulator of the current vertex after this step
            (``(0, 0)`` after a traverse; after the final backtrack, the fold of ``str(s)`` into φ's
            empty accumulator).
        finished: the vertex this step backtracks from (``None`` on a traverse and at ``t = 0``).
        child_str: ``str(τ_v)`` of that vertex as the fold computes it, ``M_v + 1[c_v ≥ 2]``.
        parent_before: the accumulator ``(M_u, c_u)`` it is folded into (φ's ``(0, 0)`` at the end).
        children_str: ``str`` of the finished children of the current vertex, in order (for the footnote).

    """

    dfs: DfsState
    acc: Acc
    finished: int | None = None
    child_str: int | None = None
    parent_before: Acc | None = None
    children_str: tuple[int, ...] = ()

    @property
    def t(self) -> int:
        """The step index."""
        return self.dfs.t

    @property
    def cur(self) -> int | None:
        """The DFS state's current vertex (``None``: φ)."""
        return self.dfs.cur

    @property
    def has_cur(self) -> bool:
        """``dfs^(t)(s) ≠ φ``."""
        return self.dfs.has_cur

    @property
    def par_cur(self) -> int | None:
        """The parent of the current vertex."""
        return self.dfs.par_cur

    @property
    def vst(self) -> frozenset[int]:
        """The visited set."""
        return self.dfs.vst

    @property
    def acc_m(self) -> int:
        """``M`` of the accumulator ``y_t`` carries."""
        return self.acc[0]

    @property
    def acc_c(self) -> int:
        """``c`` of the accumulator ``y_t`` carries."""
        return self.acc[1]


def strahler_states(r: Run) -> list[StrahlerState]:
    """A run of :func:`fold_transition` as :class:`StrahlerState` (the report fields read off the run)."""
    dfs = states_of(r)
    out = [StrahlerState(dfs[0], (r.states[0]["accM"], r.states[0]["accC"]))]
    done: dict[int, list[int]] = {}
    for t in range(1, len(r.states)):
        st, before, after = dfs[t], r.states[t - 1], r.states[t]
        acc = (after["accM"], after["accC"])
        if st.move == "traverse":
            out.append(StrahlerState(st, acc))
            continue
        v = before["cur"]
        s_v = str_of((before["stM"][v], before["stC"][v]))
        if st.cur is None:  # the final backtrack from the root, into φ's empty accumulator
            out.append(StrahlerState(st, acc, v, s_v, EMPTY, (s_v,)))
        else:
            done.setdefault(st.cur, []).append(s_v)
            out.append(StrahlerState(st, acc, v, s_v, (before["stM"][st.cur], before["stC"][st.cur]),
                                     tuple(done[st.cur])))
    return out


def strahler_dynamic(g: Digraph, root: int, update: Update = fold_case) -> list[StrahlerState]:
    """Run :func:`fold_transition` with ``update`` on the rooted tree; one state per step ``0..2n-1``.

    The default ``fold_case`` runs :data:`STRAHLER` (its algebra form, :func:`case_form`).
    """
    validate_tree(g, root)
    tr = STRAHLER if update is fold_case else fold_transition(python_rule(update))
    return strahler_states(run(tr, dfs_input(g, root)))


def fold_strahler(g: Digraph, root: int, update: Update = fold_case) -> int:
    """``str(G_T)`` as the fold computes it: ``π_M`` after the final backtrack (thm:cottreestrahler)."""
    return strahler_dynamic(g, root, update)[-1].acc[0]
