"""``nimproof period``: periods found, proved only when a theorem covers them."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from nimproof.cli.main import main
from nimproof.engines import periods
from nimproof.errors import UsageError
from nimproof.games import parse_spec


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_dawsons_chess_is_proved_with_its_published_period(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # OEIS A002187: period 34, the last exception at n = 51.
    code, data = _json(capsys, ["period", "dawsons-chess", "--max-n", "5000", "--json"])
    assert code == 0 and data["status"] == "proved" and data["proved"] is True
    assert (data["period"], data["preperiod"]) == (34, 52)
    assert "Guy–Smith" in data["theorem"] and data["max_n"] < 5000
    assert data["checked"]["reference"] > 0


def test_octal_117_matches_its_published_exceptions(capsys: pytest.CaptureFixture[str]) -> None:
    # OEIS A071453 (0.117): period 48, the last exception at n = 46.
    code, data = _json(capsys, ["period", "octal:0.117", "--max-n", "4000", "--json"])
    assert code == 0 and (data["period"], data["preperiod"]) == (48, 47)


def test_subtraction_games_use_golombs_window(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, ["period", "subtraction:1,3,4", "--max-n", "5000", "--json"])
    assert code == 0 and (data["period"], data["preperiod"]) == (7, 0)
    assert "Golomb" in data["theorem"]


def test_grundys_game_is_never_proved(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _json(capsys, ["period", "grundys-game", "--max-n", "3000", "--json"])
    assert code == 1 and data["proved"] is False and data["status"] in ("unsolved", "periodic")
    assert data["rare_heaps"] > 0 and data["largest_value"] > 0


def test_readable_output_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["period", "kayles", "--max-n", "3000"]) == 0
    out = capsys.readouterr().out
    assert "preperiod 71, period 12, proved for all n" in out
    assert "rare mask" in out and "largest value" in out


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["period", "moore:2", "--max-n", "10"]) == 2
    assert main(["period", "kayles", "--max-n", "-5"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_a_damaged_table_is_caught_by_the_cross_check() -> None:
    game = parse_spec("kayles")
    values = np.array(periods.reference.heap_table(game, 500))
    values[321] ^= 1
    with pytest.raises(UsageError, match="n = 321"):
        periods.cross_check(game, values, 500)  # type: ignore[arg-type]
