"""Finding the claims: the ``proofs`` package (its ``MODULES``), or a user's own directory of claim modules.

The paper's claims live in the importable package ``proofs`` (installed with symcot); its ``MODULES`` lists
the claim modules in order. A user's directory (``--proofs DIR``, or a ``proofs/`` directory in the working
directory that is not that package) is read the same way when it has an ``__init__.py`` with ``MODULES``;
otherwise every ``*.py`` file in it that does not start with ``_`` is a claim module. Either way
:func:`discover` says which directory it used and how, so ``symcot`` can print it (like pytest's rootdir).
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from symcot.claims import Claim
from symcot.errors import SymcotError, UnknownClaimError, locate

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
        k = len(self.modules)
        return f"proofs: {self.directory} (package {self.package}, {k} module{'' if k == 1 else 's'} from {how})"


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
        if (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(target, ast.Name)
                and target.id == "MODULES" and node.value is not None):
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
        if d.exists() and not d.is_dir():
            raise SymcotError(f"--proofs {d} is a file, not a directory: pass the claims directory that holds "
                              f"it ({d.parent})")
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
    if not mods:
        others = sorted(p.name for p in d.iterdir() if not p.name.startswith((".", "_")))[:5]
        holds = f" (it holds {', '.join(others)})" if others else " (it is empty)"
        raise SymcotError(f"proofs directory {d} has no claim module: no *.py file declaring CLAIM{holds}; "
                          "pass --proofs DIR with your claim modules")
    return ProofsSource(d, USER_PACKAGE, mods, False)


def _user_package(src: ProofsSource) -> None:
    """Register ``src.directory`` as the package :data:`USER_PACKAGE` (replacing an earlier one)."""
    for name in [m for m in sys.modules if m == USER_PACKAGE or m.startswith(USER_PACKAGE + ".")]:
        del sys.modules[name]
    pkg = ModuleType(USER_PACKAGE)
    pkg.__path__ = [str(src.directory)]
    sys.modules[USER_PACKAGE] = pkg


def import_modules(src: ProofsSource) -> list[ModuleType]:
    """Import every claim module of ``src`` (as ``package.module``), in order.

    An exception while importing one (a syntax error, a failing import, an error in the module's own
    code) is a :class:`SymcotError` naming the file and line.
    """
    if src.package == USER_PACKAGE:
        _user_package(src)
    if not src.modules:
        raise SymcotError(f"{src.directory / '__init__.py'}: MODULES is empty: no claim module to load")
    out = []
    for m in src.modules:
        path = src.directory / f"{m}.py"
        if not path.is_file():
            raise SymcotError(f"{src.directory / '__init__.py'}: MODULES names {m!r}, but there is no {m}.py")
        try:
            out.append(importlib.import_module(f"{src.package}.{m}"))
        except SyntaxError as e:
            raise SymcotError(f"{e.filename or path}:{e.lineno}: syntax error: {e.msg} "
                              f"(in the proofs module {m})") from e
        except Exception as e:  # noqa: BLE001 - any failure of the user's module is reported at its line
            raise locate(e, f"while importing the proofs module {path}") from e
    return out


def claims_of(modules: Sequence[ModuleType]) -> dict[str, Claim]:
    """The claims the modules declare (``CLAIMS``, then ``CLAIM``), by id, in module order.

    A module that declares neither is an error naming its file (a helper module of a directory of claim
    modules is skipped when its name starts with ``_``).
    """
    claims: dict[str, Claim] = {}
    for mod in modules:
        where = getattr(mod, "__file__", None) or mod.__name__
        if not hasattr(mod, "CLAIMS") and not hasattr(mod, "CLAIM"):
            raise SymcotError(f"{where}: declares neither CLAIM nor CLAIMS (a helper module's file name "
                              "should start with '_' so that it is not taken for a claim module)")
        found = list(getattr(mod, "CLAIMS", [])) + ([mod.CLAIM] if hasattr(mod, "CLAIM") else [])
        for c in found:
            if not isinstance(c, Claim):
                raise SymcotError(f"{where}: CLAIM/CLAIMS must hold symcot.claims.Claim objects, "
                                  f"got {type(c).__name__}")
            if c.id in claims:
                raise SymcotError(f"claim {c.id} is declared twice (second time in {where})")
            claims[c.id] = c
    return claims


def load(directory: str | Path | None = None) -> tuple[ProofsSource, dict[str, Claim]]:
    """The proofs source (see :func:`discover`) and its claims, by id, in module order."""
    src = discover(directory)
    claims = claims_of(import_modules(src))
    if not claims:
        raise SymcotError(f"{src.directory}: no claim declared (CLAIMS lists are empty)")
    return src, claims


def load_claims(directory: str | Path | None = None) -> dict[str, Claim]:
    """All claims of the proofs source (see :func:`discover`), by id, in module order."""
    return load(directory)[1]


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    """``"; did you mean X?"`` for the closest known names, else ``"; known: …"``."""
    near = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    if not near:
        tail = word.split(":")[-1]
        near = [k for k in known if tail and tail in k][:3]
    if near:
        return f"; did you mean {' or '.join(near)}?"
    return f"; known: {', '.join(known)}"


def is_glob(text: str) -> bool:
    """Whether ``text`` is a shell-style pattern (``thm:cotdfs*``, ``lem:?``, ``thm:cot[dw]*``)."""
    return any(ch in text for ch in "*?[")


def select(claims: dict[str, Claim], ids: list[str]) -> list[Claim]:
    """The claims named by ``ids`` (all when empty), in the order named, each once.

    An id is a claim's id or a shell-style pattern (``'thm:cotdfs*'``, :mod:`fnmatch`), which names the
    matching claims in module order. An unknown id, or a pattern that matches nothing, is a clear error.
    """
    if not ids:
        return list(claims.values())
    out: dict[str, Claim] = {}
    for i in ids:
        if i in claims:
            out.setdefault(i, claims[i])
        elif is_glob(i):
            matched = [c for c in claims if fnmatch.fnmatchcase(c, i)]
            if not matched:
                raise UnknownClaimError(f"no claim matches {i!r} (symcot claims lists the {len(claims)} claim ids)")
            for c in matched:
                out.setdefault(c, claims[c])
        else:
            raise UnknownClaimError(f"unknown claim {i!r}{_did_you_mean(i, list(claims))}")
    return list(out.values())


def select_checks(claims: Sequence[Claim], variants: Sequence[str] | None = None, symbolic: bool = False,
                  named: bool = False, all_n: bool = False) -> list[tuple[Claim, Any]]:
    """The ``(claim, check)`` pairs a run takes, in order; never empty.

    Every name in ``variants`` must be a variant of some selected claim, and (when the claims were
    ``named`` on the command line) every named claim must keep at least one check; otherwise a
    :class:`SymcotError` says what exists. A selection with nothing to check is an error too.
    """
    kind = "symbolic " if symbolic else "all-n " if all_n else ""
    pool = [(c, chk) for c in claims for chk in c.selected(None, symbolic, all_n)]
    known = list(dict.fromkeys(chk.variant for _, chk in pool))
    for v in variants or ():
        if v not in known:
            near = difflib.get_close_matches(v, known, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]}?" if near else ""
            if len(claims) == 1:
                its = f" (its {kind}variants: {', '.join(known)})" if known else f" (it has no {kind}check)"
                raise SymcotError(f"{claims[0].id} has no {kind}variant {v!r}{hint}{its}")
            raise SymcotError(f"no selected claim has a {kind}variant {v!r}{hint}"
                              + (f" (variants: {', '.join(known)})" if known else ""))
    out = [(c, chk) for c, chk in pool if not variants or chk.variant in variants]
    if named:
        for c in claims:
            if not any(cc is c for cc, _ in out):
                own = [chk.variant for chk in c.selected(None, symbolic, all_n)]
                if not own:
                    others = [x.id for x in claims if x.selected(None, symbolic, all_n)]
                    raise SymcotError(f"{c.id} has no {kind}check" + (
                        f" (of the selected claims, {', '.join(others)} {'has' if len(others) == 1 else 'have'} one)"
                        if others else ""))
                raise SymcotError(f"{c.id} has no variant {' or '.join(map(repr, variants or []))} "
                                  f"(its {kind}variants: {', '.join(own)})")
    if not out:
        raise SymcotError(f"nothing to check: no {kind}check among the selected claims")
    return out
