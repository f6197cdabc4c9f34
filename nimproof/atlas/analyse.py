"""One game of an atlas: table, period, proof and figures, as one row that never raises."""

from __future__ import annotations

import platform
import time
import traceback
from datetime import UTC, datetime
from typing import Any

import nimproof
from nimproof.games import parse_spec

#: Columns of ``atlas.parquet``, in order.
COLUMNS = (
    "code",
    "status",
    "max_n",
    "preperiod",
    "period",
    "saltus",
    "proved",
    "theorem",
    "largest_value",
    "largest_at",
    "rare_mask",
    "rare_by_position",
    "rare_heaps",
    "rare_values",
    "last_rare",
    "engine",
    "seconds",
    "error",
    "first_values",
    "provenance",
)

#: Values kept per game for the plot of the HTML page.
PLOT_VALUES = 300
#: Heaps recomputed by the dense kernel as a cross-check, per game.
ATLAS_DENSE_CHECK = 1 << 14
#: Heaps compared with the plain reference implementation, per game (plain Python).
ATLAS_REFERENCE_CHECK = 400


def analyse(spec: str, max_n: int, seconds: float | None = None) -> dict[str, Any]:
    """The atlas row of ``spec`` computed to ``max_n`` (see :data:`COLUMNS`).

    ``status`` is ``proved`` (period proved for all n), ``periodic`` (a period
    holds through the table, no theorem proves it), ``unsolved`` (no period up
    to ``max_n``), ``timeout`` or ``error``. Never raises: a failure is written
    into the row (``error``) so that a sweep goes on.
    """
    t0 = time.monotonic()
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(code=spec, saltus=0, proved=False, theorem="", error="", first_values=[])
    row["provenance"] = (
        f"nimproof {nimproof.__version__} on {platform.node() or 'unknown host'}, "
        f"{datetime.now(UTC).isoformat(timespec='seconds')}"
    )
    try:
        from nimproof.engines.periods import find_period  # lazy: start-up time (numba)

        game = parse_spec(spec)
        run, values = find_period(
            game,
            max_n,
            dense_check=ATLAS_DENSE_CHECK,
            reference_check=ATLAS_REFERENCE_CHECK,
            seconds=seconds,
        )
        f = run.found
        row.update(
            status="timeout" if run.timed_out and run.status != "proved" else run.status,
            max_n=run.values - 1,
            preperiod=None if f is None else f.preperiod,
            period=None if f is None else f.period,
            proved=run.status == "proved",
            theorem="" if f is None else f.theorem,
            engine=run.engine,
            first_values=[int(v) for v in values[:PLOT_VALUES]],
        )
        top = int(values.max()) if len(values) else 0
        row.update(largest_value=top, largest_at=int(values.argmax()) if len(values) else 0)
        for key in ("rare_mask", "rare_by_position", "rare_heaps", "rare_values", "last_rare"):
            row[key] = run.stats.get(key)
    except Exception as exc:  # the row records any failure; the sweep goes on
        row.update(status="error", error=_one_line(exc))
    row["seconds"] = round(time.monotonic() - t0, 3)
    return row


def _one_line(exc: BaseException) -> str:
    last = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}{where}"


def status_text(row: dict[str, Any]) -> str:
    """The row's result in words: what a reader of the atlas sees first."""
    n = row.get("max_n")
    status = row.get("status")
    if status == "proved":
        return f"period {row['period']} from n = {row['preperiod']}, proved for all n"
    if status == "periodic":
        return f"period {row['period']} from n = {row['preperiod']} up to {n}, not proved"
    if status == "unsolved":
        return f"unsolved up to {n}"
    if status == "timeout":
        return f"timeout (unsolved up to {n})"
    return f"error: {row.get('error')}"
