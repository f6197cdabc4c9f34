"""``nimproof campaign``: the unsolved list as data, figures per doubling, resumption, errors."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nimproof.atlas import campaign
from nimproof.atlas.campaign import campaign_game, run_campaign, unsolved_games
from nimproof.cli.main import main
from nimproof.engines import reference
from nimproof.engines.mapped import MappedTable, state_path
from nimproof.games import parse_spec


def test_the_list_holds_82_codes_and_grundys_game() -> None:
    games = unsolved_games()
    specs = [g.spec for g in games]
    assert len(specs) == 83 == len(set(specs)) and specs[0] == "grundys-game"
    assert sum(s.startswith("octal:") for s in specs) == 82
    for spec in specs:
        parse_spec(spec)  # every code is a game nimproof reads
    published = {g.spec: g for g in games if g.published_log2_n}
    assert set(published) == {"grundys-game", "octal:0.6", "octal:0.04", "octal:0.06"}


@pytest.mark.parametrize(("spec", "depth"), [("grundys-game", 17), ("octal:0.6", 15)])
def test_figures_agree_with_the_published_list(spec: str, depth: int) -> None:
    # The list publishes its figures at 2^21; the rare heaps of these two games all lie
    # below 2^17 (Grundy's game, last rare 82,860) and 2^15 (Officers, 20,627), so the
    # rare figures are final at these depths.
    game = next(g for g in unsolved_games() if g.spec == spec)
    rows = campaign_game(spec, depth, start=depth - 1)
    assert [r["log2_n"] for r in rows] == [depth - 1, depth]
    last = rows[-1]
    pub = game.published
    assert last["rare_mask"] == pub["rare_mask"] and last["rare_by_position"] is False
    assert (last["num_rare"], last["last_rare"]) == (int(pub["num_rare"]), int(pub["last_rare"]))
    assert last["proved"] is False and last["command"] == ""


def test_a_proved_period_stops_the_game_and_names_its_command() -> None:
    # 0.07 (Dawson's Kayles): period 34 proved once the table covers its window.
    rows = campaign_game("octal:0.07", 14, start=10)
    last = rows[-1]
    assert last["proved"] and (last["period"], last["preperiod"]) == (34, 53)
    assert last["command"] == f"nimproof period octal:0.07 --max-n {last['n']}"
    assert last["window_end"] <= last["n"] and len(rows) == 1
    table = reference.heap_table(parse_spec("octal:0.07"), 300)
    assert all(table[n + 34] == table[n] for n in range(53, 300 - 34))


def test_campaign_resumes_and_writes_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c"
    done = run_campaign(["octal:0.16", "octal:0.106"], 13, out, start=11, workers=0)
    assert done.computed == 2 and done.where == "this process" and len(done.rows) == 6
    calls: list[str] = []
    real = campaign.campaign_game

    def counting(spec: str, *args: object) -> list[dict[str, object]]:
        calls.append(spec)
        return real(spec, *args)  # type: ignore[arg-type]

    campaign.campaign_game = counting  # type: ignore[assignment]
    try:
        computed = run_campaign(
            ["octal:0.16", "octal:0.106", "octal:0.56"], 13, out, start=11, workers=0
        ).computed
    finally:
        campaign.campaign_game = real  # type: ignore[assignment]
    assert computed == 1
    frame = pd.read_parquet(out / "campaign.parquet")
    assert list(frame.columns) == list(campaign.COLUMNS) and len(frame) == 9
    code = main(
        ["campaign", "--codes", "0.16", "--depth", "12", "--start", "11", "--out", str(out),
         "--workers", "0", "--json"]
    )  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["computed"] == 0 and data["rows"][0]["log2_n"] == 13
    md = (out / "campaign.md").read_text(encoding="utf-8")
    assert "game | n | largest idx | largest | rare mask | num rare | last rare" in md


@pytest.mark.parametrize(
    "argv",
    [
        ["campaign", "--depth", "40"],
        ["campaign", "--depth", "12", "--start", "14"],
        ["campaign", "--codes", "0.9x"],
        ["campaign", "--codes", "0.33", "--depth", "12", "--workers", "0"],
        ["campaign", "--scheduler", "localhost:1"],
        ["campaign", "--skip-dense=yes"],
        ["campaign", "--skip-dense", "3"],
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert err and "Traceback" not in err and len(err.splitlines()) == 1


_KILLED_GAME = """
import sys
from nimproof.atlas.campaign import campaign_game
campaign_game("octal:0.106", 23, 16, None, sys.argv[1], 1 << 16)
"""


def _saved_heaps(state: Path) -> int:
    with np.load(state) as f:
        return int(json.loads(str(f["meta"]))["n"])


def test_a_game_killed_partway_resumes_from_its_last_stretch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real kill (SIGKILL) of a game in another process once its table is checkpointed in
    # the middle of a doubling past 2^19; the resumed call keeps the finished doublings'
    # rows, computes from the checkpoint (not from heap 0, not from the doubling's start)
    # and gives the rows of a run that was never stopped.
    folder = tmp_path / "tables"
    where = campaign.game_folder(folder, "octal:0.106")
    state = state_path(where / "values.bin")
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_GAME, str(folder)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the game ended before it could be killed"
        try:
            n = _saved_heaps(state)
        except (OSError, ValueError, KeyError, EOFError):
            n = 0
        if n > 1 << 19 and n % (1 << 16) == 0:
            break
        time.sleep(0.002)
    proc.kill()
    proc.wait()
    saved = _saved_heaps(state)
    kept = json.loads((where / "rows.json").read_text(encoding="utf-8"))["rows"]
    assert len(kept) >= 4 and saved > kept[-1]["n"] + 1 and saved < (1 << 23)
    starts: list[int] = []
    real = MappedTable.extend

    def extend(table: MappedTable, stop: int, progress: object = None) -> None:
        starts.append(table.n)
        real(table, stop, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(MappedTable, "extend", extend)
    rows = campaign_game("octal:0.106", 23, 16, None, str(folder), 1 << 16)
    assert starts[0] == saved and rows[: len(kept)] == kept
    plain = campaign_game("octal:0.106", 23, 16)
    assert [r["log2_n"] for r in rows] == list(range(16, 24))
    drop = {"seconds", "doubling_seconds"}
    assert [{k: v for k, v in r.items() if k not in drop} for r in rows] == [
        {k: v for k, v in r.items() if k not in drop} for r in plain
    ]
