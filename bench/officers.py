"""Officers (0.6): the cost of a heap in the one-heap sparse kernel.

``python -m bench.officers [--heaps N]`` computes Officers to ``N`` heaps (default
2^20) in a fresh process per thread count (1 and 2), and prints values per second
(wall time and the process's CPU time, for the heaps after the first 2^18, where
the sparse method runs with its ranked common prefix) and the pairs a heap the
common-pair scan reads on the ranking sample, in increasing order and in the ranked
order (see ``nimproof.engines.sparse_kernels.ranked_prefix``). The machine's load
average is printed beside each row: on a shared machine the wall-time figures move
with it, the CPU-time figures less.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_CASE = """
import json, os, time
import numpy as np
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
n, first = {n}, {first}
rule = split_rule(parse_spec("octal:0.6"))
SparseTable(rule, 50_000).extend(50_000)
t = SparseTable(rule, n + 1)
t.extend(first)
w0, c0 = time.perf_counter(), time.process_time()
t.extend(n + 1)
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
# Pairs a heap of the common-pair scan on the ranking sample (the last 256 heaps).
lo = n + 1 - 256
cls = (t.parity, t.posbit, t.cbit)
wanted, counts = sk._sample_wants(
    t.values, lo, n + 1, t.digits, sk.split_removals(t.digits), False, cls, t.rare, t.nrare
)
want = np.full(t.parity.shape[0], -1, dtype=np.int64)
plain = sk._sample_pairs(
    t.values, lo, 1, False, (np.zeros(0, np.int64), np.zeros(0, np.uint64), 1),
    wanted, counts, want, 0,
)
want[:] = -1
prefix = t.prefix if t.prefix is not None else sk.ranked_prefix(
    t.values, n + 1, (t.digits, False), cls, t.rare, t.nrare, 256
)
ranked = sk._sample_pairs(t.values, lo, 1, False, prefix, wanted, counts, want, 0)
print(json.dumps({{
    "wall": (n + 1 - first) / wall, "cpu": (n + 1 - first) / cpu, "rare": t.nrare,
    "plain": plain / 256, "ranked": ranked / 256, "load": os.getloadavg()[0],
}}))
"""


def run(n: int, threads: int, first: int = 1 << 18) -> dict[str, float]:
    """One fresh process computing Officers to ``n`` heaps on ``threads`` threads."""
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    script = _CASE.format(n=n, first=first)
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def markdown(heaps: int = 1 << 20) -> str:
    """One markdown row per thread count (1 and 2), each measured in a fresh process."""
    lines = [
        "| threads | heaps | values/s (wall) | values/s (CPU) | rare heaps "
        "| pairs a heap, increasing | pairs a heap, ranked | load |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for threads in (1, 2):
        r = run(heaps, threads)
        lines.append(
            f"| {threads} | {heaps:,} | {r['wall']:,.0f} | {r['cpu']:,.0f} | {r['rare']:,} "
            f"| {r['plain']:,.0f} | {r['ranked']:,.0f} | {r['load']:.1f} |"
        )
    return "\n".join(lines)


def main() -> int:
    """Print the Officers rows (``--heaps``, default 2^20)."""
    parser = argparse.ArgumentParser(prog="python -m bench.officers")
    parser.add_argument("--heaps", type=int, default=1 << 20)
    args = parser.parse_args()
    print(markdown(args.heaps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
