"""What a claim is checked through, in one line: why a command has nothing to work on for it.

Every command that works on a construction (``replay``, ``latex``, ``export``, ``coverage``, ``mutate``) says
in one :class:`~symcot.errors.SymcotError` line what the claim is when it cannot handle it: a lemma about a
gadget, a property of inputs, a symbolic identity, or an encoder construction where the command handles
decoders only.
"""

from __future__ import annotations

from typing import Any

from symcot.errors import SymcotError

#: The kind of check (by its class's module) -> what the claim is, in words.
KINDS = (
    ("symcot.lemmas.facts", "a symbolic identity"),
    ("symcot.lemmas", "a lemma about a network gadget"),
    ("symcot.fidelity", "a statement about how the paper writes a construction"),
    ("symcot.prove.lam", "a scan of a construction's constant λ"),
    ("symcot.prove", "a statement checked symbolically"),
    ("symcot.claims", "a property checked on its inputs"),
)


def is_encoder(chk: Any) -> bool:
    """Whether ``chk`` checks an encoder or recogniser construction.

    An :class:`~symcot.check.encoder.EncoderCheck`, a grid of them, or a check that ``runs_as`` one.
    """
    from symcot.check.encoder import EncoderCheck
    from symcot.check.grid import GridCheck

    return isinstance(chk, (EncoderCheck, GridCheck)) or getattr(chk, "runs_as", None) is not None


def as_formulas(claim: Any) -> str | None:
    """What ``claim``'s checks say they check as formulas rather than as a construction (``None``: nothing).

    A check states it in its ``as_formulas`` attribute: which part, and why it is not a construction.
    """
    reasons = [r for r in (getattr(c, "as_formulas", None) for c in claim.checks) if r]
    return "; ".join(dict.fromkeys(reasons)) or None


def what_it_is(claim: Any) -> str:
    """``a lemma about a network gadget``: what ``claim``'s checks make it, for a claim with no construction."""
    if any(is_encoder(c) for c in claim.checks):
        return "checked through an encoder construction"
    for chk in claim.checks:
        module = type(chk).__module__
        for prefix, words in KINDS:
            if module == prefix or module.startswith(prefix + "."):
                return words
    return f"{'an' if claim.kind[:1] in 'aeiou' else 'a'} {claim.kind}"


def nothing_to(claim: Any, action: str) -> SymcotError:
    """``sec:ffnn_minmax is a lemma about a network gadget, with no construction: nothing to replay``.

    A claim whose checks state what they check as formulas says so instead of "no construction".
    """
    formulas = as_formulas(claim)
    if formulas:
        return SymcotError(f"{claim.id} is checked as formulas, not run as a transformer: {formulas}; nothing to "
                           f"{action}")
    return SymcotError(f"{claim.id} is {what_it_is(claim)}, with no construction: nothing to {action}")


def decoders_only(claim: Any, command: str, instead: str) -> SymcotError:
    """``sec:tie-breaking is checked through an encoder construction; symcot coverage handles decoders only``."""
    return SymcotError(f"{claim.id} is checked through an encoder construction; symcot {command} handles decoder "
                       f"constructions only ({instead})")


def no_construction(claim: Any, command: str, action: str, instead: str) -> SymcotError:
    """The line for a claim ``command`` cannot handle: an encoder's (``instead`` says what can), or no construction."""
    if any(is_encoder(c) for c in claim.checks):
        return decoders_only(claim, command, instead)
    return nothing_to(claim, action)
