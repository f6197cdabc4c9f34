"""Lasker's Nim: take any number of tokens from a heap, or split a heap into two non-empty heaps.

Emanuel Lasker described the game in *Brettspiele der Völker* (1931); its
Grundy values are periodic with period 4 and saltus 4 (Winning Ways, ch. 4;
T. S. Ferguson, *Game Theory*, Part I, section 4.5 example):
``g(4k + 1) = 4k + 1``, ``g(4k + 2) = 4k + 2``, ``g(4k + 3) = 4k + 4``,
``g(4k + 4) = 4k + 3`` and ``g(0) = 0``. The theorem is stated and proved
for every heap in ``conjectures/classics/lasker.toml``.

In take-and-break terms the code is ``4.333...`` with a 3 for every number of
tokens removed (CGSuite writes ``4.[3]``), so no finite octal code describes
it; the move description is :class:`~nimproof.games.base.PartMoves`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

from nimproof.games.args import no_args
from nimproof.games.base import HeapGame, Heaps, PartMoves
from nimproof.games.registry import family


class LaskersNim(HeapGame):
    """One heap of Lasker's Nim (a sum of them is several heaps)."""

    spec = "lasker"
    splits = True

    @cached_property
    def moves_spec(self) -> PartMoves:
        """Become one smaller heap (``0`` is nothing left), or two non-empty heaps summing to n."""
        return PartMoves(
            ((1, "a1 < n"), (2, "a1 + a2 == n and 1 <= a1 and a1 <= a2")),
            kernel="lasker",
        )

    def options(self, n: int) -> Iterator[Heaps]:
        for m in range(n):
            yield (m,) if m else ()
        for a in range(1, n // 2 + 1):
            yield (a, n - a)


@family(
    "lasker",
    "Lasker's Nim: heaps of tokens; take any number from one heap, "
    "or split a heap into two nonempty heaps",
    "lasker",
    aliases=("laskers-nim",),
)
def _lasker(args: str | None) -> LaskersNim:
    no_args("lasker", args)
    return LaskersNim()
