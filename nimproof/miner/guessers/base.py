"""The one interface every guesser implements.

A guesser looks at tables and proposes conjectures. It may work on one grid
point at a time (:meth:`Guesser.guess_point`), on the whole grid with what the
point guessers found (:meth:`Guesser.guess_grid`), or both. A guesser never
decides truth: every guess it returns must reproduce the data it came from
(the pipeline checks this again) and carry its :class:`Evidence`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nimproof.claims.kinds import Grundy
from nimproof.miner.formula import formula_cost, template
from nimproof.miner.model import Evidence, Guess, HeapTable, PointKey, Table
from nimproof.miner.relations import initial_words

#: The share of a one-heap table held out: guesses are found on the rest and must predict it.
HOLD_OUT = 0.25
#: Bases ``a`` of the index relations ``g(a n + r) = ...`` (regular and recurrence guessers).
BASES = (2, 3, 4)
#: Fewest instances of a relation seen on the fitted part before it is believed.
MIN_INSTANCES = 12
#: Largest ``m`` (or start index) from which a relation may hold; below it, exceptions.
MAX_START = 4


def fit_cut(size: int) -> int:
    """The first held-out heap of a table of ``size`` values: fit on ``[0, cut)``, predict the rest."""
    return size - max(1, int(size * HOLD_OUT))


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

    def why_not(self, table: Table) -> str | None:
        """Why this guesser explained nothing at ``table``: how far it got, in a few words.

        Called only for a table no guess explains; None when the guesser does not
        look at tables of this kind (it is then not listed).
        """
        return "found nothing"


class HeapGuesser(Guesser):
    """A guesser of one-heap tables: it looks at heaps below :func:`fit_cut` and predicts the rest.

    Subclasses implement :meth:`guess_heap`; ``normal_play_only`` skips misère tables.
    """

    normal_play_only: bool = False

    def guess_point(self, table: Table) -> list[Guess]:
        if not isinstance(table, HeapTable) or (self.normal_play_only and table.game.misere):
            return []
        return self.guess_heap(table, fit_cut(len(table.values)))

    def guess_heap(self, table: HeapTable, cut: int) -> list[Guess]:
        """Guesses about ``table`` found on heaps ``0..cut - 1``. The default proposes nothing."""
        return []

    def why_not(self, table: Table) -> str | None:
        if not isinstance(table, HeapTable):
            return None
        if self.normal_play_only and table.game.misere:
            return "not run: its rules are about normal play"
        return self.why_not_heap(table, fit_cut(len(table.values)))

    def why_not_heap(self, table: HeapTable, cut: int) -> str:
        """:meth:`why_not` for a one-heap table whose heaps below ``cut`` were fitted."""
        return "found nothing"


def residue_counts(found: Callable[[int, int], object | None], moduli: Sequence[int]) -> str:
    """``1 of 2 residues mod 2, 0 of 3 residues mod 3``: for how many ``found(a, r)`` is not None."""
    parts = []
    for a in moduli:
        hits = sum(found(a, r) is not None for r in range(a))
        parts.append(f"{hits} of {a} residues mod {a}")
    return ", ".join(parts)


class RecursiveGuesser(HeapGuesser):
    """A guesser whose rules become recursive definitions (normal play, aperiodic tables only).

    A table whose (saltus) period the periodic guesser finds and predicts is left
    to it. Subclasses implement :meth:`guess_rules`.
    """

    normal_play_only = True

    def guess_heap(self, table: HeapTable, cut: int) -> list[Guess]:
        # lazy: import cycle with nimproof.miner.guessers.periodic
        from nimproof.miner.guessers.periodic import predicted_periodicity

        if predicted_periodicity(table.values, cut) is not None:
            return []
        return self.guess_rules(table, cut)

    def guess_rules(self, table: HeapTable, cut: int) -> list[Guess]:
        """Guesses about an aperiodic ``table`` found on heaps ``0..cut - 1``."""
        return []

    def recursive_guess(
        self, table: HeapTable, what: str, described: str, formula: str, cut: int
    ) -> Guess:
        """The guess of a recursive definition ``formula``: its ``what`` (rules) read ``described``."""
        size = len(table.values)
        details = (
            f"{what} {described}: found on heaps 0..{cut - 1}, true on heaps up to {size - 1}",
            "a recursive definition (each rule reads smaller heaps), checked by the verifier",
        )
        statement = f"In {table.spec}: {described}{initial_words(formula)}."
        return predicted_guess(self.name, table, formula, cut, details, statement=statement)


def formula_guess(
    guesser: str,
    table: Table,
    formula: str,
    evidence: Evidence,
    *,
    kind: str = Grundy.name,
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


def predicted_guess(
    guesser: str,
    table: HeapTable,
    formula: str,
    fitted: int,
    details: tuple[str, ...],
    *,
    repetitions: float | None = None,
    **fields: Any,
) -> Guess:
    """:func:`formula_guess` for a one-heap formula found on heaps ``0..fitted - 1``.

    The evidence says it predicted the rest of the table (``held_out``) and
    that every value was compared (``checked``); the caller has checked that.
    """
    size = len(table.values)
    evidence = Evidence(
        fitted=fitted,
        held_out=size - fitted,
        checked=size,
        repetitions=repetitions,
        details=details,
    )
    return formula_guess(guesser, table, formula, evidence, **fields)


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
