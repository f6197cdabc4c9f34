"""docs/plugins.md: its plugin skeleton loads and plays the game it describes, its claim
file verifies, and every command on the page runs as written."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from nimproof.cli.main import main
from nimproof.games.plugins import PLUGINS, load_plugin_file
from tests.docs.shell import Command, blocks, check

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "plugins.md"
TIMEOUT = 120


def _block(language: str) -> str:
    found = re.findall(rf"^```{language}\n(.*?)^```", GUIDE.read_text("utf-8"), re.M | re.S)
    assert len(found) == 1, f"docs/plugins.md should have one {language} block"
    return str(found[0])


def _mex_value(moves: Callable[[Any], Iterable[Any]], position: Any, memo: dict[Any, int]) -> int:
    """The Grundy value by plain mex over the game's own moves (no nimproof engine)."""
    if position not in memo:
        options = {_mex_value(moves, q, memo) for q in moves(position)}
        memo[position] = next(v for v in range(len(options) + 1) if v not in options)
    return memo[position]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with the skeleton as ``two_rows.py`` and ``games/two_rows.py``, and the claim."""
    (tmp_path / "two_rows.py").write_text(_block("python"), encoding="utf-8")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "two_rows.py").write_text(_block("python"), encoding="utf-8")
    (tmp_path / "claims.toml").write_text(_block("toml"), encoding="utf-8")
    return tmp_path


def test_the_skeleton_plays_the_game_it_describes(folder: Path) -> None:
    assert load_plugin_file(folder / "two_rows.py") == ["two-rows"]
    game = PLUGINS["two-rows"]()
    memo: dict[Any, int] = {}
    for a in range(9):
        for b in range(9):
            # Two rows, take one or two: each row is k-Nim with k = 2, value (a mod 3) xor (b mod 3).
            assert _mex_value(game.moves, (a, b), memo) == (a % 3) ^ (b % 3), (a, b)
    sizes = list(game.positions(3))
    assert len(sizes) == len(set(sizes)) == 10 and all(a + b <= 3 for a, b in sizes)


def test_the_claim_file_of_the_guide_verifies(folder: Path) -> None:
    assert main(["verify", str(folder / "claims.toml"), "--quiet", "--jobs", "1"]) == 0


@pytest.mark.parametrize(
    "block", blocks(GUIDE.read_text("utf-8")), ids=lambda b: " ".join(b[0].argv[1:4])
)
def test_guide_commands_run_as_written(block: list[Command], folder: Path) -> None:
    for command in block:
        check(command, folder, TIMEOUT)
