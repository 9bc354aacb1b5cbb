r"""An all-n row whose obligations are not all proved: each explained, then a real counterexample looked for.

:func:`settle` takes the ``unknown`` row :class:`~symcot.prove.alln.check.AllNCheck` builds when an obligation is
not proved (or when the statement is false on a real run, with no obligation, and replay up to the concrete phase's
size does not refute the decoder) and

1. adds to each such obligation's JSON form its explanation (``"explain"``: :mod:`symcot.prove.alln.explain`):
   the equation, the facts in scope, the counter-model or the timeout;
2. searches for a real input on which the decoder departs from the reference (:mod:`symcot.prove.alln.search`),
   starting above the sizes the concrete phase covered and at the sizes the counter-models name.

A failure found makes the row ``refuted``, with the smallest counterexample the search found, as the default check
reports it (its last note says where and how it was found); none keeps it ``unknown``, with notes saying how far the
search went and why the first obligation failed, before the last note (the first obligation not proved).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

from symcot.check.verdict import Verdict
from symcot.constructions.alln import AllNStatement
from symcot.constructions.base import Construction
from symcot.prove.alln.explain import explain_failures, summary
from symcot.prove.alln.search import model_inputs, search

#: Obligations explained with a counter-model per row (each is solved again): the others get the rest.
MODELS_PER_ROW = 4
REFUTED_METHOD = "refuted by exact replay beyond the concrete phase"


def _model_sizes(explanations: Sequence[dict[str, Any] | None], size_names: Sequence[str]) -> list[int]:
    """The values the counter-models give the statement's size symbols (``n = 6``)."""
    out: set[int] = set()
    for e in explanations:
        for v in ((e or {}).get("counter_model") or {}).get("values", []):
            m = re.match(r"^(\w+) = (-?\d+)$", v)
            if m and m.group(1) in size_names and int(m.group(2)) > 0:
                out.add(int(m.group(2)))
    return sorted(out)


def settle(check: Any, claim_id: str, cons: Construction, stmt: AllNStatement | None, obligations: Sequence[Any],
           row: Verdict) -> Verdict:
    """The ``unknown`` row ``row`` explained, and ``refuted`` where a real counterexample is found.

    ``check``: the :class:`~symcot.prove.alln.check.AllNCheck` (its spec, families, sizes and Z3 limit).
    ``obligations``: the proof's (none where the row stopped before it: a statement false on a real run).
    """
    t0 = time.perf_counter()
    details = dict(row.details or {})
    dicts = list(details.get("obligations") or [])
    vocabulary = stmt.vocabulary if stmt is not None else None
    explanations = explain_failures(obligations, vocabulary, check.timeout_s, models=MODELS_PER_ROW)
    for d, e in zip(dicts, explanations, strict=False):
        if e is not None:
            d["explain"] = e
    details["obligations"] = dicts
    first = next((e for e in explanations if e is not None), None)
    why = [f"why: {summary(first)}"] if first is not None else []
    concrete = details.get("concrete") or {}
    start = int(concrete.get("sizes_complete") or check.concrete_size) + 1
    names = [str(s) for s in stmt.sizes] if stmt is not None else []
    values = [v for e in explanations for v in ((e or {}).get("counter_model") or {}).get("values", [])]
    found = search(claim_id, cons, check.spec, list(check.families), start, _model_sizes(explanations, names),
                   model_inputs(values), getattr(vocabulary, "inputs", None))
    seconds = row.seconds + time.perf_counter() - t0
    details["search"] = found.as_dict()
    if not found.found or found.row is None:
        return Verdict(row.id, row.variant, row.verdict, row.method, row.max_size, row.inputs_checked + found.inputs,
                       seconds, row.counterexample,
                       [*row.notes[:-1], f"no counterexample found: {found.text()}", *why, *row.notes[-1:]],
                       details=details, scope=row.scope)
    ce = found.row.counterexample or {}
    return Verdict(row.id, row.variant, "refuted", f"{row.method}; {REFUTED_METHOD}", found.row.max_size,
                   row.inputs_checked + found.inputs, seconds, ce,
                   [*row.notes, *why, f"the decoder departs from the reference at n = {ce.get('size')} "
                                f"({ce.get('input', {}).get('text', ce.get('input'))}): found by {found.text()}"],
                   details=details, failing_input=found.row.failing_input)
