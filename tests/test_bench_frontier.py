"""The frontier benchmark's deep doublings: a resumable run that logs, and the rows of a log."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench import frontier
from nimproof.engines import grundy_table
from nimproof.games import parse_spec


def _write_log(path: Path, events: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def _doubling(n: int, elapsed: float, rss_kb: int = 2048) -> dict[str, object]:
    return {"event": "doubling", "n": n, "elapsed": elapsed, "maxrss_kb": rss_kb, "load": [1.5]}


def test_deep_rows_add_up_the_runs_of_a_log_and_mark_a_resumed_doubling(tmp_path: Path) -> None:
    # Two runs: the first reaches 2^31 at 100 s and logs heap 2^31 + 2^29 at 150 s before it is
    # killed; the second resumes there and reaches 2^32 after 40 s of its own.
    log = tmp_path / "run.log"
    _write_log(
        log,
        [
            {"event": "start", "n": 0, "time": 0.0},
            _doubling(1 << 30, 60.0),
            _doubling(1 << 31, 100.0),
            {"event": "progress", "n": (1 << 31) + (1 << 29), "elapsed": 150.0, "maxrss_kb": 1},
            {"event": "start", "n": (1 << 31) + (1 << 29), "time": 500.0},
            _doubling(1 << 32, 40.0, 4096),
        ],
    )
    rows = frontier.deep_rows(log, smallest=30)
    assert [r.n for r in rows[:3]] == [1 << 30, 1 << 31, 1 << 32]
    assert [r.seconds for r in rows[:3]] == [60.0, 100.0, 190.0]
    assert "this doubling 40 s;" in rows[1].note and "resumed" not in rows[1].note
    assert "this doubling 90 s or more" in rows[2].note
    assert f"resumed from heap {(1 << 31) + (1 << 29):,}" in rows[2].note
    assert rows[2].peak_mb == 4.0
    missing = rows[3:]
    assert [r.n for r in missing] == [1 << k for k in range(33, frontier.DEEP_DEPTH + 1)]
    assert all(r.seconds is None and "not reached" in r.note for r in missing)
    assert "not run" in frontier.deep_rows(None)[0].note


def test_the_deep_run_logs_its_doublings_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(frontier, "DEEP_MEMORY", 1 << 14)  # stretches of 4,096 heaps
    monkeypatch.setattr(frontier, "DEEP_EVERY", 0.0)  # a progress line after every stretch
    folder = tmp_path / "deep"
    assert frontier.main(["--deep", str(folder), "--depth", "15"]) == 0
    events = [json.loads(x) for x in (folder / "run.log").read_text().splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "done"
    doublings = [e["n"] for e in events if e["event"] == "doubling"]
    assert doublings[:4] == [1 << 12, 1 << 13, 1 << 14, 1 << 15]
    assert all(e["disk"] > 0 and e["maxrss_kb"] > 0 for e in events if "disk" in e)
    assert "about" in capsys.readouterr().err  # the progress line with the time left
    values = np.fromfile(folder / "values.bin", dtype=np.uint8)[: (1 << 15) + 1]
    assert np.array_equal(values, grundy_table(parse_spec("octal:0.106"), 1 << 15))
    # Started again on a finished table: a new run in the log, nothing computed again.
    assert frontier.main(["--deep", str(folder), "--depth", "15"]) == 0
    again = [json.loads(x) for x in (folder / "run.log").read_text().splitlines()]
    assert again[len(events)]["event"] == "start" and again[len(events)]["n"] == (1 << 15) + 1
    assert frontier.main(["--from-log", str(folder / "run.log")]) == 0
    assert "deep doublings" in capsys.readouterr().out


def test_side_by_side_skips_a_case_its_smaller_one_says_is_over_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in for the C++ program (a script printing its lines): the 2^26 case of a game
    # whose three runs at 2^24 took 500 s is skipped under a 1,800 s budget (4 x 500 > 1,800),
    # the other game's is run; Officers' rate row compares both programs' values per second.
    fake = tmp_path / "analyze"
    fake.write_text('#!/bin/sh\nfor k in 24 25 26; do echo "n=2^$k largest G[1]=1"; done\n')
    fake.chmod(0o755)
    monkeypatch.setenv("NIMPROOF_OCTAL_CPP", str(fake))
    spent = {"octal:0.6": 500.0, "octal:0.106": 10.0}

    def side(binary: str, spec: str, code: str, log2: int) -> frontier.Row:
        assert binary == str(fake)
        n = (1 << log2) - 1
        stats = {"total": spent[spec] * 4 ** (log2 - 24), "cpp": 2.0}
        return frontier.Row("nimproof vs C++", spec, n, 1.0, 1.0, "", stats)

    monkeypatch.setattr(frontier, "_side_by_side", side)
    cases = [(s, c, k) for k in (24, 26) for s, c in (("octal:0.6", ".6"), ("octal:0.106", ".106"))]
    rows = frontier.cpp_rows(cases, budget=1800.0)
    assert [(r.spec, r.n.bit_length(), r.seconds is None) for r in rows[:4]] == [
        ("octal:0.6", 24, False),
        ("octal:0.106", 24, False),
        ("octal:0.6", 26, True),
        ("octal:0.106", 26, False),
    ]
    assert "over the budget of 1,800 s" in rows[2].note and "2,000 s" in rows[2].note
    assert rows[4].engine == "Officers values per second" and "ratio 2.00" in rows[4].note
    run = frontier.cpp_run(str(fake), ".6", 25)
    assert run.line == "n=2^25 largest G[1]=1" and run.seconds >= 0
    monkeypatch.setenv("NIMPROOF_OCTAL_CPP", str(tmp_path / "absent"))
    assert "skipped: no C++ solver" in frontier.cpp_rows(cases[:1])[0].note
