"""``nimproof verify``: decide every claim under the given paths.

Exit code 0 when every claim reached its expectation, 1 when one did not,
2 for unusable input (a malformed file, an unknown game, a bad formula).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rich.table import Table

from nimproof import __version__
from nimproof.claims import Claim, load_paths
from nimproof.cli.common import bounded_int, console, err_console, progress
from nimproof.errors import UsageError
from nimproof.provers import prepare
from nimproof.provers.isolate import decide
from nimproof.verdict import Verdict

STATUS_STYLE = {"proved": "green", "refuted": "red", "unknown": "yellow"}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help="decide every claim in conjecture files",
        description="Decide every claim in the conjecture files under PATHS.",
    )
    p.add_argument(
        "paths",
        nargs="*",
        default=["conjectures"],
        metavar="PATHS",
        help="files or folders of .toml conjecture files (default: conjectures/)",
    )
    p.add_argument("--json", metavar="FILE", help="write machine-readable results to FILE")
    p.add_argument(
        "--profile", default="default", help="check profile: default or full (larger bounds)"
    )
    p.add_argument(
        "--jobs",
        type=bounded_int(1, 64, "--jobs"),
        default=min(2, os.cpu_count() or 1),
        help="claims decided in parallel (default: 2)",
    )
    p.add_argument(
        "--timeout",
        type=bounded_int(1, 86400, "--timeout"),
        default=600,
        help="seconds allowed per claim (default 600)",
    )
    p.add_argument("--filter", metavar="TEXT", help="only claims whose id contains TEXT")
    p.add_argument("--reports", metavar="DIR", help="also write Markdown reports to DIR")
    p.add_argument("--quiet", action="store_true", help="print only the summary line")
    p.set_defaults(func=run)


def _one(claim: Claim, timeout: float) -> dict[str, Any]:
    verdict = decide(claim, timeout)
    return {"claim": claim.to_json(), "verdict": verdict.to_json()}


def run(args: argparse.Namespace) -> int:
    claims = load_paths(args.paths, profile=args.profile)
    if args.filter:
        claims = [c for c in claims if args.filter in c.id]
    if not claims:
        raise UsageError(f"no claims found under {' '.join(args.paths)}")
    for claim in claims:
        prepare(claim)  # unusable input is reported before anything runs
    t0 = time.monotonic()
    results: dict[str, dict[str, Any]] = {}
    with progress(not args.quiet) as bar:
        task = bar.add_task("verifying", total=len(claims))
        if args.jobs == 1 or len(claims) == 1:
            for claim in claims:
                bar.update(task, description=f"verifying {claim.id}")
                results[claim.id] = _one(claim, args.timeout)
                bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                futures = {pool.submit(_one, c, args.timeout): c for c in claims}
                for fut in as_completed(futures):
                    results[futures[fut].id] = fut.result()
                    bar.update(task, description=f"done {futures[fut].id}")
                    bar.advance(task)
    ordered = [results[c.id] for c in claims]
    wall = time.monotonic() - t0
    failed = [r for r in ordered if not r["verdict"]["meets_expectation"]]
    summary = _summary(ordered, wall)
    if not args.quiet:
        _print_table(ordered)
    line = (
        f"{summary['claims']} claims: {summary['proved']} proved, {summary['refuted']} refuted, "
        f"{summary['unknown']} unknown; {summary['met']} met their expectation, {len(failed)} did not "
        f"({wall:.1f} s)"
    )
    console.print(line, style="bold red" if failed else "bold green", markup=False)
    for r in failed:
        v = r["verdict"]
        console.print(f"  {v['id']}: expected {v['expect']}, got {v['status']}", markup=False)
    if args.json:
        payload = {
            "nimproof": __version__,
            "profile": args.profile,
            "summary": summary,
            "results": ordered,
        }
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    if args.reports:
        try:
            from nimproof.reports import write_reports
        except ImportError:
            err_console.print("reports are not available in this build", markup=False)
        else:
            write_reports(ordered, Path(args.reports))
    return 1 if failed else 0


def _summary(results: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    statuses = [r["verdict"]["status"] for r in results]
    return {
        "claims": len(results),
        "proved": statuses.count("proved"),
        "refuted": statuses.count("refuted"),
        "unknown": statuses.count("unknown"),
        "met": sum(1 for r in results if r["verdict"]["meets_expectation"]),
        "seconds": round(wall, 2),
    }


def _print_table(results: list[dict[str, Any]]) -> None:
    table = Table(title="nimproof verify", show_lines=False)
    for col in ("claim", "status", "scope", "methods", "time", "ok"):
        table.add_column(col, overflow="fold")
    for r in results:
        v = r["verdict"]
        verdict = Verdict  # noqa: F841 - the JSON mirrors nimproof.verdict.Verdict
        from nimproof.verdict import Scope

        sc = v["scope"]
        scope = Scope(
            sc["kind"], sc.get("width"), sc.get("bound"), sc.get("measure", "heap"), sc.get("heaps")
        )
        ok = "yes" if v["meets_expectation"] else f"NO (expected {v['expect']})"
        table.add_row(
            v["id"],
            f"[{STATUS_STYLE[v['status']]}]{v['status']}[/]",
            scope.describe() if v["status"] == "proved" else "-",
            ", ".join(v["methods_used"]),
            f"{v['seconds']:.2f}s",
            ok,
        )
    console.print(table)
