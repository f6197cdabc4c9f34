"""The checker is independent: it imports nothing from nimproof."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CHECKER = Path(__file__).resolve().parents[2] / "nimproof_check"


def test_checker_sources_import_nothing_from_nimproof() -> None:
    found = []
    for path in sorted(CHECKER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "nimproof"]
    assert not found, found
    assert len(list(CHECKER.glob("*.py"))) >= 6


def test_importing_the_checker_loads_no_nimproof_module() -> None:
    code = (
        "import sys, nimproof_check, nimproof_check.check, nimproof_check.ws1s, "
        "nimproof_check.smt, nimproof_check.periodic, nimproof_check.listed, nimproof_check.loopy, "
        "nimproof_check.__main__\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'nimproof'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
