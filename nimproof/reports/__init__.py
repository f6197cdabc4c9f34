"""Markdown and HTML reports with pictures, made from a verification results file.

:func:`write_reports` turns the results that ``nimproof verify --json`` writes
into ``README.md`` (an index of every claim, grouped by source text), one
page per claim under ``claims/`` (statement, formula in LaTeX, source and its
wording, verdict and scope, methods and their figures, the counterexample in
words, a picture), ``timings.md``, and the same as static HTML
(``index.html``, ``claims/*.html``, ``timings.js``; see :mod:`.html`).
Every file except ``timings.md`` and ``timings.js`` is a function of the
claims, the verdicts and the run's metadata (nimproof version, profile,
command) alone: two runs on an unchanged corpus give byte-identical files,
pictures included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from nimproof.reports.results import load_results, read_results

__all__ = ["load_results", "read_results", "write_reports"]


def write_reports(
    results: list[dict[str, Any]],
    out_dir: Path,
    *,
    timings: bool = True,
    meta: Mapping[str, str] | None = None,
    show_progress: bool = False,
    on_page: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write the reports for ``results`` under ``out_dir``; returns the files written, sorted.

    ``results`` are ``{"claim": Claim.to_json(), "verdict": Verdict.to_json()}``
    entries; ``meta`` names the nimproof version, profile and command of the
    run, shown on every page. Pages and pictures of claims that are no longer
    in the results are removed, so the folder always matches the results.
    ``on_page(done, total)`` is called after each claim (``show_progress``
    draws a bar on a terminal's stderr instead). Raises
    :class:`~nimproof.errors.UsageError` for malformed entries.
    """
    from nimproof.reports.write import write_all  # lazy: start-up time (matplotlib)

    return write_all(
        results,
        Path(out_dir),
        timings=timings,
        meta=dict(meta or {}),
        show_progress=show_progress,
        on_page=on_page,
    )
