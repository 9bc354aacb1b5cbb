r"""SMT-LIB 2 text of an obligation's query, standalone: any SMT-LIB 2.6 solver can re-check it.

The text of a :class:`~symcot.prove.alln.context.Query` is ``(set-logic ALL)``, a declaration per
uninterpreted symbol, an ``(assert …)`` per hypothesis (preceded by a comment with its name), the negated
goal and ``(check-sat)``: ``unsat`` proves the obligation. The formulas are printed by Z3's SMT-LIB 2
printer (``Solver.to_smt2``), whose shared subterms become ``let`` bindings named ``?x…`` / ``$x…`` (names
no vocabulary or prover symbol has). Two things Z3 accepts that standard solvers do not are translated:

* a symbol whose name is a reserved word of SMT-LIB (``par``: DFS's parent function) or a theory function
  of SMT-LIB or of cvc5's ``ALL`` logic (``abs``, ``div``, ``exp``, ``select``, ``str.len``, …) is renamed
  (``par`` → ``par!smt``, listed in a comment): Z3 prints such a declaration as it is, cvc5 refuses it;
* Z3's header (``(set-info :status unknown)``) is replaced by a comment saying what Z3 answered; Z3's own
  quantifier attributes (``:qid``, ``:skolemid``, ``:weight``) are dropped.

:func:`write_obligations` writes one file per obligation of a row; :func:`write_index` a tab-separated index
of a run's files (obligation, file, Z3's status, the second solver's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import z3

from symcot.prove.alln.context import Obligation, Query
from symcot.prove.alln.ops import uninterpreted

#: Theory function symbols of SMT-LIB and of cvc5's ``ALL`` logic that a declaration may not shadow (names with
#: a ``.``, like ``str.len`` or ``set.card``, are renamed as well).
RESERVED = frozenset({
    "abs", "div", "mod", "to_real", "to_int", "is_int", "select", "store", "ite", "distinct", "not", "and", "or",
    "xor", "true", "false", "exp", "sin", "cos", "tan", "csc", "sec", "cot", "arcsin", "arccos", "arctan",
    "arccsc", "arcsec", "arccot", "sqrt", "tuple", "sep", "pto", "wand", "ubv_to_int", "sbv_to_int", "int_to_bv",
    "bv2nat", "nat2bv", "iand", "int2bv", "bvsize", "fmf.card", "let", "forall", "exists", "match", "par", "as",
})
#: Z3's own attributes of a quantifier (``(! body :qid k!0)``): not SMT-LIB.
_Z3_ATTRIBUTES = re.compile(r"\s*:(?:qid|skolemid|weight)\s+(?:\|[^|]*\||[^\s()]+)")
#: The index of a run's files.
INDEX_NAME = "index.tsv"


def _decls(terms: Iterable[Any]) -> dict[str, Any]:
    """The uninterpreted symbols of ``terms`` by name."""
    out: dict[str, Any] = {}
    for e in uninterpreted(list(terms)):
        out[e.decl().name()] = e.decl()
    return out


def _renaming(decls: dict[str, Any]) -> list[tuple[Any, Any]]:
    """``(symbol, its replacement applied to the arguments)`` for each symbol with a reserved name."""
    pairs = []
    for name, d in decls.items():
        if name not in RESERVED and "." not in name:
            continue
        new = f"{name.replace('.', '_')}!smt"
        while new in decls:
            new += "_"
        dom = [d.domain(k) for k in range(d.arity())]
        fresh = z3.Function(new, *dom, d.range())
        args = [z3.Var(k, s) for k, s in enumerate(dom)]  # substitute_funs: Var(k) is argument k
        pairs.append((d, fresh(*args) if args else fresh()))
    return pairs


def _translate(formulas: Sequence[Any]) -> tuple[list[Any], list[str]]:
    """``formulas`` with every reserved symbol renamed (the same renaming in all of them), and the renamings."""
    pairs = _renaming(_decls(formulas))
    if not pairs:
        return list(formulas), []
    renamed = [f"{old.name()} → {new.decl().name()}" for old, new in pairs]
    return [z3.substitute_funs(f, *pairs) for f in formulas], renamed


def _assert_blocks(text: str) -> tuple[list[str], list[str]]:
    """Z3's benchmark text split into its declarations and its ``(assert …)`` blocks (one per assertion)."""
    decls: list[str] = []
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("(assert"):
            blocks.append([line])
        elif line.startswith("(declare-") and not blocks:
            decls.append(line)
        elif blocks and line != "(check-sat)":
            blocks[-1].append(line)
    return decls, ["\n".join(b) for b in blocks]


def _comment(text: str) -> str:
    return "\n".join(f"; {line}" for line in text.splitlines())


def text(query: Query, title: str = "", z3_status: str = "proved") -> str:
    """The standalone SMT-LIB 2 text of ``query`` (``title``: comment lines naming the obligation)."""
    names = [n for n, _ in query.hyps]
    formulas, renamed = _translate([*(f for _, f in query.hyps), z3.Not(query.goal)])
    s = z3.Solver()
    for f in formulas:
        s.add(f)
    decls, blocks = _assert_blocks(s.to_smt2())
    if len(blocks) != len(formulas):  # never seen: keep Z3's assertions whole rather than mislabel them
        names = []
    how = ("ground instances of the hypotheses" if query.ground else "the stated hypotheses") + (
        ", restricted to Z3's unsat core" if query.core else "")
    head = [_comment(title)] if title else []
    head.append(f"; Z3: {z3_status} ({how}); unsat proves the obligation")
    if renamed:
        head.append(f"; renamed (reserved in SMT-LIB or cvc5): {', '.join(renamed)}")
    head += ["(set-info :smt-lib-version 2.6)", "(set-logic ALL)", *decls]
    body = []
    for k, block in enumerate(blocks):
        if k < len(names):
            body.append(_comment(f"hypothesis: {names[k]}"))
        elif names:
            body.append("; the negated goal")
        body.append(_Z3_ATTRIBUTES.sub("", block))
    return "\n".join([*head, *body, "(check-sat)", ""])


def obligation_text(ob: Obligation) -> str | None:
    """The SMT-LIB 2 text of ``ob``'s query (``None``: it has none, e.g. it could not be stated)."""
    if ob.query is None:
        return None
    at = f"layer {ob.layer} " if ob.layer is not None else ""
    return text(ob.query, f"{ob.phase}: {at}{ob.where}: {ob.statement}", ob.status)


def _safe(part: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", part).strip("_") or "x"


def file_name(claim_id: str, variant: str, index: int) -> str:
    """``thm_main__as-written__007.smt2`` for obligation 7 of that row."""
    return f"{_safe(claim_id)}__{_safe(variant)}__{index:03d}.smt2"


def ground_file_name(name: str) -> str:
    """The file of the ground-instance form of the obligation in ``name`` (``….ground.smt2``)."""
    return name.removesuffix(".smt2") + ".ground.smt2"


def write_obligations(directory: str | Path, claim_id: str, variant: str, obligations: Sequence[Obligation],
                      ground_texts: dict[int, str] | None = None) -> dict[int, str]:
    """Write each obligation with a query as a ``.smt2`` file in ``directory``: ``{index: file name}``.

    ``ground_texts``: per obligation index, the text of its ground-instance form (what the second solver closed
    in place of the query), written beside it as :func:`ground_file_name`.
    """
    out_dir = Path(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {}
    for k, ob in enumerate(obligations):
        body = obligation_text(ob)
        if body is None:
            continue
        name = file_name(claim_id, variant, k)
        (out_dir / name).write_text(body, encoding="utf-8")
        files[k] = name
        if ground_texts and k in ground_texts:
            (out_dir / ground_file_name(name)).write_text(ground_texts[k], encoding="utf-8")
    return files


def index_lines(rows: Iterable[Any]) -> list[str]:
    """Tab-separated lines ``claim, variant, index, phase, where, file, z3, cvc5`` of the rows' obligations.

    Each row is a :class:`~symcot.check.verdict.Verdict` whose ``details["obligations"]`` carry ``smt2`` (the
    file name; ``-`` when none was written), ``second`` and, where cvc5 closed the ground-instance form,
    ``smt2_ground`` (named in the cvc5 column).
    """
    lines = ["claim\tvariant\tobligation\tphase\twhere\tfile\tz3\tcvc5"]
    for row in rows:
        for k, o in enumerate((row.details or {}).get("obligations") or []):
            where = f"layer {o['layer']} {o['where']}" if o.get("layer") is not None else o["where"]
            lines.append("\t".join([row.id, row.variant, str(k), o["phase"], where.replace("\t", " "),
                                    o.get("smt2") or "-", o["status"], _second(o)]))
    return lines


def _second(o: dict[str, Any]) -> str:
    status = o.get("second") or "-"
    return f"{status} ({o['smt2_ground']})" if o.get("smt2_ground") else status


def write_index(directory: str | Path, rows: Iterable[Any]) -> Path:
    """Write :data:`INDEX_NAME` in ``directory`` (see :func:`index_lines`); its path."""
    path = Path(directory) / INDEX_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(index_lines(rows)) + "\n", encoding="utf-8")
    return path
