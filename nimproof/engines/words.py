"""Positions read from words, and their values: plain Nim by Bouton's theorem, without the
compiled engines (so ``nimproof value nim 3 4 5`` starts instantly), every other game by
:mod:`nimproof.engines.positions`."""

from __future__ import annotations

from collections.abc import Sequence

from nimproof.engines.move import Move
from nimproof.errors import UsageError
from nimproof.games.base import Game, HeapGame, PluginGame, Position

#: Largest heap read from words (Nim, valued by Bouton's theorem, takes any).
MAX_HEAP_WORD = 10**8
#: Digits of the largest Nim heap read from words.
MAX_NIM_DIGITS = 1000


def parse_position(game: Game, words: Sequence[str]) -> Position:
    """Turn words (as typed on a command line) into a position of ``game``.

    A plugin reads its own words; every other game takes heap sizes, whole
    numbers up to :data:`MAX_HEAP_WORD` (up to :data:`MAX_NIM_DIGITS` digits for
    plain Nim), one per component for a sum. Raises :class:`UsageError`.
    """
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
        heaps.append(int(t))
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
    return game.moves_spec.nim and isinstance(game, HeapGame) and not game.misere


def nim_value(heaps: Sequence[int]) -> tuple[int, list[Move]]:
    """Bouton: the value of Nim heaps is their xor; a winning move lowers heap ``h`` to ``h ^ x``.

    Exact integer arithmetic, so any heap size works; the moves are every heap
    ``h`` with ``h ^ x < h`` (``x`` the xor), which are exactly the moves to xor 0.
    """
    x = 0
    for h in heaps:
        x ^= h
    moves = []
    for i, h in enumerate(heaps):
        if h ^ x < h:
            target = (*heaps[:i], h ^ x, *heaps[i + 1 :])
            moves.append(Move(tuple(target), i, h, (h ^ x,)))
    return x, moves


def value_and_moves(game: Game, position: Position) -> tuple[int, list[Move]]:
    """The value of ``position`` and its winning moves (none for a P-position): Bouton's
    theorem for plain Nim (any heap size), the engines otherwise."""
    if is_plain_nim(game):
        return nim_value(tuple(int(h) for h in position))  # type: ignore[attr-defined]
    # lazy: start-up time (the engines load numba; plain Nim needs none of it)
    from nimproof.engines.positions import position_value, winning_moves

    v = position_value(game, position)
    return v, (winning_moves(game, position) if v != 0 else [])
