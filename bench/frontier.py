"""Frontier benchmarks: long tables, values per second and peak memory per engine.

Each case runs in a fresh Python process (so that its peak resident memory,
read from the operating system when the process ends, is its own): it loads
the engine with a small warm-up call (numba's cache), then times one table.
Cases of a series stop once one takes more than :data:`BUDGET` seconds (the
next bound would take four times as long for the quadratic engines); the
skipped bounds are listed as such. The machine's load is printed with the
table: the machine may be shared, and a loaded machine gives lower rates.

Then two comparisons: the sparse engine on one and on two threads
(:func:`core_speedup`: fresh processes with ``NUMBA_NUM_THREADS`` 1 and 2,
interleaved, best and median of each, the load before and after), and tables
streamed to parquet against the same table computed in memory
(:func:`stream_rows`: the wall time of the streamed run over the compute time),
and tables in a memory-mapped file with a 64 MB budget beside the same tables
in memory (:func:`mapped_rows`: time, peak resident memory, disk; the first row
is the resident memory of a process that only loads the engine).
Last, the same bounds side by side with the C++ sparse-space solver of
tczajka/octal-games when it is built outside the repository (:func:`cpp_rows`;
skipped with a message otherwise). ``--full`` (``make bench-full``) adds the
doublings of 0.106 and 0.167, longer streamed tables and longer C++ cases.

``python -m bench.frontier [--full]`` runs only these; ``python -m bench`` runs them too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A series stops after a case slower than this (seconds).
BUDGET = 40.0
#: Where ``make bench`` keeps the last frontier table.
FRONTIER_TABLE = Path(__file__).resolve().parent / "frontier_results.md"

_SPARSE = """
import json, time
import numpy as np
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
rule = split_rule(parse_spec({spec!r}))
SparseTable(rule, 5000).extend(5000)
t = SparseTable(rule, {n} + 1)
t0 = time.perf_counter(); t.extend({n} + 1); dt = time.perf_counter() - t0
print(json.dumps({{"seconds": dt, "stats": t.stats()}}))
"""

_TABLE = """
import json, time
from nimproof.engines import grundy_table
from nimproof.games import parse_spec
game = parse_spec({spec!r})
grundy_table(game, 1000)
t0 = time.perf_counter(); g = grundy_table(game, {n}); dt = time.perf_counter() - t0
print(json.dumps({{"seconds": dt, "stats": {{"largest_value": int(g.max())}}}}))
"""

_WINDOW = """
import json, time
import numpy as np
from nimproof.engines import stream_kernels as stk
takes = np.array([1, 3, 4], dtype=np.int64)
small = np.zeros(1004, dtype=np.uint8); stk.window_subtraction_kernel(small, 0, 0, 1004, takes)
g = np.zeros({n} + 1, dtype=np.uint8)
t0 = time.perf_counter(); stk.window_subtraction_kernel(g, 0, 0, {n} + 1, takes)
dt = time.perf_counter() - t0
print(json.dumps({{"seconds": dt, "stats": {{"largest_value": int(g.max())}}}}))
"""

_STREAM = """
import json, os, tempfile, time
from pathlib import Path
from nimproof.datasets.stream import stream_table
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
game = parse_spec({spec!r})
rule = split_rule(game)
SparseTable(rule, 5000).extend(5000)
t = SparseTable(rule, {n} + 1)
t0 = time.perf_counter(); t.extend({n} + 1); compute = time.perf_counter() - t0
del t
with tempfile.TemporaryDirectory() as d:
    t0 = time.perf_counter(); stream_table(game, {n}, Path(d) / "t.parquet")
    wall = time.perf_counter() - t0
    size = os.path.getsize(Path(d) / "t.parquet")
print(json.dumps({{"seconds": wall, "stats": {{"compute": compute, "bytes": size}}}}))
"""

_MAPPED = """
import json, os, tempfile, time
from pathlib import Path
from nimproof.engines.mapped import MappedTable, stretch_for
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
rule = split_rule(parse_spec({spec!r}))
SparseTable(rule, 5000).extend(5000)
with tempfile.TemporaryDirectory(dir=os.environ.get("NIMPROOF_BENCH_DIR")) as d:
    t = MappedTable(rule, {n} + 1, Path(d) / "v.bin")
    t0 = time.perf_counter(); t.run({n} + 1, stretch_for(MAPPED_BUDGET))
    t.release(); dt = time.perf_counter() - t0
    disk = os.stat(Path(d) / "v.bin").st_blocks * 512
    stats = t.stats()
print(json.dumps({{"seconds": dt, "stats": dict(stats, disk=disk)}}))
""".replace("MAPPED_BUDGET", str(64 << 20))

_FLOOR = """
import json
from nimproof.engines.mapped import MappedTable
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
SparseTable(split_rule(parse_spec({spec!r})), 5000).extend(5000)
print(json.dumps({{"seconds": 0.0, "stats": {{}}}}))
"""

#: (engine label, spec, bounds, script): the series of the table.
SERIES: list[tuple[str, str, list[int], str]] = [
    ("sparse-space", "octal:0.106", [1 << k for k in (16, 18, 20, 22, 24)], _SPARSE),
    ("sparse-space", "octal:0.167", [1 << k for k in (16, 20, 24)], _SPARSE),
    ("sparse-space", "octal:0.6", [1 << k for k in (16, 18, 20, 22)], _SPARSE),
    ("sparse-space", "octal:0.16", [1 << k for k in (16, 18, 20, 22)], _SPARSE),
    ("sparse-space", "grundys-game", [1 << k for k in (16, 18, 20, 22)], _SPARSE),
    ("sparse-space (dense)", "octal:0.007", [1 << k for k in (16, 18, 20, 22)], _SPARSE),
    ("sparse-space (dense)", "octal:0.137", [1 << k for k in (16, 18, 20, 22)], _SPARSE),
    ("subtraction kernel, uint8", "subtraction:1,3,4", [10**8], _WINDOW),
    ("grundy_table, int64", "subtraction:1,3,4", [10**8], _TABLE),
    ("interval-window", "half-heap", [10**7, 10**8], _TABLE),
]


#: ``make bench-full`` adds these: the doublings of 0.106 and 0.167 (memory and time).
FULL_SERIES: list[tuple[str, str, list[int], str]] = [
    ("sparse-space", "octal:0.106", [1 << k for k in (26, 28, 30)], _SPARSE),
    ("sparse-space", "octal:0.167", [1 << k for k in (26, 28, 30)], _SPARSE),
]
#: Tables in a memory-mapped file (64 MB budget: stretches of 2^24 heaps), each beside the
#: same table in memory up to :data:`MAPPED_BESIDE`; ``--full`` goes on to 2^30.
MAPPED: list[tuple[str, int]] = [("octal:0.106", 1 << 24), ("octal:0.106", 1 << 26)]
FULL_MAPPED: list[tuple[str, int]] = [("octal:0.106", 1 << 28), ("octal:0.106", 1 << 30)]
#: The in-memory run beside the mapped one up to this bound.
MAPPED_BESIDE = 1 << 28
#: Games and bounds of the 1-to-2-thread comparison.
CORES: list[tuple[str, int]] = [("octal:0.6", 1 << 20), ("grundys-game", 1 << 20)]
FULL_CORES: list[tuple[str, int]] = [("octal:0.6", 1 << 22), ("grundys-game", 1 << 22)]
#: Tables streamed to parquet, compared with the same table computed in memory.
STREAMED: list[tuple[str, int]] = [("octal:0.106", 1 << 24), ("octal:0.167", 1 << 24)]
FULL_STREAMED: list[tuple[str, int]] = [
    ("octal:0.106", 1 << 26),
    ("octal:0.167", 1 << 26),
    ("octal:0.6", 1 << 24),
    ("grundys-game", 1 << 24),
    ("octal:0.6", 1 << 26),
    ("grundys-game", 1 << 26),
]


@dataclass
class Row:
    """One measured (or skipped) case."""

    engine: str
    spec: str
    n: int
    seconds: float | None
    peak_mb: float | None
    note: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float | None:
        """Values per second."""
        return (self.n + 1) / self.seconds if self.seconds else None


def run_case(script: str, spec: str, n: int) -> Row:
    """Run one case in a fresh process; its time and peak resident memory."""
    code = script.format(spec=spec, n=n)
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    out = proc.stdout.read() if proc.stdout else ""
    err = proc.stderr.read() if proc.stderr else ""
    if status != 0 or not out.strip():
        last = (err.strip().splitlines() or ["failed"])[-1]
        return Row("", spec, n, None, None, f"error: {last}")
    data = json.loads(out.strip().splitlines()[-1])
    stats = data.get("stats", {})
    note = ""
    if "rare_heaps" in stats:
        note = (
            f"mask {stats['rare_mask']:#x}{'+pos' if stats['rare_by_position'] else ''}, "
            f"{stats['rare_heaps']} rare, largest {stats['largest_value']}, "
            f"dense heaps {stats['dense_heaps']:,}"
        )
    return Row("", spec, n, float(data["seconds"]), usage.ru_maxrss / 1024, note, stats)


def run_case_env(script: str, spec: str, n: int, env: dict[str, str]) -> Row:
    """:func:`run_case` with extra environment variables (e.g. ``NUMBA_NUM_THREADS``)."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return run_case(script, spec, n)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def core_speedup(spec: str, n: int, repeats: int = 3) -> list[Row]:
    """The sparse engine on 1 and on 2 threads, interleaved ``repeats`` times (fresh processes).

    The rows give the best time of each; the note the speed-up of the bests and the
    medians, and the load average around the runs (the cores may be shared).
    """
    times: dict[int, list[float]] = {1: [], 2: []}
    before = load_text()
    for _ in range(repeats):
        for threads in (1, 2):
            row = run_case_env(_SPARSE, spec, n, {"NUMBA_NUM_THREADS": str(threads)})
            if row.seconds is not None:
                times[threads].append(row.seconds)
    after = load_text()
    rows = []
    for threads in (1, 2):
        got = sorted(times[threads])
        best = got[0] if got else None
        rows.append(Row(f"sparse-space, {threads} thread(s)", spec, n, best, None))
    if times[1] and times[2]:
        med = sorted(times[1])[len(times[1]) // 2] / sorted(times[2])[len(times[2]) // 2]
        rows[1].note = (
            f"1-to-2-thread speed-up {min(times[1]) / min(times[2]):.2f} (bests), {med:.2f} "
            f"(medians) over {repeats} interleaved runs each; before: {before}; after: {after}"
        )
    return rows


def mapped_rows(cases: list[tuple[str, int]]) -> list[Row]:
    """Each table in a memory-mapped file, then (up to :data:`MAPPED_BESIDE` heaps) in memory,
    in fresh processes one after the other: time, peak resident memory, disk, the ratio of
    the two times; first the resident memory of a process that only loads the engine."""
    floor = run_case(_FLOOR, cases[0][0], 0) if cases else None
    rows = []
    if floor is not None:
        floor.engine = "engine loaded, no table (resident memory floor)"
        rows.append(floor)
    for spec, n in cases:
        mapped = run_case(_MAPPED, spec, n)
        mapped.engine = "sparse-space, memory-mapped file, 64 MB budget"
        rows.append(mapped)
        if mapped.seconds is None:
            continue
        mapped.note = f"{mapped.stats['disk'] / 2**20:,.0f} MB on disk; {load_text()}"
        if n <= MAPPED_BESIDE:
            memory = run_case(_SPARSE, spec, n)
            memory.engine = "sparse-space, in memory (same bound)"
            rows.append(memory)
            if memory.seconds is not None:
                mapped.note += f"; time mapped/in memory {mapped.seconds / memory.seconds:.2f}"
    return rows


def stream_rows(cases: list[tuple[str, int]]) -> list[Row]:
    """Compute time (in memory) against the wall time of the same table streamed to parquet."""
    rows = []
    for spec, n in cases:
        row = run_case(_STREAM, spec, n)
        row.engine = "streamed to parquet"
        if row.seconds is not None:
            compute = float(row.stats["compute"])
            row.note = (
                f"compute {compute:.2f} s, wall {row.seconds:.2f} s, ratio "
                f"{row.seconds / compute:.2f}, file {row.stats['bytes'] / 2**20:,.0f} MB; "
                f"{load_text()}"
            )
        rows.append(row)
    return rows


#: The C++ sparse-space solver of tczajka/octal-games (``old/src/analyze``), built outside
#: the repository; its path may be given in ``NIMPROOF_OCTAL_CPP``.
CPP_DEFAULT = "/tmp/octal-cpp/analyze"
#: (spec, code for the C++ program, log2 bound) of the side-by-side comparison.
CPP_CASES: list[tuple[str, str, int]] = [
    ("octal:0.6", ".6", 20),
    ("grundys-game", "grundy", 20),
    ("octal:0.106", ".106", 24),
    ("octal:0.167", ".167", 24),
]
FULL_CPP_CASES: list[tuple[str, str, int]] = [
    ("octal:0.6", ".6", 24),
    ("grundys-game", "grundy", 24),
    ("octal:0.106", ".106", 26),
    ("octal:0.167", ".167", 26),
]


def cpp_seconds(binary: str, code: str, log2: int, limit: float = 3600.0) -> tuple[float, str]:
    """Seconds the C++ program takes to print its line for ``2^log2`` heaps, and that line.

    The program prints one line per power of two (largest value, rare mask, rare
    heaps, last rare heap) and runs on to 2^28; it is stopped once the line arrives.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary, code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(f"n=2^{log2} "):
                return time.perf_counter() - t0, line.strip()
            if time.perf_counter() - t0 > limit:
                break
        return float("nan"), "no line"
    finally:
        proc.kill()
        proc.wait()


def cpp_rows(cases: list[tuple[str, str, int]]) -> list[Row]:
    """nimproof's sparse engine and the C++ solver on the same bounds (skipped without it)."""
    binary = os.environ.get("NIMPROOF_OCTAL_CPP", CPP_DEFAULT)
    if not Path(binary).exists():
        return [
            Row(
                "C++ comparison",
                "-",
                0,
                None,
                None,
                f"skipped: no C++ solver at {binary} (build tczajka/octal-games old/src "
                "analyze outside the repository; NIMPROOF_OCTAL_CPP names it)",
            )
        ]
    rows = []
    for spec, code, log2 in cases:
        n = (1 << log2) - 1  # the C++ line for 2^k covers heaps 0 .. 2^k - 1
        ours = run_case(_SPARSE, spec, n)
        cpp, line = cpp_seconds(binary, code, log2)
        ours.engine = "sparse-space vs C++"
        if ours.seconds is not None:
            ours.note = (
                f"C++ {cpp:.2f} s, ratio nimproof/C++ {ours.seconds / cpp:.2f}; "
                f"C++ says: {line}; nimproof: {ours.note}; {load_text()}"
            )
        rows.append(ours)
    return rows


def run_frontier_benchmarks(budget: float = BUDGET, full: bool = False) -> list[Row]:
    """Every series of :data:`SERIES` (and :data:`FULL_SERIES` when ``full``), each stopping
    after a case slower than ``budget``; then the 1-to-2-thread speed-ups and the streamed
    tables (:data:`CORES`, :data:`STREAMED`, more of each when ``full``)."""
    rows: list[Row] = []
    for engine, spec, bounds, script in SERIES + (FULL_SERIES if full else []):
        over = False
        for n in bounds:
            if over:
                rows.append(
                    Row(engine, spec, n, None, None, f"skipped: previous bound over {budget:.0f} s")
                )
                continue
            row = run_case(script, spec, n)
            row.engine = engine
            rows.append(row)
            over = row.seconds is None or row.seconds > budget
    for spec, n in CORES + (FULL_CORES if full else []):
        rows += core_speedup(spec, n)
    rows += stream_rows(STREAMED + (FULL_STREAMED if full else []))
    rows += mapped_rows(MAPPED + (FULL_MAPPED if full else []))
    rows += cpp_rows(FULL_CPP_CASES if full else CPP_CASES)
    return rows


def load_text() -> str:
    """The machine's load averages and core count, for the table's caption."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def markdown(rows: list[Row]) -> str:
    """The table as Markdown."""
    lines = [
        f"Frontier benchmarks ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_text()})",
        "",
        "| engine | game | n | seconds | values/s | peak memory | notes |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        secs = "-" if r.seconds is None else f"{r.seconds:.2f}"
        rate = "-" if r.rate is None else f"{r.rate:,.0f}"
        mem = "-" if r.peak_mb is None else f"{r.peak_mb:,.0f} MB"
        lines.append(f"| {r.engine} | {r.spec} | {r.n:,} | {secs} | {rate} | {mem} | {r.note} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Run the frontier series, print the Markdown table and keep it in :data:`FRONTIER_TABLE`."""
    text = markdown(run_frontier_benchmarks(full="--full" in sys.argv[1:]))
    print(text)
    FRONTIER_TABLE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
