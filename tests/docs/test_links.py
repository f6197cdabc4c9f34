"""The README links every page under docs/, and every relative link in the docs resolves."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "ARCHITECTURE.md"])


def _links(page: Path) -> list[str]:
    return [t for t in LINK.findall(page.read_text(encoding="utf-8")) if "://" not in t]


def test_the_readme_links_every_docs_page_and_the_tutorial() -> None:
    linked = {t.split("#")[0] for t in _links(ROOT / "README.md")}
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
    assert len(pages) >= 15
    missing = [p for p in [*pages, "docs/tutorial.ipynb", "docs/img/report.png"] if p not in linked]
    assert missing == [], f"README.md's 'Read next' table should link {missing}"


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in PAGES:
        for target in _links(page):
            path = target.split("#")[0]
            if path and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []
