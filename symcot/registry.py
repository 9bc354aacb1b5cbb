"""Finding the claims: the ``proofs`` package (its ``MODULES``), or a user's own directory of claim modules.

The paper's claims live in the importable package ``proofs`` (installed with symcot); its ``MODULES`` lists
the claim modules in order. A user's directory (``--proofs DIR``, or a ``proofs/`` directory in the working
directory that is not that package) is read the same way when it has an ``__init__.py`` with ``MODULES``;
otherwise every ``*.py`` file in it that does not start with ``_`` is a claim module. Either way
:func:`discover` says which directory it used and how, so ``symcot`` can print it (like pytest's rootdir).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from symcot.claims import Claim
from symcot.errors import SymcotError, UnknownClaimError

#: Package name under which a user's directory of claim modules is loaded.
USER_PACKAGE = "symcot_user_proofs"


@dataclass(frozen=True)
class ProofsSource:
    """Where the claims come from: a directory, the package name its modules are imported under, the modules."""

    directory: Path
    package: str
    modules: tuple[str, ...]
    listed: bool  # True: the package's MODULES; False: every *.py file of the directory

    def describe(self) -> str:
        """One line for the run's header: ``proofs: /path (package proofs, 25 modules)``."""
        how = "MODULES" if self.listed else "every *.py file"
        return f"proofs: {self.directory} (package {self.package}, {len(self.modules)} modules from {how})"


def _package_dir() -> Path | None:
    """Directory of the installed ``proofs`` package, if it is importable."""
    spec = importlib.util.find_spec("proofs")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _listed_modules(directory: Path) -> tuple[str, ...] | None:
    """``MODULES`` of ``directory/__init__.py``, read without importing it (``None`` if it has none)."""
    init = directory / "__init__.py"
    if not init.is_file():
        return None
    try:
        tree = ast.parse(init.read_text(encoding="utf-8"), str(init))
    except SyntaxError as e:
        raise SymcotError(f"{init}:{e.lineno}: syntax error: {e.msg}") from None
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == "MODULES" and node.value is not None:
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                raise SymcotError(f"{init}: MODULES must be a literal tuple of module names") from None
            return tuple(str(m) for m in value)
    return None


def discover(explicit: str | Path | None = None) -> ProofsSource:
    """The claims' source: ``explicit``, else ``./proofs`` if present, else the installed ``proofs`` package."""
    package_dir = _package_dir()
    if explicit is not None:
        d = Path(explicit)
        if not d.is_dir():
            raise SymcotError(f"proofs directory {d} does not exist")
    else:
        here = Path.cwd() / "proofs"
        if here.is_dir():
            d = here
        elif package_dir is not None:
            d = package_dir
        else:
            raise SymcotError("no proofs/ directory: run symcot from the repository root or pass --proofs DIR")
    d = d.resolve()
    listed = _listed_modules(d)
    if package_dir is not None and d == package_dir:
        return ProofsSource(d, "proofs", listed or (), True)
    if listed is not None:
        return ProofsSource(d, USER_PACKAGE, listed, True)
    mods = tuple(p.stem for p in sorted(d.glob("*.py")) if not p.name.startswith("_"))
    return ProofsSource(d, USER_PACKAGE, mods, False)


def _user_package(src: ProofsSource) -> None:
    """Register ``src.directory`` as the package :data:`USER_PACKAGE` (replacing an earlier one)."""
    for name in [m for m in sys.modules if m == USER_PACKAGE or m.startswith(USER_PACKAGE + ".")]:
        del sys.modules[name]
    pkg = ModuleType(USER_PACKAGE)
    pkg.__path__ = [str(src.directory)]
    sys.modules[USER_PACKAGE] = pkg


def import_modules(src: ProofsSource) -> list[ModuleType]:
    """Import every claim module of ``src`` (as ``package.module``), in order."""
    if src.package == USER_PACKAGE:
        _user_package(src)
    out = []
    for m in src.modules:
        if not (src.directory / f"{m}.py").is_file():
            raise SymcotError(f"{src.directory / '__init__.py'}: MODULES names {m!r}, but there is no {m}.py")
        out.append(importlib.import_module(f"{src.package}.{m}"))
    return out


def claims_of(modules: Sequence[ModuleType]) -> dict[str, Claim]:
    """The claims the modules declare (``CLAIMS``, then ``CLAIM``), by id, in module order."""
    claims: dict[str, Claim] = {}
    for mod in modules:
        found = list(getattr(mod, "CLAIMS", [])) + ([mod.CLAIM] if hasattr(mod, "CLAIM") else [])
        for c in found:
            if c.id in claims:
                raise SymcotError(f"claim {c.id} is declared twice (second time in {mod.__name__})")
            claims[c.id] = c
    return claims


def load_claims(directory: str | Path | None = None) -> dict[str, Claim]:
    """All claims of the proofs source (see :func:`discover`), by id, in module order."""
    return claims_of(import_modules(discover(directory)))


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
