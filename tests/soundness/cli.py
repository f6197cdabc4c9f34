"""Running the real command line in a subprocess, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    """One finished command: exit code, output and wall time."""

    code: int
    out: str
    err: str
    seconds: float


def nimproof(*args: str, timeout: float = 300, cwd: Path | None = None) -> Run:
    """Run ``python -m nimproof ARGS`` and wait for it (``timeout`` is a safety net only)."""
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "nimproof", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or ROOT,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - t0)


def verify_file(tmp: Path, toml: str, *extra: str, timeout: float = 300) -> tuple[Run, list[Any]]:
    """``nimproof verify`` on one conjecture file; the run and its verdicts (JSON)."""
    path = tmp / "claims.toml"
    path.write_text(toml, encoding="utf-8")
    out = tmp / "results.json"
    run = nimproof("verify", str(path), "--json", str(out), "--quiet", *extra, timeout=timeout)
    verdicts = (
        [r["verdict"] for r in json.loads(out.read_text())["results"]] if out.exists() else []
    )
    return run, verdicts
