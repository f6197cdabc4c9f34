"""Compile the engines' numba kernels once, at install, into numba's on-disk cache.

Every kernel is declared ``cache=True``: numba keeps the machine code it
compiles beside the module (``__pycache__``) or in ``NUMBA_CACHE_DIR``, and
loads it in later processes instead of compiling again. :func:`warm_up` calls
each engine on small tables, in each value type the engines use, so that the
first real table on a new install loads compiled code instead of compiling it.
``make`` runs it after installing (``python -m nimproof.engines.warmup``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nimproof.engines import grundy_table, sparse
from nimproof.games import parse_spec

#: One game per engine the command line reaches for one-heap tables.
SPECS = (
    "kayles",
    "octal:0.106",
    "officers",
    "grundys-game",
    "octal:0.33",
    "octal:0.8",
    "subtraction:1,3,4",
    "subtraction:squares",
    "half-heap",
    "misere:octal:0.33",
)


def warm_up(verbose: bool = False) -> float:
    """Compile (or load) every kernel the common tables use; returns the seconds it took."""
    # lazy: start-up time (numba, pandas, pyarrow)
    from nimproof.datasets.stream import stream_table
    from nimproof.engines.sparse import SparseTable, period_check, split_rule

    t0 = time.monotonic()
    for spec in SPECS:
        game = parse_spec(spec)
        values = grundy_table(game, 3000)
        if split_rule(game) is not None and not game.misere:
            period_check(game, values, len(values))  # type: ignore[arg-type]
        if verbose:
            print(f"  {spec}: {time.monotonic() - t0:.1f} s", file=sys.stderr)
    rule = split_rule(parse_spec("officers"))
    assert rule is not None
    # Long tables keep uint8 then uint16 values; the block kernel runs on one thread (a Dask
    # worker's, or --threads 1) and, pipelined, on every core (no dense fallback: Officers has
    # too many rare heaps below 6,000 for the engine to choose the sparse method by itself).
    cores = sparse.use_threads(None)
    for dtype in (np.uint8, np.uint16, np.uint32):
        for parallel, threads in ((False, cores), (True, 1), (True, cores)):
            sparse.use_threads(threads)
            table = SparseTable(rule, 6000, block=64, parallel=parallel, dense_share=2.0)
            table.values = table.values.astype(dtype)
            table.extend(6000)
    sparse.use_threads(None)
    _warm_long_tables()
    saved = sparse.COMPACT_FROM
    try:
        sparse.COMPACT_FROM = 100
        SparseTable(rule, 12_000).extend(12_000)  # widening uint8 -> uint16
    finally:
        sparse.COMPACT_FROM = saved
    with tempfile.TemporaryDirectory() as folder:
        for spec in ("subtraction:1,3,4", "octal:0.106"):
            stream_table(parse_spec(spec), 5000, Path(folder) / "t.parquet", part_rows=2048)
    return time.monotonic() - t0


def _warm_long_tables() -> None:
    """The one-heap sparse kernel as long tables run it: values in ``uint8`` and ``uint16``
    (tables past :data:`~nimproof.engines.sparse.COMPACT_FROM` heaps, and every table in a
    memory-mapped file), past :data:`~nimproof.engines.sparse.RANK_FROM` where the common
    prefix is ranked, and the period check on those types (the campaign). Without this the
    first such table compiles them inside its first ``extend`` call: about 5 s of CPU,
    which made one long ``extend`` of 0.167 look slower than four shorter ones
    (docs/frontier.md). Tables past 2^31 heaps (an ``int64`` rare list) still compile
    their variant once; they run for hours."""
    # lazy: start-up time (numba)
    from nimproof.engines.sparse import RANK_FROM, SparseTable, period_check, split_rule

    game = parse_spec("octal:0.167")  # about 60 rare heaps: the one-heap kernel
    rule = split_rule(game)
    assert rule is not None
    count = RANK_FROM + 4096
    for dtype in (np.uint8, np.uint16):
        table = SparseTable(rule, count)
        table.values = table.values.astype(dtype)
        table.extend(count)
        period_check(game, table.values, count)  # type: ignore[arg-type]


def main() -> int:
    """Warm the cache and say how long it took (on stderr)."""
    print("compiling nimproof's kernels into numba's cache (once per install)", file=sys.stderr)
    seconds = warm_up(verbose="-v" in sys.argv)
    print(f"done in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
