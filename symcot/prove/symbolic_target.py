r"""What symbolic replay runs: a claim's construction and comparison, with λ (and weights) as symbols.

Nothing here restates a construction or a claim. A :class:`SymbolicTarget` reads the construction (its
decoder, prompt, ``enc``, stop rule and λ rule, :mod:`symcot.constructions.base`) and the claim's spec (the
reference and the conclusions, :mod:`symcot.check.spec`) that the exact and batched checkers read, and
builds, for one input topology, an :class:`~symcot.replay.symbolic.Instance`:

* the decoder compiled with λ kept symbolic (``Construction.with_lambda(λ)``), every coefficient a
  :class:`~symcot.replay.symbolic.Poly`;
* the prompt with λ (and, for a weighted claim, one symbol ``w[u,v] > 0`` per arc) in its coordinates;
* the domain: every symbol positive, and the construction's λ rule read as a lower bound (``λ ≥ rule``,
  for a weighted claim ``λ ≥ rule(n, w_e)`` for every arc: the rule is non-decreasing in ``W``), or a bound
  :class:`Domain` given by the λ_min analysis;
* the comparison: ``enc(s_t)`` with ``λ`` symbolic, the stop rule, and the claim's conclusions.

A point of a departure is re-checked by the exact replay of the same construction at that λ (and those
weights), on the same spec (:func:`symcot.check.stepwise.check_input`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sympy as sp

from symcot.check.exhaustive import Family
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.constructions.base import Construction
from symcot.constructions.encoding import W
from symcot.inputs.graphs import Digraph
from symcot.inputs.weighted import symbolic_weights, weight_name
from symcot.ir.symbols import lam
from symcot.replay.symbolic import LAMBDA, Atom, Instance, Number, Poly, from_sympy, ge, gt, symbolic_decoder

#: The symbol of a weight bound (``w_e ≤ W``).
WEIGHT_BOUND = "W"


class WeightedReference(Protocol):
    """A reference that runs on a digraph whose weights are symbols: each comparison goes to ``less(a, b)``."""

    def initial(self, g: Digraph, source: int) -> Any:
        """The state at ``t = 0``."""

    def step(self, g: Digraph, state: Any, less: Callable[[Any, Any], bool]) -> Any:
        """The next state; ``less(a, b)`` decides ``a < b`` (the symbolic engine forks on it)."""

    def steps(self, g: Digraph) -> int:
        """How many steps the reference takes on ``g``."""


@dataclass(frozen=True)
class Domain:
    """Where the symbols range.

    ``kind="rule"``: the construction's λ rule as a lower bound. ``kind="bound"``: ``λ ≥ lo`` (``λ > lo``
    when ``strict``); with ``weight_bound`` every weight is ``≤ W`` and the bound is ``lo·W``, where ``W``
    is the number 1 (``weight_bound=1``) or a positive symbol (``weight_bound="W"``).
    """

    kind: str = "rule"
    lo: Number = 0
    strict: bool = True
    weight_bound: Any = None
    hi: Number | None = None

    def text(self) -> str:
        """How the domain reads in a report."""
        if self.kind == "rule":
            return "the variant's λ rule as a lower bound"
        scale = "·W" if self.weight_bound == WEIGHT_BOUND else ""
        w = "" if self.weight_bound is None else f", 0 < w_e ≤ {'W' if self.weight_bound == WEIGHT_BOUND else 1}"
        top = "" if self.hi is None else f", λ < {self.hi}{scale}"
        lo = f"{self.lo}{scale}" if self.lo != 0 else "0"
        return f"λ {'>' if self.strict else '≥'} {lo}{top}{w}"


def lam_poly() -> Poly:
    """The symbol ``λ``."""
    return Poly.var(LAMBDA)


def _poly(v: Any) -> Any:
    """A token or expected value with SymPy's ``λ`` as a :class:`Poly` (numbers and polys pass through)."""
    if isinstance(v, sp.Basic):
        return from_sympy(v)
    return v


def _sympy_rule(formula: Any, env: dict[Any, Any], weight: Any) -> Any:
    """The λ rule at these sizes with ``W := weight`` (a number or a Poly), as a number or a Poly."""
    e = sp.expand(sp.sympify(formula).subs(env))
    if not e.has(W):
        return from_sympy(e)
    out: Any = 0
    for (k,), c in sp.Poly(e, W).terms():
        term: Any = from_sympy(c)
        for _ in range(k):
            term = term * weight
        out = out + term
    return out


@dataclass
class SymbolicTarget:
    """One claim variant under symbolic replay (see the module docstring).

    Attributes:
        name: the claim id (for messages).
        make: builds the variant's construction.
        spec: the claim's comparison (the one the exact checker reads).
        family: the input topologies, by size (a family of the claim).
        weighted: with every arc weight a symbol too, the reference that forks on their comparisons.
        rule_text: the ``rule`` domain in words (default: from the construction's λ rule).

    """

    name: str
    make: Callable[[], Construction]
    spec: StepwiseSpec
    family: Family
    weighted: WeightedReference | None = None
    rule_text: str = ""

    def __post_init__(self) -> None:
        self._cons = self.make()
        self.spec.check_selection(self._cons)
        if self._cons.lam_rule is None:
            raise ValueError(f"{self.name}: symbolic replay in λ needs a construction with a λ rule")
        self._sym = self._cons.with_lambda(lam)
        self._decoders: dict[Any, Any] = {}
        self.topology_family = self.family.name + (" (weights symbolic)" if self.weighted else "")
        if not self.rule_text:
            rule = self._cons.lam_rule.describe()
            self.rule_text = (f"{rule} read as a lower bound, for every arc weight w_e > 0" if self.weighted else
                              f"{rule} read as a lower bound")

    @property
    def variant(self) -> str:
        """The construction's variant."""
        return self._cons.variant

    # -- topologies ------------------------------------------------------------------------------------
    def topologies(self, size: int) -> Iterable[Any]:
        return self.family.inputs(size)

    def count(self, size: int) -> int:
        return self.family.count(size) if size >= self.family.min_size else 0

    def describe(self, inp: Any) -> dict[str, Any]:
        return self.family.describe(inp)

    # -- one instance ----------------------------------------------------------------------------------
    def instance(self, inp: Any, dom: Domain) -> Instance:
        """``inp`` with λ (and its weights) symbolic, on the domain ``dom``."""
        cons = self._sym
        sym_inp = inp
        variables = [LAMBDA]
        weights: list[Any] = []
        if self.weighted is not None:
            g, s = inp
            gs = symbolic_weights(g, Poly.var)
            sym_inp = (gs, s)
            variables += [weight_name(u, v) for u, v in gs.arcs]
            weights = [Poly.var(weight_name(u, v)) for u, v in gs.arcs]
        env = cons.env(inp)
        key = tuple(sorted((str(k), v) for k, v in env.items()))
        if key not in self._decoders:
            self._decoders[key] = symbolic_decoder(cons.concrete(inp))
        dec = self._decoders[key]
        prompt = cons.prompt(sym_inp)
        tokens = [[_poly(v) for v in tok] for tok in prompt.tokens]
        domain = self._domain(dom, env, weights, variables)
        layout = dec.layout
        stop = cons.stop
        if self.weighted is not None:
            gs, s = sym_inp
            ref = self.weighted
            ref0 = ref.initial(gs, s)
            steps = ref.steps(gs)
            ref_step: Callable[..., Any] = lambda st, t, d: ref.step(gs, st, d.less)  # noqa: E731
        else:
            states = self.spec.reference(inp)
            ref0, steps = states[0], len(states) - 1
            ref_step = lambda st, t, d: states[t + 1]  # noqa: E731
        spec = self.spec

        def expected(st: Any, t: int) -> dict[str, list[Any]]:
            return {b: [_poly(v) for v in vals] for b, vals in spec.expected(cons, inp, st, t).items()}

        def final(outputs: Sequence[list[Any]], y0: list[Any]) -> str | None:
            return spec.final_failure(inp, outputs, y0, layout)

        return Instance(
            inp=inp, decoder=dec, tokens=tokens, labels=prompt.labels, variables=variables, domain=domain,
            steps=steps, ref_initial=ref0, ref_step=ref_step, expected=expected,
            terminal=(lambda y: stop.fires(layout, y)) if stop is not None else None,
            final=final if spec.conclusions else None,
        )

    def _domain(self, dom: Domain, env: dict[Any, Any], weights: list[Any], variables: list[str]) -> list[Atom]:
        lam_p = lam_poly()
        rule = self._cons.lam_rule
        assert rule is not None
        atoms: list[Atom] = []
        if dom.kind == "rule":
            if self.weighted is not None:
                atoms += [ge(lam_p, _sympy_rule(rule.formula, env, w)) for w in weights]
            else:
                atoms.append(ge(lam_p, _sympy_rule(rule.formula, env, 1)))
        else:
            bound: Any = 1
            if dom.weight_bound == WEIGHT_BOUND:
                variables.append(WEIGHT_BOUND)
                bound = Poly.var(WEIGHT_BOUND)
            if dom.weight_bound is not None:
                atoms += [ge(bound, w) for w in weights]
            lo = dom.lo * bound
            atoms.append(gt(lam_p, lo) if dom.strict else ge(lam_p, lo))
            if dom.hi is not None:
                atoms.append(gt(dom.hi * bound, lam_p))
        return [Atom(Poly.var(v), ">") for v in variables] + atoms

    # -- a point --------------------------------------------------------------------------------------
    def numeric(self, inp: Any, point: dict[str, Number]) -> tuple[Construction, Any]:
        """The construction at ``λ = point[λ]`` and the input with the point's weights."""
        cons = self.make().with_lambda(point[LAMBDA])
        if self.weighted is not None:
            g, s = inp
            return cons, (Digraph(g.n, g.arcs, tuple(point[weight_name(u, v)] for u, v in g.arcs)), s)
        return cons, inp

    def recheck(self, inp: Any, point: dict[str, Number]) -> dict[str, Any] | None:
        """The exact numeric replay at ``point``: the mismatch it finds (``None`` if the run agrees)."""
        cons, num = self.numeric(inp, point)
        mm = check_input(cons, self.spec, num)
        return None if mm is None else mm.as_dict()

    def point_text(self, inp: Any, point: dict[str, Number]) -> dict[str, Any]:
        """The point as a report shows it: ``λ`` and the weights by arc."""
        out: dict[str, Any] = {"lambda": point[LAMBDA]}
        if self.weighted is not None:
            g, _ = inp
            out["weights"] = {f"{u}->{v}": point[weight_name(u, v)] for u, v in g.arcs}
            if WEIGHT_BOUND in point:
                out["W"] = point[WEIGHT_BOUND]
        return out

    def paper_lambda(self, size: int) -> Any:
        """The construction's λ rule at this size (for a weighted claim, the rule itself)."""
        if self.weighted is not None:
            rule = self._cons.lam_rule
            assert rule is not None
            return rule.describe()
        first = next(iter(self.topologies(size)), None)
        return None if first is None else self._cons.lam_value(first)


__all__ = ["WEIGHT_BOUND", "Domain", "SymbolicTarget", "WeightedReference", "lam_poly"]
