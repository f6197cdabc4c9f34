"""Disjunctive sums of heap games with one family per heap (seed 004's game 8).

``sum:A+B+C`` is a position with one heap of family A, one of B and one of C;
a move is a move in exactly one component. A component that splits (a
take-and-break game) turns its heap into several heaps of the same family,
so a position is a tuple with, per component, a sorted tuple of its heaps.
Inside a sum, write a ``rule:`` component in parentheses: ``sum:nim+(rule:m < n)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import cast

from nimproof.errors import SpecError
from nimproof.games.base import (
    Game,
    HeapGame,
    Heaps,
    MultiHeapGame,
    OneHeapOfEach,
    Position,
    canonical_heaps,
)
from nimproof.games.registry import of_games


class Sum(MultiHeapGame):
    """The disjunctive sum of one heap of each component family."""

    def __init__(self, components: Sequence[HeapGame]) -> None:
        if len(components) < 2:
            raise SpecError("a sum needs at least two components, e.g. 'sum:nim+kayles'")
        self.components = tuple(components)
        self.spec = "sum:" + "+".join(
            f"({c.spec})" if c.spec.startswith("rule:") else c.spec for c in self.components
        )

    @cached_property
    def moves_spec(self) -> OneHeapOfEach:
        return OneHeapOfEach(self.components)

    def position(self, heaps: Sequence[int]) -> Position:
        """The position with heap ``heaps[i]`` in component ``i``."""
        if len(heaps) != len(self.components):
            raise SpecError(f"{self.spec} needs {len(self.components)} heaps, got {len(heaps)}")
        return tuple(canonical_heaps((h,)) for h in heaps)

    def moves(self, position: Position) -> Iterator[Position]:
        parts = cast(tuple[Heaps, ...], position)
        for i, (game, heaps) in enumerate(zip(self.components, parts, strict=True)):
            for after in game.moves(heaps):
                yield (*parts[:i], after, *parts[i + 1 :])


def sum_of(components: Sequence[HeapGame]) -> Game:
    """The disjunctive sum with one heap of each component (at least two)."""
    return Sum(components)


def split_top_level(text: str, sep: str) -> list[str]:
    """Split ``text`` at ``sep`` outside parentheses and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _unwrap(text: str) -> str:
    t = text.strip()
    while t.startswith("(") and t.endswith(")") and split_top_level(t[1:-1], "\0") == [t[1:-1]]:
        inner = t[1:-1].strip()
        # Only unwrap when the parentheses enclose the whole component.
        depth = 0
        balanced = True
        for ch in inner:
            depth += ch == "("
            depth -= ch == ")"
            if depth < 0:
                balanced = False
                break
        if not balanced:
            break
        t = inner
    return t


@of_games(
    "sum",
    "several games side by side, one heap each; a move is made in one of them",
    "sum:knim:3+half-heap+kayles",
    split=lambda text: [_unwrap(part) for part in split_top_level(text, "+")],
    what="components joined by '+'",
    multi_heap=True,
)
def _sum(components: list[Game]) -> Sum:
    heap_games: list[HeapGame] = []
    for c in components:
        if not isinstance(c, HeapGame):
            raise SpecError(f"a sum component must be a one-heap family, not {c.spec!r}")
        heap_games.append(c)
    return Sum(heap_games)
