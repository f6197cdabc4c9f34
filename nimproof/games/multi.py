"""Multi-heap games that are not sums: Moore's Nim_k and staircase Nim."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from itertools import combinations
from typing import cast

from nimproof.games.args import no_args, parse_int
from nimproof.games.base import MultiHeapGame, Position, StairToStair, UpToKHeaps
from nimproof.games.registry import family


class Moore(MultiHeapGame):
    """Moore's Nim_k: a move lowers between 1 and ``k`` heaps (by any positive amounts)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.spec = f"moore:{k}"

    @cached_property
    def moves_spec(self) -> UpToKHeaps:
        return UpToKHeaps(self.k)

    def moves(self, position: Position) -> Iterator[Position]:
        heaps = cast(tuple[int, ...], position)
        nonempty = [i for i, a in enumerate(heaps) if a > 0]
        for size in range(1, min(self.k, len(nonempty)) + 1):
            for chosen in combinations(nonempty, size):
                for lowered in _lowered(tuple(heaps[i] for i in chosen)):
                    new = list(heaps)
                    for i, value in zip(chosen, lowered, strict=True):
                        new[i] = value
                    yield tuple(new)


def _lowered(sizes: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every tuple with ``0 <= t[i] < sizes[i]``, in lexicographic order, one at a time
    (``itertools.product`` would first build each range as a tuple: impossible for huge heaps)."""
    if not sizes:
        yield ()
        return
    for first in range(sizes[0]):
        for rest in _lowered(sizes[1:]):
            yield (first, *rest)


class Staircase(MultiHeapGame):
    """Staircase Nim: stairs 1..h (index 0 is stair 1, next to the floor).

    A move carries a positive number of coins from stair ``i`` down to stair
    ``i - 1``; coins on stair 1 leave the game. (Seed 004 numbers the floor as
    stair 1 and forbids moves from it: the same game shifted by one stair.)
    Moves raise the lower pile, so a box of heap sizes is not closed under
    moves; the total number of coins never grows.
    """

    spec = "staircase"
    lowers_heaps = False

    @cached_property
    def moves_spec(self) -> StairToStair:
        return StairToStair()

    def moves(self, position: Position) -> Iterator[Position]:
        piles = cast(tuple[int, ...], position)
        for i, a in enumerate(piles):
            for c in range(1, a + 1):
                new = list(piles)
                new[i] -= c
                if i > 0:
                    new[i - 1] += c
                yield tuple(new)


@family(
    "moore",
    "Moore's Nim: several heaps; a move takes tokens from at least one and at most K heaps",
    "moore:2",
    aliases=("moores-nim", "nim-k"),
    multi_heap=True,
    needs="K",
)
def _moore(args: str | None) -> Moore:
    assert args  # the registry refuses a spec without it (``needs``)
    k = parse_int(args, "K of moore", low=1, high=64)
    return Moore(k)


@family(
    "staircase",
    "staircase Nim: coins on stairs 1, 2, ...; a move shifts some coins of one stair to the stair below (from stair 1 they leave)",
    "staircase",
    aliases=("staircase-nim",),
    multi_heap=True,
)
def _staircase(args: str | None) -> Staircase:
    no_args("staircase", args)
    return Staircase()
