"""Start-up of the small commands: wall time of a fresh ``nimproof`` process.

Each command runs a few times after a warm-up run (a warm machine: files in
the page cache, numba's cache written); the best time counts. Floors: 0.3 s
for ``--help`` and ``--version``, 0.5 s for a small table
(``table kayles --max-n 100``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

RUNS = 5


@dataclass(frozen=True, slots=True)
class Startup:
    """One command: its best wall time over :data:`RUNS` runs and its floor."""

    command: str
    seconds: float
    floor: float | None

    @property
    def passed(self) -> bool | None:
        return None if self.floor is None else self.seconds <= self.floor


CASES: tuple[tuple[tuple[str, ...], float | None], ...] = (
    (("--help",), 0.3),
    (("--version",), 0.3),
    (("table", "kayles", "--max-n", "100"), 0.5),
    (("value", "nim", "100000000", "5"), 0.5),
    (("games",), None),
    (("period", "kayles"), None),
)


def _executable() -> list[str]:
    script = Path(sys.executable).parent / "nimproof"
    if script.exists():
        return [str(script)]
    found = shutil.which("nimproof")
    return [found] if found else [sys.executable, "-m", "nimproof"]


def run_startup_benchmarks() -> list[Startup]:
    """Time every case of :data:`CASES` (best of :data:`RUNS` after one warm-up run)."""
    exe = _executable()
    rows = []
    for args, floor in CASES:
        best = float("inf")
        for i in range(RUNS + 1):
            t0 = time.perf_counter()
            subprocess.run([*exe, *args], capture_output=True, check=True, timeout=300)
            if i:  # the first run only warms the caches
                best = min(best, time.perf_counter() - t0)
        rows.append(Startup("nimproof " + " ".join(args), best, floor))
    return rows
