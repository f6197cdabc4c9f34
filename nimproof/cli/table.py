"""``nimproof table``: the Grundy table of a game.

One-heap families: ``nimproof table SPEC --max-n N`` gives heaps ``0..N``.
With ``--json`` it prints exactly one JSON object::

    {"spec": "kayles", "misere": false, "layout": "heap", "bound": N,
     "engine": "octal-splits", "source": "computed", "grundy": [g(0), ..., g(N)]}

(for a ``misere:`` spec, ``grundy`` holds misère nim-values).

Multi-heap families (and several heaps of a one-heap family) take
``--heaps H --max-heap B`` and describe the box ``[0, B]^H``::

    {"spec": ..., "misere": ..., "layout": "box", "heaps": H, "max_heap": B,
     "kind": "grundy" | "outcome", "method": ..., "engine": ..., "source": ...,
     "values": nested lists, values[h0][h1]...[h_{H-1}] (null for "outcome"),
     "p_positions": [[h0, ..., h_{H-1}], ...] in row-major order}

Stored tables (``data/``, ``$NIMPROOF_DATA`` or ``--data-dir``) are reused
when they cover the bound; ``--save`` stores the result.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from rich.table import Table

from nimproof.cli.common import MAX_N, bounded_int, console, err_console, print_json, progress
from nimproof.engines import METHODS, MultiTable
from nimproof.errors import UsageError
from nimproof.games import Game, MultiHeapGame, PluginGame, parse_spec

#: Largest --max-n (tables above MAX_N heaps are streamed with --out; engines refuse more
#: than the machine holds).
STREAM_MAX_N = 10**10
#: Values shown by the readable (non-JSON) rendering of a one-heap table.
SHOW_VALUES = 2000
#: Side of the largest two-heap grid the readable rendering draws.
SHOW_GRID = 40
#: P-positions listed by the readable rendering of boxes with three or more heaps.
SHOW_P = 60


def register(subparsers: Any) -> None:
    """Add the ``table`` command."""
    p = subparsers.add_parser("table", help="compute (or load) the Grundy table of a game")
    p.add_argument("spec", help="a game spec, e.g. kayles, subtraction:1,3,4, moore:2")
    p.add_argument(
        "--max-n",
        type=bounded_int(0, STREAM_MAX_N, "--max-n"),
        help="largest heap (one-heap tables)",
    )
    p.add_argument(
        "--heaps", type=bounded_int(1, 12, "--heaps"), help="number of heaps (multi-heap tables)"
    )
    p.add_argument(
        "--max-heap", type=bounded_int(0, 100_000, "--max-heap"), help="largest heap of a box"
    )
    p.add_argument("--method", choices=METHODS, default="auto", help="box method (default: auto)")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    p.add_argument("--save", action="store_true", help="store the table in the data directory")
    p.add_argument(
        "--data-dir", metavar="DIR", help="data directory (default: $NIMPROOF_DATA or ./data)"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="stream a one-heap table to this parquet file in parts (long tables; resumable)",
    )
    p.add_argument(
        "--resume", action="store_true", help="with --out: continue an interrupted run"
    )
    p.set_defaults(func=run)


def is_multi_heap(game: Game) -> bool:
    """True for families whose positions are several heaps (not sums of one heap game)."""
    base = getattr(game, "base", game)
    return isinstance(base, MultiHeapGame)


@contextlib.contextmanager
def progress_callback(description: str) -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` callback drawing a rich bar on stderr (when it is a terminal)."""
    with progress(enabled=err_console.is_terminal) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def run(args: argparse.Namespace) -> int:
    """Compute or load the table and print it."""
    from nimproof.datasets import fetch_heap, fetch_multi

    game = parse_spec(args.spec)
    base = getattr(game, "base", game)
    if isinstance(base, PluginGame):
        raise UsageError(
            f"{game.spec} is a plugin game without heap tables; "
            f"use 'nimproof value {game.spec} ...'"
        )
    if args.heaps is not None or args.max_heap is not None or is_multi_heap(game):
        if args.heaps is None or args.max_heap is None:
            raise UsageError(
                f"{game.spec} is a multi-heap table: give --heaps H and --max-heap B "
                "(e.g. --heaps 3 --max-heap 15)"
            )
        if args.max_n is not None:
            raise UsageError("--max-n is for one-heap tables; a box takes --heaps and --max-heap")
        with progress_callback(f"{game.spec}: {args.heaps} heaps <= {args.max_heap}") as cb:
            got = fetch_multi(
                game,
                args.heaps,
                args.max_heap,
                method=args.method,
                data_dir=args.data_dir,
                progress=cb,
                store=args.save,
            )
        assert got.multi is not None
        from nimproof.engines.multi import resolve_method

        method = resolve_method(game, args.heaps, args.method)
        if args.json:
            print_json(box_json(game, got.multi, method, got.source))
        else:
            render_box(game, got.multi, method, got.source)
        return 0
    if args.max_n is None:
        raise UsageError(f"give --max-n N for the table of {game.spec} (heaps 0..N)")
    if args.out is not None or args.resume:
        return run_stream(game, args)
    if args.max_n > MAX_N:
        raise UsageError(
            f"{game.spec}: {args.max_n:,} heaps is more than a table held in memory "
            f"({MAX_N:,}); write it with --out FILE (streamed in parts, resumable)"
        )
    with progress_callback(f"{game.spec}: heaps 0..{args.max_n:,}") as cb:
        got = fetch_heap(game, args.max_n, data_dir=args.data_dir, progress=cb, store=args.save)
    assert got.values is not None
    if args.json:
        print_json(
            {
                "spec": game.spec,
                "misere": game.misere,
                "layout": "heap",
                "bound": args.max_n,
                "engine": got.engine,
                "source": got.source,
                "grundy": [int(v) for v in got.values],
            }
        )
    else:
        render_heap(game, got.values, got.engine, got.source)
    return 0


def run_stream(game: Game, args: argparse.Namespace) -> int:
    """``--out FILE``: stream the table to parquet in parts; one summary line (or JSON)."""
    from nimproof.cli.progress import rate_progress
    from nimproof.datasets.stream import stream_table

    if args.out is None:
        raise UsageError("--resume continues a run written with --out FILE; give --out")
    if args.save:
        raise UsageError("--out writes its own file; leave out --save")
    with rate_progress(f"{game.spec}: heaps") as cb:
        got = stream_table(game, args.max_n, args.out, resume=args.resume, progress=cb)
    summary = {
        "spec": game.spec,
        "bound": got.bound,
        "engine": got.engine,
        "path": str(got.path),
        "resumed_from": got.resumed_from,
        "largest_value": got.largest_value,
        "seconds": round(got.seconds, 3),
    }
    if args.json:
        print_json(summary)
    else:
        again = f", resumed at heap {got.resumed_from:,}" if got.resumed_from else ""
        console.print(
            f"{game.spec}: heaps 0..{got.bound:,} written to {got.path} "
            f"(engine {got.engine}{again}) in {got.seconds:.1f} s"
        )
    return 0


def box_json(game: Game, table: MultiTable, method: str, source: str) -> dict[str, Any]:
    """The documented JSON shape of a box table."""
    return {
        "spec": game.spec,
        "misere": game.misere,
        "layout": "box",
        "heaps": table.heaps,
        "max_heap": table.max_heap,
        "kind": table.kind,
        "method": method,
        "engine": table.engine,
        "source": source,
        "values": None if table.values is None else table.values.tolist(),
        "p_positions": [list(map(int, p)) for p in np.argwhere(table.p_positions)],
    }


def render_heap(game: Game, values: np.ndarray, engine: str, source: str) -> None:
    """A compact grid: ten (or twenty) values per row, labelled by the row's first heap."""
    what = "misère nim-values" if game.misere else "Grundy values"
    n = len(values) - 1
    console.print(f"[bold]{game.spec}[/bold]: {what} of heaps 0..{n:,} (engine {engine}, {source})")
    shown = values[:SHOW_VALUES]
    width = 10 if len(shown) <= 200 else 20
    grid = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
    grid.add_column("n", justify="right", style="dim")
    for j in range(width):
        grid.add_column(f"+{j}", justify="right")
    for start in range(0, len(shown), width):
        row = [str(int(v)) for v in shown[start : start + width]]
        grid.add_row(str(start), *row, *([""] * (width - len(row))))
    console.print(grid)
    if len(values) > SHOW_VALUES:
        console.print(
            f"... {len(values) - SHOW_VALUES:,} more values; "
            "use --json or --save for the whole table"
        )


def render_box(game: Game, table: MultiTable, method: str, source: str) -> None:
    """Two heaps: a grid of values (or P marks); more heaps: the P-positions."""
    count = int(table.p_positions.sum())
    total = table.p_positions.size
    what = (
        "outcomes"
        if table.values is None
        else ("misère nim-values" if game.misere else "Grundy values")
    )
    console.print(
        f"[bold]{game.spec}[/bold]: {what} of {table.heaps} heaps in [0, {table.max_heap}] "
        f"(method {method}, engine {table.engine}, {source}); "
        f"{count:,} of {total:,} positions are P-positions"
    )
    if table.heaps == 2:
        side = min(table.max_heap + 1, SHOW_GRID)
        grid = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
        grid.add_column("h0\\h1", justify="right", style="dim")
        for j in range(side):
            grid.add_column(str(j), justify="right")
        for i in range(side):
            if table.values is None:
                cells = ["P" if table.p_positions[i, j] else "." for j in range(side)]
            else:
                cells = [
                    f"[bold]{int(table.values[i, j])}[/bold]"
                    if table.p_positions[i, j]
                    else str(int(table.values[i, j]))
                    for j in range(side)
                ]
            grid.add_row(str(i), *cells)
        console.print(grid)
        if side <= table.max_heap:
            console.print(f"(first {side} x {side} shown; use --json for the whole box)")
        return
    if table.heaps == 1:
        console.print(
            " ".join(
                str(int(v))
                for v in (table.values if table.values is not None else table.p_positions)
            )
        )
        return
    ps = np.argwhere(table.p_positions)[:SHOW_P]
    console.print(
        "P-positions: " + ", ".join("(" + ", ".join(map(str, map(int, p))) + ")" for p in ps)
    )
    if count > SHOW_P:
        console.print(f"... {count - SHOW_P:,} more; use --json for all of them")
