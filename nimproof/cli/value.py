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
from collections.abc import Sequence
from typing import Any

from nimproof.cli.common import console, print_json
from nimproof.engines import Move, position_value, winning_moves
from nimproof.errors import UsageError
from nimproof.games import Game, PluginGame, Position, parse_spec
from nimproof.games.sums import Sum

#: Largest heap accepted on the command line.
MAX_HEAP_WORD = 10**8


def register(subparsers: Any) -> None:
    """Add the ``value`` command."""
    p = subparsers.add_parser("value", help="value of a position and every winning move")
    p.add_argument("spec", help="a game spec")
    p.add_argument("position", nargs="+", help="heap sizes (or a plugin's own words)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def parse_position(game: Game, words: Sequence[str]) -> Position:
    """Turn command-line words into a position of ``game``; raises :class:`UsageError`."""
    base = getattr(game, "base", game)
    if isinstance(base, PluginGame):
        return base.parse_position(words)
    heaps = []
    for w in words:
        t = w.strip()
        if not t.isascii() or not t.isdigit():
            raise UsageError(f"malformed position: heap sizes are whole numbers >= 0, got {w!r}")
        if len(t.lstrip("0")) > len(str(MAX_HEAP_WORD)) or int(t) > MAX_HEAP_WORD:
            shown = t if len(t) <= 30 else f"{t[:12]}...({len(t)} digits)"
            raise UsageError(f"heap {shown} is too large for this engine: limit {MAX_HEAP_WORD:,}")
        v = int(t)
        heaps.append(v)
    if isinstance(base, Sum) and len(heaps) != len(base.components):
        raise UsageError(
            f"{game.spec} has {len(base.components)} components: "
            f"give one heap for each, got {len(heaps)}"
        )
    return tuple(heaps)


def _jsonable(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_jsonable(y) for y in x]
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    return str(x)


def move_json(m: Move) -> dict[str, Any]:
    """A move as JSON."""
    return {
        "target": _jsonable(m.target),
        "heap": m.heap,
        "from": m.before,
        "to": None if m.after is None else list(m.after),
    }


def run(args: argparse.Namespace) -> int:
    """Evaluate the position and print its value and winning moves."""
    game = parse_spec(args.spec)
    position = parse_position(game, args.position)
    value = position_value(game, position)
    moves = winning_moves(game, position) if value != 0 else []
    if args.json:
        print_json(
            {
                "spec": game.spec,
                "misere": game.misere,
                "position": _jsonable(position),
                "value": value,
                "p_position": value == 0,
                "winning_moves": [move_json(m) for m in moves],
            }
        )
        return 0
    what = "misère nim-value" if game.misere else "Grundy value"
    shown = " ".join(map(str, args.position))
    console.print(f"[bold]{game.spec}[/bold] at {shown}: {what} [bold]{value}[/bold]")
    if value == 0:
        console.print("P-position: the player to move loses (no winning move)")
        return 0
    console.print(f"N-position: {len(moves)} winning move{'s' if len(moves) != 1 else ''}")
    for m in moves:
        console.print(f"  {m.describe()}   (leaves {_jsonable(m.target)})", markup=False)
    return 0
