"""Layouts: embeddings as a concatenation of named blocks with symbolic sizes (the paper's ``π_name``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, Union

import sympy as sp

from symcot.errors import DimensionError
from symcot.ir.expr import BlockRef
from symcot.ir.symbols import Env, Scalar, normalize_env, size_expr, size_value, to_exact

#: A coordinate in the arithmetic of whichever engine reads the layout: ``int``/``Fraction`` in exact
#: replay, SymPy expressions, Z3 terms, the polynomials of symbolic replay. Selecting blocks keeps it.
V = TypeVar("V")
#: A block's size as a user writes it: an ``int``, a string (``"n"``, ``"n/2 + 1"``) or a SymPy expression.
SizeLike = Union[int, str, sp.Expr]  # noqa: UP007 - a runtime alias, kept 3.10-safe
#: What :meth:`ConcreteLayout.assemble` takes for one block: its values (a list, a tuple, a numpy integer
#: array, a SymPy matrix), or one scalar for a block of size 1.
BlockValue = Union[Sequence[Scalar], Scalar, sp.MatrixBase, Any]  # noqa: UP007


@dataclass(frozen=True)
class Block:
    """One named block of an embedding: ``name`` and its size, a SymPy expression in the size symbols."""

    name: str
    size: sp.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", size_expr(self.size))  # "n", sp.Symbol("n"), numpy ints
        if not self.name or not isinstance(self.name, str):
            raise DimensionError(f"block name must be a non-empty string, got {self.name!r}")


class Layout:
    """An ordered list of named blocks; the embedding is their concatenation.

    Example:
        >>> from symcot.ir import Layout, n
        >>> L = Layout("dfs", [("cur", n), ("flg1", 1)])
        >>> L.dim
        n + 1

    """

    def __init__(self, name: str, blocks: Iterable[tuple[str, SizeLike] | Block]):
        self.name = name
        bl: list[Block] = []
        for b in blocks:
            bl.append(b if isinstance(b, Block) else Block(b[0], b[1]))
        names = [b.name for b in bl]
        dup = {x for x in names if names.count(x) > 1}
        if dup:
            raise DimensionError(f"layout {name!r} repeats block name(s) {sorted(dup)}")
        self.blocks: tuple[Block, ...] = tuple(bl)
        self._by_name = {b.name: b for b in bl}

    # -- symbolic -----------------------------------------------------------------------------
    @property
    def dim(self) -> sp.Expr:
        """Total dimension as an expression in the size symbols."""
        return sp.expand(sp.Add(*[b.size for b in self.blocks]))

    @property
    def names(self) -> tuple[str, ...]:
        """Block names in order."""
        return tuple(b.name for b in self.blocks)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def block(self, name: str) -> Block:
        """The block called ``name`` (a clear error if there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise DimensionError(
                f"layout {self.name!r} has no block {name!r}; blocks are {', '.join(self.names)}"
            ) from None

    def size(self, name: str) -> sp.Expr:
        """Size of block ``name``."""
        return self.block(name).size

    def offset(self, name: str) -> sp.Expr:
        """Symbolic start index of block ``name``."""
        off = sp.Integer(0)
        for b in self.blocks:
            if b.name == name:
                return sp.expand(off)
            off += b.size
        raise DimensionError(f"layout {self.name!r} has no block {name!r}")

    def vars(self) -> BlockVars:
        """Block variables for stating maps: ``x = L.vars(); x.cur``, ``x["flg1"]``."""
        return BlockVars(self)

    def concat(self, name: str, parts: Sequence[tuple[str, Layout]]) -> Layout:
        """Concatenate ``(prefix, layout)`` parts into a layout whose blocks are ``prefix.block``."""
        return Layout(name, [(f"{p}.{b.name}", b.size) for p, lay in parts for b in lay.blocks])

    def instantiate(self, env: Env) -> ConcreteLayout:
        """Concrete offsets and sizes at the given sizes (e.g. ``{n: 4}``)."""
        return ConcreteLayout(self, env)

    def __repr__(self) -> str:
        body = ", ".join(f"{b.name}: {b.size}" for b in self.blocks)
        return f"Layout({self.name!r}; {body}; d = {self.dim})"


class ConcreteLayout:
    """A layout at concrete sizes: integer offsets, block extraction (``π_name``) and assembly."""

    def __init__(self, layout: Layout, env: Env):
        self.layout = layout
        self.env = env = normalize_env(env)
        self.sizes: dict[str, int] = {}
        self.offsets: dict[str, int] = {}
        off = 0
        for b in layout.blocks:
            try:
                s = size_value(b.size, env)
            except ValueError as e:
                raise DimensionError(f"layout {layout.name!r}: block {b.name!r}: {e}") from None
            self.sizes[b.name] = s
            self.offsets[b.name] = off
            off += s
        self.dim = off
        self._slices = {nm: slice(o, o + self.sizes[nm]) for nm, o in self.offsets.items()}

    @property
    def names(self) -> tuple[str, ...]:
        """Block names in order."""
        return self.layout.names

    def slice(self, name: str) -> slice:
        """Index range of block ``name``."""
        sl = self._slices.get(name)
        if sl is None:
            self.layout.block(name)  # raises the error naming the layout
            raise KeyError(name)
        return sl

    def pi(self, name: str, vec: Sequence[V]) -> list[V]:
        """The paper's selector ``π_name``: the block's coordinates of ``vec``."""
        if len(vec) != self.dim:
            raise DimensionError(f"vector of length {len(vec)} given to layout {self.layout.name!r} of d={self.dim}")
        return list(vec[self.slice(name)])

    def split(self, vec: Sequence[V]) -> dict[str, list[V]]:
        """All blocks of ``vec`` by name."""
        return {nm: self.pi(nm, vec) for nm in self.names}

    def assemble(self, blocks: Mapping[str, BlockValue], default: Scalar = 0) -> list[Any]:
        """Build a vector from ``{block: values}``; scalars are accepted for size-1 blocks.

        Values may be lists, tuples, numpy integer arrays or SymPy matrices (their entries become Python
        ``int``/SymPy numbers: numpy's fixed-width integers would overflow silently). Unnamed blocks are
        filled with ``default``. Wrong lengths, unknown names and floats are errors.
        """
        vec: list[Any] = [default] * self.dim
        for name, val in blocks.items():
            sl = self.slice(name)
            size = sl.stop - sl.start
            vals = val if isinstance(val, list) else list(val) if isinstance(val, tuple) else _values(name, val)
            if len(vals) != size:
                raise DimensionError(
                    f"block {name!r} of layout {self.layout.name!r} has size {size}, got {len(vals)} values"
                )
            vec[sl] = vals
        return vec

    def coordinate_name(self, index: int) -> str:
        """Human name of coordinate ``index``: ``cur[2]`` (or ``flg1`` for a size-1 block)."""
        for nm in self.names:
            o, s = self.offsets[nm], self.sizes[nm]
            if o <= index < o + s:
                return nm if s == 1 else f"{nm}[{index - o}]"
        raise IndexError(index)


def _values(block: str, val: BlockValue) -> list[Any]:
    """The entries of a numpy array or SymPy matrix as exact Python values; a scalar as a one-entry list."""
    import operator

    if isinstance(val, sp.MatrixBase):
        return [to_exact(v) for v in val]
    if hasattr(val, "dtype") and not isinstance(val, sp.Basic):  # numpy array or scalar
        if val.dtype.kind not in "iub":
            raise DimensionError(f"block {block!r}: numpy values of dtype {val.dtype}; symcot is exact: give "
                                 "integers (or a list of Fractions)")
        flat: list[Any] = val.reshape(-1).tolist() if hasattr(val, "reshape") else [val]
        return [operator.index(v) for v in flat]
    return [val]


class BlockVars:
    """Attribute/item access to the blocks of a layout as IR expressions (see :mod:`symcot.ir.expr`)."""

    def __init__(self, layout: Layout):
        self._layout = layout

    def __getitem__(self, name: str) -> BlockRef:
        return BlockRef(self._layout, name)

    def __getattr__(self, name: str) -> BlockRef:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]
