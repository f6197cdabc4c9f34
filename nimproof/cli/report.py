"""``nimproof report``: regenerate the Markdown and HTML reports from a results file."""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.cli.common import add_command, console
from nimproof.output import output_dir
from nimproof.reports import read_results, write_reports


def register(subparsers: Any) -> None:
    """Add the ``report`` command."""
    p = add_command(
        subparsers,
        "report",
        run,
        "Regenerate README.md, index.html, one page per claim (Markdown and HTML), "
        "timings.md and timings.js from the JSON that 'nimproof verify --json FILE' wrote.",
    )
    p.add_argument(
        "--json",
        dest="results",
        default="reports/results.json",
        metavar="FILE",
        help="results file (default: reports/results.json)",
    )
    p.add_argument(
        "--out", default="reports", metavar="DIR", help="output folder (default: reports)"
    )
    p.add_argument("--no-timings", action="store_true", help="do not write timings.md")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Read the results and write the reports; a missing or malformed file is an error (exit 2)."""
    out = output_dir(args.out, "--out folder")
    meta, results = read_results(args.results)
    written = write_reports(
        results, out, timings=not args.no_timings, meta=meta, show_progress=not args.quiet
    )
    pages = sum(1 for p in written if p.suffix == ".md")
    html = sum(1 for p in written if p.suffix == ".html")
    images = sum(1 for p in written if p.suffix == ".png")
    console.print(
        f"wrote {pages} Markdown pages, {html} HTML pages and {images} pictures "
        f"for {len(results)} claims to {args.out}/ (open {args.out}/index.html)",
        markup=False,
        soft_wrap=True,
    )
    return 0
