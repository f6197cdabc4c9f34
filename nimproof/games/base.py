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
counterexample re-checks rely on.

Every family also *describes* its moves with :attr:`Game.moves_spec`, a small
frozen record defined here: a finite set of takes (:class:`FiniteTakes`), an
interval of targets whose bounds are linear in ``n`` (:class:`IntervalTakes`:
Nim, half-heap, take-fraction), membership in an infinite set
(:class:`SetTakes`), a relation ``rule:`` (:class:`RelationMoves`),
take-and-break digits (:class:`TakeAndBreak`), splitting into two unequal
heaps (:class:`SplitUnequal`), and the multi-heap shapes: one heap of each
component (:class:`OneHeapOfEach`), up to ``k`` heaps at once
(:class:`UpToKHeaps`), stair to stair (:class:`StairToStair`); a plugin's
moves are only its Python code (:class:`PythonMoves`). Misère play keeps the
description of its rule and sets :attr:`Game.misere`; :attr:`Game.normal` is
the same rule under normal play. Engines, provers, re-checks and plots decide
from the description and these flags, never from a family's class, so a new
family that fits an existing description is one module and a registry entry.
Fast engines use the description; they are always compared against
:meth:`Game.moves`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from nimproof.expr.nodes import Node

#: The model, as :mod:`nimproof.games` exports it.
__all__ = [
    "FamilyInfo",
    "FiniteTakes",
    "Game",
    "HeapGame",
    "Heaps",
    "IntervalTakes",
    "MoveSpec",
    "MultiHeapGame",
    "OneHeapOfEach",
    "PartMoves",
    "PluginGame",
    "Position",
    "PythonMoves",
    "RelationMoves",
    "SetTakes",
    "SplitUnequal",
    "StairToStair",
    "TakeAndBreak",
    "UpToKHeaps",
    "canonical_heaps",
    "mex",
]

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


# ---------------------------------------------------------------------------
# How a family moves


@dataclass(frozen=True, slots=True)
class FiniteTakes:
    """Take ``t`` tokens from one heap for ``t`` in a finite set: ``n -> n - t``."""

    takes: tuple[int, ...]
    splits: ClassVar[bool] = False

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        return 0 <= m < n and (n - m) in self.takes


@dataclass(frozen=True, slots=True)
class IntervalTakes:
    """Take 1 to ``floor(p*n/q)`` tokens: the targets of ``n`` are ``n - floor(p*n/q) <= m < n``.

    Nim is ``p = q = 1``; the half-heap game is ``1/2``.
    """

    p: int
    q: int
    splits: ClassVar[bool] = False

    @property
    def any_number(self) -> bool:
        """True for Nim's rule: any positive number of tokens."""
        return self.p == self.q

    def lowest(self, n: int) -> int:
        """The smallest heap one move from ``n`` reaches (``n`` itself when none)."""
        return n - (self.p * n) // self.q

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        return self.lowest(n) <= m < n


#: The infinite subtraction sets :class:`SetTakes` knows.
SET_KINDS = ("primes", "squares", "triangular", "multiples-of", "all-but")


@dataclass(frozen=True, slots=True)
class SetTakes:
    """Take any member of an infinite set: primes, squares, triangular numbers,
    multiples of ``modulus``, or every positive number except ``excluded``."""

    kind: str
    modulus: int = 0
    excluded: tuple[int, ...] = ()
    splits: ClassVar[bool] = False

    def contains(self, t: int) -> bool:
        """True when ``t`` is in the set."""
        if t <= 0:
            return False
        if self.kind == "primes":
            return t >= 2 and all(t % d for d in range(2, math.isqrt(t) + 1))
        if self.kind == "squares":
            return math.isqrt(t) ** 2 == t
        if self.kind == "triangular":
            r = math.isqrt(8 * t + 1)
            return r * r == 8 * t + 1
        if self.kind == "multiples-of":
            return t % self.modulus == 0
        if self.kind == "all-but":
            return t not in self.excluded
        raise AssertionError(self.kind)

    def members_up_to(self, n: int) -> list[int]:
        """The members that are at most ``n``, ascending."""
        return [t for t in range(1, n + 1) if self.contains(t)]

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        return 0 <= m < n and self.contains(n - m)


@dataclass(frozen=True, slots=True)
class RelationMoves:
    """A heap of ``n`` may become ``m`` when ``0 <= m < n`` and ``predicate(n, m)`` holds.

    ``predicate`` is an expression tree in ``n`` and ``m``; where it is
    undefined the move is illegal.
    """

    predicate: Node
    text: str
    splits: ClassVar[bool] = False

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        from nimproof.errors import EvalError
        from nimproof.expr.evaluate import evaluate

        if not 0 <= m < n:
            return False
        try:
            return bool(evaluate(self.predicate, {"n": n, "m": m}))
        except EvalError:
            return False


@dataclass(frozen=True, slots=True)
class TakeAndBreak:
    """An octal or hexadecimal code: ``digits[k]`` says what removing ``k`` tokens may leave
    (bit 1: nothing, 2: one heap, 4: two heaps, 8: three heaps)."""

    digits: tuple[int, ...]

    @property
    def splits(self) -> bool:
        """True when some move leaves two or more heaps."""
        return any(d & 0b1100 for d in self.digits)

    @property
    def last_index(self) -> int:
        """Index of the last non-zero digit."""
        return max(k for k, d in enumerate(self.digits) if d)


@dataclass(frozen=True, slots=True)
class SplitUnequal:
    """Split one heap into two non-empty heaps of different sizes (Grundy's game)."""

    splits: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PartMoves:
    """A one-heap rule whose moves leave heaps described by formulas.

    Each entry ``(k, formula)`` of ``shapes`` allows a heap of ``n`` to become
    the ``k`` heaps ``a1, ..., ak`` whenever ``formula`` (in ``n`` and
    ``a1..ak``, the expression language) holds; ``k = 0`` leaves nothing.
    ``runs``: a heap of ``n`` may also become the heaps ``j + 1, ..., n - 1``
    for each ``j < n`` (a run of coins, as in Ruler). Lasker's Nim and the
    coin-turning games are described this way; their ``options`` enumerate the
    same moves, and a test compares the two.
    """

    shapes: tuple[tuple[int, str], ...]
    runs: bool = False
    splits: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class OneHeapOfEach:
    """A disjunctive sum with one heap per component; a move is a move in one component."""

    components: tuple[HeapGame, ...]


@dataclass(frozen=True, slots=True)
class UpToKHeaps:
    """Lower between 1 and ``k`` heaps at once, each by any positive amount (Moore's Nim_k)."""

    k: int


@dataclass(frozen=True, slots=True)
class StairToStair:
    """Carry coins from one stair to the next one down; coins on the first stair leave."""


@dataclass(frozen=True, slots=True)
class PythonMoves:
    """Moves known only through the family's Python :meth:`Game.moves` (plugins)."""


HeapMoveSpec = (
    FiniteTakes | IntervalTakes | SetTakes | RelationMoves | TakeAndBreak | SplitUnequal | PartMoves
)
MultiMoveSpec = OneHeapOfEach | UpToKHeaps | StairToStair
MoveSpec = HeapMoveSpec | MultiMoveSpec | PythonMoves


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

    @property
    def moves_spec(self) -> MoveSpec:
        """What the moves are, as data (see the module docstring); misère keeps its rule's."""
        return PythonMoves()

    @property
    def normal(self) -> Game:
        """The same rule under normal play (the game itself unless it is misère)."""
        return self

    def position(self, heaps: Any) -> Position:
        """The position with these heaps, in the form :meth:`moves` takes.

        The identity for most families; a sum turns ``(a, b, ...)`` into one
        heap per component.
        """
        return heaps

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

    A plugin subclasses this, sets ``name``, ``summary`` and ``example_position``
    and implements :meth:`moves` over hashable positions, :meth:`parse_position`
    (turn command-line words into a position; :meth:`numbers` reads whole
    numbers) and :meth:`positions` (the positions up to a size bound, for
    tables). Register it under the entry point group ``nimproof.games`` or load
    it with ``--plugin FILE``.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    #: Its spec, ``plugin:NAME`` unless the plugin sets another.
    example: ClassVar[str] = ""
    #: Command-line words of one position, as :meth:`parse_position` reads them (for help texts).
    example_position: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.example and cls.name:
            cls.example = f"plugin:{cls.name}"

    def __init__(self) -> None:
        self.spec = f"plugin:{self.name}"

    @staticmethod
    def numbers(
        words: Sequence[str], usage: str, count: int | None = None, least: int = 0
    ) -> tuple[int, ...]:
        """The words as whole numbers of at least ``least`` (``count`` of them when given);
        otherwise a :class:`UsageError` saying ``usage``, how a position is written."""
        from nimproof.errors import UsageError

        ok = count is None or len(words) == count
        if not ok or not all(w.isascii() and w.isdigit() and int(w) >= least for w in words):
            raise UsageError(usage)
        return tuple(int(w) for w in words)

    @abstractmethod
    def parse_position(self, words: Sequence[str]) -> Position:
        """Turn command-line words into a position, raising ``UsageError`` when malformed."""

    @abstractmethod
    def positions(self, bound: int) -> Iterator[Position]:
        """Yield every position of size at most ``bound`` (the meaning of size is the game's)."""


def canonical_heaps(heaps: Sequence[int]) -> Heaps:
    """The canonical form of a sum of heaps: non-empty heaps, sorted ascending."""
    return tuple(sorted(h for h in heaps if h > 0))
