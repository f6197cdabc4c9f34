"""The misère atlas: the misère quotient of every octal code 0.d, 0.dd, 0.ddd, on Dask, resumable.

One row per code: the heaps reached, the quotient order after each heap, the
heaps where it changed, whether it looks stable (no change over the last half
of the heaps computed), whether the periodicity theorem proved it for every
heap, its period, and why the computation stopped. Rows go to
``OUT/misere_atlas.parquet`` as they arrive (atomically, every few seconds and
at the end); a sweep started again keeps every code already computed with the
same bounds, or proved.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nimproof.errors import UsageError
from nimproof.misere.quotient import misere_quotient
from nimproof.output import output_dir

#: Seconds between two writes of the parquet file during a sweep.
SAVE_EVERY = 5.0
COLUMNS = (
    "code",
    "status",
    "heaps",
    "order",
    "p_portion",
    "orders",
    "changes",
    "stable",
    "proved",
    "preperiod",
    "period",
    "max_heap",
    "max_positions",
    "stopped",
    "seconds",
    "error",
)


def atlas_file(out: str | os.PathLike[str]) -> Path:
    """The parquet file of a misère atlas folder."""
    return Path(out) / "misere_atlas.parquet"


def analyse(spec: str, max_heap: int, max_positions: int) -> dict[str, Any]:
    """One atlas row (never raises: a failure is a row with status ``error``)."""
    t0 = time.monotonic()
    try:
        q = misere_quotient(spec, max_heap, max_positions=max_positions)
    except Exception as exc:
        return {"code": spec, "status": "error", "error": f"{type(exc).__name__}: {exc}"}
    half = q.heaps // 2
    stable = bool(q.heaps >= 4 and all(h <= half for h in q.changes))
    status = "proved" if q.proved_all else "stable" if stable else "open"
    return {
        "code": spec,
        "status": status,
        "heaps": q.heaps,
        "order": q.order,
        "p_portion": len(q.monoid.p),
        "orders": list(q.orders),
        "changes": list(q.changes),
        "stable": stable,
        "proved": q.proved_all,
        "preperiod": q.period[0] if q.period else None,
        "period": q.period[1] if q.period else None,
        "max_heap": max_heap,
        "max_positions": max_positions,
        "stopped": q.stopped,
        "seconds": round(time.monotonic() - t0, 3),
        "error": None,
    }


def load(out: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows stored in the atlas folder (none when there is no file)."""
    import pandas as pd

    path = atlas_file(out)
    if not path.exists():
        return []
    try:
        frame = pd.read_parquet(path)
    except Exception as exc:
        raise UsageError(
            f"{path}: unreadable misère atlas ({exc}); delete it to start again"
        ) from None
    rows = []
    for row in frame.to_dict(orient="records"):
        clean: dict[str, Any] = {k: (None if _missing(v) else v) for k, v in row.items()}
        for key in ("orders", "changes"):
            values = clean.get(key)
            clean[key] = [] if values is None else [int(x) for x in values]
        rows.append(clean)
    return rows


def _missing(value: Any) -> bool:
    import pandas as pd

    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def save(out: str | os.PathLike[str], rows: list[dict[str, Any]]) -> Path:
    """Write the rows atomically, ordered by code."""
    import pandas as pd

    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba, pandas, pyarrow)

    path = atlas_file(out)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write the misère atlas to {path.parent}: {exc}") from None
    ordered = sorted(rows, key=lambda r: str(r["code"]))
    frame = pd.DataFrame([{k: r.get(k) for k in COLUMNS} for r in ordered], columns=list(COLUMNS))
    for col in ("heaps", "order", "p_portion", "preperiod", "period", "max_heap", "max_positions"):
        frame[col] = frame[col].astype("Int64")
    atomic_write(path, lambda f: frame.to_parquet(f, index=False))
    return path


def sweep(
    specs: list[str],
    out: str | os.PathLike[str],
    *,
    max_heap: int = 60,
    max_positions: int = 100_000,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Compute the quotient of every spec (Dask, or this process with ``workers=0``).

    Returns the rows of ``specs`` and how many were computed now (the others
    were kept from the file). An ``out`` that cannot become a writable folder is
    refused (:class:`UsageError`) before any game is computed.
    """
    output_dir(str(out), "misère atlas folder")
    kept = {r["code"]: r for r in load(out)}

    def done(row: dict[str, Any]) -> bool:
        same = row.get("max_heap") == max_heap and row.get("max_positions") == max_positions
        return row.get("status") != "error" and (row.get("proved") is True or same)

    todo = [s for s in specs if s not in kept or not done(kept[s])]
    rows = dict(kept)
    count = [len(specs) - len(todo)]
    saved = [time.monotonic()]

    def finished(row: dict[str, Any]) -> None:
        rows[row["code"]] = row
        count[0] += 1
        if progress is not None:
            progress(count[0], len(specs))
        if time.monotonic() - saved[0] > SAVE_EVERY:
            save(out, list(rows.values()))
            saved[0] = time.monotonic()

    if progress is not None:
        progress(count[0], len(specs))
    if workers == 0:
        for spec in todo:
            finished(analyse(spec, max_heap, max_positions))
    elif todo:
        _on_dask(todo, max_heap, max_positions, workers, finished)
    save(out, list(rows.values()))
    return [rows[s] for s in specs if s in rows], len(todo)


def _on_dask(
    todo: list[str],
    max_heap: int,
    max_positions: int,
    workers: int | None,
    finished: Callable[[dict[str, Any]], None],
) -> None:
    from distributed import as_completed

    from nimproof.dask_local import local_client  # lazy: imports Dask

    with local_client(workers) as (client, _):
        futures = client.map(
            analyse, todo, max_heap=max_heap, max_positions=max_positions, pure=False
        )
        for future in as_completed(futures):
            finished(future.result())


def summary(rows: list[dict[str, Any]]) -> str:
    """A Markdown table: one line per code (status, heaps, order, period)."""
    lines = [
        "| code | status | heaps | order | P-portion | period | changes |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        period = f"{r['period']} from {r['preperiod']}" if r.get("period") else "-"
        lines.append(
            f"| {r['code']} | {r['status']} | {r.get('heaps')} | {r.get('order')} | "
            f"{r.get('p_portion')} | {period} | {r.get('changes')} |"
        )
    return "\n".join(lines) + "\n"
