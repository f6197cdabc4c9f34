"""The coin strip (seed 001).

Coins lie on distinct squares of a ``1 x n`` strip. A move slides one coin
left by any number of squares without jumping over or onto another coin; the
player who cannot move loses. The gaps between coins form a staircase Nim:
moving coin ``t`` left lowers the gap before it and raises the gap after it,
and the gap before the rightmost coin is stair 1 (coins leave it for the
unbounded space to the right). So a position is P iff the xor of the gaps
on odd stairs, counted from the rightmost coin, is 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.base import PluginGame, Position


class CoinStrip(PluginGame):
    """Positions are sorted tuples of the (0-based) squares holding a coin."""

    name = "coin-strip"
    summary = "coins on a 1 x n strip slide left without jumping; staircase Nim on the gaps"
    example_position = "0 3 7"

    def moves(self, position: Position) -> Iterator[Position]:
        coins = cast(tuple[int, ...], position)
        for t, c in enumerate(coins):
            lowest = coins[t - 1] + 1 if t > 0 else 0
            for d in range(lowest, c):
                yield (*coins[:t], d, *coins[t + 1 :])

    def parse_position(self, words: Sequence[str]) -> Position:
        usage = "a coin-strip position is the squares holding coins, e.g. 0 3 7"
        coins = tuple(sorted(self.numbers(words, usage)))
        if len(set(coins)) != len(coins):
            raise UsageError("two coins cannot share a square")
        return coins

    def positions(self, bound: int) -> Iterator[Position]:
        """Every placement of coins on the squares ``0..bound-1``."""
        for count in range(bound + 1):
            yield from combinations(range(bound), count)
