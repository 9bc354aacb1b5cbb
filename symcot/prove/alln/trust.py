r"""The complete trusted base of an all-n proof: what it assumes, and where each item is checked.

A ``proved`` row rests on more than Z3's answers: the statement's definitions, domain and hand facts (the
algorithm and the theorem's hypotheses, taken as given), the views that say what the reference state's
fields are, the prompt, the step count, the λ hypothesis, and the fact that every Python function of the
statement is read twice (on numbers in the concrete phase, as Z3 terms in the proof). :func:`trusted_base`
lists every such item with the sizes and readings at which it was checked on real runs; the report shows
the list in the row's notes, ``--explain`` and the JSON (``details.trusted_base``).
"""

from __future__ import annotations

from typing import Any

from symcot.constructions.alln import AllNStatement
from symcot.prove.alln.facts import without

#: Shared by every all-n proof (docs/all-n.md, "Trusted base").
SHARED = (
    "Z3: an unsat answer is a proof (ground instantiation only weakens hypotheses); each obligation Z3 proves is "
    "re-proved by cvc5 from the same hypotheses (Z3's unsat core) and the row says which ones only Z3 closed",
    "sum lemmas L1 (finite support) and L2 (0/1 terms): Z3 induction on the length, hand proof in docs/all-n.md",
    "the symbolic block algebra reads the IR maps coordinate by coordinate at every block shape: tested equal to the "
    "compiled maps, property-based over every matrix class (tests/prove/alln/test_blocks*.py)",
    "the layer semantics (attention by stated choices, W_O, residual, W_2 ReLU(W_1 ·)) mirror "
    "symcot/model/semantics.py; the statement's choices (at generated tokens, and at the prompt tokens a choice is "
    "stated for) are proved as obligations and checked against exact replay",
    "the prover's own symbols (t!, λ!, bound variables v!) cannot be named by a vocabulary (names are checked)",
)


def _readings(concrete: dict[str, Any]) -> str:
    """Where both readings of a statement item were evaluated."""
    wit = concrete.get("witness") or {}
    at = f" and on the witness run of size {wit['size']}" if wit.get("size") is not None else ""
    return (f"Python reading on every input to size {concrete.get('facts_size')}; Z3 reading (symbols pinned to the "
            f"run) on every input to size {concrete.get('z3_reading_size')}{at}")


def trusted_base(stmt: AllNStatement, concrete: dict[str, Any], lam: str | None = None,
                 unproved: str = "", stops: bool = True) -> list[str]:
    """Every item the proof of ``stmt`` takes as given, each with where it was checked (see the module docstring).

    ``concrete`` is the concrete phase's record (sizes, witness); ``lam`` the λ hypothesis in words;
    ``unproved`` what the claim concludes beyond this proof; ``stops``: the construction has a stop rule.
    """
    where = _readings(concrete)
    sizes = concrete.get("sizes_complete")
    out = list(SHARED)
    labels = {"definition": "definition", "domain": "domain (the theorem's hypothesis)", "hand": "hand fact"}
    for f in stmt.vocabulary.facts:
        if f.kind in labels:
            n = concrete.get("fact_instances", {}).get(f.name, 0)
            free = [g.name for g in stmt.vocabulary.facts if f.name in without(g)]
            spared = f"; the facts {', '.join(free)} are proved without it" if free else ""
            out.append(f"{labels[f.kind]} {f.name} ({f.source or 'no source given'}): assumed; holds at {n} "
                       f"assignments, {where}{spared}")
    views = sorted(stmt.all_views())
    out.append(f"views {', '.join(views)}: what the reference state's fields are; the ones enc reads equal the "
               f"reference states' fields on every input to size {sizes}; {where} (one view per name)")
    out.append(f"the prompt: built from the statement's segments; equal to the construction's prompt token for token "
               f"on every input to size {sizes}")
    ends = ("the stop rule is proved to fire exactly at T" if stops else
            "the construction has no stop rule: the decoder is run for exactly T steps")
    out.append(f"the step count T: the reference run's length on every input to size {sizes} and on the witness; "
               f"{ends}")
    out.append("the statement is read twice, as Python numbers and as Z3 terms: a symbolic term refuses Python truth "
               f"values (and, or, if, == on terms are errors); the two readings agree, {where}")
    wit = concrete.get("witness") or {}
    if wit.get("input") is not None:
        text = wit["input"].get("text", wit["input"]) if isinstance(wit["input"], dict) else wit["input"]
        out.append(f"the hypotheses are consistent and do not bound the size: a real run of size {wit['size']} "
                   f"satisfies all of them together ({text})")
    if lam:
        out.append(f"λ: {lam} (the construction's own λ)")
    if unproved:
        out.append(f"not proved here: {unproved}")
    return out


def trusted_summary(stmt: AllNStatement, concrete: dict[str, Any], lam: str | None = None) -> str:
    """The trusted base in one line for the table's notes: every assumed item by name."""
    kinds: dict[str, list[str]] = {"definition": [], "domain": [], "hand": []}
    for f in stmt.vocabulary.facts:
        if f.kind in kinds:
            kinds[f.kind].append(f.name)
    wit = concrete.get("witness") or {}
    parts = [f"{k} facts {', '.join(v)}" for k, v in kinds.items() if v]
    parts += [f"views {', '.join(sorted(stmt.all_views()))}",
              f"the prompt and T (to size {concrete.get('sizes_complete')})",
              f"both readings agree (to size {concrete.get('z3_reading_size')}, witness size {wit.get('size')})"]
    if lam:
        parts.append(lam)
    return "trusted base (each item with where it is checked: details.trusted_base, --explain): " + "; ".join(parts)
