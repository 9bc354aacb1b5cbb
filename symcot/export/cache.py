"""The activations of one forward pass of the exported decoder, by name, as ``run_with_cache`` returns them.

Names (``l`` counts layers from 0, ``h`` is the head's index in its layer, as in :mod:`symcot.export.state`);
every tensor has the batch and position axes first, ``(B, L, …)``::

    blocks.{l}.hook_resid_pre        (B, L, d_model)   the layer's input x
    blocks.{l}.attn.{h}.scores       (B, L, L)         <K z_i, Q z_m>, query m, key i; -inf for i > m
    blocks.{l}.attn.{h}.pattern      (B, L, L)         hard: one-hot at the chosen i; softmax: the weights
    blocks.{l}.attn.{h}.index        (B, L) int64      hard attention only: the chosen i
    blocks.{l}.attn.{h}.z            (B, L, d_value)   the head's output V z_{j}
    blocks.{l}.attn.hook_attn_scores (B, H, L, L)      the heads' scores stacked (as TransformerLens has them)
    blocks.{l}.attn.hook_pattern     (B, H, L, L)      the heads' patterns stacked
    blocks.{l}.hook_attn_out         (B, L, d_model)   α'' = W_O [z_1 ‖ … ‖ z_H] (zero for trivial attention)
    blocks.{l}.hook_resid_mid        (B, L, d_model)   α'' + x
    blocks.{l}.hook_mlp_pre          (B, L, d_mlp)     W_in(α'' + x), before the ReLU
    blocks.{l}.hook_mlp_post         (B, L, d_mlp)     ReLU(W_in(α'' + x))
    blocks.{l}.hook_resid_post       (B, L, d_model)   W_out ReLU(W_in(α'' + x)), the layer's output

A layer with trivial attention has no ``attn.`` names. :meth:`ActivationCache.block` splits a site by the
construction's named blocks (``cur``, ``vis``, … of the model layout; the hidden layout's blocks for
``mlp_pre`` and ``mlp_post``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import torch

#: The sites whose last axis is the model layout (``d_model``).
RESIDUAL_SITES = ("resid_pre", "attn_out", "resid_mid", "resid_post")
#: The sites whose last axis is the layer's hidden layout (``d_mlp``).
HIDDEN_SITES = ("mlp_pre", "mlp_post")


class ActivationCache(Mapping[str, torch.Tensor]):
    """A read-only mapping from the names above to detached tensors, plus the split by named blocks."""

    def __init__(self, tensors: dict[str, torch.Tensor], meta: dict[str, Any]):
        self._tensors = tensors
        self._meta = meta

    def __getitem__(self, key: str) -> torch.Tensor:
        try:
            return self._tensors[key]
        except KeyError:
            raise KeyError(f"no activation {key!r} in the cache (e.g. blocks.0.hook_resid_post)") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)

    def _layout(self, site: str, layer: int) -> list[dict[str, Any]]:
        if site in RESIDUAL_SITES:
            return list(self._meta["blocks"])
        if site in HIDDEN_SITES:
            layers = self._meta["layers"]
            if not 0 <= layer < len(layers):
                raise KeyError(f"no layer {layer}; the layers are 0 … {len(layers) - 1}")
            hidden = layers[layer].get("hidden_blocks")
            if hidden is None:
                raise KeyError("this export names no hidden blocks (exported by an older symcot)")
            return list(hidden)
        raise KeyError(f"no site {site!r}; sites: {', '.join(RESIDUAL_SITES + HIDDEN_SITES)}")

    def blocks(self, site: str, layer: int) -> dict[str, torch.Tensor]:
        """Every named block of ``blocks.{layer}.hook_{site}``, in layout order (views, no copies)."""
        layout = self._layout(site, layer)
        act = self[f"blocks.{layer}.hook_{site}"]
        return {b["name"]: act[..., b["offset"]: b["offset"] + b["size"]] for b in layout}

    def block(self, site: str, layer: int, name: str) -> torch.Tensor:
        """The block ``name`` of ``blocks.{layer}.hook_{site}``: e.g. ``block("resid_post", 2, "cur")``."""
        parts = self.blocks(site, layer)
        if name not in parts:
            raise KeyError(f"no block {name!r} at {site}; blocks: {', '.join(parts)}")
        return parts[name]
