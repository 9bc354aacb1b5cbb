"""The one-way import rule (docs/architecture.md): no import cycle between modules, no arrow to a later layer.

Every module of ``symcot`` and ``proofs`` is read with ``ast``, and every ``import`` in it counts: at the top,
inside functions, under ``if TYPE_CHECKING``. A module may import modules of its own layer and of the layers
before it (``ONLY`` narrows that for some layers); nothing may import in a circle, within a layer either.
Dynamic imports (``importlib.import_module``, how :mod:`symcot.registry` loads the claims) are not seen.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("symcot", "proofs")

#: The layers, lowest first, and the modules in each: a package named here holds its subpackages too, except
#: the root package ``symcot``, which is only its ``__init__``. Stated once more in docs/architecture.md (tested).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("symcot", "symcot.errors", "symcot.paper")),
    ("ir", ("symcot.ir",)),
    ("model", ("symcot.model",)),
    ("inputs", ("symcot.inputs",)),
    ("algorithms", ("symcot.algorithms",)),
    ("gadgets", ("symcot.gadgets",)),
    ("constructions", ("symcot.constructions",)),
    ("replay", ("symcot.replay", "symcot.export")),
    ("check", ("symcot.check", "symcot.claims")),
    ("lemmas", ("symcot.lemmas",)),
    ("prove", ("symcot.prove",)),
    ("fidelity", ("symcot.fidelity",)),
    ("study", ("symcot.study",)),
    ("report", ("symcot.report", "symcot.latex")),
    ("interface", ("symcot.registry", "symcot.cli", "symcot.pytest_plugin")),
    ("papers", ("proofs",)),
)
#: Layers that may import fewer than all the layers before them.
ONLY: dict[str, tuple[str, ...]] = {"gadgets": ("foundation", "ir", "model"), "replay": ("foundation", "ir", "model")}


@dataclass(frozen=True)
class Arrow:
    """``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int


def allowed(layers: tuple[tuple[str, tuple[str, ...]], ...], only: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Per layer, the layers its modules may import (its own included)."""
    names = [name for name, _ in layers]
    return {name: {name, *(only[name] if name in only else names[:k])} for k, name in enumerate(names)}


def layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...]) -> str | None:
    """The layer of ``module`` (the longest entry naming it or a package above it), or ``None``."""
    best: tuple[int, str] | None = None
    for name, entries in layers:
        for e in entries:
            hit = module == e or (e != "symcot" and module.startswith(e + "."))  # symcot: its __init__ alone
            if hit and (best is None or len(e) > best[0]):
                best = (len(e), name)
    return best[1] if best else None


def find_modules(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` refers to: itself, or the nearest package above it that is a module here."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def arrows_of(module: str, source: str, modules: dict[str, Path], is_package: bool = False) -> list[Arrow]:
    """The imports of one module's ``source`` that name modules in ``modules`` (every import in the file)."""
    here = module if is_package else module.rpartition(".")[0]
    out: list[Arrow] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = here.split(".")
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for t in targets:
            r = _resolve(t, modules)
            if r is not None and r != module:
                out.append(Arrow(module, r, node.lineno))
    return sorted(set(out), key=lambda a: (a.line, a.target))


def import_graph(modules: dict[str, Path]) -> list[Arrow]:
    """Every arrow between the given modules."""
    out: list[Arrow] = []
    for name, path in modules.items():
        out += arrows_of(name, path.read_text(encoding="utf-8"), modules, path.name == "__init__.py")
    return out


def cycles(arrows: Iterable[Arrow]) -> list[list[str]]:
    """One cycle (``a, b, …, a``) per group of modules that import each other in a circle."""
    g = nx.DiGraph((a.source, a.target) for a in arrows)
    out = []
    for scc in nx.strongly_connected_components(g):
        if len(scc) > 1:
            loop = [u for u, _ in nx.find_cycle(g.subgraph(scc))]
            out.append([*loop, loop[0]])
    return sorted(out)


def upward(arrows: Iterable[Arrow], layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS,
           only: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """Arrows into a layer their source's layer may not import, one line each."""
    ok = allowed(layers, ONLY if only is None else only)
    out = []
    for a in arrows:
        src, dst = layer_of(a.source, layers), layer_of(a.target, layers)
        if src is not None and dst is not None and dst not in ok[src]:
            out.append(f"{a.source}:{a.line} imports {a.target}: {src} may import only {', '.join(sorted(ok[src]))}")
    return out


def unplaced(modules: Iterable[str], layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> list[str]:
    """Modules in no layer."""
    return sorted(m for m in modules if layer_of(m, layers) is None)


@pytest.fixture(scope="module")
def graph() -> tuple[dict[str, Path], list[Arrow]]:
    modules = find_modules(ROOT)
    return modules, import_graph(modules)


# -- the rule, on the code ---------------------------------------------------------------------------------


def test_every_module_has_a_layer(graph):
    modules, _ = graph
    missing = unplaced(modules)
    assert not missing, (f"{missing}: give each package a layer in LAYERS (tests/test_architecture.py) and in the "
                         "table of docs/architecture.md")


def test_no_import_cycles(graph):
    _, arrows = graph
    found = cycles(arrows)
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_no_arrow_runs_up_the_layers(graph):
    _, arrows = graph
    bad = upward(arrows)
    assert not bad, "arrows against the layer order:\n" + "\n".join(bad)


def test_the_architecture_document_states_the_same_layers():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- layers -->\n(.*?)<!-- /layers -->", text, re.S)
    assert m, "docs/architecture.md has no table between <!-- layers --> and <!-- /layers -->"
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in m.group(1).strip().splitlines()[2:]]
    documented = [(r[0], tuple(re.findall(r"`([\w.]+)`", r[1])), {x.strip() for x in r[2].split(",")}) for r in rows]
    ok = allowed(LAYERS, ONLY)
    assert [(name, mods) for name, mods, _ in documented] == list(LAYERS)
    assert {name: may for name, _, may in documented} == ok


# -- the checker itself, on made-up modules ------------------------------------------------------------------


def _fake(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for rel, src in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(src)
    return find_modules(tmp_path)


def test_a_cycle_through_a_lazy_import_is_reported(tmp_path):
    modules = _fake(tmp_path, {
        "symcot/__init__.py": "",
        "symcot/ir/__init__.py": "",
        "symcot/ir/a.py": "from symcot.ir.b import f\n",
        "symcot/ir/b.py": "def f():\n    from symcot.ir import a  # lazy, still an arrow\n    return a\n",
        "symcot/ir/c.py": "import symcot.ir.a\n",
    })
    assert cycles(import_graph(modules)) == [["symcot.ir.a", "symcot.ir.b", "symcot.ir.a"]]


def test_relative_and_type_checking_imports_count(tmp_path):
    modules = _fake(tmp_path, {
        "symcot/__init__.py": "",
        "symcot/model/__init__.py": "",
        "symcot/model/m.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..check import v\n",
        "symcot/check/__init__.py": "",
        "symcot/check/v.py": "from . import w\n",
        "symcot/check/w.py": "",
    })
    got = {(a.source, a.target) for a in import_graph(modules)}
    assert got == {("symcot.model.m", "symcot.check.v"), ("symcot.check.v", "symcot.check.w")}
    assert upward(import_graph(modules)) == [
        "symcot.model.m:3 imports symcot.check.v: model may import only foundation, ir, model"]


def test_an_upward_arrow_and_a_replay_import_of_constructions_are_reported():
    arrows = [Arrow("symcot.inputs.trees", "symcot.algorithms.bijection", 7),
              Arrow("symcot.replay.batched", "symcot.constructions.cotdfs", 3),
              Arrow("symcot.check.shard", "symcot.inputs.trees", 1),  # downward: fine
              Arrow("symcot.gadgets.mmc", "symcot.ir.expr", 2),  # a later package at its layer: fine
              Arrow("symcot.cli.verify", "symcot.registry", 5)]  # same layer: fine
    assert upward(arrows) == [
        "symcot.inputs.trees:7 imports symcot.algorithms.bijection: inputs may import only foundation, inputs, ir, "
        "model",
        "symcot.replay.batched:3 imports symcot.constructions.cotdfs: replay may import only foundation, ir, model, "
        "replay"]


def test_a_module_outside_every_layer_is_reported():
    assert unplaced(["symcot", "symcot.ir.expr", "symcot.server.http", "proofs.thm_cotdfs"]) == ["symcot.server.http"]
    assert layer_of("symcot.errors", LAYERS) == "foundation" and layer_of("symcot.cli.verify", LAYERS) == "interface"
