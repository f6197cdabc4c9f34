"""``nimproof misere``: the quotient in the literature's notation; bad input exits 2."""

from __future__ import annotations

import json

import pytest

from nimproof.cli.main import main


def test_json_answer_and_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["misere", "0.75", "--heaps", "2,2", "--check", "--check-total", "12", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["order"] == 8 and data["proved_all_heaps"] is True
    assert data["p_portion"] == ["a", "b²"] and data["p_position"] is True
    assert data["check"]["disagreements"] == []


def test_table_output_names_the_theorem(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["misere", "octal:0.31"]) == 0
    out = capsys.readouterr().out
    assert "⟨a, b | a² = 1, b³ = b⟩" in out and "periodicity theorem" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["misere", "0.9x"],
        ["misere", "0.75", "--heaps", "3,x"],
        ["misere", "0.75", "--max-heap", "0"],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_values_of_every_heap_from_the_joined_quotient(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["misere", "0.52", "--values", "10000", "--nim-heaps", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["proved_for_every_heap"] is True and data["limit"] is None
    assert len(data["values"]) == 10_001 and data["values"][:8] == [1, 0, 1, 2, 2, 0, 0, 3]


def test_values_say_exactly_where_they_stop(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["misere", "kayles", "--values", "10000", "--nim-heaps", "8", "--max-order", "200"]
    assert main([*argv, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    last = len(data["values"]) - 1
    assert last == data["heaps_computed"] < 40
    assert f"known only for heaps <= {last}" in data["limit"]
    assert "a candidate passed 200 elements" in data["stopped"]
