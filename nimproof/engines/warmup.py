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


def main() -> int:
    """Warm the cache and say how long it took (on stderr)."""
    print("compiling nimproof's kernels into numba's cache (once per install)", file=sys.stderr)
    seconds = warm_up(verbose="-v" in sys.argv)
    print(f"done in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
