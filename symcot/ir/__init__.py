"""The construction IR: named-block layouts, structured matrices, degree-≤2 block maps, exact compilation."""

from symcot.ir.expr import (
    Expr,
    bcast,
    bilinear,
    const,
    copy_of,
    dot,
    gate,
    hadamard,
    ones,
    outer,
    unit,
    zeros,
)
from symcot.ir.layout import Block, BlockVars, ConcreteLayout, Layout
from symcot.ir.maps import ConcreteMap, Map
from symcot.ir.matrices import Commutation, Identity, IndexMatrix, Mat, Ones, Ramp, Shift, UnitVector, Zero
from symcot.ir.symbols import Env, H, Scalar, lam, m, n, same_size, size_value, to_exact

__all__ = [
    "Block", "BlockVars", "Commutation", "ConcreteLayout", "ConcreteMap", "Env", "Expr", "H", "Identity",
    "IndexMatrix", "Layout", "Map", "Mat", "Ones", "Ramp", "Scalar", "Shift", "UnitVector", "Zero", "bcast",
    "bilinear", "const",
    "copy_of", "dot", "gate", "hadamard", "lam", "m", "n", "ones", "outer", "same_size", "size_value",
    "to_exact", "unit", "zeros",
]
