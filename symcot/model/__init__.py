"""The model: its structure, the description of the rules it runs under, and their layer loop over an algebra."""

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
from symcot.model.description import (
    AHAT,
    SECTION3,
    SMAT,
    UHAT,
    AttentionKind,
    HeadRule,
    ModelDescription,
    Norm,
    Positional,
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
    "AHAT", "SECTION3", "SMAT", "UHAT", "AttentionKind", "HeadRule", "ModelDescription", "Norm", "Positional",
    "EXACT", "FFN", "Attention", "ConcreteDecoder", "Context", "Decoder", "ExactAlgebra", "Generation", "Head",
    "HeadChoice", "Layer", "LayerAlgebra", "LayerMaps", "LayerRecord", "Semantics", "SizeReport", "generate",
    "push_layers", "value_space",
]
