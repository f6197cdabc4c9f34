"""Writing the report folder: Markdown, HTML and pictures, with progress."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from nimproof.output import atomic_write_text
from nimproof.progress import err_console, progress
from nimproof.reports.html import write_html
from nimproof.reports.pages import claim_page, index_page, timings_page
from nimproof.reports.plots import Plotter
from nimproof.reports.results import check_results, entries, sibling_name


@contextmanager
def _bar(
    show: bool, total: int, on_page: Callable[[int, int], None] | None
) -> Iterator[Callable[[int], None]]:
    if not show:
        yield (lambda done: on_page(done, total)) if on_page else (lambda done: None)
        return
    with progress(err_console.is_terminal) as bar:
        task = bar.add_task("writing reports", total=total)

        def step(done: int) -> None:
            bar.update(task, completed=done)
            if on_page:
                on_page(done, total)

        yield step


def write_all(
    results: list[dict[str, Any]],
    out: Path,
    *,
    timings: bool,
    meta: dict[str, str],
    show_progress: bool,
    on_page: Callable[[int, int], None] | None,
) -> list[Path]:
    """See :func:`nimproof.reports.write_reports`."""
    check_results(results)
    pages_dir = out / "claims"
    img_dir = pages_dir / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    items = entries(results)
    plotter = Plotter()
    written: list[Path] = []
    pictures: dict[str, tuple[str, str]] = {}
    with _bar(show_progress, len(items), on_page) as step:
        for done, e in enumerate(items, start=1):
            image_name = sibling_name(e.page, ".png")
            caption = plotter.picture(e.claim, e.verdict, img_dir / image_name)
            page = pages_dir / e.page
            atomic_write_text(
                page,
                claim_page(
                    e,
                    image=image_name if caption else None,
                    caption=caption,
                    related=items,
                    meta=meta,
                ),
            )
            written.append(page)
            if caption:
                written.append(img_dir / image_name)
                pictures[e.id] = (image_name, caption)
            step(done)
    index = out / "README.md"
    atomic_write_text(index, index_page(items, timings=timings, meta=meta))
    written.append(index)
    timing_file = out / "timings.md"
    if timings:
        atomic_write_text(timing_file, timings_page(items, meta=meta))
        written.append(timing_file)
    elif timing_file.exists():
        timing_file.unlink()
    written += write_html(items, out, meta=meta, pictures=pictures)
    keep = set(written)
    for stale in [*pages_dir.glob("*.md"), *pages_dir.glob("*.html"), *img_dir.glob("*.png")]:
        if stale not in keep:
            stale.unlink()
    return sorted(written)
