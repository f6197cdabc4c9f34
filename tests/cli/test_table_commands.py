"""The games, table, value and data commands, run through nimproof.cli.main.main."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nimproof.cli.main import main
from nimproof.engines import reference
from nimproof.games import all_families, parse_spec

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every command writes into a fresh data directory, never the repository's data/."""
    monkeypatch.setenv("NIMPROOF_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON object on stdout"
    return json.loads(out)


def _a002186() -> list[int]:
    for raw in (DATA / "grundy_sequences.txt").read_text(encoding="utf-8").splitlines():
        if raw.startswith("kayles ;"):
            return [int(v) for v in raw.split(";")[2].split()]
    raise AssertionError("Kayles entry missing from tests/data/grundy_sequences.txt")


def test_games_json_lists_every_registered_family_and_the_plugins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, ["games", "--json"])
    names = [f["name"] for f in data["families"]]
    assert names == [f.info.name for f in all_families()]
    for f in data["families"]:
        parse_spec(f["example"])
    assert {"chocolate", "easychomp", "coin-strip"} <= {p["name"] for p in data["plugins"]}


def test_games_readable_listing_mentions_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "subtraction:1,3,4" in out and "chocolate" in out


def test_kayles_table_json_matches_oeis_a002186(capsys: pytest.CaptureFixture[str]) -> None:
    # A small table comes from the reference implementation, a saved one from the engine.
    small = _json(capsys, ["table", "kayles", "--max-n", "104", "--json"])
    assert small["grundy"] == _a002186() and small["engine"] == "reference"
    data = _json(capsys, ["table", "kayles", "--max-n", "104", "--json", "--save"])
    assert data["grundy"] == _a002186()
    assert data["spec"] == "kayles" and data["bound"] == 104 and data["misere"] is False
    assert data["engine"] == "sparse-space"


def test_misere_table_json_says_misere(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["table", "misere:nim", "--max-n", "5", "--json"])
    assert data["misere"] is True
    cache: dict[object, int] = {}
    assert data["grundy"] == [reference.value(parse_spec("misere:nim"), n, cache) for n in range(6)]


def test_saved_table_is_reused_and_listed(
    capsys: pytest.CaptureFixture[str], _data_dir: Path
) -> None:
    first = _json(capsys, ["table", "knim:3", "--max-n", "50", "--save", "--json"])
    assert first["source"] == "computed"
    again = _json(capsys, ["table", "knim:3", "--max-n", "20", "--json"])
    assert again["source"] == "dataset" and again["grundy"] == first["grundy"][:21]
    listing = _json(capsys, ["data", "list", "--json"])
    assert [(t["spec"], t["bound"], t["ok"]) for t in listing["tables"]] == [("knim:3", 50, True)]


def test_readable_table_shows_every_value_in_labelled_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["table", "subtraction:1,3,4", "--max-n", "3000", "--columns", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("subtraction:1,3,4")
    rows = [line for line in out[2:] if line.strip()]
    values = [int(v) for line in rows for v in line.split(":", 1)[1].split()]
    game = parse_spec("subtraction:1,3,4")
    assert values == reference.heap_table(game, 3000)  # all 3001, none dropped
    assert rows[-1].split(":")[0].strip() == "3000"


def test_multi_heap_table_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["table", "staircase", "--heaps", "2", "--max-heap", "3", "--json"])
    assert (
        data["layout"] == "box"
        and data["heaps"] == 2
        and data["max_heap"] == 3
        and data["kind"] == "grundy"
    )
    values = data["values"]
    game = parse_spec("staircase")
    assert values == [[reference.value(game, (a, b)) for b in range(4)] for a in range(4)]
    assert data["p_positions"] == [[a, b] for a in range(4) for b in range(4) if values[a][b] == 0]


def test_moore_table_json_holds_outcomes_only(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["table", "moore:2", "--heaps", "3", "--max-heap", "3", "--json"])
    assert data["kind"] == "outcome" and data["values"] is None and data["engine"] == "moore-sieve"
    game = parse_spec("moore:2")
    expected = [
        [a, b, c]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        if reference.value(game, (a, b, c)) == 0
    ]
    assert data["p_positions"] == expected


def test_readable_box_renderings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "misere:nim", "--heaps", "2", "--max-heap", "4"]) == 0
    assert main(["table", "moore:2", "--heaps", "3", "--max-heap", "4"]) == 0
    out = capsys.readouterr().out
    assert "h0\\h1" in out and "P-positions" in out


def test_value_of_a_nim_sum_prints_the_winning_move(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["value", "nim", "17", "24", "7", "11", "--json"])
    # Seed 003, example 3: nim-sum 5, leave 2 in the third heap.
    assert data["value"] == 5 and data["p_position"] is False
    assert data["winning_moves"] == [{"target": [17, 24, 2, 11], "heap": 2, "from": 7, "to": [2]}]
    assert main(["value", "nim", "3", "4", "5"]) == 0
    assert "heap 1: 3 -> 1" in capsys.readouterr().out


def test_value_of_moore_and_plugin_positions(capsys: pytest.CaptureFixture[str]) -> None:
    moore = _json(capsys, ["value", "moore:2", "1", "2", "3", "--json"])
    assert moore["value"] == reference.value(parse_spec("moore:2"), (1, 2, 3))
    assert [m["target"] for m in moore["winning_moves"]] == [[1, 1, 1]]
    choc = _json(capsys, ["value", "plugin:chocolate", "5", "6", "2", "3", "--json"])
    assert choc["value"] == 1 and [m["target"] for m in choc["winning_moves"]] == [[5, 5, 2, 2]]
    assert main(["value", "nim", "1", "2", "3"]) == 0
    assert "P-position" in capsys.readouterr().out


def test_data_path_and_verify(capsys: pytest.CaptureFixture[str], _data_dir: Path) -> None:
    assert _json(capsys, ["data", "path", "--json"])["data_dir"] == str(_data_dir.resolve())
    assert main(["table", "kayles", "--max-n", "200", "--save", "--json"]) == 0
    capsys.readouterr()
    assert main(["data", "verify", "--deep", "50"]) == 0
    assert "all 1 tables passed" in capsys.readouterr().out


def test_data_verify_fails_on_a_damaged_file(
    capsys: pytest.CaptureFixture[str], _data_dir: Path
) -> None:
    assert main(["table", "kayles", "--max-n", "200", "--save", "--json"]) == 0
    capsys.readouterr()
    path = next(_data_dir.glob("*.parquet"))
    path.write_bytes(path.read_bytes()[:100])
    assert main(["data", "verify"]) == 1
    out = capsys.readouterr().out
    assert path.name in out and "nimproof data verify" in out


def test_a_damaged_stored_table_makes_table_fail_with_one_line(
    capsys: pytest.CaptureFixture[str], _data_dir: Path
) -> None:
    assert main(["table", "knim:2", "--max-n", "60", "--save", "--json"]) == 0
    capsys.readouterr()
    path = next(_data_dir.glob("*.parquet"))
    path.write_bytes(b"garbage")
    assert main(["table", "knim:2", "--max-n", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err and path.name in err


def test_data_build_stores_the_standard_list(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, _data_dir: Path
) -> None:
    from nimproof import datasets

    monkeypatch.setattr(
        datasets, "STANDARD", (datasets.Standard("knim:3", 500), datasets.Standard("moore:2", 5, 2))
    )
    assert main(["data", "build"]) == 0
    assert "2 standard tables" in capsys.readouterr().out
    assert len(list(_data_dir.glob("*.parquet"))) == 2


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["table", "nosuchgame", "--max-n", "5"], "unknown game family"),
        (["table", "subtraction:1,,3", "--max-n", "5"], "subtraction set"),
        (["table", "octal:0.x7", "--max-n", "5"], "octal code"),
        (["table", "nim", "--max-n", "-3"], "at least 0"),
        (["table", "nim", "--max-n", str(10**13)], "too large: at most 1,099,511,627,776"),
        (["table", "nim", "--max-n", "10**15"], "too large: at most 1,099,511,627,776"),
        (["table", "nim", "--max-n", "1" + "0" * 60], "too large"),
        (["table", "nim", "--max-n", "ten"], "whole number"),
        (["table", "octal:0.8", "--max-n", "50000000"], "limit"),
        (["table", "kayles", "--max-n", "300000000"], "--out"),
        (["table", "moore:2", "--max-n", "5"], "--heaps"),
        (["table", "staircase", "--heaps", "3"], "--max-heap"),
        (["table", "nim"], "--max-n"),
        (["table", "plugin:chocolate", "--max-n", "3"], "plugin"),
        (
            ["table", "misere:nim", "--heaps", "2", "--max-heap", "3", "--method", "xor"],
            "not additive",
        ),
        (["table", "rule:import os", "--max-n", "3"], "syntax error"),
        (["value", "nim", "3", "x"], "malformed position"),
        (["value", "nim", "3", "-2"], "malformed position"),
        (["value", "sum:nim+kayles", "3"], "one heap for each"),
        (["value", "plugin:chocolate", "5", "6"], "four numbers"),
        (["value", "knim:3", "99999999999"], "too large for this engine: limit 100,000,000"),
        (["value", "knim:3", "1000000000000"], "too large for this engine: limit 100,000,000"),
        (["data"], "action"),
    ],
)
def test_bad_input_prints_one_line_and_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == ""
    assert err.startswith("error:") and "\n" not in err and "Traceback" not in err
    assert needle in err
