"""The exported decoder as a ``torch.nn.Module`` with the Section-3 structure (imports torch: load lazily).

``nn.Linear`` for every map of degree at most 1, :class:`Bilinear` (``nn.Linear`` plus explicit
degree-2 terms) for the others; per layer the heads' ``W_Q``, ``W_K``, ``W_V`` (``nn.ModuleList``,
``blocks[l].attn.W_Q[h]``), ``W_O``, and the MLP ``W_in``, ``W_out`` with the ReLU between them; the
residual is around attention only. Attention is hard (the smallest index among the maximal scores) or
softmax at an inverse temperature ``beta``, causal over every position. The module's ``state_dict`` has
exactly the names and arrays of :mod:`symcot.export.state`. :meth:`CoTDecoder.run_with_cache` also returns
every layer's activations (:mod:`symcot.export.cache`); ``forward`` records nothing.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import torch
from torch import nn

from symcot.export.cache import ActivationCache


class Bilinear(nn.Linear):
    """``y = W x + b + B (x_{i_k} x_{j_k})_k``: ``nn.Linear`` plus the degree-2 terms of a bilinear map."""

    def __init__(self, d_in: int, d_out: int, pairs: int, dtype: torch.dtype = torch.float64):
        super().__init__(d_in, d_out, bias=True, dtype=dtype)
        self.bilinear_weight = nn.Parameter(torch.zeros(d_out, pairs, dtype=dtype))
        self.register_buffer("bilinear_index", torch.zeros(pairs, 2, dtype=torch.long))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = super().forward(x)
        index: torch.Tensor = self.bilinear_index  # type: ignore[assignment]
        prod = x[..., index[:, 0]] * x[..., index[:, 1]]
        return y + prod @ self.bilinear_weight.T


def _map(state: dict[str, np.ndarray], prefix: str, dtype: torch.dtype) -> nn.Linear:
    w = state[f"{prefix}.weight"]
    if f"{prefix}.bilinear_weight" in state:
        m: nn.Linear = Bilinear(w.shape[1], w.shape[0], state[f"{prefix}.bilinear_weight"].shape[1], dtype)
    else:
        m = nn.Linear(w.shape[1], w.shape[0], bias=True, dtype=dtype)
    return m


class Attention(nn.Module):
    """Multi-head attention: ``W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``, hard or softmax, causal."""

    def __init__(self, state: dict[str, np.ndarray], prefix: str, heads: int, dtype: torch.dtype):
        super().__init__()
        self.W_Q = nn.ModuleList([_map(state, f"{prefix}.W_Q.{h}", dtype) for h in range(heads)])
        self.W_K = nn.ModuleList([_map(state, f"{prefix}.W_K.{h}", dtype) for h in range(heads)])
        self.W_V = nn.ModuleList([_map(state, f"{prefix}.W_V.{h}", dtype) for h in range(heads)])
        self.W_O = _map(state, f"{prefix}.W_O", dtype)

    def forward(self, x: torch.Tensor, beta: float | None = None, cache: dict[str, torch.Tensor] | None = None,
                name: str = "attn") -> torch.Tensor:
        """``x``: ``(B, L, d)``; position ``m`` attends to ``0..m``; ``beta=None`` is hard attention.

        ``cache``: where to put each head's ``{name}.{h}.scores``, ``.pattern``, ``.index`` (hard) and ``.z``.
        """
        length = x.shape[1]
        future = torch.triu(torch.ones(length, length, dtype=torch.bool, device=x.device), diagonal=1)
        outs = []
        for h, (wq, wk, wv) in enumerate(zip(self.W_Q, self.W_K, self.W_V)):
            scores = wq(x) @ wk(x).transpose(-1, -2)  # (B, query m, key i)
            v = wv(x)
            if beta is None:
                masked = scores.masked_fill(future, float("-inf"))
                idx = torch.argmax(masked, dim=-1)  # the first maximum: the smallest index
                outs.append(torch.gather(v, 1, idx.unsqueeze(-1).expand(-1, -1, v.shape[-1])))
                if cache is not None:
                    cache[f"{name}.{h}.scores"] = masked
                    cache[f"{name}.{h}.pattern"] = nn.functional.one_hot(idx, length).to(scores.dtype)
                    cache[f"{name}.{h}.index"] = idx
            else:
                w = torch.softmax((beta * scores).masked_fill(future, float("-inf")), dim=-1)
                outs.append(w @ v)
                if cache is not None:
                    cache[f"{name}.{h}.scores"] = scores.masked_fill(future, float("-inf"))
                    cache[f"{name}.{h}.pattern"] = w
            if cache is not None:
                cache[f"{name}.{h}.z"] = outs[-1]
        if cache is not None:
            for site, tl in (("scores", "hook_attn_scores"), ("pattern", "hook_pattern")):
                cache[f"{name}.{tl}"] = torch.stack([cache[f"{name}.{h}.{site}"] for h in range(len(outs))], dim=1)
        return self.W_O(torch.cat(outs, dim=-1))


class MLP(nn.Module):
    """``W_out ReLU(W_in ·)``."""

    def __init__(self, state: dict[str, np.ndarray], prefix: str, dtype: torch.dtype):
        super().__init__()
        self.W_in = _map(state, f"{prefix}.W_in", dtype)
        self.W_out = _map(state, f"{prefix}.W_out", dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.W_out(torch.relu(self.W_in(x)))


class Block(nn.Module):
    """One layer: ``W_2 ReLU(W_1(α'' + x))``, residual around attention only."""

    def __init__(self, state: dict[str, np.ndarray], layer: int, info: dict[str, Any], dtype: torch.dtype):
        super().__init__()
        prefix = f"blocks.{layer}"
        self.layer = layer
        self.attn = None if info["trivial_attention"] else Attention(state, f"{prefix}.attn", len(info["heads"]), dtype)
        self.mlp = MLP(state, f"{prefix}.mlp", dtype)

    def forward(self, x: torch.Tensor, beta: float | None = None,
                cache: dict[str, torch.Tensor] | None = None) -> torch.Tensor:
        """The layer's output; with ``cache``, its activations are put there (:mod:`symcot.export.cache`)."""
        if cache is None:
            return self.mlp(x if self.attn is None else self.attn(x, beta) + x)
        p = f"blocks.{self.layer}"
        cache[f"{p}.hook_resid_pre"] = x
        attn = torch.zeros_like(x) if self.attn is None else self.attn(x, beta, cache, f"{p}.attn")
        cache[f"{p}.hook_attn_out"] = attn
        cache[f"{p}.hook_resid_mid"] = mid = x if self.attn is None else attn + x
        cache[f"{p}.hook_mlp_pre"] = pre = self.mlp.W_in(mid)
        cache[f"{p}.hook_mlp_post"] = post = torch.relu(pre)
        cache[f"{p}.hook_resid_post"] = out = self.mlp.W_out(post)
        return out


class CoTDecoder(nn.Module):
    """The decoder: ``forward`` maps a token sequence to every position's output; ``generate`` runs the CoT."""

    def __init__(self, state: dict[str, np.ndarray], meta: dict[str, Any], dtype: torch.dtype = torch.float64):
        super().__init__()
        self.meta = meta
        self.blocks = nn.ModuleList([Block(state, k, info, dtype) for k, info in enumerate(meta["layers"])])
        own = self.state_dict()
        missing = sorted(set(own) - set(state))
        extra = sorted(set(state) - set(own))
        if missing or extra:
            raise ValueError(f"state dict does not fit the layers: missing {missing[:3]}, unexpected {extra[:3]}")
        self.load_state_dict({k: torch.from_numpy(np.asarray(v)).to(own[k].dtype) for k, v in state.items()})

    @property
    def d_model(self) -> int:
        """The model dimension ``d``."""
        return int(self.meta["d_model"])

    def forward(self, tokens: torch.Tensor, beta: float | None = None) -> torch.Tensor:
        """``tokens`` ``(B, L, d)`` → the last layer's output at every position ``(B, L, d)``."""
        x = tokens
        for block in self.blocks:
            x = block(x, beta)
        return x

    def run_with_cache(self, tokens: torch.Tensor, beta: float | None = None) -> tuple[torch.Tensor, ActivationCache]:
        """``forward(tokens, beta)`` and every layer's activations (names in :mod:`symcot.export.cache`)."""
        raw: dict[str, torch.Tensor] = {}
        x = tokens
        for block in self.blocks:
            x = block(x, beta, raw)
        return x, ActivationCache({k: v.detach() for k, v in raw.items()}, self.meta)

    @torch.no_grad()
    def generate(self, prompt: torch.Tensor, steps: int, beta: float | None = None) -> torch.Tensor:
        """``y_1 … y_steps`` ``(B, steps, d)`` after the prompt ``(B, P, d)`` (ending with ``y_0``)."""
        seq = prompt
        outs = []
        for _ in range(steps):
            y = self.forward(seq, beta)[:, -1:, :]
            outs.append(y)
            seq = torch.cat([seq, y], dim=1)
        return torch.cat(outs, dim=1) if outs else prompt[:, :0, :]

    def block(self, name: str, y: torch.Tensor) -> torch.Tensor:
        """The named block (``cur``, ``vis``, …) of token(s) ``y`` (last axis ``d``)."""
        for b in self.meta["blocks"]:
            if b["name"] == name:
                return y[..., b["offset"]: b["offset"] + b["size"]]
        raise KeyError(f"no block {name!r}; blocks: {', '.join(b['name'] for b in self.meta['blocks'])}")


def save(path: Any, model: CoTDecoder) -> None:
    """``{"format", "meta" (JSON), "state_dict"}`` with ``torch.save`` (loads with ``weights_only=True``)."""
    torch.save({"format": model.meta["format"], "meta": json.dumps(model.meta, ensure_ascii=False),
                "state_dict": model.state_dict()}, path)


def load(path: Any, dtype: torch.dtype = torch.float64) -> CoTDecoder:
    """The :class:`CoTDecoder` saved by :func:`save`."""
    blob = torch.load(path, weights_only=True)
    meta = json.loads(blob["meta"])
    state = {k: v.numpy() for k, v in blob["state_dict"].items()}
    return CoTDecoder(state, meta, dtype)
