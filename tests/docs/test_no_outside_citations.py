"""No file a reader gets points to a document the repository does not have.

The design notes beside the repository (MATH.md, AUTOMATA.md, ZECKENDORF.md,
STYLE.md in a ``shared`` folder) are not part of it: code, docs, claims,
benchmarks and reports say what they rely on in their own words
(docs/theorems.md) and cite the literature. Tests are exempt: some read those
notes when the machine has them, and skip otherwise.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Names of documents that live outside the repository, and paths that lead there.
OUTSIDE = re.compile(
    r"\b(?:MATH|AUTOMATA|ZECKENDORF|STYLE)\.md\b|\.\./shared\b|/work/shared\b", re.IGNORECASE
)

#: What a reader gets: every folder and top-level file except the tests.
SCANNED = ("nimproof", "nimproof_check", "docs", "bench", "conjectures", "reports", ".ci")
TOP_LEVEL = ("README.md", "ARCHITECTURE.md", "Makefile", "pyproject.toml")
TEXT = {".py", ".md", ".toml", ".ipynb", ".html", ".json", ".txt", ".css", ".js", ".cfg", ""}


def _files() -> list[Path]:
    files = [ROOT / name for name in TOP_LEVEL if (ROOT / name).is_file()]
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts:
                files.append(path)
    return files


def citations(text: str) -> list[str]:
    """Every mention of a document outside the repository in ``text``."""
    return [m.group(0) for m in OUTSIDE.finditer(text)]


def test_the_pattern_finds_each_kind_of_citation() -> None:
    found = citations("see MATH.md; ../shared/AUTOMATA.md and /work/shared/ZECKENDORF.md")
    assert found == ["MATH.md", "../shared", "AUTOMATA.md", "/work/shared", "ZECKENDORF.md"]
    assert citations("docs/theorems.md and docs/math_notes.md") == []


def test_no_file_cites_a_document_outside_the_repository() -> None:
    files = _files()
    assert len(files) > 100 and ROOT / "README.md" in files
    bad = {}
    for path in files:
        found = citations(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            bad[str(path.relative_to(ROOT))] = sorted(set(found))
    assert bad == {}, f"cite docs/theorems.md or the literature instead: {bad}"
