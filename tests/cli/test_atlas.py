"""``nimproof atlas``: rows, resumption, failures recorded, the Dask path and the pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nimproof.atlas import COLUMNS, analyse, family_specs, run_sweep
from nimproof.atlas import sweep as sweep_module
from nimproof.cli.main import main
from nimproof.errors import UsageError

SMALL = ["octal:0.07", "octal:0.137", "octal:0.16", "subtraction:1,3,4", "grundys-game"]


def _rows(out: Path) -> dict[str, dict[str, Any]]:
    frame = pd.read_parquet(out / "atlas.parquet")
    assert list(frame.columns) == list(COLUMNS)
    return {r["code"]: r for r in frame.to_dict(orient="records")}


def test_families_have_the_documented_sizes() -> None:
    assert len(family_specs("octal", None)) == 511
    assert len(family_specs("octal4", None)) == 512
    assert len(family_specs("subtraction", None)) == 255
    four = family_specs("octal-4digit", None)
    assert len(four) == len(set(four)) == 8**4 - 1 and set(family_specs("octal", None)) < set(four)
    assert family_specs(None, "0.16,0.56 grundys-game") == [
        "octal:0.16",
        "octal:0.56",
        "grundys-game",
    ]
    with pytest.raises(UsageError):
        family_specs(None, "0.19x")
    with pytest.raises(UsageError):
        family_specs("chess", None)


def test_a_row_says_proved_only_with_a_theorem() -> None:
    row = analyse("octal:0.137", 4096)
    assert row["status"] == "proved" and (row["period"], row["preperiod"]) == (34, 52)
    assert "Guy–Smith" in row["theorem"] and row["largest_value"] == 9
    row = analyse("grundys-game", 3000)
    assert row["status"] in ("unsolved", "periodic") and row["proved"] is False
    assert row["max_n"] == 3000 and row["rare_heaps"] > 0


def test_a_failure_is_recorded_in_its_row() -> None:
    row = analyse("octal:0.9x", 100)
    assert row["status"] == "error" and "SpecError" in row["error"]


def test_sweep_resumes_and_retries_only_failures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "atlas"
    first = run_sweep(SMALL[:3], 4096, out, workers=0)
    assert first.computed == 3 and first.skipped == 0
    calls: list[str] = []
    real = sweep_module.analyse

    def counting(spec: str, max_n: int, seconds: float | None = None) -> dict[str, Any]:
        calls.append(spec)
        return real(spec, max_n, seconds)

    monkeypatch.setattr(sweep_module, "analyse", counting)
    again = run_sweep(SMALL, 4096, out, workers=0)
    assert sorted(calls) == sorted(SMALL[3:]) and again.skipped == 3
    rows = _rows(out)
    assert set(rows) == set(SMALL)
    assert rows["octal:0.16"]["status"] == "unsolved" and rows["octal:0.16"]["max_n"] == 4096


def test_two_worker_dask_cluster_gives_the_same_rows(tmp_path: Path) -> None:
    local = run_sweep(SMALL, 4096, tmp_path / "local", workers=0)
    dask = run_sweep(SMALL, 4096, tmp_path / "dask", workers=2)
    assert "Dask" in dask.where
    keys = [k for k in COLUMNS if k not in ("seconds", "provenance")]
    a, b = _rows(tmp_path / "local"), _rows(tmp_path / "dask")
    for spec in SMALL:
        assert [str(a[spec][k]) for k in keys] == [str(b[spec][k]) for k in keys], spec
    assert local.computed == dask.computed == len(SMALL)


def test_cli_writes_parquet_html_and_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a"
    code = main(
        [
            "atlas",
            "--codes",
            "0.07,0.6",
            "--max-n",
            "3000",
            "--out",
            str(out),
            "--workers",
            "0",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["games"] == 2 and data["counts"]["proved"] == 1
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<svg" in page and "octal:0.6" in page and "unsolved up to 3000" in page
    assert "<script>" in page and "http" not in page.split("<body>")[1]
    md = (out / "atlas.md").read_text(encoding="utf-8")
    assert "| octal:0.07 | period 34 from n = 53, proved for all n" in md


def test_cli_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["atlas", "--codes", "0.16", "--family", "octal", "--out", str(tmp_path)]) == 2
    assert (
        main(["atlas", "--codes", "0.16", "--scheduler", "localhost:1", "--out", str(tmp_path)])
        == 2
    )
    assert "Traceback" not in capsys.readouterr().err
