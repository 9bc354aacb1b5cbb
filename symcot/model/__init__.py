"""The decoder model: structure (:mod:`.decoder`) and the Section-3 rules that run it (:mod:`.semantics`)."""

from symcot.model.decoder import (
    FFN,
    Attention,
    ConcreteDecoder,
    Decoder,
    Head,
    Layer,
    SizeReport,
    value_space,
)
from symcot.model.semantics import EXACT, Context, Generation, HeadChoice, LayerRecord, Semantics, generate

__all__ = [
    "EXACT", "FFN", "Attention", "ConcreteDecoder", "Context", "Decoder", "Generation", "Head", "HeadChoice",
    "Layer", "LayerRecord", "Semantics", "SizeReport", "generate", "value_space",
]
