"""symcot: machine-check chain-of-thought Transformer constructions.

The engine behind the paper checks: a named-block IR (:mod:`symcot.ir`), the decoder semantics of the
paper's Section 3 (:mod:`symcot.model`), exact replay with traces (:mod:`symcot.replay`), reference
algorithms (:mod:`symcot.algorithms`), input spaces (:mod:`symcot.inputs`) and checkers
(:mod:`symcot.check`).

What a notebook needs is importable from here (``from symcot import Layout, Map, Head, Decoder, Claim``).
The names are loaded on first use, so ``import symcot`` stays fast and imports nothing else; the
packages themselves never import this module's names. A name is never that of a subpackage (``replay``
is the package :mod:`symcot.replay`, whose function ``replay`` is imported from there).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: Public name → the module that defines it (loaded lazily by :func:`__getattr__`).
_EXPORTS: dict[str, str] = {
    # the IR: blocks, sizes, maps, structured matrices
    **{name: "symcot.ir" for name in (
        "Layout", "Map", "Identity", "Ones", "Shift", "UnitVector", "IndexMatrix", "Zero", "n", "m", "H", "lam",
        "bcast", "bilinear", "const", "copy_of", "dot", "gate", "hadamard", "ones", "outer", "unit", "zeros")},
    "Explicit": "symcot.ir.matrices",
    # the decoder
    **{name: "symcot.model" for name in ("Head", "Attention", "FFN", "Layer", "Decoder", "value_space")},
    # the rules a construction runs under: direction, masks, attention kinds, residuals, layer norm, positions
    **{name: "symcot.model.description" for name in (
        "ModelDescription", "HeadRule", "AttentionKind", "UHAT", "AHAT", "SMAT", "Norm", "Positional", "SECTION3")},
    # encoders and recognisers, and their inputs
    **{name: "symcot.check.encoder" for name in ("EncoderCheck", "EncoderConstruction", "Readout")},
    "strings_family": "symcot.inputs.strings",
    # constructions and what checks them
    "Construction": "symcot.constructions.base",
    "Prompt": "symcot.constructions.base",
    "Expectation": "symcot.constructions.base",
    "Mutant": "symcot.constructions.mutant",
    "StepwiseSpec": "symcot.check.stepwise",
    "check_input": "symcot.check.stepwise",
    "Family": "symcot.inputs.family",
    "Claim": "symcot.claims",
    "ConstructionCheck": "symcot.claims",
    "PropertyCheck": "symcot.claims",
    "Reading": "symcot.constructions.readings",
    # the state encoding enc of def:algorelationbycot and the stop rule (the encoding's ``const`` is not
    # exported: the name is the IR's ``const`` above; ``scalar(f, scale=0, offset=c)`` or a view gives a constant)
    **{name: "symcot.constructions.encoding" for name in (
        "StateEncoding", "StopRule", "onehot", "indicator", "scalar", "vector", "flat")},
    # the all-n statement, the algorithm's vocabulary and the check that proves it for every n
    **{name: "symcot.constructions.alln" for name in ("AllNStatement", "Segment", "Choice", "Y")},
    **{name: "symcot.algorithms.logic" for name in (
        "Vocabulary", "Sig", "Var", "Fact", "Induction", "Direct", "table")},
    # the reference algorithm, written once: its per-input and batched runs and its definitions derive from it
    **{name: "symcot.algorithms.transition" for name in (
        "Transition", "StateVar", "Index", "Aux", "definitions", "extend", "interpretation")},
    "Reference": "symcot.algorithms.reference",
    "AllNCheck": "symcot.prove.alln.check",
    # inputs
    "Digraph": "symcot.inputs.graphs",
    "OrderedTree": "symcot.inputs.trees",
    # LaTeX (replay is the subpackage symcot.replay: from symcot.replay import replay, render_text)
    "decoder_symbolic": "symcot.latex",
    "decoder_explicit": "symcot.latex",
    # reading back what `symcot export` wrote (load_torch needs PyTorch: pip install 'symcot[torch]')
    "load_npz": "symcot.export",
    "load_torch": "symcot.export",
    # errors a user raises or catches
    "SymcotError": "symcot.errors",
    "InvalidInputError": "symcot.errors",
    "DimensionError": "symcot.errors",
    "DegreeError": "symcot.errors",
    "DescriptionError": "symcot.errors",
    "UnsupportedDescription": "symcot.errors",
    "Undecided": "symcot.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """Load a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'symcot' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
