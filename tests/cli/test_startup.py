"""Start-up stays light: each command imports only what it uses.

The import graph is checked in a fresh interpreter (``sys.modules`` after the
command ran); the times themselves are measured in ``make bench``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nimproof.cli.main import COMMANDS

HEAVY = ("numba", "z3", "sympy", "pandas", "pyarrow", "matplotlib", "nimproof.miner", "scipy")

PROBE = """
import json, sys
from nimproof.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules)), file=sys.stderr)
"""


def loaded_by(*argv: str) -> set[str]:
    """The modules loaded after running ``nimproof ARGV`` in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(json.loads(run.stderr.strip().splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(h for h in HEAVY if h in modules)


@pytest.mark.parametrize(
    "argv", [["--help"], ["--version"], ["table", "--help"], ["verify", "--help"]]
)
def test_help_and_version_import_no_heavy_library_and_no_rich(argv: list[str]) -> None:
    modules = loaded_by(*argv)
    assert heavy(modules) == []
    assert "numpy" not in modules and "rich" not in modules


def test_help_imports_no_command_module() -> None:
    commands = {m for m in loaded_by("--help") if m.startswith("nimproof.cli.")}
    assert commands <= {"nimproof.cli.main", "nimproof.cli.common"}


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "kayles", "--max-n", "100"],
        ["value", "nim", "100000000", "5"],
        ["games"],
    ],
)
def test_small_commands_do_not_load_compilers_solvers_or_dataframes(argv: list[str]) -> None:
    assert heavy(loaded_by(*argv)) == []


def test_importing_nimproof_is_light() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, nimproof, sys; print(json.dumps(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    modules = set(json.loads(run.stdout))
    assert heavy(modules) == [] and "numpy" not in modules


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_help_imports_no_heavy_library(command: str) -> None:
    # Imports moved to the top of command modules must stay light: ``COMMAND --help``
    # loads the command's module and nothing heavy (no numpy, no rich either).
    modules = loaded_by(command, "--help")
    assert heavy(modules) == []
    assert "numpy" not in modules and "rich" not in modules
