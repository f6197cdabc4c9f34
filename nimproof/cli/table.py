"""``nimproof table``: the Grundy table of a game.

One-heap families: ``nimproof table SPEC --max-n N`` gives heaps ``0..N``,
every one of them, in rows that fit the terminal (``--columns C`` fixes the
number per row). With ``--json`` it prints exactly one JSON object::

    {"spec": "kayles", "misere": false, "layout": "heap", "bound": N,
     "engine": "octal-splits", "source": "computed", "grundy": [g(0), ..., g(N)]}

(for a ``misere:`` spec, ``grundy`` holds misère nim-values). ``--csv FILE``
(``-`` for standard output) writes ``n,grundy`` rows instead.

Multi-heap families (and several heaps of a one-heap family) take
``--heaps H --max-heap B`` and describe the box ``[0, B]^H``::

    {"spec": ..., "misere": ..., "layout": "box", "heaps": H, "max_heap": B,
     "kind": "grundy" | "outcome", "method": ..., "engine": ..., "source": ...,
     "values": nested lists, values[h0][h1]...[h_{H-1}] (null for "outcome"),
     "p_positions": [[h0, ..., h_{H-1}], ...] in row-major order}

(CSV: ``h0,...,h{H-1},grundy,p_position``). Plugin games take ``--max-size
S`` and list every position of size at most ``S`` that the plugin enumerates,
with its value (JSON: ``"layout": "positions"``, ``"positions": [{"position":
..., "value": v}, ...]``; CSV: ``position,value``).

Small one-heap tables (a few hundred thousand moves at most) are computed by
the plain reference implementation, which starts instantly; larger ones by
the compiled engines, reusing stored tables (``data/``, ``$NIMPROOF_DATA`` or
``--data-dir``) when they cover the bound; ``--save`` stores the result.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nimproof.cli.common import (
    MAX_N,
    add_command,
    add_whole_number,
    console,
    print_json,
    progress_callback,
)
from nimproof.errors import UsageError
from nimproof.games import parse_spec
from nimproof.output import output_file
from nimproof.verdict import jsonable

if TYPE_CHECKING:
    from nimproof.engines.multi import MultiTable
    from nimproof.games import Game

#: Box methods (the same tuple as :data:`nimproof.engines.multi.METHODS`, kept here
#: so that building the parser does not import the engines; a test compares them).
BOX_METHODS = ("auto", "sieve", "direct", "xor")
#: Largest plugin size bound accepted.
MAX_PLUGIN_SIZE = 64
#: Largest --max-n: 2^40 (tables above MAX_N heaps are streamed with --out; the sparse-space
#: engine keeps a table larger than memory in a memory-mapped file; engines refuse more than
#: the machine holds).
STREAM_MAX_N = 1 << 40
#: Largest one-heap table printed as JSON, CSV or text (more goes to parquet with --out).
TEXT_MAX_N = 10**7


def register(subparsers: Any) -> None:
    """Add the ``table`` command."""
    p = add_command(
        subparsers,
        "table",
        run,
        "Grundy values of heaps 0..N (one-heap games), of a box of several heaps, "
        "or of a plugin game's positions up to a size.",
    )
    p.add_argument("spec", help="a game spec, e.g. kayles, subtraction:1,3,4, moore:2")
    add_whole_number(p, "--max-n", 0, STREAM_MAX_N, "largest heap (one-heap tables)")
    add_whole_number(p, "--heaps", 1, 12, "number of heaps (multi-heap tables)")
    add_whole_number(p, "--max-heap", 0, 100_000, "largest heap of a box")
    add_whole_number(p, "--max-size", 0, MAX_PLUGIN_SIZE, "largest position size (plugin games)")
    p.add_argument(
        "--method", choices=BOX_METHODS, default="auto", help="box method (default: auto)"
    )
    add_whole_number(
        p, "--columns", 1, 1000, "values per row (default: as many as fit the terminal)"
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    out.add_argument("--csv", metavar="FILE", help="write the table as CSV to FILE ('-': stdout)")
    p.add_argument("--save", action="store_true", help="store the table in the data directory")
    p.add_argument(
        "--data-dir", metavar="DIR", help="data directory (default: $NIMPROOF_DATA or ./data)"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="stream a one-heap table to this parquet file in parts (long tables; resumable)",
    )
    p.add_argument("--resume", action="store_true", help="with --out: continue an interrupted run")
    add_whole_number(
        p,
        "--memory-mb",
        16,
        10**8,
        "with --out: memory budget of the sparse-space engine in MB (default: the memory "
        "available); a longer table is kept in a memory-mapped file, computed in stretches",
    )
    add_whole_number(
        p, "--threads", 1, 4096, "threads of the sparse-space engine (default: one per core)"
    )


def run(args: argparse.Namespace) -> int:
    """Compute or load the table and print (or export) it."""
    # lazy: start-up time (the table service loads the numba engines; --help must not)
    from nimproof import tables

    game = parse_spec(args.spec)
    if args.threads is not None:
        from nimproof.engines.sparse import use_threads  # lazy: start-up time (numba)

        use_threads(args.threads)
    csv_out = output_file(args.csv, "CSV file") if args.csv else None
    if tables.is_plugin(game):
        return _plugin(game, args, csv_out)
    if args.max_size is not None:
        raise UsageError("--max-size is for plugin games; heap games take --max-n or --max-heap")
    if args.heaps is not None or args.max_heap is not None or tables.is_multi_heap(game):
        return _box(game, args, csv_out)
    if args.max_n is None:
        raise UsageError(f"give --max-n N for the table of {game.spec} (heaps 0..N)")
    if args.out is not None or args.resume or args.memory_mb is not None:
        return run_stream(game, args)
    if args.max_n > MAX_N:
        raise UsageError(
            f"{game.spec}: {args.max_n:,} heaps is more than a table held in memory "
            f"({MAX_N:,}); write it with --out FILE (streamed in parts, resumable)"
        )
    if args.max_n > TEXT_MAX_N and too_long_for_text(game, args.max_n):
        shown = "--json" if args.json else "--csv" if csv_out is not None else "the terminal"
        raise UsageError(
            f"{game.spec}: {args.max_n + 1:,} values are too many for {shown} "
            f"(at most {TEXT_MAX_N + 1:,}); write them to parquet with --out FILE "
            "(streamed in parts as they are computed, resumable)"
        )
    values, engine, source = heap_values(game, args.max_n, save=args.save, data_dir=args.data_dir)
    if args.json:
        print_json(
            {
                "spec": game.spec,
                "misere": game.misere,
                "layout": "heap",
                "bound": args.max_n,
                "engine": engine,
                "source": source,
                "grundy": values,
            }
        )
    elif csv_out is not None:
        csv_out.write_text("n,grundy\n" + "".join(f"{n},{v}\n" for n, v in enumerate(values)))
    else:
        what = "misère nim-values" if game.misere else "Grundy values"
        head = f"{game.spec}: {what} of heaps 0..{args.max_n:,} (engine {engine}, {source})"
        console.print(head, markup=False, soft_wrap=True)
        write_rows(values, args.columns)
    return 0


def too_long_for_text(game: Game, max_n: int) -> bool:
    """True when ``game``'s engine reaches ``max_n`` (beyond its limit, the engine's own
    refusal names the limit). Imports the engines: called only for long tables."""
    from nimproof.engines.heap import plan_heap  # lazy: start-up time (numba, numpy)

    return max_n <= plan_heap(game).limit


def heap_values(
    game: Game, max_n: int, *, save: bool = False, data_dir: str | None = None
) -> tuple[list[int], str, str]:
    """:func:`nimproof.tables.heap_table` with a progress bar: the values of heaps
    ``0..max_n``, the engine that made them and where they came from."""
    from nimproof import tables  # lazy: start-up time (numba engines)

    with progress_callback(f"{game.spec}: heaps 0..{max_n:,}") as cb:
        got = tables.heap_table(game, max_n, save=save, data_dir=data_dir, progress=cb)
    return got.as_list(), got.engine, got.source


def fit_columns(count: int, widest: int, label: int, width: int | None = None) -> int:
    """Values per row: as many as fit ``width`` (the terminal's), a multiple of 10 or 5 when >= 5."""
    if width is None:
        width = console.width if console.is_terminal else shutil.get_terminal_size().columns
    fit = max(1, (width - label - 1) // (widest + 1))
    if fit >= 10:
        fit -= fit % 10
    elif fit >= 5:
        fit = 5
    return max(1, min(fit, count))


def write_rows(values: Sequence[int], columns: int | None = None) -> None:
    """Every value, ``columns`` per row, each row labelled by its first heap; a header of offsets."""
    if not values:
        return
    label = len(str(len(values) - 1))
    widest = max(len(str(v)) for v in values)
    cols = columns or fit_columns(len(values), max(widest, len(str(min(len(values), 1000)))), label)
    cell = max(widest, len(f"+{cols - 1}"))
    out = sys.stdout
    out.write(" " * label + "  " + " ".join(f"+{j}".rjust(cell) for j in range(cols)) + "\n")
    for start in range(0, len(values), cols):
        row = values[start : start + cols]
        out.write(f"{start:>{label}}: " + " ".join(str(v).rjust(cell) for v in row) + "\n")


def _box(game: Game, args: argparse.Namespace, csv_out: Any) -> int:
    from nimproof import tables  # lazy: start-up time (numba engines)
    from nimproof.engines.multi import resolve_method  # lazy: start-up time (numba)

    if args.heaps is None or args.max_heap is None:
        raise UsageError(
            f"{game.spec} is a multi-heap table: give --heaps H and --max-heap B "
            "(e.g. --heaps 3 --max-heap 15)"
        )
    if args.max_n is not None:
        raise UsageError("--max-n is for one-heap tables; a box takes --heaps and --max-heap")
    with progress_callback(f"{game.spec}: {args.heaps} heaps <= {args.max_heap}") as cb:
        got = tables.box_table(
            game,
            args.heaps,
            args.max_heap,
            method=args.method,
            data_dir=args.data_dir,
            progress=cb,
            save=args.save,
        )
    assert got.multi is not None
    method = resolve_method(game, args.heaps, args.method)
    if args.json:
        print_json(box_json(game, got.multi, method, got.source))
    elif csv_out is not None:
        csv_out.write_text(box_csv(got.multi))
    else:
        render_box(game, got.multi, method, got.source, args.columns)
    return 0


def run_stream(game: Game, args: argparse.Namespace) -> int:
    """``--out FILE``: stream the table to parquet in parts; one summary line (or JSON)."""
    # lazy: start-up time (rich, numba, pandas, pyarrow)
    from nimproof.cli.progress import rate_progress
    from nimproof.datasets.stream import stream_table

    if args.out is None:
        what = "--resume continues" if args.resume else "--memory-mb is for"
        raise UsageError(f"{what} a run written with --out FILE; give --out")
    if args.save:
        raise UsageError("--out writes its own file; leave out --save")
    with rate_progress(f"{game.spec}: heaps") as cb:
        memory = None if args.memory_mb is None else args.memory_mb << 20
        got = stream_table(
            game, args.max_n, args.out, resume=args.resume, progress=cb, memory=memory
        )
    summary = {
        "spec": game.spec,
        "bound": got.bound,
        "engine": got.engine,
        "path": str(got.path),
        "resumed_from": got.resumed_from,
        "largest_value": got.largest_value,
        "seconds": round(got.seconds, 3),
        "memory_mapped": got.mapped,
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
    import numpy as np

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


def box_csv(table: MultiTable) -> str:
    """``h0,...,grundy,p_position`` rows in row-major order (``grundy`` empty for outcomes)."""
    import numpy as np

    head = ",".join(f"h{i}" for i in range(table.heaps)) + ",grundy,p_position\n"
    rows = []
    for index in np.ndindex(*table.p_positions.shape):
        g = "" if table.values is None else str(int(table.values[index]))
        p = "true" if table.p_positions[index] else "false"
        rows.append(",".join(map(str, index)) + f",{g},{p}\n")
    return head + "".join(rows)


def render_box(
    game: Game, table: MultiTable, method: str, source: str, columns: int | None = None
) -> None:
    """Two heaps: the whole grid, in strips of columns that fit; more heaps: every P-position."""
    import numpy as np

    count = int(table.p_positions.sum())
    total = table.p_positions.size
    what = (
        "outcomes"
        if table.values is None
        else ("misère nim-values" if game.misere else "Grundy values")
    )
    console.print(
        f"{game.spec}: {what} of {table.heaps} heaps in [0, {table.max_heap}] "
        f"(method {method}, engine {table.engine}, {source}); "
        f"{count:,} of {total:,} positions are P-positions",
        markup=False,
        soft_wrap=True,
    )
    if table.heaps == 1:
        cells = (
            [int(v) for v in table.values]
            if table.values is not None
            else [0 if p else 1 for p in table.p_positions]
        )
        write_rows(cells, columns)
        return
    if table.heaps == 2:
        _grid(table, columns)
        return
    out = sys.stdout
    out.write("P-positions:\n")
    for p in np.argwhere(table.p_positions):
        out.write("  (" + ", ".join(map(str, map(int, p))) + ")\n")


def _grid(table: MultiTable, columns: int | None) -> None:
    """The two-heap grid (rows h0, columns h1), split into strips of columns that fit."""
    side = table.max_heap + 1
    if table.values is None:
        cells = [
            ["P" if table.p_positions[i, j] else "." for j in range(side)] for i in range(side)
        ]
    else:
        cells = [
            [
                str(int(table.values[i, j])) + ("*" if table.p_positions[i, j] else "")
                for j in range(side)
            ]
            for i in range(side)
        ]
    cell = max([len(str(side - 1))] + [len(c) for row in cells for c in row])
    label = len(str(side - 1)) + 1
    cols = columns or fit_columns(side, cell, label + 1)
    out = sys.stdout
    if table.values is not None:
        out.write("(* marks a P-position)\n")
    for first in range(0, side, cols):
        last = min(side, first + cols)
        out.write(
            "h0\\h1".rjust(label + 1)
            + " "
            + " ".join(str(j).rjust(cell) for j in range(first, last))
            + "\n"
        )
        for i in range(side):
            out.write(
                f"{i:>{label}}: " + " ".join(c.rjust(cell) for c in cells[i][first:last]) + "\n"
            )
        if last < side:
            out.write("\n")


def _plugin(game: Game, args: argparse.Namespace, csv_out: Any) -> int:
    """Every position of size at most ``--max-size`` the plugin enumerates, with its value."""
    from nimproof.tables import plugin_values  # lazy: start-up time (numba engines)

    if args.max_size is None:
        raise UsageError(
            f"{game.spec} is a plugin game: give --max-size S for its positions of size <= S"
        )
    if args.max_n is not None or args.heaps is not None or args.max_heap is not None:
        raise UsageError("a plugin game's table takes --max-size only")
    rows = plugin_values(game, args.max_size)
    if args.json:
        print_json(
            {
                "spec": game.spec,
                "misere": game.misere,
                "layout": "positions",
                "max_size": args.max_size,
                "engine": "reference",
                "positions": [{"position": jsonable(p), "value": v} for p, v in rows],
            }
        )
        return 0
    if csv_out is not None:
        csv_out.write_text("position,value\n" + "".join(f'"{_words(p)}",{v}\n' for p, v in rows))
        return 0
    what = "misère nim-values" if game.misere else "Grundy values"
    console.print(
        f"{game.spec}: {what} of its {len(rows):,} positions of size <= {args.max_size} "
        "(reference implementation)",
        markup=False,
        soft_wrap=True,
    )
    width = max((len(_words(p)) for p, _ in rows), default=1)
    for p, v in rows:
        sys.stdout.write(f"  {_words(p).ljust(width)}  {v}{'  P' if v == 0 else ''}\n")
    return 0


def _words(p: Any) -> str:
    if isinstance(p, tuple | list):
        return " ".join(_words(x) for x in p)
    return str(p)
