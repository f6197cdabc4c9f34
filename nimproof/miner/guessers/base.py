"""The one interface every guesser implements.

A guesser looks at tables and proposes conjectures. It may work on one grid
point at a time (:meth:`Guesser.guess_point`), on the whole grid with what the
point guessers found (:meth:`Guesser.guess_grid`), or both. A guesser never
decides truth: every guess it returns must reproduce the data it came from
(the pipeline checks this again) and carry its :class:`Evidence`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nimproof.miner.model import Guess, PointKey, Table


@dataclass(frozen=True, slots=True)
class Grid:
    """The tables of one family: the spec template and one table per grid point.

    ``axes`` are the parameter axes (``{"k": (1, ..., 8)}``), ``heaps`` the
    heap counts for P-position tables (empty for single-heap tables).
    """

    spec: str
    axes: dict[str, tuple[int, ...]]
    heaps: tuple[int, ...]
    tables: tuple[Table, ...]
    notes: list[str] = field(default_factory=list)

    @property
    def is_grid(self) -> bool:
        """True when there is more than one table."""
        return len(self.tables) > 1


class Guesser:
    """Base class of a guesser. Subclasses set :attr:`name` and override one or both hooks."""

    name: str = ""
    #: A fallback runs at a grid point only when no other guesser explained that point.
    fallback: bool = False

    def guess_point(self, table: Table) -> list[Guess]:
        """Guesses about one table (one grid point). The default proposes nothing."""
        return []

    def guess_grid(self, grid: Grid, found: Mapping[PointKey, Sequence[Guess]]) -> list[Guess]:
        """Guesses about the whole grid, given every point guess. The default proposes nothing."""
        return []
