"""Euclid's game: two numbers; subtract a positive multiple of the smaller from the larger.

A move replaces the larger number ``a`` by ``a - m*b`` (``b`` the smaller,
``m >= 1``, the result not negative); the player who makes a number zero wins,
so a position with a zero is over (normal play: the player to move there has
lost). This is the convention of Cole and Davie ("A game based on the
Euclidean algorithm and a winning strategy for it", Mathematical Gazette 53,
1969), whose theorem says: with ``a >= b > 0``, the player to move wins
exactly when ``a = b`` or ``a / b > phi`` (the golden ratio).

The moves are given as a relation between the numbers before (``h``) and
after (``k``); it uses ``%`` by a variable (a multiple of the smaller
number), which no numeration of the automata method expresses, so the
theorem is checked up to a bound (docs/golden-ratio.md says why).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.args import no_args
from nimproof.games.base import HeapsRelation, MultiHeapGame, Position, relation_predicate
from nimproof.games.registry import family

#: The larger number falls by a positive multiple of the smaller (not below zero).
MOVES = (
    "(k[1] == h[1] and 0 < h[1] <= h[0] and k[0] < h[0] and (h[0] - k[0]) % h[1] == 0)"
    " or (k[0] == h[0] and 0 < h[0] <= h[1] and k[1] < h[1] and (h[1] - k[1]) % h[0] == 0)"
)


class Euclid(MultiHeapGame):
    """Euclid's game on two numbers."""

    spec = "euclid"

    @cached_property
    def moves_spec(self) -> HeapsRelation:
        return HeapsRelation(2, relation_predicate(MOVES), MOVES)

    def moves(self, position: Position) -> Iterator[Position]:
        heaps = cast(tuple[int, ...], position)
        if len(heaps) != 2:
            raise UsageError(f"a position of Euclid's game has two numbers, got {len(heaps)}")
        a, b = heaps
        if a == 0 or b == 0:
            return
        if a >= b:
            for m in range(1, a // b + 1):
                yield (a - m * b, b)
        if b >= a:
            for m in range(1, b // a + 1):
                yield (a, b - m * a)


@family(
    "euclid",
    "Euclid's game: two numbers; subtract a positive multiple of the smaller from the larger; "
    "whoever makes a zero wins",
    "euclid",
    aliases=("euclids-game",),
    multi_heap=True,
)
def _euclid(args: str | None) -> Euclid:
    no_args("euclid", args)
    return Euclid()
