"""The misère atlas: rows per code, resumable, on Dask and in-process alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.cli.main import main
from nimproof.misere.atlas import load, sweep

CODES = ["octal:0.75", "octal:0.31", "octal:0.6"]


def test_sweep_in_process_then_resume(tmp_path: Path) -> None:
    rows, computed = sweep(CODES, tmp_path, max_heap=24, max_positions=5000, workers=0)
    assert computed == 3
    by = {r["code"]: r for r in rows}
    assert by["octal:0.75"]["status"] == "proved" and by["octal:0.75"]["order"] == 8
    assert by["octal:0.31"]["proved"] and by["octal:0.31"]["period"] == 2
    assert by["octal:0.6"]["status"] in ("open", "stable") and not by["octal:0.6"]["proved"]
    assert len(by["octal:0.75"]["orders"]) == by["octal:0.75"]["heaps"] + 1
    # A second sweep with the same bounds computes nothing and reads the same rows back.
    again, computed = sweep(CODES, tmp_path, max_heap=24, max_positions=5000, workers=0)
    assert computed == 0
    assert [r["order"] for r in again] == [r["order"] for r in rows]
    assert {r["code"] for r in load(tmp_path)} == set(CODES)


def test_dask_gives_the_same_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "misere",
        "--atlas",
        "--codes",
        "0.75,0.31",
        "--max-heap",
        "24",
        "--max-positions",
        "5000",
    ]
    assert main([*argv, "--out", str(tmp_path / "d"), "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["computed"] == 2
    assert main([*argv, "--out", str(tmp_path / "p"), "--workers", "0", "--json"]) == 0
    capsys.readouterr()
    keep = ("code", "status", "order", "orders", "changes", "period", "preperiod")
    dask = [{k: r[k] for k in keep} for r in load(tmp_path / "d")]
    local = [{k: r[k] for k in keep} for r in load(tmp_path / "p")]
    assert dask == local
    assert "| octal:0.75 | proved |" in (tmp_path / "d" / "misere_atlas.md").read_text()


def test_atlas_refuses_a_game_and_bad_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["misere", "0.75", "--atlas"]) == 2
    assert main(["misere", "--atlas", "--codes", "0.9q"]) == 2
    assert main(["misere"]) == 2
    capsys.readouterr()
