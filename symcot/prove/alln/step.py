r"""The obligations of one CoT step at a symbolic step ``t`` (``0 ≤ t < T``), and of the base and the stop rule.

At step ``t`` the context is ``x_⊥, x_0 … x_{n-1}, y_0 … y_t`` (the statement's segments, then ``y``), every
earlier token as the induction hypothesis describes it (:mod:`symcot.prove.alln.engine`). Per layer:

* **attention** -- for every head and every case of its stated choice ``p*``: the cases cover every step;
  ``p*`` is in the context; and for every token class, a token ``u`` of that class (a fresh parameter over
  the whole class) scores at most ``p*``, and strictly less when it comes before ``p*`` (unique hard
  attention takes the smallest index among the maxima);
* **attention at the prompt tokens** -- for a head with a choice stated for a prompt segment's class (a later
  layer reads its output at ``x_u``), the same at ``x_u`` for a symbolic ``u``, in ``x_u``'s context: the
  tokens at positions up to ``x_u``'s (no generated token; that none of a later class is there is an
  obligation too);
* **cuts** -- the values the statement gives after the layer equal the computed ones, at every coordinate
  (a fresh index);
* **output** -- after the last layer, every block equals the statement's ``y_{t+1}`` (only the
  construction's ``encoding`` on the token the run stops at).

Base: the prompt's ``y_0`` is the statement's token at step 0. Stop rule: it does not fire on ``y_τ`` for
``τ < T`` and fires on ``y_T``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from symcot.constructions.alln import Y
from symcot.constructions.encoding import StopRule
from symcot.prove.alln.blocks import Unsupported, shape_of
from symcot.prove.alln.context import Context
from symcot.prove.alln.engine import Engine
from symcot.prove.alln.ops import as_arith, as_bool, fresh_int, reading
from symcot.prove.alln.sums import support_points


def _fresh_index(eng: Engine, block: str, layout: Any = None) -> tuple[Any, ...]:
    shape = shape_of((layout or eng.layout).size(block))
    return tuple(fresh_int(f"{block}_i{k}") for k in range(len(shape)))


def _txt(p: Any) -> str:
    return str(p) if not isinstance(p, int) else str(p)


def _prove_selection(eng: Engine, ctx: Context, k: int, head: Any, q: Any, cases: Sequence[tuple[Any, str, Any]],
                     in_context: Any, local: list[tuple[str, Any]], where: str, about: str,
                     out_of_context: Sequence[str] = (), show: Any = _txt) -> None:
    """The cases of a stated choice of ``head`` (layer ``k``), at a token whose query is ``q``.

    ``in_context(cls, p)``: token ``p`` of class ``cls`` is in that token's causal context. The cases cover every
    ``about`` (the step, or the token's index); each case's ``p*`` is in the context; every token ``u`` of every
    class in the context scores at most ``p*``, and strictly less when it comes before ``p*``. The classes in
    ``out_of_context`` come after the token: that none of theirs is in the context is an obligation too.
    """
    conds = [as_bool(cnd) for cnd, _, _ in cases]
    ctx.check(z3.Or(*conds), "step", where, f"the stated cases cover every {about}", local, k)
    for i, (_cnd, cls, p) in enumerate(cases):
        active = z3.And(conds[i], *[z3.Not(c) for c in conds[:i]])
        loc = [*local, (f"case {i + 1} of head {head.name}", active)]
        tgt = f"{cls}[{show(p)}]"
        try:
            ctx.check(in_context(cls, p), "step", f"{where}, case {i + 1}", f"the selected token {tgt} is in the "
                      "context", loc, k)
            ev_case = eng.evaluator(loc)
            tkey = ev_case.apply(head.key, eng.rep(cls, p, k - 1))
            ts = eng.score(q, tkey, head.key.dst, loc, f"score of {tgt}")
            tpos = eng.position(cls, p)
            for cls2 in eng.stmt.classes():
                u = fresh_int(f"{cls2}_u")
                if cls2 in out_of_context:
                    ctx.check(z3.Not(in_context(cls2, u)), "step", f"{where}, case {i + 1}",
                              f"no {cls2}[u] is in the context", loc, k)
                    continue
                loc2 = [*loc, (f"{cls2}[u] in the context", in_context(cls2, u))]
                key2 = eng.evaluator(loc2).apply(head.key, eng.rep(cls2, u, k - 1))
                s2 = eng.score(q, key2, head.key.dst, loc2, f"score of {cls2}[u]")
                goal = z3.And(s2 <= ts, z3.Implies(eng.position(cls2, u) < tpos, s2 < ts))
                ctx.check(goal, "step", f"{where}, case {i + 1}",
                          f"every {cls2}[u] scores ≤ {tgt}, and < when it comes before", loc2, k)
        except Unsupported as e:
            ctx.unsupported("step", f"{where}, case {i + 1}", f"select {tgt}", str(e), k)


def prove_head(eng: Engine, ctx: Context, k: int, head: Any, local: list[tuple[str, Any]]) -> None:
    """The attention obligations of ``head`` at layer ``k`` of the current step (at ``y_t``)."""
    t = eng.t
    where = f"head {head.name}"
    try:
        ev = eng.evaluator(local)
        q = ev.apply(head.query, eng.rep(Y, t, k - 1), f"Q_{head.name}")
        cases = list(eng.cases(k, head.name, Y, t))
    except Unsupported as e:
        ctx.unsupported("step", where, "the head's choice", str(e), k)
        return
    _prove_selection(eng, ctx, k, head, q, cases, lambda cls, p: eng.in_range(cls, p, t), local, where, "step")


def prove_input_head(eng: Engine, ctx: Context, k: int, head: Any, cls: str, local: list[tuple[str, Any]]) -> None:
    """The attention obligations of ``head`` at layer ``k`` at the prompt token ``cls[u]``, ``u`` symbolic.

    A prompt token does not depend on the step: its context is the tokens at positions up to its own (the
    segments before it and ``cls[0] … cls[u]``), and what ``head`` selects there is the choice stated for ``cls``.
    Proved once for every ``u`` (the engine uses it at every step, for every prompt token of the class).
    """
    u = fresh_int(f"{cls}_at")
    where = f"head {head.name} of layer {k} at {cls}[u]"
    loc = [*local, (f"{cls}[u] is a prompt token", eng.in_range(cls, u, eng.t))]
    upos = eng.position(cls, u)
    later = eng.stmt.classes()[eng.stmt.classes().index(cls) + 1:]
    try:
        ev = eng.evaluator(loc)
        q = ev.apply(head.query, eng.rep(cls, u, k - 1), f"Q_{head.name} at {cls}[u]")
        cases = list(eng.cases(k, head.name, cls, u))
    except Unsupported as e:
        ctx.unsupported("step", where, "the head's choice", str(e), k)
        return

    def in_context(cls2: str, p: Any) -> Any:
        return z3.And(eng.in_range(cls2, p, eng.t), eng.position(cls2, p) <= upos)

    def show(p: Any) -> str:  # the token's own index reads ``u``
        return _txt(z3.substitute(p, (u, z3.Int("u")))) if z3.is_expr(p) else _txt(p)

    _prove_selection(eng, ctx, k, head, q, cases, in_context, loc, where, f"{cls}[u]", later, show)


def prove_blocks(eng: Engine, ctx: Context, got: Any, want: Any, blocks: Sequence[str], local: list[tuple[str, Any]],
                 phase: str, where: str, layer: int | None, guards: dict[str, Any] | None = None) -> None:
    """``got[b] = want[b]`` at a fresh index of every block in ``blocks`` (under ``guards[b]`` where given)."""
    for b in blocks:
        try:
            idx = _fresh_index(eng, b)
            goal = got.read(b, idx) == want.read(b, idx)
            if guards and b in guards:
                goal = z3.Implies(guards[b], goal)
            ctx.check(goal, phase, f"{where} block {b}", f"{b}[i] as the statement says, for every i",
                      [*local, (f"{b} index", eng.block_range(b, idx))], layer)
        except Unsupported as e:
            ctx.unsupported(phase, f"{where} block {b}", f"{b}[i] as stated", str(e), layer)


def prove_step(eng: Engine, ctx: Context, encoding_blocks: dict[str, Any]) -> None:
    """Every obligation of step ``t`` (see the module docstring); ``encoding_blocks``: the construction's ``enc``."""
    t, c, stmt = eng.t, eng.c, eng.stmt
    base = list(eng.base)
    for k in range(1, len(eng.dec.layers) + 1):
        lay = eng.dec.layers[k - 1]
        if lay.attention is not None:
            for h in lay.attention.heads:
                for cls in stmt.classes()[:-1]:
                    if stmt.choice(k, h.name, cls) is not None:
                        prove_input_head(eng, ctx, k, h, cls, base)
                prove_head(eng, ctx, k, h, base)
        if k in stmt.cuts:
            try:
                raw = eng.layer(k, eng.rep(Y, t, k - 1), Y, t, base)
                cut = raw.with_blocks(eng.cut(k, t))
                prove_blocks(eng, ctx, raw, cut, list(stmt.cuts[k].blocks), base, "step", "after the layer,", k)
            except Unsupported as e:
                ctx.unsupported("step", "after the layer", "the stated values", str(e), k)
    try:
        out = eng.rep(Y, t, len(eng.dec.layers))
        nxt = eng.token(Y, t + 1)
    except Unsupported as e:
        ctx.unsupported("step", "output", "y_{t+1} as stated", str(e))
        return
    last = eng.steps()
    if stmt.last_token == "all":
        prove_blocks(eng, ctx, out, nxt, eng.layout.names, base, "step", "output y_{t+1}:", None)
        return
    prove_blocks(eng, ctx, out, nxt, eng.layout.names, [*base, ("y_{t+1} is not the last token", t + 1 < last)],
                 "step", "output y_{t+1} (t + 1 < T):", None)
    views = eng.views
    with reading("the encoding's guards"):
        guards = {b: as_bool(views[term.when](c, t + 1)) for b, term in encoding_blocks.items() if term.when}
    prove_blocks(eng, ctx, out, nxt, list(encoding_blocks), [*base, ("y_{t+1} is the last token", t + 1 == last)],
                 "step", "output y_T (t + 1 = T), encoded", None, guards)


def prove_base(eng: Engine, ctx: Context) -> None:
    """The prompt's ``y_0`` is the statement's token at step 0."""
    seg = eng.stmt.y0
    try:
        got = eng.encode(seg.encoding, {**eng.views, **seg.views}, z3.IntVal(0), False, "the prompt's y_0")
        want = eng.token(Y, z3.IntVal(0))
    except Unsupported as e:
        ctx.unsupported("base", "y_0", "the prompt's y_0 is the statement's token at step 0", str(e))
        return
    prove_blocks(eng, ctx, got, want, eng.layout.names, [], "base", "prompt y_0 = token at step 0:", None)


def prove_stop(eng: Engine, ctx: Context, stop: StopRule | None, encoding_blocks: Any = None) -> None:
    """The stop rule fires on ``y_T`` and on no earlier ``y_τ``.

    On ``y_T`` only the construction's ``enc`` blocks are proved (when the statement says so), so the rule
    must read one of them.
    """
    if stop is None:
        return
    b = stop.block
    if eng.stmt.last_token == "encoding" and encoding_blocks is not None and b not in encoding_blocks:
        ctx.unsupported("stop", f"block {b}", "the stop rule fires exactly at T",
                        f"the rule reads {b!r}, which the encoding does not compare on the last token")
        return
    last = eng.steps()
    tau = fresh_int("τ")
    try:
        tok = eng.token(Y, tau)
        j = fresh_int("j")
        val = tok.read(b, (j,))
        quant = z3.ForAll([j], z3.Implies(eng.block_range(b, (j,)), val == stop.value))
        points = support_points(val, j)
        if eng.stmt.stop_witness is not None:
            with reading("the statement's stop witness"):
                points.append(as_arith(eng.stmt.stop_witness(eng.c, tau)))
        inst = [(f"… at {p}", z3.Implies(eng.block_range(b, (p,)), z3.substitute(val, (j, p))
                                         == stop.value)) for p in points]
        ctx.check(z3.BoolVal(False), "stop", f"block {b}", f"the stop rule ({stop.describe()}) does not fire on y_τ, "
                  "τ < T", [("0 ≤ τ < T", z3.And(tau >= 0, tau < last)), ("the rule fires on y_τ", quant), *inst])
        fin = eng.token(Y, last)
        i = fresh_int("i")
        ctx.check(fin.read(b, (i,)) == stop.value, "stop", f"block {b}", "the stop rule fires on y_T",
                  [("index", eng.block_range(b, (i,)))])
    except Unsupported as e:
        ctx.unsupported("stop", f"block {b}", "the stop rule fires exactly at T", str(e))
