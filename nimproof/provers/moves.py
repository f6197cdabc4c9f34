"""Move structure of the families, as the provers need it.

Two views, kept apart on purpose:

* :func:`heap_moves` describes a one-heap rule as data for the solvers: a
  finite list of takes, or a relation formula in ``n`` and ``m`` (parsed by
  the expression language, compiled by each back end), and a formula for
  "this heap has no move" (misère play needs it).
* :func:`is_move` and :func:`heap_move_legal` decide whether one concrete
  move is legal straight from the family's own definition, with Python
  integers. Counterexamples found by a solver are re-checked with these, so
  a mistake in the solver encoding cannot produce a false refutation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import cast

from nimproof.expr import parse
from nimproof.expr.nodes import Node
from nimproof.expr.parser import parse_each
from nimproof.games import (
    FiniteTakes,
    Game,
    HeapGame,
    IntervalTakes,
    MoveDescription,
    RelationMoves,
    heap_move,
)


@dataclass(frozen=True)
class HeapMoves:
    """Solver view of a non-splitting one-heap rule.

    Exactly one of ``takes`` (moves ``n -> n - t``) and ``relation`` (a
    predicate in ``n`` and ``m``; the move is legal when ``m < n`` and it
    holds) is set. ``terminal`` is a predicate in ``n`` that holds exactly
    when a heap of ``n`` has no move (None when no formula is known).
    """

    takes: tuple[int, ...] | None = None
    relation: Node | None = None
    terminal: Node | None = None
    description: str = ""


def heap_moves(game: HeapGame) -> HeapMoves | None:
    """The solver view of ``game``, or None when it has none (splitting or infinite sets)."""
    return _solver_view(game.moves_spec)


@singledispatch
def _solver_view(spec: MoveDescription) -> HeapMoves | None:
    return None


@_solver_view.register
def _(spec: FiniteTakes) -> HeapMoves:
    low = min(spec.takes)
    return HeapMoves(
        takes=spec.takes,
        terminal=parse(f"n < {low}", scalars=("n",)),
        description=f"n -> n - t for t in {{{', '.join(map(str, spec.takes))}}}",
    )


@_solver_view.register
def _(spec: IntervalTakes) -> HeapMoves:
    p, q = spec.p, spec.q
    if p == q:  # Nim's rule: any number of tokens
        texts, description = ("m < n", "n == 0"), "n -> m for every m < n"
    else:
        texts = (f"n - ({p} * n) // {q} <= m", f"({p} * n) // {q} == 0")
        description = f"n -> m for n - floor({p}n/{q}) <= m < n"
    # the relation and the terminal test, parsed in one call
    relation, terminal = parse_each(
        [(texts[0], ("n", "m"), (), None), (texts[1], ("n",), (), None)]
    )
    assert isinstance(relation, Node) and isinstance(terminal, Node)  # fixed texts: they parse
    return HeapMoves(relation=relation, terminal=terminal, description=description)


@_solver_view.register
def _(spec: RelationMoves) -> HeapMoves:
    return HeapMoves(relation=spec.predicate, terminal=None, description=f"n -> m when {spec.text}")


def heap_move_legal(game: HeapGame, n: int, m: int) -> bool:
    """True when one heap of ``n`` may become one heap of ``m``, by the family's definition."""
    return heap_move(game, n, m)


def is_move(game: Game, p: Sequence[int], q: Sequence[int]) -> bool:
    """True when ``p -> q`` is one legal move of a multi-heap position, by definition.

    Asked of the game's move description (:meth:`MoveDescription.is_move`):
    a sum of one-heap rules checks the one changed heap, Moore's Nim_k and
    staircase Nim their rules, a heap relation its formula by exact
    evaluation, any other game its own :meth:`Game.moves`.
    """
    return game.moves_spec.is_move(game, tuple(p), tuple(q))


def fixed_moves(game: Game, position: Sequence[int]) -> list[tuple[int, ...]]:
    """The moves of a multi-heap position as tuples of the same length (heap ``i`` stays at index ``i``).

    For sums of one-heap rules only non-splitting moves exist here (a
    splitting move changes the number of heaps and is left out).
    """
    p = tuple(position)
    comps = game.moves_spec.parts(game, len(p))
    if comps is None:
        return [cast(tuple[int, ...], q) for q in game.normal.moves(p)]
    out = []
    for i, comp in enumerate(comps):
        for parts in comp.options(p[i]):
            if len(parts) > 1:
                continue
            out.append((*p[:i], parts[0] if parts else 0, *p[i + 1 :]))
    return out


def move_count_bound(game: Game, position: Sequence[int]) -> float:
    """An upper bound on the number of moves from a multi-heap ``position``, without listing them.

    Moore's Nim_k: the moves lowering each set of at most ``k`` heaps;
    staircase Nim: the coins. Other games are not bounded here (infinite):
    their moves are listed one at a time, so a caller can stop at its budget.
    """
    return game.moves_spec.move_bound([int(x) for x in position])
