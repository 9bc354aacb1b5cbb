"""Exhaustive (and seeded random) checking of a construction over input families, size by size.

Families are enumerated in increasing size and, within a size, in the family's fixed order (fewest
arcs first for digraphs, Prüfer rank for labeled trees, …), and checking stops at the first failure;
so the counterexample reported is the smallest in that order. ``max_size`` is the largest size at which
every exhaustive family was checked completely.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from symcot.check.parallel import check_stream
from symcot.check.stepwise import StepwiseSpec, check_input
from symcot.check.verdict import Verdict, jsonable
from symcot.constructions.base import Construction
from symcot.errors import SymcotError, Undecided, locate
from symcot.inputs.family import Family  # re-exported: claims modules import it from here
from symcot.model.decoder import SizeReport

#: How a row's note on a ``Family.partial`` family starts (the table prints these notes).
PARTIAL_NOTE = "also every input of"


class Progress:
    """A progress bar per check (tqdm on a terminal; silent otherwise or when disabled)."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled

    def bar(self, total: int, desc: str) -> Any:
        """A context-managed bar with ``update(k)``."""
        if not self.enabled:
            return _NoBar()
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit="input", leave=False, disable=None, dynamic_ncols=True)


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *a: Any) -> None:
        return None

    def update(self, k: int = 1) -> None:
        """Nothing."""


def size_mismatches(sizes: SizeReport, paper: dict[str, Any]) -> list[dict[str, Any]]:
    """Compare the construction's size accounting with what the paper states (``d``, layers, heads)."""
    import sympy as sp

    out: list[dict[str, Any]] = []
    if "d" in paper and sp.expand(sp.sympify(paper["d"]) - sizes.d) != 0:
        out.append({"quantity": "d", "paper": str(paper["d"]), "construction": str(sizes.d)})
    if "layers" in paper and paper["layers"] != sizes.layers:
        out.append({"quantity": "layers", "paper": paper["layers"], "construction": sizes.layers})
    if "heads" in paper and paper["heads"] != sizes.max_heads:
        out.append({"quantity": "heads per layer (max)", "paper": paper["heads"], "construction": sizes.max_heads})
    return out


def check_sizes(
    claim_id: str, cons: Construction, paper_sizes: dict[str, Any] | None, start: float,
) -> tuple[list[str], dict[str, Any], Verdict | None]:
    """The construction's notes, its size accounting, and a ``refuted`` row if the sizes disagree with the paper."""
    sizes = cons.decoder.sizes()
    notes = list(cons.notes)
    size_info = sizes.as_dict()
    if paper_sizes:
        size_info["paper"] = {k: v if isinstance(v, int) else str(v) for k, v in paper_sizes.items()}
    mism = size_mismatches(sizes, paper_sizes or {})
    if not mism:
        return notes, size_info, None
    return notes, size_info, Verdict(claim_id, cons.variant, "refuted", "size accounting against the paper", None,
                                     0, time.perf_counter() - start, {"kind": "size", "differences": mism}, notes,
                                     size_info)


def run_construction_check(
    claim_id: str,
    cons: Construction,
    spec: StepwiseSpec,
    families: list[Family],
    max_size: int,
    paper_sizes: dict[str, Any] | None = None,
    progress: Progress | None = None,
    method: str = "exhaustive exact replay, every CoT step",
    jobs: int = 1,
    reach: int | None = None,
) -> Verdict:
    """Check ``cons`` on every family up to ``max_size`` and return the verdict row.

    First the size accounting against ``paper_sizes``; then every input with :func:`check_input`.
    ``jobs > 1`` checks large sizes in that many processes; the verdict and counterexample are the
    same as with one process. ``reach`` takes the families marked ``reach`` up to that size.
    """
    start = time.perf_counter()
    notes, size_info, refuted = check_sizes(claim_id, cons, paper_sizes, start)
    if refuted is not None:
        return refuted

    undecided: list[tuple[Any, Undecided]] = []
    described = not cons.decoder.description.rational

    def per_input(inp: Any) -> dict[str, Any] | None:
        try:
            mm = check_input(cons, spec, inp)
        except Undecided as e:  # certified intervals could not settle a decision: never a guess
            undecided.append((inp, e))
            return None
        return None if mm is None else mm.as_dict()

    row = run_property_check(claim_id, cons.variant, method, families, max_size, per_input, progress,
                             1 if described else jobs, reach)
    if undecided and row.verdict == "verified":
        inp, e = undecided[0]
        row.verdict = "unknown"
        row.details = {**(row.details or {}), "undecided": {"input": str(inp), **e.as_dict()},
                       "undecided_inputs": len(undecided)}
        row.notes.append(f"{len(undecided)} input(s) undecided by the intervals; first: {inp}: {e}")
        row.scope = f"undecided at {inp}"
    row.notes = notes + row.notes
    row.sizes = size_info
    row.seconds = time.perf_counter() - start
    return row


def run_property_check(
    claim_id: str,
    variant: str,
    method: str,
    families: list[Family],
    max_size: int,
    per_input: Callable[[Any], dict[str, Any] | None],
    progress: Progress | None = None,
    jobs: int = 1,
    reach: int | None = None,
) -> Verdict:
    """Apply ``per_input`` to every input of every family, size by size; the first failure refutes.

    ``per_input`` returns ``None`` when the input satisfies the claim, else a JSON-friendly description
    of the failure (it becomes the counterexample, with the family, size and input added). Use this for
    claims checked without a decoder (an observation against a recursive definition, a bijection, …).

    ``reach`` (``symcot verify --reach``) takes the families marked ``Family.reach`` up to that size (and
    never below ``max_size``); the others stop at ``max_size``. A ``Family.partial`` family is enumerated
    completely at each size like an exhaustive one but does not count toward the row's ``max_size``; its
    sizes are in ``families`` and a note.
    """
    progress = progress or Progress(False)
    start = time.perf_counter()
    checked = 0
    notes: list[str] = []
    per_fam: dict[str, dict[str, Any]] = {
        f.name: {"family": f.name, "exhaustive": f.exhaustive, "sizes_complete": [], "inputs_checked": 0}
        for f in families
    }

    def top(f: Family) -> int:
        return family_top(f, max_size, reach)

    try:
        for size, fam in size_schedule(families, max_size, reach):
            expected_count = fam.count(size)
            with progress.bar(expected_count, f"{claim_id}/{variant} {fam.name} n={size}") as bar:
                got_count, failure = check_stream(_located(per_input, fam), fam.inputs(size), expected_count,
                                                  jobs, bar)
            checked += got_count
            per_fam[fam.name]["inputs_checked"] += got_count
            if failure is not None:
                inp, info = failure
                cex = {"family": fam.name, "size": size, "input": fam.describe(inp), **info}
                if not fam.exhaustive:
                    notes.append(f"counterexample found by seeded random sampling at size {size}; exhaustive "
                                 "families passed completely up to the sizes listed in families")
                return Verdict(claim_id, variant, "refuted", method, _complete(families, per_fam, top), checked,
                               time.perf_counter() - start, jsonable(cex), notes, None, list(per_fam.values()),
                               failing_input=inp)
            if got_count != expected_count:
                raise SymcotError(f"family {fam.name!r} yielded {got_count} inputs at size {size}, "
                                  f"expected {expected_count}")
            per_fam[fam.name]["sizes_complete"].append(size)
    except Exception as e:  # noqa: BLE001 - any failure of the check itself is an "error" verdict, not a crash
        err = locate(e, f"while enumerating {fam.name} at size {size}" if not isinstance(e, SymcotError) else "")
        kind = "" if isinstance(err, SymcotError) else f"{type(e).__name__}: "
        return Verdict(claim_id, variant, "error", method, _complete(families, per_fam, top), checked,
                       time.perf_counter() - start, None, notes + [f"check failed: {kind}{err}"], None,
                       list(per_fam.values()), {"traceback": _traceback_text(err, e)})
    complete_upto = _complete(families, per_fam, top)
    verdict = "verified" if complete_upto is not None else "unknown"
    if complete_upto is None:
        notes.append("no exhaustive family was checked completely at any size")
    notes += _partial_notes(families, per_fam, complete_upto)
    return Verdict(claim_id, variant, verdict, method, complete_upto, checked, time.perf_counter() - start,
                   None, notes, None, list(per_fam.values()))


def family_top(f: Family, max_size: int, reach: int | None = None) -> int:
    """The largest size of ``f`` that a run at ``max_size`` (and ``reach``) checks.

    An exhaustive family stops at ``max_size`` (at ``reach`` when it is marked ``Family.reach`` and ``reach`` is
    larger), a sampled one at its own ``max_size`` (else ``max_size``); never beyond the family's ``max_size``.
    """
    if not f.exhaustive:
        return f.max_size if f.max_size is not None else max_size
    limit = max(max_size, reach) if (reach is not None and f.reach) else max_size
    return limit if f.max_size is None else min(limit, f.max_size)


def size_schedule(families: Sequence[Family], max_size: int, reach: int | None = None) -> list[tuple[int, Family]]:
    """``(size, family)`` in checking order: what :func:`run_property_check` enumerates.

    Exhaustive families size by size (so the first failure has the smallest size over all of them), each up to
    :func:`family_top`, then the seeded random samples. The checks' schedules
    (:class:`symcot.check.context.Schedule`) and ``symcot verify``'s out-of-reach estimate read it.
    """
    def top(f: Family) -> int:
        return family_top(f, max_size, reach)

    schedule: list[tuple[int, Family]] = []
    for size in range(1, max([max_size, 1] + [top(f) for f in families if f.exhaustive]) + 1):
        schedule += [(size, f) for f in families if f.exhaustive and f.min_size <= size <= top(f)]
    for f in families:
        if not f.exhaustive:
            schedule += [(size, f) for size in range(f.min_size, top(f) + 1)]
    return schedule


def _partial_notes(families: list[Family], per_fam: dict[str, dict[str, Any]], complete_upto: int | None) -> list[str]:
    """A note for each partial family checked beyond the row's ``max_size``."""
    notes = []
    for f in families:
        done = per_fam[f.name]["sizes_complete"]
        if f.partial and done and (complete_upto is None or max(done) > complete_upto):
            notes.append(f"{PARTIAL_NOTE} {f.name} (part of the domain) up to size {max(done)}")
    return notes


def _located(per_input: Callable[[Any], Any], fam: Family) -> Callable[[Any], Any]:
    """``per_input`` whose exceptions say where they were raised (the user's file and line) and on which input."""

    def guarded(inp: Any) -> Any:
        try:
            return per_input(inp)
        except Exception as e:  # noqa: BLE001 - re-raised with its location, as a one-line SymcotError
            raise locate(e, f"on input {input_text(fam, inp)}") from e

    return guarded


def input_text(fam: Family, inp: Any) -> str:
    """An input as a counterexample shows it (the family's ``describe``), for error messages."""
    try:
        d = fam.describe(inp)
        text = d.get("text") if isinstance(d, dict) else None
        return str(text) if text else str(jsonable(d))
    except Exception:  # noqa: BLE001 - a failing describe must not hide the original error
        return repr(inp)[:200]


def _traceback_text(err: BaseException, original: BaseException) -> str:
    """The formatted traceback behind an error row (``--debug`` prints it)."""
    import traceback

    text = getattr(err, "traceback_text", None)
    return text or "".join(traceback.format_exception(type(original), original, original.__traceback__))


def _complete(families: list[Family], per_fam: dict[str, dict[str, Any]], top: Callable[[Family], int]) -> int | None:
    """Largest size ``s`` such that every exhaustive family finished every one of its sizes ``≤ s``.

    Strict: a family capped below ``s`` (``Family.max_size``) leaves ``s`` incomplete, since the
    claim's domain at size ``s`` was not covered.
    """
    best: int | None = None
    exhaustive = [f for f in families if f.exhaustive and not f.partial]
    if not exhaustive:
        return None
    for s in range(1, 10_000):
        if s > max(top(f) for f in exhaustive):
            break
        covering = [f for f in exhaustive if f.min_size <= s]
        if not covering:  # below every family's domain: vacuously complete
            best = s
            continue
        if all(s in per_fam[f.name]["sizes_complete"] for f in covering):
            best = s
        else:
            break
    return best
