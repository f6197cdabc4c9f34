"""``nimproof certify PATH``: re-check certificates with the independent checker.

``PATH`` is a certificate file (``CLAIM.json``) or a folder of them (such as
``reports/certificates``). Each certificate is checked by :mod:`nimproof_check`,
which imports nothing else from nimproof. Exit code 0 when every certificate
is accepted, 1 when one is rejected or cannot be checked, 2 for a path that
does not exist or holds no certificate.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from nimproof.cli.common import add_command, console, err_console, progress
from nimproof.errors import UsageError
from nimproof_check import check_path

STYLE = {"accepted": "green", "rejected": "red", "cannot check": "yellow"}


def register(subparsers: Any) -> None:
    """Add the ``certify`` command."""
    p = add_command(
        subparsers,
        "certify",
        run,
        "Re-check proof certificates (written by 'nimproof verify --reports DIR' to "
        "DIR/certificates) with the independent checker: MONA re-run on its own obligations, "
        "cvc5 on every SMT-LIB 2 query, values recomputed by plain mex.",
    )
    p.add_argument("path", metavar="PATH", help="a certificate (.json) or a folder of them")
    p.add_argument("--json", action="store_true", help="print the reports as JSON lines")
    p.add_argument("--quiet", action="store_true", help="print only the summary line")


def certificate_files(path: str) -> list[Path]:
    """The certificate files at ``path`` (a file, or the ``*.json`` files of a folder)."""
    p = Path(path)
    if not p.exists():
        raise UsageError(f"certify: {path} does not exist")
    files = sorted(p.glob("*.json")) if p.is_dir() else [p]
    if not files:
        raise UsageError(f"certify: no certificate (*.json) in {path}")
    return files


def run(args: argparse.Namespace) -> int:
    """Check every certificate; print one line each and a summary."""
    files = certificate_files(args.path)
    counts = dict.fromkeys(STYLE, 0)
    with progress(not args.quiet and not args.json and err_console.is_terminal) as bar:
        task = bar.add_task("checking", total=len(files))
        for f in files:
            bar.update(task, description=f"checking {f.name}")
            report = check_path(f)
            counts[report.status] = counts.get(report.status, 0) + 1
            if args.json:
                console.print(json.dumps(report.to_json()), markup=False, soft_wrap=True)
            elif not args.quiet:
                why = f": {report.reason}" if report.reason else ""
                console.print(
                    f"{report.status}: {report.claim_id or f.name}{why}",
                    style=STYLE.get(report.status),
                    markup=False,
                    soft_wrap=True,
                )
            bar.advance(task)
    bad = len(files) - counts["accepted"]
    console.print(
        f"{len(files)} certificates: {counts['accepted']} accepted, {counts['rejected']} rejected, "
        f"{counts['cannot check']} cannot be checked",
        style="bold red" if bad else "bold green",
        markup=False,
        soft_wrap=True,
    )
    return 1 if bad else 0
