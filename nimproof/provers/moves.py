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
from nimproof.games import (
    FiniteTakes,
    Game,
    HeapGame,
    IntervalTakes,
    OneHeapOfEach,
    RelationMoves,
    SetTakes,
    StairToStair,
    UpToKHeaps,
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
    spec = game.moves_spec
    if isinstance(spec, FiniteTakes):
        low = min(spec.takes)
        return HeapMoves(
            takes=spec.takes,
            terminal=parse(f"n < {low}", scalars=("n",)),
            description=f"n -> n - t for t in {{{', '.join(map(str, spec.takes))}}}",
        )
    if isinstance(spec, IntervalTakes) and spec.any_number:
        return HeapMoves(
            relation=parse("m < n", scalars=("n", "m")),
            terminal=parse("n == 0", scalars=("n",)),
            description="n -> m for every m < n",
        )
    if isinstance(spec, IntervalTakes):
        p, q = spec.p, spec.q
        return HeapMoves(
            relation=parse(f"n - ({p} * n) // {q} <= m", scalars=("n", "m")),
            terminal=parse(f"({p} * n) // {q} == 0", scalars=("n",)),
            description=f"n -> m for n - floor({p}n/{q}) <= m < n",
        )
    if isinstance(spec, RelationMoves):
        return HeapMoves(
            relation=spec.predicate, terminal=None, description=f"n -> m when {spec.text}"
        )
    return None


def heap_move_legal(game: HeapGame, n: int, m: int) -> bool:
    """True when one heap of ``n`` may become one heap of ``m``, by the family's definition."""
    if not 0 <= m < n:
        return False
    spec = game.moves_spec
    if isinstance(spec, FiniteTakes | IntervalTakes | SetTakes | RelationMoves):
        return spec.legal(n, m)
    if n <= 10_000:
        return any((parts[0] if parts else 0) == m and len(parts) <= 1 for parts in game.options(n))
    raise ValueError(f"cannot decide a move of {game.spec} from a heap of {n}")


def is_move(game: Game, p: Sequence[int], q: Sequence[int]) -> bool:
    """True when ``p -> q`` is one legal move of a multi-heap position, by definition.

    ``game`` is a heap game (positions are sums of its heaps, in a fixed
    order), a sum of heap games, Moore's Nim_k or staircase Nim, in normal or
    misère play.
    """
    p, q = tuple(p), tuple(q)
    if len(p) != len(q) or any(x < 0 for x in q):
        return False
    spec = game.moves_spec
    if isinstance(spec, UpToKHeaps):
        lowered = [i for i in range(len(p)) if q[i] < p[i]]
        return all(q[i] <= p[i] for i in range(len(p))) and 1 <= len(lowered) <= spec.k
    if isinstance(spec, StairToStair):
        return _is_stair_move(p, q)
    changed = [i for i in range(len(p)) if q[i] != p[i]]
    if len(changed) != 1:
        return False
    i = changed[0]
    if isinstance(spec, OneHeapOfEach):
        return heap_move_legal(spec.components[i], p[i], q[i])
    normal = game.normal
    if isinstance(normal, HeapGame):
        return heap_move_legal(normal, p[i], q[i])
    raise ValueError(f"no move definition for {game!r}")


def _is_stair_move(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
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


def fixed_moves(game: Game, position: Sequence[int]) -> list[tuple[int, ...]]:
    """The moves of a multi-heap position as tuples of the same length (heap ``i`` stays at index ``i``).

    For sums of one-heap rules only non-splitting moves exist here (a
    splitting move changes the number of heaps and is left out).
    """
    p = tuple(position)
    spec = game.moves_spec
    if isinstance(spec, UpToKHeaps | StairToStair):
        return [cast(tuple[int, ...], q) for q in game.normal.moves(p)]
    normal = game.normal
    if isinstance(spec, OneHeapOfEach):
        comps = list(spec.components)
    else:
        assert isinstance(normal, HeapGame)
        comps = [normal] * len(p)
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
    spec = game.moves_spec
    sizes = [int(x) for x in position]
    if isinstance(spec, UpToKHeaps):
        # elementary symmetric sums e_1 .. e_k of the heap sizes
        e = [1.0] + [0.0] * spec.k
        for x in sizes:
            for j in range(spec.k, 0, -1):
                e[j] += e[j - 1] * x
        return sum(e[1:])
    if isinstance(spec, StairToStair):
        return float(sum(sizes))
    return float("inf")
