r"""The complete trusted base of an all-n proof: what it assumes, and where each item is checked.

A ``proved`` row rests on more than Z3's answers: the statement's definitions, domain and hand facts (the
algorithm and the theorem's hypotheses, taken as given), the views that say what the reference state's
fields are, the prompt, the step count, the λ hypothesis, the trace of every Python function of the statement
into one term, and the evaluator that reads those terms on real runs. :func:`trusted_base`
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
    "one reading: every function of the statement (facts, bounds, views, choices, sizes, counts, T) is traced once "
    "into a Z3 term (symcot/prove/alln/trace.py); the prover substitutes into those terms, the concrete phase and the "
    "witnesses evaluate them, the user's functions are never called again",
    "the term evaluator (symcot/prove/alln/term.py) gives each operator Z3's meaning: compared with Z3's own "
    "evaluation of the same terms on real runs and on random terms (tests/prove/alln/test_term.py)",
    "what is proved is what runs (symcot/prove/alln/kernel.py): the construction writes none of its prompt, weights, "
    "λ or stop itself (refused otherwise); its runs read the traced segments, the IR decoder, lam_fixed or lam_rule",
)


def _readings(concrete: dict[str, Any]) -> str:
    """Where a statement item's term was evaluated on real runs."""
    wit = concrete.get("witness") or {}
    sizes = wit.get("sizes") or []
    at = f" and on the witness runs of sizes {', '.join(map(str, sizes))}" if sizes else ""
    return (f"its term evaluated on every input to size {concrete.get('facts_size')}{at}; Z3's own evaluation of the "
            f"term agrees on every input to size {concrete.get('z3_reading_size')}")


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
    out.append(f"the prompt: the statement's traced segments, which the construction's runs read (it writes no prompt "
               f"of its own); equal token for token to the segments on every input to size {sizes} and the witnesses")
    out.append("the sizes and λ of the runs: env(input) equals the statement's sizes, and the run's λ meets the "
               f"hypothesis the prover assumes, on every input to size {sizes} and the witnesses")
    ends = ("the stop rule is proved to fire exactly at T" if stops else
            "the construction has no stop rule: the decoder is run for exactly T steps")
    out.append(f"the step count T: the reference run's length on every input to size {sizes} and on the witness; "
               f"{ends}")
    out.append("the statement is traced once into terms: a symbolic term refuses Python truth values (and, or, if, == "
               f"on terms are errors) and what is not exact (a float, None) is refused; {where}")
    wit = concrete.get("witness") or {}
    if wit.get("input") is not None:
        text = wit["input"].get("text", wit["input"]) if isinstance(wit["input"], dict) else wit["input"]
        out.append(f"the hypotheses are consistent beyond the concrete phase: {wit.get('inputs')} real runs at sizes "
                   f"{', '.join(map(str, wit.get('sizes') or []))} satisfy every one of them together, each at every "
                   f"assignment (the largest: {text}); a fact bounding the size below the largest is refused")
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
              f"one traced reading (Z3's evaluation agrees to size {concrete.get('z3_reading_size')}; witness sizes "
              f"{', '.join(map(str, wit.get('sizes') or []))})"]
    if lam:
        parts.append(lam)
    return "trusted base (each item with where it is checked: details.trusted_base, --explain): " + "; ".join(parts)
