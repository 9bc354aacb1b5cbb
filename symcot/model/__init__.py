"""The decoder model: its structure, the Section-3 rules that run it, and their layer loop over an algebra."""

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
from symcot.model.layer_loop import LayerAlgebra, LayerMaps, push_layers
from symcot.model.semantics import (
    EXACT,
    Context,
    ExactAlgebra,
    Generation,
    HeadChoice,
    LayerRecord,
    Semantics,
    generate,
)

__all__ = [
    "EXACT", "FFN", "Attention", "ConcreteDecoder", "Context", "Decoder", "ExactAlgebra", "Generation", "Head",
    "HeadChoice", "Layer", "LayerAlgebra", "LayerMaps", "LayerRecord", "Semantics", "SizeReport", "generate",
    "push_layers", "value_space",
]
