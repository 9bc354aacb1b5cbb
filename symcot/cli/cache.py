"""The ``.symcot_cache/`` directory: which rows failed in the last runs, for ``symcot verify --lf``.

Like pytest's ``.pytest_cache``, it lives in the current directory, holds a ``.gitignore`` that ignores
it whole, and a ``CACHEDIR.TAG`` that backup tools know. ``lastfailed.json`` maps each kind of run
(``exhaustive``, ``symbolic``, ``all-n``) to the rows, named ``claim [variant]``, that were refuted, unknown
or an error, with that verdict. A run updates the rows it finished and leaves the others as they were.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from symcot.check.verdict import Verdict
from symcot.cli.select import row_name

#: The cache directory's name, in the current directory.
CACHE_DIR = ".symcot_cache"
#: The verdicts ``--lf`` reruns.
FAILED = ("refuted", "unknown", "error")

_GITIGNORE = "# Created by symcot automatically.\n*\n"
_CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                 "# This file is a cache directory tag created by symcot.\n"
                 "# For information about cache directory tags, see https://bford.info/cachedir/spec.html\n")
_LAST_FAILED = "lastfailed.json"


def mode_of(symbolic: bool, all_n: bool) -> str:
    """The kind of run whose failures a row belongs to: ``all-n``, ``symbolic`` or ``exhaustive``."""
    return "all-n" if all_n else "symbolic" if symbolic else "exhaustive"


class Cache:
    """The cache directory ``root`` (default ``./.symcot_cache``); nothing is created until a write."""

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root) if root is not None else Path.cwd() / CACHE_DIR

    def _read(self) -> dict[str, dict[str, str]] | None:
        """Everything ``lastfailed.json`` holds, ``None`` when there is no readable cache."""
        try:
            data = json.loads((self.root / _LAST_FAILED).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        return {str(mode): {str(k): str(v) for k, v in rows.items()}
                for mode, rows in data.items() if isinstance(rows, dict)}

    def last_failed(self, mode: str) -> dict[str, str] | None:
        """The rows of ``mode`` that failed when last run (name → verdict); ``None`` when no run was recorded."""
        data = self._read()
        if data is None or mode not in data:
            return None
        return data[mode]

    def record(self, mode: str, rows: Iterable[Verdict], skip: Iterable[str] = ()) -> str | None:
        """Update ``mode``'s failures with ``rows`` (except the rows named in ``skip``, which did not finish).

        Returns ``None``, or one line saying why the cache could not be written (the run goes on without it).
        """
        data = self._read() or {}
        failed = dict(data.get(mode, {}))
        skipped = set(skip)
        for r in rows:
            name = row_name(r.id, r.variant)
            if name in skipped:
                continue
            if r.failed:  # refuted (not expected), unknown, an error, or holding where refuted was expected
                failed[name] = r.verdict
            else:
                failed.pop(name, None)
        data[mode] = dict(sorted(failed.items()))
        try:
            self._ensure()
            tmp = self.root / f"{_LAST_FAILED}.{os.getpid()}.tmp"
            tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            tmp.replace(self.root / _LAST_FAILED)
        except OSError as e:
            return f"could not write the cache {self.root}: {e.strerror or e}"
        return None

    def _ensure(self) -> None:
        """Create the directory with its ``.gitignore`` and ``CACHEDIR.TAG``."""
        self.root.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            path = self.root / name
            if not path.exists():
                path.write_text(text)


__all__ = ["CACHE_DIR", "FAILED", "Cache", "mode_of"]
