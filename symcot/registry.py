"""Finding the claims: a paper package (its ``MODULES``), a collection of them (``PAPERS``), or a plain directory.

A paper package is a directory with an ``__init__.py`` that lists its claim modules in ``MODULES`` and may
state ``TITLE``, ``SUBJECT`` and ``LABELS`` (:class:`symcot.paper.Paper`). A collection's ``__init__.py``
lists paper packages in ``PAPERS`` (the repository's ``proofs/`` does). A directory without an
``__init__.py`` is a user's claims directory: every ``*.py`` file in it that does not start with ``_`` is a
claim module. The directory is ``--proofs DIR``, else ``./proofs``, else the installed ``proofs`` package;
:func:`discover` says which it used and how, so ``symcot`` can print it (like pytest's rootdir). All of it
is read with :mod:`ast`, without importing anything.
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from symcot.claims import Claim
from symcot.errors import SymcotError, UnknownClaimError, UserCodeError, locate, user_frame
from symcot.paper import Paper

#: Package name under which a user's directory of claim modules is loaded.
USER_PACKAGE = "symcot_user_proofs"


@dataclass(frozen=True)
class ProofsSource:
    """One paper's claims: a directory, the package its modules are imported under, the modules, the paper."""

    directory: Path
    package: str
    modules: tuple[str, ...]
    listed: bool  # True: the package's MODULES; False: every *.py file of the directory
    paper: Paper = field(default_factory=Paper)

    def describe(self) -> str:
        """One line for the run's header: ``proofs: /path (package proofs, 25 modules)``."""
        how = "MODULES" if self.listed else "every *.py file"
        k = len(self.modules)
        line = f"proofs: {self.directory} (package {self.package}, {k} module{'' if k == 1 else 's'} from {how})"
        return line + (f"\n  subject: {self.paper.subject}" if self.paper.subject else "")


@dataclass
class Proofs:
    """What a run reads: one paper's source, or a collection's (``PAPERS``), and which paper each claim is of."""

    sources: tuple[ProofsSource, ...]
    paper_of: dict[str, Paper] = field(default_factory=dict)

    def describe(self) -> str:
        """The run's header: one line per paper package (and its subject)."""
        return "\n".join(s.describe() for s in self.sources)

    def uncovered(self) -> list[tuple[str, str, bool]]:
        """Every paper's labels without a claim: ``(label, what it is or why it has none, checkable)``."""
        have = set(self.paper_of)
        return [u for s in self.sources for u in s.paper.uncovered(have)]

    def is_label(self, claim_id: str) -> bool:
        """Whether ``claim_id`` is a label of its paper (else an id of ours)."""
        paper = self.paper_of.get(claim_id)
        return paper is not None and paper.is_label(claim_id)

    @property
    def labels(self) -> list[str]:
        """Every paper's labels, in order."""
        return [label for s in self.sources for label in s.paper.labels]

    def papers(self) -> list[dict[str, Any]]:
        """For a report's header: each paper's package, title, subject and claim count."""
        return [{"package": s.package, "title": s.paper.title, "subject": s.paper.subject,
                 "claims": sum(1 for p in self.paper_of.values() if p is s.paper)} for s in self.sources]


def _package_dir() -> Path | None:
    """Directory of the installed ``proofs`` package, if it is importable."""
    spec = importlib.util.find_spec("proofs")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _literals(directory: Path) -> dict[str, Any] | None:
    """The literal assignments of ``directory/__init__.py`` (``None``: it has no ``__init__.py``)."""
    init = directory / "__init__.py"
    if not init.is_file():
        return None
    try:
        tree = ast.parse(init.read_text(encoding="utf-8"), str(init))
    except SyntaxError as e:
        raise SymcotError(f"{init}:{e.lineno}: syntax error: {e.msg}") from None
    out: dict[str, Any] = {}
    for node in tree.body:
        target: ast.expr
        value: ast.expr | None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id in _KEYS and value is not None):
            continue
        try:
            out[target.id] = ast.literal_eval(value)
        except ValueError:
            raise SymcotError(f"{init}:{node.lineno}: {target.id} must be a literal ({_KEYS[target.id]})") from None
    return out


#: What a package's ``__init__.py`` may state, read as literals.
_KEYS = {"MODULES": "a tuple of module names", "PAPERS": "a tuple of package names", "TITLE": "a string",
         "SUBJECT": "a string", "LABELS": "a dict label -> (what it is, checkable)"}


def _paper(lits: dict[str, Any]) -> Paper:
    labels = {str(k): (str(v[0]), bool(v[1])) for k, v in dict(lits.get("LABELS", {})).items()}
    return Paper(str(lits.get("TITLE", "")), str(lits.get("SUBJECT", "")), labels)


def _package_name(d: Path, package_dir: Path | None, user: str) -> str:
    """``proofs.<sub>`` for a directory inside the installed ``proofs`` package, else ``user``."""
    if package_dir is not None and (d == package_dir or package_dir in d.parents):
        return ".".join(("proofs", *d.relative_to(package_dir).parts))
    return user


def _source(d: Path, lits: dict[str, Any] | None, package: str) -> ProofsSource:
    """One paper package (``lits`` its ``__init__.py``) or plain directory of claim modules."""
    if lits is not None and "MODULES" in lits:
        return ProofsSource(d, package, tuple(str(m) for m in lits["MODULES"]), True, _paper(lits))
    mods = tuple(p.stem for p in sorted(d.glob("*.py")) if not p.name.startswith("_"))
    if not mods:
        others = sorted(p.name for p in d.iterdir() if not p.name.startswith((".", "_")))[:5]
        holds = f" (it holds {', '.join(others)})" if others else " (it is empty)"
        raise SymcotError(f"proofs directory {d} has no claim module: no *.py file declaring CLAIM{holds}; "
                          "pass --proofs DIR with your claim modules")
    return ProofsSource(d, package, mods, False, _paper(lits or {}))


def discover(explicit: str | Path | None = None) -> Proofs:
    """The claims' sources: ``explicit``, else ``./proofs`` if present, else the installed ``proofs`` package."""
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
    lits = _literals(d)
    package = _package_name(d, package_dir, USER_PACKAGE)
    if lits is None or "PAPERS" not in lits:
        return Proofs((_source(d, lits, package),))
    sources = []
    for name in lits["PAPERS"]:
        sub = d / str(name)
        sub_lits = _literals(sub)
        if sub_lits is None:
            raise SymcotError(f"{d / '__init__.py'}: PAPERS names {name!r}, but {sub} is not a package "
                              "(no __init__.py)")
        sources.append(_source(sub, sub_lits, f"{package}.{name}"))
    if not sources:
        raise SymcotError(f"{d / '__init__.py'}: PAPERS is empty: no paper package to load")
    return Proofs(tuple(sources))


def _user_package(src: ProofsSource) -> None:
    """Register ``src``'s directory as the package :data:`USER_PACKAGE` (replacing an earlier one)."""
    root = src.package.split(".")[0]
    directory = src.directory if root == src.package else src.directory.parent
    for name in [m for m in sys.modules if m == root or m.startswith(root + ".")]:
        del sys.modules[name]
    pkg = ModuleType(root)
    pkg.__path__ = [str(directory)]
    sys.modules[root] = pkg


def _at_user_line(e: SymcotError) -> str:
    """The message of ``e``, led by the user's file and line where the traceback reaches them (once)."""
    msg = str(e)
    where = user_frame(e)
    if where is None or msg.startswith(where[0]):
        return msg
    return f"{where[0]}:{where[1]}: {msg}"


def import_modules(proofs: Proofs | ProofsSource) -> list[ModuleType]:
    """Import every claim module (as ``package.module``), paper by paper, in order.

    An exception while importing one (a syntax error, a failing import, an error in the module's own
    code) is a :class:`SymcotError` naming the file and line.
    """
    sources = proofs.sources if isinstance(proofs, Proofs) else (proofs,)
    if any(s.package.split(".")[0] == USER_PACKAGE for s in sources):
        _user_package(sources[0])
    out = []
    for src in sources:
        if not src.modules:
            raise SymcotError(f"{src.directory / '__init__.py'}: MODULES is empty: no claim module to load")
        for m in src.modules:
            path = src.directory / f"{m}.py"
            if not path.is_file():
                raise SymcotError(f"{src.directory / '__init__.py'}: MODULES names {m!r}, but there is no {m}.py")
            try:
                out.append(importlib.import_module(f"{src.package}.{m}"))
            except SyntaxError as e:
                raise SymcotError(f"{e.filename or path}:{e.lineno}: syntax error: {e.msg} "
                                  f"(in the proofs module {m})") from e
            except SymcotError as e:  # a statement refused as it is made: at the user's line, once
                raise UserCodeError(f"{_at_user_line(e)} (while importing the proofs module {path})") from e
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


def load(directory: str | Path | None = None) -> tuple[Proofs, dict[str, Claim]]:
    """The proofs sources (see :func:`discover`) and their claims, by id, paper by paper in module order."""
    proofs = discover(directory)
    modules = import_modules(proofs)
    claims = claims_of(modules)
    if not claims:
        raise SymcotError(f"{proofs.sources[0].directory}: no claim declared (CLAIMS lists are empty)")
    for src in proofs.sources:
        for c in claims_of([m for m in modules if m.__name__.rsplit(".", 1)[0] == src.package]).values():
            proofs.paper_of[c.id] = src.paper
    return proofs, claims


def load_claims(directory: str | Path | None = None) -> dict[str, Claim]:
    """All claims of the proofs source (see :func:`discover`), by id, in module order."""
    return load(directory)[1]


#: Claim ids an unknown id's message lists at most.
CLOSEST = 5


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    """``"; did you mean X?"`` for the closest known names, else where a claim of one's own comes from.

    With nothing close, the id may be the user's own claim, loaded without ``--proofs``: the message says so and
    lists the :data:`CLOSEST` closest ids (not all of them).
    """
    near = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    if not near:
        tail = word.split(":")[-1]
        near = [k for k in known if tail and tail in k][:3]
    if near:
        return f"; did you mean {' or '.join(near)}?"
    closest = difflib.get_close_matches(word, list(known), n=CLOSEST, cutoff=0.0)
    return (f"; claims of your own need --proofs DIR (the directory of their modules); the closest of the "
            f"{len(known)} ids here: {', '.join(closest)} (symcot claims lists them all)")


def is_glob(text: str) -> bool:
    """Whether ``text`` is a shell-style pattern (``thm:main*``, ``lem:?``, ``thm:[ab]*``)."""
    return any(ch in text for ch in "*?[")


def select(claims: dict[str, Claim], ids: list[str]) -> list[Claim]:
    """The claims named by ``ids`` (all when empty), in the order named, each once.

    An id is a claim's id or a shell-style pattern (``'thm:main*'``, :mod:`fnmatch`), which names the
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
