"""bench/officers.py's thread table: the speed-up it prints is the ratio of the rows it measured."""

from __future__ import annotations

import pytest

from bench import officers


def test_thread_table_prints_the_measured_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    walls = {(1, True): 500_000.0, (2, True): 800_000.0, (2, False): 400_000.0}
    calls: list[tuple[str, int, bool]] = []

    def fake_run(
        n: int, threads: int, first: int | None = None, spec: str = "", pipeline: bool = True
    ) -> dict[str, float]:
        calls.append((spec, threads, pipeline))
        wall = walls[threads, pipeline] * (2 if spec == "grundys-game" else 1)
        return {"wall": wall, "cpu": wall, "rare": 1583, "plain": 3000, "ranked": 1000, "load": 1}

    monkeypatch.setattr(officers, "run", fake_run)
    text = officers.thread_table(1 << 20, ("octal:0.6", "grundys-game"))
    # Interleaved: each game's rows one after the other, 1 thread first.
    assert calls == [
        (spec, threads, pipeline)
        for spec in ("octal:0.6", "grundys-game")
        for _, threads, pipeline in officers.THREAD_ROWS
    ]
    assert "| octal:0.6 | 1 | 1,048,576 | 500,000 |" in text
    line = next(x for x in text.splitlines() if x.startswith("Speed-up") and "octal:0.6" in x)
    assert "pipelined (one region a stretch): 1.60" in line
    assert "one region a step of a block (before): 0.80" in line
