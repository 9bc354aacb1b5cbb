"""Every name a construction's statements use, checked when the statement and the construction are made.

A block of a :class:`~symcot.constructions.encoding.StateEncoding` (the construction's ``encoding``, a prompt
segment's, the all-n statement's ``token`` and ``cuts``), the block of a stop rule, the view a term reads, the head
a :class:`~symcot.constructions.alln.Choice` names and its layer: a name that the decoder's layout, the decoder or
the statement's views do not have is a :class:`~symcot.errors.StatementNameError` at once, in one line: where the
name was written (the ``site`` each statement records when it is made), the name, the names that exist and the
closest of them. Without this check a typo surfaces late, as a bare ``KeyError`` in a checker or as a statement
"false on a concrete run".

* :func:`check_views` runs when an :class:`~symcot.constructions.alln.AllNStatement` is made (the views are its own);
* :func:`check_construction` runs when a :class:`~symcot.constructions.base.Construction` is made (the blocks and
  heads are its decoder's).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from symcot.errors import StatementNameError, did_you_mean

#: Names listed in a message at most (the closest first when there are more).
LISTED = 24


def _listing(name: str, known: Collection[str]) -> str:
    names = sorted(known)
    if len(names) <= LISTED:
        return ", ".join(names) if names else "none"
    import difflib

    near = difflib.get_close_matches(name, names, n=LISTED, cutoff=0.0)
    return ", ".join(near) + f", … ({len(names) - LISTED} more)"


def unknown_name(site: str, what: str, kind: str, name: str, known: Collection[str], where: str) -> StatementNameError:
    """``site: what names kind 'x', but where has no kind 'x' (kinds: …); did you mean 'y'?``."""
    loc = f"{site}: " if site else ""
    return StatementNameError(f"{loc}{what} names {kind} {name!r}, but {where} has no {kind} of that name "
                              f"({kind}s: {_listing(name, known)}){did_you_mean(name, known)}")


def _enc_blocks(enc: Any, what: str, layout: Any) -> None:
    names = set(layout.names)
    for b in enc.blocks:
        if b not in names:
            raise unknown_name(enc.site, what, "block", b, layout.names, f"layout {layout.name!r}")


def _enc_views(enc: Any, what: str, views: Collection[str]) -> None:
    for b, term in enc.blocks.items():
        for name in (term.field, term.when):
            if name is not None and name not in views:
                raise unknown_name(term.site or enc.site, f"{what} (block {b})", "view", name, views,
                                   "the statement")


def check_views(stmt: Any) -> None:
    """Every view the statement's encodings read is a view of the vocabulary, the statement or the segment.

    Raises:
        StatementNameError: a term reads a view that none of them defines.

    """
    views = set(stmt.all_views())
    for seg in (*stmt.segments, stmt.y0):
        _enc_views(seg.encoding, f"prompt segment {seg.cls!r}", views | set(seg.views))
    _enc_views(stmt.token, "the all-n statement's token", views)
    for layer, enc in stmt.cuts.items():
        _enc_views(enc, f"the all-n statement's cut after layer {layer}", views)


def _heads(decoder: Any, layer: int) -> list[str]:
    lay = decoder.layers[layer - 1]
    return [h.name for h in lay.attention.heads] if lay.attention is not None else []


def _layer(site: str, what: str, layer: Any, decoder: Any) -> None:
    count = len(decoder.layers)
    if not isinstance(layer, int) or not 1 <= layer <= count:
        loc = f"{site}: " if site else ""
        raise StatementNameError(f"{loc}{what} names layer {layer!r}, but decoder {decoder.name!r} has layers "
                                 f"1 to {count}")


def _choices(choices: Iterable[Any], decoder: Any) -> None:
    for ch in choices:
        what = f"a choice at layer {ch.layer}"
        _layer(ch.site, what, ch.layer, decoder)
        heads = _heads(decoder, ch.layer)
        if ch.head not in heads:
            raise unknown_name(ch.site, what, "head", ch.head, heads, f"layer {ch.layer} of decoder {decoder.name!r}")


def check_statement(stmt: Any, decoder: Any) -> None:
    """The all-n statement's blocks, layers and heads against ``decoder``."""
    layout = decoder.layout
    for seg in (*stmt.segments, stmt.y0):
        _enc_blocks(seg.encoding, f"prompt segment {seg.cls!r}", layout)
    _enc_blocks(stmt.token, "the all-n statement's token", layout)
    for layer, enc in stmt.cuts.items():
        what = f"the all-n statement's cut after layer {layer}"
        _layer(enc.site or stmt.site, what, layer, decoder)
        _enc_blocks(enc, what, layout)
    for layer, block in stmt.quotes:
        if block not in layout.names:
            raise unknown_name(stmt.site, f"the all-n statement's quotes (layer {layer})", "block", block,
                               layout.names, f"layout {layout.name!r}")
    _choices(stmt.choices, decoder)


def check_construction(cons: Any) -> None:
    """The construction's encoding, stop rule and all-n statement against its decoder.

    Raises:
        StatementNameError: a block, layer or head that the decoder does not have.

    """
    decoder = getattr(cons, "decoder", None)
    layout = getattr(decoder, "layout", None)
    if layout is None:
        return
    _enc_blocks(cons.encoding, f"{type(cons).__name__}.encoding", layout)
    stop = cons.stop
    if stop is not None and stop.block not in layout.names:
        raise unknown_name(stop.site, f"{type(cons).__name__}.stop", "block", stop.block, layout.names,
                           f"layout {layout.name!r}")
    if cons.all_n is not None:
        check_statement(cons.all_n, decoder)
