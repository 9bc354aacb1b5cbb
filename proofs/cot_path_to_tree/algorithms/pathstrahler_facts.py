r"""The fold of eq:dynamicstrdfs along a Dyck word (obs:strpathtwoMc) as a vocabulary of its runs.

The run is that of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.FOLD` (read as
:func:`proofs.cot_path_to_tree.algorithms.paths.strahler_fold`: one :class:`FoldState` per point ``τ = 0 … T`` of
the lattice path, ``T = |w|``); its definitions are the transition's
(:func:`~symcot.algorithms.transition.definitions`). Symbols (``-1`` stands for "none"):

* input (Algorithm 1's, :mod:`proofs.cot_path_to_tree.algorithms.alg1_facts`, with its Dyck-word domain facts
  ``DYCK``): ``m`` (nodes), ``T = 2(m - 1)`` (letters, the word's length ``n``), ``up(τ)`` (letter ``w_τ`` is
  ``U``), ``ups(τ)`` (the ``U`` among ``w_0 … w_{τ-1}``, so the height is ``s_τ = 2·ups(τ) - τ``);
* run: ``nread(τ)`` (letters read, ``τ``); ``accM(τ)``, ``accC(τ)`` -- the accumulator at the point ``τ``
  (``FoldState.m``, ``.c``); ``lp(τ, h)`` -- the last point ``k ≤ τ`` at height ``h`` (-1 if none): at a ``D`` step
  ``τ → τ + 1``, ``lp(τ, s_{τ+1})`` is obs:strpathtwoMc's ``t'``, where the parent's accumulator was last written;
  ``hM(τ, h)``, ``hC(τ, h)`` -- the accumulator written at that point.

The definitions are the fold: a ``U`` gives the new vertex ``(0, 0)``; a ``D`` folds ``str(τ_v) = M_v + 1[c_v ≥
2]`` (``v`` the vertex left, its accumulator the one at ``τ``) into the accumulator kept at the height ``s_{τ+1}`` by
the case form of eq:dynamicstrdfs (the tree fold's :func:`~proofs.cot_path_to_tree.algorithms.strahler_facts.fold_m`,
:func:`~proofs.cot_path_to_tree.algorithms.strahler_facts.fold_c`); every step writes the point and the accumulator
at its height. Derived: one step by the letter ``w_τ`` (``lp-init``, ``lp-step``, from the transition's
definitions); by induction, heights stay in ``[0, τ]``; ``lp`` is -1 or a point at that height, no later point at
that height precedes it, and every height up to the current one has a point (so a ``D`` always finds ``t'``); the
accumulator kept at a height is the one at its last point, so a ``D`` folds into the accumulator at ``t'``
(``fold-step``, obs:strpathtwoMc); the fold stays in ``0 ≤ M ≤ τ``, ``c ∈ {0, 1}`` (what the decoder's ReLUs and
lem:mMc's ``λ`` need). No hand fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.alg1_facts import DYCK, LETTER, READ, STEP, height
from proofs.cot_path_to_tree.algorithms.alg1_facts import SYMBOLS as ALG1_SYMBOLS
from proofs.cot_path_to_tree.algorithms.alg1_facts import inputs as alg1_inputs
from proofs.cot_path_to_tree.algorithms.path_transitions import FOLD, WordInput
from proofs.cot_path_to_tree.algorithms.paths import FoldState
from proofs.cot_path_to_tree.algorithms.strahler_facts import fold_c, fold_m, str_of
from symcot.algorithms.logic import Direct, Fact, Induction, Var, Vocabulary
from symcot.algorithms.transition import Transition, definitions, interpretation, run

#: The input symbols of Algorithm 1's vocabulary that the fold reads.
INPUT = ("m", "T", "up", "ups")

SYMBOLS = (
    *(s for s in ALG1_SYMBOLS if s.name in INPUT),
    *(s for s in FOLD.symbols() if s.name != "T"),
)

#: A height ``0 ≤ h ≤ T``.
HEIGHT = Var("h", lambda c, *_: 0, lambda c, *_: c.T, "height")


def upto(name: str) -> Var:
    """A point ``0 ≤ k ≤ τ`` (``τ`` the fact's first variable)."""
    return Var(name, lambda c, *_: 0, lambda c, t, *_: t, "step")


def parent_point(c: Any, t: Any) -> Any:
    """``t'`` of the step ``t → t + 1``: the last point ``k ≤ t`` at the height ``s_{t+1}`` (-1 if none)."""
    return c.lp(t, height(c, t + 1))


def str_at(c: Any, t: Any) -> Any:
    """``str(τ_v) = M + 1[c ≥ 2]`` of the accumulator at the point ``t``."""
    return str_of(c, c.accM(t), c.accC(t))


def _fold_step(c: Any, t: Any) -> Any:
    p = parent_point(c, t)
    s = str_at(c, t)
    return c.and_(
        c.accM(t + 1) == c.ite(c.up(t), 0, fold_m(c, s, c.accM(p), c.accC(p))),
        c.accC(t + 1) == c.ite(c.up(t), 0, fold_c(c, s, c.accM(p), c.accC(p))))


def _kept(c: Any, t: Any, h: Any) -> Any:
    return c.implies(c.lp(t, h) >= 0, c.and_(c.hM(t, h) == c.accM(c.lp(t, h)), c.hC(t, h) == c.accC(c.lp(t, h))))


DOMAIN = (
    *DYCK,
    Fact("nonempty", (), lambda c: c.m >= 2, "domain", source="thm:cotpathstrahler: a non-empty Dyck word (n ≥ 1)"),
)

#: The transition's definitions: init, one step of each state variable, moves, ends.
DEFINITION = definitions(FOLD, LETTER, STEP)


def _lp_hints(c: Any, t: Any) -> list[Any]:
    return [t, t + 1, height(c, t), height(c, t + 1)]


def _fold_hints(c: Any, t: Any) -> list[Any]:
    return [t, t + 1, parent_point(c, t), height(c, t + 1)]


DERIVED = (
    READ,
    Fact("lp-init", (HEIGHT,), lambda c, h: c.lp(0, h) == c.ite(h == 0, 0, -1), "derived", Direct(),
         source="lp(0, h): the path starts at the origin, s_0 = 0"),
    Fact("lp-step", (LETTER, HEIGHT),
         lambda c, t, h: c.lp(t + 1, h) == c.ite(height(c, t + 1) == h, t + 1, c.lp(t, h)), "derived", Direct(),
         source="lp(τ + 1, h): τ + 1 if s_{τ+1} = h, else lp(τ, h) (the last point at height h)"),
    Fact("height-range", (STEP,), lambda c, t: c.and_(0 <= c.ups(t), c.ups(t) <= t), "derived", Induction("τ"),
         source="0 ≤ #U among the first τ letters ≤ τ, so s_τ ≤ τ"),
    Fact("last-down", (), lambda c: c.not_(c.up(c.T - 1)), "derived", Direct(),
         source="the last letter is D (s_T = 0 ≤ s_{T-1})"),
    Fact("lp-range", (STEP, HEIGHT),
         lambda c, t, h: c.or_(c.lp(t, h) == -1,
                               c.and_(0 <= c.lp(t, h), c.lp(t, h) <= t, height(c, c.lp(t, h)) == h)),
         "derived", Induction("τ", hints=_lp_hints), source="lp(τ, h) is -1 or a point k ≤ τ with s_k = h"),
    Fact("lp-max", (STEP, HEIGHT, upto("k")),
         lambda c, t, h, k: c.implies(height(c, k) == h, k <= c.lp(t, h)),
         "derived", Induction("τ", hints=_lp_hints), source="no point k ≤ τ at height h comes after lp(τ, h)"),
    Fact("lp-below", (STEP, HEIGHT),
         lambda c, t, h: c.implies(h <= height(c, t), c.lp(t, h) >= 0),
         "derived", Induction("τ", hints=_lp_hints),
         source="every height up to s_τ has a point k ≤ τ (the path climbs one step at a time from 0)"),
    Fact("kept", (STEP, HEIGHT), _kept, "derived", Induction("τ", hints=_lp_hints),
         source="the accumulator kept at the height h is the one at the last point lp(τ, h) there"),
    Fact("fold-step", (LETTER,), _fold_step, "derived", Direct(),
         source="U: the new vertex gets (0, 0); D: str(τ_v) = M_v + 1[c_v ≥ 2] of the point τ folded into the "
                "accumulator at t' = lp(τ, s_{τ+1}) by eq:dynamicstrdfs, case form (obs:strpathtwoMc)"),
    Fact("fold-range", (STEP, upto("k")),
         lambda c, t, k: c.and_(0 <= c.accM(k), c.accM(k) <= k, 0 <= c.accC(k), c.accC(k) <= 1),
         "derived", Induction("τ", hints=_fold_hints),
         source="0 ≤ M ≤ τ and c ∈ {0, 1} at every point (the case form resets c when a maximum repeats)"),
)


def run_symbols(word: str, tr: Transition = FOLD) -> dict[str, Any]:
    """The symbols' values on the run of ``tr`` on ``word`` (:data:`FOLD`, or a transition with its state)."""
    g = WordInput(word)
    return {"m": g.m, "up": g.up, "ups": g.ups, **interpretation(tr, run(tr, g))}


def interpret(word: str, states: Sequence[FoldState]) -> dict[str, Any]:
    """The symbols' values on the fold along ``word``.

    :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.FOLD` is run again (``states`` is
    :func:`~proofs.cot_path_to_tree.algorithms.paths.strahler_fold` of that run).
    """
    return run_symbols(word)


#: The reference state's fields (:class:`FoldState`), as ``enc`` reads them: ``t``, ``height``, ``m``, ``c``,
#: ``reading`` (a letter is left), ``next_q`` (the letter read next, ``±1``; -1 is None once the word is read) and
#: ``q_in`` (the letter just read, ``±1``; -1 is None at ``t = 0``).
VIEWS = {
    "t": lambda c, t: t,
    "height": lambda c, t: height(c, t),
    "m": lambda c, t: c.accM(t),
    "c": lambda c, t: c.accC(t),
    "reading": lambda c, t: t < c.T,
    "next_q": lambda c, t: c.ite(c.and_(t < c.T, c.up(t)), 1, -1),
    "q_in": lambda c, t: c.ite(c.and_(t >= 1, c.up(t - 1)), 1, -1),
}


def inputs(word: Any) -> dict[str, Any]:
    """The input symbols :data:`INPUT` of a Dyck word (or of a batch's stand-in), without a run: Algorithm 1's."""
    return {k: v for k, v in alg1_inputs(word).items() if k in INPUT}


VOCABULARY = Vocabulary("eq:dynamicstrdfs along a Dyck word (obs:strpathtwoMc)", SYMBOLS,
                        DOMAIN + DEFINITION + DERIVED, VIEWS, interpret, size="m", inputs=inputs)

__all__ = ["VOCABULARY", "parent_point", "str_at"]
