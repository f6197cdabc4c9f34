"""``nimproof verify``: decide every claim under the given paths.

Exit code 0 when every claim reached its expectation, 1 when one did not,
2 for unusable input (a malformed file, an unknown game, a bad formula, an
output path that cannot be written: all found before any claim runs).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimproof import __version__
from nimproof.claims import load_paths
from nimproof.cli.common import (
    STATUS_STYLE,
    add_command,
    add_whole_number,
    console,
    err_console,
    progress,
)
from nimproof.errors import UsageError
from nimproof.output import output_dir, output_file
from nimproof.reports import write_reports
from nimproof.reports.results import scope_text
from nimproof.reports.text import counterexample_facts
from nimproof.verification import PROFILES, Certify, decide_all, select
from nimproof.verification import summary as counts

if TYPE_CHECKING:
    from nimproof.claims import Claim


def register(sub: Any) -> None:
    """Add the ``verify`` command."""
    p = add_command(sub, "verify", run, "Decide every claim in the conjecture files under PATHS.")
    p.add_argument(
        "paths",
        nargs="*",
        default=["conjectures"],
        metavar="PATHS",
        help="files or folders of .toml conjecture files (default: conjectures/)",
    )
    p.add_argument(
        "--json", metavar="FILE", help="write machine-readable results to FILE ('-': stdout)"
    )
    p.add_argument(
        "--profile",
        default="default",
        choices=PROFILES,
        help="check profile: default, or full (larger bounds)",
    )
    add_whole_number(
        p, "--jobs", 1, 64, "claims decided in parallel (default: 2)", min(2, os.cpu_count() or 1)
    )
    add_whole_number(p, "--timeout", 1, 86400, "seconds allowed per claim (default 600)", 600)
    p.add_argument("--filter", metavar="TEXT", help="only claims whose id contains TEXT")
    p.add_argument(
        "--reports", metavar="DIR", help="also write the Markdown and HTML reports to DIR"
    )
    p.add_argument("--quiet", action="store_true", help="print only the summary line")
    p.add_argument(
        "--certificates",
        metavar="DIR",
        help="write each proof's certificate to DIR (default: REPORTS/certificates with --reports)",
    )
    p.add_argument(
        "--no-certify",
        action="store_true",
        help="skip the second method and the certificate check (proofs are not held to a certificate)",
    )
    held = p.add_mutually_exclusive_group()
    held.add_argument(
        "--strict-certificates",
        action="store_true",
        help="the default: a proof whose certificate is rejected or cannot be checked is unknown",
    )
    held.add_argument(
        "--lenient-certificates",
        action="store_true",
        help="keep a proof the checker cannot check yet as proved, marked 'not independently"
        " checked' (a rejected certificate still makes it unknown)",
    )


def command_line(argv: list[str] | None = None) -> str:
    """The command that is running, as a shell line starting with ``nimproof``."""
    words = sys.argv[1:] if argv is None else argv
    return " ".join(["nimproof", *(shlex.quote(w) for w in words)])


def run(args: argparse.Namespace) -> int:
    """Check outputs, load and prepare every claim, decide them, print and write the results."""
    from nimproof.provers import prepare  # lazy: start-up time (numba, z3, numpy)

    json_out = output_file(args.json, "--json file") if args.json else None
    reports_dir = output_dir(args.reports, "--reports folder") if args.reports else None
    claims = select(load_paths(args.paths, profile=args.profile), args.filter)
    if not claims:
        raise UsageError(f"no claims found under {' '.join(args.paths)}")
    for claim in claims:
        prepare(claim)  # unusable input is reported before anything runs
    certs = output_dir(args.certificates, "--certificates folder") if args.certificates else None
    if certs is None and reports_dir is not None:
        certs = reports_dir / "certificates"
    hold = None if args.no_certify else Certify(args.profile, certs, not args.lenient_certificates)
    t0 = time.monotonic()
    ordered = _decide(claims, args.jobs, args.timeout, show=not args.quiet, certify=hold)
    wall = time.monotonic() - t0
    failed = [r for r in ordered if not r["verdict"]["meets_expectation"]]
    summary = counts(ordered, wall)
    # With --json -, stdout carries the JSON alone and the words go to stderr.
    say = _stderr_console() if json_out is not None and json_out.is_stdout else console
    if not args.quiet:
        _print_table(ordered, say)
        _print_refutations(ordered, say)
    line = (
        f"{summary['claims']} claims: {summary['proved']} proved, {summary['checked']} checked, "
        f"{summary['refuted']} refuted, {summary['unknown']} unknown; {summary['met']} met their "
        f"expectation, {len(failed)} did not ({wall:.1f} s)"
    )
    say.print(line, style="bold red" if failed else "bold green", markup=False)
    scopes = summary["by_scope"]
    say.print(
        f"proved for all positions: {scopes['all']}; for the listed positions: {scopes['listed']}; "
        f"checked (not a proof) for heaps below 2^w: {scopes['width']}, up to a bound: "
        f"{scopes['bound']}",
        markup=False,
    )
    if hold is not None:
        say.print(_certificate_line(ordered, certs), markup=False)
    for r in failed:
        v = r["verdict"]
        got = v["status"]
        if v["status"] in ("proved", "checked") and v.get("shortfall"):
            got += f" but {v['shortfall']}"
        say.print(f"  {v['id']}: expected {v['expect']}, got {got}", markup=False)
    meta = {
        "nimproof": _version(),
        "profile": args.profile,
        "command": command_line(getattr(args, "argv", None)),
    }
    if json_out is not None:
        import json

        payload = {**meta, "summary": summary, "results": ordered}
        json_out.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    if reports_dir is not None:
        write_reports(ordered, reports_dir, meta=meta, show_progress=not args.quiet)
    return 1 if failed else 0


def _certificate_line(results: list[dict[str, Any]], folder: Path | None) -> str:
    """One line: how many certificates the independent checker accepted, and where they are."""
    from nimproof.certificates.build import NOT_CHECKED  # lazy: start-up time (numba, z3, numpy)

    notes = [m for r in results for m in r["verdict"]["methods"] if m["method"] == "certificate"]
    ok = sum(1 for m in notes if m["status"] == "proved")
    unchecked = sum(1 for m in notes if m["detail"].startswith(NOT_CHECKED))
    where = f"written to {folder}" if folder is not None else "not written (no --reports)"
    kept = f", {unchecked} proofs it cannot check yet (kept, marked so)" if unchecked else ""
    return (
        f"certificates: {ok} accepted by the independent checker{kept}, "
        f"{len(notes) - ok - unchecked} not accepted (those verdicts are unknown); {where}"
    )


def _version() -> str:
    return __version__


def _stderr_console() -> Any:
    return err_console


def _decide(
    claims: list[Claim], jobs: int, timeout: float, *, show: bool, certify: Certify | None
) -> list[dict[str, Any]]:
    """:func:`nimproof.verification.decide_all` with a progress bar."""
    with progress(show and err_console.is_terminal) as bar:
        task = bar.add_task("verifying", total=len(claims))

        def tell(claim: Claim, done: bool) -> None:
            bar.update(task, description=f"{'done' if done else 'verifying'} {claim.id}")
            if done:
                bar.advance(task)

        return decide_all(claims, jobs=jobs, timeout=timeout, certify=certify, progress=tell)


def _print_table(results: list[dict[str, Any]], out: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="nimproof verify", show_lines=False)
    for col in ("claim", "status", "scope", "methods", "time", "ok"):
        table.add_column(col, overflow="fold")
    for r in results:
        v = r["verdict"]
        ok = "yes" if v["meets_expectation"] else f"NO (expected {v['expect']})"
        table.add_row(
            escape(v["id"]),  # ids such as bouton[heaps=2] are not markup
            f"[{STATUS_STYLE[v['status']]}]{v['status']}[/]",
            escape(scope_text(v["scope"])) if v["status"] in ("proved", "checked") else "-",
            escape(", ".join(v["methods_used"])),
            f"{v['seconds']:.2f}s",
            escape(ok),
        )
    out.print(table)


def _print_refutations(results: list[dict[str, Any]], out: Any) -> None:
    """Every refuted claim, and every claim that missed its expectation, with its evidence."""
    for r in results:
        v, c = r["verdict"], r["claim"]
        if v["status"] != "refuted" and v["meets_expectation"]:
            continue
        out.print(f"{v['id']}: {v['status']}", markup=False, style="bold", soft_wrap=True)
        cx = v.get("counterexample")
        if isinstance(cx, dict):
            explanation = str(cx.get("explanation") or "").strip()
            if explanation:
                out.print(f"  {explanation}", markup=False, soft_wrap=True)
            for label, text in counterexample_facts(cx, str(c.get("kind"))):
                out.print(f"  {label}: {text}", markup=False, soft_wrap=True)
        else:
            for m in v.get("methods") or []:
                detail = f" - {m['detail']}" if m.get("detail") else ""
                out.print(f"  {m['method']}: {m['status']}{detail}", markup=False, soft_wrap=True)
