"""``nimproof campaign``: a clean shutdown of its Dask cluster, the cost of each doubling,
the projection to the target depth, ``--skip-dense``, and older campaign folders.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nimproof.atlas import campaign
from nimproof.atlas.campaign import (
    by_game,
    checkpoint_times,
    game_folder,
    load_campaign,
    plan,
    run_campaign,
)
from nimproof.atlas.campaign_cost import (
    COST_COLUMNS,
    GROWTH,
    core_time,
    cost_summary,
    growth,
    method_of,
    next_method,
    path,
    project,
    rare_growth,
)
from nimproof.cli.main import main
from nimproof.engines.sparse import DENSE_SHARE

# The scheduler (a thread of the command's process) answers every worker heartbeat
# after DELAY seconds, as a loaded machine does: a heartbeat is then nearly always in
# flight when the cluster closes, which made the worker log an ERROR with a traceback
# ("Failed to communicate with scheduler during heartbeat") before the fix.
_SLOW_SCHEDULER = textwrap.dedent(
    """
    import asyncio, sys
    import distributed.scheduler as ds

    DELAY = 0.45
    plain_init = ds.Scheduler.__init__

    def slow_init(self, *args, **kwargs):
        plain_init(self, *args, **kwargs)
        answer = self.handlers["heartbeat_worker"]

        async def late(*a, **kw):
            await asyncio.sleep(DELAY)
            return answer(*a, **kw)

        self.handlers["heartbeat_worker"] = late

    if __name__ == "__main__":
        ds.Scheduler.__init__ = slow_init
        from nimproof.cli.main import main
        sys.exit(main(sys.argv[1:]))
    """
)

#: Each command that runs games on a local cluster, and how many runs the test makes.
_COMMANDS = {
    "campaign": (["campaign", "--codes", "0.167,0.6", "--depth", "16", "--start", "12"], 2),
    "atlas": (["atlas", "--codes", "0.16,0.106,0.6", "--max-n", "65536"], 1),
    "misere atlas": (["misere", "--atlas", "--codes", "0.75,0.07", "--max-heap", "30"], 1),
}


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_a_run_on_a_local_cluster_closes_without_a_traceback(command: str, tmp_path: Path) -> None:
    script = tmp_path / "slow_scheduler.py"
    script.write_text(_SLOW_SCHEDULER, encoding="utf-8")
    argv, runs = _COMMANDS[command]
    for run in range(runs):
        out = ["--workers", "1", "--out", str(tmp_path / f"out{run}")]
        done = subprocess.run(
            [sys.executable, str(script), *argv, *out],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "ERROR" not in done.stderr, done.stderr


# -- the cost of each doubling, measured ---------------------------------------------------


def test_rows_give_the_method_their_table_used_and_the_rule_agrees(tmp_path: Path) -> None:
    # 0.06's rare heaps are a third of its heaps (dense); 0.167 has 60 rare heaps (sparse).
    done = run_campaign(["octal:0.06", "octal:0.167"], 14, tmp_path, start=13, workers=0)
    rows = {(r["code"], r["log2_n"]): r for r in done.rows}
    for k in (13, 14):
        dense, sparse = rows["octal:0.06", k], rows["octal:0.167", k]
        assert dense["method"] == "dense" and sparse["method"] == "sparse"
        assert dense["num_rare"] > DENSE_SHARE * dense["n"] / 2 > sparse["num_rare"]
        for row in (dense, sparse):
            assert method_of(row) == (row["method"], False)
            assert method_of({**row, "method": None}) == (row["method"], True)
            assert row["doubling_seconds"] >= 0 and row["projected_to"] == 14
    assert rows["octal:0.06", 14]["projected_seconds"] == 0.0
    # The doubling's seconds are the differences of the game's running seconds.
    for code in ("octal:0.06", "octal:0.167"):
        a, b = rows[code, 13], rows[code, 14]
        assert b["doubling_seconds"] == pytest.approx(b["seconds"] - a["seconds"], abs=2e-3)
        assert a["doubling_seconds"] == pytest.approx(a["seconds"], abs=2e-3)
    frame = pd.read_parquet(tmp_path / "campaign.parquet")
    assert list(frame.columns)[-4:] == list(COST_COLUMNS)
    assert set(frame["method"]) == {"dense", "sparse"}


def _rows(
    seconds: list[float], method: str | None, k0: int = 16, rare: list[int] | None = None
) -> list[dict[str, Any]]:
    """A game's rows from 2^k0 with these doubling seconds; rare heaps: ``rare``, else 10
    (sparse), else half the heaps (dense: a rare set growing with the table)."""
    counts = rare or [10 if method != "dense" else 1 << (k0 + i - 1) for i in range(len(seconds))]
    return [
        {"code": "g", "log2_n": k0 + i, "n": 1 << (k0 + i), "num_rare": counts[i],
         "seconds": None, "method": method, "doubling_seconds": t, "proved": False}
        for i, t in enumerate(seconds)
    ]  # fmt: skip


def test_the_projection_grows_each_doubling_by_the_measured_growth_within_the_methods_bounds() -> (
    None
):
    # Sparse doublings of 1, 2, 4 s: x2; three more doublings cost 8 + 16 + 32 s.
    assert project(_rows([1, 2, 4], "sparse"), 21)[-1]["projected_seconds"] == 56
    # Dense, x4 measured: 64 + 256.
    assert project(_rows([1, 4, 16], "dense"), 20)[-1]["projected_seconds"] == 320
    # A growth below the method's own rate is raised to it, one above twice it is cut.
    assert growth(_rows([4, 4, 4], "dense"), "dense") == GROWTH["dense"]
    assert growth(_rows([1, 30, 900], "dense"), "dense") == 2 * GROWTH["dense"]
    assert growth(_rows([1, 3, 9], "sparse"), "sparse") == pytest.approx(3.0)
    # Growths are measured only over doublings of the method in use now.
    changed = _rows([1, 50, 100], "sparse")
    changed[0]["method"] = "dense"
    assert growth(changed, "sparse") == pytest.approx(2.0)
    # At the depth: nothing left; proved: no projection.
    assert project(_rows([1, 2], "sparse"), 17)[-1]["projected_seconds"] == 0.0
    proved = _rows([1, 2], "sparse")
    proved[-1]["proved"] = True
    assert project(proved, 28)[-1]["projected_seconds"] is None


def test_the_markdown_shows_the_projection_on_each_games_deepest_row_only() -> None:
    base = {"largest_at": 1, "largest": 1, "rare_mask": 1, "last_rare": 1, "period": None}
    rows = [r | base for r in project(_rows([1, 2, 4], "sparse"), 21)]
    rows += [r | base | {"code": "h"} for r in project(_rows([3, 6], "sparse"), 21)]
    lines = [line for line in campaign.markdown(rows, "t").splitlines() if " | 2^" in line]
    projected = [line.split(" | ")[-1] for line in lines]
    assert projected == ["", "", "to 2^21: 56", "", "to 2^21: 180"]


def test_a_dense_game_whose_rare_heaps_stop_growing_is_projected_to_turn_sparse() -> None:
    # 26,214 rare heaps at 2^16, 2^17 and 2^18: shares 40%, 20%, 10%; the rare heaps do
    # not grow (x1), so the share halves each doubling: 5% at 2^19 (dense), 2.5% at 2^20,
    # under the engine's threshold (1/24): sparse from there, each doubling x2.
    rows = _rows([1, 4, 16], "dense", rare=[26214] * 3)
    assert rare_growth(rows) == 1.0 and rare_growth(_rows([1, 4, 16], "dense")) == 2.0
    assert [(k, m) for k, m, _ in path(rows, 21)] == [(19, "dense"), (20, "sparse"), (21, "sparse")]
    assert project(rows, 21)[-1]["projected_seconds"] == 64 + 256 + 512
    assert next_method(rows, 21) == "dense"
    summary = cost_summary({"g": rows, "h": _rows([1, 4, 16], "dense")}, 21)
    assert summary.turning == {"g": 20} and summary.games("dense") == ["g", "h"]
    assert "2 dense, reaching 2^21" in summary.line() and "1 of them turn sparse" in summary.line()
    # Once the next doubling is projected sparse, the game counts as sparse.
    later = _rows([1, 4, 16, 64], "dense", rare=[26214] * 4)
    assert next_method(later, 21) == "sparse" and cost_summary({"g": later}, 21).turning == {}


def test_rows_without_cost_columns_take_their_doublings_from_the_running_seconds() -> None:
    old = _rows([0, 0, 0], None)
    for row, total in zip(old, [1.0, 3.0, 2.0], strict=True):
        row["seconds"], row["doubling_seconds"] = total, None
    filled = project(old, 19)
    # 3 - 1 = 2 s; then a smaller total (a later run started the game again from heap 0):
    # the last doubling's share of it under the sparse growth, half.
    assert [r["doubling_seconds"] for r in filled] == [0.5, 2.0, 1.0]
    assert all(method_of(r) == ("sparse", True) for r in filled)
    dense = [{**r, "num_rare": r["n"]} for r in old]
    assert method_of(dense[0]) == ("dense", True)
    assert project(dense, 19)[0]["doubling_seconds"] == 0.75


def test_the_summary_sums_projections_by_method() -> None:
    games = {
        "a": _rows([1, 2, 4], "sparse"),  # 56 s to 2^21
        "b": _rows([1, 4, 16], "dense"),  # 64 + 256 + 1024 to 2^21
        "c": _rows([1, 2, 4, 8, 16, 32], "sparse"),  # at 2^21
        "d": _rows([1], "sparse"),
    }
    games["d"][0]["proved"] = True
    summary = cost_summary(games, 21)
    assert summary.done == ["c", "d"] and summary.games("dense") == ["b"]
    assert summary.seconds("sparse") == 56 and summary.seconds("dense") == 1344
    line = summary.line()
    assert "2 game(s) at 2^21 or proved" in line and "1 sparse, reaching 2^21 in about 56" in line
    assert "1 dense, reaching 2^21 in about 22 core-minutes" in line
    assert json.loads(json.dumps(summary.as_json()))["dense"] == {"b": 1344.0}
    assert core_time(3 * 365.25 * 86400) == "3 core-years" and core_time(90) == "1.5 core-minutes"


# -- --skip-dense and the order of the games ------------------------------------------------


def test_skip_dense_leaves_the_dense_games_out_and_keeps_their_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["campaign", "--codes", "0.06,0.167", "--start", "12", "--workers", "0"]
    out = ["--out", str(tmp_path)]
    assert main([*argv, "--depth", "13", *out]) == 0
    capsys.readouterr()
    assert main([*argv, "--depth", "14", "--skip-dense", "--json", *out]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skipped"] == ["octal:0.06"] and data["computed"] == 1
    deepest = {r["code"]: r["log2_n"] for r in data["rows"]}
    assert deepest == {"octal:0.06": 13, "octal:0.167": 14}
    assert list(data["cost"]["dense"]) == ["octal:0.06"] and data["cost"]["done"] == ["octal:0.167"]
    md = (tmp_path / "campaign.md").read_text(encoding="utf-8")
    assert "octal:0.06 | 2^13" in md and "octal:0.167 | 2^14" in md and "1 dense, reaching" in md
    # The default run still takes every game on.
    assert main([*argv, "--depth", "14", *out]) == 0
    text = capsys.readouterr().out
    assert "1 computed" in text and "still to do: 2 game(s) at 2^14 or proved" in text


def test_games_are_handed_out_longest_projection_first() -> None:
    kept = {
        "short": project(_rows([1, 2], "sparse"), 20),
        "long": project(_rows([10, 40], "dense"), 20),
        "done": project(_rows([1, 2, 4, 8, 16], "sparse"), 20),
    }
    order, skipped = plan(["short", "new", "long", "done"], kept, 20)
    assert order == ["new", "long", "short"] and skipped == []
    # Capped at the run's budget, the two known games cost the same: list order stays.
    assert plan(["short", "long"], kept, 20, seconds=1.0)[0] == ["short", "long"]
    assert plan(["short", "new", "long"], kept, 20, skip_dense=True) == (
        ["new", "short"],
        ["long"],
    )


# -- folders written before the cost columns ------------------------------------------------


def test_an_older_campaign_folder_is_read_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = ["octal:0.06", "octal:0.167"]
    run_campaign(specs, 13, tmp_path, start=12, workers=0)
    # Make it a folder of the earlier version: no cost columns in the parquet file nor in
    # the checkpoints' rows.
    frame = pd.read_parquet(tmp_path / "campaign.parquet")
    frame.drop(columns=list(COST_COLUMNS)).to_parquet(tmp_path / "campaign.parquet", index=False)
    for spec in specs:
        path = game_folder(tmp_path / "tables", spec) / campaign.ROWS
        kept = json.loads(path.read_text(encoding="utf-8"))
        kept["rows"] = [{k: v for k, v in r.items() if k not in COST_COLUMNS} for r in kept["rows"]]
        path.write_text(json.dumps(kept), encoding="utf-8")
    old = load_campaign(tmp_path)
    assert len(old) == 4 and all("method" not in r for r in old)
    games = by_game(old, 14)
    assert [method_of(r) for r in games["octal:0.06"]] == [("dense", True)] * 2
    assert all(r["projected_seconds"] is not None for g in games.values() for r in g)

    argv = ["campaign", "--codes", "0.06,0.167", "--start", "12", "--workers", "0", "--json"]
    assert main([*argv, "--depth", "14", "--out", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["computed"] == 2 and data["cost"]["method_by_rule"] == []
    rows = load_campaign(tmp_path)
    assert [(r["code"], r["log2_n"], r["method"]) for r in rows] == [
        ("octal:0.06", 12, None),
        ("octal:0.06", 13, None),
        ("octal:0.06", 14, "dense"),
        ("octal:0.167", 12, None),
        ("octal:0.167", 13, None),
        ("octal:0.167", 14, "sparse"),
    ]
    assert all(r["doubling_seconds"] is not None for r in rows)
    md = (tmp_path / "campaign.md").read_text(encoding="utf-8")
    assert "| dense (by rule) |" in md and "| sparse |" in md


def test_older_rows_take_their_doublings_from_the_checkpoint_not_from_mixed_runs(
    tmp_path: Path,
) -> None:
    run_campaign(["octal:0.167"], 14, tmp_path, start=12, workers=0)
    path = game_folder(tmp_path / "tables", "octal:0.167") / campaign.ROWS
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["rows"] = [{k: v for k, v in r.items() if k not in COST_COLUMNS} for r in kept["rows"]]
    path.write_text(json.dumps(kept), encoding="utf-8")
    total = [r["seconds"] for r in kept["rows"]]
    # The campaign's file: an earlier run's first rows beside a later run's (which started
    # the game again from heap 0), so its running seconds go down.
    frame = pd.read_parquet(tmp_path / "campaign.parquet").drop(columns=list(COST_COLUMNS))
    frame["seconds"] = [50.0, 1.0, 2.0]
    frame.to_parquet(tmp_path / "campaign.parquet", index=False)
    rows = checkpoint_times(load_campaign(tmp_path), tmp_path / "tables")
    assert rows[0]["doubling_seconds"] is None  # no doubling before it in the checkpoint
    assert rows[1]["doubling_seconds"] == pytest.approx(total[1] - total[0], abs=2e-3)
    assert rows[2]["doubling_seconds"] == pytest.approx(total[2] - total[1], abs=2e-3)
    # Without the checkpoint, the file's own seconds: 1 - 50 < 0, so half of 1 s (sparse).
    alone = project(checkpoint_times(load_campaign(tmp_path), tmp_path / "none"), 14)
    assert [r["doubling_seconds"] for r in alone] == [25.0, 0.5, 1.0]
