"""A feed-forward gadget applied to a caller's blocks: hidden units with their pre-activations, and outputs.

A gadget is one network of the paper (a ReLU lemma, an indicator identity, a bilinear gate), written once
as a function of *named input expressions* (IR expressions of the caller's layout: ``x.dif``, ``x.twd``,
…) and *parameters* (``λ``, a pulse offset, …). Applying it gives a :class:`Gadget`:

- its **hidden units**: the caller's unit name → the unit's pre-activation (a row of ``W_1`` with its
  bias), read with :meth:`Gadget.w1`;
- its **outputs**: output role → an expression over the hidden units (a row of ``W_2`` with its bias),
  read with :meth:`Gadget.outputs` on the caller's hidden layout, or :meth:`Gadget.w2`, which renames
  them to the caller's output blocks.

The caller names the units (``units=``) and says where each output goes (``writes=``): the DFS puts
``γ`` and ``γ - 1`` into its ``flg1``/``flg2`` positions, the width decoder appends ``h1 … h4``. A gadget
whose first part the paper writes elsewhere takes the pre-activations as its inputs (the tree Strahler
decoder's layer 2 writes ``D - 1, D, D + 1``; layer 3's ``W_1`` keeps them and the indicator gadget reads
them). A *W_2-only* gadget (stage ``hidden``: the DFS parent gate) reads the caller's hidden units
directly and has no units of its own.

:meth:`Gadget.on` applies the same function, with the same parameters and names, to other inputs: a
lemma's own input layout (the lemma as stated) or the layout of the values a decoder feeds it (the
lemma where it is used). Both then run the weights written here, and nowhere else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.errors import DimensionError
from symcot.ir.expr import Const, Expr
from symcot.ir.layout import BlockVars

#: How a caller names a gadget's units: role → name, names in the gadget's unit order, or ``None`` (the roles).
Names = Mapping[str, str] | Sequence[str] | None
#: Where a caller puts a gadget's outputs: role → block, ``None`` for an output the caller combines itself.
Writes = Mapping[str, str | None] | None
#: What the ``W_2`` part reads a unit (stage ``pre``) or an input (stage ``hidden``) through, by role.
Read = Callable[[str], Expr]
#: The ``W_2`` part: output role → expression (a zero constant, ``zeros(k)``, sets the output to zero).
Post = Callable[[Read], dict[str, Expr]]

STAGES = ("pre", "hidden")


@dataclass(frozen=True, eq=False)
class Gadget:
    """One application of a gadget (see the module docstring).

    Attributes:
        label: the paper's label of the statement (``lem:widsupffn``); a claim of that id proves it.
        kind: which gadget function made it (``widsupffn``, ``ind_zero_at``, …).
        inputs: input role → the caller's expression (stage ``pre``: over ``W_1``'s input layout; stage
            ``hidden``: over ``W_2``'s input layout).
        params: the parameters that are not expressions (``λ`` as a constant, the first pulse, …).
        unit_roles: unit role → pre-activation, in the gadget's unit order (empty for stage ``hidden``).
        names: unit role → the caller's unit name.
        writes: output role → the caller's output block (``None``: used, but combined by the caller).
        post: the ``W_2`` part, over the units (stage ``pre``) or the inputs (stage ``hidden``).
        stage: ``pre`` or ``hidden``.
        apply: the gadget function, for :meth:`on`.

    """

    label: str
    kind: str
    inputs: Mapping[str, Expr]
    params: Mapping[str, Any]
    unit_roles: Mapping[str, Expr]
    names: Mapping[str, str]
    writes: Mapping[str, str | None]
    post: Post
    stage: str
    apply: Callable[..., Gadget]

    # -- the W_1 part ----------------------------------------------------------------------------------
    def units(self) -> list[tuple[str, Any]]:
        """``(caller's unit name, size)`` in the gadget's order (for the caller's hidden layout)."""
        return [(self.names[r], e.size) for r, e in self.unit_roles.items()]

    def w1(self) -> dict[str, Expr]:
        """The caller's unit name → pre-activation (rows of ``W_1`` with their biases)."""
        return {self.names[r]: e for r, e in self.unit_roles.items()}

    # -- the W_2 part ----------------------------------------------------------------------------------
    def outputs(self, h: BlockVars | None = None) -> dict[str, Expr]:
        """Output role → expression over ``h`` (the caller's hidden layout; unused for stage ``hidden``)."""
        if self.stage == "hidden":
            return self.post(lambda r: self.inputs[r])
        if h is None:
            raise DimensionError(f"{self.label}: the outputs of a gadget with units read a hidden layout")
        return self.post(lambda r: h[self.names[r]])

    def w2(self, h: BlockVars | None = None) -> dict[str, Expr]:
        """The caller's output block → expression, for every output written to a block and not zero."""
        outs = self.outputs(h)
        return {b: outs[r] for r, b in self.writes.items() if b is not None and not is_zero(outs[r])}

    def zero(self, h: BlockVars | None = None) -> list[str]:
        """The caller's output blocks the gadget sets to zero."""
        outs = self.outputs(h)
        return [b for r, b in self.writes.items() if b is not None and is_zero(outs[r])]

    def written(self) -> dict[str, str]:
        """Output role → caller's block, for the outputs written to a block."""
        return {r: b for r, b in self.writes.items() if b is not None}

    def used(self) -> list[str]:
        """The output roles the caller uses (written to a block or combined)."""
        return list(self.writes)

    # -- re-application --------------------------------------------------------------------------------
    def on(self, inputs: Mapping[str, Expr]) -> Gadget:
        """The same gadget (parameters, unit names, writes) applied to other input expressions."""
        missing = set(self.inputs) - set(inputs)
        if missing:
            raise DimensionError(f"{self.label}: no expression for the input(s) {sorted(missing)}")
        return self.apply(**{r: inputs[r] for r in self.inputs}, **self.params, units=dict(self.names),
                          writes=dict(self.writes))

    def describe(self) -> str:
        """One line: the gadget, what it reads and where its outputs go."""
        ins = ", ".join(f"{r} = {_tex(e)}" for r, e in self.inputs.items())
        outs = ", ".join(f"{r} → {b or '(combined)'}" for r, b in self.writes.items())
        return f"{self.label} [{self.kind}] on {ins}; {outs}"


def is_zero(e: Expr) -> bool:
    """Whether ``e`` is a zero constant (an output the gadget sets to zero: a ``zero`` block of the map)."""
    return isinstance(e, Const) and e.c == 0


def _tex(e: Any) -> str:
    """An expression in plain text: ``π_dif``, ``S π_nl``, ``-π_{tmp_D}`` (LaTeX with the markup dropped)."""
    if not isinstance(e, Expr):
        return str(e)
    s = re.sub(r"\\pi_\{([^{}]*)\}", r"π_\1", e.latex())
    for a, b in (("\\,", " "), ("\\left(", "("), ("\\right)", ")"), ("\\_", "_"), ("\\odot", "⊙"),
                 ("\\top", "ᵀ"), ("\\mathbf{1}", "1")):
        s = s.replace(a, b)
    return s


def _names(roles: Sequence[str], units: Names) -> dict[str, str]:
    """Normalise ``units`` to role → name (checking that every role is named once)."""
    if units is None:
        return {r: r for r in roles}
    if isinstance(units, Mapping):
        extra = set(units) - set(roles)
        if extra:
            raise DimensionError(f"unit names for unknown roles {sorted(extra)}; roles are {list(roles)}")
        return {r: units.get(r, r) for r in roles}
    names = list(units)
    if len(names) != len(roles):
        raise DimensionError(f"{len(names)} unit names {names} for the {len(roles)} units {list(roles)}")
    return dict(zip(roles, names))


def make(label: str, kind: str, apply: Callable[..., Gadget], args: Mapping[str, Any], pre: Mapping[str, Expr],
         post: Post, outputs: Sequence[str], units: Names = None, writes: Writes = None,
         stage: str = "pre") -> Gadget:
    """Assemble a :class:`Gadget` (the gadget functions of this package call it).

    ``args`` are the function's arguments: the expressions among them are the gadget's inputs, the rest
    its parameters. ``pre`` is role → pre-activation (empty for stage ``hidden``), ``outputs`` the output
    roles in order; ``writes`` defaults to every output written to the block of the same name.
    """
    if stage not in STAGES:
        raise DimensionError(f"{label}: unknown stage {stage!r}")
    inputs = {k: v for k, v in args.items() if isinstance(v, Expr)}
    params = {k: v for k, v in args.items() if not isinstance(v, Expr)}
    names = _names(list(pre), units)
    if len(set(names.values())) != len(names):
        raise DimensionError(f"{label}: two units share a name: {names}")
    if writes is None:
        wr: dict[str, str | None] = {r: r for r in outputs}
    else:
        unknown = set(writes) - set(outputs)
        if unknown:
            raise DimensionError(f"{label}: writes names unknown outputs {sorted(unknown)}; "
                                 f"outputs are {list(outputs)}")
        wr = dict(writes)
    return Gadget(label, kind, inputs, params, dict(pre), names, wr, post, stage, apply)


def half(c: Any) -> sp.Expr:
    """``c / 2`` exactly (``λ/2`` in lem:mMc, ``1/2`` in lem:shiftonehot)."""
    return sp.sympify(c) / 2


def merge_units(*gadgets: Gadget) -> dict[str, Expr]:
    """The ``W_1`` rows of several gadgets of one layer; a unit two gadgets share must have one pre-activation.

    (tree Strahler's layer 3 reads ``tmp_D`` in both ``1[D = 0]`` and ``1[D > 0]``.)
    """
    out: dict[str, Expr] = {}
    for g in gadgets:
        for name, e in g.w1().items():
            if name in out and (out[name].latex() != e.latex() or not sp.simplify(out[name].size - e.size) == 0):
                raise DimensionError(f"unit {name!r} is given two pre-activations: {out[name].latex()} and {e.latex()}")
            out[name] = e
    return out


def hidden_units(*gadgets: Gadget) -> list[tuple[str, Any]]:
    """``(name, size)`` of the units of several gadgets, each shared unit once, in order of appearance."""
    seen: dict[str, Any] = {}
    for g in gadgets:
        for name, size in g.units():
            seen.setdefault(name, size)
    return list(seen.items())
