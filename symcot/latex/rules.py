r"""LaTeX of a model description's rules: direction, each head's mask and attention kind, sublayers, norm, positions.

:func:`rules_tex` states, as formulas, what docs/model.md states for a
:class:`~symcot.model.description.ModelDescription`: the scores ``s_{ij} = \langle K a_j, Q a_i\rangle`` and
the maximal set ``M_i``; per head (of every layer, an override where the description has one) the mask and
the weights ``\alpha_{ij}`` (unique hard with its tie rule, average hard, softmax with its temperature); how
each sublayer adds its residual and where the layer norm sits, with the norm's formula and ``\varepsilon``;
and the positional encoding ``p(i, n)``, added or concatenated, with its stated formula and its first values.
"""

from __future__ import annotations

from typing import Any

from symcot.latex.explicit import tex_scalar
from symcot.latex.text import escape_text, math_token, prose
from symcot.model.description import HeadRule, ModelDescription, Norm, Positional

#: The positions a query at ``i`` may attend to, per mask, as math.
MASK_TEX = {"none": r"\text{every } j", "future": r"j \le i", "strict-future": r"j < i", "past": r"j \ge i",
            "strict-past": r"j > i"}
#: Positions of a positional encoding shown as examples.
EXAMPLES = 4


def _tau(rule: HeadRule) -> str:
    t = rule.attention.temperature
    if callable(t):
        name = getattr(t, "__name__", "")
        shown = ", ".join(f"\\tau({n}) = {tex_scalar(rule.attention.tau(n))}" for n in (1, 2, 3))
        return f"$\\tau = \\tau(n)$ (a function{' ' + escape_text(name) if name and name != '<lambda>' else ''}: " \
               f"${shown}$, \\ldots)"
    return f"$\\tau = {tex_scalar(t)}$"


def weights_tex(rule: HeadRule) -> str:
    r"""The weights ``\alpha_{ij}`` of a head under ``rule``, as a sentence with math."""
    a = rule.attention
    if a.kind == "unique":
        j0 = r"\min M_i" if a.tie == "leftmost" else r"\max M_i"
        return (f"unique hard attention, tie rule {a.tie}: $\\alpha_{{ij}} = 1$ at $j = {j0}$, "
                "$0$ elsewhere")
    if a.kind == "average":
        return r"average hard attention: $\alpha_{ij} = 1/|M_i|$ for $j \in M_i$, $0$ elsewhere"
    return (r"softmax attention: $\alpha_{ij} = \exp(s_{ij}/\tau) / \sum_{l} \exp(s_{il}/\tau)$ over the allowed $l$, "
            + _tau(rule))


def _head_items(desc: ModelDescription, heads: list[tuple[int, str]]) -> list[str]:
    """One item per head (``Layer 1, head t: …``), or one for every head when they share a rule."""
    rules = [(k, h, desc.rule(k, h)) for k, h in heads]
    if not rules or all(r == desc.head for _, _, r in rules):
        return [f"\\item Every head: mask ${MASK_TEX[desc.head.mask]}$; {weights_tex(desc.head)}."]
    return [f"\\item Layer {k}, head ${math_token(h)}$: mask ${MASK_TEX[r.mask]}$; {weights_tex(r)}."
            for k, h, r in rules]


def norm_tex(norm: Norm) -> str:
    r"""``\mathrm{LN}(x) = …`` of the description's layer norm, with its ``\varepsilon``."""
    eps = f"\\varepsilon = {tex_scalar(norm.eps)}"
    if norm.kind == "standard":
        return (r"$\mathrm{LN}(x) = (x - \mu)/\sqrt{\sigma^2 + \varepsilon}$ with "
                r"$\mu = \frac{1}{d}\sum_k x_k$, $\sigma^2 = \frac{1}{d}\sum_k (x_k - \mu)^2$, " + f"${eps}$")
    return r"$\mathrm{LN}(x) = x / \bigl(\sqrt{\tfrac{1}{d}\sum_k x_k^2} + \varepsilon\bigr)$ (RMS), " + f"${eps}$"


def sublayers_tex(desc: ModelDescription) -> list[str]:
    r"""The two sublayers of a layer, ``z`` in and ``z'`` out (``A`` the attention sublayer's output)."""
    ffn_res = " + y" if desc.residual == "both" else ""
    p = desc.norm.placement
    attn_in = {"pre": r"\mathrm{LN}(z)", "selective": r"\mathrm{LN}(W_N z)"}.get(p, "z")
    if p == "post":
        lines = [r"y = \mathrm{LN}(A(z) + z)", f"z' = \\mathrm{{LN}}(W_2\\,\\mathrm{{ReLU}}(W_1 y){ffn_res})"]
    elif p == "pre":
        lines = [r"y = A(\mathrm{LN}(z)) + z", f"z' = W_2\\,\\mathrm{{ReLU}}(W_1\\,\\mathrm{{LN}}(y)){ffn_res}"]
    else:
        lines = [f"y = A({attn_in}) + z", f"z' = W_2\\,\\mathrm{{ReLU}}(W_1 y){ffn_res}"]
    where = (r"$A(a)_i = W_O\,[\,\sum_j \alpha^{(h)}_{ij} V_h a_j\,]_{h}$ (the heads' outputs concatenated in "
             r"head order; a head with no allowed position outputs $0$); a layer with trivial attention has "
             r"$A = 0$")
    if p == "selective":
        where += r"; $W_N$ is the layer's norm map (the identity where it has none)"
    rows = " \\\\\n".join(f"  {ln.split('=', 1)[0]}&={ln.split('=', 1)[1]}" for ln in lines)
    return ["\n".join(["\\[", "\\begin{aligned}", rows, "\\end{aligned}", "\\]"]), where + "."]


def positional_tex(pe: Positional, blocks: str) -> str:
    """The positional encoding: how it joins the token, its stated formula and its first values."""
    how = r"x_i \,\|\, p(i, n)" if pe.combine == "concat" else r"x_i + p(i, n)"
    values = []
    for i in range(EXAMPLES):
        try:
            v = pe.at(i, EXAMPLES)
        except Exception:  # noqa: BLE001 - an encoding undefined at this example: shown without values
            return f"Positional encoding: $z^{{(0)}}_i = {how}$ with $p$ = {prose(pe.name)}{blocks}."
        shown = [tex_scalar(x) if not hasattr(x, "lower") else r"\approx " + f"{float(x.lower):.4g}" for x in v]
        values.append(f"p({i}, {EXAMPLES}) = " + (shown[0] if len(shown) == 1 else
                                                  "(" + ", ".join(shown) + ")"))
    return (f"Positional encoding ({'concatenated' if pe.combine == 'concat' else 'added'}, positions from $0$): "
            f"$z^{{(0)}}_i = {how}$ with $p$ = {prose(pe.name)}{blocks}; for example ${', '.join(values)}$.")


def rules_tex(desc: ModelDescription, heads: list[tuple[int, str]], positional_blocks: str = "") -> list[str]:
    """The paragraphs stating ``desc`` (module docstring; none has a blank line); ``heads``: each ``(layer, head)``."""
    direction = {
        "encoder": "an encoder: every position passes through layer $k$ after every position passed layer $k-1$, "
                   "and the output is read at every position",
        "recogniser": "a recogniser: an encoder whose output is read at the last position only (the accept bit)",
        "decoder": "a causal decoder with chain of thought: the last position's output is the next token",
    }[desc.direction]
    heads_in = {"pre": r"\mathrm{LN}(z_j)", "selective": r"\mathrm{LN}(W_N z_j)"}.get(desc.norm.placement, "z_j")
    out = [f"\\paragraph{{Model.}} {escape_text(desc.name)}: {direction}.",
           f"A head scores $s_{{ij}} = \\langle K a_j, Q a_i\\rangle$ over the positions $j$ its mask allows, "
           f"with $a_j = {heads_in}$ the heads' input, and $M_i = \\{{j : s_{{ij}} \\ge s_{{il}}$ for every allowed "
           f"$l\\}}$ is the maximal set.",
           "\n".join(["\\begin{itemize}", *_head_items(desc, heads), "\\end{itemize}"]),
           "Each layer maps $z$ to $z'$ (residual around "
           + ("attention only" if desc.residual == "attention" else "both sublayers") + ", "
           + (f"{desc.norm.placement}-norm" if desc.norm.placement != "none" else "no layer norm") + "):",
           *sublayers_tex(desc)]
    if desc.norm.placement != "none":
        out.append("Layer norm: " + norm_tex(desc.norm) + ".")
    out.append("No positional encoding." if desc.positional is None else
               positional_tex(desc.positional, positional_blocks))
    return out


def positional_blocks(layout: Any, pe: Positional | None) -> str:
    """`` (blocks p, q)``: the layout's last blocks that a concatenated encoding fills ("" otherwise)."""
    if pe is None or pe.combine != "concat":
        return ""
    names: list[str] = []
    width = 0
    for b in reversed(layout.blocks):
        try:
            width += int(b.size)
        except TypeError:
            break
        names.insert(0, b.name)
        if width >= pe.width:
            break
    if width != pe.width:
        return ""
    return " (block" + ("s " if len(names) > 1 else " ") + ", ".join(f"${math_token(n)}$" for n in names) + ")"
