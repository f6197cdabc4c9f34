"""Every command in the README runs as written and exits, and prints, what the README says.

Commands run through the installed entry point in a fresh folder that sees the
repository's ``conjectures/``, so what they write stays out of the repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.shell import Command, blocks, check

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: Commands not run here, each with the reason. They take minutes or set up the machine,
#: and other tests cover them (the whole suite is `make test`; `make verify` is CI's job).
EXCLUDED = {
    "make verify": "decides the whole corpus: 6-10 minutes",
    "make test": "the test suite itself",
}

#: The time one command may take (a loaded machine runs the longest, a `verify` of 4 claims,
#: in about 10 s).
TIMEOUT = 120


def _blocks() -> list[list[Command]]:
    return blocks(README.read_text(encoding="utf-8"))


def _runnable() -> list[list[Command]]:
    out = []
    for block in _blocks():
        kept = [c for c in block if c.argv[0] != "make" or " ".join(c.argv) not in EXCLUDED]
        if kept:
            out.append(kept)
    return out


def test_every_command_is_run_or_excluded_with_a_reason() -> None:
    lines = [" ".join(c.argv) for block in _blocks() for c in block]
    assert len(lines) >= 8
    excluded = [line for line in lines if line in EXCLUDED]
    assert sorted(excluded) == sorted(EXCLUDED), "EXCLUDED names a command the README lacks"
    for block in _runnable():
        for command in block:
            assert command.argv[0] in (".venv/bin/nimproof", ".venv/bin/python"), command.line


def test_the_readme_shows_real_output_for_five_first_steps() -> None:
    steps = [c for block in _runnable() for c in block if c.shown]
    assert len(steps) >= 5
    assert any(c.exit_code == 1 for c in steps)  # a refutation is shown as one


@pytest.mark.parametrize(
    "block", _runnable(), ids=lambda b: b[0].argv[1] if len(b[0].argv) > 1 else b[0].line
)
def test_readme_block_runs_as_written(block: list[Command], tmp_path: Path) -> None:
    (tmp_path / "conjectures").symlink_to(ROOT / "conjectures")
    for command in block:
        check(command, tmp_path, TIMEOUT)
