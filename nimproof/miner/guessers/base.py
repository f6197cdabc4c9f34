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
from typing import Any

from nimproof.miner.formula import formula_cost, template
from nimproof.miner.model import Evidence, Guess, PointKey, Table


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


def formula_guess(
    guesser: str,
    table: Table,
    formula: str,
    evidence: Evidence,
    *,
    kind: str = "grundy",
    statement: str | None = None,
    cost: float | None = None,
    **fields: Any,
) -> Guess:
    """A guess of ``formula`` about one table (one grid point).

    The game, the grid point, the template and constants (the formula with its
    integer literals abstracted) and the cost come from the table and the
    formula (unless given); a ``grundy`` guess gets the usual statement unless one is
    given.
    """
    tpl, consts = template(formula)
    if statement is None:
        statement = f"The value of a heap of n in {table.spec} is {formula}."
    return Guess(
        kind=kind,
        game=table.spec,
        guesser=guesser,
        evidence=evidence,
        cost=formula_cost(formula) if cost is None else cost,
        formula=formula,
        statement=statement,
        template=tpl,
        constants=consts,
        point=table.key,
        **fields,
    )


def note(guesser: str, table: Table, text: str) -> Guess:
    """A note about one table (not a conjecture), kept for the summary."""
    return Guess(
        kind="note",
        game=table.spec,
        guesser=guesser,
        evidence=Evidence(fitted=0, held_out=0, checked=0, details=(text,)),
        cost=float("inf"),
        statement=text,
        point=table.key,
    )
