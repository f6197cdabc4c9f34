"""Plugins as first-class: ``--plugin`` anywhere, plugins named by conjecture files, tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.cli.main import main, split_plugins

PLUGIN = '''
from nimproof.errors import UsageError
from nimproof.games.base import PluginGame


class TakeOneOrTwo(PluginGame):
    """A single heap; take one or two tokens (Grundy value n mod 3)."""

    name = "take12"
    summary = "one heap; take one or two tokens"
    example = "plugin:take12"
    example_position = "5"

    def moves(self, position):
        (n,) = position
        return iter([(n - k,) for k in (1, 2) if k <= n])

    def parse_position(self, words):
        if len(words) != 1 or not words[0].isdigit():
            raise UsageError("a take12 position is one heap size, e.g. 5")
        return (int(words[0]),)

    def positions(self, bound):
        return iter([(n,) for n in range(bound + 1)])
'''

CLAIMS = """
plugins = ["games/take12.py"]

[[claim]]
id = "take12"
statement = "Taking one or two tokens: the value of a heap of n is n mod 3."
kind = "value"
game = "plugin:take12"
positions = [[0], [1], [2], [3], [4], [5]]
values = [0, 1, 2, 0, 1, 2]
"""


@pytest.fixture
def plugin_file(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "take12.py"
    path.write_text(PLUGIN, encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["first", "middle", "last", "equals"])
def test_plugin_option_works_anywhere_on_the_line(
    plugin_file: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    words = ["value", "plugin:take12", "7", "--json"]
    option = [f"--plugin={plugin_file}"] if where == "equals" else ["--plugin", str(plugin_file)]
    at = {"first": 0, "middle": 2, "last": len(words), "equals": 1}[where]
    assert main([*words[:at], *option, *words[at:]]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 7 % 3


def test_split_plugins_leaves_everything_after_double_dash() -> None:
    assert split_plugins(["a", "--plugin", "p.py", "--", "--plugin", "x"]) == (
        ["p.py"],
        ["a", "--", "--plugin", "x"],
    )


def test_a_conjecture_file_names_its_plugin_relative_to_itself(
    plugin_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "claims.toml").write_text(CLAIMS, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the path is the file's, not the working directory's
    out = tmp_path / "r.json"
    assert main(["verify", str(tmp_path / "claims.toml"), "--json", str(out), "--quiet"]) == 0
    verdict = json.loads(out.read_text(encoding="utf-8"))["results"][0]["verdict"]
    assert verdict["status"] == "proved"


def test_a_missing_plugin_file_in_a_conjecture_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "claims.toml").write_text(CLAIMS, encoding="utf-8")
    assert main(["verify", str(tmp_path / "claims.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "claims.toml" in err and "does not exist" in err


def test_plugin_games_are_tabulated_by_their_own_positions(
    plugin_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["table", "plugin:take12", "--max-size", "6", "--json", "--plugin", str(plugin_file)])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["layout"] == "positions"
    assert [(p["position"], p["value"]) for p in data["positions"]] == [
        ([n], n % 3) for n in range(7)
    ]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["table", "plugin:chocolate", "--max-n", "5"], "--max-size"),
        (["table", "plugin:chocolat", "--max-size", "2"], "did you mean 'chocolate'"),
        (["value", "plugin:chocolat", "1"], "did you mean 'chocolate'"),
        (["mine", "plugin:chocolate"], "nimproof table plugin:chocolate --max-size S"),
        (["value", "plugin:x", "1", "--plugin", "no-such-file.py"], "does not exist"),
    ],
)
def test_plugin_errors_are_one_line_and_agree(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["tabel", "kayles"], "did you mean 'table'"),
        (["table", "kayles", "--max-m", "5"], "did you mean '--max-n'"),
        (["table", "kaylse", "--max-n", "5"], "did you mean 'kayles'"),
        (["verify", "conjectures", "--filter", "bouton.seed00[heaps=2]"], "did you mean"),
    ],
)
def test_mistyped_names_get_a_suggestion(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_completion_prints_shell_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert "complete" in out and "nimproof" in out
