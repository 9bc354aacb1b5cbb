"""The C source of one decoder's kernel: its constants, the fixed part (``kernel.c``) and its generated functions.

``kernel.c`` (package data) holds what every kernel shares: the head selection, the row loop, the entry
points ``symcot_run`` and ``symcot_run_indexed``. This module generates what depends on the decoder: the
constants ``D``, ``CACHE_W``, ``RB_BYTES`` and ``ARGMAX_LAST`` before it, and after it the functions ``push``
(one token through every layer, as straight-line code with one ``int64_t`` variable per map coordinate, in a
checked and a plain form) and ``feedback`` (``y_t`` to the next token).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from importlib.resources import files
from typing import Any

from symcot.replay.native.bounds import fast_threshold
from symcot.replay.native.build import NativeError
from symcot.replay.native.emit import INT64_MAX, Emitter, Val, fits, lit
from symcot.replay.native.liveness import HeadLive, LayerLive, Terms, decoder_terms, liveness
from symcot.replay.scaling import IntMap, ScaledDecoder, ScaledHead

#: Bytes of prompts ``symcot_run`` copies out of its ``(P, d, B)`` input at a time (a block of rows).
BLOCK_BYTES = 1 << 20

#: The signature of the generated push functions.
_PUSH_ARGS = "const int64_t *restrict z, int64_t *restrict y, int64_t pos, int64_t *restrict cache"


@cache
def kernel_c() -> str:
    """The fixed part of every kernel: the text of ``kernel.c``."""
    return files("symcot.replay.native").joinpath("kernel.c").read_text(encoding="utf-8")


def emit_map(em: Emitter, m: IntMap, t: Terms, x: Callable[[int], Val], outputs: Iterable[int]) -> dict[int, Val]:
    """Evaluate the given outputs of ``m`` on inputs ``x(i)``: ``Σ const + Σ c·x_i + Σ c·x_i·x_j``, checked."""
    if m.identity:
        return {o: x(o) for o in outputs}
    out: dict[int, Val] = {}
    for o in outputs:
        acc: Val = em.const(t.const.get(o, 0))
        for i, c in t.lin.get(o, ()):
            acc = em.add(acc, em.mul(x(i), c))
        for i, j, c in t.quad.get(o, ()):
            acc = em.add(acc, em.mul(em.mul(x(i), x(j)), c))
        out[o] = acc
    return out


class _CacheRow:
    """The columns of one position's cache row: one per distinct cached value, and the running maxima."""

    def __init__(self, em: Emitter) -> None:
        self.em = em
        self.slots: dict[str, int] = {}  # variable -> its column (one column per distinct value)

    def store(self, v: str) -> int:
        """The column holding variable ``v`` (stored on first use)."""
        if v not in self.slots:
            self.slots[v] = len(self.slots)
            self.em.emit(f"row[{self.slots[v]}] = {v};")
        return self.slots[v]

    def column(self, name: str) -> int:
        """A new column for ``name`` (the caller writes it)."""
        self.slots[name] = len(self.slots)
        return self.slots[name]


def _emit_head(em: Emitter, row: _CacheRow, head: ScaledHead, th: dict[str, Terms], hl: HeadLive,
               z: dict[int, Val], vmax: str) -> dict[int, Val]:
    """One head of a push: cache its keys and values, select (``select_head``), return ``W_O``'s inputs from it."""
    em.emit(f"/* head {head.name} */")
    q = emit_map(em, head.q, th["q"], z.__getitem__, hl.dims)
    kk = emit_map(em, head.k, th["k"], z.__getitem__, hl.dims)
    vv = emit_map(em, head.v, th["v"], z.__getitem__, hl.vneed)
    dims = [c for c in hl.dims if q[c] != 0 and kk[c] != 0]
    kcol = {c: row.store(k) for c in dims if isinstance(k := kk[c], str)}
    vcol = {c: row.store(v) for c in hl.vneed if isinstance(v := vv[c], str)}
    for c in vcol:
        em.emit(f"{{ uint64_t a = uabs({vv[c]}); if (a > {vmax}) {vmax} = a; }}")
    # a constant key coordinate adds the same term to every score: computed (and checked) once
    fixed: Val = 0
    with em.checking():
        for c in dims:
            if c not in kcol:
                fixed = em.add(fixed, em.mul(kk[c], q[c]))
    # the running bound max_{i ≤ pos} max_c |K_i[c]| of this head's cached keys (own column)
    km = em.fresh()
    kmcol = row.column(km)
    em.emit(f"uint64_t {km} = pos > 0 ? (uint64_t)row[{kmcol} - CACHE_W] : 0;")
    for c in kcol:
        em.emit(f"{{ uint64_t a = uabs({kk[c]}); if (a > {km}) {km} = a; }}")
    em.emit(f"row[{kmcol}] = (int64_t){km};")
    # the query's non-zero coordinates (skipped at run time when zero)
    qv, qc, nq = em.fresh(), em.fresh(), em.fresh()
    em.emit(f"int64_t {qv}[{max(len(kcol), 1)}], {qc}[{max(len(kcol), 1)}]; int {nq} = 0;")
    for c in kcol:
        put = f"{{ {qv}[{nq}] = {em.value(q[c])}; {qc}[{nq}++] = {kcol[c]}; }}"
        em.emit(put if isinstance(q[c], int) else f"if ({q[c]} != 0) {put}")
    j = em.assign(f"select_head(cache, pos, {em.value(fixed)}, {qv}, {qc}, {nq}, {km}, &ovf)")
    vcat: dict[int, Val] = {}
    for c in hl.vneed:
        sel = em.assign(f"cache[{j} * CACHE_W + {vcol[c]}]") if c in vcol else vv[c]
        vcat[hl.offset + c] = em.mul(sel, head.v_up)
    return vcat


def emit_push(sd: ScaledDecoder, live: list[LayerLive], terms: list[dict[str, Any]],
              checked: bool) -> tuple[list[str], list[str]]:
    """The body of one push, checked or plain (the fast path), and the cache row's columns.

    Both versions compute the same values in the same order and lay the cache out alike (the columns are
    returned so that the caller can check it). The fast version still checks the constant-key part of the
    scores; ``select_head`` checks the scores unless its own bound proves them safe.
    """
    em = Emitter(checked)
    row = _CacheRow(em)
    has_values = any(hl.vneed for lv in live for hl in lv.heads)
    vm = "vmax"
    if has_values:  # running bound max_{i ≤ pos} |stored value| over every head (read by the fast-path test)
        vmcol = row.column(vm)
        em.emit(f"uint64_t {vm} = pos > 0 ? (uint64_t)row[{vmcol} - CACHE_W] : 0;")
    z: dict[int, Val] = {i: em.assign(f"z[{i}]") for i in live[0].z_need}
    for k, (lay, lv, tk) in enumerate(zip(sd.layers, live, terms)):
        em.emit(f"/* layer {k + 1} */")
        if lay.heads is not None:
            assert lay.w_o is not None
            vcat: dict[int, Val] = {}
            for hl in lv.heads:
                vcat.update(_emit_head(em, row, lay.heads[hl.index], tk[f"h{hl.index}"], hl, z, vm))
            alpha = emit_map(em, lay.w_o, tk["w_o"], vcat.__getitem__, lv.ffn_need)
            ffn_in = {c: em.add(em.mul(alpha[c], lay.alpha_up), em.mul(z[c], lay.z_up)) for c in lv.ffn_need}
        else:
            ffn_in = {c: z[c] for c in lv.ffn_need}
        pre = emit_map(em, lay.w1, tk["w1"], ffn_in.__getitem__, lv.hid_need)
        hidden = {c: em.relu(pre[c]) for c in lv.hid_need}
        z = emit_map(em, lay.w2, tk["w2"], hidden.__getitem__, lv.out_need)
    if has_values:
        em.emit(f"row[{row.slots[vm]}] = (int64_t){vm};")
    for i in range(sd.d):
        em.emit(f"y[{i}] = {em.value(z[i])};")
    return em.lines, list(row.slots)


def _push_function(name: str, body: list[str], comment: str) -> str:
    lines = [f"/* {comment} */",
             f"static __attribute__((noinline)) int {name}({_PUSH_ARGS}) {{",
             "    int ovf = 0;",
             "    int64_t *row = cache + pos * CACHE_W;",
             "    (void)row;",
             *(f"    {line}" for line in body),
             "    return ovf;",
             "}"]
    return "\n".join(lines) + "\n"


def _dispatch(sd: ScaledDecoder, live: list[LayerLive], cols: list[str], u: int | None) -> str:
    """``push``: the plain push when the token's live coordinates and every cached value are at most ``u``."""
    if u is None:
        body = ["/* no fast path: a constant does not fit int64 */"]
    else:
        zlive = live[0].z_need
        zmax = ("for (int64_t c = 0; c < D; c++) { uint64_t a = uabs(z[c]); if (a > m) m = a; }"
                if zlive == list(range(sd.d)) else
                " ".join(f"{{ uint64_t a = uabs(z[{i}]); if (a > m) m = a; }}" for i in zlive))
        vprev = f"(pos > 0 ? (uint64_t)cache[(pos - 1) * CACHE_W + {cols.index('vmax')}] : 0)" \
            if "vmax" in cols else "0"
        body = [f"uint64_t m = {vprev};", zmax, f"if (m <= (uint64_t){u}ULL) return push_plain(z, y, pos, cache);"]
    lines = ["/* The plain push when the token's live coordinates and every value cached so far are at most the",
             f"   threshold ({'none' if u is None else u}), else the checked one. */",
             f"static inline int push({_PUSH_ARGS}) {{",
             *(f"    {line}" for line in body),
             "    return push_checked(z, y, pos, cache);",
             "}"]
    return "\n".join(lines) + "\n"


def _feedback(sd: ScaledDecoder) -> str:
    """``feedback``: ``v·fb_num/fb_den`` exactly (status 2 when ``fb_den`` does not divide, 1 on overflow)."""
    body = []
    if sd.fb_den != 1:
        body += [f"if (*v % {lit(sd.fb_den)} != 0) return 2;", f"*v /= {lit(sd.fb_den)};"]
    if sd.fb_num != 1:
        body.append(f"if (__builtin_mul_overflow(*v, {lit(sd.fb_num)}, v)) return 1;" if fits(sd.fb_num)
                    else "if (*v != 0) return 1;")
    if not body:
        body = ["(void)v;"]
    lines = [f"/* y_t to the next token: v * {sd.fb_num} / {sd.fb_den} */",
             "static inline int feedback(int64_t *v) {", *(f"    {line}" for line in body), "    return 0;", "}"]
    return "\n".join(lines) + "\n"


def generate_source(sd: ScaledDecoder, argmax_last: bool = False, fast: bool = True,
                    block_bytes: int = BLOCK_BYTES) -> str:
    """The C source of the kernel for ``sd`` (see :mod:`symcot.replay.native`).

    Args:
        sd: the integer-scaled decoder.
        argmax_last: a deliberately *wrong* kernel (the head takes the largest index among the maximal scores),
            for tests that must detect it.
        fast: also generate the unchecked push, taken when :func:`fast_threshold` proves it safe.
        block_bytes: ``symcot_run`` copies the prompts of as many rows as fit in this many bytes at a time
            (at least 8, at most 256 rows).

    Returns:
        C source defining ``symcot_run`` and ``symcot_run_indexed`` (see :class:`NativeDecoder
        <symcot.replay.native.decoder.NativeDecoder>`).

    Raises:
        NativeError: the feedback denominator does not fit int64.

    """
    if not 1 <= sd.fb_den <= INT64_MAX:
        raise NativeError(f"feedback denominator {sd.fb_den} does not fit int64")
    terms = decoder_terms(sd)
    live = liveness(sd, terms)
    checked, cols = emit_push(sd, live, terms, True)
    u = fast_threshold(sd, live, terms) if fast else None
    parts = [_push_function("push_checked", checked, "One token through every layer, every operation that can "
                            "overflow checked.")]
    if u is not None:
        plain, cols2 = emit_push(sd, live, terms, False)
        assert cols2 == cols, "the two pushes must lay the cache out alike"
        parts.append(_push_function("push_plain", plain, "The same push in plain int64 operations: called only when "
                                    "fast_threshold proves that none overflows."))
    parts += [_dispatch(sd, live, cols, u), _feedback(sd)]
    note = " WRONG ON PURPOSE: argmax takes the last maximal index" if argmax_last else ""
    constants = (f"/* generated by symcot.replay.native: exact batched replay of one scaled decoder{note} */\n"
                 f"#define D {sd.d}\n#define CACHE_W {len(cols)}\n#define RB_BYTES {int(block_bytes)}\n"
                 f"#define ARGMAX_LAST {int(argmax_last)}\n\n")
    return constants + kernel_c() + "\n/* -- generated for this decoder -- */\n\n" + "\n".join(parts)
