"""``nimproof atlas``: sweep a family of games in parallel; parquet, HTML and Markdown out.

``nimproof atlas [--family octal|octal4|subtraction] [--codes LIST] [--max-n N]
[--out DIR] [--scheduler tcp://HOST:PORT] [--workers K] [--timeout S] [--json]``

Writes ``DIR/atlas.parquet`` (one row per game), ``DIR/index.html`` (a static
page: sortable table and a small plot per game) and ``DIR/atlas.md``. Games
run on a local Dask cluster (one process per core) unless ``--scheduler``
names an existing one (``--workers 0``: in this process, no Dask). A sweep
started again keeps the games already done. ``--json`` prints one object:
``{"out": DIR, "games": N, "computed": K, "skipped": S, "counts": {...},
"seconds": ..., "where": ...}``. Exit code 0 unless a game failed (1).
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.errors import UsageError

#: Default bound of an atlas.
DEFAULT_MAX_N = 1 << 16


def register(subparsers: Any) -> None:
    """Add the ``atlas`` command."""
    p = add_command(subparsers, "atlas", run)
    p.add_argument(
        "--family",
        choices=("octal", "octal4", "octal-4digit", "subtraction"),
        help="octal: every 0.d/0.dd/0.ddd code; octal4: the 4. codes; octal-4digit: every "
        "code up to 0.dddd; subtraction: every set inside {1..8} (default octal)",
    )
    p.add_argument(
        "--codes",
        metavar="LIST",
        help="games to sweep instead of a family: octal codes separated by commas "
        "(0.16,0.56) or specs separated by spaces",
    )
    add_whole_number(
        p,
        "--max-n",
        16,
        1 << 31,
        f"largest heap per game (default {DEFAULT_MAX_N:,})",
        DEFAULT_MAX_N,
    )
    p.add_argument("--out", default="atlas", metavar="DIR", help="output folder (default atlas/)")
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, tcp://HOST:PORT"
    )
    add_whole_number(
        p,
        "--workers",
        0,
        1024,
        "local worker processes (default: one per core; 0: no Dask, this process)",
    )
    add_whole_number(
        p,
        "--timeout",
        1,
        10**7,
        "seconds per game after which no longer table is started (default: none)",
    )
    p.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")


def check_cluster(args: argparse.Namespace) -> dict[str, Any]:
    """The cluster options of a sweep (``scheduler``, ``workers``, ``seconds``); refuses (one
    line) ``--workers`` beside ``--scheduler``, and a scheduler address that is not
    ``tcp://``, ``tls://`` or ``inproc://``."""
    if args.scheduler and args.workers is not None:
        raise UsageError("--workers is for a local cluster; leave it out with --scheduler")
    if args.scheduler and not args.scheduler.startswith(("tcp://", "tls://", "inproc://")):
        raise UsageError(f"--scheduler must look like tcp://HOST:PORT, got {args.scheduler!r}")
    return {"scheduler": args.scheduler, "workers": args.workers, "seconds": args.timeout}


def run(args: argparse.Namespace) -> int:
    """Run the sweep and write the atlas."""
    # lazy: start-up time (pandas, pyarrow, numpy, rich)
    from pathlib import Path

    from nimproof.atlas.families import FAMILIES, family_specs
    from nimproof.atlas.render import write_html, write_markdown
    from nimproof.atlas.sweep import run_sweep
    from nimproof.cli.progress import rate_progress

    if args.codes and args.family:
        raise UsageError("give --family or --codes, not both")
    cluster = check_cluster(args)
    specs = family_specs(args.family, args.codes)
    name = "given games" if args.codes else FAMILIES[args.family or "octal"][0]
    with rate_progress("atlas: games") as cb:
        result = run_sweep(specs, args.max_n, args.out, progress=cb, **cluster)
    title = f"nimproof atlas: {name}, heaps up to {args.max_n:,}"
    html_path = write_html(result.rows, Path(args.out) / "index.html", title)
    write_markdown(result.rows, Path(args.out) / "atlas.md", title)
    counts = Counter(str(r.get("status")) for r in result.rows)
    if args.json:
        print_json(
            {
                "out": str(args.out),
                "games": len(result.rows),
                "computed": result.computed,
                "skipped": result.skipped,
                "counts": dict(counts),
                "seconds": round(result.seconds, 3),
                "where": result.where,
            }
        )
    else:
        tally = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        console.print(
            f"atlas of {len(result.rows)} games ({tally}); {result.computed} computed on "
            f"{result.where}, {result.skipped} kept from before, in {result.seconds:.1f} s; "
            f"see {html_path}"
        )
    return 1 if counts.get("error") else 0
