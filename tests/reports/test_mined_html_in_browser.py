"""The miner's ``mined.html`` in the headless browser of the report test, beside a real report.

The page is written next to a verification report of the mined claims, as
``make mine`` and ``make verify`` leave ``reports/``: every claim link must
lead to that report's page, and the page must load without errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nimproof.cli.main import main
from nimproof.miner.pipeline import Request
from nimproof.miner.report_html import mined_html
from nimproof.miner.run import run
from nimproof.miner.writer import QUICK
from tests.reports.test_html_in_browser import ARTIFACTS, _open, browser

__all__ = ["browser"]  # the fixture, shared with the report's own browser test


@pytest.fixture(scope="module")
def mined_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mined")
    requests = [
        Request("take-fraction:1/3", max_n=150),
        Request("grundys-game", max_n=100),
        Request("nim", heaps=(2, 3), max_heap=5),  # a claim per heap count: one page each
    ]
    result = run(requests, write_dir=folder / "conj", verify=True, timeout=30, bounds=QUICK)
    out = folder / "reports"
    assert main(["verify", str(folder / "conj"), "--reports", str(out), "--quiet"]) == 0
    page = out / "mined.html"
    page.write_text(mined_html(result), encoding="utf-8")
    return page


def test_mined_page_loads_and_every_link_resolves(browser: Any, mined_page: Path) -> None:
    page, errors = _open(browser, mined_page)
    text = page.inner_text("body")
    assert "take-fraction:1/3" in text and "No closed form found up to n = 100" in text
    cells = page.eval_on_selector_all("table.residues td", "cs => cs.map(c => c.textContent)")
    assert cells[:4] == ["g", "m", "g(2m)", "g(2m + 1)"]
    hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    assert any("/claims/" in h for h in hrefs)
    assert any(h.endswith("_heaps_3.html") for h in hrefs)
    for href in hrefs:
        assert Path(href[len("file://") :].split("#")[0]).exists(), href
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "mined.png"), full_page=True)
    assert errors == []
