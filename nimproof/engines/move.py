"""One move of a position, as ``nimproof value`` and :func:`~nimproof.engines.winning_moves` report it.

Kept in a module of its own (no numpy, no numba) so that valuing Nim by
Bouton's theorem starts instantly.
"""

from __future__ import annotations

from dataclasses import dataclass

from nimproof.games.base import Position


@dataclass(frozen=True, slots=True)
class Move:
    """One move: the position it leads to and, when one heap changed, which and how.

    ``target`` has the form of the game's positions: for heap games the
    tuple of heaps after the move (the moved heap replaced in place by the
    heaps it became, so a removed heap disappears when the rule removes it
    outright and stays as 0 otherwise); for ``sum:`` games a tuple with a
    sorted tuple of heaps per component; for multi-heap games the new tuple.
    ``heap`` is the index of the heap (or sum component) that moved, with
    its size ``before`` and what it became (``after``); all three are
    ``None`` when a move may change several heaps at once.
    """

    target: Position
    heap: int | None = None
    before: int | None = None
    after: tuple[int, ...] | None = None

    def describe(self) -> str:
        """A short human-readable form, e.g. ``heap 3: 7 -> 2``."""
        if self.heap is None:
            return f"-> {self.target}"
        after = ", ".join(map(str, self.after or ())) or "nothing"
        return f"heap {self.heap + 1}: {self.before} -> {after}"
