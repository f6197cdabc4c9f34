"""Wythoff's game: two heaps; take any number from one heap, or the same number from both.

The P-positions are the pairs ``(floor(k*phi), floor(k*phi**2))`` and their
mirror images, ``phi`` the golden ratio (W. A. Wythoff, "A modification of
the game of Nim", Nieuw Archief voor Wiskunde 7, 1907). The moves are given
to the rest of nimproof as a relation between the heaps before (``h``) and
after (``k``) a move (:class:`~nimproof.games.base.HeapsRelation`), which the
engines, re-checks and proof methods read; :meth:`Wythoff.moves` lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.args import no_args
from nimproof.games.base import HeapsRelation, MultiHeapGame, Position, relation_predicate
from nimproof.games.registry import family

#: One heap shrinks and the other stays, or both shrink by the same amount.
MOVES = (
    "(k[0] < h[0] and k[1] == h[1]) or (k[0] == h[0] and k[1] < h[1])"
    " or (k[0] < h[0] and h[0] - k[0] == h[1] - k[1])"
)


class Wythoff(MultiHeapGame):
    """Wythoff's game on two heaps."""

    spec = "wythoff"

    @cached_property
    def moves_spec(self) -> HeapsRelation:
        return HeapsRelation(2, relation_predicate(MOVES), MOVES)

    def moves(self, position: Position) -> Iterator[Position]:
        a, b = _pair(position)
        for t in range(1, a + 1):
            yield (a - t, b)
        for t in range(1, b + 1):
            yield (a, b - t)
        for t in range(1, min(a, b) + 1):
            yield (a - t, b - t)


def _pair(position: Position) -> tuple[int, int]:
    heaps = cast(tuple[int, ...], position)
    if len(heaps) != 2:
        raise UsageError(f"a position of Wythoff's game has two heaps, got {len(heaps)}")
    return heaps[0], heaps[1]


@family(
    "wythoff",
    "Wythoff's game: two heaps; take any number of tokens from one heap, or the same number from both",
    "wythoff",
    aliases=("wythoffs-game",),
    multi_heap=True,
)
def _wythoff(args: str | None) -> Wythoff:
    no_args("wythoff", args)
    return Wythoff()
