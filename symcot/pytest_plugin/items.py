"""The collectors and items of the pytest plugin: a claims directory, its modules, one item per claim variant.

:class:`ClaimsCollection` is registered only when a run names a claims directory (see
:mod:`symcot.pytest_plugin`); it turns that directory into a :class:`ClaimsDirectory` (claim modules found
and imported as :mod:`symcot.registry` does for ``symcot verify --proofs``), whose :class:`ClaimsModule`
children hold a :class:`ClaimItem` per ``(claim, check)`` pair that ``symcot verify`` runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from symcot.check.verdict import Verdict
    from symcot.claims import Claim

#: The counterexample's fields in the order the failure message lists them (the rest follow).
FIELDS = ("input", "step", "layer", "block", "head", "what", "expected", "got")


class ClaimsCollection:
    """The collecting hook, for the claims directories a run named."""

    def __init__(self, directories: Iterable[Path]):
        self.directories = {Path(d).resolve() for d in directories}

    @pytest.hookimpl(tryfirst=True)
    def pytest_collect_directory(self, path: Path, parent: pytest.Collector) -> pytest.Collector | None:
        """A named claims directory is a :class:`ClaimsDirectory`; any other directory is left to pytest."""
        if path.resolve() in self.directories:
            return ClaimsDirectory.from_parent(parent, path=path)
        return None


class ClaimsDirectory(pytest.Directory):
    """A claims directory: its claim modules, imported once, in the order ``symcot verify`` takes them."""

    def collect(self) -> Iterator[ClaimsModule]:
        """A :class:`ClaimsModule` per claim module; a claim declared twice is an error, as in ``symcot verify``."""
        from symcot.registry import claims_of, discover, import_modules

        modules = import_modules(discover(self.path))
        claims_of(modules)
        for mod in modules:
            node = ClaimsModule.from_parent(self, path=Path(str(mod.__file__)))
            node.module = mod
            yield node

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """A symcot error (a missing module, a syntax error in one, …) as its one line."""
        from symcot.errors import SymcotError

        if isinstance(excinfo.value, SymcotError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class ClaimsModule(pytest.File):
    """One claim module: a :class:`ClaimItem` per claim variant that ``symcot verify`` runs by default."""

    module: ModuleType

    def collect(self) -> Iterator[ClaimItem]:
        """The module's ``(claim, check)`` pairs, as :func:`symcot.registry.select_checks` plans them.

        With ``--symcot-all-n``, an item per all-n row too, named ``<claim id>[all-n:<variant>]``. An item's node id
        is given whole, ``<module>::<claim id>[<variant>]``, so that pytest reads it back from its cache (``--lf``,
        ``--ff``) as the same id: a claim id with its variant as the parameter, as a parametrized test's.
        """
        from symcot.registry import claims_of, select_checks

        claims = claims_of([self.module]).values()
        plans = [("", False)] + ([("all-n:", True)] if self.config.getoption("symcot_all_n") else [])
        for prefix, all_n in plans:
            own = [c for c in claims if c.selected(None, False, all_n)]
            for claim, check in select_checks(own, all_n=all_n) if own else []:
                name = f"{claim.id}[{prefix}{check.variant}]"
                yield ClaimItem.from_parent(self, name=name, nodeid=f"{self.nodeid}::{name}", claim=claim,
                                            check=check)


class ClaimNotEstablished(Exception):
    """A row whose verdict is not ``proved`` or ``verified``."""

    def __init__(self, row: Verdict):
        super().__init__(f"{row.id} [{row.variant}]: {row.shown_verdict}")
        self.row = row


class ClaimItem(pytest.Item):
    """One claim variant, checked by :meth:`symcot.claims.Claim.run_check` as ``symcot verify`` checks it."""

    def __init__(self, *, claim: Claim, check: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.claim = claim
        self.check = check
        self.add_marker(pytest.mark.symcot)

    def runtest(self) -> None:
        """Run the check (batched engine, the claim's size or ``--symcot-max-size``); fail unless it holds."""
        from symcot.check.exhaustive import Progress
        from symcot.check.pool import default_jobs

        jobs = self.config.getoption("symcot_jobs") or default_jobs()
        row = self.claim.run_check(self.check, self.config.getoption("symcot_max_size"), Progress(False), jobs,
                                   "batched")
        self.user_properties.append(("verdict", row.shown_verdict))
        if row.failed:
            raise ClaimNotEstablished(row)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """The row as one block: claim, variant, verdict, then the counterexample or the reason."""
        if isinstance(excinfo.value, ClaimNotEstablished):
            return failure_text(excinfo.value.row)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.claim.id} [{self.check.variant}]"


def failure_text(row: Verdict) -> str:
    """A failing row for a test report: a header line, then the counterexample's fields or the notes."""
    from symcot.check.inherit import inherited_text
    from symcot.check.verdict import jsonable

    size = "-" if row.max_size is None else row.max_size
    lines = [f"{row.id} [{row.variant}]: {row.shown_verdict}",
             f"  method: {row.method}; max size {size}, {row.inputs_checked} inputs checked"]
    c = jsonable(row.counterexample) if row.counterexample else None
    if c:
        where = ", ".join(str(x) for x in (c.get("family"), None if c.get("size") is None else f"n = {c['size']}")
                          if x)
        lines.append(f"  counterexample{f' ({where})' if where else ''}:")
        inp = c.get("input")
        shown = {**c, "input": inp.get("text", inp) if isinstance(inp, dict) else inp}
        keys = [k for k in FIELDS if k in shown] + [k for k in shown if k not in FIELDS and k not in
                                                     ("family", "size", "kind")]
        width = max(len(k) for k in keys) if keys else 0
        lines += [f"    {k + ':':<{width + 1}} {shown[k]}" for k in keys]
    if row.inherited_from:
        lines.append(f"  {inherited_text(row)}")
    if row.notes:
        lines.append("  notes:" if c else "  why:")
        lines += [f"    {note}" for note in row.notes]
    return "\n".join(lines)
