r"""Sums over a block of symbolic size, valued only through two stated lemmas.

A dot product or ``1ᵀ v`` with ``n`` symbolic is ``Σ_{j<N} f(j)``; Z3 has no such term, so the prover
values it by one of two lemmas, each with a premise proved as an obligation at the place it is used:

* **L1 (finite support).** If ``f(j) = 0`` for every ``j ∈ [0, N)`` outside the points ``c_1 … c_k``, then
  ``Σ_{j<N} f(j) = Σ_l [0 ≤ c_l < N, c_l ∉ {c_1 … c_{l-1}}] f(c_l)``. The points are read off ``f``: the
  terms ``c`` with ``j = c`` inside it (a one-hot block ``e_c`` contributes ``c``), so ``⟨e_c, v⟩ = v_c``.
* **L2 (0/1 terms).** If ``f(j) ∈ {0, 1}`` for every ``j ∈ [0, N)``, the sum is an integer ``s`` with
  ``0 ≤ s ≤ N``; ``s ≥ 1`` gives a witness ``w ∈ [0, N)`` with ``f(w) = 1``, and ``s = 0`` gives
  ``f(j) = 0`` for every ``j ∈ [0, N)``.

Both are proved by induction on ``N`` (:func:`prove_lemmas`: Z3 checks the base and the step of each, with
``S(N + 1) = S(N) + f(N)`` and ``f`` uninterpreted; L1 for up to three points); the hand proof is in
docs/all-n.md. Where neither premise holds the sum is not valued and the obligation is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

from symcot.lemmas.walker import as_real
from symcot.prove.alln.context import Context, EarlyStop, Obligation
from symcot.prove.alln.ops import fresh_int

L1 = "L1 (finite support)"
L2 = "L2 (0/1 terms)"


def _contains(e: z3.ExprRef, x: z3.ExprRef) -> bool:
    if z3.is_app(e) and e.num_args() == 0:
        return e.eq(x)
    return any(_contains(a, x) for a in e.children())


def support_points(e: z3.ExprRef, j: z3.ExprRef) -> list[Any]:
    """The terms ``c`` (free of ``j``) such that ``j = c`` occurs in ``e``, in order of first occurrence."""
    out: list[Any] = []
    seen: set[int] = set()
    todo = [e]
    visited: set[int] = set()
    while todo:
        x = todo.pop()
        if x.get_id() in visited:
            continue
        visited.add(x.get_id())
        if z3.is_eq(x):
            a, b = x.arg(0), x.arg(1)
            for u, v in ((a, b), (b, a)):
                if u.eq(j) and not _contains(v, j) and v.get_id() not in seen:
                    seen.add(v.get_id())
                    out.append(v)
        todo.extend(reversed(x.children()))
    return out


class Summer:
    """Values sums for one :class:`Context`; ``local`` are the hypotheses of the place the sum is read."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.layer: int | None = None
        self.phase = "sum"
        self._consts: dict[tuple[str, str], tuple[Any, Any]] = {}
        self._proved: dict[tuple[tuple[str, str], str], Any] = {}

    def value(self, size: Any, body: Callable[[Any], Any], what: str, local: Sequence[tuple[str, Any]] = ()) -> Any:
        """``Σ_{j<size} body(j)`` by L1 or L2 (a failed premise is logged and leaves the sum unconstrained).

        ``local`` are the hypotheses of the place the sum is read; the premise is proved under them and the
        conclusion (a side fact) is guarded by them. The same sum (same size, same terms) read again is the
        same value: one constant per sum, with a side fact per place its premise was proved.
        """
        j = z3.Int("j!sum")
        f = as_real(body(j))
        key = (str(size), z3.simplify(f).sexpr())
        guard = z3.And(*[g for _, g in local]) if local else z3.BoolVal(True)
        done = self._proved.get((key, guard.sexpr()))
        if done is not None:
            return done
        in_range = [("index range", z3.And(j >= 0, j < size))]
        points = support_points(f, j)
        off = [(f"j ≠ {p}", j != p) for p in points]
        where = f"Σ {what}"
        ob = self.ctx.check(f == 0, self.phase, where, f"every term off {[str(p) for p in points]} is 0",
                            [*local, *in_range, *off], self.layer, f"premise of {L1}", record=False)
        if ob.ok:
            self._log(ob)
            terms = []
            for k, p in enumerate(points):
                cond = z3.And(p >= 0, p < size, *[p != q for q in points[:k]])
                terms.append(z3.If(cond, z3.substitute(f, (j, p)), z3.RealVal(0)))
            val = sum(terms[1:], terms[0]) if terms else z3.RealVal(0)
            self._proved[(key, guard.sexpr())] = val
            return val
        ob2 = self.ctx.check(z3.Or(f == 0, f == 1), self.phase, where, "every term is 0 or 1",
                             [*local, *in_range], self.layer, f"premise of {L2}", record=False)
        self._log(ob2)
        if key not in self._consts:
            self._consts[key] = (fresh_int("s"), fresh_int("w"))
        s, w = self._consts[key]
        if not ob2.ok:
            return z3.ToReal(s)
        k = z3.Int("k!")
        concl = z3.And(
            s >= 0, s <= size,
            z3.Implies(s >= 1, z3.And(w >= 0, w < size, z3.substitute(f, (j, w)) == 1)),
            z3.Implies(s == 0, z3.ForAll([k], z3.Implies(z3.And(k >= 0, k < size), z3.substitute(f, (j, k)) == 0))))
        self.ctx.add_side(f"{L2}: {what}", z3.Implies(guard, concl), s)
        self._proved[(key, guard.sexpr())] = z3.ToReal(s)
        return z3.ToReal(s)

    def _log(self, ob: Obligation) -> None:
        self.ctx.log.append(ob)
        if self.ctx.stop_early and not ob.ok:
            raise EarlyStop(ob.line())


def _rec_sum(f: Any, name: str) -> tuple[Any, list[Any]]:
    """``S`` with ``S(0) = 0`` and ``S(N + 1) = S(N) + f(N)`` for ``N ≥ 0`` (the sum's definition)."""
    S = z3.Function(name, z3.IntSort(), z3.RealSort())
    N = z3.Int("N")
    return S, [S(0) == 0, z3.ForAll([N], z3.Implies(N >= 0, S(N + 1) == S(N) + f(N)))]


def prove_lemmas(ctx: Context, max_points: int = 3) -> list[Obligation]:
    """Z3 proofs of L1 (up to ``max_points`` points) and L2 by induction on ``N`` (base and step), logged."""
    out: list[Obligation] = []
    f = z3.Function("f", z3.IntSort(), z3.RealSort())
    N, i = z3.Int("N"), z3.Int("i")
    for k in range(0, max_points + 1):
        S, defs = _rec_sum(f, f"S{k}")
        cs = [z3.Int(f"c{ll}") for ll in range(k)]

        def rhs(m: Any, cs: Sequence[Any] = cs) -> Any:
            return sum((z3.If(z3.And(c >= 0, c < m, *[c != d for d in cs[:ll]]), f(c), 0)
                        for ll, c in enumerate(cs)), z3.RealVal(0))

        def hyp(m: Any, cs: Sequence[Any] = cs) -> Any:
            return z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < m, *[i != c for c in cs]), f(i) == 0))

        base = z3.Implies(hyp(0), S(0) == rhs(0))
        step = z3.Implies(z3.And(N >= 0, z3.Implies(hyp(N), S(N) == rhs(N)), hyp(N + 1)), S(N + 1) == rhs(N + 1))
        for part, goal in (("base N = 0", base), ("step N → N + 1", step)):
            out.append(ctx.check(goal, "lemma", f"{L1}, {k} point(s)", part, [("sum definition", z3.And(*defs))],
                                 method="Z3 induction on N", facts=[]))
    S, defs = _rec_sum(f, "S01")
    zero_one = lambda m: z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < m), z3.Or(f(i) == 0, f(i) == 1)))  # noqa: E731
    all_zero = lambda m: z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < m), f(i) == 0))  # noqa: E731
    is_int = z3.Function("isint", z3.IntSort(), z3.IntSort())

    def concl(m: Any) -> Any:
        mz = z3.IntVal(m) if isinstance(m, int) else m
        return z3.And(S(m) == z3.ToReal(is_int(m)), 0 <= S(m), S(m) <= z3.ToReal(mz), (S(m) == 0) == all_zero(m))

    base = z3.Implies(zero_one(0), concl(0))
    step = z3.Implies(z3.And(N >= 0, z3.Implies(zero_one(N), concl(N)), zero_one(N + 1)), concl(N + 1))
    # is_int(m) names the integer the sum equals: S(N + 1) = is_int(N) + f(N), an integer when f(N) ∈ {0, 1}.
    int_def = z3.ForAll([N], z3.Implies(N >= 0, is_int(N + 1) == is_int(N) + z3.ToInt(f(N))))
    for part, goal in (("base N = 0", base), ("step N → N + 1", step)):
        out.append(ctx.check(goal, "lemma", L2, part, [("sum definition", z3.And(*defs, is_int(0) == 0, int_def))],
                             method="Z3 induction on N", facts=[]))
    return out
