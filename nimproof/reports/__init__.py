"""Markdown reports with pictures, made from a verification results file.

:func:`write_reports` turns the results that ``nimproof verify --json`` writes
into ``README.md`` (an index of every claim, grouped by source text), one
page per claim under ``claims/`` (statement, formula in LaTeX, source and its
wording, verdict and scope, methods and their figures, the counterexample in
words, a picture) and ``timings.md``. Everything except ``timings.md`` is a
function of the claims and verdicts alone: two runs on an unchanged corpus
give byte-identical files, pictures included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nimproof.reports.pages import claim_page, index_page, timings_page
from nimproof.reports.plots import Plotter
from nimproof.reports.results import check_results, entries, load_results

__all__ = ["load_results", "write_reports"]


def write_reports(
    results: list[dict[str, Any]], out_dir: Path, *, timings: bool = True
) -> list[Path]:
    """Write the reports for ``results`` under ``out_dir``; returns the files written, sorted.

    ``results`` are ``{"claim": Claim.to_json(), "verdict": Verdict.to_json()}``
    entries. Pages and pictures of claims that are no longer in the results
    are removed, so the folder always matches the results. Raises
    :class:`~nimproof.errors.UsageError` for malformed entries.
    """
    check_results(results)
    out = Path(out_dir)
    pages_dir = out / "claims"
    img_dir = pages_dir / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    items = entries(results)
    plotter = Plotter()
    written: list[Path] = []
    for e in items:
        image_name = e.page[: -len(".md")] + ".png"
        caption = plotter.picture(e.claim, e.verdict, img_dir / image_name)
        page = pages_dir / e.page
        page.write_text(
            claim_page(e, image=image_name if caption else None, caption=caption, related=items),
            encoding="utf-8",
        )
        written.append(page)
        if caption:
            written.append(img_dir / image_name)
    index = out / "README.md"
    index.write_text(index_page(items, timings=timings), encoding="utf-8")
    written.append(index)
    timing_file = out / "timings.md"
    if timings:
        timing_file.write_text(timings_page(items), encoding="utf-8")
        written.append(timing_file)
    elif timing_file.exists():
        timing_file.unlink()
    keep = set(written)
    for stale in [*pages_dir.glob("*.md"), *img_dir.glob("*.png")]:
        if stale not in keep:
            stale.unlink()
    return sorted(written)
