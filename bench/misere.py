"""Misère quotients: time, order, heap bound and memory of the quotient computation per game.

Each game's quotient is computed once (``nimproof.misere_quotient``, default
budget) with Python's allocation tracer on, so the memory figure is the peak
of Python allocations (the tracer slows the run; the time is measured in a
second run without it). Beside it, in the same run, the brute-force check of
every sum of up to four heaps of total at most 30 is timed, as a baseline the
load of the machine affects in the same way.
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass

from nimproof.api import misere_check, misere_quotient

GAMES = (
    "octal:0.75",
    "octal:0.31",
    "octal:0.52",
    "kayles",
    "dawsons-kayles",
    "octal:0.15",
    "octal:0.115",
    "officers",
)
#: The budget the benchmark gives each game (exact outcomes searched).
MAX_POSITIONS = 300_000
#: The largest candidate quotient the benchmark lets a game build.
MAX_ORDER = 400
MAX_HEAP = 400


@dataclass(frozen=True)
class MisereRow:
    game: str
    seconds: float
    peak_mb: float
    order: int
    heaps: int
    proved: bool
    stopped: str
    check_seconds: float


def run_misere_benchmarks() -> list[MisereRow]:
    """One row per game of :data:`GAMES`."""
    rows = []
    for game in GAMES:
        tracemalloc.start()
        misere_quotient(game, MAX_HEAP, max_positions=MAX_POSITIONS, max_order=MAX_ORDER)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        t0 = time.perf_counter()
        q = misere_quotient(game, MAX_HEAP, max_positions=MAX_POSITIONS, max_order=MAX_ORDER)
        seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        misere_check(q, 4, 30)
        check = time.perf_counter() - t0
        rows.append(
            MisereRow(game, seconds, peak / 2**20, q.order, q.heaps, q.proved_all, q.stopped, check)
        )
    return rows
