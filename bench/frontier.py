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

import argparse
import json
import os
import signal
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
from nimproof.datasets.stream import PART_ROWS, stream_table
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
game = parse_spec({spec!r})
rule = split_rule(game)
SparseTable(rule, 5000).extend(5000)
t = SparseTable(rule, {n} + 1)
t0 = time.perf_counter()
for end in range(PART_ROWS, {n} + 1 + PART_ROWS, PART_ROWS):
    t.extend(min(end, {n} + 1))  # part by part, as the streamed run computes
compute = time.perf_counter() - t0
import numba
threads = numba.get_num_threads()
del t
with tempfile.TemporaryDirectory() as d:
    t0 = time.perf_counter(); stream_table(game, {n}, Path(d) / "t.parquet")
    wall = time.perf_counter() - t0
    size = os.path.getsize(Path(d) / "t.parquet")
stats = {{"compute": compute, "bytes": size, "threads": threads}}
print(json.dumps({{"seconds": wall, "stats": stats}}))
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
#: ``--full``: the four games at 2^24 and 2^26 heaps.
FULL_CPP_CASES: list[tuple[str, str, int]] = [
    (spec, code, k)
    for k in (24, 26)
    for spec, code in (
        ("octal:0.106", ".106"),
        ("octal:0.167", ".167"),
        ("octal:0.6", ".6"),
        ("grundys-game", "grundy"),
    )
]
#: A side-by-side case at 2^(k+2) is skipped when four times the same game's three runs at
#: 2^k (nimproof's computation, its streamed run and the C++ program) exceed this (seconds).
#: One hour: Officers and Grundy's game at 2^26 (about 2,000 s each under load) are run.
SIDE_BUDGET = 3600.0


@dataclass(frozen=True)
class CppRun:
    """One run of the C++ solver to its line for ``2^log2`` heaps."""

    seconds: float
    line: str
    peak_mb: float


def cpp_run(binary: str, code: str, log2: int, limit: float = 3600.0) -> CppRun:
    """Time the C++ program to its line for ``2^log2`` heaps; that line and its peak memory.

    The program prints one line per power of two (largest value, rare mask, rare
    heaps, last rare heap) and runs on to 2^28; it is stopped once the line arrives
    (its peak resident memory is read from the operating system when it ends).
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary, code], stdout=subprocess.PIPE, text=True)
    seconds, found = float("nan"), "no line"
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(f"n=2^{log2} "):
                seconds, found = time.perf_counter() - t0, line.strip()
                break
            if time.perf_counter() - t0 > limit:
                break
    finally:
        if proc.stdout is not None:
            proc.stdout.close()
        # os.kill, not proc.kill: Popen would reap a program that has already ended, and
        # its peak memory (from os.wait4) would be lost.
        os.kill(proc.pid, signal.SIGKILL)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = -9  # reaped here: Popen must not wait for it again
    return CppRun(seconds, found, usage.ru_maxrss / 1024)


def cpp_seconds(binary: str, code: str, log2: int, limit: float = 3600.0) -> tuple[float, str]:
    """Seconds the C++ program takes to print its line for ``2^log2`` heaps, and that line."""
    run = cpp_run(binary, code, log2, limit)
    return run.seconds, run.line


def cpp_binary() -> str | None:
    """The C++ solver's path when it is built (``NIMPROOF_OCTAL_CPP`` or the default)."""
    binary = os.environ.get("NIMPROOF_OCTAL_CPP", CPP_DEFAULT)
    return binary if Path(binary).exists() else None


def cpp_rows(cases: list[tuple[str, str, int]], budget: float = SIDE_BUDGET) -> list[Row]:
    """nimproof and the C++ solver on the same bounds, side by side (skipped without it).

    For each case, in fresh processes one after the other: nimproof's table computed
    in memory (compute time), the same table streamed to parquet (wall time), and
    the C++ program to the same bound. The note gives the three times, the ratios
    compute/C++ and wall/C++, both programs' values per second and peak memory.
    A case four times as long as a finished one of the same game is skipped when the
    finished one's runs, times four, pass ``budget`` seconds (the note says so).
    """
    binary = cpp_binary()
    if binary is None:
        where = os.environ.get("NIMPROOF_OCTAL_CPP", CPP_DEFAULT)
        return [
            Row(
                "C++ comparison",
                "-",
                0,
                None,
                None,
                f"skipped: no C++ solver at {where} (build tczajka/octal-games old/src "
                "analyze outside the repository; NIMPROOF_OCTAL_CPP names it)",
            )
        ]
    rows: list[Row] = []
    spent: dict[str, tuple[int, float]] = {}
    for spec, code, log2 in cases:
        n = (1 << log2) - 1  # the C++ line for 2^k covers heaps 0 .. 2^k - 1
        if spec in spent:
            k, seconds = spent[spec]
            guess = seconds * 2 ** (log2 - k)
            if guess > budget:
                note = (
                    f"skipped: at 2^{k} the three runs took {seconds:,.0f} s, so 2^{log2} would "
                    f"take about {guess:,.0f} s, over the budget of {budget:,.0f} s"
                )
                rows.append(Row("nimproof vs C++", spec, n, None, None, note))
                continue
        row = _side_by_side(binary, spec, code, log2)
        rows.append(row)
        if row.seconds is not None:
            spent[spec] = (log2, float(row.stats["total"]))
    rows += _officers_rate(rows)
    return rows


def _side_by_side(binary: str, spec: str, code: str, log2: int) -> Row:
    """One case of :func:`cpp_rows`: compute and streamed wall (one process), then C++."""
    n = (1 << log2) - 1
    ours = run_case(_STREAM, spec, n)
    ours.engine = "nimproof vs C++"
    if ours.seconds is None:
        return ours
    cpp = cpp_run(binary, code, log2)
    compute, wall = float(ours.stats["compute"]), ours.seconds
    ours.stats.update(cpp=cpp.seconds, total=compute + wall + cpp.seconds, cpp_mb=cpp.peak_mb)
    ours.note = (
        f"compute {compute:.2f} s, streamed wall {wall:.2f} s, C++ {cpp.seconds:.2f} s; "
        f"compute/C++ {compute / cpp.seconds:.2f}, wall/C++ {wall / cpp.seconds:.2f}, "
        f"wall/compute {wall / compute:.2f}; {ours.stats.get('threads', '?')} numba "
        f"thread(s); values/s {(n + 1) / compute:,.0f} against C++ "
        f"{(n + 1) / cpp.seconds:,.0f}; peak memory (compute, then stream, one process) "
        f"{ours.peak_mb:,.0f} MB against C++ {cpp.peak_mb:,.0f} MB; C++ says: {cpp.line}; "
        f"{load_text()}"
    )
    ours.seconds = compute  # the row's values/s column is the computation's
    return ours


def _officers_rate(rows: list[Row]) -> list[Row]:
    """Officers' values per second against the C++ solver's, at its longest measured bound."""
    done = [r for r in rows if r.spec == "octal:0.6" and r.seconds is not None]
    if not done:
        return []
    r = max(done, key=lambda r: r.n)
    cpp = (r.n + 1) / float(r.stats["cpp"])
    note = (
        f"nimproof {r.rate:,.0f} values/s (compute, {r.stats.get('threads', '?')} numba "
        f"thread(s)), C++ {cpp:,.0f} values/s (one thread), "
        f"ratio {(r.rate or 0) / cpp:.2f}; heaps 0..{r.n:,}"
    )
    return [Row("Officers values per second", r.spec, r.n, r.seconds, r.peak_mb, note)]


#: The deep doublings of ``--full``: 0.106 in a memory-mapped file to 2^36 heaps.
DEEP_SPEC = "octal:0.106"
DEEP_DEPTH = 36
#: The deep rows printed: from 2^DEEP_FROM heaps on (the smaller doublings are rows above).
DEEP_FROM = 30
#: A run log of the deep doublings (``--deep`` writes ``DIR/run.log``) for ``--full`` to print.
DEEP_LOG_ENV = "NIMPROOF_DEEP_LOG"
#: The deep run's memory budget (stretches of 2^24 heaps) and its seconds between progress lines.
DEEP_MEMORY = 64 << 20
DEEP_EVERY = 60.0


def run_deep(folder: Path, spec: str = DEEP_SPEC, depth: int = DEEP_DEPTH) -> int:
    """Grow ``spec``'s table to ``2^depth`` heaps in ``folder`` (resumable), logging as it goes.

    The table is a memory-mapped file (``folder/values.bin``, checkpointed after every
    stretch of 2^24 heaps): a run started again goes on from its last checkpoint.
    ``folder/run.log`` gets one JSON line when a run starts (``start``: heap, time),
    at every power of two (``doubling``: heap, seconds since this run started, peak
    resident memory, load averages, bytes of the value file on disk), at most every
    :data:`DEEP_EVERY` seconds (``progress``, the same fields: a killed run loses at
    most that much of its record) and at the end (``done``). A line on stderr gives
    the heap reached, the share done and the time left at this run's rate.
    0.106 takes about 9 million heaps a second on an idle core: 2^34 about half an
    hour, 2^36 about two hours (64 GB of disk: one byte a heap).
    """
    # lazy: the bench's start-up (numba) only where a table is computed
    import resource

    from nimproof.engines.mapped import MappedTable, stretch_for
    from nimproof.engines.sparse import split_rule
    from nimproof.games import parse_spec

    rule = split_rule(parse_spec(spec))
    if rule is None:
        raise SystemExit(f"{spec}: the deep doublings run games of the sparse-space engine")
    folder.mkdir(parents=True, exist_ok=True)
    stop = (1 << depth) + 1
    table = MappedTable(rule, stop, folder / "values.bin")
    first, t0 = table.n, time.time()
    log = folder / "run.log"
    last = [t0]

    def record(event: str, n: int) -> None:
        line = {
            "event": event,
            "n": n,
            "elapsed": time.time() - t0,
            "since_n": first,
            "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            "load": list(os.getloadavg()),
            "disk": (folder / "values.bin").stat().st_blocks * 512,
        }
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def on_stretch(t: MappedTable, a: int, b: int) -> None:
        if b & (b - 1) == 0 or b == stop:
            record("doubling", b)
        elif time.time() - last[0] >= DEEP_EVERY:
            record("progress", b)
        else:
            return
        last[0] = time.time()
        rate = (b - first) / max(time.time() - t0, 1e-9)
        print(
            f"{spec}: heap {b:,} of {stop:,} ({100 * b / stop:.1f}%), "
            f"{time.time() - t0:,.0f} s in this run, about {(stop - b) / rate:,.0f} s left",
            file=sys.stderr,
            flush=True,
        )

    with log.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"event": "start", "n": first, "time": t0, "spec": spec}) + "\n")
    table.run(stop, stretch_for(DEEP_MEMORY), on_stretch)
    with log.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"event": "done", "elapsed": time.time() - t0}) + "\n")
    return 0


def deep_rows(log: Path | None, spec: str = DEEP_SPEC, smallest: int = DEEP_FROM) -> list[Row]:
    """The doublings from ``2^smallest`` heaps of a deep run's log (the format of :func:`run_deep`).

    A row per power of two reached: the cumulative seconds (the time of every run
    of the log, each counted to its last line), the seconds of that doubling, peak
    resident memory, the load when it was reached and the value file's size (when
    the log has it). A doubling during which the run was killed and resumed
    counts only the time its log lines cover: its time is then a lower bound, and
    the note says from which heap the run resumed. Doublings up to :data:`DEEP_DEPTH`
    not in the log get a row saying so.
    """
    engine = "memory-mapped file, deep doublings"
    if log is None or not log.exists():
        note = (
            f"not run: no run log (set {DEEP_LOG_ENV}=FILE, or run `python -m bench.frontier "
            f"--deep DIR`: hours, resumable; see docs/frontier.md)"
        )
        return [Row(engine, spec, 1 << DEEP_DEPTH, None, None, note)]
    rows: list[Row] = []
    offset = seg = prev = 0.0
    resumed: list[int] = []
    last: dict[str, Any] = {}
    for text in log.read_text(encoding="utf-8").splitlines():
        event = json.loads(text)
        if event["event"] == "start":
            offset += seg
            seg = 0.0
            if event["n"]:
                resumed.append(int(event["n"]))
            continue
        if "elapsed" in event:
            seg = float(event["elapsed"])
        if event["event"] not in ("doubling", "progress"):
            continue
        last = event
        n = int(event["n"])
        if event["event"] != "doubling" or n & (n - 1):
            continue
        total = offset + seg
        k = n.bit_length() - 1
        if k >= smallest:
            rows.append(_deep_row(engine, spec, event, total, total - prev, resumed))
        prev = total
        resumed = []
    reached = max((r.n for r in rows), default=0)
    for k in range(max(smallest, reached.bit_length()), DEEP_DEPTH + 1):
        where = f"heap {int(last['n']):,} at the log's last line" if last else "no line"
        rows.append(Row(engine, spec, 1 << k, None, None, f"not reached in the log ({where})"))
    return rows


def _deep_row(
    engine: str, spec: str, event: dict[str, Any], total: float, took: float, resumed: list[int]
) -> Row:
    load = event.get("load") or [float("nan")]
    note = f"this doubling {took:,.0f} s{' or more' if resumed else ''}; load {load[0]:.1f}"
    if "disk" in event:
        note += f"; value file {int(event['disk']) / 2**30:,.1f} GB on disk"
    if resumed:
        note += (
            f"; killed and resumed from heap {resumed[-1]:,} during it: the time between the "
            "killed run's last log line and the kill is not counted"
        )
    return Row(engine, spec, int(event["n"]), total, int(event["maxrss_kb"]) / 1024, note)


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
    if full:
        log = os.environ.get(DEEP_LOG_ENV)
        rows += deep_rows(Path(log) if log else None)
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


def main(argv: list[str] | None = None) -> int:
    """Run the frontier series (print the Markdown table, keep it in :data:`FRONTIER_TABLE`),
    or the deep doublings (``--deep DIR``), or print them from a run's log (``--from-log``)."""
    p = argparse.ArgumentParser(prog="python -m bench.frontier", description=__doc__)
    p.add_argument("--full", action="store_true", help="the longer cases (make bench-full)")
    p.add_argument("--deep", metavar="DIR", help="grow 0.106 in DIR to 2^--depth (resumable)")
    p.add_argument("--depth", type=int, default=DEEP_DEPTH, help="log2 of the deep run's end")
    p.add_argument("--spec", default=DEEP_SPEC, help="the deep run's game")
    p.add_argument("--from-log", metavar="FILE", help="print the deep rows of a run's log")
    args = p.parse_args(argv)
    if args.deep:
        return run_deep(Path(args.deep), args.spec, args.depth)
    if args.from_log:
        print(markdown(deep_rows(Path(args.from_log), args.spec)))
        return 0
    text = markdown(run_frontier_benchmarks(full=args.full))
    print(text)
    FRONTIER_TABLE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
