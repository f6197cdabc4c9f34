"""The miner's records: the tables it reads and the guesses it makes.

A mining run looks at one *family*: a spec, possibly with ``{param}``
placeholders, over a grid of parameter values and (for multi-heap games) of
heap counts. Each grid point has one table:

* :class:`HeapTable` - values of single heaps ``0..n_max`` (Grundy values, or
  misère nim-values for ``misere:`` games);
* :class:`PTable` - which positions of the box ``[0, max_heap]^heaps`` are
  P-positions.

A :class:`Guess` is one conjecture about a grid point or about the whole grid,
with the :class:`Evidence` that supports it. A guess is never a result: only
the verifier decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nimproof.claims.kinds import ClaimKindSpec, spec_of
from nimproof.games.base import Game

PointKey = tuple[tuple[tuple[str, int], ...], int | None]


def point_key(params: dict[str, int], heaps: int | None) -> PointKey:
    """The grid point of a table: its parameters (sorted by name) and heap count."""
    return (tuple(sorted(params.items())), heaps)


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class _GridTable:
    """What every table has: the game (spec and object) and its grid point's parameters."""

    spec: str
    game: Game
    params: dict[str, int] = field(default_factory=dict)

    @property
    def key(self) -> PointKey:
        """The grid point this table belongs to."""
        return point_key(self.params, self._heap_count())

    def _heap_count(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class HeapTable(_GridTable):
    """Values of single heaps ``0..len(values)-1`` of the game ``spec`` at one grid point."""

    values: np.ndarray

    @property
    def n_max(self) -> int:
        """The largest heap in the table."""
        return len(self.values) - 1


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class PTable(_GridTable):
    """P-positions of the box ``[0, max_heap]^heaps`` of the game ``spec`` at one grid point.

    ``p[i0, i1, ...]`` is True when the position with heaps ``(i0, i1, ...)``
    is a P-position (value 0).
    """

    heaps: int
    max_heap: int
    p: np.ndarray

    def _heap_count(self) -> int | None:
        return self.heaps


Table = HeapTable | PTable


@dataclass(frozen=True, slots=True)
class Evidence:
    """How much data supports a guess.

    ``fitted``: data points the guess was found on; ``held_out``: further
    points it then predicted (never used to find it); ``checked``: every data
    point the final formula was compared with (all of them reproduce);
    ``repetitions``: full periods seen (periodic guesses); ``grid_points``:
    parameter/heap-count combinations it covers; ``details``: relations,
    derivations and fits in words.
    """

    fitted: int
    held_out: int
    checked: int
    repetitions: float | None = None
    grid_points: int = 1
    details: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "terms_fitted": self.fitted,
            "held_out_predicted": self.held_out,
            "points_checked": self.checked,
            "grid_points": self.grid_points,
            "details": list(self.details),
        }
        if self.repetitions is not None:
            out["repetitions"] = round(self.repetitions, 2)
        return out

    def short(self) -> str:
        """One line for the ranked table."""
        parts = [f"fit {self.fitted}", f"held-out {self.held_out}"]
        if self.repetitions is not None:
            parts.append(f"{self.repetitions:.1f} periods")
        if self.grid_points > 1:
            parts.append(f"{self.grid_points} grid points")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Guess:
    """One mined conjecture, in the terms of the claim schema (README, "Conjecture files").

    ``game`` is a spec and may keep ``{param}`` placeholders when ``axes``
    names a grid (``params`` of the claim); ``heaps`` is the heap-count axis of
    a ``p_positions`` (or multi-heap ``grundy``) claim. ``template`` and
    ``constants`` are the formula with its integer literals abstracted, which
    is how guesses at different grid points are compared. ``cost`` is the
    description length used for ranking (smaller is simpler).
    """

    kind: str
    game: str | None
    guesser: str
    evidence: Evidence
    cost: float
    formula: str | None = None
    axes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    heaps: tuple[int, ...] = ()
    period: int | None = None
    preperiod: int | None = None
    saltus: int = 0
    witness: str | None = None
    variables: tuple[str, ...] = ()
    statement: str = ""
    template: str = ""
    constants: tuple[int, ...] = ()
    point: PointKey | None = None

    @property
    def spec(self) -> ClaimKindSpec:
        """The kind of claim this guess becomes (:mod:`nimproof.claims.kinds`; a ``note``,
        which becomes no claim, has the kind :data:`~nimproof.claims.kinds.UNKNOWN`)."""
        return spec_of(self.kind)

    @property
    def description(self) -> str:
        """The formula, or for a periodic guess the relation in words."""
        if self.spec.states_period:
            plus = f" + {self.saltus}" if self.saltus else ""
            return f"g(n + {self.period}) = g(n){plus} for n >= {self.preperiod}"
        return self.formula or ""

    def identity(self) -> tuple[Any, ...]:
        """What makes two guesses the same conjecture (used to drop duplicates)."""
        return (
            self.kind,
            self.game,
            self.formula,
            tuple(sorted(self.axes.items())),
            self.heaps,
            self.period,
            self.preperiod,
            self.saltus,
        )
