"""Officers (0.6) and the other sparse-space games: the cost of a heap, the two kernels, two cores.

``python -m bench.officers [--heaps N] [--quick] [--games A,B]`` prints two tables and
the speed-ups:

* **the two kernels side by side**: for Officers, Grundy's game, 0.106, 0.167 and
  0.16, one fresh process per game (one thread) computes the same heaps with the
  one-heap kernel (``sparse_kernels.sparse_kernel``) and with the block kernel
  (``block_kernels.block_kernel``), interleaved in stretches on two tables in the
  same state, and prints values per second of CPU time for each, their ratio,
  whether the values are identical, and which kernel the engine picks (the block
  kernel from :data:`nimproof.engines.sparse.BLOCK_RARE` rare heaps on, while the
  values stay below :data:`~nimproof.engines.sparse.BLOCK_VALUES`);
* **Officers and Grundy's game on 1 and 2 threads** (``--quick``: Officers only;
  ``--games``: those games, this table only): fresh processes, interleaved, computing
  the game to ``N`` heaps (default 2^20) on one thread, on two threads with the
  pipelined kernel (``nimproof.engines.block_pipeline``: one parallel region a
  stretch, the engine's choice) and on two threads with the block kernel's own
  parallel steps (one region a step of a block of 256 heaps, the kernel before);
  values per second of wall time and of the process's CPU time for the heaps after
  ``N / 2``, the rare heaps, and the pairs a heap of the common-pair scan on the
  ranking sample in increasing order and in the ranked order (see
  ``nimproof.engines.sparse_kernels.ranked_prefix``);
* **the speed-up from 1 to 2 threads** (wall time) of each way of running two threads.

The machine's load average is printed beside each row: on a shared machine the
wall-time figures move with it (a second thread only pays when a core is free), the
CPU-time figures less.
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
from nimproof.engines import sparse
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
n, first, spec = {n}, {first}, {spec!r}
sparse.PIPELINE = {pipeline}
rule = split_rule(parse_spec(spec))
SparseTable(rule, 50_000).extend(50_000)
t = SparseTable(rule, n + 1)
t.extend(first)
w0, c0 = time.perf_counter(), time.process_time()
t.extend(n + 1)
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
# Pairs a heap of the common-pair scan on the ranking sample (the last 256 heaps).
lo = n + 1 - 256
cls = (t.parity, t.posbit, t.cbit)
ks, unequal = sk.split_removals(t.digits), t.rule.unequal
wanted, counts = sk._sample_wants(t.values, lo, n + 1, t.digits, ks, unequal, cls, t.rare, t.nrare)
want = np.full(t.parity.shape[0], -1, dtype=np.int64)
plain = sk._sample_pairs(
    t.values, lo, int(ks[0]), unequal, (np.zeros(0, np.int64), np.zeros(0, np.uint64), 1),
    wanted, counts, want, 0,
)
want[:] = -1
prefix = t.prefix if t.prefix is not None else sk.ranked_prefix(
    t.values, n + 1, (t.digits, unequal), cls, t.rare, t.nrare, 256
)
ranked = sk._sample_pairs(t.values, lo, int(ks[0]), unequal, prefix, wanted, counts, want, 0)
print(json.dumps({{
    "wall": (n + 1 - first) / wall, "cpu": (n + 1 - first) / cpu, "rare": t.nrare,
    "plain": plain / 256, "ranked": ranked / 256, "load": os.getloadavg()[0],
}}))
"""

_KERNELS = """
import json, os, time
import numpy as np
from nimproof.engines import sparse
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
spec, first, last, step = {spec!r}, {first}, {last}, {step}
rule = split_rule(parse_spec(spec))
SparseTable(rule, 50_000, parallel=True).extend(50_000)  # compile both kernels first
one = SparseTable(rule, last + 1, parallel=False)
block = SparseTable(rule, last + 1, parallel=True)
one.extend(first)
block.extend(first)
cpu = {{"one": 0.0, "block": 0.0}}
n = first
while n < last:
    n = min(last, n + step)
    for name, table in (("one", one), ("block", block)):
        c0 = time.process_time()
        table.extend(n)
        cpu[name] += time.process_time() - c0
print(json.dumps({{
    "one": (last - first) / cpu["one"], "block": (last - first) / cpu["block"],
    "same": bool(np.array_equal(one.values[:last], block.values[:last])),
    "rare": one.nrare,
    "picks": "block" if one.nrare >= sparse.BLOCK_RARE and one.P <= sparse.BLOCK_VALUES
    else "one-heap",
    "load": os.getloadavg()[0],
}}))
"""

_CONTROL = """
import json, os, time
import numpy as np
from numba import njit, prange
@njit(parallel=True)
def loops(n, parts):
    out = np.zeros(parts, dtype=np.uint64)
    for p in prange(parts):
        x = np.uint64(p + 1)
        for _ in range(n):
            x = (x ^ (x >> np.uint64(29))) * np.uint64(6364136223846793005) + np.uint64(1)
        out[p] = x
    return out
loops(10, 2)
w0 = time.perf_counter()
loops({n}, 2)
print(json.dumps({{"wall": time.perf_counter() - w0, "load": os.getloadavg()[0]}}))
"""

#: (spec, first heap timed, last heap, stretch) of the side-by-side kernel comparison.
KERNEL_CASES: list[tuple[str, int, int, int]] = [
    ("octal:0.6", 1 << 19, 5 << 17, 1 << 14),
    ("grundys-game", 1 << 19, 5 << 17, 1 << 14),
    ("octal:0.106", 1 << 21, 5 << 19, 1 << 16),
    ("octal:0.167", 1 << 21, 5 << 19, 1 << 16),
    ("octal:0.16", 1 << 20, 3 << 19, 1 << 16),
]


def _python(script: str, threads: int) -> dict[str, object]:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run(
    n: int, threads: int, first: int | None = None, spec: str = "octal:0.6", pipeline: bool = True
) -> dict[str, float]:
    """One fresh process computing ``spec`` (default Officers) to ``n`` heaps on ``threads``
    threads; the heaps after ``first`` (default ``n // 2``) are timed. ``pipeline`` False:
    two threads run the block kernel's own parallel steps (one region a step of a block)
    instead of the pipelined kernel."""
    first = n // 2 if first is None else first
    script = _CASE.format(n=n, first=first, spec=spec, pipeline=pipeline)
    return _python(script, threads)  # type: ignore[return-value]


def control(threads: int, n: int = 100_000_000) -> float:
    """Seconds a fresh process on ``threads`` threads takes for two loops of ``n`` steps that
    share nothing (a parallel region of two parts): 1 thread over 2 threads is the speed-up
    the machine can give at that moment, the ceiling for the kernels' speed-up."""
    return float(_python(_CONTROL.format(n=n), threads)["wall"])  # type: ignore[arg-type]


def kernels(spec: str, first: int, last: int, step: int) -> dict[str, object]:
    """The one-heap and the block kernel on the same heaps of ``spec`` (one thread)."""
    return _python(_KERNELS.format(spec=spec, first=first, last=last, step=step), 1)


def kernel_table(cases: list[tuple[str, int, int, int]] = KERNEL_CASES) -> str:
    """The side-by-side table of the two kernels (values/s of CPU time, one thread)."""
    lines = [
        "| game | heaps timed | rare heaps | one-heap kernel: values/s (CPU) "
        "| block kernel: values/s (CPU) | ratio | identical | engine picks | load |",
        "|---|---|---:|---:|---:|---:|---|---|---:|",
    ]
    for spec, first, last, step in cases:
        r = kernels(spec, first, last, step)
        one, block = float(r["one"]), float(r["block"])  # type: ignore[arg-type]
        lines.append(
            f"| {spec} | {first:,} to {last:,} | {r['rare']:,} | {one:,.0f} | {block:,.0f} "
            f"| {block / one:.2f} | {'yes' if r['same'] else 'NO'} | {r['picks']} "
            f"| {float(r['load']):.1f} |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


#: The rows of the thread table: (label, threads, pipelined kernel), run in this order.
THREAD_ROWS = [
    ("1", 1, True),
    ("2, pipelined (one region a stretch)", 2, True),
    ("2, one region a step of a block (before)", 2, False),
]


def thread_table(heaps: int = 1 << 20, specs: tuple[str, ...] = ("octal:0.6",)) -> str:
    """For each game, one row per :data:`THREAD_ROWS` entry (fresh processes, interleaved),
    then the speed-up from 1 to 2 threads of each way of running two threads."""
    lines = [
        "| game | threads | heaps | values/s (wall) | values/s (CPU) | rare heaps "
        "| pairs a heap, increasing | pairs a heap, ranked | load |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    walls: dict[tuple[str, str], float] = {}
    ceiling = []
    for spec in specs:
        ceiling.append(control(1) / control(2))
        for label, threads, pipeline in THREAD_ROWS:
            r = run(heaps, threads, spec=spec, pipeline=pipeline)
            walls[spec, label] = r["wall"]
            lines.append(
                f"| {spec} | {label} | {heaps:,} | {r['wall']:,.0f} | {r['cpu']:,.0f} "
                f"| {r['rare']:,} | {r['plain']:,.0f} | {r['ranked']:,.0f} | {r['load']:.1f} |"
            )
    lines.append("")
    for spec in specs:
        one = walls[spec, THREAD_ROWS[0][0]]
        ups = ", ".join(
            f"{label}: {walls[spec, label] / one:.2f}" for label, _, _ in THREAD_ROWS[1:]
        )
        lines.append(f"Speed-up from 1 to 2 threads (wall time), {spec}: {ups}")
    lines.append(
        "The machine's own speed-up beside them (two loops that share nothing, run before each "
        f"game's rows): {', '.join(f'{c:.2f}' for c in ceiling)}; a second thread only pays "
        f"when a second core is free ({os.cpu_count()} cores here, load average beside each row)"
    )
    return "\n".join(lines)


def markdown(heaps: int = 1 << 20, quick: bool = False) -> str:
    """The two-kernel table (skipped when ``quick``), then the thread table and speed-up."""
    parts = [] if quick else [kernel_table(), ""]
    specs = ("octal:0.6",) if quick else ("octal:0.6", "grundys-game")
    return "\n".join([*parts, thread_table(heaps, specs)])


def main() -> int:
    """Print the tables (``--heaps``, default 2^20; ``--quick``: the thread table only)."""
    parser = argparse.ArgumentParser(prog="python -m bench.officers")
    parser.add_argument("--heaps", type=int, default=1 << 20)
    parser.add_argument("--quick", action="store_true", help="only Officers on 1 and 2 threads")
    parser.add_argument(
        "--games", help="comma-separated games of the thread table (with --quick: Officers)"
    )
    args = parser.parse_args()
    if args.games:
        print(thread_table(args.heaps, tuple(args.games.split(","))))
    else:
        print(markdown(args.heaps, args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
