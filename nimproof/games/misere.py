"""Misère play of any family: the player who cannot move wins.

The table of a misère heap game holds misère nim-values (CGSuite's
``MisereNimValue``): 1 at a terminal position, otherwise the mex over the
options. They are not additive, so positions with several heaps are always
evaluated as a whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any

from nimproof.errors import SpecError
from nimproof.games.base import Game, HeapGame, MoveSpec, Position, canonical_heaps
from nimproof.games.registry import of_games


class Misere(Game):
    """Misère play of ``base``; positions are the base game's (an ``int`` heap is one heap)."""

    misere = True

    def __init__(self, base: Game) -> None:
        if base.misere:
            raise SpecError("misère of a misère game is not supported")
        if base.no_misere:
            raise SpecError(f"misère {base.spec} is not supported: {base.no_misere}")
        self.base = base
        self.spec = f"misere:{base.spec}"

    @cached_property
    def moves_spec(self) -> MoveSpec:
        return self.base.moves_spec

    @cached_property
    def normal(self) -> Game:
        return self.base

    def position(self, heaps: Any) -> Position:
        return self.base.position(heaps)

    def terminal_heaps(self, heaps: Sequence[int]) -> bool:
        # the same moves as its rule's (only who wins at the end differs)
        return self.base.terminal_heaps(heaps)

    @property
    def heap_base(self) -> HeapGame | None:
        """The base game when it is a one-heap rule (positions are then multisets of heaps)."""
        return self.base if isinstance(self.base, HeapGame) else None

    def moves(self, position: Position) -> Iterator[Position]:
        if self.heap_base is not None:
            heaps = (position,) if isinstance(position, int) else canonical_heaps(position)  # type: ignore[arg-type]
            yield from self.base.moves(heaps)
        else:
            yield from self.base.moves(position)


@of_games(
    "misere",
    "any game played so that whoever makes the last move loses (tables hold misère nim-values)",
    "misere:nim",
    what="the spec of a family",
    aliases=("misère",),
    multi_heap=False,
)
def _misere(games: list[Game]) -> Misere:
    return Misere(games[0])
