"""``nimproof period``: find the period of a one-heap game and prove it for all heaps.

``nimproof period SPEC [--max-n N] [--json] [--dense-check N] [--no-stop]``
grows the table (sparse space for two-way take-and-break codes and Grundy's
game), looks for a period at every quarter of each doubling and stops as soon
as a theorem proves it (see :mod:`nimproof.engines.periods`). With ``--json``
it prints one object::

    {"spec": "octal:0.16", "status": "proved" | "periodic" | "unsolved",
     "max_n": N, "preperiod": ..., "period": ..., "proved": true, "theorem": "...",
     "window_end": ..., "engine": "sparse-space", "seconds": ..., "checked": {...},
     "rare_mask": ..., "rare_heaps": ..., "last_rare": ..., "largest_value": ..., ...}

Exit code 0 when the period is proved, 1 otherwise (a period seen but not
proved, or none up to N), 2 for unusable input.
"""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.cli.common import bounded_int, console, print_json
from nimproof.cli.progress import rate_progress
from nimproof.games import parse_spec

#: Default largest heap.
DEFAULT_MAX_N = 1 << 22
#: Largest heap the command accepts (the engines refuse what the machine cannot hold).
LIMIT = 1 << 31


def register(subparsers: Any) -> None:
    """Add the ``period`` command."""
    p = subparsers.add_parser(
        "period", help="find the period of a one-heap game and prove it for all heaps"
    )
    p.add_argument("spec", help="a game spec, e.g. octal:0.16, officers, subtraction:1,3,4")
    p.add_argument(
        "--max-n",
        type=bounded_int(1, LIMIT, "--max-n"),
        default=DEFAULT_MAX_N,
        help=f"largest heap to compute (default {DEFAULT_MAX_N:,})",
    )
    p.add_argument(
        "--dense-check",
        type=bounded_int(0, LIMIT, "--dense-check"),
        default=1 << 15,
        help="heaps recomputed by the dense kernel as a cross-check (default 32768)",
    )
    p.add_argument(
        "--no-stop", action="store_true", help="compute up to --max-n even once proved"
    )
    p.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Find the period and print it."""
    from nimproof.engines.periods import find_period

    game = parse_spec(args.spec)
    with rate_progress(f"{game.spec}: heaps") as cb:
        result, _ = find_period(
            game,
            args.max_n,
            progress=cb,
            dense_check=args.dense_check,
            stop_when_proved=not args.no_stop,
        )
    if args.json:
        print_json(result.to_json())
    else:
        console.print(result.summary())
        s = result.stats
        if s:
            console.print(
                f"rare mask {s['rare_mask']:#x}{' with heap parity' if s['rare_by_position'] else ''}"
                f", {s['rare_heaps']:,} rare heaps ({s['rare_values']} rare values), "
                f"last rare heap {s['last_rare']:,}; largest value {s['largest_value']} "
                f"first at {s['largest_at']:,}"
            )
        checks = ", ".join(f"{k} to {v:,}" for k, v in result.checked.items())
        console.print(
            f"{result.values:,} values by {result.engine} in {result.seconds:.2f} s; "
            f"cross-checked against {checks}"
        )
    return 0 if result.status == "proved" else 1
