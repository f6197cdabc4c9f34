"""A local Dask cluster that opens and closes cleanly (the atlas, the campaign, the misère atlas).

:func:`local_client` starts a ``LocalCluster`` of single-threaded worker processes
(numba kernels hold the GIL, so processes, not threads) and a client on it, and
closes them in order: the client first, then the cluster, which closes each
worker process and then the scheduler.

**Why a worker plugin.** A worker sends the scheduler a heartbeat every half
second (a request that waits for the scheduler's answer). When the cluster
closes, each worker closes its connections to the scheduler; a heartbeat still
waiting for its answer at that moment has its connection cut under it, and the
worker logs it at ERROR level with a traceback ("Failed to communicate with
scheduler during heartbeat ... CommClosedError ... Stream is closed"), although
nothing went wrong. The wider the wait, the likelier: on a loaded machine the
scheduler (a thread of the calling process) answers slowly. :class:`CloseAfterBeat`,
registered on every worker of the cluster (this module imports Dask:
import it only where Dask runs), keeps track of the heartbeat in
flight; when the worker closes (the plugin's ``teardown`` runs before the worker
closes its connections), it stops the heartbeats and waits for the one in
flight to be answered (at most :data:`BEAT_WAIT` seconds). The scheduler is
still up then: the cluster closes the workers before it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from distributed import Client, LocalCluster
from distributed.diagnostics.plugin import WorkerPlugin

#: Longest wait, in seconds, for a heartbeat in flight when a worker closes.
BEAT_WAIT = 10.0


class CloseAfterBeat(WorkerPlugin):
    """A Dask worker plugin: a closing worker waits for its heartbeat in flight (see the module)."""

    name = "nimproof-close-after-beat"

    def __init__(self) -> None:
        self.flying: set[asyncio.Future[Any]] = set()

    def setup(self, worker: Any) -> None:
        """Wrap the worker's heartbeat so that each one in flight is known."""
        callback = worker.periodic_callbacks.get("heartbeat")
        if callback is None:  # pragma: no cover - every Dask worker has one
            return
        beat = callback.callback

        async def tracked() -> None:
            task = asyncio.ensure_future(beat())
            self.flying.add(task)
            try:
                await task
            finally:
                self.flying.discard(task)

        callback.callback = tracked

    async def teardown(self, worker: Any) -> None:
        """Stop the heartbeats, then wait for the one in flight (not the task closing the
        worker: a heartbeat answered "missing" closes the worker itself)."""
        callback = worker.periodic_callbacks.get("heartbeat")
        if callback is not None:
            callback.stop()
        here = asyncio.current_task()
        others = [t for t in self.flying if t is not here and not t.done()]
        if others:
            await asyncio.wait(others, timeout=BEAT_WAIT)


@contextmanager
def local_client(workers: int | None) -> Iterator[tuple[Client, int]]:
    """A client on a new local cluster of ``workers`` single-threaded processes (default:
    one per core, :class:`CloseAfterBeat` on each) and that number; on exit closes the
    client, then the cluster (its workers, then its scheduler)."""
    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        # Any free port: the default (8787) may be another cluster's on this machine.
        dashboard_address="127.0.0.1:0",
        silence_logs=40,
    )
    try:
        with Client(cluster) as client:
            client.register_plugin(CloseAfterBeat(), name=CloseAfterBeat.name)
            yield client, n
    finally:
        cluster.close()
