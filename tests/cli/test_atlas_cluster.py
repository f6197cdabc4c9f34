"""The atlas on a Dask cluster of separate processes, as a user starts one on several machines.

The test starts ``dask scheduler`` and two ``dask worker`` processes itself (on
loopback), sweeps a few four-digit octal codes at a small bound through
``--scheduler``, and compares every row with a sweep in this process without Dask;
a second sweep on the cluster keeps the finished rows (resumption). Slow: the
processes take seconds to start on a loaded machine.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from nimproof.atlas import COLUMNS, family_specs, run_sweep

pytestmark = pytest.mark.slow

CODES = ["octal:0.1234", "octal:0.7777", "octal:0.6", "octal:0.0404", "octal:0.3711", "octal:0.16"]


def _dask() -> str:
    found = shutil.which("dask") or str(Path(sys.executable).with_name("dask"))
    if not Path(found).exists():
        pytest.skip("the dask command (dask[distributed]) is not installed")
    return found


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """A scheduler and two single-threaded workers, each a process of its own."""
    dask = _dask()
    info = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file",
             str(info), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text(encoding="utf-8"))["address"]
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                     "--host", "127.0.0.1", *common],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        _wait_for_workers(address, 2)
        yield address
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def _wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(count, timeout=90)


def test_four_digit_codes_on_a_separate_process_cluster_match_a_plain_run(
    tmp_path: Path, cluster: str
) -> None:
    assert set(CODES) <= set(family_specs("octal-4digit", None)) | {"octal:0.6", "octal:0.16"}
    plain = run_sweep(CODES, 2048, tmp_path / "plain", workers=0)
    first = run_sweep(CODES[:4], 2048, tmp_path / "dask", scheduler=cluster)
    assert first.where == f"the Dask cluster at {cluster}" and first.computed == 4
    again = run_sweep(CODES, 2048, tmp_path / "dask", scheduler=cluster)
    assert again.skipped == 4 and again.computed == 2
    keys = [k for k in COLUMNS if k not in ("seconds", "provenance")]
    a = pd.read_parquet(tmp_path / "plain" / "atlas.parquet").set_index("code")
    b = pd.read_parquet(tmp_path / "dask" / "atlas.parquet").set_index("code")
    for code in CODES:
        assert [str(a.loc[code, k]) for k in keys if k != "code"] == [
            str(b.loc[code, k]) for k in keys if k != "code"
        ], code
    assert plain.computed == len(CODES)
