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
(:class:`UpToKHeaps`), stair to stair (:class:`StairToStair`), a relation
between the heaps before and after a move (:class:`HeapsRelation`); a
plugin's moves are only its Python code (:class:`PythonMoves`). Misère play
keeps the description of its rule and sets :attr:`Game.misere`;
:attr:`Game.normal` is the same rule under normal play.

**The protocol.** Every record is a :class:`MoveDescription` and answers the
same questions, each with a generic default driven by the family's own
:meth:`Game.moves`:

* ``splits``, ``lowers_heaps``, ``nim`` - flags (a move may leave several
  heaps; no move raises a heap, so a box is closed; the rule is Nim's);
* ``legal(n, m)`` - one heap: is ``n -> m`` a move (None: ask the options);
* ``heap_formula()`` - one heap: the move relation as a formula in ``n``, ``m``;
* ``heap_count()`` - the number of heaps every position has, if fixed;
* ``parts(game, heaps)`` - the one-heap rules when a position is a
  disjunctive sum (None when moves involve several heaps at once);
* ``position_formula(heaps)`` - several heaps: the relation as a formula in
  the heaps before (``h``) and after (``k``);
* ``weights(heaps)`` - a linear measure every move lowers (induction runs on it);
* ``is_move(game, p, q)`` - the definition of one move of a position of heaps;
* ``move_bound(position)`` - how many moves a position has at most.

A description that has no formula raises :class:`NotAFormula` with the
reason, which proof methods report as "not expressible". Consumers ask these
questions and never test a record's class outside ``games/`` (a test
enforces it). Where a consumer has code of its own per description (a fast
kernel, a solver encoding), it dispatches with :func:`functools.singledispatch`
on the record, registered in the consumer, whose default is the generic path:
so a new family whose moves fit a record is one module and a registry line,
and a new record works everywhere through the defaults before any consumer
learns it. Fast engines use the description; they are always compared
against :meth:`Game.moves`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from nimproof.errors import EvalError, UsageError

if TYPE_CHECKING:
    from nimproof.expr.nodes import Node

#: The model, as :mod:`nimproof.games` exports it.
__all__ = [
    "DESCRIBED_HEAPS",
    "FamilyInfo",
    "FiniteTakes",
    "Game",
    "GameDescription",
    "HeapGame",
    "Heaps",
    "HeapsRelation",
    "IntervalTakes",
    "LoopyRelation",
    "MoveDescription",
    "MoveSpec",
    "MultiHeapGame",
    "NotAFormula",
    "OneHeapOfEach",
    "PartMoves",
    "PluginGame",
    "Position",
    "PositionRelation",
    "PythonMoves",
    "RelationMoves",
    "SetTakes",
    "SplitUnequal",
    "StairToStair",
    "TakeAndBreak",
    "UnequalSplits",
    "UpToKHeaps",
    "canonical_heaps",
    "heap_move",
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
# How a family moves: the protocol every description answers


class NotAFormula(Exception):
    """A description has no formula of its move relation; the message says why."""


class MoveDescription:
    """What every move description answers (see the module docstring).

    Each answer has a generic default, driven by the family's own
    :meth:`Game.moves`; a record overrides what it knows better. Consumers ask
    these methods instead of testing the record's class.
    """

    __slots__ = ()

    #: True when some move leaves two or more heaps (take-and-break games).
    splits: ClassVar[bool] = False
    #: True when a box ``[0, B]^h`` is closed under moves (no move raises a heap).
    lowers_heaps: ClassVar[bool] = True
    #: True when a play may go on forever (a loopy game): there are no Grundy values, only
    #: outcomes (win, loss, draw); engines and the finite-game methods refuse such a game.
    loopy: ClassVar[bool] = False

    @property
    def nim(self) -> bool:
        """True for Nim's rule on one heap: any positive number of tokens."""
        return False

    @property
    def unequal_split(self) -> bool:
        """True for Grundy's game's rule: split one heap into two unequal heaps."""
        return False

    @property
    def max_parts(self) -> int:
        """The most heaps one move may leave in place of one heap."""
        return 2 if self.splits else 1

    def unequal_split_digits(self) -> tuple[int, ...] | None:
        """One heap: the code's digits (bits 1, 2, 4 only) when the moves are a two-way
        take-and-break code whose every split leaves two *unequal* heaps; None otherwise."""
        return None

    def finite_takes(self) -> tuple[int, ...] | None:
        """One heap: the takes when the moves are ``n -> n - t`` for ``t`` in a finite set."""
        return None

    def octal_digits(self) -> tuple[int, ...] | None:
        """One heap: the take-and-break code's digits, when the moves are given by one."""
        return None

    def legal(self, n: int, m: int) -> bool | None:
        """One heap: True when a heap of ``n`` may become one heap of ``m``; None when only
        the family's :meth:`HeapGame.options` know (the caller enumerates them)."""
        return None

    def heap_formula(self) -> str:
        """One heap: a formula in ``n`` and ``m`` that holds, for ``m < n``, exactly on the
        moves ``n -> m``; raises :class:`NotAFormula` with the reason when there is none."""
        raise NotAFormula("its moves are not a relation between one heap before and after")

    def heap_count(self) -> int | None:
        """The number of heaps every position has, when the description fixes it."""
        return None

    def parts(self, game: Game, heaps: int) -> tuple[HeapGame, ...] | None:
        """When a position of ``heaps`` heaps is a disjunctive sum of one-heap rules, those
        rules (one per heap); None otherwise (the moves involve several heaps)."""
        base = game.normal
        return (base,) * heaps if isinstance(base, HeapGame) else None

    def heap_formulas(self, game: Game, heaps: int) -> tuple[str, ...] | None:
        """The relation text (:meth:`heap_formula`) of each heap's rule when a position of
        ``heaps`` heaps is a sum of one-heap rules (:meth:`parts`), asked once per distinct
        rule, all in one call; None when it is not such a sum."""
        comps = self.parts(game, heaps)
        if comps is None:
            return None
        texts: dict[str, str] = {}
        for comp in comps:
            if comp.spec not in texts:
                texts[comp.spec] = comp.moves_spec.heap_formula()
        return tuple(texts[comp.spec] for comp in comps)

    def position_formula(self, heaps: int) -> str:
        """Several heaps: a formula in the heaps before (``h``) and after (``k``) that holds
        exactly on the moves ``h -> k``; raises :class:`NotAFormula` when there is none."""
        raise NotAFormula("its moves are not given as a formula over the heaps")

    def weights(self, heaps: int) -> tuple[int, ...]:
        """Positive weights ``w`` such that every move lowers ``sum(w[i] * h[i])``
        (the well-founded measure induction runs on)."""
        return (1,) * heaps

    def is_move(self, game: Game, p: Heaps, q: Heaps, budget: int = 1_000_000) -> bool:
        """True when ``p -> q`` is one move of a position of fixed-length heaps, by the
        family's definition. Raises ``ValueError`` when deciding it would enumerate more than
        ``budget`` moves."""
        if len(p) != len(q) or any(x < 0 for x in q):
            return False
        rules = self.parts(game, len(p))
        if rules is not None:
            changed = [i for i in range(len(p)) if q[i] != p[i]]
            return len(changed) == 1 and heap_move(rules[changed[0]], p[changed[0]], q[changed[0]])
        if self.move_bound(p) > budget:
            raise ValueError(f"cannot decide a move of {game.spec} from {p}: too many moves")
        return any(tuple(r) == q for r in game.normal.moves(p))  # type: ignore[arg-type]

    def move_bound(self, position: Sequence[int]) -> float:
        """An upper bound on the number of moves from a position of heaps (inf: unknown)."""
        return float("inf")

    def lists_targets(self) -> bool:
        """One heap: True when a heap's targets are listed without testing every smaller heap."""
        return self.finite_takes() is not None

    def described(self, game: Game, normal: Game, heaps: int | None) -> GameDescription:
        """The answers of this description for ``game`` (``normal``: its rule under normal
        play), with ``heaps`` heaps when the claim gives them, in one record
        (:class:`GameDescription`)."""
        fixed = self.heap_count()
        count = heaps if heaps is not None else fixed
        along = count or 1 if (count or 1) <= DESCRIBED_HEAPS else 0
        parts: tuple[HeapGame, ...] | None = None
        relations: tuple[str, ...] | None = None
        error: Exception | None = None
        if along:
            parts = self.parts(game, along)
            try:
                relations = self.heap_formulas(game, along)
            except Exception as exc:  # kept, and raised where a method asks for the relation
                error = exc
        return GameDescription(
            game,
            normal,
            self,
            count,
            fixed,
            along,
            parts,
            relations,
            error,
            self.nim,
            self.finite_takes(),
            self.lists_targets(),
        )


#: Most heaps a :class:`GameDescription` lists the parts and relations of (more: none listed,
#: and a method asks the game itself).
DESCRIBED_HEAPS = 4096


@dataclass(frozen=True, slots=True)
class GameDescription:
    """What the proof methods and the re-checks ask of one claim's game, answered once when
    the claim is prepared (:meth:`Game.describe`) and handed to each as plain data.

    ``heaps``: the claim's number of heaps, else the one the description fixes (None: any);
    ``parts`` and ``relations`` answer :meth:`MoveDescription.parts` and
    :meth:`MoveDescription.heap_formulas` for ``parts_heaps`` heaps (``heaps``, or 1; 0 when
    more than :data:`DESCRIBED_HEAPS`: none listed), and
    ``relation_error`` is what asking the relations raised (a :class:`NotAFormula`, kept to
    be raised where a method needs them). ``nim``, ``takes`` and ``lists_targets`` are the
    one-heap rule's answers. Fields only: reading one calls nothing.
    """

    game: Game
    normal: Game
    moves: MoveDescription
    heaps: int | None
    fixed_heaps: int | None
    parts_heaps: int
    parts: tuple[HeapGame, ...] | None
    relations: tuple[str, ...] | None
    relation_error: Exception | None
    nim: bool
    takes: tuple[int, ...] | None
    lists_targets: bool


def heap_move(game: HeapGame, n: int, m: int, budget: int = 10_000) -> bool:
    """True when one heap of ``n`` may become one heap of ``m`` by ``game``'s definition
    (its description's :meth:`~MoveDescription.legal`, else its options for ``n <= budget``)."""
    if not 0 <= m < n:
        return False
    known = game.moves_spec.legal(n, m)
    if known is not None:
        return known
    if n <= budget:
        return any((parts[0] if parts else 0) == m and len(parts) <= 1 for parts in game.options(n))
    raise ValueError(f"cannot decide a move of {game.spec} from a heap of {n}")


@dataclass(frozen=True, slots=True)
class FiniteTakes(MoveDescription):
    """Take ``t`` tokens from one heap for ``t`` in a finite set: ``n -> n - t``."""

    takes: tuple[int, ...]

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        return 0 <= m < n and (n - m) in self.takes

    def finite_takes(self) -> tuple[int, ...]:
        return self.takes

    def heap_formula(self) -> str:
        runs: list[list[int]] = []
        for t in sorted(self.takes):
            if runs and t == runs[-1][1] + 1:
                runs[-1][1] = t
            else:
                runs.append([t, t])
        if len(runs) > 64:
            raise NotAFormula("a subtraction set with more than 64 separate runs")
        return " or ".join(f"n - m == {a}" if a == b else f"{a} <= n - m <= {b}" for a, b in runs)


@dataclass(frozen=True, slots=True)
class IntervalTakes(MoveDescription):
    """Take 1 to ``floor(p*n/q)`` tokens: the targets of ``n`` are ``n - floor(p*n/q) <= m < n``.

    Nim is ``p = q = 1``; the half-heap game is ``1/2``.
    """

    p: int
    q: int

    @property
    def any_number(self) -> bool:
        """True for Nim's rule: any positive number of tokens."""
        return self.p == self.q

    @property
    def nim(self) -> bool:
        return self.any_number

    def lists_targets(self) -> bool:
        return True

    def lowest(self, n: int) -> int:
        """The smallest heap one move from ``n`` reaches (``n`` itself when none)."""
        return n - (self.p * n) // self.q

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        return self.lowest(n) <= m < n

    def heap_formula(self) -> str:
        return "True" if self.any_number else f"{self.q} * (n - m) <= {self.p} * n"


#: The infinite subtraction sets :class:`SetTakes` knows.
SET_KINDS = ("primes", "squares", "triangular", "multiples-of", "all-but")


@dataclass(frozen=True, slots=True)
class SetTakes(MoveDescription):
    """Take any member of an infinite set: primes, squares, triangular numbers,
    multiples of ``modulus``, or every positive number except ``excluded``."""

    kind: str
    modulus: int = 0
    excluded: tuple[int, ...] = ()

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

    def heap_formula(self) -> str:
        if self.kind == "multiples-of":
            return f"(n - m) % {self.modulus} == 0"
        if self.kind == "all-but":
            return " and ".join(f"n - m != {e}" for e in self.excluded) or "True"
        raise NotAFormula(f"the subtraction set {self.kind} is not regular in binary")


@dataclass(frozen=True, slots=True)
class RelationMoves(MoveDescription):
    """A heap of ``n`` may become ``m`` when ``0 <= m < n`` and ``predicate(n, m)`` holds.

    ``predicate`` is an expression tree in ``n`` and ``m``; where it is
    undefined the move is illegal.
    """

    predicate: Node
    text: str

    def legal(self, n: int, m: int) -> bool:
        """True when a heap of ``n`` may become a heap of ``m``."""
        from nimproof.expr.evaluate import evaluate  # lazy: start-up time (numpy)

        if not 0 <= m < n:
            return False
        try:
            return bool(evaluate(self.predicate, {"n": n, "m": m}))
        except EvalError:
            return False

    def heap_formula(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class TakeAndBreak(MoveDescription):
    """An octal or hexadecimal code: ``digits[k]`` says what removing ``k`` tokens may leave
    (bit 1: nothing, 2: one heap, 4: two heaps, 8: three heaps)."""

    digits: tuple[int, ...]

    @property
    def splits(self) -> bool:  # type: ignore[override]
        """True when some move leaves two or more heaps."""
        return any(d & 0b1100 for d in self.digits)

    @property
    def last_index(self) -> int:
        """Index of the last non-zero digit."""
        return max(k for k, d in enumerate(self.digits) if d)

    @property
    def max_parts(self) -> int:
        return 3 if any(d & 8 for d in self.digits) else 2 if self.splits else 1

    @property
    def octal(self) -> bool:
        """True for an octal code: no digit before the point, no three-heap splits."""
        return self.digits[0] == 0 and all(d < 8 for d in self.digits)

    def octal_digits(self) -> tuple[int, ...]:
        return self.digits

    def heap_formula(self) -> str:
        if self.splits:
            raise NotAFormula("its moves split heaps, so a position has no fixed number of heaps")
        raise NotAFormula("no formula is derived from take-and-break digits")


@dataclass(frozen=True, slots=True)
class SplitUnequal(MoveDescription):
    """Split one heap into two non-empty heaps of different sizes (Grundy's game)."""

    splits: ClassVar[bool] = True

    @property
    def unequal_split(self) -> bool:
        return True

    def unequal_split_digits(self) -> tuple[int, ...]:
        return (4,)

    def heap_formula(self) -> str:
        raise NotAFormula("its moves split heaps, so a position has no fixed number of heaps")


@dataclass(frozen=True, slots=True)
class UnequalSplits(MoveDescription):
    """A two-way take-and-break code whose every split leaves two unequal heaps (CGSuite's
    ``!`` on every digit that splits): ``digits[k]`` as in :class:`TakeAndBreak`, bits 1, 2, 4."""

    digits: tuple[int, ...]
    splits: ClassVar[bool] = True

    def unequal_split_digits(self) -> tuple[int, ...]:
        return self.digits

    def heap_formula(self) -> str:
        raise NotAFormula("its moves split heaps, so a position has no fixed number of heaps")


@dataclass(frozen=True, slots=True)
class PartMoves(MoveDescription):
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
    #: A fast table kernel for exactly these moves, by name (``nimproof.engines.part_kernels``);
    #: empty: the generic engine over the family's options.
    kernel: str = ""
    splits: ClassVar[bool] = True

    def heap_formula(self) -> str:
        raise NotAFormula(
            "its moves may leave several heaps, so a position has no fixed number of heaps"
        )


@dataclass(frozen=True, slots=True)
class OneHeapOfEach(MoveDescription):
    """A disjunctive sum with one heap per component; a move is a move in one component."""

    components: tuple[HeapGame, ...]

    def heap_count(self) -> int:
        return len(self.components)

    def parts(self, game: Game, heaps: int) -> tuple[HeapGame, ...] | None:
        return self.components if heaps == len(self.components) else None


@dataclass(frozen=True, slots=True)
class UpToKHeaps(MoveDescription):
    """Lower between 1 and ``k`` heaps at once, each by any positive amount (Moore's Nim_k)."""

    k: int

    def parts(self, game: Game, heaps: int) -> None:
        return None

    def position_formula(self, heaps: int) -> str:
        lowered = " + ".join(f"(1 if k[{i}] < h[{i}] else 0)" for i in range(heaps))
        kept = " and ".join(f"k[{i}] <= h[{i}]" for i in range(heaps))
        return f"{kept} and 1 <= {lowered} <= {self.k}"

    def is_move(self, game: Game, p: Heaps, q: Heaps, budget: int = 1_000_000) -> bool:
        if len(p) != len(q) or any(x < 0 for x in q):
            return False
        lowered = [i for i in range(len(p)) if q[i] < p[i]]
        return all(q[i] <= p[i] for i in range(len(p))) and 1 <= len(lowered) <= self.k

    def move_bound(self, position: Sequence[int]) -> float:
        # elementary symmetric sums e_1 .. e_k of the heap sizes
        e = [1.0] + [0.0] * self.k
        for x in position:
            for j in range(self.k, 0, -1):
                e[j] += e[j - 1] * int(x)
        return sum(e[1:])


@dataclass(frozen=True, slots=True)
class StairToStair(MoveDescription):
    """Carry coins from one stair to the next one down; coins on the first stair leave."""

    lowers_heaps: ClassVar[bool] = False

    def parts(self, game: Game, heaps: int) -> None:
        return None

    def weights(self, heaps: int) -> tuple[int, ...]:
        return tuple(range(1, heaps + 1))

    def is_move(self, game: Game, p: Heaps, q: Heaps, budget: int = 1_000_000) -> bool:
        if len(p) != len(q) or any(x < 0 for x in q):
            return False
        diff = [i for i in range(len(p)) if q[i] != p[i]]
        if not diff:
            return False
        top = max(diff)
        c = p[top] - q[top]
        if c <= 0:
            return False
        if top == 0:
            return diff == [0]
        return diff == [top - 1, top] and q[top - 1] - p[top - 1] == c

    def move_bound(self, position: Sequence[int]) -> float:
        return float(sum(int(x) for x in position))


@dataclass(frozen=True, slots=True)
class PositionRelation(MoveDescription):
    """What :class:`HeapsRelation` and :class:`LoopyRelation` share: ``h -> k`` is a move of a
    position of ``heaps`` numbers when ``predicate`` holds (``text`` is its source), a formula
    in the numbers before (``h``) and after (``k``); where it is undefined the move is illegal."""

    heaps: int
    predicate: Node
    text: str

    def heap_count(self) -> int:
        return self.heaps

    def parts(self, game: Game, heaps: int) -> None:
        return None

    def position_formula(self, heaps: int) -> str:
        if heaps != self.heaps:
            raise NotAFormula(f"its positions have {self.heaps} heaps, not {heaps}")
        return self.text

    def holds(self, p: Sequence[int], q: Sequence[int]) -> bool:
        """True when the relation holds from ``p`` to ``q`` (exact evaluation)."""
        from nimproof.expr.evaluate import evaluate  # lazy: start-up time (numpy)

        try:
            return bool(evaluate(self.predicate, {"h": tuple(p), "k": tuple(q)}))
        except EvalError:
            return False

    def is_move(self, game: Game, p: Heaps, q: Heaps, budget: int = 1_000_000) -> bool:
        if len(p) != self.heaps or len(q) != self.heaps or any(x < 0 for x in q):
            return False
        return self.holds(p, q)


def relation_predicate(text: str) -> Node:
    """The move predicate ``text`` of a relation, a formula in the heaps before (``h``) and
    after (``k``) a move, parsed (a malformed one raises the formula language's error)."""
    from nimproof.expr import parse  # lazy: start-up time (numpy)

    return parse(text, sequences=("h", "k"), result="bool")


@dataclass(frozen=True, slots=True)
class HeapsRelation(PositionRelation):
    """Several heaps moved together: ``h -> k`` is a move when ``predicate`` holds, a formula
    in the heaps before (``h``) and after (``k``) of a position of ``heaps`` heaps.

    ``weights`` is a measure every move lowers (``sum(w[i] * h[i])``, checked
    when the game is made); ``lowers_heaps`` says whether no move raises a heap.
    Where the predicate is undefined the move is illegal.
    """

    weight: tuple[int, ...] = ()
    raises: bool = False

    @property
    def lowers_heaps(self) -> bool:  # type: ignore[override]
        return not self.raises

    def weights(self, heaps: int) -> tuple[int, ...]:
        return self.weight or (1,) * heaps

    def move_bound(self, position: Sequence[int]) -> float:
        """The positions below this one: in the box under it when no move raises a heap, else
        those of smaller measure."""
        if not self.raises:
            return float(math.prod(int(x) + 1 for x in position) - 1)
        w = self.weights(len(position))
        top = sum(a * int(x) for a, x in zip(w, position, strict=True))
        return float(math.prod(top // a + 1 for a in w))


@dataclass(frozen=True, slots=True)
class LoopyRelation(PositionRelation):
    """A loopy game on ``heaps`` numbers: ``h -> k`` is a move when ``predicate`` holds (a
    formula in the numbers before, ``h``, and after, ``k``), and a play may go on forever.

    Such a game has outcomes (the player to move wins, loses, or neither can
    force a win: a draw), not Grundy values; only methods registered for loopy
    games decide its claims (:mod:`nimproof.provers.loopy`). ``rank`` is the
    family's proposed ranking for the winner's strategy (levels of formulas in
    ``h``, see that module), used when a claim names none, and ``answer`` the
    winner's answer to a move (one formula per number, in ``x`` before and ``h``
    after the loser's move); both are hints that the proof checks, never trusted.
    """

    rank: tuple[tuple[str, ...], ...] = ()
    answer: tuple[str, ...] = ()
    loopy: ClassVar[bool] = True
    lowers_heaps: ClassVar[bool] = False

    def weights(self, heaps: int) -> tuple[int, ...]:

        raise UsageError(
            "a loopy game (a play may go on forever) has no measure every move lowers, so no "
            "Grundy values; its outcomes are decided by `nimproof check` with the loopy method"
        )

    def move_bound(self, position: Sequence[int]) -> float:
        return float(sum(int(x) for x in position) * len(position))


@dataclass(frozen=True, slots=True)
class PythonMoves(MoveDescription):
    """Moves known only through the family's Python :meth:`Game.moves` (plugins)."""

    def parts(self, game: Game, heaps: int) -> None:
        return None


HeapMoveSpec = (
    FiniteTakes
    | IntervalTakes
    | SetTakes
    | RelationMoves
    | TakeAndBreak
    | SplitUnequal
    | UnequalSplits
    | PartMoves
)
MultiMoveSpec = OneHeapOfEach | UpToKHeaps | StairToStair | HeapsRelation | LoopyRelation
MoveSpec = MoveDescription


class Game(ABC):
    """An impartial game under normal or misère play.

    Subclasses set :attr:`spec` to the canonical spec string, the one that
    :func:`nimproof.games.parse_spec` turns back into an equal game.
    """

    spec: str
    misere: bool = False
    #: Why misère play of this rule is not the game the family models ("" when it is).
    no_misere: ClassVar[str] = ""

    @abstractmethod
    def moves(self, position: Position) -> Iterator[Position]:
        """Yield every position reachable in one move (duplicates allowed)."""

    @cached_property
    def moves_spec(self) -> MoveSpec:
        """What the moves are, as data (see the module docstring); misère keeps its rule's."""
        return PythonMoves()

    @cached_property
    def normal(self) -> Game:
        """The same rule under normal play (the game itself unless it is misère)."""
        return self

    def described(self, heaps: int | None = None) -> GameDescription:
        """This game's :class:`GameDescription` for claims over ``heaps`` heaps (None: the
        count its description fixes, or one heap), in one call."""
        return self.moves_spec.described(self, self.normal, heaps)

    def position(self, heaps: Any) -> Position:
        """The position with these heaps, in the form :meth:`moves` takes.

        The identity for most families; a sum turns ``(a, b, ...)`` into one
        heap per component.
        """
        return heaps

    def is_terminal(self, position: Position) -> bool:
        """True when no move is possible from ``position``."""
        return next(iter(self.moves(position)), None) is None

    def terminal_heaps(self, heaps: Sequence[int]) -> bool:
        """True when the position with these heaps (:meth:`position`) has no move, in one call."""
        return self.is_terminal(self.position(tuple(heaps)))

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

    def target_list(self, n: int) -> list[int]:
        """:meth:`heap_targets` listed in one call: ascending, each heap size once."""
        return sorted(set(self.heap_targets(n)))

    def heap_terminal(self, n: int) -> bool:
        """True when a heap of ``n`` has no move (a game that never splits)."""
        return next(iter(self.heap_targets(n)), None) is None

    def terminal_heaps(self, heaps: Sequence[int]) -> bool:
        # a sum of heaps has no move exactly when no heap has one
        for n in heaps:
            for _ in self.options(int(n)):
                return False
        return True


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
