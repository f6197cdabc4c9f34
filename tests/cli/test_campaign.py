"""``nimproof campaign``: the unsolved list as data, figures per doubling, resumption, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from nimproof.atlas import campaign
from nimproof.atlas.campaign import campaign_game, run_campaign, unsolved_games
from nimproof.cli.main import main
from nimproof.engines import reference
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
    rows, computed, where = run_campaign(
        ["octal:0.16", "octal:0.106"], 13, out, start=11, workers=0
    )
    assert computed == 2 and where == "this process" and len(rows) == 6
    calls: list[str] = []
    real = campaign.campaign_game

    def counting(spec: str, *args: object) -> list[dict[str, object]]:
        calls.append(spec)
        return real(spec, *args)  # type: ignore[arg-type]

    campaign.campaign_game = counting  # type: ignore[assignment]
    try:
        _, computed, _ = run_campaign(
            ["octal:0.16", "octal:0.106", "octal:0.56"], 13, out, start=11, workers=0
        )
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
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert err and "Traceback" not in err and len(err.splitlines()) == 1
