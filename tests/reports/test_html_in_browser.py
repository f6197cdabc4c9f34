"""The HTML report in a real headless browser (Debian's Chromium, driven by Playwright).

``make test`` installs Chromium when it is missing and it can (root with
apt-get). Without it the test is skipped with the reason, except in CI
(``CI`` set), where a missing browser is a failure. A screenshot of the index
is kept in ``tmp/artifacts/`` (or ``$NIMPROOF_ARTIFACTS``).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nimproof.cli.main import main

#: A LaTeX command (a backslash and letters) shown as text: a formula left undrawn.
RAW_LATEX = re.compile(r"\\[A-Za-z]+")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("NIMPROOF_ARTIFACTS") or ROOT / "tmp" / "artifacts")
BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

CORPUS = """
[[claim]]
id = "knim"
statement = "k-Nim values are n mod (k+1)."
kind = "grundy"
game = "knim:{k}"
formula = "n % (k + 1)"
params = { k = "1..2" }
checks = { exhaustive = { max_n = 60 }, z3_int = {} }

[[claim]]
id = "bouton"
statement = "A Nim position is a P-position iff the xor of its heaps is 0."
kind = "p_positions"
game = "nim"
heaps = [2, 3]
predicate = "xor(h) == 0"
checks = { exhaustive = { max_heap = 15 } }
[claim.source]
seed = "003"
section = "Теорема Бутона"
wording = "Позиция является проигрышной тогда и только тогда, когда её ним-сумма равна нулю."

[[claim]]
id = "columns"
statement = "A Nim position is a P-position iff every binary column has an even count."
kind = "p_positions"
game = "nim"
heaps = 2
predicate = "all(colsum(h, b) % 2 == 0 for b in bits)"
checks = { exhaustive = { max_heap = 15 } }

[[claim]]
id = "typo"
statement = "A wrong modulus."
kind = "grundy"
game = "knim:3"
formula = "n % 5"
expect = "refuted"
checks = { exhaustive = { max_n = 50 } }
"""


def _browser() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    message = "Chromium is not installed (make test installs Debian's chromium when run as root)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("html")
    (folder / "claims.toml").write_text(CORPUS, encoding="utf-8")
    out = folder / "reports"
    code = main(["verify", str(folder), "--reports", str(out), "--quiet", "--jobs", "1"])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _browser()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the playwright package is missing (it is a dev dependency)")
        pytest.skip("the playwright package is not installed")
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=BROWSER_FLAGS
        )
        yield context
        context.close()


def _open(context: Any, path: Path) -> tuple[Any, list[str]]:
    """The page at ``path`` and the list its console errors and failed requests go to."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: errors.append(f"failed to load {r.url}"))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, errors


def _ids(page: Any) -> list[str]:
    return [
        str(x)
        for x in page.eval_on_selector_all("#claims tbody tr", "rs => rs.map(r => r.dataset.id)")
    ]


def test_index_loads_without_errors_and_sorts_and_filters(browser: Any, report: Path) -> None:
    page, errors = _open(browser, report / "index.html")
    ids = _ids(page)
    assert sorted(ids) == [
        "bouton[heaps=2]",
        "bouton[heaps=3]",
        "columns",
        "knim[k=1]",
        "knim[k=2]",
        "typo",
    ]
    # Times come from timings.js: every row shows a number.
    times = page.eval_on_selector_all("#claims td.time", "cs => cs.map(c => c.textContent)")
    assert all(t.replace(".", "", 1).isdigit() for t in times), times
    page.click("#claims th:nth-child(1)")
    assert _ids(page) == sorted(ids)
    page.click("#claims th:nth-child(1)")
    assert _ids(page) == sorted(ids, reverse=True)
    page.click("#claims th:nth-child(7)")  # time, numeric ascending
    shown = [
        float(t)
        for t in page.eval_on_selector_all("#claims td.time", "cs => cs.map(c => c.textContent)")
    ]
    assert shown == sorted(shown)
    page.fill("#filter", "bouton")
    visible = page.eval_on_selector_all(
        "#claims tbody tr",
        "rs => rs.filter(r => r.style.display !== 'none').map(r => r.dataset.id)",
    )
    assert sorted(visible) == ["bouton[heaps=2]", "bouton[heaps=3]"]
    assert page.inner_text("#shown") == "2"
    page.fill("#filter", "")
    page.select_option("#status", "refuted")
    assert page.inner_text("#shown") == "1"
    assert "profile" in page.inner_text("body") and "nimproof verify" in page.inner_text("body")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.select_option("#status", "")
    page.screenshot(path=str(ARTIFACTS / "report-index.png"), full_page=True)
    assert errors == []


def test_every_link_and_picture_resolves(browser: Any, report: Path) -> None:
    page, errors = _open(browser, report / "index.html")
    hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    claim_pages = [h for h in hrefs if "/claims/" in h and h.endswith(".html")]
    assert len(claim_pages) == 6
    for href in hrefs:
        assert href.startswith("file://") and Path(href[len("file://") :]).exists(), href
    pictures = 0
    for href in claim_pages:
        sub, sub_errors = _open(browser, Path(href[len("file://") :]))
        for link in sub.eval_on_selector_all("a[href]", "as => as.map(a => a.href)"):
            assert Path(link[len("file://") :].split("#")[0]).exists(), link
        sizes = sub.eval_on_selector_all("img", "is => is.map(i => [i.complete, i.naturalWidth])")
        assert all(done and width > 0 for done, width in sizes), (href, sizes)
        pictures += len(sizes)
        assert sub_errors == [], (href, sub_errors)
        # Every formula is drawn: no LaTeX command (\\frac, \\oplus, \\bmod ...) shows as text.
        shown = sub.inner_text("body")
        assert not RAW_LATEX.search(shown), (href, RAW_LATEX.findall(shown))
        assert sub.locator(".formula math").count() == 1, href
        drawn = sub.eval_on_selector(".formula math", "m => m.getBoundingClientRect().width")
        assert drawn > 20, (href, drawn)
        sub.close()
    assert pictures >= 2
    assert errors == []


def test_claim_page_shows_formula_source_translation_and_counterexample(
    browser: Any, report: Path
) -> None:
    page, errors = _open(browser, report / "claims" / "bouton_heaps_2.html")
    text = page.inner_text("body")
    assert "Теорема Бутона" in text and "ним-сумма" in text  # the source's words
    assert "In English" in text and "xor of its heaps" in text
    assert page.locator(".formula math").count() == 1  # the formula, drawn as MathML
    refuted, _ = _open(browser, report / "claims" / "typo.html")
    words = refuted.inner_text("body")
    assert "Counterexample" in words and "re-checked by" in words and "reference" in words
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-claim.png"), full_page=True)
    assert errors == []
