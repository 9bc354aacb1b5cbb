"""Native exact batched replay: one decoder as generated straight-line C, compiled once and run through ctypes.

The numpy engine (:mod:`symcot.replay.batched`) is memory-bound on the sparse maps of the constructions. This
module generates, for one :class:`~symcot.replay.scaling.ScaledDecoder`, a C function that pushes one token
through every layer with one local ``int64_t`` variable per map coordinate, compiles it with the system C
compiler (``$CC``, else ``cc``/``gcc``) into a cache directory and runs a whole batch of prompts in one ctypes
call (the loop over rows is in C; rows are independent).

**Semantics** (those of :meth:`symcot.replay.batched._State.push` and :meth:`BatchedDecoder.run
<symcot.replay.batched.BatchedDecoder.run>`, hence of :mod:`symcot.model.semantics`), per row ``b``: push the
``P`` prompt tokens (scale ``s_token``) one by one; then for ``t = 1 … steps[b]``: ``y_t`` is the output of
the last push (scale ``s_out``), ``outs[b, t-1] = y_t``, and if ``t < steps[b]`` the next token
``y_t·fb_num/fb_den`` is pushed. A push of ``z``, layer by layer: for each head, ``K(z)`` and ``V(z)`` are
cached at this position, ``q = Q(z)``, every cached position ``i`` scores ``⟨K_i, q⟩`` and the head selects
the *smallest* index among the maximal scores; ``α = W_O(values · v_up) · alpha_up``; ``ffn_in = α + z·z_up``
(``ffn_in = z`` without heads); ``z = W_2(max(W_1(ffn_in), 0))``.

**Exactness.** Every value is an exact integer (the scaling of :mod:`symcot.replay.scaling`). Each push has
two compiled forms computing the same values in the same order:

- *checked*: every multiplication, addition and negation that can overflow is done with
  ``__builtin_mul_overflow`` / ``__builtin_add_overflow`` / ``__builtin_sub_overflow``; only operations
  that cannot overflow (copies, multiplications by 0 or 1, additions of 0, ReLU, comparisons) are plain;
- *plain* (the fast path): plain int64 operations, taken only when the magnitudes of the token's live
  coordinates and of every value cached so far (a running maximum kept in the cache) are at most the
  threshold :func:`fast_threshold` computes in exact integers, which proves that no operation of the push
  overflows.

In both, the attention scores are computed by ``select_head``, plainly where the product of the running key
maximum and ``Σ|q|`` proves them safe, checked otherwise. A row on which any checked operation overflows is
abandoned with status 1 (the checks cover every partial sum in the generated order, so status 1 may also be
reported where only a partial sum or an unselected score leaves int64: it is conservative, never wrong).
The feedback ``y·fb_num/fb_den`` is exact: since ``gcd(fb_num, fb_den) = 1``, ``fb_den`` divides ``y·fb_num``
iff it divides ``y``; otherwise the row is abandoned with status 2. A row with status 0 therefore carries
exactly the values of exact replay. The argmax and ReLU compare exact integers.

**What is computed.** Coordinates that nothing downstream reads (not the final output, nor a key, query or
value the selection or ``W_O`` uses) are not computed at all (a backward liveness pass); coordinates that are
copies of others are aliases, and map outputs that are constants are folded into the code. Only the key
coordinates where both ``K`` and ``Q`` can be non-zero are cached and scored, and only the value coordinates
``W_O`` reads. A head none of whose value coordinates ``W_O`` reads is skipped. None of this changes an exact
result: the skipped values never reach the output.

**Shared prompt prefixes.** The caches of one call are reused row after row; when a row's prompt agrees with
the previous row's on its first ``k ≤ P - 1`` tokens (and those positions were computed without overflow),
those ``k`` positions are not pushed again: their cached keys and values depend only on those tokens.

**Entry points.** :meth:`NativeDecoder.run` takes the ``(P, d, B)`` token array of
:meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>` (copied into row-major blocks
inside C); :meth:`NativeDecoder.run_indexed` takes the distinct tokens and a ``(B, P)`` index instead
(:func:`index_prompts`), which avoids building that array at all.

The shared library's file name is the sha256 of the compiler, the flags and the source; it is written to a
temporary file and renamed atomically into the cache directory (``$SYMCOT_CACHE`` or
``~/.cache/symcot/native``), so concurrent processes may compile the same kernel.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from symcot.errors import DimensionError, SymcotError
from symcot.replay.scaling import IntMap, ScaledDecoder
from symcot.replay.tokens import exact_table, intern_tokens

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
#: Flags of every kernel (the optimisation level is added per decoder).
BASE_FLAGS = ("-shared", "-fPIC")
#: Bytes of prompts ``symcot_run`` copies out of its ``(P, d, B)`` input at a time (a block of rows).
BLOCK_BYTES = 1 << 20
#: The optimisation level used by default (see the benchmark for compile times).
DEFAULT_OPT = "-O2"

Val = str | int  # a C expression of type int64_t (a variable or array element) or a folded constant


class NativeError(SymcotError):
    """The C compiler is missing or failed, or the native kernel could not run."""


# -- compiler and cache -------------------------------------------------------------------------------


def _compiler() -> str | None:
    """The C compiler: ``$CC`` if set, else ``cc`` or ``gcc`` on the ``PATH`` (``None`` when there is none)."""
    cc = os.environ.get("CC")
    if cc:
        return shutil.which(cc) or (cc if os.path.isfile(cc) else None)
    return shutil.which("cc") or shutil.which("gcc")


def cache_dir() -> Path:
    """The directory of compiled kernels: ``$SYMCOT_CACHE`` or ``~/.cache/symcot/native`` (created)."""
    env = os.environ.get("SYMCOT_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "symcot" / "native"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return base
    except OSError:
        fallback = Path(tempfile.gettempdir()) / f"symcot-native-{os.getuid() if hasattr(os, 'getuid') else 0}"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def _build(source: str, flags: tuple[str, ...]) -> tuple[Path, float]:
    """Compile ``source`` into the cache (or find it there).

    Args:
        source: the C source.
        flags: compiler flags (the output and input file names are added).

    Returns:
        ``(path of the shared library, seconds spent compiling)`` (``0.0`` when it was in the cache).

    Raises:
        NativeError: no compiler, or the compiler failed.

    """
    cc = _compiler()
    if cc is None:
        raise NativeError("no C compiler found (set $CC or install cc/gcc)")
    key = hashlib.sha256("\0".join([cc, *flags, source]).encode()).hexdigest()
    d = cache_dir()
    out = d / f"{key}.so"
    if out.exists():
        return out, 0.0
    t0 = time.perf_counter()
    fd, src = tempfile.mkstemp(dir=d, prefix=f".{key[:16]}-", suffix=".c")
    with os.fdopen(fd, "w") as f:
        f.write(source)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=f".{key[:16]}-", suffix=".so")
    os.close(fd)
    try:
        res = subprocess.run([cc, *flags, "-o", tmp, src], capture_output=True, text=True)
        if res.returncode != 0:
            raise NativeError(f"{cc} failed ({res.returncode}): {res.stderr.strip()[:2000]}")
        os.replace(tmp, out)  # atomic: another process compiling the same kernel writes the same bytes
    finally:
        for p in (src, tmp):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
    return out, time.perf_counter() - t0


_PROBE = """#include <stdint.h>
int symcot_probe(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
"""


@functools.lru_cache(maxsize=1)
def native_available() -> bool:
    """Whether a C compiler works here: a probe using ``__builtin_mul_overflow`` compiles and loads (cached)."""
    try:
        path, _ = _build(_PROBE, (DEFAULT_OPT, *BASE_FLAGS))
        lib = ctypes.CDLL(str(path))
        r = ctypes.c_int64()
        f = lib.symcot_probe
        f.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]
        f.restype = ctypes.c_int
        return f(2**62, 2, ctypes.byref(r)) == 1 and f(3, -5, ctypes.byref(r)) == 0 and r.value == -15
    except (NativeError, OSError, subprocess.SubprocessError):
        return False


# -- code generation ----------------------------------------------------------------------------------


def _lit(c: int) -> str:
    """A C literal of type ``int64_t`` for ``c`` (which fits int64)."""
    return "INT64_MIN" if c == INT64_MIN else f"((int64_t){c}LL)"


def _fits(c: int) -> bool:
    return INT64_MIN <= c <= INT64_MAX


class _Emitter:
    """Straight-line C in int64 arithmetic; constants are folded, zeros and ones simplified, repeats shared.

    Values are :data:`Val`: a C expression (``str``) or a Python ``int`` that fits int64. An operation whose
    exact result is known not to fit emits ``ovf = 1``; one that may overflow sets ``ovf`` through a
    ``__builtin_*_overflow`` check, unless the emitter is *plain* (``checked=False``: for the fast path,
    whose caller has proved that nothing overflows).
    """

    def __init__(self, checked: bool = True) -> None:
        self.lines: list[str] = []
        self.n = 0
        self.memo: dict[tuple[str, Val, Val], str] = {}  # common subexpressions (same check, same value)
        self.checked = checked  # False: plain int64 operations (only where a bound proves they cannot overflow)

    @contextlib.contextmanager
    def checking(self) -> Iterator[None]:
        """Operations emitted inside are checked even in an unchecked emitter."""
        was, self.checked = self.checked, True
        try:
            yield
        finally:
            self.checked = was

    def _op(self, op: str, a: Val, b: Val, line: Callable[[str], str]) -> str:
        """A new variable ``v`` set by ``line(v)``, or the one already computing ``(op, a, b)``."""
        key = (op, a, b)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.fresh()
            self.emit(line(got))
        return got

    def emit(self, line: str) -> None:
        """Append one line of C."""
        self.lines.append(line)

    def fresh(self) -> str:
        """A new local variable name."""
        self.n += 1
        return f"v{self.n}"

    def const(self, c: int) -> Val:
        """The constant ``c``; if it does not fit int64 the push overflows (``ovf = 1``)."""
        if _fits(c):
            return c
        self.emit("ovf = 1;")
        return 0

    def assign(self, expr: str) -> str:
        """A new variable holding the (unchecked) expression ``expr``."""
        v = self.fresh()
        self.emit(f"const int64_t {v} = {expr};")
        return v

    def neg(self, a: Val) -> Val:
        """``-a``, checked (``-INT64_MIN`` overflows)."""
        if isinstance(a, int):
            return self.const(-a)
        if not self.checked:
            return self._op("neg", a, 0, lambda v: f"const int64_t {v} = -{a};")
        return self._op("neg", a, 0, lambda v: f"int64_t {v}; ovf |= __builtin_sub_overflow((int64_t)0, {a}, &{v});")

    def mul(self, a: Val, b: Val) -> Val:
        """``a·b``, checked (``b`` may be any Python ``int``, e.g. a coefficient beyond int64)."""
        if isinstance(a, int):
            a, b = b, a
        if isinstance(a, int):
            assert isinstance(b, int)
            return self.const(a * b)
        if isinstance(b, int):
            if b == 0:
                return 0
            if b == 1:
                return a
            if b == -1:
                return self.neg(a)
            if not _fits(b):  # |a·b| ≥ |b| > int64 unless a = 0
                self.emit(f"ovf |= ({a} != 0);")
                return 0
        return self._binary("mul", a, b)

    def add(self, a: Val, b: Val) -> Val:
        """``a + b``, checked."""
        if isinstance(a, int) and isinstance(b, int):
            return self.const(a + b)
        if isinstance(a, int):
            a, b = b, a
        if b == 0:
            return a
        return self._binary("add", a, b)

    def _binary(self, op: str, a: Val, b: Val) -> str:
        """``a + b`` or ``a·b`` (``op`` ``add``/``mul``) of a variable and a variable or int64 constant."""
        if isinstance(b, int):
            bs = _lit(b)
        else:
            a, b = min(str(a), b), max(str(a), b)  # one order for commuted operands: one shared variable
            bs = b
        sym = {"add": "+", "mul": "*"}[op]
        if not self.checked:
            return self._op(op, a, b, lambda v: f"const int64_t {v} = {a} {sym} {bs};")
        return self._op(op, a, b, lambda v: f"int64_t {v}; ovf |= __builtin_{op}_overflow({a}, {bs}, &{v});")

    def relu(self, a: Val) -> Val:
        """``max(a, 0)`` (cannot overflow)."""
        if isinstance(a, int):
            return max(a, 0)
        return self._op("relu", a, 0, lambda v: f"const int64_t {v} = {a} > 0 ? {a} : 0;")

    def value(self, a: Val) -> str:
        """``a`` as a C expression."""
        return _lit(a) if isinstance(a, int) else a


@dataclass
class _Terms:
    """The terms of one map grouped by output: constant, linear ``(i, c)`` and quadratic ``(i, j, c)``."""

    const: dict[int, int]
    lin: dict[int, list[tuple[int, int]]]
    quad: dict[int, list[tuple[int, int, int]]]


def _terms(m: IntMap) -> _Terms:
    const: dict[int, int] = {}
    lin: dict[int, list[tuple[int, int]]] = {}
    quad: dict[int, list[tuple[int, int, int]]] = {}
    for o, c in m.const:
        const[o] = const.get(o, 0) + c
    for o, i, c in m.lin:
        lin.setdefault(o, []).append((i, c))
    for o, i, j, c in m.quad:
        quad.setdefault(o, []).append((i, j, c))
    return _Terms(const, lin, quad)


def _reads(m: IntMap, t: _Terms, outputs: Iterable[int]) -> set[int]:
    """The input coordinates that the given outputs of ``m`` read."""
    if m.identity:
        return set(outputs)
    got: set[int] = set()
    for o in outputs:
        got.update(i for i, _ in t.lin.get(o, ()))
        for i, j, _ in t.quad.get(o, ()):
            got.update((i, j))
    return got


def _nonzero(m: IntMap, t: _Terms, o: int) -> bool:
    """Whether output ``o`` of ``m`` has any term (an output with none is the constant 0)."""
    return m.identity or bool(t.const.get(o, 0) or t.lin.get(o) or t.quad.get(o))


def _emit_map(em: _Emitter, m: IntMap, t: _Terms, x: Callable[[int], Val], outputs: Iterable[int]) -> dict[int, Val]:
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


@dataclass
class _HeadLive:
    """What one head must compute: candidate score dimensions and the value coordinates ``W_O`` reads."""

    index: int
    dims: list[int]  # key/query coordinates where both K and Q have terms
    vneed: list[int]  # value coordinates read by W_O (for the needed outputs)
    offset: int  # offset of this head's value in W_O's input (the concatenation)


@dataclass
class _LayerLive:
    """The coordinates one layer must compute (a backward liveness pass from the full output)."""

    z_need: list[int]  # input coordinates read
    ffn_need: list[int]  # W_1 inputs (ffn_in) needed
    hid_need: list[int]  # W_1 outputs (hidden) needed
    out_need: list[int]  # W_2 outputs needed
    heads: list[_HeadLive]


def _liveness(sd: ScaledDecoder, terms: list[dict[str, Any]]) -> list[_LayerLive]:
    """Per layer, the coordinates that reach the final output ``y`` (every coordinate of the last layer)."""
    need = set(range(sd.d))
    live: list[_LayerLive] = []
    for k in range(len(sd.layers) - 1, -1, -1):
        lay, tk = sd.layers[k], terms[k]
        out_need = sorted(need)
        hid = _reads(lay.w2, tk["w2"], out_need)
        ffn = _reads(lay.w1, tk["w1"], hid)
        zneed = set(ffn)  # the residual z·z_up (or ffn_in = z without heads)
        heads: list[_HeadLive] = []
        if lay.heads is not None:
            assert lay.w_o is not None
            vcat = _reads(lay.w_o, tk["w_o"], ffn)
            off = 0
            for h, head in enumerate(lay.heads):
                vneed = sorted(c - off for c in vcat if off <= c < off + head.v.d_out)
                if vneed:
                    th = tk[f"h{h}"]
                    dims = [c for c in range(head.k.d_out)
                            if _nonzero(head.k, th["k"], c) and _nonzero(head.q, th["q"], c)]
                    zneed |= _reads(head.v, th["v"], vneed)
                    zneed |= _reads(head.k, th["k"], dims) | _reads(head.q, th["q"], dims)
                    heads.append(_HeadLive(h, dims, vneed, off))
                off += head.v.d_out
        live.append(_LayerLive(sorted(zneed), sorted(ffn), sorted(hid), out_need, heads))
        need = zneed
    live.reverse()
    return live


def _decoder_terms(sd: ScaledDecoder) -> list[dict[str, Any]]:
    """Per layer, the grouped terms of every map (``w1``, ``w2``, ``w_o`` and ``h<i>`` → ``q``/``k``/``v``)."""
    terms: list[dict[str, Any]] = []
    for lay in sd.layers:
        tk: dict[str, Any] = {"w1": _terms(lay.w1), "w2": _terms(lay.w2)}
        if lay.heads is not None:
            assert lay.w_o is not None
            tk["w_o"] = _terms(lay.w_o)
            for h, head in enumerate(lay.heads):
                tk[f"h{h}"] = {"q": _terms(head.q), "k": _terms(head.k), "v": _terms(head.v)}
        terms.append(tk)
    return terms


def _emit_push(sd: ScaledDecoder, live: list[_LayerLive], terms: list[dict[str, Any]],
               checked: bool) -> tuple[list[str], list[str]]:
    """The body of one push (module docstring), checked or plain (the fast path), and the cache row's columns.

    Both versions compute the same values in the same order and lay the cache out alike (the columns are
    returned so that the caller can check it). The fast version still checks the constant-key part of the
    scores; ``select_head`` checks the scores unless its own bound proves them safe.
    """
    em = _Emitter(checked)
    slots: dict[str, int] = {}  # variable -> its column in the cache row (one column per distinct value)

    def slot(v: str) -> int:
        if v not in slots:
            slots[v] = len(slots)
            em.emit(f"row[{slots[v]}] = {v};")
        return slots[v]

    def column(name: str) -> int:
        slots[name] = len(slots)
        return slots[name]

    has_values = any(hl.vneed for lv in live for hl in lv.heads)
    vm = "vmax"
    if has_values:  # running bound max_{i ≤ pos} |stored value| over every head (read by the fast-path test)
        vmcol = column(vm)
        em.emit(f"uint64_t {vm} = pos > 0 ? (uint64_t)row[{vmcol} - CACHE_W] : 0;")
    z: dict[int, Val] = {i: em.assign(f"z[{i}]") for i in live[0].z_need}
    for k, (lay, lv, tk) in enumerate(zip(sd.layers, live, terms)):
        em.emit(f"/* layer {k + 1} */")
        if lay.heads is not None:
            assert lay.w_o is not None
            vcat: dict[int, Val] = {}
            for hl in lv.heads:
                head, th = lay.heads[hl.index], tk[f"h{hl.index}"]
                em.emit(f"/* head {head.name} */")
                q = _emit_map(em, head.q, th["q"], z.__getitem__, hl.dims)
                kk = _emit_map(em, head.k, th["k"], z.__getitem__, hl.dims)
                vv = _emit_map(em, head.v, th["v"], z.__getitem__, hl.vneed)
                dims = [c for c in hl.dims if q[c] != 0 and kk[c] != 0]
                kcol = {c: slot(kk[c]) for c in dims if isinstance(kk[c], str)}
                vcol = {c: slot(vv[c]) for c in hl.vneed if isinstance(vv[c], str)}
                for c in vcol:
                    em.emit(f"{{ uint64_t a = uabs({vv[c]}); if (a > {vm}) {vm} = a; }}")
                # a constant key coordinate adds the same term to every score: computed (and checked) once
                fixed: Val = 0
                with em.checking():
                    for c in dims:
                        if c not in kcol:
                            fixed = em.add(fixed, em.mul(kk[c], q[c]))
                # the running bound max_{i ≤ pos} max_c |K_i[c]| of this head's cached keys (own column)
                km = em.fresh()
                kmcol = column(km)
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
                for c in hl.vneed:
                    sel = em.assign(f"cache[{j} * CACHE_W + {vcol[c]}]") if c in vcol else vv[c]
                    vcat[hl.offset + c] = em.mul(sel, head.v_up)
            alpha = _emit_map(em, lay.w_o, tk["w_o"], vcat.__getitem__, lv.ffn_need)
            ffn_in = {c: em.add(em.mul(alpha[c], lay.alpha_up), em.mul(z[c], lay.z_up)) for c in lv.ffn_need}
        else:
            ffn_in = {c: z[c] for c in lv.ffn_need}
        pre = _emit_map(em, lay.w1, tk["w1"], ffn_in.__getitem__, lv.hid_need)
        hidden = {c: em.relu(pre[c]) for c in lv.hid_need}
        z = _emit_map(em, lay.w2, tk["w2"], hidden.__getitem__, lv.out_need)
    if has_values:
        em.emit(f"row[{slots[vm]}] = (int64_t){vm};")
    for i in range(sd.d):
        em.emit(f"y[{i}] = {em.value(z[i])};")
    return em.lines, list(slots)


def _map_bound(m: IntMap, t: _Terms, outputs: Iterable[int]) -> Callable[[dict[int, int]], dict[int, int]]:
    """Per-output bounds ``|c_0| + Σ|c_i|·b_i + Σ|c_ij|·b_i·b_j`` from per-input bounds ``b`` (exact integers).

    With every input ``|x_i| ≤ b_i`` this bounds every partial sum and product the generated code forms for
    those outputs (a quadratic term's ``|x_i·x_j| ≤ b_i·b_j ≤ |c|·b_i·b_j``).
    """
    outs = list(outputs)
    if m.identity:
        return lambda b: {o: b[o] for o in outs}
    polys = [(o, abs(t.const.get(o, 0)), [(i, abs(c)) for i, c in t.lin.get(o, ())],
              [(i, j, abs(c)) for i, j, c in t.quad.get(o, ())]) for o in outs]
    return lambda b: {o: c0 + sum(c * b[i] for i, c in lin) + sum(c * b[i] * b[j] for i, j, c in quad)
                      for o, c0, lin, quad in polys}


def fast_threshold(sd: ScaledDecoder, live: list[_LayerLive] | None = None,
                   terms: list[dict[str, Any]] | None = None) -> int | None:
    """The largest ``U`` such that a push is overflow-free whenever its token and every cached value are ``≤ U``.

    The bound follows one push layer by layer in exact integers, one bound per coordinate (the interval
    rules of :func:`symcot.replay.scaling.push_bound`): the token's live coordinates and the values cached at
    earlier positions are at most ``U``; the queries, keys and values are bounded by their maps' bounds, a
    selected value by the larger of ``U`` and its value bound, then ``W_O``, the up-scalings, the residual
    sum, ``W_1`` (ReLU keeps the bound) and ``W_2`` (the next layer's input). Scores are not included:
    ``select_head`` checks its own bound. ``None`` when even ``U = 0`` fails (a constant beyond int64).
    """
    terms = terms if terms is not None else _decoder_terms(sd)
    live = live if live is not None else _liveness(sd, terms)
    stages: list[Any] = []
    for lay, lv, tk in zip(sd.layers, live, terms):
        heads = []
        if lay.heads is not None:
            for hl in lv.heads:
                head, th = lay.heads[hl.index], tk[f"h{hl.index}"]
                heads.append((_map_bound(head.q, th["q"], hl.dims), _map_bound(head.k, th["k"], hl.dims),
                              _map_bound(head.v, th["v"], hl.vneed), head.v_up, hl))
        w_o = _map_bound(lay.w_o, tk["w_o"], lv.ffn_need) if lay.w_o is not None else None
        stages.append((heads, w_o, lay.alpha_up, lay.z_up, lv.ffn_need, _map_bound(lay.w1, tk["w1"], lv.hid_need),
                       _map_bound(lay.w2, tk["w2"], lv.out_need)))
    z_need = live[0].z_need

    def top(u: int) -> int:
        b = {i: u for i in z_need}
        big = u
        for heads, w_o, alpha_up, z_up, ffn_need, w1, w2 in stages:
            if w_o is not None:
                vcat: dict[int, int] = {}
                for bq, bk, bv, v_up, hl in heads:
                    qb, kb, vb = bq(b), bk(b), bv(b)
                    big = max(big, *qb.values(), *kb.values(), *vb.values())
                    for c in hl.vneed:
                        vcat[hl.offset + c] = max(u, vb[c]) * v_up
                big = max(big, *vcat.values())
                alpha = w_o(vcat)
                ffn = {c: alpha[c] * alpha_up + b[c] * z_up for c in ffn_need}
                big = max(big, *(alpha[c] * alpha_up for c in ffn_need), *(b[c] * z_up for c in ffn_need),
                          *ffn.values())
            else:
                ffn = b
            hidden = w1(ffn)
            b = w2(hidden)
            big = max(big, *hidden.values(), *b.values())
        return big

    if top(0) > INT64_MAX:
        return None
    lo, hi = 0, 1  # top(lo) fits: grow hi until it does not, then bisect (top is non-decreasing)
    while top(hi) <= INT64_MAX:
        lo, hi = hi, 2 * hi
        if hi > INT64_MAX:
            return INT64_MAX if top(INT64_MAX) <= INT64_MAX else lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if top(mid) <= INT64_MAX:
            lo = mid
        else:
            hi = mid
    return lo


def generate_source(sd: ScaledDecoder, argmax_last: bool = False, fast: bool = True,
                    block_bytes: int = BLOCK_BYTES) -> str:
    """The C source of the kernel for ``sd`` (see the module docstring).

    Args:
        sd: the integer-scaled decoder.
        argmax_last: a deliberately *wrong* kernel (the head takes the largest index among the maximal scores),
            for tests that must detect it.
        fast: also generate the unchecked push, taken when :func:`fast_threshold` proves it safe.
        block_bytes: ``symcot_run`` copies the prompts of as many rows as fit in this many bytes at a time
            (at least 8, at most 256 rows).

    Returns:
        C source defining ``symcot_run`` and ``symcot_run_indexed`` (see :class:`NativeDecoder`).

    """
    if not 1 <= sd.fb_den <= INT64_MAX:
        raise NativeError(f"feedback denominator {sd.fb_den} does not fit int64")
    terms = _decoder_terms(sd)
    live = _liveness(sd, terms)
    checked, cols = _emit_push(sd, live, terms, True)
    u = fast_threshold(sd, live, terms) if fast else None
    if u is not None:
        plain, cols2 = _emit_push(sd, live, terms, False)
        assert cols2 == cols, "the two pushes must lay the cache out alike"
        zlive = live[0].z_need
        zmax = ("for (int64_t c = 0; c < D; c++) { uint64_t a = uabs(z[c]); if (a > m) m = a; }"
                if zlive == list(range(sd.d)) else
                " ".join(f"{{ uint64_t a = uabs(z[{i}]); if (a > m) m = a; }}" for i in zlive))
        vprev = f"(pos > 0 ? (uint64_t)cache[(pos - 1) * CACHE_W + {cols.index('vmax')}] : 0)" \
            if "vmax" in cols else "0"
        dispatch = (f"uint64_t m = {vprev};\n    {zmax}\n"
                    f"    if (m <= (uint64_t){u}ULL) return push_plain(z, y, pos, cache);")
    else:
        plain, dispatch = [], "/* no fast path: a constant does not fit int64 */"
    fb = []
    if sd.fb_den != 1:
        fb.append(f"if (v % {_lit(sd.fb_den)} != 0) {{ st = 2; break; }}")
        fb.append(f"v /= {_lit(sd.fb_den)};")
    if sd.fb_num != 1:
        if _fits(sd.fb_num):
            fb.append(f"if (__builtin_mul_overflow(v, {_lit(sd.fb_num)}, &v)) {{ st = 1; break; }}")
        else:
            fb.append("if (v != 0) { st = 1; break; }")
    plain_fn = _PLAIN.format(body="\n    ".join(plain)) if plain else ""
    return _TEMPLATE.format(block_bytes=int(block_bytes), d=sd.d, cmp=">=" if argmax_last else ">",
                            last=int(argmax_last), width=len(cols),
                            checked="\n    ".join(checked), plain=plain_fn, dispatch=dispatch,
                            threshold="none" if u is None else str(u), feedback="\n            ".join(fb),
                            note="WRONG ON PURPOSE: argmax takes the last maximal index" if argmax_last else "")


_PLAIN = """/* The same push with plain int64 operations: called only when every input magnitude is at most the
   threshold of fast_threshold, which proves that none of them overflows (the constant-key part of the
   scores is still checked, and select_head checks the scores unless its own bound proves them safe). */
static __attribute__((noinline)) int push_plain(const int64_t *restrict z, int64_t *restrict y, int64_t pos,
                                                int64_t *restrict cache) {{
    int ovf = 0;
    int64_t *row = cache + pos * CACHE_W;
    (void)row;
    {body}
    return ovf;
}}
"""


_TEMPLATE = """/* generated by symcot.replay.native: exact batched replay of one scaled decoder {note} */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define D {d}
#define CACHE_W {width}
#define RB_BYTES {block_bytes}

#define BETTER(s, best) ((s) {cmp} (best))  /* the head keeps the first maximal index */
#define ARGMAX_LAST {last}

static inline uint64_t uabs(int64_t x) {{ return x < 0 ? -(uint64_t)x : (uint64_t)x; }}

/* Unique hard attention over the cached positions 0..pos: the smallest index i maximising
   fixed + sum_r K_i[qc[r]] * qv[r] (K_i = cache + i * CACHE_W). kmax bounds |K_i[c]| for every such i and c:
   when kmax * sum_r |qv[r]| + |fixed| fits int64, no partial sum can overflow and the scores are computed
   unchecked; otherwise every product and sum is checked (overflow sets *ovf). */
static inline int64_t select_head(const int64_t *cache, int64_t pos, int64_t fixed, const int64_t *qv,
                                  const int64_t *qc, int nq, uint64_t kmax, int *ovf) {{
    uint64_t qs = uabs(fixed), bnd = 0;
    int big = 0;
    for (int r = 0; r < nq; r++) big |= __builtin_add_overflow(bnd, uabs(qv[r]), &bnd);
    big |= __builtin_mul_overflow(kmax, bnd, &bnd);
    big |= __builtin_add_overflow(bnd, qs, &bnd);
    big |= bnd > (uint64_t)INT64_MAX;
    int64_t best = 0, j = 0;
    const int64_t *kr = cache;
    if (nq == 0) return ARGMAX_LAST ? pos : 0;  /* every score is `fixed` */
    if (!big && nq == 1) {{
        const int64_t c = qc[0], q = qv[0];
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {{
            int64_t s = fixed + kr[c] * q;
            if (i == 0 || BETTER(s, best)) {{ best = s; j = i; }}
        }}
    }} else if (!big) {{
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {{
            int64_t s = fixed;
            for (int r = 0; r < nq; r++) s += kr[qc[r]] * qv[r];
            if (i == 0 || BETTER(s, best)) {{ best = s; j = i; }}
        }}
    }} else {{
        int o = 0;
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {{
            int64_t s = fixed, t;
            for (int r = 0; r < nq; r++) {{
                o |= __builtin_mul_overflow(kr[qc[r]], qv[r], &t);
                o |= __builtin_add_overflow(s, t, &s);
            }}
            if (i == 0 || BETTER(s, best)) {{ best = s; j = i; }}
        }}
        *ovf |= o;
    }}
    return j;
}}

/* One token z (D coordinates) through every layer at position pos, every operation that can overflow
   checked; the output goes to y (D coordinates). Returns 1 when one overflowed (the values are then
   meaningless). */
static __attribute__((noinline)) int push_checked(const int64_t *restrict z, int64_t *restrict y, int64_t pos,
                                                  int64_t *restrict cache) {{
    int ovf = 0;
    int64_t *row = cache + pos * CACHE_W;
    (void)row;
    {checked}
    return ovf;
}}

{plain}
/* The plain push when the token's live coordinates and every value cached so far are at most the
   threshold ({threshold}), else the checked one. */
static inline int push(const int64_t *restrict z, int64_t *restrict y, int64_t pos, int64_t *restrict cache) {{
    {dispatch}
    return push_checked(z, y, pos, cache);
}}

/* One row: its prompt positions start..P-1 (tokens tok[p]; positions < start are cached already), then its
   chain of thought of sb >= 1 steps into ob (sb rows of D). *valid counts the prompt positions now cached. */
static int run_row(const int64_t *const *tokp, int64_t P, int64_t start, int64_t sb, int64_t *ob, int64_t *cache,
                   int64_t *valid) {{
    int64_t scratch[D > 0 ? D : 1], tok[D > 0 ? D : 1];
    int st = 0;
    *valid = start;
    for (int64_t p = start; p < P; p++) {{
        if (push(tokp[p], p == P - 1 ? ob : scratch, p, cache)) {{ memset(ob, 0, sizeof(int64_t) * D); return 1; }}
        *valid = p + 1;
    }}
    for (int64_t t = 1; t < sb; t++) {{
        const int64_t *yt = ob + (t - 1) * D;
        for (int64_t c = 0; c < D; c++) {{
            int64_t v = yt[c];
            {feedback}
            tok[c] = v;
        }}
        if (st) return st;
        if (push(tok, ob + t * D, P + t - 1, cache)) {{ memset(ob + t * D, 0, sizeof(int64_t) * D); return 1; }}
    }}
    return 0;
}}

/* toks is (P, D, B). Rows are taken in blocks of RB: the block's prompts are first copied into buf, each row's
   P tokens contiguous (reading toks line by line rather than one page per coordinate). A row whose first
   tokens equal those of the last row run reuses their cached positions. */
int symcot_run(const int64_t *toks, int64_t P, int64_t B, const int64_t *steps, int64_t T, int64_t *outs,
               int8_t *status) {{
    const int64_t N = P + (T > 0 ? T - 1 : 0), PD = P * D;
    int64_t RB = PD > 0 ? (int64_t)(RB_BYTES / (8 * PD)) : 256;
    RB = RB < 8 ? 8 : RB > 256 ? 256 : RB;
    int64_t *cache = (int64_t *)malloc((size_t)(N * CACHE_W > 0 ? N * CACHE_W : 1) * sizeof(int64_t));
    int64_t *buf = (int64_t *)malloc((size_t)(RB * PD + PD + 1) * sizeof(int64_t));
    const int64_t **tokp = (const int64_t **)malloc((size_t)P * sizeof(int64_t *));
    if (!cache || !buf || !tokp) {{ free(cache); free(buf); free(tokp); return -1; }}
    int64_t *lastbuf = buf + RB * PD;  /* the prompt of the last row run, kept across blocks */
    const int64_t *last = NULL;  /* that row's tokens; cache positions < valid hold its prompt positions */
    int64_t valid = 0;
    for (int64_t b0 = 0; b0 < B; b0 += RB) {{
        const int64_t nb = B - b0 < RB ? B - b0 : RB;
        for (int64_t p = 0; p < P; p++)
            for (int64_t c = 0; c < D; c++) {{
                const int64_t *src = toks + (p * D + c) * B + b0;
                int64_t *dst = buf + p * D + c;
                for (int64_t r = 0; r < nb; r++) dst[r * PD] = src[r];
            }}
        for (int64_t r = 0; r < nb; r++) {{
            const int64_t b = b0 + r;
            const int64_t *tb = buf + r * PD;
            status[b] = 0;
            if (steps[b] <= 0) continue;
            int64_t start = 0;
            if (last != NULL) {{
                const int64_t lim = valid < P - 1 ? valid : P - 1;
                while (start < lim && memcmp(tb + start * D, last + start * D, sizeof(int64_t) * D) == 0) start++;
            }}
            for (int64_t p = 0; p < P; p++) tokp[p] = tb + p * D;
            last = tb;
            status[b] = (int8_t)run_row(tokp, P, start, steps[b], outs + b * T * D, cache, &valid);
        }}
        if (last != NULL && last != lastbuf) {{
            memcpy(lastbuf, last, sizeof(int64_t) * PD);
            last = lastbuf;
        }}
    }}
    free(cache);
    free(buf);
    free(tokp);
    return 0;
}}

/* The same with the prompts given as distinct tokens table (U, D) and indices index (B, P) into it. A row
   whose first indices equal those of the last row run reuses their cached positions. */
int symcot_run_indexed(const int64_t *table, const int64_t *index, int64_t P, int64_t B, const int64_t *steps,
                       int64_t T, int64_t *outs, int8_t *status) {{
    const int64_t N = P + (T > 0 ? T - 1 : 0);
    int64_t *cache = (int64_t *)malloc((size_t)(N * CACHE_W > 0 ? N * CACHE_W : 1) * sizeof(int64_t));
    const int64_t **tokp = (const int64_t **)malloc((size_t)P * sizeof(int64_t *));
    if (!cache || !tokp) {{ free(cache); free(tokp); return -1; }}
    const int64_t *last = NULL;
    int64_t valid = 0;
    for (int64_t b = 0; b < B; b++) {{
        const int64_t *ib = index + b * P;
        status[b] = 0;
        if (steps[b] <= 0) continue;
        int64_t start = 0;
        if (last != NULL) {{
            const int64_t lim = valid < P - 1 ? valid : P - 1;
            while (start < lim && ib[start] == last[start]) start++;
        }}
        for (int64_t p = 0; p < P; p++) tokp[p] = table + ib[p] * D;
        last = ib;
        status[b] = (int8_t)run_row(tokp, P, start, steps[b], outs + b * T * D, cache, &valid);
    }}
    free(cache);
    free(tokp);
    return 0;
}}
"""


# -- the decoder ------------------------------------------------------------------------------------


class NativeDecoder:
    """One scaled decoder as a compiled native kernel (generated C, checked int64 arithmetic; module docstring).

    Attributes:
        sd: the scaled decoder.
        source: the generated C source.
        library: the path of the shared library.
        compile_seconds: seconds spent compiling (``0.0`` when the library was found in the cache).

    """

    def __init__(self, sd: ScaledDecoder, *, opt: str = DEFAULT_OPT, _argmax_last: bool = False,
                 _fast: bool = True, _block_bytes: int = BLOCK_BYTES):
        """Generate the C source for ``sd``, compile it (or load it from the cache) and bind it with ctypes.

        Args:
            sd: the integer-scaled decoder (``BatchedDecoder(dec).scaled(token_scale)``).
            opt: the optimisation flag (``-O2`` by default; ``-O1`` compiles faster).
            _argmax_last: private: build a deliberately wrong kernel (last maximal index), for negative tests.
            _fast: private: ``False`` leaves out the plain (unchecked, bound-proved) push, for tests.
            _block_bytes: private: the prompt block size of ``symcot_run`` (small in tests, to cross blocks).

        Raises:
            NativeError: no compiler, the compiler failed, or a scale does not fit int64.

        """
        self.sd = sd
        self.source = generate_source(sd, argmax_last=_argmax_last, fast=_fast, block_bytes=_block_bytes)
        self.library, self.compile_seconds = _build(self.source, (opt, *BASE_FLAGS))
        lib = ctypes.CDLL(str(self.library))
        fn = lib.symcot_run
        p = ctypes.c_void_p
        i64 = ctypes.c_int64
        fn.argtypes = [p, i64, i64, p, i64, p, p]
        fn.restype = ctypes.c_int
        fx = lib.symcot_run_indexed
        fx.argtypes = [p, p, i64, i64, p, i64, p, p]
        fx.restype = ctypes.c_int
        self._lib, self._fn, self._fn_indexed = lib, fn, fx

    def run(self, toks: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Run every row's chain of thought exactly.

        Args:
            toks: ``(P, d, B)`` int64 prompt tokens at scale ``sd.s_token`` (each prompt ending with ``y_0``),
                as :meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>` returns them.
            steps: ``(B,)`` non-negative step counts.

        Returns:
            ``(outs, status)``: ``outs`` is ``(B, T, d)`` int64 at scale ``sd.s_out`` with ``T = max(steps)``
            (``outs[b, t-1] = s_out·y_t``), ``status`` is ``(B,)`` int8: 0 exact, 1 an int64 operation would
            overflow (row abandoned), 2 ``y_t·fb_num`` not divisible by ``fb_den`` at feedback (row abandoned).
            Outputs beyond a row's steps or after its abandonment are 0.

        Raises:
            DimensionError: shapes that do not fit the decoder.
            TypeError: tokens that are not integers within int64 (e.g. the object arrays of huge tokens).
            NativeError: the kernel could not allocate its caches.

        """
        toks = np.asarray(toks)
        if toks.dtype.kind not in "iub":
            raise TypeError(f"native replay needs int64 tokens, got dtype {toks.dtype}")
        toks = np.ascontiguousarray(toks, dtype=np.int64)
        if toks.ndim != 3 or toks.shape[1] != self.sd.d:
            raise DimensionError(f"tokens must be (P, d={self.sd.d}, B); got shape {toks.shape}")
        n_pos, d, batch = toks.shape
        if n_pos < 1:
            raise DimensionError("the prompt must contain at least y_0")
        st, outs, status = _prepare(steps, batch, d)
        if batch:
            rc = self._fn(toks.ctypes.data, n_pos, batch, st.ctypes.data, outs.shape[1], outs.ctypes.data,
                          status.ctypes.data)
            if rc != 0:
                raise NativeError("the native kernel could not allocate its caches")
        return outs, status

    def run_indexed(self, table: np.ndarray, index: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`run` on prompts given as distinct tokens: token ``p`` of row ``b`` is ``table[index[b, p]]``.

        No ``(P, d, B)`` array is built: rows read their tokens from ``table``, and a row whose first indices
        equal the previous row's reuses those cached positions. :func:`index_prompts` builds both from prompts.

        Args:
            table: ``(U, d)`` int64 distinct tokens at scale ``sd.s_token``.
            index: ``(B, P)`` indices into ``table``.
            steps: ``(B,)`` non-negative step counts.

        Returns:
            ``(outs, status)`` as :meth:`run`.

        Raises:
            DimensionError: shapes that do not fit the decoder.
            IndexError: an index outside ``table``.
            TypeError: tokens that are not integers within int64.
            NativeError: the kernel could not allocate its caches.

        """
        table = np.asarray(table)
        if table.dtype.kind not in "iub":
            raise TypeError(f"native replay needs int64 tokens, got dtype {table.dtype}")
        table = np.ascontiguousarray(table, dtype=np.int64)
        idx = np.ascontiguousarray(np.asarray(index, dtype=np.int64))
        if table.ndim != 2 or table.shape[1] != self.sd.d:
            raise DimensionError(f"the token table must be (U, d={self.sd.d}); got shape {table.shape}")
        if idx.ndim != 2 or idx.shape[1] < 1:
            raise DimensionError(f"the index must be (B, P) with P ≥ 1; got shape {idx.shape}")
        if idx.size and (idx.min() < 0 or idx.max() >= table.shape[0]):
            raise IndexError("a token index outside the table")
        batch, n_pos = idx.shape
        st, outs, status = _prepare(steps, batch, self.sd.d)
        if batch:
            rc = self._fn_indexed(table.ctypes.data, idx.ctypes.data, n_pos, batch, st.ctypes.data, outs.shape[1],
                                  outs.ctypes.data, status.ctypes.data)
            if rc != 0:
                raise NativeError("the native kernel could not allocate its caches")
        return outs, status


def _prepare(steps: Any, batch: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Checked step counts ``(B,)`` int64 and zeroed ``outs`` ``(B, max(steps), d)`` and ``status`` ``(B,)``."""
    st = np.ascontiguousarray(np.asarray(steps, dtype=np.int64))
    if st.shape != (batch,):
        raise DimensionError(f"{st.shape} step counts for {batch} prompts")
    if (st < 0).any():
        raise ValueError("step counts must be non-negative")
    t_max = int(st.max(initial=0))
    return st, np.zeros((batch, t_max, d), dtype=np.int64), np.zeros(batch, dtype=np.int8)


def index_prompts(prompts: Sequence[Sequence[Sequence[Any]]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Prompts (``B`` lists of ``P`` exact tokens) as ``(table, index, token scale)`` for ``run_indexed``.

    The distinct tokens are found as :meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>`
    finds them (by identity, then by value) and scaled to integers the same way; ``table`` is ``(U, d)`` int64
    and ``index`` ``(B, P)``.

    Raises:
        DimensionError: prompts or tokens of different lengths.
        TypeError: tokens whose scaled values do not fit int64.

    """
    if len({len(p) for p in prompts}) > 1:
        raise DimensionError("prompts of different lengths in one batch")
    table, index = intern_tokens(prompts)
    table, scale = exact_table(table)
    if table.dtype == object:
        raise TypeError("token values beyond int64 at the token scale: native replay cannot hold them")
    return table, index, scale


__all__ = ["NativeDecoder", "NativeError", "cache_dir", "generate_source", "index_prompts", "native_available"]
