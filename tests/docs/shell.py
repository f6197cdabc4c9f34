"""Shell code blocks of a Markdown page, and running them as a reader would.

A ``sh`` block holds commands, one a line (``#`` starts a comment). A
``console`` block holds commands after ``$ `` and, below each, what it
printed: every shown line must occur in the real output (whitespace and
line breaks aside, times such as ``[0.08s]`` or ``(3.2 s)`` aside); ``...``
marks a cut, a line of its own or inside a line (the pieces must then occur in
that order). A command is expected to exit 0 unless its comment says
``exits N``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
EXITS = re.compile(r"#.*\bexits (\d+)")
TIME = re.compile(r"[\[(]\d+(?:\.\d+)?\s?s[\])]")
SHELL_LANGUAGES = ("sh", "console")


@dataclass
class Command:
    """One command of a page, with its expected exit code and the output the page shows."""

    line: str
    exit_code: int = 0
    shown: list[str] = field(default_factory=list)

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.line, comments=True)


def blocks(markdown: str) -> list[list[Command]]:
    """The commands of every ``sh`` and ``console`` block, block by block."""
    out = []
    for language, body in FENCE.findall(markdown):
        if language not in SHELL_LANGUAGES:
            continue
        commands: list[Command] = []
        for raw in body.splitlines():
            line = raw.rstrip()
            if language == "console" and not line.startswith("$ "):
                if commands and line and line != "...":
                    commands[-1].shown.append(line)
                continue
            line = line.removeprefix("$ ").strip()
            if not line or line.startswith("#"):
                continue
            found = EXITS.search(line)
            commands.append(Command(line, int(found.group(1)) if found else 0))
        out.append(commands)
    return out


def _words(text: str) -> str:
    return " ".join(TIME.sub("(TIME)", text).split())


def executable(word: str) -> str | None:
    """The program a page's command names, in this test's environment (None: not a program
    the pages may run)."""
    bin_dir = Path(sys.executable).parent
    if word in (".venv/bin/nimproof", "nimproof"):
        return str(bin_dir / "nimproof")
    if word in (".venv/bin/python", "python", "python3"):
        return sys.executable
    return None


def run(command: Command, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in ``cwd`` through the installed entry point, within ``timeout`` seconds."""
    argv = command.argv
    program = executable(argv[0])
    assert program is not None, f"not a nimproof or python command: {command.line}"
    env = dict(os.environ, NIMPROOF_DATA=str(cwd / "data"))
    return subprocess.run(
        [program, *argv[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def check(command: Command, cwd: Path, timeout: float) -> None:
    """Run ``command`` and assert its exit code and every output line the page shows."""
    done = run(command, cwd, timeout)
    printed = done.stdout + done.stderr
    assert done.returncode == command.exit_code, (command.line, done.returncode, printed[-2000:])
    words = _words(printed)
    for line in command.shown:
        start = 0
        for piece in filter(None, (_words(part) for part in line.split("..."))):
            found = words.find(piece, start)
            assert found >= 0, (command.line, line, piece, printed[-2000:])
            start = found + len(piece)
