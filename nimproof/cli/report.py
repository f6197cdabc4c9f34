"""``nimproof report``: regenerate the Markdown reports from a results file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nimproof.cli.common import console


def register(subparsers: Any) -> None:
    """Add the ``report`` command."""
    p = subparsers.add_parser(
        "report",
        help="write the Markdown reports from a verification results file",
        description="Regenerate reports/README.md, one page per claim and timings.md from the JSON "
        "that 'nimproof verify --json FILE' wrote.",
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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the results and write the reports; a missing or malformed file is an error (exit 2)."""
    from nimproof.reports import load_results, write_reports

    results = load_results(args.results)
    written = write_reports(results, Path(args.out), timings=not args.no_timings)
    pages = sum(1 for p in written if p.suffix == ".md")
    images = sum(1 for p in written if p.suffix == ".png")
    console.print(
        f"wrote {pages} pages and {images} pictures for {len(results)} claims to {args.out}/",
        markup=False,
    )
    return 0
