r"""What symbolic replay runs: each construction with λ (and Dijkstra's weights) as symbols.

A *target* turns one input topology into an :class:`~symcot.replay.symbolic.Instance` -- the decoder
with symbolic coefficients, the prompt with symbolic coordinates, the domain constraints, a reference
that decides its own comparisons -- and re-checks a rational point numerically with the exact replay
(:func:`symcot.check.stepwise.check_input`), on the construction instantiated at that point.

The comparison is the one of the exact-replay claims (proofs/thm_cotdijkstra.py,
proofs/thm_cotwidoftree.py, proofs/thm_cottreestrahler.py), built from the same library functions,
with one difference: a quantity the construction encodes as ``λ`` (the ``∞`` of an unreached distance)
is compared with the symbol ``λ``, not with the value of the λ rule.

Targets and their symbols (every symbol is positive on every domain):

* :class:`DijkstraTarget` (thm:cotdijkstra): ``λ`` and one weight ``w[u,v] > 0`` per arc; the topologies
  are every digraph with every source from which every vertex is reachable. The reference is
  :mod:`symcot.algorithms.dijkstra_symbolic`: its relaxation ``min`` and its argmin fork too.
* :class:`WidthTreeTarget` (thm:cotwidoftree): ``λ`` only. The theorem's domain is a tree with weights
  in ``{1, ∞}``, so the weights are not symbols (with a symbolic weight the depth difference ``π_dif``
  would not be in ``{0, 1}`` and lem:widsupffn would not apply).
* :class:`StrahlerTreeTarget` (thm:cottreestrahler): ``λ`` only (it enters the keys ``K_B = [λ·π_cur ‖
  π_flg4]``); every labeled tree with every root.
* :class:`StrahlerPathTarget` (thm:cotpathstrahler): ``λ`` only (the layer-2 key ``λ π_ht`` and lem:mMc's
  gate ``λq/2 - λ/2``, one constant as in the completion); every non-empty Dyck word.

Domains (:class:`Domain`): ``rule`` is the variant's own λ rule read as a lower bound (Dijkstra:
``λ ≥ 1 + (n-1)·w_e`` for every arc, i.e. ``λ ≥ 1 + (n-1)·max w``; width: ``λ ≥ n``, the same rule at
weight 1; Strahler: ``λ ≥ 2n - 1``, the proof's bound; Strahler on paths: ``λ ≥ |w| + 2``, the
completion's constant); ``bound`` is ``λ ≥ lo`` or ``λ > lo``, for
Dijkstra scaled by a weight bound ``W`` (``w_e ≤ W``; ``W`` the number 1 or a symbol).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from symcot.algorithms.dijkstra import bfs_width_dynamic, dijkstra_dynamic, state_text, tree_width
from symcot.algorithms.dijkstra_symbolic import initial_state, step, symbolic_weights, weight_name, weight_rows
from symcot.algorithms.strahler import strahler_number
from symcot.check.stepwise import StepwiseSpec, check_input
from symcot.constructions.base import Construction
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.inputs.weighted import connected_count, connected_digraphs_with_sources
from symcot.ir import lam
from symcot.replay.symbolic import LAMBDA, Atom, Instance, Number, Poly, ge, gt, symbolic_decoder

#: The symbol of a weight bound (``w_e ≤ W``).
WEIGHT_BOUND = "W"


@dataclass(frozen=True)
class Domain:
    """Where the symbols range.

    ``kind="rule"``: the variant's λ rule as a lower bound. ``kind="bound"``: ``λ ≥ lo`` (``λ > lo``
    when ``strict``); with ``weight_bound`` (Dijkstra) every weight is ``≤ W`` and the bound is
    ``lo·W``, where ``W`` is the number 1 (``weight_bound=1``) or a positive symbol
    (``weight_bound="W"``).
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


def _chain(cons: Construction) -> list[Construction]:
    out = [cons]
    while isinstance(getattr(out[-1], "base", None), Construction):
        out.append(out[-1].base)  # type: ignore[attr-defined]
    return out


def symbolic_copy(cons: Construction, patch: Callable[[Construction], None] | None = None) -> Construction:
    """A copy of ``cons`` (and of the constructions it wraps, e.g. a Mutant's base) compiled without ``subs``.

    Every copy in the chain returns no constant substitutions, so ``concrete`` keeps ``λ`` symbolic;
    ``patch`` adjusts each copy (for instance its λ rule, to put the symbol in the prompt).
    """
    copies = [copy.copy(c) for c in _chain(cons)]
    for outer, inner in zip(copies, copies[1:]):
        outer.base = inner  # type: ignore[attr-defined]
    for c in copies:
        c._cache = {}
        c.subs = lambda inp: {}  # type: ignore[method-assign]
        if patch is not None:
            patch(c)
    return copies[0]


def _positive(variables: list[str]) -> list[Atom]:
    return [Atom(Poly.var(v), ">") for v in variables]


def _lam_bound(dom: Domain, scale: Any = 1) -> list[Atom]:
    lo = dom.lo * scale
    out = [gt(lam_poly(), lo) if dom.strict else ge(lam_poly(), lo)]
    if dom.hi is not None:
        out.append(gt(dom.hi * scale, lam_poly()))
    return out


class Target:
    """Base: topologies of a size, their symbolic instances, and the numeric re-check of a point."""

    name: str = ""
    topology_family: str = ""

    def topologies(self, size: int) -> Iterable[Any]:
        raise NotImplementedError

    def count(self, size: int) -> int:
        raise NotImplementedError

    def describe(self, inp: Any) -> dict[str, Any]:
        raise NotImplementedError

    def instance(self, inp: Any, dom: Domain) -> Instance:
        raise NotImplementedError

    def _symbolic(self) -> Construction:
        """The variant compiled with ``λ`` symbolic (built once; its weights are cached per size)."""
        if getattr(self, "_sym", None) is None:
            self._sym = symbolic_copy(self.make(self._lam_arg()), self._patch)
        return self._sym

    def _decoder(self, key: Any, inp: Any) -> Any:
        """The symbolic decoder for ``inp``'s sizes, compiled once per ``key``."""
        decoders = self.__dict__.setdefault("_decoders", {})
        if key not in decoders:
            decoders[key] = symbolic_decoder(self._symbolic().concrete(inp))
        return decoders[key]

    def _lam_arg(self) -> Any:
        """What ``make`` gets as its λ rule when building the symbolic copy."""
        return lambda inp: lam_poly()

    def _patch(self, c: Construction) -> None:
        """Adjust each copy of the symbolic construction (default: put the symbol in its λ rule)."""
        if hasattr(c, "lam_of"):
            c.lam_of = lambda inp: lam_poly()  # type: ignore[attr-defined]

    def recheck(self, inp: Any, point: dict[str, Number]) -> dict[str, Any] | None:
        """The exact numeric replay at ``point``: the mismatch it finds (``None`` if the run agrees)."""
        raise NotImplementedError

    def point_text(self, inp: Any, point: dict[str, Number]) -> dict[str, Any]:
        """The point as a report shows it: ``λ`` and the weights by arc."""
        return {"lambda": point[LAMBDA]}

    def paper_lambda(self, size: int) -> Any:
        """The λ the paper (or the variant's rule) suggests at this size, for comparison."""
        return None

    #: The ``rule`` domain in words.
    rule_text: str = ""

    #: Whether weights are symbols (then λ_min is ``c(n)·W``).
    weighted: bool = False


# -- Dijkstra --------------------------------------------------------------------------------------------


class DijkstraTarget(Target):
    """thm:cotdijkstra with ``λ`` and every arc weight symbolic.

    Args:
        variant: ``as-written`` or ``repaired`` (the encoding of a non-arc, see the construction).
        make: ``make(lam_of)`` builds the construction with λ rule ``lam_of`` (default: the variant).

    """

    name = "thm:cotdijkstra"
    topology_family = "connected digraphs × every source (weights symbolic)"
    weighted = True
    rule_text = ("λ ≥ 1 + (n-1)·w_e for every arc e (the rule λ = 1 + (n-1)·max w read as a lower bound), "
                 "every w_e > 0")

    def __init__(self, variant: str = "repaired", make: Callable[[Any], Construction] | None = None):
        from symcot.constructions.cotdijkstra import DijkstraConstruction

        self.variant = variant
        self.make = make or (lambda lam_of: DijkstraConstruction(variant, lam_of=lam_of))
        self._decoders: dict[int, Any] = {}

    def topologies(self, size: int) -> Iterable[tuple[Digraph, int]]:
        return connected_digraphs_with_sources(size)

    def count(self, size: int) -> int:
        return connected_count(size, 1)

    def describe(self, inp: tuple[Digraph, int]) -> dict[str, Any]:
        g, s = inp
        return {"n": g.n, "arcs": [list(a) for a in g.arcs], "source": s,
                "text": f"Digraph(n={g.n}; {', '.join(f'{u}->{v}' for u, v in g.arcs)}), source {s}"}

    def instance(self, inp: tuple[Digraph, int], dom: Domain) -> Instance:
        from symcot.constructions.cotdijkstra import expected_blocks, is_terminal

        g, s = inp
        cons = self._symbolic()
        gs = symbolic_weights(g, Poly.var)
        dec = self._decoder(g.n, (gs, s))
        prompt = cons.prompt((gs, s))
        ws = [weight_name(u, v) for u, v in gs.arcs]
        variables = [LAMBDA, *ws]
        lam = lam_poly()
        domain: list[Atom] = []
        if dom.kind == "rule":
            domain += [ge(lam, 1 + (g.n - 1) * Poly.var(w)) for w in ws]
        else:
            bound: Any = 1
            if dom.weight_bound == WEIGHT_BOUND:
                variables.append(WEIGHT_BOUND)
                bound = Poly.var(WEIGHT_BOUND)
            if dom.weight_bound is not None:
                domain += [ge(bound, Poly.var(w)) for w in ws]
            domain += _lam_bound(dom, bound)
        domain = _positive(variables) + domain
        rows = weight_rows(gs)
        n = g.n
        layout = dec.layout
        return Instance(
            inp=inp, decoder=dec, tokens=prompt.tokens, labels=prompt.labels, variables=variables, domain=domain,
            steps=n - 1, ref_initial=initial_state(gs, s),
            ref_step=lambda st, t, d: step(gs, st, d.less, rows),
            expected=lambda st, t: expected_blocks(st, t, lam, n),
            terminal=lambda y: is_terminal(layout, y),
        )

    def numeric(self, inp: tuple[Digraph, int], point: dict[str, Number]) -> tuple[Construction, StepwiseSpec, Any]:
        """The construction at ``λ = point[λ]``, the exact-replay spec with ``∞ ↦ λ``, the weighted input."""
        from symcot.constructions.cotdijkstra import FixedLambda, expected_blocks, is_terminal

        g, s = inp
        lam_v = point[LAMBDA]
        gw = Digraph(g.n, g.arcs, tuple(point[weight_name(u, v)] for u, v in g.arcs))
        cons = self.make(FixedLambda(lam_v))
        spec = StepwiseSpec(reference=lambda i: dijkstra_dynamic(*i),
                            expected=lambda i, st, t: expected_blocks(st, t, lam_v, i[0].n),
                            terminal=is_terminal, state_text=state_text)
        return cons, spec, (gw, s)

    def recheck(self, inp: tuple[Digraph, int], point: dict[str, Number]) -> dict[str, Any] | None:
        cons, spec, num = self.numeric(inp, point)
        mm = check_input(cons, spec, num)
        return None if mm is None else mm.as_dict()

    def point_text(self, inp: tuple[Digraph, int], point: dict[str, Number]) -> dict[str, Any]:
        g, _ = inp
        out: dict[str, Any] = {"lambda": point[LAMBDA],
                               "weights": {f"{u}->{v}": point[weight_name(u, v)] for u, v in g.arcs}}
        if WEIGHT_BOUND in point:
            out["W"] = point[WEIGHT_BOUND]
        return out

    def paper_lambda(self, size: int) -> Any:
        return "1 + (n-1)·max w (the construction's rule; the proof: 'a sufficiently large constant')"


# -- tree width -----------------------------------------------------------------------------------------


class _RootedTrees:
    """Topologies of the tree targets: every labeled tree with every root (``n^{n-1}`` at size ``n``)."""

    def topologies(self, size: int) -> Iterable[tuple[Digraph, int]]:
        return rooted_labeled_trees(size)

    def count(self, size: int) -> int:
        return size ** (size - 1)


class WidthTreeTarget(_RootedTrees, Target):
    """thm:cotwidoftree with ``λ`` symbolic (BFS weights are 1: the theorem's ``A = {1, ∞}``)."""

    name = "thm:cotwidoftree"
    topology_family = "labeled trees × every root (BFS weights)"
    rule_text = "λ ≥ n (thm:cotdijkstra's rule 1 + (n-1)·max w at weight 1, read as a lower bound)"

    def __init__(self, variant: str = "repaired", make: Callable[[Any], Construction] | None = None):
        from symcot.constructions.cotwidoftree import WidthTreeConstruction

        self.variant = variant
        self.make = make or (lambda lam_of: WidthTreeConstruction(variant, lam_of=lam_of))
        self._decoders: dict[int, Any] = {}

    def describe(self, inp: tuple[Digraph, int]) -> dict[str, Any]:
        g, r = inp
        edges = sorted((u, v) for u, v in g.arcs if u < v)
        return {"n": g.n, "edges": [list(e) for e in edges], "root": r,
                "text": f"tree {{{', '.join(f'{u}-{v}' for u, v in edges)}}}, root {r}"}

    @staticmethod
    def expected(inp: tuple[Digraph, int], st: Any, t: int, lam_v: Any, steps: int) -> list[tuple[str, list[Any]]]:
        """thm:cotdijkstra's ``enc`` (``∞ ↦ λ``), ``twd``, ``mwd``; at the last step also ``mwd = wd(G_T)``."""
        from symcot.constructions.cotdijkstra import expected_blocks

        out = list(expected_blocks(st, t, lam_v, inp[0].n).items())
        out += [("twd", [st.twd]), ("mwd", [st.mwd])]
        if t == steps:
            out.append(("mwd", [tree_width(*inp)]))
        return out

    def instance(self, inp: tuple[Digraph, int], dom: Domain) -> Instance:
        from symcot.constructions.cotdijkstra import is_terminal

        g, r = inp
        cons = self._symbolic()
        dec = self._decoder(g.n, inp)
        prompt = cons.prompt(inp)
        lam = lam_poly()
        bound = [ge(lam, g.n)] if dom.kind == "rule" else _lam_bound(dom)
        states = bfs_width_dynamic(g, r, reading="repaired")
        steps = len(states) - 1
        layout = dec.layout
        return Instance(
            inp=inp, decoder=dec, tokens=prompt.tokens, labels=prompt.labels, variables=[LAMBDA],
            domain=[*_positive([LAMBDA]), *bound], steps=steps, ref_initial=states[0],
            ref_step=lambda st, t, d: states[t + 1],
            expected=lambda st, t: self.expected(inp, st, t, lam, steps),
            terminal=lambda y: is_terminal(layout, y),
        )

    def recheck(self, inp: tuple[Digraph, int], point: dict[str, Number]) -> dict[str, Any] | None:
        from symcot.constructions.cotdijkstra import FixedLambda, is_terminal

        lam_v = point[LAMBDA]
        cons = self.make(FixedLambda(lam_v))
        steps = inp[0].n - 1

        def expected(i: Any, st: Any, t: int) -> dict[str, list[Any]]:
            return dict(self.expected(i, st, t, lam_v, -1))

        def final(i: Any, states: Any, outputs: list[list[Any]], layout: Any) -> str | None:
            if len(outputs) != steps:
                return f"ran {len(outputs)} steps, not n - 1 = {steps}"
            got = layout.pi("mwd", outputs[-1])[0] if outputs else 1
            wd = tree_width(*i)
            return None if got == wd else f"π_mwd(y_{steps}) = {got}, but wd(G_T) = {wd}"

        spec = StepwiseSpec(reference=lambda i: bfs_width_dynamic(*i, reading="repaired"), expected=expected,
                            terminal=is_terminal, state_text=state_text, final=final)
        mm = check_input(cons, spec, inp)
        return None if mm is None else mm.as_dict()

    def paper_lambda(self, size: int) -> Any:
        return size  # thm:cotdijkstra's rule 1 + (n-1)·1 at BFS weights


# -- Strahler on trees ----------------------------------------------------------------------------------


class StrahlerTreeTarget(_RootedTrees, Target):
    """thm:cottreestrahler with ``λ`` symbolic in the backtrack keys ``K_B = [λ·π_cur ‖ π_flg4]``."""

    name = "thm:cottreestrahler"
    topology_family = "labeled trees × every root"
    rule_text = "λ ≥ 2n - 1 (the proof's bound)"

    def __init__(self, variant: str = "repaired", make: Callable[[Any], Construction] | None = None):
        from symcot.constructions.cottreestrahler import StrahlerTreeConstruction

        self.variant = variant
        self.make = make or (lambda lam_value: StrahlerTreeConstruction(variant, lam_value=lam_value))
        self._decoders: dict[int, Any] = {}

    def describe(self, inp: tuple[Digraph, int]) -> dict[str, Any]:
        g, s = inp
        return {"n": g.n, "arcs": [list(a) for a in g.arcs], "root": s, "text": f"{g}, root {s}"}

    def _lam_arg(self) -> Any:
        return lambda k: 0  # λ as a function of n; the symbolic copy substitutes nothing

    @staticmethod
    def expected(inp: tuple[Digraph, int], st: Any, t: int, steps: int) -> list[tuple[str, list[Any]]]:
        """The DFS blocks, ``(M, c)``, empty buffers and scratch, ``flg4 = t``; at the end ``M = str(G_T)``."""
        from symcot.constructions.cottreestrahler import expected_blocks

        out = list(expected_blocks(inp[0], st, t).items())
        if t == steps:
            out.append(("M", [strahler_number(*inp)]))
        return out

    def instance(self, inp: tuple[Digraph, int], dom: Domain) -> Instance:
        from symcot.constructions.cottreestrahler import is_terminal, reference

        g, r = inp
        cons = self._symbolic()
        dec = self._decoder(g.n, inp)
        prompt = cons.prompt(inp)
        bound = [ge(lam_poly(), 2 * g.n - 1)] if dom.kind == "rule" else _lam_bound(dom)
        states = reference(inp)
        steps = len(states) - 1
        layout = dec.layout
        return Instance(
            inp=inp, decoder=dec, tokens=prompt.tokens, labels=prompt.labels, variables=[LAMBDA],
            domain=[*_positive([LAMBDA]), *bound], steps=steps, ref_initial=states[0],
            ref_step=lambda st, t, d: states[t + 1],
            expected=lambda st, t: self.expected(inp, st, t, steps),
            terminal=lambda y: is_terminal(layout, y),
        )

    def recheck(self, inp: tuple[Digraph, int], point: dict[str, Number]) -> dict[str, Any] | None:
        from symcot.constructions.cottreestrahler import is_terminal, reference

        lam_v = point[LAMBDA]
        cons = self.make(lambda k: lam_v)
        steps = 2 * inp[0].n - 1

        def final(i: Any, states: Any, outputs: list[list[Any]], layout: Any) -> str | None:
            if len(outputs) != steps:
                return f"the run takes {len(outputs)} steps, not 2n - 1 = {steps}"
            got, want = layout.pi("M", outputs[-1])[0], strahler_number(*i)
            return None if got == want else f"π_M(y_{steps}) = {got}, but str(G_T) = {want}"

        spec = StepwiseSpec(reference=reference, expected=lambda i, st, t: dict(self.expected(i, st, t, -1)),
                            terminal=is_terminal, final=final)
        mm = check_input(cons, spec, inp)
        return None if mm is None else mm.as_dict()

    def paper_lambda(self, size: int) -> Any:
        return 2 * size - 1  # "the constant λ ≥ 2n - 1 exceeds every attainable timestamp"


# -- Strahler on paths --------------------------------------------------------------------------------


class StrahlerPathTarget(Target):
    """thm:cotpathstrahler (the completed sketch) with ``λ`` symbolic; sizes count the vertices of ``ψ(w)``."""

    name = "thm:cotpathstrahler"
    topology_family = "non-empty Dyck words of length 2(n-1), n ≥ 2 vertices of ψ(w)"
    rule_text = "λ ≥ |w| + 2 (the completion's constant; the proof asks λ > |w| + 1)"

    def __init__(self, variant: str = "repaired", make: Callable[[Any], Construction] | None = None):
        self.variant = variant
        self.make = make or self._default_make
        self._decoders: dict[int, Any] = {}

    def _default_make(self, lam_value: Any) -> Construction:
        from symcot.constructions.cotpathstrahler import StrahlerPathConstruction

        c = StrahlerPathConstruction(self.variant)
        if lam_value is not None:
            c.subs = lambda inp: {lam: lam_value}  # type: ignore[method-assign]
        return c

    def _lam_arg(self) -> Any:
        return None

    def topologies(self, size: int) -> Iterable[str]:
        from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

        return NONEMPTY_DYCK_WORDS.inputs(size)

    def count(self, size: int) -> int:
        from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

        return NONEMPTY_DYCK_WORDS.count(size) if size >= 2 else 0

    def describe(self, inp: str) -> dict[str, Any]:
        return {"word": inp, "n": len(inp) // 2 + 1, "text": f"Dyck word {inp}"}

    @staticmethod
    def final(word: str, layout: Any, y: list[Any]) -> str | None:
        """``π_M(y_n) + 1[π_c(y_n) ≥ 2] = str(ψ(w))``."""
        from symcot.algorithms.bijection import psi
        from symcot.algorithms.paths import strahler

        m_, c_ = layout.pi("M", y)[0], layout.pi("c", y)[0]
        got, want = m_ + (1 if c_ >= 2 else 0), strahler(psi(word))
        return None if got == want else f"π_M(y_n) + 1[π_c(y_n) ≥ 2] = {got} but str(ψ(w)) = {want}"

    def instance(self, inp: str, dom: Domain) -> Instance:
        from symcot.constructions.cotpathstrahler import expected_blocks, reference

        cons = self._symbolic()
        k = len(inp)
        dec = self._decoder(k, inp)
        prompt = cons.prompt(inp)
        bound = [ge(lam_poly(), k + 2)] if dom.kind == "rule" else _lam_bound(dom)
        states = reference(inp)
        layout = dec.layout
        return Instance(
            inp=inp, decoder=dec, tokens=prompt.tokens, labels=prompt.labels, variables=[LAMBDA],
            domain=[*_positive([LAMBDA]), *bound], steps=k, ref_initial=states[0],
            ref_step=lambda st, t, d: states[t + 1], expected=lambda st, t: expected_blocks(inp, st),
            terminal=None, final=lambda y: self.final(inp, layout, y),
        )

    def recheck(self, inp: str, point: dict[str, Number]) -> dict[str, Any] | None:
        from symcot.constructions.cotpathstrahler import expected_blocks, reference

        cons = self.make(point[LAMBDA])

        def final(w: str, states: Any, outputs: list[list[Any]], layout: Any) -> str | None:
            if len(outputs) != len(w):
                return f"the run took {len(outputs)} steps, not n = {len(w)}"
            return self.final(w, layout, outputs[-1])

        spec = StepwiseSpec(reference=reference, expected=lambda w, st, t: expected_blocks(w, st), terminal=None,
                            final=final)
        mm = check_input(cons, spec, inp)
        return None if mm is None else mm.as_dict()

    def paper_lambda(self, size: int) -> Any:
        return f"> {2 * (size - 1) + 1} (λ > |w| + 1)"
