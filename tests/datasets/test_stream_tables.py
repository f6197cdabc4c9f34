"""Streamed tables: the same values as the engines, the store's format, resumable."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nimproof import datasets
from nimproof.cli.main import main
from nimproof.datasets import stream
from nimproof.engines import grundy_table, reference
from nimproof.engines import heap_kernels as hk
from nimproof.engines import stream_kernels as stk
from nimproof.engines.mapped import MappedTable, state_path
from nimproof.errors import UsageError
from nimproof.games import parse_spec


@pytest.mark.parametrize(
    "spec", ["subtraction:1,3,4", "subtraction:2,5,7,11", "knim:40", "knim:70"]
)
def test_window_kernel_matches_the_reference(spec: str) -> None:
    game = parse_spec(spec)
    takes = np.array(sorted(game.takes), dtype=np.int64)  # type: ignore[attr-defined]
    w = int(takes[-1])
    n = 400
    want = reference.heap_table(game, n - 1)  # type: ignore[arg-type]
    # Two chunks, the second started from the window the first leaves.
    buf = np.zeros(w + n, dtype=np.uint8)
    stk.window_subtraction_kernel(buf, w, 0, 150, takes)
    first = buf[w : w + 150].copy()
    buf[:w] = first[150 - w :] if w <= 150 else np.concatenate([np.zeros(w - 150, np.uint8), first])
    stk.window_subtraction_kernel(buf, w, 150, n - 150, takes)
    assert np.concatenate([first, buf[w : w + n - 150]]).tolist() == want


@pytest.mark.parametrize("spec", ["subtraction:1,3,4", "kayles", "half-heap", "octal:0.8"])
def test_stream_writes_the_stores_format(tmp_path: Path, spec: str) -> None:
    game = parse_spec(spec)
    out = tmp_path / "t.parquet"
    got = stream.stream_table(game, 1000, out, part_rows=128)
    assert got.bound == 1000 and not stream.parts_dir(out).exists()
    table = datasets.store.read(out)
    assert table.grundy.tolist() == grundy_table(game, 1000).tolist()
    assert table.bound == 1000 and table.spec == game.spec
    assert pq.ParquetFile(out).metadata.num_row_groups == 8


def test_interrupted_run_resumes_after_its_last_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_spec("subtraction:2,5,7,11")
    out = tmp_path / "t.parquet"
    real = stream._write_part
    written: list[int] = []

    def dying(folder: Path, i: int, values: np.ndarray) -> None:
        if i == 3:
            raise KeyboardInterrupt
        written.append(i)
        real(folder, i, values)

    monkeypatch.setattr(stream, "_write_part", dying)
    with pytest.raises(KeyboardInterrupt):
        stream.stream_table(game, 999, out, part_rows=100)
    assert written == [0, 1, 2] and not out.exists()
    monkeypatch.setattr(stream, "_write_part", real)
    with pytest.raises(UsageError, match="--resume"):
        stream.stream_table(game, 999, out, part_rows=100)
    with pytest.raises(UsageError, match="another run"):
        stream.stream_table(game, 5000, out, part_rows=100, resume=True)
    again: list[int] = []

    def counting(folder: Path, i: int, values: np.ndarray) -> None:
        again.append(i)
        real(folder, i, values)

    monkeypatch.setattr(stream, "_write_part", counting)
    got = stream.stream_table(game, 999, out, part_rows=100, resume=True)
    assert again == list(range(3, 10)) and got.resumed_from == 300
    assert datasets.store.read(out).grundy.tolist() == reference.heap_table(game, 999)  # type: ignore[arg-type]


def test_sparse_games_resume_from_their_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_spec("officers")
    out = tmp_path / "o.parquet"
    real = stream._write_part

    def dying(folder: Path, i: int, values: np.ndarray) -> None:
        if i == 2:
            raise KeyboardInterrupt
        real(folder, i, values)

    monkeypatch.setattr(stream, "_write_part", dying)
    with pytest.raises(KeyboardInterrupt):
        stream.stream_table(game, 5000, out, part_rows=1024)
    monkeypatch.setattr(stream, "_write_part", real)
    stream.stream_table(game, 5000, out, part_rows=1024, resume=True)
    assert datasets.store.read(out).grundy.tolist() == grundy_table(game, 5000).tolist()


def test_cli_streams_and_refuses_large_tables_in_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.parquet"
    assert (
        main(["table", "subtraction:1,3,4", "--max-n", "100000", "--out", str(out), "--json"]) == 0
    )
    assert '"engine": "subtraction-stream"' in capsys.readouterr().out
    # Period 7 from heap 0: 0 1 0 1 2 3 2 (Golomb; checked by the period tests).
    want = [[0, 1, 0, 1, 2, 3, 2][n % 7] for n in range(99_990, 100_001)]
    assert datasets.store.read(out).grundy[-11:].tolist() == want
    assert main(["table", "subtraction:1,3,4", "--max-n", "1000000000"]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["table", "subtraction:1,3,4", "--max-n", "10", "--resume"]) == 2


_KILLED_RUN = """
import sys
from nimproof.datasets.stream import stream_table
from nimproof.games import parse_spec
stream_table(parse_spec("octal:0.106"), {n}, sys.argv[1], part_rows={rows}, memory={memory})
"""


def _kill_when(proc: subprocess.Popen[bytes], ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 120
    while not ready() and time.monotonic() < deadline:
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.005)
    proc.kill()
    proc.wait()


def _saved_heap(folder: Path) -> int:
    """The heap count of the value file's last checkpoint (0 when there is none yet)."""
    try:
        return int(json.loads(str(np.load(state_path(folder / "values.bin"))["meta"]))["n"])
    except (OSError, ValueError, KeyError):
        return 0


@pytest.mark.parametrize("memory", [None, 1 << 16])
def test_a_killed_run_resumes_without_recomputing_its_finished_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, memory: int | None
) -> None:
    # A real kill (SIGKILL, no clean-up) of a run in another process, once 8 parts are
    # checkpointed; the resumed run starts at the first missing part and the file checks out.
    # With a 64 KB budget the table is in a memory-mapped file, computed in stretches of
    # 4,096 heaps, and that file is the checkpoint (no part files): the resumed run computes
    # from the last checkpointed stretch and encodes every part from the file.
    n, rows = (1 << 22) - 1, 1 << 14
    out = tmp_path / "k.parquet"
    folder = stream.parts_dir(out)
    code = _KILLED_RUN.format(n=n, rows=rows, memory=memory)
    proc = subprocess.Popen([sys.executable, "-c", code, str(out)])
    if memory is None:
        _kill_when(proc, lambda: len(list(folder.glob("part-*.npy"))) >= 8)
    else:
        _kill_when(proc, lambda: _saved_heap(folder) >= 8 * rows)
        assert not list(folder.glob("part-*"))
    assert not out.exists()
    kept = 0
    while (folder / f"part-{kept:06d}.npy").exists():
        kept += 1
    saved = _saved_heap(folder)
    assert (8 <= kept < (n + 1) // rows) if memory is None else (8 * rows <= saved < n + 1)
    written: list[int] = []
    real = stream._write_part

    def counting(f: Path, i: int, values: np.ndarray) -> None:
        written.append(i)
        real(f, i, values)

    monkeypatch.setattr(stream, "_write_part", counting)
    starts: list[int] = []
    real_extend = MappedTable.extend

    def extend(table: MappedTable, stop: int, progress: object = None) -> None:
        starts.append(table.n)
        real_extend(table, stop, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(MappedTable, "extend", extend)
    got = stream.stream_table(
        parse_spec("octal:0.106"), n, out, part_rows=rows, resume=True, memory=memory
    )
    assert got.mapped == (memory is not None)
    if memory is None:
        assert got.resumed_from == kept * rows and min(written) == kept
    else:
        assert got.resumed_from == saved and starts[0] == saved and len(starts) > 1
        assert not written
    assert not folder.exists()
    table = datasets.store.read(out)  # checks the content hash over every row
    assert table.bound == n and len(table.grundy) == n + 1
    # The first values against the independent every-split kernel; the values across the
    # resumed stretch against a run that was never interrupted.
    game = parse_spec("octal:0.106")
    dense = np.zeros(20_001, dtype=np.int64)
    digits = np.array(game.moves_spec.digits, dtype=np.int64)  # type: ignore[attr-defined]
    hk.octal_kernel(dense, 0, len(dense), digits, 0, 0)
    assert table.grundy[: len(dense)].tolist() == dense.tolist()
    edge = max(kept * rows, saved) + rows
    assert np.array_equal(table.grundy[:edge], grundy_table(game, edge - 1))


def test_a_part_wider_than_the_first_still_gives_one_checked_file(tmp_path: Path) -> None:
    # Officers passes 255 at heap 10,344: the third part needs uint16, the first two fit uint8,
    # so the file written beside the computation is dropped and written again at the end.
    game = parse_spec("officers")
    out = tmp_path / "o.parquet"
    stream.stream_table(game, 12_000, out, part_rows=4096)
    table = datasets.store.read(out)
    dense = np.zeros(12_001, dtype=np.int64)
    digits = np.array(game.moves_spec.digits, dtype=np.int64)  # type: ignore[attr-defined]
    hk.octal_kernel(dense, 0, len(dense), digits, 0, 0)
    assert table.grundy.tolist() == dense.tolist() and int(dense.max()) > 255
    assert pq.ParquetFile(out).schema_arrow.field("grundy").type == "uint16"


def test_text_output_of_a_huge_table_points_to_parquet(capsys: pytest.CaptureFixture[str]) -> None:
    for extra in (["--json"], ["--csv", "-"], []):
        assert main(["table", "octal:0.106", "--max-n", "20000000", *extra]) == 2
        err = capsys.readouterr().err
        assert "--out FILE" in err and "parquet" in err and len(err.strip().splitlines()) == 1


def test_cli_memory_budget_keeps_the_table_in_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 300,001 heaps need more than a 16 MB budget by the engine's own estimate (the period
    # check's room counted): the table goes to a memory-mapped file, with the same values.
    out = tmp_path / "m.parquet"
    argv = ["table", "octal:0.106", "--max-n", "300000", "--out", str(out), "--json"]
    assert main([*argv, "--memory-mb", "16"]) == 0
    assert json.loads(capsys.readouterr().out)["memory_mapped"] is True
    game = parse_spec("octal:0.106")
    assert np.array_equal(datasets.store.read(out).grundy, grundy_table(game, 300_000))
    assert main(["table", "octal:0.106", "--max-n", "3000", "--memory-mb", "16"]) == 2
    assert "--memory-mb is for a run written with --out" in capsys.readouterr().err


def test_parts_of_an_older_version_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    # Runs before this version kept parquet parts and no "parts" key in their manifest.
    out = tmp_path / "t.parquet"
    folder = stream.parts_dir(out)
    folder.mkdir()
    old = {"spec": "subtraction:1,3,4", "n_max": 999, "engine": "subtraction-stream"}
    (folder / "manifest.json").write_text(json.dumps({**old, "part_rows": 100}))
    with pytest.raises(UsageError, match="older nimproof") as info:
        stream.stream_table(parse_spec("subtraction:1,3,4"), 999, out, part_rows=100, resume=True)
    assert "delete it" in str(info.value) and "\n" not in str(info.value)


def test_each_part_is_encoded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One row group per part in the final file and nothing else encoded: the checkpoints are
    # the raw values, and a table in a memory-mapped file keeps no part files at all.
    encoded: list[int] = []
    real = pq.ParquetWriter.write_table

    def counting(self: pq.ParquetWriter, table: pa.Table, *args: Any, **kw: Any) -> None:
        encoded.append(len(table))
        real(self, table, *args, **kw)

    checkpoints: list[int] = []
    real_part = stream._write_part

    def saving(folder: Path, i: int, values: np.ndarray) -> None:
        checkpoints.append(i)
        real_part(folder, i, values)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", counting)
    monkeypatch.setattr(stream, "_write_part", saving)
    game = parse_spec("octal:0.106")
    for memory in (None, 1 << 16):
        encoded.clear()
        checkpoints.clear()
        out = tmp_path / f"t{memory}.parquet"
        got = stream.stream_table(game, 99_999, out, part_rows=1 << 14, memory=memory)
        assert got.mapped == (memory is not None)
        assert sum(encoded) == 100_000 and len(encoded) == 7
        assert checkpoints == ([] if memory else list(range(7)))
        assert datasets.store.read(out).grundy.tolist() == grundy_table(game, 99_999).tolist()
