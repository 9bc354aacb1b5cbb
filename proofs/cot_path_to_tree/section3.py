r"""Each construction against plain Section-3 matrices: its departures, and the matrix typings the text prints.

Claimed (implicitly, by every theorem: "A two-layer ... Transformer decoder", the decoder of Section 3,
``sec:trans``, whose ``Q, K, V, W_O, W_1, W_2`` are matrices; the Appendix "Main Results", ``app:prelim``,
licenses affine and bilinear maps by Fact 1, Fact 2 and lem:bilinearstack):

*thm:…:fact1* and *thm:…:bilinearstack* (ids ours) -- the construction's constants are absorbed by Fact 1,
and its degree-2 maps by Fact 2 and lem:bilinearstack, through a coordinate of the token that is 1 where the
map is applied. Checked by :class:`~symcot.fidelity.departures.DeparturesCheck` for the as-written construction
and its repair, at the level ``constants`` (``…:fact1``: every constant ``c`` becomes ``c·x_u``) and
``bilinear`` (``…:bilinearstack``: every degree-2 map becomes a homogeneous bilinear form as well). The
coordinate ``u`` is read off exact replays of the inputs (the first that is 1 at every position the map is
applied to, else at every ``y`` position), the rewritten decoder is replayed beside the original on every
input of the family, and ``details`` lists the departures per map with the coordinate used (or that none
exists).

*thm:…:domains* (ids ours) -- the entry sets and shapes the proofs print for particular matrices
(:class:`~symcot.fidelity.domains.MatrixStatement`; quotes below), against every entry of the compiled maps at every
size. The shift matrices ``S``, ``S′`` ("S ∈ {0,1}^{m×m}") are operators composed into those maps, not maps of
the decoder; their entries land in the compiled maps that are checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.constructions import (
    cotdfs,
    cotdfs_phi,
    cotdijkstra,
    cotpathstrahler,
    cotpathtotree,
    cottreestrahler,
    cotwidofpath,
    cotwidoftree,
)
from symcot.check.exhaustive import Family
from symcot.check.spec import StepwiseSpec
from symcot.claims import Claim, Reading
from symcot.constructions.base import Construction
from symcot.fidelity.departures import DeparturesCheck
from symcot.fidelity.domains import DomainCheck, MatrixStatement
from symcot.inputs import Digraph
from symcot.inputs.dyck_families import DYCK_WORDS, NONEMPTY_DYCK_WORDS
from symcot.ir import m

from . import (
    thm_cotdfs,
    thm_cotdfs_phi,
    thm_cotdijkstra,
    thm_cotpathstrahler,
    thm_cotpathtotree,
    thm_cottreestrahler,
    thm_cotwidofpath,
    thm_cotwidoftree,
)

WHERE = {"constants": "Section 3 (sec:trans) with Appendix 'Main Results' (app:prelim): Fact 1 (id ours)",
         "bilinear": "Section 3 (sec:trans) with Appendix 'Main Results' (app:prelim): Fact 2, lem:bilinearstack "
                     "(id ours)"}
STATEMENT = {"constants": "Its affine maps are Section-3 matrices by Fact 1: each constant realised through a "
                          "coordinate of the token that is 1 where the map applies.",
             "bilinear": "Its degree-2 maps are bilinear forms by Fact 2 and lem:bilinearstack: their constant and "
                         "linear parts realised through a coordinate of the token that is 1 where the map applies."}
SUFFIX = {"constants": "fact1", "bilinear": "bilinearstack"}

AS_WRITTEN = Reading("as-written", "the construction as transcribed (its as-written variant)")


def _section3(theorem: str, variants: dict[str, Callable[[], Construction]], spec: StepwiseSpec,
              families: list[Family], size: int, readings: dict[str, Reading], kind: str = "graph") -> list[Claim]:
    """The two claims ``…:fact1`` and ``…:bilinearstack`` of one construction, one row per variant each."""
    return [Claim(id=f"{theorem}:{SUFFIX[level]}", kind="sentence", statement=STATEMENT[level], where=WHERE[level],
                  checks=[DeparturesCheck(v, make, spec, families, level, input_kind=kind)
                          for v, make in variants.items()],
                  default_max_size=size, readings={v: readings[v] for v in variants},
                  notes=[f"The decoder of {theorem}; the coordinates are probed on, and the rewritten decoder "
                         "replayed on, every input of the family up to the row's size."])
            for level in ("constants", "bilinear")]


def _first_graph(family: Family) -> Callable[[int], Any]:
    return lambda size: next(iter(family.inputs(size)))


def _domains(theorem: str, make: Callable[[], Construction], statements: list[MatrixStatement],
             input_at: Callable[[int], Any], size: int, min_size: int = 1) -> Claim:
    quotes = "; ".join(f"\"{s.quote}\"" for s in statements)
    return Claim(id=f"{theorem}:domains", kind="sentence",
                 statement=f"The matrices typed in the proof of {theorem} have those entries and shapes: {quotes}.",
                 where=f"proof of {theorem} (id ours)",
                 checks=[DomainCheck("as-written", make, statements, input_at, min_size)],
                 default_max_size=size, readings={"as-written": AS_WRITTEN})


def _star(size: int) -> tuple[Digraph, int]:
    return Digraph.undirected(size, [(0, j) for j in range(1, size)]), 0


def _word(size: int) -> str:
    return "U" * (size - 1) + "D" * (size - 1)


ZERO = frozenset({0})
BINARY = frozenset({0, 1})

CLAIMS = [
    *_section3("thm:cotdfs", {"as-written": cotdfs.DfsConstruction}, thm_cotdfs.SPEC, [thm_cotdfs.DIGRAPHS], 3,
              {"as-written": AS_WRITTEN}),
    *_section3("thm:cotdfs:phi", {"as-written": cotdfs_phi.DfsPhiConstruction}, thm_cotdfs_phi.SPEC,
              [thm_cotdfs_phi.TREES], 4, {"as-written": AS_WRITTEN}),
    *_section3("thm:cotdijkstra", {v: (lambda v=v: cotdijkstra.DijkstraConstruction(v))
                                  for v in ("as-written", "repaired")},
              thm_cotdijkstra.SPEC, [thm_cotdijkstra.UNIT], 3, cotdijkstra.READINGS),
    *_section3("thm:cotpathtotree", {"as-written": cotpathtotree.PathToTreeConstruction}, thm_cotpathtotree.SPEC,
              [DYCK_WORDS], 5, {"as-written": AS_WRITTEN}, kind="dyck"),
    *_section3("thm:cottreestrahler", {v: (lambda v=v: cottreestrahler.StrahlerTreeConstruction(v))
                                      for v in ("as-written", "repaired")},
              thm_cottreestrahler.SPEC, [thm_cottreestrahler.TREES], 4, cottreestrahler.READINGS),
    *_section3("thm:cotpathstrahler", {v: (lambda v=v: cotpathstrahler.StrahlerPathConstruction(v))
                                      for v in ("as-written", "repaired")},
              thm_cotpathstrahler.SPEC, [NONEMPTY_DYCK_WORDS], 5, cotpathstrahler.READINGS, kind="dyck"),
    *_section3("thm:cotwidoftree", {v: (lambda v=v: cotwidoftree.WidthTreeConstruction(v))
                                   for v in ("as-written", "repaired")},
              thm_cotwidoftree.SPEC, [thm_cotwidoftree.TREES], 4, cotwidoftree.READINGS),
    *_section3("thm:cotwidofpath", {v: (lambda v=v: cotwidofpath.WidthPathConstruction(v))
                                   for v in ("as-written", "repaired")},
              thm_cotwidofpath.SPEC, [NONEMPTY_DYCK_WORDS], 5, cotwidofpath.READINGS, kind="dyck"),
    _domains("thm:cotdfs", cotdfs.DfsConstruction, [
        MatrixStatement(1, "W_O", ZERO, "the attention in this layer is trivial, with W_O^{(1)} = 0^{d×d}"),
        MatrixStatement(2, "W_O", frozenset({-1, 0, 1}), "The linear map W_O^{(2)} ∈ {-1, 0, 1}^{d×2d}",
                        ("d", "2*d")),
    ], _star, 6),
    _domains("thm:cotdijkstra", lambda: cotdijkstra.DijkstraConstruction("as-written"), [
        MatrixStatement(1, "V_R", BINARY, "Taking V^{(1)} as identity", ("d", "d"), identity=True),
    ], _star, 6),
    _domains("thm:cotpathtotree", cotpathtotree.PathToTreeConstruction, [
        MatrixStatement(1, "W_O", BINARY, "The projection W_O ∈ {0,1}^{d×2d} sums the two contributions",
                        ("d", "2*d")),
        MatrixStatement(1, "W_2", BINARY, "the map W_2 ∈ {0,1}^{d×d'} produces y_{t+1} = W_2 h'",
                        ("d", str(2 * m**2 + 6 * m - 2))),
    ], _word, 6, min_size=2),
    _domains("thm:cottreestrahler", lambda: cottreestrahler.StrahlerTreeConstruction("as-written"), [
        MatrixStatement(3, "W_O", ZERO, "The third and fourth layers leave the attention trivial, W_O^{(3)} = 0"),
        MatrixStatement(4, "W_O", ZERO, "The third and fourth layers leave the attention trivial, W_O^{(4)} = 0"),
    ], _star, 6),
    _domains("thm:cotpathstrahler", lambda: cotpathstrahler.StrahlerPathConstruction("as-written"), [
        MatrixStatement(1, "W_O", BINARY, "Consider W_O^{(1)} being the identity", ("d", "d"), identity=True),
    ], _word, 6, min_size=2),
    _domains("thm:cotwidoftree", lambda: cotwidoftree.WidthTreeConstruction("as-written"), [
        MatrixStatement(3, "W_O", ZERO, "The third layer contains a trivial attention layer that takes W_O^{(3)} "
                                        "as empty"),
    ], _star, 6),
    _domains("thm:cotwidofpath", lambda: cotwidofpath.WidthPathConstruction("as-written"), [
        MatrixStatement(2, "W_O", ZERO, "For the second layer, we will utilize the FFN only. We will consider "
                                        "w_O^{(1)} as 0 (printed with the superscript (1); the second layer's)"),
    ], _word, 6, min_size=2),
]

__all__ = ["CLAIMS"]
