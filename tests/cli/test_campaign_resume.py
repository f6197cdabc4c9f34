"""``nimproof campaign`` across runs: a game goes on from its checkpoint, never from heap 0.

A game stopped by its time budget, by a larger ``--depth`` asked later, or by a crash in
the middle of a stretch continues, in the next run, from its last finished stretch. The
stretches each run computes are read from the campaign's log (``nimproof.campaign``), so
the tests see that no finished stretch is computed twice, and the rows are compared with
those of one uninterrupted run.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from nimproof.atlas import campaign
from nimproof.atlas.campaign import game_folder, load_campaign, run_campaign
from nimproof.cli.main import main
from nimproof.engines.mapped import MappedTable, state_path

SPEC = "octal:0.167"
STRETCH_LINE = re.compile(r"heaps (\d+) to (\d+) computed")


def _stretches(caplog: pytest.LogCaptureFixture) -> list[tuple[int, int]]:
    """The stretches logged since the last clear, in order (first heap, last heap)."""
    found = [STRETCH_LINE.search(r.getMessage()) for r in caplog.records]
    caplog.clear()
    return [(int(m.group(1)), int(m.group(2))) for m in found if m]


def _run(out: Path, depth: int, seconds: float | None = None, **kw: Any) -> list[dict[str, Any]]:
    return run_campaign([SPEC], depth, out, start=12, workers=0, seconds=seconds, **kw).rows


def _figures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their times (and the projections made from them)."""
    times = {"seconds", "doubling_seconds", "projected_seconds"}
    return [{k: v for k, v in r.items() if k not in times} for r in rows]


def test_short_budgets_then_a_longer_run_give_the_rows_of_one_run_and_compute_each_stretch_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="nimproof.campaign")
    whole = _run(tmp_path / "one", 16)
    once = _stretches(caplog)
    assert once[0][0] == 0 and once[-1][1] == 1 << 16 and len(once) > 6

    out = tmp_path / "runs"
    # A budget of a nanosecond: the first run finishes its first doubling (a game always
    # gets one row), every later run one stretch; then a larger depth with no budget.
    seen: list[list[tuple[int, int]]] = []
    for depth, seconds in [(14, 1e-9), (14, 1e-9), (14, 1e-9), (16, None)]:
        _run(out, depth, seconds)
        seen.append(_stretches(caplog))
    assert [len(s) for s in seen[1:3]] == [1, 1]  # each short run stopped after one stretch
    assert seen[1][0][0] == seen[0][-1][1] + 1 and seen[2][0][0] == seen[1][0][1] + 1
    every = [s for run in seen for s in run]
    assert every == once  # the same stretches, none computed twice, none left out
    assert _figures(load_campaign(out)) == _figures(load_campaign(tmp_path / "one"))
    assert _figures(whole) == _figures(load_campaign(out))
    assert [r["log2_n"] for r in whole] == [12, 13, 14, 15, 16]
    # Not proved: the checkpoint stays for a deeper run, one byte a heap.
    values = game_folder(out / "tables", SPEC) / campaign.VALUES
    assert values.stat().st_size == (1 << 16) + 1
    assert values.stat().st_blocks * 512 <= (1 << 16) + (1 << 16)


def test_a_crash_in_the_middle_of_a_stretch_resumes_from_the_last_checkpoint(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="nimproof.campaign")
    whole = _run(tmp_path / "one", 15)
    once = _stretches(caplog)
    real = MappedTable.extend
    calls = [0]

    def crashing(table: MappedTable, stop: int, progress: object = None) -> None:
        calls[0] += 1
        if calls[0] == 9:  # half of this stretch is computed and written, then the crash
            real(table, (table.n + stop) // 2)
            raise RuntimeError("crash")
        real(table, stop, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(MappedTable, "extend", crashing)
    out = tmp_path / "crashed"
    with pytest.raises(RuntimeError, match="crash"):
        _run(out, 15)
    before = _stretches(caplog)
    assert len(before) == 8 and not (out / "campaign.parquet").exists()
    monkeypatch.setattr(MappedTable, "extend", real)
    rows = _run(out, 15)
    after = _stretches(caplog)
    assert after[0][0] == before[-1][1] + 1 and before + after == once
    assert _figures(rows) == _figures(whole)


def test_a_proved_game_and_drop_tables_leave_no_checkpoint(tmp_path: Path) -> None:
    # 0.07's period is proved at 2^12: its table is no longer needed.
    rows = run_campaign(["octal:0.07", SPEC], 13, tmp_path, start=12, workers=0).rows
    assert any(r["proved"] for r in rows if r["code"] == "octal:0.07")
    tables = tmp_path / "tables"
    assert not game_folder(tables, "octal:0.07").exists()
    assert state_path(game_folder(tables, SPEC) / campaign.VALUES).exists()
    run_campaign([SPEC], 14, tmp_path, start=12, workers=0, drop_tables=True)
    assert not game_folder(tables, SPEC).exists()
    assert [r["log2_n"] for r in load_campaign(tmp_path) if r["code"] == SPEC] == [12, 13, 14]


def test_checkpoints_go_where_asked_and_the_summary_gives_their_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["campaign", "--codes", "0.167", "--depth", "13", "--start", "12", "--workers", "0"]
    code = main([*argv, "--out", str(tmp_path / "o"), "--tables", str(tmp_path / "t"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["checkpoints"]["folder"] == str(tmp_path / "t")
    assert data["checkpoints"]["games"] == 1 and 0 < data["checkpoints"]["bytes"] < 1 << 20
    assert (tmp_path / "t" / "octal_0.167" / campaign.VALUES).exists()
    assert not (tmp_path / "o" / "tables").exists()


def _damage(folder: Path, how: str) -> None:
    if how == "rows":
        (folder / campaign.ROWS).write_text("{not json", encoding="utf-8")
    elif how == "state":
        state_path(folder / campaign.VALUES).write_bytes(b"PK\x03\x04 broken")
    elif how == "value":
        values = folder / campaign.VALUES
        data = np.fromfile(values, dtype=np.uint8)
        data[3000] ^= 1  # one value changed (a flipped bit)
        data.tofile(values)
    elif how == "short":
        with open(folder / campaign.VALUES, "rb+") as f:
            f.truncate(100)
    elif how == "no table":
        state_path(folder / campaign.VALUES).unlink()
    elif how == "no rows":
        (folder / campaign.ROWS).unlink()


@pytest.mark.parametrize("how", ["rows", "state", "value", "short", "no table", "no rows"])
def test_a_damaged_checkpoint_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    argv = ["campaign", "--codes", "0.167", "--start", "12", "--workers", "0", "--out"]
    assert main([*argv, str(tmp_path), "--depth", "13"]) == 0
    # Not proved at 2^13: the next run, deeper, opens the checkpoint.
    _damage(game_folder(tmp_path / "tables", SPEC), how)
    capsys.readouterr()
    assert main([*argv, str(tmp_path), "--depth", "14"]) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert "octal_0.167" in err


@pytest.mark.parametrize("option", ["--out", "--tables"])
def test_an_unwritable_folder_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    argv = ["campaign", "--codes", "0.167", "--depth", "12", "--start", "12", "--workers", "0"]
    folders = {"--out": str(tmp_path / "o"), "--tables": str(tmp_path / "t")}
    folders[option] = str(blocker / "sub")
    assert main([*argv, "--out", folders["--out"], "--tables", folders["--tables"]]) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1 and "a-file" in err
