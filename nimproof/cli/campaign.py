"""``nimproof campaign``: the unsolved games of a public list, deeper, figures per doubling.

``nimproof campaign [--codes LIST] [--depth K] [--start K] [--out DIR]
[--tables DIR] [--drop-tables] [--scheduler tcp://HOST:PORT] [--workers W]
[--timeout S] [--skip-dense] [--json]``

Grows the table of each game (default: every game of tczajka/octal-games'
UnsolvedGames list, kept in ``nimproof/atlas/data/unsolved_games.csv``) from
``2^start`` to ``2^depth`` heaps, and after each doubling records the list's
figures and the period search with its proof (see
:mod:`nimproof.atlas.campaign`). Writes ``DIR/campaign.parquet`` (one row per
game and doubling, kept as games finish: a campaign started again skips the
games already deep enough) and ``DIR/campaign.md``. Each unfinished game's table
stays checkpointed in ``--tables`` (default ``DIR/tables``; one byte a heap while
its values fit, two past 255) so that a later run, with a longer ``--timeout``
(each game's seconds in one run) or a larger ``--depth``, goes on where it
stopped; ``--drop-tables`` deletes them once the rows are saved. Each row
also gives the method of its doubling (sparse or dense), the doubling's seconds
and a projection of the seconds still needed to reach ``2^depth``
(:mod:`nimproof.atlas.campaign_cost`); a last line sums the projections by
method. ``--skip-dense`` leaves out the games whose next doubling is projected
dense (their cost grows about fourfold a doubling: they cannot reach a deep
table), keeping their rows, so that a run's time goes to the games that can;
games run longest projection first. ``--json`` prints one object:
``{"out": DIR, "games": N, "computed": K, "skipped": [...], "rows":
[...deepest row of each game...], "where": ..., "cost": {...},
"checkpoints": {"folder": ..., "games": G, "bytes": B}}``. Exit code 0; 2 for bad input, an unwritable folder
or a damaged checkpoint.
"""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.cli.atlas import check_cluster
from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.errors import UsageError
from nimproof.output import output_file

#: Default depth (log2 of heaps).
DEFAULT_DEPTH = 28


def register(subparsers: Any) -> None:
    """Add the ``campaign`` command."""
    p = add_command(subparsers, "campaign", run)
    p.add_argument(
        "--codes",
        metavar="LIST",
        help="games instead of the whole list: octal codes separated by commas (0.6,0.16)",
    )
    add_whole_number(
        p, "--depth", 10, 31, f"deepest table, as log2 of heaps (default {DEFAULT_DEPTH})",
        DEFAULT_DEPTH,
    )  # fmt: skip
    add_whole_number(p, "--start", 10, 31, "first doubling recorded, log2 (default 16)", 16)
    p.add_argument("--out", default="campaign", metavar="DIR", help="output folder")
    p.add_argument(
        "--tables",
        metavar="DIR",
        help="where each unfinished game's table is checkpointed (default: OUT/tables)",
    )
    p.add_argument(
        "--drop-tables",
        action="store_true",
        help="delete the checkpoints once the rows are saved (a later run starts from heap 0)",
    )
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, tcp://HOST:PORT"
    )
    add_whole_number(
        p, "--workers", 0, 1024, "local worker processes (default: one per core; 0: no Dask)"
    )
    add_whole_number(
        p, "--timeout", 1, 10**8, "seconds per game in this run (a later run goes on from there)"
    )
    p.add_argument(
        "--skip-dense",
        action="store_true",
        help="leave out the games whose next doubling is projected dense (their rows stay); "
        "the others run longest projection first",
    )
    p.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")


def run(args: argparse.Namespace) -> int:
    """Run the campaign and write its table."""
    # lazy: start-up time (pandas, pyarrow, numpy, rich)
    from pathlib import Path

    from nimproof.atlas.campaign import checkpoint_bytes, markdown, run_campaign, unsolved_games
    from nimproof.atlas.families import family_specs
    from nimproof.cli.progress import rate_progress
    from nimproof.output import output_dir

    if args.start > args.depth:
        raise UsageError(f"--start {args.start} is deeper than --depth {args.depth}")
    cluster = check_cluster(args)
    specs = family_specs(None, args.codes) if args.codes else [g.spec for g in unsolved_games()]
    output_dir(args.out, "campaign folder")
    md = output_file(str(Path(args.out) / "campaign.md"), "campaign folder")
    tables = output_dir(args.tables or str(Path(args.out) / "tables"), "checkpoint folder")
    with rate_progress("campaign: games") as cb:
        done = run_campaign(
            specs, args.depth, args.out, start=args.start, progress=cb, tables=tables,
            drop_tables=args.drop_tables, skip_dense=args.skip_dense, **cluster,
        )  # fmt: skip
    deepest = {r["code"]: r for r in done.rows}
    md.write_text(markdown(done.rows, f"nimproof campaign to 2^{args.depth} heaps", done.cost))
    games, used = checkpoint_bytes(tables)
    if args.json:
        print_json(
            {
                "out": str(args.out),
                "games": len(specs),
                "computed": done.computed,
                "skipped": done.skipped,
                "rows": list(deepest.values()),
                "where": done.where,
                "cost": done.cost.as_json(),
                "checkpoints": {"folder": str(tables), "games": games, "bytes": used},
            }
        )
    else:
        proved = [c for c, r in deepest.items() if r.get("proved")]
        skipped = f" ({len(done.skipped)} dense game(s) skipped)" if args.skip_dense else ""
        console.print(
            f"campaign of {len(specs)} games to 2^{args.depth}: {done.computed} computed{skipped} "
            f"on {done.where}; periods proved: {', '.join(proved) or 'none'}; see {md.path}; "
            f"checkpoints: {games} game(s), {used / 2**20:,.1f} MB in {tables}"
        )
        console.print(f"still to do: {done.cost.line()}")
    return 0
