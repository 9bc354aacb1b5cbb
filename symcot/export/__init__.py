"""Export a compiled decoder: numpy ``.npz`` state dicts and ``torch.nn.Module`` files.

:mod:`.state` names and builds the arrays (numpy only); :mod:`.torch_module` builds the module and is
imported only when asked for (:func:`torch_api`), so numpy users need no PyTorch. This package reads
``ir`` and ``model`` only, like the replay engines.
"""

from __future__ import annotations

from typing import Any

from symcot.errors import SymcotError
from symcot.export.state import FORMAT, load_npz, map_arrays, save_npz, state_dict

#: What to install for ``--format torch``.
TORCH_HINT = "pip install 'symcot[torch]' (torch==2.13.0, the CPU build)"


def torch_api() -> Any:
    """The module :mod:`symcot.export.torch_module`, or one line saying how to install PyTorch."""
    import importlib

    try:
        import torch  # noqa: F401
    except ImportError:
        raise SymcotError(f"the torch export needs PyTorch: {TORCH_HINT}") from None
    return importlib.import_module("symcot.export.torch_module")


def load_torch(path: Any) -> Any:
    """The ``torch.nn.Module`` saved by ``symcot export --format torch``."""
    return torch_api().load(path)


__all__ = ["FORMAT", "TORCH_HINT", "load_npz", "load_torch", "map_arrays", "save_npz", "state_dict", "torch_api"]
