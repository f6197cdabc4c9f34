"""Crash safety: ``kill -9`` at a random moment leaves every file as it was or complete.

Real subprocesses (``verify --json``, ``data build``, ``mine --write``,
``report``) are started in their own process group and killed with SIGKILL
after a random delay; every file they write must then be either byte for
byte what was there before or a complete, valid file. Two runs writing the
same results file or data folder at once must not corrupt it either. The
delays are drawn from a fixed seed; ``make test`` kills each command a few
times, ``make test-all`` many times.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.soundness.cli import ROOT, nimproof

CLAIMS = """
[[claim]]
id = "bouton"
statement = "Bouton"
kind = "p_positions"
game = "nim"
heaps = [2, 3]
predicate = "xor(h) == 0"
witness = "nim"
[claim.checks]
exhaustive = { max_heap = 15 }
z3_bitvec = { width = 16 }

[[claim]]
id = "knim"
statement = "k-Nim"
kind = "grundy"
game = "knim:{k}"
formula = "n % (k + 1)"
[claim.params]
k = "1..4"
"""


def _start(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "NIMPROOF_DATA": str(cwd / "data")}
    return subprocess.Popen(
        [sys.executable, "-m", "nimproof", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _kill_after(proc: subprocess.Popen[bytes], delay: float) -> bool:
    """SIGKILL the process group after ``delay`` s; True if it was still running."""
    try:
        proc.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return True


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _kill_runs(
    tmp: Path,
    args: list[str],
    check: Callable[[dict[str, bytes], dict[str, bytes]], None],
    watched: Path,
    rounds: int,
    longest: float,
    seed: int,
) -> int:
    """Start ``args`` ``rounds`` times, kill each at a random moment, check ``watched``."""
    rng = random.Random(seed)
    killed = 0
    for _ in range(rounds):
        before = _snapshot(watched)
        killed += _kill_after(_start(args, tmp), rng.uniform(min(0.3, longest / 2), longest))
        check(before, _snapshot(watched))
    return killed


def _rounds(slow: bool) -> int:
    return 12 if slow else 3


# ---------------------------------------------------------------------------
# verify --json
# ---------------------------------------------------------------------------


def _results_ok(data: bytes, claims: int) -> bool:
    try:
        payload = json.loads(data)
    except ValueError:
        return False
    return len(payload["results"]) == claims


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_verify_killed_leaves_old_or_complete_results(tmp_path: Path, slow: bool) -> None:
    (tmp_path / "claims.toml").write_text(CLAIMS)
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text('{"old": true}\n')
    args = ["verify", "claims.toml", "--json", "out/results.json", "--jobs", "1", "--quiet"]

    def check(before: dict[str, bytes], after: dict[str, bytes]) -> None:
        data = after.get("results.json")
        assert data is not None
        assert data == before["results.json"] or _results_ok(data, 6), data[:200]

    # Kill within the time an uncut run takes here, so that runs really are cut short
    # however fast this machine decides the claims.
    start = time.monotonic()
    _start(args, tmp_path).wait(timeout=600)
    uncut = time.monotonic() - start
    assert _results_ok((out / "results.json").read_bytes(), 6)
    longest = max(0.35, 0.8 * uncut)
    killed = _kill_runs(tmp_path, args, check, out, _rounds(slow), longest, seed=1)
    assert killed >= 1  # at least one run really was cut short


def test_two_verify_runs_writing_one_file_do_not_corrupt_it(tmp_path: Path) -> None:
    (tmp_path / "claims.toml").write_text(CLAIMS)
    args = ["verify", "claims.toml", "--json", "results.json", "--jobs", "1", "--quiet"]
    procs = [_start(args, tmp_path) for _ in range(2)]
    for p in procs:
        p.wait(timeout=600)
    assert _results_ok((tmp_path / "results.json").read_bytes(), 6)
    assert not [p for p in tmp_path.iterdir() if "tmp" in p.name]


# ---------------------------------------------------------------------------
# data build
# ---------------------------------------------------------------------------


def _data_ok(folder: Path) -> None:
    run = nimproof("data", "verify", "--data-dir", str(folder))
    assert run.code == 0, run


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_data_build_killed_leaves_old_or_complete_tables(tmp_path: Path, slow: bool) -> None:
    data = tmp_path / "data"
    data.mkdir()

    def check(before: dict[str, bytes], after: dict[str, bytes]) -> None:
        for name, content in before.items():
            if name.endswith(".parquet"):
                assert name in after  # nothing stored disappears
                assert after[name] == content or len(after[name]) > 0
        _data_ok(data)

    args = ["data", "build", "--data-dir", "data"]
    _kill_runs(tmp_path, args, check, data, _rounds(slow), 20.0, seed=2)


@pytest.mark.slow
def test_two_data_builds_at_once_do_not_corrupt_the_tables(tmp_path: Path) -> None:
    procs = [_start(["data", "build", "--data-dir", "data"], tmp_path) for _ in range(2)]
    for p in procs:
        assert p.wait(timeout=900) == 0
    _data_ok(tmp_path / "data")


# ---------------------------------------------------------------------------
# mine --write and report
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_mine_write_killed_leaves_old_or_complete_files(tmp_path: Path, slow: bool) -> None:
    mined = tmp_path / "mined"
    args = ["mine", "knim:{k}", "--param", "k=1..6", "--write", "mined", "--timeout", "20"]

    def check(before: dict[str, bytes], after: dict[str, bytes]) -> None:
        for name, content in after.items():
            if not name.endswith(".toml"):
                continue
            if before.get(name) == content:
                continue
            assert tomllib.loads(content.decode("utf-8"))["claim"], name

    mined.mkdir()
    _kill_runs(tmp_path, args, check, mined, _rounds(slow), 10.0, seed=3)


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_report_killed_leaves_old_or_complete_pages(tmp_path: Path, slow: bool) -> None:
    results = ROOT / "reports" / "results.json"
    complete = tmp_path / "complete"
    run = nimproof("report", "--json", str(results), "--out", str(complete), "--no-timings")
    assert run.code == 0, run
    full = _snapshot(complete)
    out = tmp_path / "out"
    out.mkdir()
    for name in list(full)[:5]:  # some pages exist from an older run
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(b"old page\n")
    args = ["report", "--json", str(results), "--out", "out", "--no-timings", "--quiet"]

    def check(before: dict[str, bytes], after: dict[str, bytes]) -> None:
        for name, content in after.items():
            if "tmp" in name:
                continue  # a temporary file a killed run left; never read as a page
            assert content == before.get(name) or content == full.get(name), name

    t0 = time.monotonic()
    _kill_runs(tmp_path, args, check, out, _rounds(slow), 6.0, seed=4)
    assert time.monotonic() - t0 < 600
