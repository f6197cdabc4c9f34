"""Coin-turning games: Ruler and Mock Turtles (Winning Ways, ch. 14).

A row of coins numbered 1, 2, 3, ... from the left, each heads or tails. A
move turns over some coins; the rightmost coin turned must go from heads to
tails. The games differ in which sets of coins may be turned:

* **Ruler** - any run of consecutive coins ``j + 1, ..., n`` ending at a
  heads coin ``n`` (``j < n``);
* **Mock Turtles** - one, two or three coins, the rightmost ``n`` heads.

*The coin-turning principle* (Winning Ways ch. 14; Berlekamp, Conway, Guy
credit H. W. Lenstra): a position with heads at ``c1, ..., cr`` has the Grundy
value of the disjunctive sum of the single-heads positions ``c1``, ...,
``cr``, because turning a heads coin over again is the same as adding a
second copy of it, and two equal games cancel. So a family here is a heap
game: heap ``n`` is one heads coin at ``n``, and a move from heap ``n``
leaves the heaps of the other coins it turned over (a position in which a
coin appears twice has the same value as one without it). The single-coin
values are (Winning Ways ch. 14):

* Ruler: ``g(n)`` is the largest power of 2 dividing ``n`` (OEIS A006519);
* Mock Turtles: ``g(n)`` is the ``n``-th odious number (numbers with an odd
  count of 1 bits: 1, 2, 4, 7, 8, ...; OEIS A000069 from offset 0, so
  ``g(n) = 2(n - 1) + [popcount(n - 1) even]``).

Both are proved for every coin in ``conjectures/classics/coin_turning.toml``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

from nimproof.games.args import no_args
from nimproof.games.base import HeapGame, Heaps, PartMoves
from nimproof.games.registry import family

#: The heap model rests on the coin-turning principle, which needs normal play.
_NO_MISERE = (
    "a coin turned twice cancels only under normal play, so misère play of the heap "
    "model is not the misère coin-turning game"
)


class _CoinTurning(HeapGame):
    """A coin-turning game in its heap model: a move leaves several heaps (normal play only)."""

    splits = True
    no_misere = _NO_MISERE


class Ruler(_CoinTurning):
    """Ruler: turn a run of consecutive coins whose rightmost coin is heads."""

    spec = "ruler"

    @cached_property
    def moves_spec(self) -> PartMoves:
        """The runs ``j + 1 .. n - 1`` left heads, for every ``j < n``."""
        return PartMoves((), runs=True, kernel="ruler")

    def options(self, n: int) -> Iterator[Heaps]:
        for j in range(n):
            yield tuple(range(j + 1, n))


class MockTurtles(_CoinTurning):
    """Mock Turtles: turn one, two or three coins, the rightmost from heads to tails."""

    spec = "mock-turtles"

    @cached_property
    def moves_spec(self) -> PartMoves:
        """Nothing, one smaller coin, or two different smaller coins turned as well."""
        return PartMoves(
            (
                (0, "n >= 1"),
                (1, "1 <= a1 and a1 < n"),
                (2, "1 <= a1 and a1 < a2 and a2 < n"),
            ),
            kernel="mock-turtles",
        )

    def options(self, n: int) -> Iterator[Heaps]:
        if n < 1:
            return
        yield ()
        for b in range(1, n):
            yield (b,)
            for a in range(1, b):
                yield (a, b)


@family(
    "ruler",
    "Ruler (coin turning): coins in a row; turn over any run of adjacent coins "
    "whose rightmost coin goes from heads to tails (heap n: a heads coin at n)",
    "ruler",
)
def _ruler(args: str | None) -> Ruler:
    no_args("ruler", args)
    return Ruler()


@family(
    "mock-turtles",
    "Mock Turtles (coin turning): coins in a row; turn over one, two or three coins, "
    "the rightmost from heads to tails (heap n: a heads coin at n)",
    "mock-turtles",
)
def _mock_turtles(args: str | None) -> MockTurtles:
    no_args("mock-turtles", args)
    return MockTurtles()
