"""Command-line words argparse gets wrong on its own: values that start with a minus, misspelt options.

``--tree -1,0,0`` is a parent array, but argparse reads ``-1,0,0`` as an option and stops with "expected
one argument"; :func:`attach_dash_values` joins such a value to its option (``--tree=-1,0,0``) for every
option that takes one value. :func:`unrecognized` words the error for an unknown option with the closest
option of the command (``--max-sise``: "did you mean --max-size?").
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Mapping, Sequence


def _takes_one_value(action: argparse.Action | None) -> bool:
    """Whether ``action`` reads exactly one value (``--tree T``; not a flag such as ``--debug``)."""
    return action is not None and action.nargs is None and bool(action.option_strings)


def _is_dash_value(word: str, options: Mapping[str, argparse.Action]) -> bool:
    """Whether ``word`` is a value that starts with a minus (``-1,0,0``, ``-3/2``), not an option (``-o``)."""
    return (len(word) > 1 and word.startswith("-") and not word.startswith("--") and word not in options
            and not word[1].isalpha())


def _option_named(word: str, options: Mapping[str, argparse.Action]) -> argparse.Action | None:
    """The action ``word`` names: exactly, or as the unique abbreviation of a long option (as argparse allows)."""
    if word in options:
        return options[word]
    if word.startswith("--") and len(word) > 2:
        actions = {id(a): a for o, a in options.items() if o.startswith(word)}
        if len(actions) == 1:
            return next(iter(actions.values()))
    return None


def attach_dash_values(words: Sequence[str], options: Mapping[str, argparse.Action]) -> list[str]:
    """``words`` with every one-value option followed by a minus-led value written ``--option=value``.

    Words after ``--`` are left as they are.
    """
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            return out + list(words[i:])
        nxt = words[i + 1] if i + 1 < len(words) else None
        if nxt is not None and _takes_one_value(_option_named(word, options)) and _is_dash_value(nxt, options):
            out.append(f"{word}={nxt}")
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def unrecognized(extras: Sequence[str], options: Sequence[str]) -> str:
    """The error for words no option or argument took, with the closest option for a misspelt one."""
    hints: list[tuple[str, str]] = []
    longs = [o for o in options if o.startswith("--")]
    for word in extras:
        name = word.split("=", 1)[0]
        near = difflib.get_close_matches(name, longs, n=1, cutoff=0.6) if name.startswith("-") else []
        if near:
            hints.append((name, near[0]))
    text = f"unrecognized arguments: {' '.join(extras)}"
    if len(hints) == 1:
        return f"{text}; did you mean {hints[0][1]}?"
    if hints:
        return f"{text}; did you mean {', '.join(f'{o} (for {w})' for w, o in hints)}?"
    return text
