"""The parallel, resumable sweep of an atlas on Dask.

:func:`run_sweep` sends one task per game (:func:`nimproof.atlas.analyse.analyse`)
to a Dask cluster: a ``LocalCluster`` with one single-threaded worker process
per core by default (numba kernels hold the GIL, so processes, not threads),
or the scheduler at ``scheduler`` (``tcp://HOST:PORT``). Rows are written to
``OUT/atlas.parquet`` as they arrive (atomically, every few seconds and at
the end), so an interrupted sweep keeps its finished games; a sweep started
again skips every game already in the file with the same ``max_n`` (failed
and timed-out games are tried again). ``workers=0`` runs the games in this
process, without Dask.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from nimproof.atlas.analyse import COLUMNS, analyse
from nimproof.errors import UsageError
from nimproof.output import output_dir

Progress = Callable[[int, int], None]

#: Seconds between two writes of ``atlas.parquet`` during a sweep.
SAVE_EVERY = 5.0
#: Statuses that a new sweep computes again.
RETRY = ("error", "timeout")


@dataclass(frozen=True, slots=True)
class SweepResult:
    """The rows of a sweep (every game asked for), how many were computed now, and where."""

    rows: list[dict[str, Any]]
    computed: int
    skipped: int
    path: Path
    seconds: float
    where: str


def atlas_path(out: str | os.PathLike[str]) -> Path:
    """The parquet file of an atlas folder."""
    return Path(out) / "atlas.parquet"


def load_rows(out: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows stored in ``OUT/atlas.parquet`` (none when there is no file)."""
    path = atlas_path(out)
    if not path.exists():
        return []
    try:
        frame = pd.read_parquet(path)
    except Exception as exc:
        raise UsageError(f"{path}: unreadable atlas ({exc}); delete it to start again") from None
    rows = frame.to_dict(orient="records")
    for row in rows:
        for key, value in row.items():
            if value is pd.NA or (isinstance(value, float) and math.isnan(value)):
                row[key] = None  # a missing number
            elif hasattr(value, "item") and not hasattr(value, "__len__"):
                row[key] = value.item()  # numpy scalars as Python numbers
        first = row.get("first_values")
        row["first_values"] = [] if first is None else [int(v) for v in first]
    return rows


def save_rows(out: str | os.PathLike[str], rows: list[dict[str, Any]]) -> Path:
    """Write the rows to ``OUT/atlas.parquet`` atomically, ordered by code."""
    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba)

    path = atlas_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame([{k: r.get(k) for k in COLUMNS} for r in rows], columns=list(COLUMNS))
    for col in ("preperiod", "period", "largest_value", "largest_at", "rare_mask"):
        frame[col] = frame[col].astype("Int64")
    for col in ("rare_heaps", "rare_values", "last_rare", "max_n", "saltus"):
        frame[col] = frame[col].astype("Int64")
    frame["rare_by_position"] = frame["rare_by_position"].astype("boolean")
    atomic_write(path, lambda f: frame.to_parquet(f, index=False))
    return path


def run_sweep(
    specs: list[str],
    max_n: int,
    out: str | os.PathLike[str],
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    seconds: float | None = None,
    progress: Progress | None = None,
) -> SweepResult:
    """Analyse every game of ``specs`` to ``max_n`` and keep the rows in ``OUT/atlas.parquet``.

    An ``out`` that cannot become a writable folder is refused (:class:`UsageError`)
    before any game is analysed."""
    t0 = time.monotonic()
    output_dir(str(out), "atlas folder")
    kept = {r["code"]: r for r in load_rows(out) if r.get("code")}
    todo = [s for s in specs if s not in kept or not _finished(kept[s], max_n)]
    rows = dict(kept)
    done = len(specs) - len(todo)
    saved = [time.monotonic()]
    state = {"done": done}

    def finished(row: dict[str, Any]) -> None:
        rows[row["code"]] = row
        state["done"] += 1
        if progress is not None:
            progress(state["done"], len(specs))
        if time.monotonic() - saved[0] > SAVE_EVERY:
            save_rows(out, list(rows.values()))
            saved[0] = time.monotonic()

    if progress is not None:
        progress(done, len(specs))

    def arrived(spec: str, row: Any) -> None:
        if not isinstance(row, dict):  # a worker died: record it, go on
            row = {"code": spec, "status": "error", "error": str(row)}
        finished(row)

    where = run_tasks(todo, _analyse, (max_n, seconds), scheduler, workers, arrived)
    path = save_rows(out, list(rows.values()))
    wanted = [rows[s] for s in specs if s in rows]
    return SweepResult(wanted, len(todo), done, path, time.monotonic() - t0, where)


def _finished(row: dict[str, Any], max_n: int) -> bool:
    """A stored row that a sweep to ``max_n`` keeps: proved, or computed to the same bound."""
    if row.get("status") in RETRY:
        return False
    return row.get("status") == "proved" or row.get("max_n") == max_n


def _analyse(spec: str, max_n: int, seconds: float | None) -> dict[str, Any]:
    # Looked up when called, so that a test may replace analyse in this module.
    return analyse(spec, max_n, seconds)


def run_tasks(
    todo: list[str],
    task: Callable[..., Any],
    args: tuple[Any, ...],
    scheduler: str | None,
    workers: int | None,
    finished: Callable[[str, Any], None],
) -> str:
    """Run ``task(spec, *args)`` for every spec; ``finished(spec, result)`` as each arrives.

    On a local Dask cluster (``workers`` processes, one per core by default; opened and
    closed by :func:`nimproof.dask_local.local_client`), on the scheduler at
    ``scheduler``, or in this process when ``workers == 0``. Tasks start in the order of
    ``todo``. A task that fails on a worker arrives as the text of its exception.
    Returns where it ran.
    """
    if workers == 0 and scheduler is None:
        for spec in todo:
            finished(spec, task(spec, *args))
        return "this process"
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - a dependency of nimproof
        raise UsageError(
            "the atlas needs dask[distributed]; pip install 'dask[distributed]'"
        ) from None
    from nimproof.dask_local import local_client  # lazy: imports Dask

    if scheduler is None:
        with local_client(workers) as (client, n):
            _gather(client, todo, task, args, finished)
        return f"a local Dask cluster of {n} worker processes"
    try:
        remote = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    with remote:
        _gather(remote, todo, task, args, finished)
    return f"the Dask cluster at {scheduler}"


def _gather(
    client: Any,
    todo: list[str],
    task: Callable[..., Any],
    args: tuple[Any, ...],
    finished: Callable[[str, Any], None],
) -> None:
    """Submit every task, the first of ``todo`` with the highest priority, and hand each
    result (or the text of its exception) to ``finished`` as it arrives."""
    from distributed import as_completed

    name = getattr(task, "__name__", "task").strip("_")
    futures = [
        client.submit(
            task, spec, *args, pure=False, key=f"{name}-{spec}-{args[0]}", priority=len(todo) - i
        )
        for i, spec in enumerate(todo)
    ]
    spec_of = {f.key: s for f, s in zip(futures, todo, strict=True)}
    for future in as_completed(futures):
        try:
            result = future.result()
        except Exception as exc:  # a worker died: the caller records it
            result = f"{type(exc).__name__}: {exc}"
        finished(spec_of[future.key], result)
