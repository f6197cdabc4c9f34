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
from typing import TYPE_CHECKING, Any

from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.errors import UsageError
from nimproof.verdict import jsonable

if TYPE_CHECKING:
    from nimproof.engines import Move
    from nimproof.games import Game, Position

#: Largest heap accepted on the command line (Nim, valued by Bouton's theorem, takes any).
MAX_HEAP_WORD = 10**8
#: Digits of the largest Nim heap accepted.
MAX_NIM_DIGITS = 1000
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


def parse_position(game: Game, words: Sequence[str]) -> Position:
    """Turn command-line words into a position of ``game``; raises :class:`UsageError`."""
    from nimproof.games import PluginGame

    base = game.normal
    if isinstance(base, PluginGame):
        return base.parse_position(words)
    nim = is_plain_nim(game)
    heaps = []
    for w in words:
        t = w.strip()
        if not t.isascii() or not t.isdigit():
            raise UsageError(f"malformed position: heap sizes are whole numbers >= 0, got {w!r}")
        digits = len(t.lstrip("0"))
        limit = 10**MAX_NIM_DIGITS - 1 if nim else MAX_HEAP_WORD
        if digits > len(str(limit)) or int(t) > limit:
            shown = t if len(t) <= 30 else f"{t[:12]}...({len(t)} digits)"
            what = f"{MAX_NIM_DIGITS} digits" if nim else f"{MAX_HEAP_WORD:,}"
            raise UsageError(f"heap {shown} is too large for this engine: limit {what}")
        v = int(t)
        heaps.append(v)
    spec = game.moves_spec
    fixed = spec.heap_count()
    if fixed is not None and len(heaps) != fixed:
        raise UsageError(
            f"{game.spec} has {fixed} components: give one heap for each, got {len(heaps)}"
            if spec.parts(game, fixed) is not None
            else f"{game.spec} positions have {fixed} heaps, got {len(heaps)}"
        )
    return tuple(heaps)


def is_plain_nim(game: Game) -> bool:
    """True for normal-play Nim, whose positions are valued by Bouton's theorem at any size."""
    from nimproof.games import HeapGame

    return game.moves_spec.nim and isinstance(game, HeapGame) and not game.misere


def nim_value(heaps: Sequence[int]) -> tuple[int, list[Move]]:
    """Bouton: the value of Nim heaps is their xor; a winning move lowers heap ``h`` to ``h ^ x``.

    Exact integer arithmetic, so any heap size works; the moves are every heap
    ``h`` with ``h ^ x < h`` (``x`` the xor), which are exactly the moves to xor 0.
    """
    from nimproof.engines.move import Move

    x = 0
    for h in heaps:
        x ^= h
    moves = []
    for i, h in enumerate(heaps):
        if h ^ x < h:
            target = (*heaps[:i], h ^ x, *heaps[i + 1 :])
            moves.append(Move(tuple(target), i, h, (h ^ x,)))
    return x, moves


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
    from nimproof.games import parse_spec

    game = parse_spec(args.spec)
    position = parse_position(game, args.position)
    if is_plain_nim(game):
        value, moves = nim_value(tuple(int(h) for h in position))  # type: ignore[attr-defined]
    else:
        from nimproof.engines import position_value, winning_moves

        value = position_value(game, position)
        moves = winning_moves(game, position) if value != 0 else []
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
