r"""The claim-like labels of the paper under check, to tell the paper's ids from ours and show coverage.

Extracted from the LaTeX source (``\\label{...}`` of theorems, lemmas, propositions, observations,
numbered equations, the algorithm and the definition); section and figure labels are left out.
"""

from __future__ import annotations

#: label -> what the paper labels with it, and whether it is a statement that can be checked. A label that is not
#: (a definition) says in its text why it has no claim of its own; every other label must have a claim.
PAPER_LABELS: dict[str, tuple[str, bool]] = {
    "eq:dfsdynamic": ("equation: a definition (the DFS dynamic), used as the reference of thm:cotdfs", False),
    "obs:dynamicwidbfs": ("observation", True),
    "obs:dynamicstrdfs": ("observation", True),
    "eq:dynamicstrdfs": ("equation", True),
    "lem:bijectionpathtree": ("lemma", True),
    "prop:heightpathtree": ("proposition", True),
    "prop:widthpathtree": ("proposition", True),
    "algo:pathtotree": ("algorithm", True),
    "def:algorelationbycot": ("definition (CoT realization): the notion every construction check applies", False),
    "eq:depth-height": ("equation (in the proof of prop:heightpathtree)", True),
    "lem:bilinearstack": ("lemma", True),
    "thm:cotdfs": ("theorem", True),
    "thm:cotdijkstra": ("theorem", True),
    "thm:cotpathtotree": ("theorem", True),
    "eq:proprelu": ("equation", True),
    "thm:cottreestrahler": ("theorem", True),
    "eq:strahM": ("equation", True),
    "eq:strahc": ("equation", True),
    "eq:gatingTBstrahlertree": ("equation", True),
    "lem:shiftonehot": ("lemma", True),
    "lem:mMc": ("lemma", True),
    "thm:cotpathstrahler": ("theorem", True),
    "obs:strpathtwoMc": ("observation", True),
    "lem:widsupffn": ("lemma", True),
    "thm:cotwidoftree": ("theorem", True),
    "lem:addonetospecificheight": ("lemma", True),
    "eq:addonetospecificheight": ("equation (the statement of lem:addonetospecificheight)", True),
    "lem:addwidplus1": ("lemma", True),
    "eq:addwidplus1": ("equation (the statement of lem:addwidplus1)", True),
    "thm:cotwidofpath": ("theorem", True),
}


def uncovered(claim_ids: set[str] | list[str]) -> list[tuple[str, str, bool]]:
    """The paper's labels without a claim: ``(label, what it is or why it has none, checkable)``."""
    have = set(claim_ids)
    return [(label, kind, checkable) for label, (kind, checkable) in PAPER_LABELS.items() if label not in have]


def is_paper_label(claim_id: str) -> bool:
    """Whether ``claim_id`` is one of the paper's own labels (else it is an id of ours)."""
    return claim_id in PAPER_LABELS
