"""What a paper package says about its paper: title, subject, and the claim-like labels of the source.

A paper package (or a user's claims directory with an ``__init__.py``) may state, as plain literals beside
``MODULES``: ``TITLE``, ``SUBJECT`` (what exactly is under check: a version, a commit, a chapter; every report
of its claims names it) and ``LABELS`` (label -> what the source labels with it, and whether it is a statement
that can be checked). :mod:`symcot.registry` reads them without importing the package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Paper:
    """A paper under check: its title, the subject reports name, and its claim-like labels."""

    title: str = ""
    subject: str = ""
    labels: Mapping[str, tuple[str, bool]] = field(default_factory=dict)

    def uncovered(self, claim_ids: Iterable[str]) -> list[tuple[str, str, bool]]:
        """The paper's labels without a claim: ``(label, what it is or why it has none, checkable)``."""
        have = set(claim_ids)
        return [(label, kind, ok) for label, (kind, ok) in self.labels.items() if label not in have]

    def is_label(self, claim_id: str) -> bool:
        """Whether ``claim_id`` is one of the paper's own labels (else it is an id of ours)."""
        return claim_id in self.labels
