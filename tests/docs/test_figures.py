"""The figures README.md and docs/ state that follow from the code, not from a run, match the code.

The number of claim modules in every ``proofs:`` header line, the rows a default ``symcot verify`` has and
how many of them are ``in:<claim>`` rows, the constructions ``--reach`` scales, and input counts that are
sums of family counts. A figure that only a run gives (verdict counts, seconds) is not checked here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
WORDS = {w: k for k, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                     "ten", "eleven", "twelve"])}


def _readme() -> str:
    return re.sub(r"\s+", " ", README.read_text())


def _number(text: str) -> int:
    """``148``, ``3,707,852`` or ``eight`` as a number."""
    return WORDS[text] if text in WORDS else int(text.replace(",", ""))


def _find(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    assert m is not None, f"README.md no longer says {pattern!r}: update this test with the sentence"
    return _number(m.group(1))


def test_every_proofs_header_counts_the_modules_of_MODULES():
    import importlib

    found = [(p.relative_to(ROOT).as_posix(), package, int(k)) for p in PAGES
             for package, k in re.findall(r"\(package (proofs\.\w+), (\d+) modules? from MODULES\)", p.read_text())]
    assert found, "no `proofs:` header line in the docs"
    wrong = [f for f in found if f[2] != len(importlib.import_module(f[1]).MODULES)]
    assert wrong == [], "a header's module count is not its package's MODULES"


def test_rows_of_a_default_run(claims):
    from symcot.registry import load_claims, select_checks

    every = select_checks(list(load_claims(ROOT / "proofs").values()))
    plan = select_checks(list(claims.values()))
    text = _readme()
    assert _find(r"`symcot verify` at default sizes gives (\d+) rows", text) == len(every)
    assert _find(r"Of them, (\d+) are the first paper's", text) == len(plan)
    assert _find(r"(\d+) of the first paper's rows are the rows `in:<claim>`", text) == sum(
        1 for _, chk in plan if chk.variant.startswith("in:"))


def _reach_constructions(claims) -> dict[str, set[str]]:
    """The constructions (by the claim each realises) that ``--reach`` scales, by input kind."""
    out: dict[str, set[str]] = {}
    for c in claims.values():
        for chk in c.selected():
            if hasattr(chk, "construction") and any(f.reach for f in chk.families):
                out.setdefault(getattr(chk, "input_kind", "graph"), set()).add(chk.construction().claim)
    return out


def test_constructions_that_reach_scales(claims):
    by_kind = _reach_constructions(claims)
    text = _readme()
    assert _find(r"on the (\w+) tree-side constructions", text) == len(by_kind["graph"]), sorted(by_kind["graph"])
    assert _find(r"(\w+) path-side ones", text) == len(by_kind["dyck"]), sorted(by_kind["dyck"])


def test_ordered_trees_up_to_15_vertices():
    from symcot.inputs.dyck import catalan

    text = _readme()
    most = _find(r"every ordered tree with at most (\d+) vertices", text)
    assert _find(r"at most \d+ vertices \(([\d,]+);", text) == sum(catalan(k) for k in range(most))


def test_inputs_of_thm_cotdfs_at_max_size_5(claims):
    chk = next(c for c in claims["thm:cotdfs"].checks if hasattr(c, "construction"))
    size = 5
    exhaustive = sum(f.count(s) for f in chk.families if f.exhaustive for s in range(f.min_size, size + 1))
    sampled = sum(f.count(s) for f in chk.families if not f.exhaustive
                  for s in range(f.min_size, (f.max_size or size) + 1))
    said = _find(r"every simple digraph with every source up to n = 5: ([\d,]+) inputs with `--max-size 5`", _readme())
    assert said == exhaustive + sampled

