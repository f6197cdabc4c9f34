"""Exact outcomes of a finite loopy impartial game: win, loss or draw for the player to move.

A loopy game (a play may go on forever, :attr:`MoveDescription.loopy`) has no
Grundy values, but on a finite set of positions closed under moves every
position has an outcome under optimal play:

* ``loss``: whatever the mover does, the opponent can force the mover into a
  position with no move, in finitely many moves;
* ``win``: the mover has a move to a ``loss`` position;
* ``draw``: neither player can force a win (play goes on forever).

Two independent computations, from the family's own :meth:`Game.moves` only:

* :func:`retrograde` - retrograde analysis: positions without moves are
  losses; a predecessor of a loss is a win; a position all of whose options
  are wins is a loss (a counter of undecided options per position); what is
  never labelled is a draw. Linear in the number of moves.
* :func:`fixpoint` - the plain reference: the same two rules applied to every
  position again and again until nothing changes (quadratic, no predecessor
  lists, no counters). A result of :func:`retrograde` is re-checked with it.

Both label exactly the positions where one player can force a win in finitely
many moves (the least fixed point of the two rules), so they must agree.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Literal

from nimproof.errors import UsageError
from nimproof.games.base import Game

Outcome = Literal["win", "loss", "draw"]

#: Most positions a closure may hold.
MAX_POSITIONS = 400_000


def closure(
    game: Game,
    start: Iterable[Hashable],
    limit: int = MAX_POSITIONS,
    check: Callable[[], None] | None = None,
) -> dict[Hashable, list[Hashable]]:
    """Every position reachable from ``start``, each with its options (the family's moves).

    Raises :class:`UsageError` when more than ``limit`` positions are reachable.
    """
    options: dict[Hashable, list[Hashable]] = {}
    todo = list(start)
    while todo:
        pos = todo.pop()
        if pos in options:
            continue
        targets = list(dict.fromkeys(game.moves(pos)))
        options[pos] = targets
        todo.extend(q for q in targets if q not in options)
        if len(options) > limit:
            raise UsageError(f"{game.spec}: more than {limit:,} positions are reachable")
        if check is not None and len(options) % 4096 == 0:
            check()
    return options


def retrograde(options: dict[Hashable, list[Hashable]]) -> dict[Hashable, Outcome]:
    """The outcome of every position of a closed move graph (``options``), by retrograde analysis."""
    parents: dict[Hashable, list[Hashable]] = {p: [] for p in options}
    for p, targets in options.items():
        for q in targets:
            parents[q].append(p)
    left = {p: len(targets) for p, targets in options.items()}
    label: dict[Hashable, Outcome] = {}
    queue: deque[Hashable] = deque()
    for p, n in left.items():
        if n == 0:
            label[p] = "loss"
            queue.append(p)
    while queue:
        q = queue.popleft()
        for p in parents[q]:
            if p in label:
                continue
            if label[q] == "loss":
                label[p] = "win"
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    label[p] = "loss"
                    queue.append(p)
    return {p: label.get(p, "draw") for p in options}


def fixpoint(options: dict[Hashable, list[Hashable]]) -> dict[Hashable, Outcome]:
    """The outcome of every position of a closed move graph, by iterating the two rules to a
    fixed point (the plain reference that re-checks :func:`retrograde`)."""
    label: dict[Hashable, Outcome] = {}
    changed = True
    while changed:
        changed = False
        for p, targets in options.items():
            if p in label:
                continue
            if any(label.get(q) == "loss" for q in targets):
                label[p] = "win"
                changed = True
            elif all(label.get(q) == "win" for q in targets):
                label[p] = "loss"
                changed = True
    return {p: label.get(p, "draw") for p in options}


def outcome(
    game: Game, position: Hashable, limit: int = MAX_POSITIONS
) -> tuple[Outcome, dict[Hashable, Outcome]]:
    """The outcome of ``position`` and of everything reachable from it (retrograde analysis)."""
    labels = retrograde(closure(game, [position], limit))
    return labels[position], labels
