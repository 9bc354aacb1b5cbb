r"""The width counts of thm:cotwidofpath along a Dyck word as a vocabulary of their runs.

The run is that of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.WIDTH` (read as
:func:`proofs.cot_path_to_tree.algorithms.paths.width_states`: one :class:`WidthState` per point ``τ = 0 … T`` of the
lattice path, ``T = |w|``, with ``H = |w|/2 + 1`` counters); its definitions are the transition's
(:func:`~symcot.algorithms.transition.definitions`). Symbols:

* input (Algorithm 1's, :mod:`proofs.cot_path_to_tree.algorithms.alg1_facts`, with its Dyck-word domain facts
  ``DYCK``): ``m`` (nodes), ``T = 2(m - 1)`` (letters, the word's length ``n``), ``up(τ)`` (letter ``w_τ`` is ``U``),
  ``ups(τ)`` (the ``U`` among ``w_0 … w_{τ-1}``, so the height is ``s_τ = 2·ups(τ) - τ``), and ``levels``, the number
  ``H = n/2 + 1`` of counters ``p_1 … p_H`` (the block size the proof of thm:cotwidofpath states);
* run: ``nread(τ)`` (letters read, ``τ``); ``ht(τ)`` (``π_ht``); ``p(τ, h)`` (``p_{h+1}``, the up-steps among the
  first ``τ`` letters that end at height ``h + 1``, ``0 ≤ h < H``); ``wd(τ)`` (``max_i p_i``).

The definitions are the transition's step: a ``U`` into the height ``h + 1`` adds one to ``p_{h+1}``
(eq:addonetospecificheight) and raises ``wd`` to it when it is larger (eq:addwidplus1). Derived: the step reads the
letter ``w_τ``; ``ht(τ) = s_τ`` (so the ``ht`` block is the height); ``0 ≤ s_τ ≤ τ`` and ``s_τ ≤ T - τ`` (a ``U``
ends at a height ``≤ n/2``, inside the block ``p``); a ``D`` leaves a height ``≥ 1`` (never the root: the repaired
``k = 0`` pulse of lem:addonetospecificheight does not fire on it); one step of ``p`` and of ``wd`` by the height
(``p-step``: ``p(τ + 1, h) = p(τ, h) + 1[w_τ = U, s_{τ+1} = h + 1]``, the count of the up-steps ending at height
``h + 1``; ``wd-step``: ``wd(τ + 1) = max(wd(τ), p(τ + 1, s_{τ+1} - 1))`` on a ``U``, unchanged on a ``D``); and
``0 ≤ p(τ, h) ≤ wd(τ)`` (``wd`` bounds every counter: what makes lem:addwidplus1's ``Σ_i ReLU(p_i - wd)`` the one
term of the counter just raised). No hand fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.alg1_facts import DERIVED as ALG1_DERIVED
from proofs.cot_path_to_tree.algorithms.alg1_facts import DYCK, LETTER, READ, STEP, height
from proofs.cot_path_to_tree.algorithms.alg1_facts import SYMBOLS as ALG1_SYMBOLS
from proofs.cot_path_to_tree.algorithms.alg1_facts import inputs as alg1_inputs
from proofs.cot_path_to_tree.algorithms.path_transitions import WIDTH, WordInput
from proofs.cot_path_to_tree.algorithms.paths import WidthState
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var, Vocabulary
from symcot.algorithms.transition import Transition, definitions, interpretation, run

#: The input symbols of Algorithm 1's vocabulary that the width counts read.
INPUT = ("m", "T", "up", "ups")

SYMBOLS = (
    *(s for s in ALG1_SYMBOLS if s.name in INPUT),
    Sig("levels", 0, doc="H = n/2 + 1, the number of counters p_1 … p_H"),
    *(s for s in WIDTH.symbols() if s.name != "T"),
)

#: A level ``0 ≤ h < H`` of the block ``p`` (``p(τ, h)`` is ``p_{h+1}``).
LEVEL = Var("h", lambda c, *_: 0, lambda c, *_: c.levels - 1, "level")

#: ``ups-monotone`` of Algorithm 1's vocabulary: the number of ``U`` read never decreases.
UPS_MONOTONE = next(f for f in ALG1_DERIVED if f.name == "ups-monotone")


def levels(length: Any) -> Any:
    """``H = n/2 + 1`` for a word of length ``n``."""
    return length // 2 + 1


def raised(c: Any, t: Any, h: Any) -> Any:
    """Whether the step ``τ → τ + 1`` raises ``p_{h+1}``: ``w_τ = U`` ends at the height ``h + 1``."""
    return c.and_(c.up(t), h == height(c, t + 1) - 1)


DOMAIN = (
    *DYCK,
    Fact("nonempty", (), lambda c: c.m >= 2, "domain", source="thm:cotwidofpath: a non-empty Dyck word (n ≥ 1)"),
    Fact("levels", (), lambda c: c.levels == c.m, "domain",
         source="thm:cotwidofpath: p has n/2 + 1 coordinates p_1 … p_{n/2+1}"),
)

#: The transition's definitions: init, one step of each state variable, moves, ends.
DEFINITION = definitions(WIDTH, LETTER, STEP)


def _count_hints(c: Any, t: Any) -> list[Any]:
    return [t, t + 1, height(c, t) - 2, height(c, t)]


DERIVED = (
    READ,
    UPS_MONOTONE,
    Fact("height", (STEP,), lambda c, t: c.ht(t) == height(c, t), "derived", Induction("τ"),
         source="π_ht(y_τ) = s_τ: eq:addonetospecificheight's h ← h + m adds the step of each letter"),
    Fact("height-range", (STEP,), lambda c, t: c.and_(0 <= c.ups(t), c.ups(t) <= t), "derived", Induction("τ"),
         source="0 ≤ #U among the first τ letters ≤ τ, so s_τ ≤ τ"),
    Fact("height-bound", (STEP,), lambda c, t: c.and_(0 <= height(c, t), height(c, t) <= t, height(c, t) <= c.T - t),
         "derived", Direct(),
         source="0 ≤ s_τ ≤ min(τ, T - τ) ≤ n/2: the path returns to 0 at T, so a U ends inside p_1 … p_{n/2+1}"),
    Fact("down-above-root", (LETTER,), lambda c, t: c.implies(c.not_(c.up(t)), height(c, t) >= 1), "derived",
         Direct(), source="a D leaves a height s_τ ≥ 1 (s_{τ+1} ≥ 0): never the root"),
    Fact("p-step", (LETTER, LEVEL),
         lambda c, t, h: c.p(t + 1, h) == c.p(t, h) + c.ite(raised(c, t, h), 1, 0), "derived", Direct(),
         source="eq:addonetospecificheight: p_{h+1} ← p_{h+1} + 1 on a U into the height h + 1, p unchanged "
                "otherwise (p_i counts the up-steps so far that end at height i)"),
    Fact("wd-step", (LETTER,),
         lambda c, t: c.wd(t + 1) == c.ite(
             c.and_(c.up(t), c.p(t, height(c, t + 1) - 1) + 1 > c.wd(t)), c.p(t, height(c, t + 1) - 1) + 1, c.wd(t)),
         "derived", Direct(),
         source="eq:addwidplus1: wd ← wd + 1 iff the counter just raised exceeds wd"),
    Fact("counts", (STEP, LEVEL),
         lambda c, t, h: c.and_(0 <= c.p(t, h), c.p(t, h) <= c.wd(t)), "derived",
         Induction("τ", hints=_count_hints),
         source="0 ≤ p_i ≤ wd = max_i p_i: p only grows, one counter at a time, and wd follows the one raised"),
)


def run_symbols(word: str, tr: Transition = WIDTH) -> dict[str, Any]:
    """The symbols' values on the run of ``tr`` on ``word`` (:data:`WIDTH`, or a transition with its state)."""
    g = WordInput(word, levels(len(word)))
    return {"m": g.m, "up": g.up, "ups": g.ups, "levels": g.levels, **interpretation(tr, run(tr, g))}


def interpret(word: str, states: Sequence[WidthState]) -> dict[str, Any]:
    """The symbols' values on the width counts along ``word`` (``H = |w|/2 + 1`` counters).

    :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.WIDTH` is run again (``states`` is
    :func:`~proofs.cot_path_to_tree.algorithms.paths.width_states` of that run).
    """
    return run_symbols(word)


#: The reference state's fields (:class:`WidthState`), as ``enc`` reads them: ``t``, ``ht``, ``p`` (the ``H``
#: counters) and ``wd``.
VIEWS = {
    "t": lambda c, t: t,
    "ht": lambda c, t: c.ht(t),
    "p": lambda c, t: c.vec(lambda h: c.p(t, h), c.levels),
    "wd": lambda c, t: c.wd(t),
}


def inputs(word: Any) -> dict[str, Any]:
    """The input symbols of a Dyck word (or of a batch's stand-in), without a run: Algorithm 1's and ``levels``."""
    out = {k: v for k, v in alg1_inputs(word).items() if k in INPUT}
    return {**out, "levels": levels(out["T"])}


VOCABULARY = Vocabulary("thm:cotwidofpath's width counts along a Dyck word", SYMBOLS, DOMAIN + DEFINITION + DERIVED,
                        VIEWS, interpret, size="m", inputs=inputs)

__all__ = ["VOCABULARY", "levels", "raised", "run_symbols"]
