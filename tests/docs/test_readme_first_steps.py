"""The README's "First steps" commands run and say what the README says they say."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from nimproof.cli.main import main

README = Path(__file__).resolve().parents[2] / "README.md"


def _first_steps() -> list[tuple[list[str], str]]:
    text = README.read_text(encoding="utf-8")
    block = text.split("## First steps", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    out = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("  #")
        words = shlex.split(command)
        assert words[0] == "nimproof"
        out.append((words[1:], comment.strip()))
    return out


@pytest.mark.parametrize(("argv", "comment"), _first_steps())
def test_first_steps_run_as_described(
    argv: list[str], comment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(argv)
    out = capsys.readouterr().out
    assert code == (1 if "REFUTED" in comment else 0), out
    for word in ("PROVED", "REFUTED", "preperiod 71", "period 12", "7 -> 2"):
        if word in comment:
            assert word in out, (word, out)
