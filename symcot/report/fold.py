"""The default output of ``symcot verify``: one line per paper label, its sub-checks folded, and a count line.

Rows are grouped under the paper label their claim id extends (``thm:main`` holds ``thm:main``,
``thm:main:fact1``, ``thm:main:phi:domains``, …) when that label's claim is among the rows; an id of
ours whose label is not heads its own group, or joins the group of a selected id it extends. A group's
line says what became of the label's ``as-written`` row: ``holds as written``, ``refuted`` (its smallest
counterexample on the next line, which may be wider than the terminal) with ``a repaired variant holds``
when one does, ``unknown`` or ``error``.
Every other row of the group (readings, repairs, ``in:<claim>`` rows, the sub-claims) is a sub-check,
counted at the end of the line; sub-checks that are unknown or an error get a line of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from symcot.check.inherit import inherited_text
from symcot.check.verdict import OUTCOMES, Verdict, outcome_of
from symcot.report.fit import INDENT, cut, shorten, wrap
from symcot.report.table import counterexample_summary

#: The kind of a row's variant (``as-written``, ``reading``, ``repair``, ``mutant``), ``None`` if unknown.
KindOf = Callable[[Verdict], "str | None"]
#: Verdicts that hold.
HOLDS = ("proved", "verified")
#: How bad a verdict is, for the worst of several rows.
_RANK = {"proved": 0, "verified": 0, "proved assuming": 1, "refuted": 2, "unknown": 3, "error": 4}
#: Widest label column; a longer label pushes its line's text to the right.
MAX_LABEL = 30
#: Characters of the outcome kept before the sub-check count is cut, on a narrow terminal.
MIN_OUTCOME = 36


@dataclass
class Group:
    """The rows of one paper label (or id of ours), in run order."""

    label: str
    rows: list[Verdict]

    @property
    def main(self) -> list[Verdict]:
        """The rows of the label's own claim."""
        return [r for r in self.rows if r.id == self.label]


def label_of(claim_id: str, ids: Iterable[str] = (), labels: Iterable[str] = ()) -> str:
    """The group of ``claim_id``: the shortest of the selected ``ids`` it extends, a paper label first.

    Without ``ids``, the shortest paper label it extends; else ``claim_id`` itself.
    """
    parts = claim_id.split(":")
    prefixes = [":".join(parts[:k]) for k in range(1, len(parts) + 1)]
    selected = set(ids)
    for pool in ((set(labels) & selected, selected) if selected else (set(labels),)):
        for p in prefixes:
            if p in pool:
                return p
    return claim_id


def group_rows(rows: Sequence[Verdict], labels: Iterable[str] = ()) -> list[Group]:
    """The rows by group, each group where its label's own row came (else where its first row came)."""
    ids = {r.id for r in rows}
    label_list = list(labels)
    groups: dict[str, Group] = {}
    place: dict[str, int] = {}
    for k, r in enumerate(rows):
        label = label_of(r.id, ids, label_list)
        groups.setdefault(label, Group(label, [])).rows.append(r)
        if r.id == label:
            place.setdefault(label, k)
        place.setdefault(f"first:{label}", k)
    return sorted(groups.values(), key=lambda g: place.get(g.label, place[f"first:{g.label}"]))


def default_kind(row: Verdict) -> str | None:
    """A row's kind guessed from its variant name, for rows whose claim is not at hand."""
    if row.variant == "as-written":
        return "as-written"
    if "repair" in row.variant and not row.variant.startswith("in:"):
        return "repair"
    return "reading"


def counts(rows: Iterable[Verdict]) -> str:
    """``5 verified, 2 refuted, 1 expected refuted``: the non-zero counts, in the order of :data:`OUTCOMES`."""
    c = Counter(outcome_of(r) for r in rows)
    return ", ".join(f"{c[v]} {v}" for v in OUTCOMES if c[v])


def _worst(rows: Sequence[Verdict]) -> str:
    return max((r.verdict for r in rows), key=lambda v: _RANK[v])


def _smallest(rows: Sequence[Verdict]) -> Verdict:
    """The refuted row with the smallest counterexample (by input size, then run order)."""
    refuted = [r for r in rows if r.verdict == "refuted"]

    def size(r: Verdict) -> float:
        s = (r.counterexample or {}).get("size")
        return float(s) if isinstance(s, (int, float)) else float("inf")

    return min(refuted, key=size)


def _shown(rows: Sequence[Verdict]) -> Verdict | None:
    """The row to show under a line: the first error, else the smallest counterexample, else none."""
    errors = [r for r in rows if r.verdict == "error"]
    if errors:
        return errors[0]
    return _smallest(rows) if any(r.verdict == "refuted" for r in rows) else None


def _why(row: Verdict) -> str:
    if row.verdict == "error":
        return next((n for n in row.notes if n.startswith("check failed")), row.notes[-1] if row.notes else "")
    return row.notes[-1] if row.notes else ""


def outcome(group: Group, kind_of: KindOf = default_kind) -> tuple[str, list[Verdict], Verdict | None]:
    """A group's outcome in words, the rows it speaks for, and the row shown under it.

    The row shown is the refuted row with the smallest counterexample, or the row whose check failed
    (its ``check failed`` note comes whole under the line); ``None`` when nothing is shown.
    """
    main = group.main
    written = [r for r in main if r.variant == "as-written"]
    if not main:
        return f"{len(group.rows)} {'row' if len(group.rows) == 1 else 'rows'}: {counts(group.rows)}", group.rows, \
            _shown(group.rows)
    if not written:
        text = "; ".join(f"{r.variant}: {r.verdict}" for r in main)
        return text, main, _shown(main)
    worst = _worst(written)
    if worst in HOLDS:
        r = written[0]
        if r.expect is not None:
            return f"holds as written, expected refuted ({r.verdict}: {r.scope})", written, None
        return f"holds as written ({r.verdict}: {r.scope})", written, None
    if worst == "error":
        return "error", written, next(r for r in written if r.verdict == worst)
    if worst == "unknown":
        return f"unknown: {_why(next(r for r in written if r.verdict == worst))}", written, None
    if worst == "proved assuming":
        r = next(r for r in written if r.verdict == worst)
        return f"proved assuming ({r.scope})", written, None
    others = [r for r in main if r.variant != "as-written" and r.verdict in HOLDS]
    repairs = [r.variant for r in others if kind_of(r) == "repair"]
    readings = [r.variant for r in others if kind_of(r) != "repair" and not r.variant.startswith("in:")]
    text = "refuted (expected)" if all(not r.failed for r in written) else "refuted"
    if repairs:
        text += f"; {'a repaired variant holds' if len(repairs) == 1 else 'repaired variants hold'} ({_names(repairs)})"
    elif readings:
        text += f"; {'another reading holds' if len(readings) == 1 else 'other readings hold'} ({_names(readings)})"
    return text, written, _smallest(written)


def _names(variants: Sequence[str]) -> str:
    """``repaired`` or ``repaired and 2 more``."""
    return variants[0] + (f" and {len(variants) - 1} more" if len(variants) > 1 else "")


def _fit_outcome(text: str, spoken: Sequence[Verdict], room: int) -> tuple[str, str]:
    """The outcome within ``room`` characters, and what goes under the line (``""``: nothing).

    A scope is shortened first, keeping its last part (the solvers that proved it); an unknown's reason goes
    under the line, whole; anything else is cut.
    """
    if len(text) <= room:
        return text, ""
    scope = next((r.scope for r in spoken if r.scope and r.scope in text), "")
    fixed = len(text) - len(scope)
    if scope and room - fixed >= 12:
        return text.replace(scope, shorten(scope, room - fixed), 1), ""
    if text.startswith("unknown: "):
        return "unknown", text[len("unknown: "):]
    return cut(text, room), ""


def _group_lines(head: str, text: str, spoken: Sequence[Verdict], tail: str, width: int | None) -> list[str]:
    """A group's line within ``width``.

    The sub-check count goes to a line of its own when the outcome needs the room; an unknown's reason goes under.
    """
    if width is None or len(head) + len(text) + len(tail) <= width:
        return [head + text + tail]
    below = []
    if tail and width - len(head) - len(tail) < min(len(text), MIN_OUTCOME):
        below, tail = wrap(tail.strip(), width, INDENT), ""
    shown, under = _fit_outcome(text, spoken, max(width - len(head) - len(tail), 8))
    return [cut(head + shown + tail, width), *below, *(wrap(under, width, INDENT) if under else [])]


def render_folded(rows: Sequence[Verdict], width: int | None, kind_of: KindOf = default_kind,
                  labels: Iterable[str] = ()) -> str:
    """One line per group, its counterexample, and a line per failing sub-check; every line within ``width``.

    A line too long for the width keeps its verdict and shortens the scope first (:func:`_fit_outcome`); the
    counterexample, an error's message and a sub-check's reason wrap, whole.
    """
    groups = group_rows(rows, labels)
    lw = min(max([len(g.label) for g in groups] + [5]), MAX_LABEL)
    lines = [cut(f"{'claim':<{lw}}  outcome (sub-checks: the variants and sub-claims under the label)", width)]
    for g in groups:
        text, spoken, shown = outcome(g, kind_of)
        rest = [r for r in g.rows if not any(r is s for s in spoken)]
        tail = f"  (+{len(rest)} sub-check{'' if len(rest) == 1 else 's'}: {counts(rest)})" if rest else ""
        lines += _group_lines(f"{g.label:<{lw}}  ", text, spoken, tail, width)
        if shown is not None and shown.verdict == "error":
            lines += wrap(_why(shown), width, INDENT)
        elif shown is not None:
            extra = f"; {inherited_text(shown)}" if shown.inherited_from else ""
            lines += wrap(f"counterexample: {counterexample_summary(shown)}{extra}", width, INDENT)
        for r in rest:
            if r.verdict in ("unknown", "error"):
                lines += wrap(f"{r.id} [{r.variant}]: {r.verdict}: {_why(r)}", width, INDENT)
            elif r.failed and r.expect is not None:
                lines += wrap(f"{r.id} [{r.variant}]: {r.shown_verdict}: {r.scope}", width, INDENT)
    return "\n".join(lines)


def count_line(rows: Sequence[Verdict], seconds: float, extra: Sequence[str] = ()) -> str:
    """The closing line, as pytest's: ``16 proved, 81 verified, 51 refuted, 2 unknown in 130 s``."""
    parts = [counts(rows) or "no rows", *extra]
    took = f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    return f"{', '.join(parts)} in {took}"


__all__ = ["Group", "HOLDS", "KindOf", "count_line", "counts", "default_kind", "group_rows", "label_of", "outcome",
           "render_folded"]
