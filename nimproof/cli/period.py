"""``nimproof period SPEC``: the period of a one-heap game, as CGSuite's CheckPeriodicity answers.

This module parses the arguments and prints; the analysis is the library's
(:func:`nimproof.periods.analyse`, whose theorems are those of
:mod:`nimproof.theory.periodicity`, shared with the ``periodicity`` proof
method and the atlas). The answer names the periodicity ``g(n + p) = g(n) + s``
found, whether a theorem proves it for every ``n`` (and the heap up to which
it needed the table) or it is only *apparent*, then the periodic table
display: the values in rows of one period. Above
:data:`~nimproof.periods.LONG_FROM` heaps (the hard games: ``nimproof period
octal:0.16 --max-n 2000000``) the long-table search runs, and the answer
also gives the time, the cross-checks of the values and the sparse engine's
figures."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.cli.table import heap_values
from nimproof.errors import UsageError
from nimproof.games import HeapGame, parse_spec

#: Largest heap searched by default.
DEFAULT_MAX_N = 2000
#: Largest --max-n (the engines refuse, with the memory needed, what the machine cannot hold).
LONG_MAX_N = 1 << 31


def register(subparsers: Any) -> None:
    """Add the ``period`` command."""
    p = add_command(
        subparsers,
        "period",
        run,
        "Find g(n + p) = g(n) + s in the Grundy table of a one-heap game, say "
        "whether a periodicity theorem proves it for every n, and show the values in rows of "
        "one period.",
    )
    p.add_argument("spec", help="a one-heap game spec, e.g. kayles, octal:0.137, knim:3")
    add_whole_number(
        p,
        "--max-n",
        10,
        LONG_MAX_N,
        f"largest heap searched (default {DEFAULT_MAX_N})",
        DEFAULT_MAX_N,
    )
    add_whole_number(
        p, "--rows", 1, 10**6, "rows of the periodic display after the preperiod (default 8)", 8
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Find the periodicity and print it (JSON: one object)."""
    game = parse_spec(args.spec)
    if not isinstance(game, HeapGame) or game.misere:
        raise UsageError(f"period takes a normal-play one-heap game; {game.spec} is not one")
    # lazy: the analysis loads numba and the dataset store; ``period --help`` must not
    from nimproof.cli.progress import rate_progress
    from nimproof.periods import MIN_PERIODS, analyse

    answer = analyse(game, args.max_n, _values, rate_progress)
    if args.json:
        print_json(answer)
        return 0
    say = lambda text: console.print(text, markup=False, soft_wrap=True)  # noqa: E731
    if answer["status"] == "none":
        say(f"{game.spec}: no period up to n = {args.max_n} (at least {MIN_PERIODS} periods seen)")
        return 0
    p, n0, s = answer["period"], answer["preperiod"], answer["saltus"]
    say(f"{game.spec}: preperiod {n0}, period {p}, saltus {s}")
    if answer["status"] == "proved":
        say(
            f"  proved for every n >= {n0}: {answer['theorem']}, table checked to n = {answer['bound']}"
        )
        if "seconds" in answer:
            _say_long(answer, say)
    elif answer["theorem"]:
        say(
            f"  apparent: seen up to n = {answer['checked_to']}; {answer['theorem']} would need "
            f"n = {answer['bound']}"
        )
    else:
        say(f"  apparent: seen up to n = {answer['checked_to']}; no periodicity theorem applies")
    if n0 + p > len(answer["values"]):
        say(
            f"  (no periodic display: preperiod and period exceed the {len(answer['values'])} values kept)"
        )
        return 0
    display(answer["values"], p, n0, args.rows)
    return 0


def _values(game: HeapGame, max_n: int) -> tuple[list[int], str]:
    """The table of ``game`` as ``nimproof table`` finds it (stored, reference or engine)."""
    values, engine, _ = heap_values(game, max_n)
    return values, engine


def _say_long(answer: dict[str, Any], say: Callable[[str], None]) -> None:
    fig = answer.get("figures") or {}
    if fig:
        pos = " with the heap's parity" if fig["rare_by_position"] else ""
        say(
            f"  rare mask {fig['rare_mask']:#x}{pos}: {fig['rare_heaps']:,} rare heaps "
            f"({fig['rare_values']} rare values), last rare heap {fig['last_rare']:,}; "
            f"largest value {fig['largest_value']} first at n = {fig['largest_at']:,}"
        )
    checks = ", ".join(f"{k} to n = {v:,}" for k, v in answer["checked"].items())
    say(
        f"  {answer['checked_to'] + 1:,} values in {answer['seconds']:.2f} s; cross-checked: {checks}"
    )


def display(values: list[int], p: int, n0: int, rows: int) -> None:
    """The periodic table display: the preperiod, then rows of one period each."""
    end = min(len(values), n0 + rows * p)
    shown = values[:end]
    cell = max(len(str(v)) for v in shown)
    label = len(str(end))
    out = sys.stdout
    out.write(" " * label + "  " + " ".join(f"+{j}".rjust(cell) for j in range(p)) + "\n")
    start = 0
    while start < n0:  # the preperiod, in rows of p values, marked
        row = shown[start : min(start + p, n0)]
        out.write(f"{start:>{label}}: " + " ".join(str(v).rjust(cell) for v in row) + "   (pre)\n")
        start += p
    for first in range(n0, end, p):
        row = shown[first : first + p]
        out.write(f"{first:>{label}}: " + " ".join(str(v).rjust(cell) for v in row) + "\n")
    if end < len(values):
        out.write(f"... (--rows for more; values to n = {len(values) - 1} checked)\n")
