"""What a claim variant is: the printed text, another reading of it, a repair, or a deliberately broken mutant.

Where the text admits more than one reading, each reading is a named variant checked on the same inputs, and
``as-written`` is the one closest to the printed text. A repair changes the text (a weight, an encoding, a
hypothesis) and says what it changes; a mutant breaks a construction on purpose, to show a checker can fail.
Each variant is described once, by a :class:`Reading`, next to what it selects (a construction module's
``READINGS``, a claim's ``readings``); ``symcot claims`` lists the readings side by side with their verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["as-written", "reading", "repair", "mutant"]

#: The kinds of variant, in the order ``symcot claims`` lists them.
KINDS: tuple[str, ...] = ("as-written", "reading", "repair", "mutant")


@dataclass(frozen=True)
class Reading:
    """One variant of a claim: its kind and, in one line, what it reads or changes.

    Attributes:
        kind: ``as-written`` (the reading closest to the printed text), ``reading`` (another plausible reading
            of the same text), ``repair`` (a change to the text, with the change said in ``text``) or
            ``mutant`` (deliberately broken).
        text: one line: what this variant takes the text to say, or what it changes.
        expect: ``"refuted"`` for a variant kept as a negative example: every check of the variant counts as
            passing when refuted and as failing when it holds (as ``pytest.mark.xfail(strict=True)``); ``None``
            (the default): a variant expected to hold.

    """

    kind: Kind
    text: str
    expect: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a variant's kind is one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.expect not in (None, "refuted"):
            raise ValueError(f"a variant's expect is 'refuted' or None, got {self.expect!r}")
        if not self.text.strip() or "\n" in self.text:
            raise ValueError("a variant's description is one non-empty line")


def as_written(text: str) -> Reading:
    """The reading closest to the printed text."""
    return Reading("as-written", text)


def reading(text: str) -> Reading:
    """Another plausible reading of the printed text."""
    return Reading("reading", text)


def repair(text: str) -> Reading:
    """A change to the text; ``text`` says what changes."""
    return Reading("repair", text)


def mutant(text: str, expect: str | None = None) -> Reading:
    """A deliberately broken variant (a checker must refute it; ``expect="refuted"``: its refutation passes)."""
    return Reading("mutant", text, expect)


#: How a lemma's row at a place it is used (variant ``in:<claim>``) is described when its claim does not say.
IN_USE_PREFIX = "in:"


def in_use(variant: str) -> Reading | None:
    """The reading of a variant ``in:<claim>`` (the lemma's weights on the domain that claim feeds them)."""
    if not variant.startswith(IN_USE_PREFIX):
        return None
    return Reading("reading", f"the lemma's network where {variant[len(IN_USE_PREFIX):]} uses it: the parameters "
                              "and the domain that construction feeds it")


__all__ = ["IN_USE_PREFIX", "KINDS", "Kind", "Reading", "as_written", "in_use", "mutant", "reading", "repair"]
