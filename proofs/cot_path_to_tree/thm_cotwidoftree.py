"""thm:cotwidoftree (Appendix ``app:cotwid``) and obs:dynamicwidbfs (Section 2.2).

Claimed:
    *thm:cotwidoftree* -- "A three-layer single-head Transformer decoder can find the width of a tree
    wd(G_T) during the simulation of Dkst in exactly n - 1 steps, where n denotes the number of
    vertices in G_T."
    *thm:cotwidoftree:width* (id ours) -- the theorem's conclusion on its own: "π_mwd(y_{n-1}) = wd(G_T)"
    in exactly ``n - 1`` steps, the width computation (``cur``, ``vis``, ``crd``, ``dif``, ``twd``, ``mwd``)
    right at every step; thm:cotdijkstra's ``dis`` block, whose defect the construction inherits, is not
    part of it.
    *obs:dynamicwidbfs* -- BFS as Dkst with weights {1, ∞}: consecutive newly visited vertices differ
    in distance by 0 or 1 (same depth, or one deeper); ``twd^(t)`` (a set count) and
    ``mwd^(t) = max_{t' < t} twd^(t')`` are at least 1, and from ``twd^(0) = mwd^(0) = 1``,
    ``mwd^(n-1) = wd(G_T)``.

Checked:
    *thm:cotwidoftree*: the construction (:mod:`proofs.cot_path_to_tree.constructions.cotwidoftree`) is replayed exactly
    on every labeled tree with every root (BFS weights). At every step ``y_t`` must carry
    ``enc(Dkst^(t))`` as in thm:cotdijkstra (``cur``, ``vis``, ``crd``, and ``dis`` from ``t = 1``),
    ``dif`` (the depth difference ``Dist[cur^(t)] - Dist[cur^(t-1)]``, 0 at ``y_0``), and ``twd``/``mwd`` of
    the Observation read as "running node count at the current level" and "global maximum" (its repaired
    reading, below); the halting criterion ``π_vis = 1^n`` must fire at ``t = n - 1``, and
    ``π_mwd(y_{n-1})`` must equal ``wd(G_T)`` computed from the definition of width. Size accounting:
    ``d = 5n + 4``, three layers, one head. A refutation is traced back to thm:cotdijkstra: the
    counterexample tree, with BFS weights, is replayed through thm:cotdijkstra's construction of the same
    reading (:mod:`symcot.check.inherit`); when that fails at the same step, layer and block, the row's
    ``inherited_from`` names it.

    *thm:cotwidoftree:width*: the same replay, families and conclusion, comparing every block of ``enc``
    but ``dis``; and for every n (``symcot verify --all-n``) the as-written decoder's statement
    (:data:`~proofs.cot_path_to_tree.constructions.cotwidoftree.STATEMENT_AS_WRITTEN`: every block of every
    token, ``π_dis`` the source's relaxed-back distance at the source), with ``enc`` every block but ``dis``.

    *obs:dynamicwidbfs* (reference level, no decoder): on every ordered tree (root 0, vertices in
    preorder, ``ψ`` of every Dyck word) and on seeded random labeled trees with random roots, the
    Observation's statements in order: (S1) ``Dist^(t+2)[j'] - Dist^(t+2)[j] ∈ {0, 1}``; (S2) the depth
    rule; (S3) ``twd^(t), mwd^(t) ≥ 1``; (S4) ``mwd^(n-1) = wd(G_T)``; (S5) the update rule (same
    depth: ``twd + 1``; deeper: reset to 1; ``mwd`` the running maximum -- lem:widsupffn's ``f``)
    reproduces ``(twd^(t), mwd^(t))`` at every ``t``. Variants: ``as-written`` (``j`` over all of ``V``
    in ``twd``, ``t' < t`` in ``mwd``), ``twd-repaired`` and ``mwd-repaired`` (one repair each), and
    ``repaired`` (both: ``j`` over visited vertices, ``t' ≤ t``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from proofs.cot_path_to_tree.algorithms.batched.dijkstra import BFS_WIDTH_REFERENCE
from proofs.cot_path_to_tree.algorithms.batched.trees import width_of
from proofs.cot_path_to_tree.algorithms.bijection import phi_ordered
from proofs.cot_path_to_tree.algorithms.dijkstra import (
    DkstState,
    Reading,
    bfs_dynamic,
    state_text,
    tree_depths,
    tree_width,
    width_dynamic,
    width_update_rule,
)
from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import PAPER_D, READINGS, WIDTH_BLOCKS, WidthTreeConstruction
from symcot.check.exhaustive import Family
from symcot.check.inherit import Inheritance
from symcot.check.spec import Conclusion, Run, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck, PropertyCheck, as_written, repair
from symcot.inputs import (
    Digraph,
    OrderedTree,
    catalan,
    digraph_count,
    digraphs_with_sources,
    ordered_trees,
    random_labeled_tree,
    rooted_labeled_trees,
)
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.prove.alln.check import AllNCheck
from symcot.prove.lam.parameter import ParameterScan
from symcot.prove.symbolic_check import SymbolicCheck
from symcot.prove.symbolic_target import SymbolicTarget

PAPER_SIZES = {"d": PAPER_D, "layers": 3, "heads": 1}


def describe_tree(inp: tuple[Digraph, int]) -> dict[str, Any]:
    """JSON description of a rooted tree: its edges (``u < v``) and root."""
    g, r = inp
    edges = sorted((u, v) for u, v in g.arcs if u < v)
    return {"n": g.n, "edges": [list(e) for e in edges], "root": r,
            "text": f"tree {{{', '.join(f'{u}-{v}' for u, v in edges)}}}, root {r}"}


def state_text_w(st: Any) -> str:
    """A BFS state with its ``twd``/``mwd``."""
    return f"{state_text(st)}, twd={st.twd}, mwd={st.mwd}"


def _mwd(run: Run, inp: tuple[Digraph, int]) -> Any:
    """``π_mwd(y_{n-1})`` (``y_0`` when ``n = 1``)."""
    return run.block("mwd")[0]


#: ``y_t`` against BFS with twd/mwd (the Observation's repaired reading), then the theorem's conclusion.
SPEC = StepwiseSpec(
    reference=BFS_WIDTH_REFERENCE,
    state_text=state_text_w,
    conclusions=(Conclusion("π_mwd(y_{n-1}) = wd(G_T) in exactly n - 1 steps", steps=lambda inp: inp[0].n - 1,
                            read=_mwd, answer=lambda inp: width_of(*inp)),),
)
#: thm:cotwidoftree:width: the same comparison on the width blocks (every block of ``enc`` but ``dis``).
WIDTH_SPEC = replace(SPEC, compare=frozenset(WIDTH_BLOCKS))

TREES = Family("labeled trees × every root, BFS weights", rooted_labeled_trees, lambda k: k ** (k - 1), describe_tree,
               universe=digraphs_with_sources, universe_count=lambda k: k * digraph_count(k))
#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED_ROOTED = ordered_rooted_tree_family(describe_tree, ", BFS weights")
TREE_FAMILIES = [TREES, ORDERED_ROOTED]


# -- obs:dynamicwidbfs ---------------------------------------------------------------------------------


def _ordered(size: int) -> Any:
    return ((t.to_digraph(), 0, t) for t in ordered_trees(size))


def _describe_obs(inp: tuple[Digraph, int, OrderedTree | None]) -> dict[str, Any]:
    g, r, t = inp
    out = describe_tree((g, r))
    if t is not None:
        out["dyck"] = phi_ordered(t)
        out["text"] = f"ordered tree ψ({out['dyck']}) = {out['text']}"
    return out


def _random_trees(size: int, per_size: int = 24) -> list[tuple[Digraph, int, None]]:
    rng = random.Random(20261127 + size)
    return [(random_labeled_tree(size, rng), rng.randrange(size), None) for _ in range(per_size)]


ORDERED = Family("ordered trees (ψ of every Dyck word), root 0", _ordered, lambda k: catalan(k - 1), _describe_obs)
RANDOM_TREES = Family("seeded random labeled trees, random root (24 per size)", _random_trees, lambda k: 24,
                      _describe_obs, min_size=4, exhaustive=False, max_size=10)


def observation_failure(g: Digraph, root: int, reading: Reading) -> dict[str, Any] | None:
    """The first of the Observation's statements (S1–S5, module docstring) that fails, or ``None``."""
    states: list[DkstState] = bfs_dynamic(g, root)
    defined = width_dynamic(states, reading)
    dep = tree_depths(g, root)

    def fail(t: int, what: str, expected: Any, got: Any) -> dict[str, Any]:
        return {"step": t, "kind": "statement", "what": what, "expected": expected, "got": got,
                "twd_mwd_by_definition": defined, "depths": dep}

    for t in range(len(states)):
        if t >= 2:  # j visited at step t - 1, j' at step t (the Observation's t + 1 and t + 2)
            j, jp = states[t - 1].cur, states[t].cur
            diff = states[t].dist[jp] - states[t].dist[j]  # type: ignore[operator]
            if diff not in (0, 1):
                return fail(t, "S1: Dist^(t+2)[j'] - Dist^(t+2)[j] ∈ {0, 1}", "0 or 1", diff)
            same = states[t].dist[jp] == states[t - 1].dist[j]
            want = dep[j] if same else dep[j] + 1
            if dep[jp] != want:
                return fail(t, "S2: dep(v') = dep(v) when Dist^(t+2)[j'] = Dist^(t+1)[j], dep(v) + 1 otherwise",
                            want, dep[jp])
        twd, mwd = defined[t]
        if twd < 1 or mwd < 1:
            return fail(t, "S3: twd^(t) and mwd^(t) must be at least 1", "≥ 1", [twd, mwd])
    n = g.n
    wd = tree_width(g, root)
    if defined[n - 1][1] != wd:
        return fail(n - 1, "S4: mwd^(n-1) = wd(G_T)", wd, defined[n - 1][1])
    rule = width_update_rule(states)
    for t in range(n):
        if (rule[t][1], rule[t][2]) != defined[t]:
            return fail(t, "S5: the update rule (dif = Dist[cur^(t)] - Dist[cur^(t-1)]) gives (twd^(t), mwd^(t))",
                        list(defined[t]), [rule[t][1], rule[t][2]])
    return None


def _obs_check(reading: Reading) -> PropertyCheck:
    def per_input(inp: tuple[Digraph, int, Any]) -> dict[str, Any] | None:
        return observation_failure(inp[0], inp[1], reading)

    return PropertyCheck(reading, [ORDERED, RANDOM_TREES], per_input,
                         method="exhaustive enumeration of the Observation's statements against the definition of wd")


def _inherits(variant: str) -> Inheritance:
    """thm:cotdijkstra's construction of the same reading (as-written: ∞ on the diagonal; repaired: a_ii = 0)."""
    from .thm_cotdijkstra import SPEC as DIJKSTRA_SPEC

    return Inheritance("thm:cotdijkstra", variant, lambda: DijkstraConstruction(variant), DIJKSTRA_SPEC,
                       how="the same tree with BFS weights")


def _check(variant: str, spec: StepwiseSpec = SPEC, traced: bool = True) -> ConstructionCheck:
    return ConstructionCheck(lambda: WidthTreeConstruction(variant), spec, TREE_FAMILIES, PAPER_SIZES,
                             method="exhaustive exact replay, every CoT step, final width"
                             + (" (every block but dis)" if spec.compare is not None else ""),
                             inherits=_inherits(variant) if traced else None)


def _symbolic(variant: str) -> SymbolicCheck:
    return SymbolicCheck(variant, SymbolicTarget("thm:cotwidoftree", lambda: WidthTreeConstruction(variant), SPEC,
                                                 TREES), default_size=6)


def _all_n(variant: str) -> AllNCheck:
    """The all-n row of ``variant``: as written it has no statement and is refuted by exact replay.

    The repaired decoder's statement is checked on every tree and root to n = 6 (facts to 5, the prover's reading to
    3) before the proof.
    """
    return AllNCheck(lambda: WidthTreeConstruction(variant), SPEC, TREE_FAMILIES, concrete_size=6, facts_size=5,
                     reading_size=3,
                     conclusion="that the fold's final mwd is wd(G_T) is obs:dynamicwidbfs with the Observation's "
                                "repaired definitions of twd/mwd (checked exhaustively by its rows, and against the "
                                "fold at every step of the concrete phase), not part of this proof")


def _width_all_n() -> AllNCheck:
    """thm:cotwidoftree:width's all-n row: the as-written decoder, ``enc`` every block but ``dis`` (:data:`WIDTH_SPEC`).

    Its statement (the as-written one: ``π_dis`` is ``Dist`` but at the source) is checked on every tree and root to
    n = 6 (facts to 5, the prover's reading to 3) before the proof.
    """
    return AllNCheck(lambda: WidthTreeConstruction("as-written", compared=WIDTH_BLOCKS), WIDTH_SPEC, TREE_FAMILIES,
                     concrete_size=6, facts_size=5, reading_size=3,
                     conclusion="that the fold's final mwd is wd(G_T) is obs:dynamicwidbfs with the Observation's "
                                "repaired definitions of twd/mwd (checked exhaustively by its rows, and against the "
                                "fold at every step of the concrete phase), not part of this proof")


CLAIMS = [
    Claim(
        id="obs:dynamicwidbfs",
        kind="observation",
        statement="BFS as Dkst: consecutive visits differ in depth by 0 or 1; twd/mwd (≥ 1) from twd^(0) = "
                  "mwd^(0) = 1 give mwd^(n-1) = wd(G_T).",
        where="Section 2.2 (Determining wd while performing BFS)",
        checks=[_obs_check("as-written"), _obs_check("twd-repaired"), _obs_check("mwd-repaired"),
                _obs_check("repaired")],
        default_max_size=10,
        notes=["as-written: twd^(t) counts visited v_i with no j ∈ V (Dist[j] ≠ ∞, Dist[j] > Dist[i]); "
               "mwd^(t) = max_{t'<t} twd^(t'). Repairs: j over visited vertices; t' ≤ t."],
        readings={
            "as-written": as_written("twd^(t) counts visited v_i with no j ∈ V (Dist[j] ≠ ∞, Dist[j] > Dist[i]); "
                                     "mwd^(t) = max_{t' < t} twd^(t')"),
            "twd-repaired": repair("j ranges over visited vertices only in twd (mwd as printed)"),
            "mwd-repaired": repair("mwd^(t) = max_{t' ≤ t} twd^(t') (twd as printed)"),
            "repaired": repair("both: j over visited vertices, t' ≤ t (the running count and the running maximum)"),
        },
    ),
    Claim(
        id="thm:cotwidoftree",
        kind="theorem",
        statement="A three-layer single-head decoder finds wd(G_T) while simulating Dkst (BFS) in exactly "
                  "n - 1 steps.",
        where="Section 4.2; proof in Appendix Realizing wd (app:cotwid), with lem:widsupffn",
        checks=[_check("as-written"), _check("repaired"), _symbolic("as-written"), _symbolic("repaired"),
                *[_all_n(v) for v in ("as-written", "repaired")]],
        default_max_size=6,
        notes=["Layer 3 is our completion of 'analogous to lem:widsupffn considering V_max = n' (λ := n); "
               "twd/mwd compared with obs:dynamicwidbfs's repaired reading (running count, running max)."],
        readings=READINGS,
    ),
    Claim(
        id="thm:cotwidoftree:width",
        kind="sentence",
        statement="π_mwd(y_{n-1}) = wd(G_T) in exactly n - 1 steps, the width computation (cur, vis, crd, dif, "
                  "twd, mwd) right at every step.",
        where="Appendix Realizing wd (app:cotwid), proof of thm:cotwidoftree, last sentence: \"Clearly, "
              "π_mwd(y_{n-1}) = wd(G_T)\" (id ours)",
        checks=[_check("as-written", WIDTH_SPEC, traced=False), _width_all_n()],
        default_max_size=6,
        notes=["thm:cotwidoftree's construction and comparison with thm:cotdijkstra's dis block left out: the "
               "distance defect it inherits from thm:cotdijkstra does not reach the width."],
        readings={"as-written": READINGS["as-written"]},
    ),
    Claim(
        id="thm:cotwidoftree:vmax",
        kind="sentence",
        statement="The layer-3 FFN 'can be developed analogous to lem:widsupffn considering V_max = n': V_max = n "
                  "suffices (and how much smaller it could be).",
        where="Appendix Realizing wd (app:cotwid), proof of thm:cotwidoftree, third paragraph (id ours)",
        checks=[ParameterScan("as-written", lambda v: WidthTreeConstruction("as-written", v_max=v), WIDTH_SPEC,
                              [replace(TREES, max_size=5), ORDERED_ROOTED], "V_max", lambda size: size)],
        default_max_size=6,
        notes=["Scanned with thm:cotwidoftree:width's comparison (every block but dis: the V_max of layer 3 only "
               "acts on dif, twd, mwd); labeled trees × every root to n = 5, every ordered tree (every shape) beyond."],
        readings={"as-written": as_written("V_max = n as lem:widsupffn's large constant in layer 3; the width "
                                           "blocks compared")},
    ),
]
