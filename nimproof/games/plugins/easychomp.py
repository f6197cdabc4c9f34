"""EasyChomp (seed 004, Zadanie 1).

An ``m x n`` chocolate bar whose top-left square is poisoned. A move breaks
the bar along one grid line and eats the part without the poison; whoever
must eat the poisoned square (the bar is ``1 x 1``) loses. The answer: the
game is 2-heap Nim on ``(m-1, n-1)``, so the first player wins iff ``m != n``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from nimproof.games.base import PluginGame, Position
from nimproof.games.plugins.chocolate import bars, breaks


class EasyChomp(PluginGame):
    """Positions are ``(m, n)``, the size of the bar."""

    name = "easychomp"
    summary = "m x n bar with a poisoned corner; break and eat the part without the poison"
    example_position = "3 4"

    def moves(self, position: Position) -> Iterator[Position]:
        m, n = cast(tuple[int, int], position)
        # The poison is the top-left square: the bar keeps that corner.
        for rows, cols, _, _ in breaks(m, n, 0, 0):
            yield (rows, cols)

    def parse_position(self, words: Sequence[str]) -> Position:
        m, n = self.numbers(words, "an EasyChomp position is two positive numbers: m n", 2, 1)
        return (m, n)

    def positions(self, bound: int) -> Iterator[Position]:
        yield from bars(bound)
