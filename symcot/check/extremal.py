"""Inputs beyond the exhaustive sizes: the claim's own families, and the path and the star where they apply.

Where the exhaustive families end, the float thresholds are searched at larger sizes ``n`` on a few inputs
of each size. For any claim they come from its own families: the pool (:func:`family_probes`) of every exhaustive
family is the first and the last :data:`PER_FAMILY` inputs in its order and :data:`PER_FAMILY` seeded random ranks
(where the family reaches a rank directly, ``inputs_range``; else its first ``3·PER_FAMILY`` inputs), and the first
inputs of each seeded family; :mod:`symcot.check.extremal_search` refines it towards the largest magnitudes and the
smallest margins. For a claim on trees or Dyck words whose exhaustive families contain both at ``n = 3``, two
trees of every size are used instead (:func:`extremal_family`): the path ``ψ(U^{n-1} D^{n-1})`` (deepest: longest
parent chains, largest distances) and the star ``ψ((UD)^{n-1})`` (widest: the most neighbours of one vertex). A
construction on ``(tree, root)`` inputs gets ``(ψ(w) as a labeled tree, 0)``; one on Dyck words gets ``w``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
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


#: Inputs of each kind (first, last, seeded random) taken from each family at each size of the search.
PER_FAMILY = 8
#: The seed of the random ranks (fixed: the same inputs on every run).
SEED = 0


def _covers(fam: Family, n: int) -> bool:
    return fam.min_size <= n and (fam.max_size is None or n <= fam.max_size)


def _ranks(fam: Family, n: int, k: int, seed: int) -> list[int]:
    """The first and last ``k`` ranks of size ``n`` and ``k`` seeded random ranks between, in order."""
    total = int(fam.count(n))
    rng = random.Random(f"{seed}:{fam.name}:{n}")
    picks = set(range(min(k, total))) | set(range(max(total - k, 0), total))
    picks |= {rng.randrange(total) for _ in range(k)} if total else set()
    return sorted(picks)


def _picks(fam: Family, n: int, k: int, seed: int) -> Iterator[Any]:
    if fam.exhaustive and fam.inputs_range is not None:
        for r in _ranks(fam, n, k, seed):
            yield from fam.inputs_range(n, r, r + 1)
    else:
        yield from itertools.islice(fam.inputs(n), 3 * k)


def family_probes(families: Sequence[Family], per_family: int = PER_FAMILY, seed: int = SEED) -> Family:
    """A few inputs of every size from each of ``families`` (module docstring), as a non-exhaustive family.

    An input met twice (two families, or a first rank that is also a last one) is taken once; each is described by
    the family it came from.
    """
    fams = list(families)
    source: dict[str, Family] = {}

    def inputs(n: int) -> list[Any]:
        out, seen = [], set()
        for fam in fams:
            if not _covers(fam, n):
                continue
            for inp in _picks(fam, n, per_family, seed):
                key = repr(inp)
                if key not in seen:
                    seen.add(key)
                    source[key] = fam
                    out.append(inp)
        return out

    def describe(inp: Any) -> dict[str, Any]:
        fam = source.get(repr(inp))
        return fam.describe(inp) if fam is not None else {"text": repr(inp)}

    names = ", ".join(f.name for f in fams)
    return Family(f"{names} (a few of each size)", inputs,
                  lambda n: len(inputs(n)), describe, exhaustive=False)
