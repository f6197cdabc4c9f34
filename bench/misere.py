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


#: The octal codes of the seeds whose misère nim-values are timed to the engine's limit.
VALUE_GAMES = ("kayles", "octal:0.07", "octal:0.137")


@dataclass(frozen=True)
class MisereValueRow:
    game: str
    limit: int
    seconds: float
    positions: int
    #: Baseline in the same run: the table to heap 40 with and without the rewriting of sums.
    seconds_40: float
    plain_seconds_40: float


def _plain_table_40(spec: str) -> float:
    """Heaps 0..40 by the plain reference evaluation (no rewriting), one shared cache."""
    from nimproof.engines import reference
    from nimproof.games.registry import parse_spec

    game, cache = parse_spec(f"misere:{spec}"), {}  # type: ignore[var-annotated]
    t0 = time.perf_counter()
    for n in range(41):
        reference.value(game, n, cache)
    return time.perf_counter() - t0


def run_misere_value_benchmarks() -> list[MisereValueRow]:
    """Misère nim-values of single heaps: the time of each seed code's table to its limit."""
    from nimproof.engines.heap import MisereHeaps, misere_split_limit
    from nimproof.games.base import HeapGame
    from nimproof.games.registry import parse_spec

    rows = []
    for spec in VALUE_GAMES:
        base = parse_spec(spec)
        assert isinstance(base, HeapGame)
        limit = misere_split_limit(base)
        ev = MisereHeaps(base)
        t0 = time.perf_counter()
        for n in range(41):
            ev.value((n,))
        s40 = time.perf_counter() - t0
        for n in range(41, limit + 1):
            ev.value((n,))
        seconds = time.perf_counter() - t0
        rows.append(MisereValueRow(spec, limit, seconds, len(ev.memo), s40, _plain_table_40(spec)))
    return rows
