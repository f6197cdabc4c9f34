"""Random deep positions as extra evidence (hypothesis), never as a proof.

Samples positions with 64-bit heaps (and many heaps), picks random legal
moves and checks the claim's first local condition on them (no move joins
two positions of equal claimed value, or two P-positions); identities are
evaluated at random 64-bit values. A failure is shrunk by hypothesis and
re-checked with exact arithmetic and the family's move definition; then it
refutes. Otherwise the result is ``unknown`` with the number of samples:
evidence, not proof.
"""

from __future__ import annotations

import contextlib
import time
from functools import singledispatch
from typing import Any, TypedDict

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from nimproof.errors import EvalError
from nimproof.games import (
    Game,
    HeapGame,
    IntervalTakes,
    MoveDescription,
    StairToStair,
    UpToKHeaps,
)
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import heap_move_legal, is_move
from nimproof.verdict import Counterexample, MethodResult

NAME = "hypothesis"


class Options(TypedDict, total=False):
    """Options of the ``hypothesis`` method in ``[claim.checks]`` (all optional)."""

    examples: int
    """how many random positions"""
    width: int
    """bits of each random heap"""


def _heap_target(game: HeapGame, n: int, r: int) -> int | None:
    """A legal target from a heap of ``n`` chosen by the random number ``r`` (None: no move)."""
    return _target(game.moves_spec, n, r)


@singledispatch
def _target(spec: MoveDescription, n: int, r: int) -> int | None:
    takes = spec.finite_takes()
    if takes is None:
        return None
    legal = [t for t in takes if t <= n]
    return n - legal[r % len(legal)] if legal else None


@_target.register
def _(spec: IntervalTakes, n: int, r: int) -> int | None:
    lo = spec.lowest(n)
    return lo + r % (n - lo) if n > lo else None


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Sample ``examples`` random positions (``width``-bit heaps) and moves."""
    t0 = time.monotonic()
    examples = int(options.get("examples", 200))
    width = int(options.get("width", 64))
    big = st.integers(0, (1 << width) - 1)
    found: list[Counterexample] = []
    checker = _checker(ctx, found)
    if checker is None:
        return MethodResult(NAME, "unknown", detail="no random check applies to this claim")
    strategy = _strategy(ctx, big)
    cfg = settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    )
    test = cfg(given(strategy)(checker))
    with contextlib.suppress(AssertionError):  # the failing input is recorded in `found`
        test()
    seconds = time.monotonic() - t0
    if found:
        cx = found[-1]  # hypothesis replays the shrunk example last
        return MethodResult(
            NAME,
            "refuted",
            detail="random search found a violation",
            seconds=seconds,
            counterexample=cx,
            stats={"examples": examples},
        )
    return MethodResult(
        NAME,
        "unknown",
        detail=f"{examples} random samples with {width}-bit values passed (evidence, not proof)",
        seconds=seconds,
        stats={"examples": examples, "width": width},
    )


def _strategy(ctx: ClaimContext, big: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    if ctx.spec.is_identity:
        return st.fixed_dictionaries({v: big for v in ctx.claim.variables})
    if ctx.one_heap:
        return st.tuples(big, big)
    h = ctx.heaps or 2
    return st.tuples(
        st.lists(big, min_size=h, max_size=h),
        st.lists(big, min_size=h, max_size=h),
        st.integers(0, h - 1),
    )


def _checker(ctx: ClaimContext, found: list[Counterexample]) -> Any:
    """The property hypothesis tests on one sample (None when no random check applies)."""
    game = ctx.game.normal if ctx.game is not None else None
    if ctx.spec.is_identity:
        return _identity_checker(ctx, found)
    if ctx.one_heap and isinstance(game, HeapGame) and not game.splits:
        return _heap_checker(ctx, game, found)
    multi = game is not None and (isinstance(game, HeapGame) or _samples(game.moves_spec))
    if ctx.spec.about_positions and ctx.heaps and multi:
        assert game is not None
        return _multi_checker(ctx, game, found)
    return None


def _identity_checker(ctx: ClaimContext, found: list[Counterexample]) -> Any:
    def check_identity(point: dict[str, int]) -> None:
        cx = settle.identity_fails_at(ctx, point)
        if cx is not None:
            found.append(cx)
            raise AssertionError

    return check_identity


def _heap_checker(ctx: ClaimContext, game: HeapGame, found: list[Counterexample]) -> Any:
    def check_heap(sample: tuple[int, int]) -> None:
        n, r = sample
        m = _heap_target(game, n, r)
        if m is None or not heap_move_legal(game, n, m):
            return
        _cond1(ctx, n, m, found)

    return check_heap


def _random_move(game: Game, p: list[int], rs: list[int], i: int) -> list[int] | None:
    """A move from ``p`` chosen by the random numbers ``rs`` and ``i`` (None: none chosen)."""
    if isinstance(game, HeapGame):
        m = _heap_target(game, p[i], rs[i])
        if m is None:
            return None
        q = list(p)
        q[i] = m
        return q
    return _multi_move(game.moves_spec, p, rs, i)


@singledispatch
def _samples(spec: MoveDescription) -> bool:
    """True when random moves of a multi-heap position are drawn for this description."""
    return False


@singledispatch
def _multi_move(spec: MoveDescription, p: list[int], rs: list[int], i: int) -> list[int] | None:
    return None


@_samples.register
def _(spec: UpToKHeaps) -> bool:
    return True


@_multi_move.register
def _(spec: UpToKHeaps, p: list[int], rs: list[int], i: int) -> list[int] | None:
    q = list(p)
    for j in range(min(spec.k, len(p))):
        idx = (i + j) % len(p)
        if p[idx] > 0:
            q[idx] = rs[idx] % p[idx]
    return q


@_samples.register
def _(spec: StairToStair) -> bool:
    return True


@_multi_move.register
def _(spec: StairToStair, p: list[int], rs: list[int], i: int) -> list[int] | None:
    if p[i] == 0:
        return None
    q = list(p)
    c = 1 + rs[i] % p[i]
    q[i] -= c
    if i > 0:
        q[i - 1] += c
    return q


def _multi_checker(ctx: ClaimContext, game: Game, found: list[Counterexample]) -> Any:
    assert ctx.game is not None
    whole = ctx.game

    def check_multi(sample: tuple[list[int], list[int], int]) -> None:
        p, rs, i = sample
        q = _random_move(game, p, rs, i)
        if q is None or q == p or not is_move(whole, p, q):
            return
        _cond1(ctx, tuple(p), tuple(q), found)

    return check_multi


def _cond1(ctx: ClaimContext, p: Any, q: Any, found: list[Counterexample]) -> None:
    try:
        a, b = recheck.formula_at(ctx, p), recheck.formula_at(ctx, q)
    except EvalError as exc:
        found.append(settle.undefined_at(ctx, p, exc))
        raise AssertionError from None
    violated = (a and b) if ctx.spec.states_p_positions else (a == b)
    if violated:
        what = (
            "two claimed P-positions"
            if ctx.spec.states_p_positions
            else f"two positions the claim values {a}"
        )
        cx = settle.move_joins(
            ctx,
            p,
            q,
            f"The move {p} -> {q} joins {what}.",
            "exact evaluation and the move definition",
        )
        if cx is not None:
            found.append(cx)
            raise AssertionError
