"""``symcot verify --scheduler``: the batched engine's shards on a Dask cluster, opened and closed around a run.

``--scheduler tcp://HOST:8786`` attaches to a running scheduler (``dask scheduler``, with ``dask worker``
processes); ``--scheduler local`` starts a ``LocalCluster`` of ``--jobs`` worker processes on this machine.
The client, and the local cluster, are closed when the run ends, however it ends. Only the sizes that the
batched engine splits into shards (:mod:`symcot.check.shard`) run on the cluster; the rest of the run (small
sizes, checks without a construction) runs in this process, as without ``--scheduler``.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from symcot.cli.common import not_applicable
from symcot.errors import SymcotError

if TYPE_CHECKING:
    from symcot.check.shard import DaskEngine

#: The ``--scheduler`` value that starts a cluster on this machine.
LOCAL = "local"
#: The one line printed when Dask is not installed.
INSTALL_HINT = "--scheduler needs the distributed extra: pip install 'symcot[distributed]'"


def check_scheduler(args: argparse.Namespace) -> None:
    """``--scheduler`` goes with the batched engine, names an address, and finds Dask installed: before any work."""
    address = getattr(args, "scheduler", None)
    if address is None:
        return
    if not address.strip():
        raise SymcotError("--scheduler: empty address (give tcp://HOST:PORT, or local)")
    why = "runs the batched engine's shards on a Dask cluster"
    if args.symbolic:
        raise not_applicable("--scheduler", f"{why}; --symbolic decides with Z3 in this process")
    if args.all_n:
        raise not_applicable("--scheduler", f"{why}; --all-n proves in this process")
    if args.engine == "exact":
        raise not_applicable("--scheduler", f"{why}; --engine exact replays in this process")
    try:
        import distributed  # noqa: F401 - only whether it imports
    except ImportError:
        raise SymcotError(INSTALL_HINT) from None


@contextmanager
def scheduler_engine(address: str | None, workers: int) -> Iterator[DaskEngine | None]:
    """A :class:`~symcot.check.shard.DaskEngine` on ``address`` (``local``: ``workers`` processes), or ``None``.

    The client (and a local cluster) is closed on leaving, also on an error or an interruption.
    """
    if address is None:
        yield None
        return
    import distributed

    from symcot.check.shard import DaskEngine

    with ExitStack() as stack:
        try:
            if address == LOCAL:
                # ERROR: a shard cancelled after a smaller counterexample is not worth a worker's warning
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.ERROR))
                client = stack.enter_context(distributed.Client(cluster))
            else:
                client = stack.enter_context(distributed.Client(address))
        except (OSError, ValueError) as e:
            raise SymcotError(f"--scheduler {address}: cannot reach the Dask scheduler ({e})") from None
        yield DaskEngine(client)
