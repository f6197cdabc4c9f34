"""The hunt on single heaps: the claim against the engine's table, grown geometrically.

The table of the claim's game comes from the fastest engine that has one
(sparse space for take-and-break codes and Grundy's game, the subtraction and
interval kernels, ...; :func:`nimproof.engines.heap.grundy_table`), extended
in place (``prefix``) by a factor of four at a time while the time the next
step is predicted to take (from the measured cost exponent) fits the budget.
The engine's table is first compared with the plain reference implementation
on the heaps the reference reaches cheaply; a difference between them is
reported, never a verdict. The first heap where the claim and the table
differ is re-checked by the reference implementation before it is reported
(or handed on as an unconfirmed candidate when the reference cannot reach it).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

import numpy as np

from nimproof.engines import reference
from nimproof.engines.heap import grundy_table, plan_heap
from nimproof.errors import EvalError, UsageError
from nimproof.expr import evaluate_array
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.hunt.common import Budget, exponent_from, result
from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope

#: The first table the hunt computes, and the factor it grows by.
FIRST_N = 15
GROWTH = 4
#: The share of the time left that the next table is planned to use (kernels cannot be
#: interrupted, and a shared machine's speed varies).
SAFETY = 0.6
#: Work (roughly, set insertions) allowed to the reference cross-check of the engine's table.
CROSS_CHECK_WORK = 2e6
#: Largest heap of the reference cross-check of a misère splitting game (whole positions).
MISERE_CROSS_CHECK = 24


def applies(ctx: ClaimContext) -> bool:
    """True for a claim about single heaps of a heap game (one-heap Grundy formulas, and
    P-position rules with ``heaps = 1``)."""
    if ctx.recursive or ctx.heap_game is None or ctx.formula is None:
        return False
    return ctx.one_heap or (ctx.spec.states_p_positions and ctx.heaps == 1)


def hunt(ctx: ClaimContext, budget: Budget, max_n: int | None) -> MethodResult:
    """Compare the claim with the engine's table up to the largest heap the budget allows."""
    game = ctx.game
    assert game is not None
    try:
        plan = plan_heap(game)
    except UsageError as exc:
        return result("unknown", detail=f"no single-heap engine: {exc}")
    limit = min(plan.limit, max_n if max_n is not None else plan.limit)
    n, checked, table = min(FIRST_N, limit), -1, np.zeros(0, dtype=np.int64)
    history: list[tuple[float, float]] = []  # (heaps, seconds spent on tables so far)
    reach, cross, spent = _reference_reach(ctx), "", 0.0
    while True:
        t0 = time.monotonic()
        table = grundy_table(game, n, prefix=table)
        found = _first_difference(ctx, table, checked + 1)
        spent += time.monotonic() - t0
        if found is not None:
            return _refute(ctx, found, table, checked, plan.engine)
        checked = n
        if not cross and n >= reach:  # once, as soon as the table covers what the reference reaches
            cross = _cross_check(ctx, table, reach)
        history.append((n, spent))
        nxt = next_size(history, limit, budget.left())
        if nxt is None or cross.startswith("differs"):
            break
        n = nxt
    cross = cross or _cross_check(ctx, table, checked)
    if cross.startswith("differs"):
        return result("unknown", detail=f"{plan.engine} engine and reference {cross}")
    scope = Scope("bound", bound=checked, measure="heap", heaps=ctx.heaps)
    why = "the engine's limit" if checked >= limit else "the time limit"
    detail = (
        f"no counterexample among heaps 0..{checked:,} ({plan.engine} engine table, {cross}); "
        f"the search stopped at {why}"
    )
    return result("proved", scope, detail, stats={"heaps": checked + 1, "engine": plan.engine})


def next_size(history: list[tuple[float, float]], limit: int, left: float) -> int | None:
    """The largest table the next step can reach in ``left`` seconds (at most :data:`GROWTH`
    times the last, at most ``limit``), by the cost model ``seconds = c * heaps**e`` fitted to
    the steps so far (``e`` measured on the last two, 2 while they are too short to time);
    None when no step of at least a quarter more heaps fits."""
    n, spent = history[-1]
    e = exponent_from(history, 2.0)
    c = max(spent, 1e-3) / n**e
    reach = (n**e + SAFETY * left / c) ** (1 / e)
    nxt = int(min(limit, GROWTH * n + GROWTH - 1, reach))
    return nxt if nxt >= n + max(1, n // 4) else None


def _claimed(ctx: ClaimContext, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The claim's values (or P-verdicts) on heaps ``lo..hi``, and where it is undefined."""
    assert ctx.formula is not None
    n = np.arange(lo, hi + 1, dtype=np.int64)
    env: dict[str, Any] = dict(ctx.params)
    if ctx.one_heap:
        env["n"] = n
    else:
        env["h"] = (n,)
    return evaluate_array(ctx.formula, env)


def _first_difference(ctx: ClaimContext, table: np.ndarray, lo: int) -> int | None:
    """The first heap ``>= lo`` where the claim and ``table`` differ (or the claim is undefined)."""
    hi = len(table) - 1
    try:
        values, undefined = _claimed(ctx, lo, hi)
    except EvalError:
        values, undefined = _exact(ctx, lo, hi)
    truth = table[lo:]
    wrong = (
        (values.astype(bool) != (truth == 0)) if ctx.spec.states_p_positions else values != truth
    )
    bad = np.flatnonzero(wrong | undefined)
    return lo + int(bad[0]) if bad.size else None


def _exact(ctx: ClaimContext, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact evaluation heap by heap (numbers beyond int64)."""
    values = np.zeros(hi - lo + 1, dtype=np.int64)
    undefined = np.zeros(hi - lo + 1, dtype=bool)
    for i, n in enumerate(range(lo, hi + 1)):
        try:
            v = recheck.formula_at(ctx, n if ctx.one_heap else (n,))
            values[i] = int(bool(v)) if ctx.spec.states_p_positions else min(int(v), 1 << 62)
        except EvalError:
            undefined[i] = True
    return values, undefined


def _reference_reach(ctx: ClaimContext) -> int:
    """The largest heap the reference cross-check reaches within :data:`CROSS_CHECK_WORK`."""
    base = ctx.heap_game
    assert base is not None
    r = 1 << 20
    while r > 16 and recheck.heap_cost(base, r) > CROSS_CHECK_WORK:
        r //= 2
    return r


def _cross_check(ctx: ClaimContext, table: np.ndarray, r: int) -> str:
    """Compare the engine's table with the reference implementation on heaps ``0..r``:
    "same as the reference to heap r" or "differs at heap n"."""
    base = ctx.heap_game
    assert base is not None
    if ctx.misere and base.splits:  # whole positions: the reference's cost grows like partitions
        assert ctx.game is not None
        r = min(r, len(table) - 1, MISERE_CROSS_CHECK)
        cache: dict[Hashable, int] = {}
        ref = [reference.value(ctx.game, n, cache) for n in range(r + 1)]
        bad = recheck.table_mismatch(table[: r + 1], ref)
        return f"differs at heap {bad}" if bad is not None else f"same as the reference to heap {r}"
    r = min(r, len(table) - 1)
    ref = reference.misere_heap_table(base, r) if ctx.misere else reference.heap_table(base, r)
    bad = recheck.table_mismatch(table[: r + 1], ref)
    return f"differs at heap {bad}" if bad is not None else f"same as the reference to heap {r}"


def _refute(
    ctx: ClaimContext, n: int, table: np.ndarray, checked: int, engine: str
) -> MethodResult:
    """The re-checked counterexample at heap ``n`` (or the engine's finding as a candidate)."""
    cx = settle.heap_counterexample(ctx, n) if ctx.one_heap else settle.wrong_at(ctx, (n,))
    detail = f"the claim and the {engine} table differ first at heap {n}"
    if cx is None:
        cx = _candidate(ctx, n, int(table[n]), engine)
    if cx.rechecked:
        return result("refuted", detail=detail, cx=cx)
    # A candidate keeps the region checked before it (if it is dismissed, that region stands).
    scope = Scope("bound", bound=checked, measure="heap", heaps=ctx.heaps) if checked >= 0 else None
    return result("unknown", scope or NO_SCOPE, detail, cx)


def _candidate(ctx: ClaimContext, n: int, actual: int, engine: str) -> Counterexample:
    """The engine's finding at heap ``n``, unconfirmed (decided by :mod:`..settle`)."""
    position: Any = n if ctx.one_heap else (n,)
    try:
        claimed: Any = recheck.formula_at(ctx, position)
    except EvalError as exc:
        return settle.undefined_at(ctx, position, exc)
    truth = "a P-position" if actual == 0 else f"value {actual}"
    text = f"At heap {n} the claim gives {claimed}, but the {engine} table gives {truth}."
    return settle.candidate(position, "value", text, claimed, actual)
