r"""Why an all-n obligation is not proved: the equation, what was in scope, and a counter-model or the timeout.

For every obligation of a row that is not proved (:func:`explain`):

* **the equation** -- a block obligation's two sides, the decoder's value of the block (``got``: what the
  layers compute) and the statement's (``want``), printed with the user's symbol names
  (:mod:`symcot.prove.alln.readable`); any other obligation's goal as written;
* **in scope** -- the vocabulary's facts (with their kind and source) and the obligation's local hypotheses
  (``0 ≤ t < T``, the head's case, …) that the query assumed;
* **a counter-model** (Z3 answered ``sat``) -- the query is solved again with Z3's random seeds fixed, then the
  size and step symbols are made as small as the query allows, one after the other (``n``, ``T``, … then ``t``),
  each fixed before the next: the model is the least in that order, the same from run to run. It gives the
  value of every symbol and application the goal mentions (each fixed in turn at its value nearest 0), of each
  side, and of each ReLU's argument (which unit fires);
* **a timeout** (Z3 answered ``unknown``) -- the seconds, Z3's limit and resource count, the usual causes
  (a ReLU argument whose sign no fact in scope decides) and the option that raises the limit; and, where the
  facts taken only at the obligation's own terms allow one, a *candidate* counter-model (:func:`candidate_model`):
  the values those instances leave open, such as a negative ``acc(t)`` where no fact says ``acc(t) ≥ 0``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from symcot.prove.alln.context import Obligation, Query, budget
from symcot.prove.alln.ground import ground
from symcot.prove.alln.readable import applications, constants, relu_arg, relus, show

#: Z3's random seed for the counter-model (fixed: the same model every run).
SEED = 0
#: Nominal seconds (Z3's resource count: :func:`~symcot.prove.alln.context.budget`) for the query solved again for
#: its model, and for each try of a smaller value: the same model on a loaded machine as on an idle one.
MODEL_TIMEOUT_S = 10.0
MINIMISE_TIMEOUT_S = 0.5
#: Tries of a smaller value for one model, all its symbols together (at most 20 nominal seconds).
MINIMISE_BUDGET = 40
#: Doublings per symbol while minimising (then as many halvings): values up to 2^24.
MINIMISE_TRIES = 24
#: The prover's own step constant (:data:`symcot.prove.alln.prover.STEP_NAME`).
STEP = "t!"
TIMEOUT_OPTION = "AllNCheck(..., timeout_s=SECONDS) in the claim module (Z3's limit per obligation)"


@dataclass(frozen=True)
class FactInfo:
    """What a fact in scope is: its kind (``domain``, ``definition``, ``derived``, …) and where it comes from."""

    kind: str
    source: str = ""


def equation(goal: Any) -> dict[str, str] | None:
    """``{"decoder", "statement"[, "when"]}`` of a block obligation's goal ``got = want`` (under a guard)."""
    when = None
    if z3.is_app(goal) and goal.decl().kind() == z3.Z3_OP_IMPLIES:
        when, goal = goal.arg(0), goal.arg(1)
    if not (z3.is_app(goal) and goal.decl().kind() == z3.Z3_OP_EQ):
        return None
    out = {"decoder": show(goal.arg(0)), "statement": show(goal.arg(1))}
    if when is not None:
        out["when"] = show(when)
    return out


def _solver(hyps: Sequence[tuple[str, Any]], goal: Any, timeout_s: float) -> z3.Solver:
    s = z3.Solver()
    s.set("random_seed", SEED)
    budget(s, timeout_s)
    for _, f in hyps:
        s.add(f)
    s.add(z3.Not(goal))
    return s


def _order(query: Query, kinds: Mapping[str, Any]) -> list[Any]:
    """The integer constants to minimise: the vocabulary's (sizes, step counts) in its order, ``t``, the rest."""
    found = {str(c.decl().name()): c for _, f in query.hyps for c in constants(f)}
    found.update({str(c.decl().name()): c for c in constants(query.goal)})
    ints = {k: v for k, v in found.items() if v.sort() == z3.IntSort()}
    first = [k for k in kinds if k in ints]
    rest = sorted(k for k in ints if k not in first and k != STEP)
    return [ints[k] for k in [*first, *([STEP] if STEP in ints else []), *rest]]


def _allows(s: z3.Solver, *cond: Any) -> bool | None:
    """Whether ``s`` allows ``cond`` (``None``: Z3 did not say in time)."""
    s.push()
    s.add(*cond)
    r = s.check()
    s.pop()
    return None if r == z3.unknown else r == z3.sat


def _try(s: z3.Solver, left: list[int], *cs: Any) -> bool | None:
    """:func:`_allows`, counted against the tries ``left[0]``; ``None`` once they are spent."""
    if left[0] <= 0:
        return None
    left[0] -= 1
    return _allows(s, *cs)


def _nearest_zero(s: z3.Solver, v: Any, left: list[int]) -> int | None:
    """The value of ``v`` nearest 0 that ``s`` allows (the non-negative one of two); ``None``: none found.

    Found by doubling a bound ``|v| ≤ k`` from 0 and then halving (:data:`MINIMISE_TRIES` doublings at most); a try
    Z3 does not decide, or the shared count of tries ``left[0]`` running out, ends the search.
    """
    tries, k, below = 0, 0, -1
    while True:
        ok = _try(s, left, v >= -k, v <= k)
        if ok is None:
            return None
        if ok:
            break
        tries += 1
        if tries > MINIMISE_TRIES:
            return None
        below, k = k, max(1, 2 * k)
    lo, hi = below + 1, k
    while lo < hi:
        mid = (lo + hi) // 2
        ok = _try(s, left, v >= -mid, v <= mid)
        if ok is None:
            return None
        if ok:
            hi = mid
        else:
            lo = mid + 1
    return hi if _allows(s, v == hi) else -hi


def counter_model(query: Query, kinds: Mapping[str, Any], timeout_s: float = MODEL_TIMEOUT_S) -> z3.ModelRef | None:
    """The least model of ``hyps ∧ ¬goal`` (see the module docstring); ``None`` when Z3 gives none in time.

    The integer constants (:func:`_order`), then the integer applications the goal mentions, are fixed one after
    the other at their values nearest 0, within :data:`MINIMISE_BUDGET` tries (a value not found in them is left as the
    model has it).
    """
    s = _solver(query.hyps, query.goal, timeout_s)
    if s.check() != z3.sat:
        return None
    model = s.model()
    budget(s, MINIMISE_TIMEOUT_S)
    first = _order(query, kinds)
    seen = {c.get_id() for c in first}
    apps = [a for a in applications(query.goal) if a.num_args() > 0 and a.sort() == z3.IntSort()
            and a.get_id() not in seen]
    left = [MINIMISE_BUDGET]
    for v in [*first, *apps]:
        value = _nearest_zero(s, v, left)
        if value is not None:
            s.add(v == value)
    budget(s, timeout_s)
    return s.model() if s.check() == z3.sat else model


def candidate_model(query: Query, kinds: Mapping[str, Any], timeout_s: float = MODEL_TIMEOUT_S) -> z3.ModelRef | None:
    """A candidate counter-model where Z3 found none in time: the least model of the query, facts at its terms only.

    The facts are taken at the terms the query mentions: its ground instances (:func:`symcot.prove.alln.ground.ground`).

    Not a model of the facts themselves (one of them may rule it out at another term): it shows which values the
    obligation's facts, read where the obligation looks, leave open.
    """
    inst = ground(query.hyps, query.goal, dict(query.kinds), hints=query.hints, offsets=True)
    if inst is None:
        return None
    return counter_model(Query(tuple(inst), query.goal, True, False, query.kinds, query.hints), kinds, timeout_s)


def _value(model: z3.ModelRef, e: Any) -> str:
    return show(model.eval(e, model_completion=True))


def _grounded(model: z3.ModelRef, a: Any) -> str:
    """``acc(t)`` read at the model's arguments: ``acc(5)``."""
    if a.num_args() == 0:
        return show(a)
    return show(a.decl()(*[model.eval(x, model_completion=True) for x in a.children()]))


#: Characters of a compared term shown before it is cut (the value follows it).
SHORT = 60


def _short(e: Any) -> str:
    text = show(e)
    return text if len(text) <= SHORT else text[:SHORT - 1] + "…"


_OP = {z3.Z3_OP_LE: "≤", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: "≥", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "="}


def _compared(model: z3.ModelRef, c: Any) -> str:
    """``score_u < score_t: 0 < 0, false``."""
    op = _OP[c.decl().kind()]
    holds = "true" if z3.is_true(model.eval(c, model_completion=True)) else "false"
    return (f"{_short(c.arg(0))} {op} {_short(c.arg(1))}: {_value(model, c.arg(0))} {op} {_value(model, c.arg(1))}, "
            f"{holds}")


def comparisons(goal: Any) -> list[Any]:
    """The arithmetic comparisons of ``goal`` under its connectives (``∧``, ``∨``, ``¬``, ``→``), each once."""
    out: list[Any] = []
    todo = [goal]
    while todo:
        e = todo.pop(0)
        if not z3.is_app(e):
            continue
        k = e.decl().kind()
        if k in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES):
            todo.extend(e.children())
        elif k in _OP and (e.arg(0).is_int() or e.arg(0).is_real()) and not any(e.eq(o) for o in out):
            out.append(e)
    return out


def model_values(model: z3.ModelRef, goal: Any, symbols: Sequence[Any] = ()) -> dict[str, Any]:
    """``symbols`` and every symbol and application in ``goal`` with its value; each side's; each ReLU's argument."""
    values = []
    for a in [*symbols, *[a for a in applications(goal) if not any(a.eq(s) for s in symbols)]]:
        at = _grounded(model, a)
        name = show(a)
        values.append(f"{name} = {_value(model, a)}" if at == name else f"{name} = {at} = {_value(model, a)}")
    out: dict[str, Any] = {"values": values}
    body = goal.arg(1) if z3.is_app(goal) and goal.decl().kind() == z3.Z3_OP_IMPLIES else goal
    if z3.is_app(body) and body.decl().kind() == z3.Z3_OP_EQ:
        out["sides"] = {"decoder": _value(model, body.arg(0)), "statement": _value(model, body.arg(1))}
    else:
        compared = list(dict.fromkeys(_compared(model, c) for c in comparisons(body)))
        if compared:
            out["compared"] = compared
    units = []
    for arg in relus(goal):
        v = model.eval(arg, model_completion=True)
        fires = z3.is_true(z3.simplify(v > 0))
        units.append(f"ReLU({show(arg)}): argument {show(v)}, " + ("the unit fires" if fires else "the unit is off"))
    if units:
        out["relus"] = units
    return out


def _scope(query: Query, facts: Mapping[str, FactInfo]) -> dict[str, list[str]]:
    fs, hs = [], []
    for name, f in query.hyps:
        info = facts.get(name)
        if info is not None:
            fs.append(f"{name} ({info.kind}{': ' + info.source if info.source else ''})")
        elif name not in fs and name not in hs:
            hs.append(f"{name}: {show(f)}" if not z3.is_quantifier(f) else name)
    return {"facts": fs, "hypotheses": hs}


def _timeout(ob: Obligation, timeout_s: float) -> dict[str, Any]:
    m = re.search(r"rlimit (\d+)", ob.detail)
    reason = ob.detail.removeprefix("Z3: ").split(" (")[0]
    limit = f"Z3's limit per obligation {timeout_s:g} s" + (f", resource count {m.group(1)} when stopped" if m else "")
    timed_out = reason in ("canceled", "timeout")
    head = (f"timed out after {ob.seconds:.3g} s ({limit})" if timed_out else
            f"Z3 gave up after {ob.seconds:.3g} s: {reason} ({limit})")
    causes = ["a value a ReLU must keep on one side (its argument ≥ 0, or ≤ 0) with no fact in scope bounding it: "
              "state the bound as a derived fact of the vocabulary (with its proof)"]
    goal = ob.query.goal if ob.query is not None else None
    args = relus(goal) if goal is not None else []
    if args:
        causes.append("the ReLU arguments here: " + "; ".join(show(a) for a in args))
    causes.append("a fact that holds but that Z3 would need induction to see (state it as a derived fact with "
                  "Induction)")
    return {"timeout": head, "causes": causes, "raise_limit": TIMEOUT_OPTION}


def explain(ob: Obligation, facts: Mapping[str, FactInfo], kinds: Mapping[str, Any] | None = None, *,
            timeout_s: float = 60.0, model_timeout_s: float = MODEL_TIMEOUT_S, model: bool = True) -> dict[str, Any]:
    """The explanation of an obligation that is not proved (JSON-friendly; see the module docstring).

    ``kinds``: the vocabulary's constants (sizes, step counts), minimised first. ``model``: solve the obligation
    again for its least (or candidate) counter-model.
    """
    out: dict[str, Any] = {}
    q = ob.query
    if ob.status == "unsupported":
        return {"unsupported": ob.detail or "the obligation could not be stated"}
    if q is None:
        return {"goal": ob.statement, "no_query": f"no query kept ({ob.detail or ob.status})"}
    kinds = kinds or {}
    eq = equation(q.goal)
    if eq is not None:
        out["equation"] = eq
    else:
        out["goal"] = show(q.goal)
    out["in_scope"] = _scope(q, facts)
    if ob.status != "failed":
        out.update(_timeout(ob, timeout_s))
        cand = candidate_model(q, kinds, model_timeout_s) if model else None
        if cand is not None:
            out["candidate_model"] = model_values(cand, q.goal, [v for v in _order(q, kinds)
                                                                 if show(v) in kinds or str(v) == STEP])
        return out
    cm = counter_model(q, kinds, model_timeout_s) if model else None
    if cm is not None:
        out["counter_model"] = model_values(cm, q.goal, [v for v in _order(q, kinds)
                                                         if show(v) in kinds or str(v) == STEP])
    else:
        out["counter_model_lost"] = (f"Z3 found a model during the proof ({ob.detail})" + (
            f" but gave none in {model_timeout_s:g} s with its seeds fixed" if model else
            "; not solved again (the row's first obligations are)"))
    return out


def explain_failures(obligations: Sequence[Obligation], vocabulary: Any, timeout_s: float,
                     model_timeout_s: float = MODEL_TIMEOUT_S,
                     models: int | None = None) -> list[dict[str, Any] | None]:
    """:func:`explain` of each obligation of ``obligations`` that is not proved (``None`` for a proved one).

    ``models``: at most this many obligations are solved again for their (candidate) counter-model (``None``: all).
    """
    facts = {f.name: FactInfo(f.kind, f.source) for f in getattr(vocabulary, "facts", ())}
    kinds = {s.name: None for s in getattr(vocabulary, "symbols", ()) if getattr(s, "arity", 1) == 0}
    out: list[dict[str, Any] | None] = []
    solved = 0
    for o in obligations:
        if o.ok:
            out.append(None)
            continue
        again = o.status in ("failed", "unknown") and (models is None or solved < models)
        solved += again
        out.append(explain(o, facts, kinds, timeout_s=timeout_s, model_timeout_s=model_timeout_s, model=again))
    return out


def summary(e: Mapping[str, Any]) -> str:
    """One line of an explanation: the equation, then the counter-model or the timeout (``--explain``: the rest)."""
    eq = e.get("equation")
    parts = [f"decoder {eq['decoder']} vs statement {eq['statement']}" if eq else f"goal {e.get('goal', '?')}"]
    cm = e.get("counter_model") or e.get("candidate_model")
    if e.get("timeout"):
        parts.append(str(e["timeout"]))
    if cm:
        word = "counter-model" if e.get("counter_model") else "candidate counter-model (facts at these terms only)"
        sides = cm.get("sides")
        there = f" (decoder {sides['decoder']}, statement {sides['statement']})" if sides else ""
        parts.append(f"{word}: {', '.join(cm['values'])}{there}")
    if "unsupported" in e:
        parts = [f"not stated: {e['unsupported']}"]
    return "; ".join(parts) + "; --explain lists the facts in scope"


__all__ = ["FactInfo", "candidate_model", "counter_model", "equation", "explain", "explain_failures", "model_values",
           "relu_arg", "summary"]
