"""Small kindnesses: readable tables at 80 columns, games in plain words whose examples run,
move lists with a limit, shell completion, report progress."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from nimproof.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nimproof", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("width", ["80", "40"])
def test_tables_fit_the_terminal_and_keep_every_value(width: str) -> None:
    run = _run("table", "kayles", "--max-n", "300", env={"COLUMNS": width})
    lines = run.stdout.splitlines()
    assert all(len(line) <= int(width) for line in lines[1:]), max(lines[1:], key=len)
    values = [v for line in lines[2:] for v in line.split(":", 1)[1].split()]
    assert len(values) == 301


def test_box_tables_fit_in_strips_and_keep_every_cell() -> None:
    run = _run("table", "nim", "--heaps", "2", "--max-heap", "40", env={"COLUMNS": "80"})
    lines = run.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines[2:])
    rows = [line for line in lines if ":" in line and line.split(":")[0].strip().isdigit()]
    assert sum(len(r.split(":", 1)[1].split()) for r in rows) == 41 * 41


def test_games_are_in_plain_words_and_every_example_command_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for entry in [*data["families"], *data["plugins"]]:
        text = entry["summary"].lower()
        assert "seed 0" not in text and "--plugins" not in text, entry
        words = shlex.split(entry["command"])
        assert words[0] == "nimproof"
        argv = words[1:]
        assert main(argv) == 0, entry["command"]
        capsys.readouterr()


def test_value_limits_long_move_lists(capsys: pytest.CaptureFixture[str]) -> None:
    heaps = ["1"] * 31
    assert main(["value", "nim", *heaps, "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("heap ") == 3 and "and 28 more" in out
    assert main(["value", "nim", *heaps, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["winning_moves"]) == 31


def test_shell_completion_completes_commands_and_options(tmp_path: Path) -> None:
    answer = tmp_path / "completions"
    for line, expected in (("nimproof ta", "table"), ("nimproof table kayles --max", "--max-n")):
        env = {
            "_ARGCOMPLETE": "1",
            "COMP_LINE": line,
            "COMP_POINT": str(len(line)),
            "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
        }
        assert _run(env=env).returncode == 0
        assert expected in answer.read_text(encoding="utf-8")


def test_report_progress_reaches_every_claim(tmp_path: Path) -> None:
    from nimproof.reports import write_reports

    results = [
        {
            "claim": {"id": f"c{i}", "kind": "identity", "statement": "s"},
            "verdict": {"id": f"c{i}", "status": "proved", "scope": {"kind": "all"}},
        }
        for i in range(3)
    ]
    seen: list[tuple[int, int]] = []
    write_reports(results, tmp_path, on_page=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
