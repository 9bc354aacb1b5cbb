"""Inputs beyond the exhaustive sizes: the path and the star, as trees rooted at 0 or as Dyck words.

Where the exhaustive families end, the float thresholds are searched on two trees of every size ``n``:
the path ``ψ(U^{n-1} D^{n-1})`` (deepest: longest parent chains, largest distances) and the star
``ψ((UD)^{n-1})`` (widest: the most neighbours of one vertex). A construction on ``(tree, root)``
inputs gets ``(ψ(w) as a labeled tree, 0)``; one on Dyck words gets ``w``. They are used only for a
claim whose exhaustive families contain both at ``n = 3`` (so they lie in its domain).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symcot.inputs.family import Family
from symcot.inputs.trees import OrderedTree

#: The two words of ``n`` vertices, by name.
WORDS: dict[str, Callable[[int], str]] = {
    "path": lambda n: "U" * (n - 1) + "D" * (n - 1),
    "star": lambda n: "UD" * (n - 1),
}


def _as_input(kind: str, word: str) -> Any:
    return word if kind == "dyck" else (OrderedTree.from_dyck(word).to_digraph(), 0)


def extremal_inputs(kind: str, n: int) -> list[tuple[str, Any]]:
    """``[("path", input), ("star", input)]`` of ``n`` vertices for an input kind (``graph`` or ``dyck``)."""
    return [(name, _as_input(kind, f(n))) for name, f in WORDS.items()]


def in_domain(kind: str, families: list[Family], probe: int = 3) -> bool:
    """Whether both extremal inputs of ``probe`` vertices occur in one of the exhaustive ``families``."""
    if kind not in ("graph", "dyck"):
        return False
    want = [inp for _, inp in extremal_inputs(kind, probe)]
    for fam in families:
        if not fam.exhaustive or fam.min_size > probe or (fam.max_size is not None and fam.max_size < probe):
            continue
        try:
            seen = list(fam.inputs(probe))
        except Exception:  # noqa: BLE001 - a family that cannot enumerate this size does not vouch
            continue
        if all(w in seen for w in want):
            return True
    return False


def extremal_family(kind: str) -> Family:
    """The two extremal inputs of each size as a (non-exhaustive) :class:`Family`."""

    def describe(inp: Any) -> dict[str, Any]:
        n = len(inp) // 2 + 1 if isinstance(inp, str) else inp[0].n
        name = next((nm for nm, i in extremal_inputs(kind, n) if i == inp), "tree")
        word = WORDS[name](n) if name in WORDS else None
        short = f"U^{n - 1}D^{n - 1}" if name == "path" else f"(UD)^{n - 1}"
        text = f"{name}, {n} vertices: w = {short}" if kind == "dyck" else f"{name}, {n} vertices, ψ({short}), root 0"
        return {"tree": name, "n": n, "word": word, "text": text}

    return Family("path and star ψ(U^{n-1}D^{n-1}), ψ((UD)^{n-1})", lambda n: [i for _, i in extremal_inputs(kind, n)],
                  lambda n: 2, describe, exhaustive=False)
