"""Fibonacci Nim: one heap, and a limit on the next take that doubles the last take.

A position is ``(n, t)``: ``n`` tokens and at most ``t`` may be taken. Taking
``k`` tokens (``1 <= k <= min(n, t)``) leads to ``(n - k, 2k)``. A game from
a heap of ``n`` starts at ``(n, n - 1)`` (the first player may take anything
but the whole heap). The theorem (Whinihan, "Fibonacci Nim", Fibonacci
Quarterly 1, 1963): ``(n, t)`` is a P-position exactly when ``n = 0`` or
``t`` is smaller than the smallest term of ``n``'s Zeckendorf representation;
so a game from ``n`` is lost by the first player exactly when ``n`` is a
Fibonacci number, and the winning move takes that smallest term.

Every move lowers ``2n + t`` (the take limit may rise), which the description
states as its measure.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.args import no_args
from nimproof.games.base import HeapsRelation, MultiHeapGame, Position, relation_predicate
from nimproof.games.registry import family

#: Take ``k = h[0] - k[0]`` tokens, at least 1 and at most the limit; the new limit is ``2k``.
MOVES = "1 <= h[0] - k[0] <= h[1] and k[1] == 2 * (h[0] - k[0])"


class FibonacciNim(MultiHeapGame):
    """Fibonacci Nim on positions ``(heap, largest take allowed)``."""

    spec = "fibonacci-nim"
    lowers_heaps = False

    @cached_property
    def moves_spec(self) -> HeapsRelation:
        node = relation_predicate(MOVES)
        return HeapsRelation(2, node, MOVES, weight=(2, 1), raises=True)

    def moves(self, position: Position) -> Iterator[Position]:
        heaps = cast(tuple[int, ...], position)
        if len(heaps) != 2:
            raise UsageError(
                f"a position of Fibonacci Nim is (heap, largest take), got {len(heaps)} numbers"
            )
        n, t = heaps
        for k in range(1, min(n, t) + 1):
            yield (n - k, 2 * k)


@family(
    "fibonacci-nim",
    "Fibonacci Nim: a heap and a take limit; take 1 to the limit, and the next limit is twice "
    "your take (a game from n starts at n, n-1)",
    "fibonacci-nim",
    multi_heap=True,
)
def _fibonacci_nim(args: str | None) -> FibonacciNim:
    no_args("fibonacci-nim", args)
    return FibonacciNim()
