"""What the cookbook tests share: verdict rows by variant, counterexample parts, mutants through the prover."""

from __future__ import annotations

from typing import Any

from symcot.check.verdict import Verdict
from symcot.claims import Claim
from symcot.lemmas import Lemma, Override, prove


def rows(claim: Claim, max_size: int | None = None) -> dict[str, Verdict]:
    """The claim's verdict rows by variant (every row must carry the draft as its subject)."""
    out = {r.variant: r for r in claim.run(max_size=max_size)}
    for r in out.values():
        assert r.notes[0].startswith("subject: a draft of The Transformer Cookbook"), r.notes
        assert "582e0e1" in r.notes[0] and "4 February 2025" in r.notes[0]
    assert "582e0e1" in claim.where
    return out


def verdicts(claim: Claim, max_size: int | None = None) -> dict[str, str]:
    """``{variant: verdict}``."""
    return {v: r.verdict for v, r in rows(claim, max_size).items()}


def cex(row: Verdict) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """``(sizes, input blocks, first mismatch)`` of a refuted lemma row."""
    assert row.verdict == "refuted" and row.counterexample is not None, row
    c = row.counterexample
    return c["input"]["sizes"], c["input"]["blocks"], c["mismatches"][0]


def l1(blocks: dict[str, list[Any]]) -> int:
    """``Σ |v|`` over every input coordinate (the prover's counterexamples minimise it among integers)."""
    return sum(abs(int(v)) for vals in blocks.values() for v in vals)


def mutant_refuted(lemma: Lemma, *overrides: Override, max_size: int = 3) -> Any:
    """The lemma with weights changed must be refuted; its exactly replayed counterexample."""
    r = prove(lemma.mutate(*overrides), max_size)
    assert r.status == "refuted", (r.status, r.dimension, r.notes)
    assert r.counterexample is not None
    return r.counterexample
