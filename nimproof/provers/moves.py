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
from typing import cast

from nimproof.expr import parse
from nimproof.expr.nodes import Node
from nimproof.games import HeapGame
from nimproof.games.heap import InfiniteSubtraction, IntervalGame, Nim, Subtraction, TakeFraction
from nimproof.games.misere import Misere
from nimproof.games.multi import Moore, Staircase
from nimproof.games.rule import Rule
from nimproof.games.sums import Sum


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
    if isinstance(game, Subtraction):
        low = min(game.takes)
        return HeapMoves(
            takes=game.takes,
            terminal=parse(f"n < {low}", scalars=("n",)),
            description=f"n -> n - t for t in {{{', '.join(map(str, game.takes))}}}",
        )
    if isinstance(game, Nim):
        return HeapMoves(
            relation=parse("m < n", scalars=("n", "m")),
            terminal=parse("n == 0", scalars=("n",)),
            description="n -> m for every m < n",
        )
    if isinstance(game, TakeFraction):
        p, q = game.p, game.q
        return HeapMoves(
            relation=parse(f"n - ({p} * n) // {q} <= m", scalars=("n", "m")),
            terminal=parse(f"({p} * n) // {q} == 0", scalars=("n",)),
            description=f"n -> m for n - floor({p}n/{q}) <= m < n",
        )
    if isinstance(game, Rule):
        return HeapMoves(
            relation=game.predicate, terminal=None, description=f"n -> m when {game.text}"
        )
    return None


def heap_move_legal(game: HeapGame, n: int, m: int) -> bool:
    """True when one heap of ``n`` may become one heap of ``m``, by the family's definition."""
    if not 0 <= m < n:
        return False
    if isinstance(game, Subtraction):
        return (n - m) in game.takes
    if isinstance(game, IntervalGame):
        lo, hi = game.move_interval(n)
        return lo <= m < hi
    if isinstance(game, InfiniteSubtraction):
        return game.contains(n - m)
    if isinstance(game, Rule):
        return game.legal(n, m)
    if n <= 10_000:
        return any((parts[0] if parts else 0) == m and len(parts) <= 1 for parts in game.options(n))
    raise ValueError(f"cannot decide a move of {game.spec} from a heap of {n}")


def is_move(game: object, p: Sequence[int], q: Sequence[int]) -> bool:
    """True when ``p -> q`` is one legal move of a multi-heap position, by definition.

    ``game`` is a heap game (positions are sums of its heaps, in a fixed
    order), a misère heap game, a :class:`Sum`, Moore's Nim_k or staircase Nim.
    """
    p, q = tuple(p), tuple(q)
    if len(p) != len(q) or any(x < 0 for x in q):
        return False
    if isinstance(game, Misere):
        game = game.base
    if isinstance(game, Moore):
        lowered = [i for i in range(len(p)) if q[i] < p[i]]
        return all(q[i] <= p[i] for i in range(len(p))) and 1 <= len(lowered) <= game.k
    if isinstance(game, Staircase):
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
    changed = [i for i in range(len(p)) if q[i] != p[i]]
    if len(changed) != 1:
        return False
    i = changed[0]
    if isinstance(game, Sum):
        return heap_move_legal(game.components[i], p[i], q[i])
    if isinstance(game, HeapGame):
        return heap_move_legal(game, p[i], q[i])
    raise ValueError(f"no move definition for {game!r}")


def fixed_moves(game: object, position: Sequence[int]) -> list[tuple[int, ...]]:
    """The moves of a multi-heap position as tuples of the same length (heap ``i`` stays at index ``i``).

    For sums of one-heap rules only non-splitting moves exist here (a
    splitting move changes the number of heaps and is left out).
    """
    from nimproof.games.base import Game

    p = tuple(position)
    base = game.base if isinstance(game, Misere) else game
    if isinstance(base, (Moore, Staircase)):
        return [cast(tuple[int, ...], q) for q in base.moves(p)]
    comps = list(base.components) if isinstance(base, Sum) else [base] * len(p)
    out = []
    for i, comp in enumerate(comps):
        assert isinstance(comp, HeapGame) and isinstance(game, Game)
        for parts in comp.options(p[i]):
            if len(parts) > 1:
                continue
            out.append((*p[:i], parts[0] if parts else 0, *p[i + 1 :]))
    return out
