"""EasyChomp (seed 004, Zadanie 1).

An ``m x n`` chocolate bar whose top-left square is poisoned. A move breaks
the bar along one grid line and eats the part without the poison; whoever
must eat the poisoned square (the bar is ``1 x 1``) loses. The answer: the
game is 2-heap Nim on ``(m-1, n-1)``, so the first player wins iff ``m != n``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.base import PluginGame, Position


class EasyChomp(PluginGame):
    """Positions are ``(m, n)``, the size of the bar."""

    name = "easychomp"
    summary = "m x n bar with a poisoned corner; break and eat the part without the poison"
    example = "plugin:easychomp"
    example_position = "3 4"

    def moves(self, position: Position) -> Iterator[Position]:
        m, n = cast(tuple[int, int], position)
        for r in range(1, m):
            yield (r, n)
        for c in range(1, n):
            yield (m, c)

    def parse_position(self, words: Sequence[str]) -> Position:
        if len(words) != 2 or not all(w.isdigit() and int(w) > 0 for w in words):
            raise UsageError("an EasyChomp position is two positive numbers: m n")
        return (int(words[0]), int(words[1]))

    def positions(self, bound: int) -> Iterator[Position]:
        for m in range(1, bound + 1):
            for n in range(1, bound + 1):
                yield (m, n)
