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
