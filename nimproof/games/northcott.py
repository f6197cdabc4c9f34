"""Northcott's game, impartial form: a loopy game that is Nim in disguise.

A board has ``R`` rows; each row holds two pieces, one per player, facing
each other. A move slides the mover's own piece in one row, forwards
(towards the other piece, not past it) or backwards (towards the mover's
edge), by at least one square. Read from the point of view of the player to
move, a row is three numbers: the gap ``g`` between the pieces, the mover's
room ``m`` behind its own piece and the opponent's room ``o`` behind theirs.
A position is the tuple ``(g1, m1, o1, ..., gR, mR, oR)``; a move picks one
row and either advances (``g -> g - t``, ``m -> m + t``, ``1 <= t <= g``) or
retreats (``g -> g + t``, ``m -> m - t``, ``1 <= t <= m``), and then the
roles swap in every row (``m <-> o``) because the other player moves next.

A retreat undoes an advance, so a play may go on forever: the game is loopy
and has outcomes (win, loss, draw), not Grundy values. Each row's total
``g + m + o`` (the board's width less its two pieces) never changes.

This is the usual game (each player slides the pieces of their own colour,
T. S. Ferguson, *Game Theory*, Part I, the exercises of chapter 2, "Northcott's
Game"), written from the mover's side: the options of a position depend only
on these numbers, so the game is impartial in this form. **The classic
reduction** ("Nim with reversible moves", "bogus Nim"): the player to move
wins exactly when the xor of the gaps is not 0, and wins in finitely many
moves whatever the opponent does. nimproof states
and proves it for boards of 2, 3 and 4 rows of every width
(conjectures/classics/northcott.toml, docs/classics.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.args import parse_int
from nimproof.games.base import LoopyRelation, MultiHeapGame, Position, relation_predicate
from nimproof.games.registry import family

MAX_ROWS = 8


def relation(rows: int) -> str:
    """Northcott's moves on ``rows`` rows as a formula in ``h`` (before) and ``k`` (after).

    Row ``i`` is ``h[3i]`` (gap), ``h[3i+1]`` (mover's room), ``h[3i+2]``
    (opponent's room). In the moved row the gap changes, the mover's gap-plus-room
    is kept and becomes the opponent's side; every other row only swaps roles.
    """
    cases = []
    for i in range(rows):
        g, m, o = 3 * i, 3 * i + 1, 3 * i + 2
        row = [f"k[{g}] != h[{g}]", f"k[{g}] + k[{o}] == h[{g}] + h[{m}]", f"k[{m}] == h[{o}]"]
        others = [
            f"k[{3 * j}] == h[{3 * j}] and k[{3 * j + 1}] == h[{3 * j + 2}]"
            f" and k[{3 * j + 2}] == h[{3 * j + 1}]"
            for j in range(rows)
            if j != i
        ]
        cases.append("(" + " and ".join(row + others) + ")")
    return " or ".join(cases)


def answer(rows: int) -> tuple[str, ...]:
    """The winner's answer (the classic strategy) as formulas in ``x`` (the loser's position)
    and ``h`` (the winner's position, after the loser's move), one per number of the result.

    A retreat is undone: every gap goes back to its value in ``x``. After an advance the
    winner plays Nim's move in the first row whose gap xor the xor of all gaps is smaller
    than the gap. The winner's own piece moves, so after the swap the row reads (new gap,
    the loser's room, the winner's room plus the distance moved).
    """
    s = "(" + " ^ ".join(f"h[{3 * r}]" for r in range(rows)) + ")"
    retreated = " or ".join(f"h[{3 * r}] > x[{3 * r}]" for r in range(rows))
    nim = [f"((h[{3 * r}] ^ {s}) < h[{3 * r}])" for r in range(rows)]
    out: list[str] = []
    for r in range(rows):
        first = " and ".join([nim[r], *(f"not {nim[q]}" for q in range(r))])
        gap = (
            f"(x[{3 * r}] if ({retreated}) else ((h[{3 * r}] ^ {s}) if ({first}) else h[{3 * r}]))"
        )
        out += [gap, f"h[{3 * r + 2}]", f"h[{3 * r + 1}] + h[{3 * r}] - {gap}"]
    return tuple(out)


class Northcott(MultiHeapGame):
    """Northcott's game (impartial form) on ``rows`` rows; positions: ``3 * rows`` numbers."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.spec = f"northcott:{rows}"

    @cached_property
    def moves_spec(self) -> LoopyRelation:
        text = relation(self.rows)
        node = relation_predicate(text)
        rank = tuple(tuple(f"h[{3 * i + part}]" for i in range(self.rows)) for part in (0, 1))
        return LoopyRelation(3 * self.rows, node, text, rank, answer(self.rows))

    def moves(self, position: Position) -> Iterator[Position]:
        p = cast(tuple[int, ...], position)
        if len(p) != 3 * self.rows or any(x < 0 for x in p):
            raise UsageError(
                f"a position of {self.spec} is {3 * self.rows} numbers (gap, mover's room, "
                f"opponent's room per row), got {p}"
            )
        swapped = [x for i in range(self.rows) for x in (p[3 * i], p[3 * i + 2], p[3 * i + 1])]
        for i in range(self.rows):
            g, m, o = p[3 * i : 3 * i + 3]
            for t in [*range(1, g + 1), *range(-1, -m - 1, -1)]:
                q = list(swapped)
                q[3 * i : 3 * i + 3] = [g - t, o, m + t]
                yield tuple(q)


@family(
    "northcott",
    "Northcott's game: R rows, each with two facing pieces, one per player; slide one of your "
    "pieces forwards or backwards along its row (a play may go on forever); a position lists, "
    "for each row, the gap, your room behind your piece and your opponent's room",
    "northcott:2",
    multi_heap=True,
    needs="a number of rows",
)
def _northcott(args: str | None) -> Northcott:
    assert args  # the registry refuses a spec without it (``needs``)
    rows = parse_int(args, "the number of rows", low=1, high=MAX_ROWS)
    return Northcott(rows)
