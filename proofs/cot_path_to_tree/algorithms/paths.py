r"""Height, width and Strahler number on ordered trees and on Dyck words, from Section 2's definitions.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Section 2.2 (``hgt``, ``wid``, ``str``,
``obs:dynamicstrdfs`` with ``eq:dynamicstrdfs``, ``lem:bijectionpathtree``, ``prop:heightpathtree``,
``prop:widthpathtree``, Algorithm 1 = ``algo:pathtotree``) and the Introduction's
Flajolet--Raoult--Vuillemin identity.

Two sides are kept apart on purpose, so that a proposition relating them is checked and not assumed:

* *tree side* (:func:`tree_height`, :func:`tree_width`, :func:`level_sizes`, :func:`strahler`): computed
  on an :class:`~symcot.inputs.trees.OrderedTree` from depths and children lists only;
* *path side* (:func:`path_height`, :func:`up_counts`, :func:`path_width`): the right-hand sides of
  prop:heightpathtree (``max_i s_i``) and prop:widthpathtree
  (``max_{0<l≤hgt} |{i : s_i = l, s_i - s_{i-1} = 1}|``), computed on the ordinate sequence of the word.

Step-by-step references for the path constructions, each the reading of a run of a transition stated once in
:mod:`proofs.cot_path_to_tree.algorithms.path_transitions` (whose numpy reading is the batched reference and whose
definitions are the facts' vocabulary):

* :func:`algorithm1_states` -- Algorithm 1 exactly as printed (lines 1--9), one state per letter read:
  ``(i, nl, A_w)`` plus the parent recorded by the last ``U`` (the ``par`` block of thm:cotpathtotree);
* :func:`partial_tree_adjacency` -- the adjacency matrix of the partial tree ``ψ(w_0..w_{t-1})`` from
  ψ's description ("a U creates a new node attached as the next ordered child of the current node and
  moves the pointer down to it, while a D returns to the parent"), independent of Algorithm 1;
* :func:`width_states` -- the quantities of thm:cotwidofpath after each prefix: ``ht = s_t``,
  ``p_i = |{τ ≤ t : s_τ = i, q_τ = +1}|`` and ``wd = max_i p_i``;
* :func:`strahler_fold` -- the ``(M, c)`` accumulator of eq:dynamicstrdfs carried along the word: a ``U``
  gives the new vertex ``(0, 0)``, a ``D`` finishes the current vertex ``v`` with
  ``str(τ_v) = M_v + 1[c_v ≥ 2]`` and folds it into its parent's accumulator (eq:dynamicstrdfs, :func:`fold`);
* :func:`point_nodes` and :func:`explored_strahler` -- the vertex of ψ(w) at each point ``(t, s_t)`` and the
  Strahler number of its subtree as explored by then, from the tree alone (obs:strpathtwoMc is checked
  against them).

Horton--Strahler helpers for the FRV identity: :func:`full_binary_strahler_values` enumerates the full
binary trees with ``n`` internal nodes (one Strahler number per tree, leaf value a parameter),
:func:`full_binary_trees` yields them as nested tuples, :func:`binary_tree_word` is the standard
preorder bijection to Dyck words, and :func:`log_height_class` is ``⌊log2(1 + h)⌋`` in exact integers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from proofs.cot_path_to_tree.algorithms.path_transitions import ALG1, FOLD, WIDTH, WordInput
from symcot.algorithms.transition import Run, run
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import UP, dyck_words, heights, validate_dyck
from symcot.inputs.trees import OrderedTree

# -- tree side ------------------------------------------------------------------------------------


def depths(tree: OrderedTree) -> list[int]:
    """Return ``dep(v)`` for every vertex: edges on the path from the root 0 (Section 2.2).

    One pass in preorder: a child's label is larger than its parent's, so ``dep(parent)`` is known when
    the child is reached (``dep(child) = dep(parent) + 1``).
    """
    dep = [0] * tree.n
    for v, kids in enumerate(tree.children):
        for c in kids:
            dep[c] = dep[v] + 1
    return dep


def tree_height(tree: OrderedTree) -> int:
    """Return ``hgt(G_T) = max_v dep(v)`` (Section 2.2)."""
    return max(depths(tree))


def level_sizes(tree: OrderedTree) -> list[int]:
    """Return ``|{v : dep(v) = k}|`` for ``k = 0 .. hgt`` (the sets ``A_k`` of prop:widthpathtree's proof)."""
    dep = depths(tree)
    out = [0] * (max(dep) + 1)
    for d in dep:
        out[d] += 1
    return out


def tree_width(tree: OrderedTree) -> int:
    """Return ``wid(G_T) = max_{k ≥ 0} |{v : dep(v) = k}|`` (Section 2.2)."""
    return max(level_sizes(tree))


def strahler_of_children(values: list[int]) -> int:
    """The n-ary rule of Section 2.2: ``M + 1`` if ``c = |{i : str(τ_i) = M}| ≥ 2``, else ``M``; a leaf is 0."""
    if not values:
        return 0
    top = max(values)
    return top + 1 if values.count(top) >= 2 else top


def strahler(tree: OrderedTree, leaf: int = 0) -> int:
    """Return ``str(G_T)`` by the recursive definition of Section 2.2 (leaf value ``leaf``, 0 in the paper).

    Children have larger preorder labels than their parent, so one pass from the last vertex to the
    root sees every child before its parent.
    """
    val = [0] * tree.n
    for v in range(tree.n - 1, -1, -1):
        kids = [val[c] for c in tree.children[v]]
        val[v] = leaf if not kids else strahler_of_children(kids)
    return val[0]


# -- path side ------------------------------------------------------------------------------------


def path_height(word: str) -> int:
    """Return ``max_i s_i``, the right-hand side of prop:heightpathtree (any ``U``/``D`` word)."""
    return max(heights(word))


def up_counts(word: str) -> dict[int, int]:
    """Return ``|B_l| = |{i : s_i = l, s_i - s_{i-1} = 1}|`` for every level ``l ≥ 1`` that has one."""
    s = heights(word)
    out: Counter[int] = Counter()
    for i in range(1, len(s)):
        if s[i] - s[i - 1] == 1:
            out[s[i]] += 1
    return dict(out)


def path_width(word: str) -> int:
    """Return ``max_{0<l≤hgt} |B_l|``, the right-hand side of prop:widthpathtree.

    Raises:
        InvalidInputError: for the empty word: the maximum is over an empty range, which is why the
            proposition assumes ``n ≥ 2``.

    """
    validate_dyck(word)
    if not word:
        raise InvalidInputError("prop:widthpathtree needs n ≥ 2 vertices: the empty word has no level l > 0")
    b = up_counts(word)
    return max(b.get(level, 0) for level in range(1, path_height(word) + 1))


# -- Algorithm 1 and partial trees -------------------------------------------------------------------


@dataclass(frozen=True)
class Alg1State:
    """Algorithm 1's variables after reading ``t`` letters.

    Attributes:
        t: letters read.
        i: the current node (line 2's ``i``).
        nl: the label of the most recently created node.
        a: ``A_w`` as a tuple of rows (``m x m``, ``m = |w|/2 + 1``).
        par: the node that was current before the last letter, when that letter was ``U`` (the parent
            recorded at creation, thm:cotpathtotree's ``par`` block); ``None`` after a ``D`` and at ``t = 0``.
        letter: the letter just read (``""`` at ``t = 0``).
        length: ``|w|``, the number of letters of the word.

    """

    t: int
    i: int
    nl: int
    a: tuple[tuple[int, ...], ...]
    par: int | None
    letter: str
    length: int = 0

    @property
    def cursor(self) -> int | None:
        """The position of the next letter to read (``None`` once the word is read)."""
        return self.t if self.t < self.length else None


def algorithm1_states(word: str) -> list[Alg1State]:
    """Run Algorithm 1 (algo:pathtotree, :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.ALG1`) as printed.

    Its state after each letter (``t = 0..|w|``). Line 8 ("Search ``j < i`` s.t. ``A_w[j, i] = 1``") takes the lowest
    such ``j``; a ``RuntimeError`` is raised if the proof's invariant that exactly one such ``j`` exists fails.
    """
    validate_dyck(word)
    return alg1_states(run(ALG1, WordInput(word)), word)


def alg1_states(r: Run, word: str) -> list[Alg1State]:
    """The states of :func:`algorithm1_states` from a run of ALG1 on ``word``."""
    g = WordInput(word)
    m = g.m
    out = []
    for t, st in enumerate(r.states):
        flat = st["Aw"]
        rows = tuple(tuple(int(x) for x in flat[a * m:(a + 1) * m]) for a in range(m))
        if t < g.T and not g.up(t):
            found = [j for j in range(st["i"]) if rows[j][st["i"]]]
            if len(found) != 1:
                raise RuntimeError(f"Algorithm 1: {len(found)} indices j < {st['i']} with A_w[j, {st['i']}] = 1")
        par = None if st["par"] == -1 else st["par"]
        out.append(Alg1State(t, st["i"], st["nl"], rows, par, word[t - 1] if t else "", g.T))
    return out


def partial_tree_adjacency(word: str, t: int, size: int) -> list[list[int]]:
    """Adjacency (``size x size``) of the partial tree ψ(w_0..w_{t-1}), built from ψ's description alone."""
    parent: list[int] = [-1]
    cur = 0
    for c in word[:t]:
        if c == UP:
            parent.append(cur)
            cur = len(parent) - 1
        else:
            cur = parent[cur]
    a = [[0] * size for _ in range(size)]
    for v in range(1, len(parent)):
        a[v][parent[v]] = a[parent[v]][v] = 1
    return a


def tree_adjacency(tree: OrderedTree) -> list[list[int]]:
    """The symmetric 0/1 adjacency matrix of an ordered tree (vertices in preorder)."""
    a = [[0] * tree.n for _ in range(tree.n)]
    for p, v in tree.edges():
        a[p][v] = a[v][p] = 1
    return a


# -- width along the word (thm:cotwidofpath) ------------------------------------------------------------


@dataclass(frozen=True)
class WidthState:
    """thm:cotwidofpath's quantities after ``t`` letters: ``ht = s_t``, ``p = (p_1..p_H)``, ``wd = max p``."""

    t: int
    ht: int
    p: tuple[int, ...]
    wd: int


def width_states(word: str, levels: int) -> list[WidthState]:
    """``p_i = |{τ ≤ t : s_τ = i and s_τ - s_{τ-1} = +1}|`` for ``i = 1..levels``, per prefix (``t = 0..|w|``).

    The run of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.WIDTH` (thm:cotwidofpath).
    """
    validate_dyck(word)
    s = heights(word)
    for t in range(1, len(s)):
        if s[t] - s[t - 1] == 1 and not 1 <= s[t] <= levels:
            raise InvalidInputError(f"height {s[t]} outside the p block of {levels} levels")
    return width_of_run(run(WIDTH, WordInput(word, levels)))


def width_of_run(r: Run) -> list[WidthState]:
    """The states of :func:`width_states` from a run of WIDTH."""
    return [WidthState(t, st["ht"], st["p"], st["wd"]) for t, st in enumerate(r.states)]


# -- Strahler fold along the word (thm:cotpathstrahler) -------------------------------------------------


def fold(str_v: int, m_u: int, c_u: int) -> tuple[int, int]:
    """eq:dynamicstrdfs: fold a finished child of Strahler number ``str_v`` into ``(M_u, c_u)``.

    With ``D = str_v - M_u``: ``D < 0`` keeps ``(M_u, c_u)``; ``D = 0`` gives
    ``(M_u + 1[c_u ≥ 1], 1[c_u + 1 < 2])``; ``D > 0`` gives ``(str_v, 1)``.
    """
    d = str_v - m_u
    if d < 0:
        return m_u, c_u
    if d == 0:
        return m_u + (1 if c_u >= 1 else 0), (1 if c_u + 1 < 2 else 0)
    return str_v, 1


def finished(m_v: int, c_v: int) -> int:
    """``str(τ_v) = M_v + 1[c_v ≥ 2]`` (obs:dynamicstrdfs)."""
    return m_v + (1 if c_v >= 2 else 0)


@dataclass(frozen=True)
class FoldState:
    """The accumulator of the current vertex after ``t`` letters, and what the last ``D`` folded.

    Attributes:
        t: letters read.
        height: ``s_t``.
        m, c: ``(M, c)`` of the vertex at ``(t, s_t)``.
        letter: the letter just read (``""`` at ``t = 0``).
        str_v, m_u, c_u, d: on a ``D`` step, the finished child's ``str(τ_v)``, the parent's accumulator
            before the fold and ``D = str(τ_v) - M_u`` (``None`` otherwise).
        parent_point: on a ``D`` step, the last point ``k < t`` with ``s_k = s_t`` (where the parent's
            accumulator was last written; obs:strpathtwoMc's ``t'``).
        next_letter: the letter read next, ``w_t`` (``""`` once the word is read).

    """

    t: int
    height: int
    m: int
    c: int
    letter: str = ""
    str_v: int | None = None
    m_u: int | None = None
    c_u: int | None = None
    d: int | None = None
    parent_point: int | None = None
    next_letter: str = ""

    @property
    def reading(self) -> bool:
        """Whether a letter is left to read (``t < |w|``)."""
        return self.next_letter != ""

    @property
    def q_in(self) -> int | None:
        """``q_t = s_t - s_{t-1}``, the letter just read: ``+1`` for ``U``, ``-1`` for ``D`` (``None`` at ``t = 0``)."""
        return None if not self.letter else (1 if self.letter == UP else -1)

    @property
    def next_q(self) -> int | None:
        """``q`` of the next letter: ``+1`` for ``U``, ``-1`` for ``D`` (``None`` once the word is read)."""
        return None if not self.next_letter else (1 if self.next_letter == UP else -1)


def strahler_fold(word: str) -> list[FoldState]:
    """Carry eq:dynamicstrdfs along the word: one :class:`FoldState` per prefix (``t = 0..|w|``).

    The run of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.FOLD` (obs:strpathtwoMc); on a ``D`` step
    the finished child's ``str(τ_v)``, the parent's accumulator and ``t'`` are read from the state before it.
    """
    validate_dyck(word)
    return fold_states(run(FOLD, WordInput(word)), word)


def fold_states(r: Run, word: str) -> list[FoldState]:
    """The states of :func:`strahler_fold` from a run of FOLD on ``word``."""
    s = heights(word)
    states = r.states
    nxt = [*word[1:], ""]
    out = [FoldState(0, 0, 0, 0, next_letter=word[:1])]
    for t, ch in enumerate(word, 1):
        st, before = states[t], states[t - 1]
        if ch == UP:
            out.append(FoldState(t, s[t], st["accM"], st["accC"], ch, next_letter=nxt[t - 1]))
        else:
            sv = finished(before["accM"], before["accC"])
            m_u = before["hM"][s[t]]
            out.append(FoldState(t, s[t], st["accM"], st["accC"], ch, sv, m_u, before["hC"][s[t]], sv - m_u,
                                 before["lp"][s[t]], nxt[t - 1]))
    return out


def point_nodes(word: str) -> list[int]:
    """The vertex of ψ(w) (labelled in creation order, root 0) where the pointer rests at each point ``t = 0..|w|``."""
    validate_dyck(word)
    parent: list[int] = [-1]
    at = [0]
    for ch in word:
        if ch == UP:
            parent.append(at[-1])
            at.append(len(parent) - 1)
        else:
            at.append(parent[at[-1]])
    return at


def explored_strahler(word: str) -> list[int]:
    """At each point ``t``, ``str`` of the subtree of ``point_nodes(w)[t]`` in ``ψ(w_0 … w_{t-1})``.

    When the pointer rests at a vertex every child created so far is closed, so this is the recursive
    Strahler number (leaf 0) of the vertex over the children explored by then: what the pair ``(M, c)`` of
    the vertex at ``(t, s_t)`` must give through ``M + 1[c ≥ 2]`` (obs:dynamicstrdfs).
    """
    at = point_nodes(word)
    children: list[list[int]] = [[]]
    out = [0]
    for t, ch in enumerate(word, 1):
        if ch == UP:
            children.append([])
            children[at[t - 1]].append(at[t])
        out.append(_subtree_strahler(children, at[t]))
    return out


def _subtree_strahler(children: list[list[int]], v: int) -> int:
    """``str`` of the subtree of ``v`` over the given children lists (leaf 0)."""
    return strahler_of_children([_subtree_strahler(children, c) for c in children[v]])


# -- Horton--Strahler helpers for the FRV identity ------------------------------------------------------


def log_height_class(h: int) -> int:
    """``⌊log2(1 + h)⌋`` for an integer ``h ≥ 0``, exactly (bit length)."""
    if h < 0:
        raise InvalidInputError(f"a height is non-negative, got {h}")
    return (1 + h).bit_length() - 1


def binary_strahler(left: int, right: int) -> int:
    """The binary rule ``max(min(a, b) + 1, max(a, b))`` of Section 2.2."""
    return max(min(left, right) + 1, max(left, right))


@cache
def full_binary_strahler_values(n: int, leaf: int = 0) -> tuple[int, ...]:
    """One Strahler number per full binary tree with ``n`` internal nodes (``catalan(n)`` entries).

    The trees are enumerated recursively (root, left subtree with ``i`` internal nodes, right subtree with
    ``n - 1 - i``), in that fixed order; the entry of a tree is computed from its two subtrees' entries.
    """
    if n < 0:
        raise InvalidInputError(f"number of internal nodes must be >= 0, got {n}")
    if n == 0:
        return (leaf,)
    out: list[int] = []
    for i in range(n):
        left, right = full_binary_strahler_values(i, leaf), full_binary_strahler_values(n - 1 - i, leaf)
        out.extend(binary_strahler(a, b) for a in left for b in right)
    return tuple(out)


BinaryTree = tuple  # () is a leaf, (left, right) an internal node


def full_binary_trees(n: int) -> Iterator[BinaryTree]:
    """Yield the full binary trees with ``n`` internal nodes as nested tuples, in the order above."""
    if n == 0:
        yield ()
        return
    for i in range(n):
        for left in full_binary_trees(i):
            for right in full_binary_trees(n - 1 - i):
                yield (left, right)


def binary_tree_strahler(tree: BinaryTree, leaf: int = 0) -> int:
    """Strahler number of a nested-tuple full binary tree (leaf value ``leaf``)."""
    if tree == ():
        return leaf
    return binary_strahler(binary_tree_strahler(tree[0], leaf), binary_tree_strahler(tree[1], leaf))


def binary_tree_word(tree: BinaryTree) -> str:
    """The standard bijection to Dyck words: preorder, ``U`` per internal node, ``D`` per leaf but the last."""
    out: list[str] = []

    def walk(t: BinaryTree) -> None:
        if t == ():
            out.append("D")
        else:
            out.append("U")
            walk(t[0])
            walk(t[1])

    walk(tree)
    return "".join(out[:-1])


def strahler_distribution(n: int, leaf: int = 0) -> dict[int, int]:
    """``k ↦ |{full binary trees with n internal nodes and str = k}|`` (by enumeration)."""
    return dict(sorted(Counter(full_binary_strahler_values(n, leaf)).items()))


def height_class_distribution(n: int) -> dict[int, int]:
    """``k ↦ |{Dyck words of length 2n with ⌊log2(1 + h)⌋ = k}|``, ``h`` the path height (by enumeration)."""
    return dict(sorted(Counter(log_height_class(path_height(w)) for w in dyck_words(n)).items()))
