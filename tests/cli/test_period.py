"""``nimproof period``: CheckPeriodicity-style answers, checked against known periods."""

from __future__ import annotations

import json

import pytest

from nimproof.cli.main import main
from nimproof.periods import MIN_PERIODS
from nimproof.theory.periodicity import find_periodicity


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["period", *argv, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_kayles_has_period_12_from_71_proved_by_guy_smith(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "kayles")
    assert (data["period"], data["preperiod"], data["saltus"]) == (12, 71, 0)
    assert data["status"] == "proved" and "Guy–Smith theorem" in str(data["theorem"])
    assert data["bound"] == 2 * 71 + 2 * 12 + 2 + 2 - 1 + 12


def test_subtraction_game_is_proved_by_the_finite_window(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "subtraction:2,5,6")
    assert (data["period"], data["preperiod"], data["status"]) == (11, 0, "proved")


def test_nim_has_saltus_one_proved_by_the_all_but_lemma(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "nim", "--max-n", "200")
    assert (data["period"], data["preperiod"], data["saltus"]) == (1, 0, 1)
    assert data["status"] == "proved" and "all-but window lemma" in str(data["theorem"])


def test_all_but_game_with_saltus_is_proved_as_the_method_proves_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "subtraction:all-but:2,5", "--max-n", "300")
    assert (data["period"], data["preperiod"], data["saltus"]) == (4, 0, 2)
    assert data["status"] == "proved"


def test_half_heap_is_not_periodic(capsys: pytest.CaptureFixture[str]) -> None:
    assert _json(capsys, "half-heap", "--max-n", "300")["status"] == "none"


def test_periodic_display_has_rows_of_one_period(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["period", "knim:3", "--rows", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "knim:3: preperiod 0, period 4, saltus 0"
    assert [line.split(":", 1)[1].split() for line in lines[3:6]] == [["0", "1", "2", "3"]] * 3


def test_find_periodicity_needs_three_periods_after_the_preperiod() -> None:
    def find(values: list[int]) -> object:
        return find_periodicity(values, max_period=None, min_periods=MIN_PERIODS)

    assert find([0, 1, 0, 1, 0, 1, 0, 1]) is not None
    assert find([5, 0, 1, 2, 0, 1, 2]) is None  # only two periods seen


def test_period_refuses_multi_heap_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["period", "moore:2"]) == 2
    assert "one-heap" in capsys.readouterr().err
