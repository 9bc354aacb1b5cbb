"""What one head and one layer did at one position: the records every engine and trace share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Vec = list[Any]


@dataclass
class HeadChoice:
    """What one head did at one position: the chosen index, its score and the margin to the runner-up.

    ``margin`` is ``score - runner_up`` (``None`` when the prefix has one position); ``tie`` is true when
    another position attains the maximum, so the choice was made by the smallest-index rule;
    ``tied`` lists every index attaining the maximum.
    """

    head: str
    index: int
    score: Any
    runner_up: Any
    margin: Any
    tie: bool
    tied: list[int]


@dataclass
class LayerRecord:
    """One layer at one position: head choices and the intermediate vectors (when recorded)."""

    layer: int
    heads: list[HeadChoice]
    attn: Vec | None = None  # α''
    ffn_in: Vec | None = None  # α'' + x
    hidden: Vec | None = None  # ReLU(W_1(α'' + x))
    out: Vec | None = None
