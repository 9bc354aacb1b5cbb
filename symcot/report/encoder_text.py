"""An encoder's run as a plain-text table, one column per position, cut into column groups to fit the terminal.

Rows, top to bottom: the input symbols and the blocks of each token (positional encoding included); per layer,
what each head attended to at each position -- the position (unique hard attention), the set it averaged
(``{1,2}``, average hard attention), or the weight on each key position (softmax; one row per key) -- and the
blocks after the layer (those that changed, or all of them); then the readout, the reference's value and
whether they match. Exact numbers print as ``p/q``; a value that is not rational prints as the certified
interval ``[lo,hi]``, its bounds rounded outwards to four significant digits.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any

from symcot.check.encoder_trace import EncoderTrace, HeadTrace, LayerTrace
from symcot.model.description import MASKS
from symcot.model.interval import is_ball, is_exact
from symcot.report.fit import cut, wrap

#: Significant digits of an interval's printed bounds.
DIGITS = 4
Row = tuple[str, list[str]] | str  # a labelled row of cells, or a line of text across the table


def _decimal(x: Fraction, rounding: str) -> str:
    ctx = Context(prec=DIGITS, rounding=rounding)
    d = ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    return format(d, "f") if -6 < d.adjusted() < DIGITS + 2 else str(d)


def fmt(v: Any) -> str:
    """An exact number as ``p/q``, a ball as ``[lo,hi]`` (outward rounded), a bool as 1/0, a vector as ``[…]``."""
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(fmt(x) for x in v) + "]"
    if isinstance(v, bool):
        return "1" if v else "0"
    if is_ball(v):
        if is_exact(v):
            return fmt(v.lower)
        return f"[{_decimal(v.lower, ROUND_FLOOR)},{_decimal(v.upper, ROUND_CEILING)}]"
    return str(v)


def _block_values(vec: list[Any], blocks: list[tuple[str, int]]) -> dict[str, str]:
    out, off = {}, 0
    for name, size in blocks:
        part = vec[off:off + size]
        out[name] = fmt(part[0]) if size == 1 else fmt(part)
        off += size
    return out


def _head_rows(head: HeadTrace, n: int) -> list[Row]:
    """What ``head`` attended to at each position (one row, or one row per key position under softmax)."""
    marks = ["≠" if head.differs(i) else "" for i in range(n)]
    rows: list[Row] = []
    if head.rule.attention.kind == "softmax":
        for j in range(n):
            weights = [dict(head.weights[i]).get(j) for i in range(n)]
            rows.append((f"  head {head.name}: α(j={j})", ["—" if w is None else fmt(w) for w in weights]))
    else:
        cells = []
        for i in range(n):
            got = head.attended(i)
            if not got:
                cells.append("—" + marks[i])
            elif head.rule.attention.kind == "unique" or len(got) == 1:
                cells.append(f"{got[0]}{marks[i]}")
            else:
                cells.append("{" + ",".join(map(str, got)) + "}" + marks[i])
        rows.append((f"  head {head.name} attends", cells))
    if any(marks):
        rows.append(("    expected", ["?" if w is None else (",".join(map(str, w)) or "—") for w in head.expected]))
    return rows


def _kind_text(head: HeadTrace) -> str:
    a = head.rule.attention
    what = {"unique": f"the {a.tie} maximal position", "average": "the maximal set, equal weights",
            "softmax": "softmax weights"}[a.kind]
    return f"head {head.name}: mask {head.rule.mask} ({MASKS[head.rule.mask]}), {a.label()}: {what}"


def _layer_rows(lay: LayerTrace, before: dict[int, dict[str, str]], blocks: list[tuple[str, int]], n: int,
                all_blocks: bool) -> tuple[list[Row], dict[int, dict[str, str]]]:
    rows: list[Row] = [f"layer {lay.layer}" + ("" if lay.heads else ": trivial attention")]
    rows += [f"  ({_kind_text(h)})" for h in lay.heads]
    for h in lay.heads:
        rows += _head_rows(h, n)
    after = {i: _block_values(lay.outputs[i], blocks) for i in range(n)}
    same = [b for b, _ in blocks if all(after[i][b] == before[i][b] for i in range(n))]
    for b, _ in blocks:
        if all_blocks or b not in same:
            rows.append((f"  {b}", [after[i][b] for i in range(n)]))
    if same and not all_blocks:
        rows.append(f"  unchanged: {', '.join(same)}")
    return rows, after


def _readout_rows(t: EncoderTrace) -> list[Row]:
    n = len(t.string)

    def show(v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, bool):
            return "accept" if v else "reject"
        return fmt(v[0]) if isinstance(v, list) and len(v) == 1 else fmt(v)

    marks = {"ok": "ok", "differs": "DIFFERS", "undecided": "?", None: ""}
    return [("readout", [show(t.readouts[i]) for i in range(n)]),
            ("reference", [show(t.reference[i]) for i in range(n)]),
            ("match", [marks[t.verdicts[i]] for i in range(n)])]


def table_rows(t: EncoderTrace, all_blocks: bool = False) -> list[Row]:
    """Every row of the table (module docstring)."""
    n = len(t.string)
    before = {i: _block_values(t.inputs[i], t.blocks) for i in range(n)}
    rows: list[Row] = [("position", [str(i) for i in range(n)]), ("input", list(t.string))]
    rows += [(f"  {b}", [before[i][b] for i in range(n)]) for b, _ in t.blocks]
    for lay in t.layers:
        lines, before = _layer_rows(lay, before, t.blocks, n, all_blocks)
        rows += lines
    return rows + _readout_rows(t)


def _groups(widths: list[int], label: int, width: int | None) -> list[list[int]]:
    """Consecutive positions whose columns fit ``width`` after the label column (at least one each)."""
    if width is None:
        return [list(range(len(widths)))]
    groups: list[list[int]] = [[]]
    used = label
    for i, w in enumerate(widths):
        if groups[-1] and used + 2 + w > width:
            groups.append([])
            used = label
        groups[-1].append(i)
        used += 2 + w
    return groups


def render_table(rows: list[Row], width: int | None) -> list[str]:
    """The rows as aligned columns, cut into column groups that fit ``width`` (``None``: one group)."""
    cells = [r for r in rows if not isinstance(r, str)]
    label = max(len(r[0]) for r in cells)
    n = len(cells[0][1])
    room = None if width is None else max(width - label - 2, 8)
    data = [(lab, [cut(c, room) for c in cs]) for lab, cs in cells]
    widths = [max(len(cs[i]) for _, cs in data) for i in range(n)]
    groups = _groups(widths, label, width)
    out: list[str] = []
    for g in groups:
        if len(groups) > 1:
            out.append(cut(f"positions {g[0]}–{g[-1]} of 0–{n - 1}", width))
        it = iter(data)
        for r in rows:
            if isinstance(r, str):
                indent = " " * (len(r) - len(r.lstrip()))
                out += wrap(r.strip(), width, indent, indent + "  ")
                continue
            lab, cs = next(it)
            out.append((lab.ljust(label) + "".join("  " + cs[i].rjust(widths[i]) for i in g)).rstrip())
        if len(groups) > 1:
            out.append("")
    return out


def _legend(t: EncoderTrace, text: str) -> list[str]:
    kinds = {h.rule.attention.kind for lay in t.layers for h in lay.heads}
    out = []
    if "average" in kinds:
        out.append("{a,b}: average hard attention, equal weight on each position of the set")
    if "softmax" in kinds:
        out.append("α(j=k): the softmax weight of key position k at each query position")
    if "—" in text:
        out.append("—: the mask leaves no position (the head outputs 0) or no weight")
    if "≠" in text:
        out.append("≠: attended elsewhere than the check expects (the expected row)")
    if _has_ball(t):
        out.append(f"[lo,hi]: not rational; a certified interval, bounds rounded outwards to {DIGITS} digits")
    return out


def _has_ball(t: EncoderTrace) -> bool:
    """Whether any value or weight of the run is a ball that is not exact (printed as an interval)."""
    values: list[Any] = [v for z in t.inputs for v in z]
    for lay in t.layers:
        values += [v for z in lay.outputs for v in z]
        values += [w for h in lay.heads for ws in h.weights for _, w in ws]
    values += [v for r in t.readouts if isinstance(r, list) for v in r]
    return any(is_ball(v) and not is_exact(v) for v in values)


def _tail(t: EncoderTrace) -> list[str]:
    """What differs from the check's expectations, what is undecided, or one ``ok`` line."""
    n = len(t.string)
    out = []
    for lay in t.layers:
        for h in lay.heads:
            wrong = [str(i) for i in range(n) if h.differs(i)]
            if wrong:
                out.append(f"MISMATCH layer {lay.layer} head {h.name}: attends elsewhere than the check expects at "
                           f"position{'s' if len(wrong) > 1 else ''} {', '.join(wrong)}")
    rows = _readout_rows(t)
    got, want = rows[0], rows[1]
    assert not isinstance(got, str) and not isinstance(want, str)
    out += [f"MISMATCH at position {i}: readout {got[1][i]}, reference {want[1][i]}"
            for i, v in enumerate(t.verdicts) if v == "differs"]
    out += [f"undecided: {msg}" for msg in t.undecided.values()]
    return out or ["ok: the readout matches the reference at " + ("the last position" if t.recogniser else
                                                                 "every position")]


def render_encoder(t: EncoderTrace, width: int | None = None, all_blocks: bool = False) -> str:
    """The whole replay: a heading, the table, a legend, and one line saying whether the readout matches."""
    word = "".join(t.string) if all(len(a) == 1 for a in t.string) else " ".join(t.string)
    head = [*wrap(f"{t.title} on w = {word} (n = {len(t.string)})", width),
            *wrap(f"model: {t.description}", width), *wrap(f"readout: {t.readout}", width), ""]
    body = render_table(table_rows(t, all_blocks), width)
    text = "\n".join(body)
    legend = [ln for x in _legend(t, text) for ln in wrap(x, width)]
    tail = [ln for x in _tail(t) for ln in wrap(x, width)]
    return "\n".join(head + body + ([""] + legend if legend else []) + [""] + tail)
