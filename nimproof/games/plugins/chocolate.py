"""The chocolate bar with a stone (seed 001).

An ``m x n`` bar has a stone in square ``(i, j)`` (0-based row and column).
A move breaks the bar along one grid line and eats the part without the
stone; the player left with the single square holding the stone cannot move
and loses. The text's answer: the game is 4-heap Nim on the distances from
the stone to the four edges, ``(i, m-1-i, j, n-1-j)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.base import PluginGame, Position


class ChocolateBar(PluginGame):
    """Positions are ``(m, n, i, j)``: bar size and the stone's row and column."""

    name = "chocolate"
    summary = "m x n chocolate bar with a stone at (i, j); break and eat the part without it"
    example_position = "5 6 2 3"

    def moves(self, position: Position) -> Iterator[Position]:
        yield from breaks(*cast(tuple[int, int, int, int], position))

    def parse_position(self, words: Sequence[str]) -> Position:
        m, n, i, j = self.numbers(
            words, "a chocolate position is four numbers: m n i j (stone at row i, column j)", 4
        )
        if not (0 <= i < m and 0 <= j < n):
            raise UsageError(f"the stone ({i}, {j}) is not on a {m} x {n} bar")
        return (m, n, i, j)

    def positions(self, bound: int) -> Iterator[Position]:
        for m, n in bars(bound):
            for i in range(m):
                for j in range(n):
                    yield (m, n, i, j)


def breaks(m: int, n: int, i: int, j: int) -> Iterator[tuple[int, int, int, int]]:
    """The bars left when an ``m x n`` bar with a marked square ``(i, j)`` (the stone, or the
    poison) is broken along one grid line and the part without the mark is eaten."""
    for r in range(1, m):  # break between rows r-1 and r
        yield (r, n, i, j) if i < r else (m - r, n, i - r, j)
    for c in range(1, n):
        yield (m, c, i, j) if j < c else (m, n - c, i, j - c)


def bars(bound: int) -> Iterator[tuple[int, int]]:
    """Every bar size ``m x n`` with both sides from 1 to ``bound``."""
    for m in range(1, bound + 1):
        for n in range(1, bound + 1):
            yield (m, n)
