"""The game model: what a family is, what a position is, what a move is.

Three shapes of game cover every family in nimproof:

* :class:`HeapGame` - a rule on one heap. A move replaces the heap by zero or
  more smaller heaps (subtraction games replace ``n`` by ``n - s``;
  take-and-break games may split it). Several heaps of heap games form a
  *disjunctive sum*, whose Grundy value is the xor of the heaps' values.
* :class:`MultiHeapGame` - a rule on a fixed number of heaps that is **not** a
  sum (Moore's Nim_k, staircase Nim, misère play, sums evaluated directly).
  Positions are tuples of heap sizes.
* :class:`PluginGame` - any impartial game written in Python: hashable
  positions and a ``moves`` function.

Every shape exposes :meth:`Game.moves`, the plain move generator that the
reference implementation (:mod:`nimproof.engines.reference`) and the
counterexample re-checks rely on. Fast engines may use more structure, but
they are always compared against this generator.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

Position = Hashable
Heaps = tuple[int, ...]


def mex(values: Iterator[int] | Sequence[int] | set[int]) -> int:
    """Return the least non-negative integer that is not among ``values``."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


@dataclass(frozen=True, slots=True)
class FamilyInfo:
    """How a family appears in ``nimproof games``: its name, a line about it, an example spec."""

    name: str
    summary: str
    example: str
    multi_heap: bool = False


class Game(ABC):
    """An impartial game under normal or misère play.

    Subclasses set :attr:`spec` to the canonical spec string, the one that
    :func:`nimproof.games.parse_spec` turns back into an equal game.
    """

    spec: str
    misere: bool = False

    @abstractmethod
    def moves(self, position: Position) -> Iterator[Position]:
        """Yield every position reachable in one move (duplicates allowed)."""

    def is_terminal(self, position: Position) -> bool:
        """True when no move is possible from ``position``."""
        return next(iter(self.moves(position)), None) is None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.spec))


class HeapGame(Game):
    """A one-heap rule; several heaps of it are a disjunctive sum.

    Subclasses implement :meth:`options`. Positions of the *game itself* are
    heap sizes (``int``); :meth:`moves` on an ``int`` yields the heaps left
    after the move as a sorted tuple of non-empty heaps (a position of the sum).
    """

    #: True when some move leaves two or more heaps (take-and-break games).
    splits: ClassVar[bool] = False

    #: Largest heap size for which this family is defined (None: unbounded).
    def max_heap_supported(self) -> int | None:
        return None

    @abstractmethod
    def options(self, n: int) -> Iterator[Heaps]:
        """Yield, for each move from a heap of ``n``, the heaps that replace it.

        Each result is a tuple of heap sizes, each smaller than ``n``; an empty
        tuple means the heap is removed, ``(m,)`` means it becomes ``m``
        (``m`` may be 0). Duplicates are allowed.
        """

    def moves(self, position: Position) -> Iterator[Position]:
        """Moves of a sum of heaps of this game.

        ``position`` is an ``int`` (one heap) or a tuple of heap sizes. The
        result is always a sorted tuple of the non-empty heaps that remain.
        """
        heaps = (position,) if isinstance(position, int) else tuple(position)  # type: ignore[arg-type]
        for i, n in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for parts in self.options(n):
                yield canonical_heaps(rest + parts)

    def heap_targets(self, n: int) -> Iterator[int]:
        """For a game that never splits, yield the heap sizes a move from ``n`` leaves."""
        if self.splits:
            raise TypeError(f"{self.spec} splits heaps; use options()")
        for parts in self.options(n):
            yield parts[0] if parts else 0


class MultiHeapGame(Game):
    """A game on a fixed number of heaps that is not a disjunctive sum.

    Positions are tuples of non-negative heap sizes of length ``heaps`` (the
    number of heaps is a property of the position, so one game object serves
    every count). :attr:`lowers_heaps` is True when every move lowers at least
    one heap and raises none, so that a box ``[0, B]^h`` is closed under moves.
    """

    lowers_heaps: ClassVar[bool] = True

    @abstractmethod
    def moves(self, position: Position) -> Iterator[Position]:
        """Yield the positions (tuples of the same length) one move away."""


class PluginGame(Game):
    """A game written in Python: the plugin interface.

    A plugin subclasses this, sets ``name``, ``summary`` and ``example`` and
    implements :meth:`moves` over hashable positions, :meth:`parse_position`
    (turn command-line words into a position) and :meth:`positions` (the
    positions up to a size bound, for tables). Register it under the entry
    point group ``nimproof.games`` or load it with ``--plugin FILE``.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    example: ClassVar[str] = ""
    #: Command-line words of one position, as :meth:`parse_position` reads them (for help texts).
    example_position: ClassVar[str] = ""

    def __init__(self) -> None:
        self.spec = f"plugin:{self.name}"

    @abstractmethod
    def parse_position(self, words: Sequence[str]) -> Position:
        """Turn command-line words into a position, raising ``UsageError`` when malformed."""

    @abstractmethod
    def positions(self, bound: int) -> Iterator[Position]:
        """Yield every position of size at most ``bound`` (the meaning of size is the game's)."""


def canonical_heaps(heaps: Sequence[int]) -> Heaps:
    """The canonical form of a sum of heaps: non-empty heaps, sorted ascending."""
    return tuple(sorted(h for h in heaps if h > 0))
