"""A concrete decoder as a state dict of numpy arrays, named as TransformerLens users expect, and ``.npz`` files.

Names (``l`` counts layers from 0, as TransformerLens does: ``blocks.0`` is the paper's layer 1; ``h``
is the head's index in its layer, whose paper name is in the metadata)::

    blocks.{l}.attn.W_Q.{h}.weight   (d_head, d_model)    blocks.{l}.attn.W_Q.{h}.bias   (d_head,)
    blocks.{l}.attn.W_K.{h}.weight / .bias, blocks.{l}.attn.W_V.{h}.weight / .bias
    blocks.{l}.attn.W_O.weight       (d_model, Σ d_value)  blocks.{l}.attn.W_O.bias      (d_model,)
    blocks.{l}.mlp.W_in.weight       (d_mlp, d_model)     blocks.{l}.mlp.W_in.bias      (d_mlp,)
    blocks.{l}.mlp.W_out.weight      (d_model, d_mlp)     blocks.{l}.mlp.W_out.bias     (d_model,)

Each map is ``y = weight @ x + bias`` (the orientation of ``torch.nn.Linear``, so the arrays are the
``state_dict`` of :mod:`symcot.export.torch_module`). A map of degree 2 also has
``….bilinear_index`` (``(K, 2)`` int64, pairs ``i ≤ j`` of input coordinates) and ``….bilinear_weight``
(``(d_out, K)``): ``y += bilinear_weight @ (x[i_k]·x[j_k])_k``. A layer with trivial attention has no
``attn`` keys. ``meta`` (a JSON string) names the claim, variant, sizes, λ, the heads, the blocks of the
model layout and of each layer's hidden layout with their offsets, and an example prompt.

The weights are the exact ones converted to float64 (exact for integers and dyadic fractions; the
metadata says whether every weight was).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from symcot.errors import SymcotError
from symcot.ir.maps import ConcreteMap
from symcot.model.decoder import ConcreteDecoder
from symcot.model.description import require_section3
from symcot.replay.scaling import as_rational

FORMAT = "symcot-decoder/1"


def map_arrays(m: ConcreteMap) -> dict[str, np.ndarray]:
    """``weight``, ``bias`` and, for a degree-2 map, ``bilinear_index`` and ``bilinear_weight``."""
    w = np.zeros((m.d_out, m.d_in))
    b = np.zeros(m.d_out)
    for o, c in m.const:
        b[o] += float(as_rational(c))
    for o, i, c in m.lin:
        w[o, i] += float(as_rational(c))
    out = {"weight": w, "bias": b}
    if m.quad:
        pairs = sorted({(min(i, j), max(i, j)) for _, i, j, _ in m.quad})
        col = {p: k for k, p in enumerate(pairs)}
        q = np.zeros((m.d_out, len(pairs)))
        for o, i, j, c in m.quad:
            q[o, col[(min(i, j), max(i, j))]] += float(as_rational(c))
        out["bilinear_index"] = np.array(pairs, dtype=np.int64)
        out["bilinear_weight"] = q
    return out


def _exact_in_float(m: ConcreteMap) -> bool:
    for t in (*m.const, *m.lin, *m.quad):
        c = as_rational(t[-1])
        if Fraction(float(c)) != c:
            return False
    return True


def state_dict(dec: ConcreteDecoder) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays of ``dec`` under the names above, and the metadata (without claim and example).

    The exported modules run Section 3's rules; any other model description is refused (one line).
    """
    require_section3(dec.description, dec.name, "symcot export")
    state: dict[str, np.ndarray] = {}
    layers = []
    exact = True
    for lidx, layer in enumerate(dec.layers):
        hidden = layer.ffn.w1.dst
        info: dict[str, Any] = {"trivial_attention": layer.attention is None, "heads": [], "d_head": [],
                                "d_value": [], "d_mlp": layer.ffn.w1.d_out,
                                "hidden_blocks": [{"name": b, "offset": hidden.offsets[b], "size": hidden.sizes[b]}
                                                  for b in hidden.names]}
        maps: list[tuple[str, ConcreteMap]] = []
        if layer.attention is not None:
            for h, head in enumerate(layer.attention.heads):
                info["heads"].append(head.name)
                info["d_head"].append(head.query.d_out)
                info["d_value"].append(head.value.d_out)
                maps += [(f"attn.W_Q.{h}", head.query), (f"attn.W_K.{h}", head.key), (f"attn.W_V.{h}", head.value)]
            maps.append(("attn.W_O", layer.attention.out))
        maps += [("mlp.W_in", layer.ffn.w1), ("mlp.W_out", layer.ffn.w2)]
        info["bilinear"] = [name for name, m in maps if m.quad]
        for name, m in maps:
            exact = exact and _exact_in_float(m)
            for k, a in map_arrays(m).items():
                state[f"blocks.{lidx}.{name}.{k}"] = a
        layers.append(info)
    lay = dec.layout
    meta = {
        "format": FORMAT, "name": dec.name, "d_model": lay.dim, "n_layers": len(dec.layers), "layers": layers,
        "sizes": {str(k): v for k, v in dec.env.items()}, "constants": {str(k): str(v) for k, v in dec.subs.items()},
        "blocks": [{"name": b, "offset": lay.offsets[b], "size": lay.sizes[b]} for b in lay.names],
        "weights_exact_in_float64": exact,
        "semantics": "Section 3: per layer, alpha = W_O[V_1 z_j1 || ... || V_H z_jH] (hard: j = smallest index "
                     "among the maximal scores <K z_i, Q z_m>, i <= m), output W_out ReLU(W_in(alpha + z)); "
                     "a trivial-attention layer has alpha = 0; the last layer's output at the last position "
                     "is the next token",
    }
    return state, meta


def save_npz(path: str | Path, state: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write ``state`` and ``meta`` (as the JSON string array ``meta``) to ``path``."""
    arrays = dict(state)
    arrays["meta"] = np.array(json.dumps(meta, ensure_ascii=False))
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]


def load_npz(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(state, meta)`` from a file written by :func:`save_npz`."""
    try:
        with np.load(path, allow_pickle=False) as z:
            state = {k: z[k] for k in z.files if k != "meta"}
            meta = json.loads(str(z["meta"])) if "meta" in z.files else None
    except (OSError, ValueError) as e:
        raise SymcotError(f"{path}: not a readable .npz file ({e})") from None
    if not meta or meta.get("format") != FORMAT:
        raise SymcotError(f"{path}: not a symcot decoder export (no '{FORMAT}' metadata)")
    return state, meta
