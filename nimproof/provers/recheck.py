"""Independent re-checks of counterexamples, and their explanation in words.

A solver or a fast kernel may *find* a counterexample; it is only reported
after the checks here confirm it with exact integer evaluation of the formula
(:func:`nimproof.expr.evaluate`), the family's own move definition
(:mod:`nimproof.provers.moves`) and, where the position is small enough, the
plain reference implementation (:mod:`nimproof.engines.reference`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from functools import singledispatch
from typing import Any

import numpy as np

from nimproof.engines import reference
from nimproof.engines.heap import MISERE_SPLIT_MAX_N
from nimproof.errors import EvalError
from nimproof.expr import evaluate
from nimproof.games import Game, HeapGame, IntervalTakes, MoveDescription
from nimproof.provers import deadline
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample

#: Largest number of positions the reference may explore to re-check one counterexample.
REFERENCE_BUDGET = 300_000


def formula_at(ctx: ClaimContext, position: Any, extra: dict[str, int] | None = None) -> Any:
    """The exact value of the claim's formula at ``position`` (raises EvalError where undefined)."""
    assert ctx.formula is not None
    if ctx.recursive:
        from nimproof.provers.recursion import value_at

        return value_at(ctx.formula, int(position), ctx.params)
    env: dict[str, Any] = dict(ctx.params)
    if ctx.one_heap:
        env["n"] = int(position)
    elif ctx.spec.is_identity:
        env.update(position)
    else:
        env["h"] = tuple(int(x) for x in position)
    if extra:
        env.update(extra)
    return evaluate(ctx.formula, env)


def table_mismatch(table: Sequence[int] | np.ndarray, ref: Sequence[int]) -> int | None:
    """The first heap where ``table`` (an engine's, or claimed values) differs from the reference
    table ``ref``, compared over ``ref``'s length; None where they agree there."""
    return next((n for n, v in enumerate(ref) if n >= len(table) or int(table[n]) != v), None)


#: Most work (:func:`heap_cost`) spent on one reference heap table in a re-check (a few
#: seconds of plain Python: half-heap to n = 7,700, Kayles to about 7,700).
HEAP_TABLE_BUDGET = 3e7


def heap_cost(game: HeapGame, n: int) -> float:
    """A rough count of the work the reference needs for the table up to ``n``."""
    spec = game.moves_spec
    takes = spec.finite_takes()
    if takes is not None:
        return n * len(takes)
    if game.splits:
        return n**2 * (n if spec.max_parts >= 3 else 1) / 2
    return n * n / 2


def true_heap_value(ctx: ClaimContext, n: int) -> int | None:
    """The reference value of heap ``n`` of the claim's game, or None when too costly."""
    game = ctx.game
    base = ctx.heap_game
    assert base is not None and game is not None
    if heap_cost(base, n) > HEAP_TABLE_BUDGET:
        return None
    check = lambda: deadline.check(ctx.deadline, "re-checking")  # noqa: E731
    if game.misere:
        if base.splits:
            return None if n > MISERE_SPLIT_MAX_N else reference.value(game, n, check=check)
        return reference.misere_heap_table(base, n, check=check)[n]
    return reference_heap_value(base, n, ctx.deadline)


def reference_heap_value(game: HeapGame, n: int, until: float) -> int | None:
    """The reference value of heap ``n`` of a normal-play ``game``, or None beyond
    :data:`HEAP_TABLE_BUDGET`; the work stops at the deadline ``until`` (:class:`TimeUp`).

    Tables are kept, one per game (the longest), and grown geometrically within the
    budget, so that the many look-ups of one claim's re-checks cost one table."""
    if heap_cost(game, n) > HEAP_TABLE_BUDGET:
        return None
    table = _TABLES.get(game.spec)
    if table is None or len(table) <= n:
        size = max(n, 2 * len(table)) if table else n
        while size > n and heap_cost(game, size) > HEAP_TABLE_BUDGET:
            size = (size + n) // 2
        check = lambda: deadline.check(until, "re-checking")  # noqa: E731
        table = reference.heap_table(game, size, check=check)
        _TABLES[game.spec] = table
    return table[n]


#: Reference heap tables computed for re-checks, by game spec (one per game, the longest).
_TABLES: dict[str, list[int]] = {}


def position_count(game: Game, position: Sequence[int]) -> float:
    """An upper bound on the positions reachable from ``position`` (for budgeting)."""
    if not game.moves_spec.lowers_heaps:
        total = sum(position)
        return math.comb(total + len(position), len(position))
    out = 1.0
    for x in position:
        out *= x + 1
    return out


def true_position_value(
    ctx: ClaimContext, position: Sequence[int], cache: dict[Hashable, int]
) -> int | None:
    """The reference value (Grundy or misère nim-value) of a multi-heap position, or None if too big."""
    game = ctx.game
    assert game is not None
    if position_count(game, position) > REFERENCE_BUDGET:
        return None
    return reference.value(game, game.position(tuple(position)), cache)


def describe_position(ctx: ClaimContext, position: Any) -> str:
    """How a position is written in explanations."""
    if ctx.one_heap:
        return f"heap {position}"
    if ctx.spec.is_identity:
        return ", ".join(f"{k} = {v}" for k, v in position.items())
    return "heaps (" + ", ".join(map(str, position)) + ")"


def value_mismatch(
    ctx: ClaimContext, position: Any, claimed: Any, actual: int, how: str, move: Any = None
) -> Counterexample:
    """A counterexample where the claimed value or outcome differs from the reference value."""
    where = describe_position(ctx, position)
    if ctx.spec.states_p_positions:
        says = "a P-position" if claimed else "not a P-position"
        truth = "a P-position" if actual == 0 else f"an N-position (value {actual})"
        text = (
            f"At {where} the claim says {says}, but the reference implementation computes {truth}."
        )
        if move is not None and actual != 0:
            text += f" Winning move: to {move}."
    else:
        text = f"At {where} the claim gives {claimed}, but the true value is {actual}."
        if move is not None:
            text += f" {move}"
    return Counterexample(position, "value", text, claimed, actual, move, True, how)


def identity_fails_at(ctx: ClaimContext, point: dict[str, int]) -> Counterexample | None:
    """The counterexample an identity has at ``point`` by exact evaluation: false there, or
    undefined there; None when it holds at ``point`` (whatever made a solver or a vectorised
    evaluation say otherwise was not the identity)."""
    try:
        holds = bool(formula_at(ctx, point))
    except EvalError as exc:
        return undefined_at(ctx, point, exc)
    if holds:
        return None
    text = f"The identity is false at {describe_position(ctx, point)}."
    return Counterexample(
        point, "identity", text, True, False, None, True, "exact integer evaluation"
    )


def undefined_at(ctx: ClaimContext, position: Any, error: EvalError) -> Counterexample:
    """A counterexample where the formula has no value (division by zero, negative bitwise operand)."""
    where = describe_position(ctx, position)
    return Counterexample(
        position,
        "undefined",
        f"The formula is undefined at {where}: {error}.",
        None,
        None,
        None,
        True,
        "exact integer evaluation",
    )


def heap_counterexample(ctx: ClaimContext, n: int, how: str) -> Counterexample | None:
    """Re-check a one-heap claim at heap ``n`` with the reference; None if it holds there.

    Explains the failure with a move: for a claimed value equal to that of an
    option, that option; for a claimed value that no option realises, the
    missing value; for a claimed value that is too small, the option with the
    claimed value.
    """
    try:
        claimed = int(formula_at(ctx, n))
    except EvalError as exc:
        return undefined_at(ctx, n, exc)
    actual = true_heap_value(ctx, n)
    if actual is None or actual == claimed:
        return None
    move = _explain_heap_move(ctx, n, claimed)
    return value_mismatch(ctx, n, claimed, actual, how, move)


@singledispatch
def _few_targets(spec: MoveDescription) -> bool:
    """True when a heap's targets are listed without testing every smaller heap."""
    return spec.finite_takes() is not None


@_few_targets.register
def _(spec: IntervalTakes) -> bool:
    return True


def _explain_heap_move(ctx: ClaimContext, n: int, claimed: int) -> str | None:
    if ctx.recursive:
        return None  # each value would re-run the recursion; the value mismatch says enough
    base = ctx.heap_game
    if base is None or base.splits or (not _few_targets(base.moves_spec) and n > 5000):
        return None
    if base.splits:
        return None
    targets = sorted(set(base.heap_targets(n)))
    values: dict[int, int] = {}
    for m in targets:
        try:
            values[m] = int(formula_at(ctx, m))
        except EvalError:
            continue
    same = [m for m, v in values.items() if v == claimed]
    if same:
        return f"The move {n} -> {same[0]} reaches a heap the claim also values {claimed}, which mex forbids."
    if not targets:
        expected = 1 if ctx.misere else 0
        return f"Heap {n} has no move, so its value is {expected}."
    missing = [v for v in range(claimed) if v not in values.values()]
    if missing:
        return f"No move from {n} reaches a heap the claim values {missing[0]}, so {claimed} is not the mex."
    return None


#: Most positions :func:`first_disagreement` will evaluate with the reference.
RECHECK_POSITIONS = 5000


def first_disagreement(ctx: ClaimContext, point: tuple[int, ...]) -> Counterexample | None:
    """The smallest position reachable from ``point`` (itself included) where the claim is wrong.

    Uses exact evaluation of the claim and the reference values only. Returns
    None when every position examined agrees or the positions are too large.
    """
    import heapq

    from nimproof.provers.moves import fixed_moves

    game = ctx.game
    assert game is not None
    cache: dict[Hashable, int] = {}
    seen = {point}
    frontier = [(sum(point), point)]
    examined = 0
    while frontier and examined < RECHECK_POSITIONS:
        deadline.check(ctx.deadline, "re-checking")
        _, pos = heapq.heappop(frontier)
        examined += 1
        actual = true_position_value(ctx, pos, cache)
        if actual is None:
            return None
        try:
            claimed = formula_at(ctx, pos)
        except EvalError as exc:
            return undefined_at(ctx, pos, exc)
        wrong = (
            (bool(claimed) != (actual == 0)) if ctx.spec.states_p_positions else (claimed != actual)
        )
        if wrong:
            move = None
            if actual != 0 or (not ctx.spec.states_p_positions and claimed != actual):
                for option in fixed_moves(game, pos):
                    if true_position_value(ctx, option, cache) == 0:
                        move = option
                        break
            return value_mismatch(ctx, pos, claimed, actual, "reference implementation", move)
        for option in fixed_moves(game, pos):
            if option not in seen:
                seen.add(option)
                heapq.heappush(frontier, (sum(option), option))
    return None
