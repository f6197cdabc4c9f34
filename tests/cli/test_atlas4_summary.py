"""The committed summary of the four-digit atlas (nimproof/atlas/data/atlas4_summary.csv).

The file was written by ``python -m bench.atlas_summary`` from a sweep of the codes
0.d..0.dddd to 2^16 on a Dask cluster of separate processes (docs/frontier.md).
Here: it holds codes of the family once, its ``published`` column is what the comparison
with the published periods gives now, and a sample of its rows is what a run in
this process, without Dask, computes.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nimproof.atlas import analyse
from nimproof.atlas.families import octal_codes
from nimproof.atlas.published import compare, read_published

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = ROOT / "nimproof" / "atlas" / "data" / "atlas4_summary.csv"
PUBLISHED = ROOT / "tests" / "data" / "published_octal_periods.csv"
BOUND = 1 << 16
#: Codes recomputed here: these, and nine spread over the file (whichever it holds).
CHOSEN = ["0.4", "0.6", "0.1377", "0.0177", "0.1234", "0.7777"]


def _rows() -> dict[str, dict[str, str]]:
    with open(SUMMARY, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {r["code"]: r for r in rows}


def _int(text: str) -> int | None:
    return int(text) if text else None


def test_the_summary_holds_codes_of_the_family_once() -> None:
    # The sweep was stopped before its end (docs/frontier.md says how far it got): the
    # file holds the codes it finished, each once, and says how many in its header.
    lines = SUMMARY.read_text(encoding="utf-8").splitlines()
    rows = _rows()
    assert len(rows) == len(lines) - sum(1 for x in lines if x.startswith("#")) - 1
    assert f"{len(rows)} of 4095 codes" in lines[0]
    assert {f"octal:{c}" for c in rows} <= set(octal_codes("0", 4))
    assert {r["status"] for r in rows.values()} <= {"proved", "periodic", "unsolved", "timeout"}


def test_the_published_column_is_the_comparison() -> None:
    pub = read_published(PUBLISHED)
    for code, r in _rows().items():
        spec = f"octal:{code}"
        row = {
            "status": r["status"],
            "period": _int(r["period"]),
            "preperiod": _int(r["preperiod"]),
        }
        want = compare(row, pub[spec], BOUND + 1, pub)[0] if spec in pub else ""
        assert r["published"] == want, code


def _sample() -> list[str]:
    rows = sorted(_rows())
    spread = [rows[i * len(rows) // 9] for i in range(9)] if rows else []
    return list(dict.fromkeys([c for c in CHOSEN if c in rows] + spread))


@pytest.mark.parametrize("code", _sample())
def test_sampled_rows_are_those_of_a_run_without_dask(code: str) -> None:
    r = _rows()[code]
    row = analyse(f"octal:{code}", BOUND)
    assert row["status"] == r["status"]
    for key in ("preperiod", "period", "largest_value", "largest_at", "rare_heaps", "last_rare"):
        assert row[key] == _int(r[key]), (code, key)
