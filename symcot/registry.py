"""Finding the claims: every module in ``proofs/`` that defines ``CLAIM`` or ``CLAIMS``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from symcot.claims import Claim
from symcot.errors import SymcotError, UnknownClaimError


def proofs_dir(explicit: str | Path | None = None) -> Path:
    """``explicit``, else ``./proofs`` (run from the repository root), else the one beside the package."""
    if explicit is not None:
        p = Path(explicit)
        if not p.is_dir():
            raise SymcotError(f"proofs directory {p} does not exist")
        return p
    here = Path.cwd() / "proofs"
    if here.is_dir():
        return here
    beside = Path(__file__).resolve().parent.parent / "proofs"
    if beside.is_dir():
        return beside
    raise SymcotError("no proofs/ directory: run symcot from the repository root or pass --proofs DIR")


def load_claims(directory: str | Path | None = None) -> dict[str, Claim]:
    """All claims declared in the proofs directory, by id, in file order."""
    d = proofs_dir(directory)
    claims: dict[str, Claim] = {}
    for path in sorted(d.glob("*.py")):
        if path.name.startswith("_"):
            continue
        name = f"symcot_proofs.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        found = list(getattr(mod, "CLAIMS", [])) + ([mod.CLAIM] if hasattr(mod, "CLAIM") else [])
        for c in found:
            if c.id in claims:
                raise SymcotError(f"claim {c.id} is declared twice (second time in {path.name})")
            claims[c.id] = c
    return claims


def select(claims: dict[str, Claim], ids: list[str]) -> list[Claim]:
    """The claims named by ``ids`` (all when empty); an unknown id is a clear error."""
    if not ids:
        return list(claims.values())
    out = []
    for i in ids:
        if i not in claims:
            near = [c for c in claims if i.split(":")[-1] in c]
            hint = f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(claims)}"
            raise UnknownClaimError(f"unknown claim {i!r}{hint}")
        out.append(claims[i])
    return out
