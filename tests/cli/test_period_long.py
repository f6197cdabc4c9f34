"""``nimproof period`` on long tables (--max-n above LONG_FROM): the sparse-space search."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from nimproof.cli.main import main
from nimproof.engines import periods
from nimproof.errors import UsageError
from nimproof.games import parse_spec
from nimproof.periods import LONG_FROM

LONG = str(LONG_FROM + 1)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_dawsons_chess_is_proved_with_its_published_period(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # OEIS A002187: period 34, the last exception at n = 51.
    code, data = _json(capsys, ["period", "dawsons-chess", "--max-n", LONG, "--json"])
    assert code == 0 and data["status"] == "proved"
    assert (data["period"], data["preperiod"], data["saltus"]) == (34, 52, 0)
    assert "Guy–Smith" in data["theorem"] and data["checked_to"] < 10_000
    assert data["checked"]["reference"] > 0 and data["checked"]["dense_kernel"] > 0
    assert data["figures"]["largest_value"] == 9


def test_octal_117_matches_its_published_exceptions(capsys: pytest.CaptureFixture[str]) -> None:
    # OEIS A071453 (0.117): period 48, the only exceptions up to n = 46.
    code, data = _json(capsys, ["period", "octal:0.117", "--max-n", LONG, "--json"])
    assert code == 0 and (data["period"], data["preperiod"]) == (48, 47)


def test_subtraction_games_use_golombs_window(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, ["period", "subtraction:1,3,4", "--max-n", LONG, "--json"])
    assert code == 0 and data["status"] == "proved"
    assert (data["period"], data["preperiod"]) == (7, 0)
    assert "Golomb" in data["theorem"]


def test_grundys_game_is_never_proved(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, ["period", "grundys-game", "--max-n", LONG, "--json"])
    assert code == 0 and data["status"] in ("none", "apparent")
    assert data["checked_to"] == LONG_FROM + 1
    assert data["figures"]["rare_heaps"] > 0 and len(data["values"]) == 2000


def test_readable_output_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["period", "kayles", "--max-n", LONG]) == 0
    out = capsys.readouterr().out
    assert "preperiod 71, period 12, saltus 0" in out and "proved for every n >= 71" in out
    assert "rare mask" in out and "largest value" in out and "cross-checked" in out


def test_a_damaged_table_is_caught_by_the_cross_check() -> None:
    game = parse_spec("kayles")
    values = np.array(periods.reference.heap_table(game, 500))  # type: ignore[arg-type]
    values[321] ^= 1
    with pytest.raises(UsageError, match="n = 321"):
        periods.cross_check(game, values, 500)  # type: ignore[arg-type]
