"""``nimproof value``: the value of one position and every winning move.

``nimproof value nim 3 4 5`` (a sum of three Nim heaps), ``nimproof value
moore:2 1 2 3``, ``nimproof value sum:knim:3+kayles 4 6`` (one heap per
component), ``nimproof value plugin:chocolate 5 6 2 3`` (the plugin reads its
own words). With ``--json``, one object::

    {"spec": ..., "misere": ..., "position": [...], "value": v, "p_position": bool,
     "winning_moves": [{"target": ..., "heap": i, "from": a, "to": [...]}, ...]}

``heap`` counts from 0 in JSON (and from 1 in the readable output); it is
null, with ``from``/``to``, when a move changes several heaps at once.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.games import parse_spec
from nimproof.verdict import jsonable

if TYPE_CHECKING:
    from nimproof.engines import Move

#: Winning moves listed by default in the readable output (``--limit``).
DEFAULT_LIMIT = 20


def register(subparsers: Any) -> None:
    """Add the ``value`` command."""
    p = add_command(
        subparsers,
        "value",
        run,
        "The Grundy value (misère nim-value for misere: games) of one position "
        "and its winning moves. Several heaps of a one-heap game are their sum.",
    )
    p.add_argument("spec", help="a game spec")
    p.add_argument("position", nargs="+", help="heap sizes (or a plugin's own words)")
    p.add_argument("--json", action="store_true", help="print one JSON object (every move)")
    add_whole_number(
        p,
        "--limit",
        0,
        10**9,
        f"winning moves listed (default {DEFAULT_LIMIT}; 0 for all)",
        DEFAULT_LIMIT,
    )


def move_json(m: Move) -> dict[str, Any]:
    """A move as JSON."""
    return {
        "target": jsonable(m.target),
        "heap": m.heap,
        "from": m.before,
        "to": None if m.after is None else list(m.after),
    }


def run(args: argparse.Namespace) -> int:
    """Evaluate the position and print its value and winning moves."""
    # lazy: start-up time (the engines load numba; ``value --help`` must not)
    from nimproof.engines.words import parse_position, value_and_moves

    game = parse_spec(args.spec)
    position = parse_position(game, args.position)
    value, moves = value_and_moves(game, position)
    if args.json:
        print_json(
            {
                "spec": game.spec,
                "misere": game.misere,
                "position": jsonable(position),
                "value": value,
                "p_position": value == 0,
                "winning_moves": [move_json(m) for m in moves],
            }
        )
        return 0
    what = "misère nim-value" if game.misere else "Grundy value"
    shown = " ".join(map(str, args.position))
    console.print(f"{game.spec} at {shown}: {what} {value}", markup=False, soft_wrap=True)
    if value == 0:
        console.print("P-position: the player to move loses (no winning move)", markup=False)
        return 0
    console.print(
        f"N-position: {len(moves)} winning move{'s' if len(moves) != 1 else ''}", markup=False
    )
    shown_moves = moves if args.limit == 0 else moves[: args.limit]
    for m in shown_moves:
        console.print(
            f"  {m.describe()}   (leaves {jsonable(m.target)})", markup=False, soft_wrap=True
        )
    if len(shown_moves) < len(moves):
        console.print(
            f"  ... and {len(moves) - len(shown_moves):,} more (--limit 0 lists all, --json too)",
            markup=False,
        )
    return 0
