"""Exhaustive checks of claims about positions of several heaps.

* Sums of one-heap rules and Moore's Nim (box ``[0, B]^h``, closed for
  heap-lowering moves): the local conditions are evaluated with whole-array
  operations — for Nim-like moves "some smaller value along an axis is in the
  set" is a shifted cumulative sum; Moore's moves combine those along up to
  ``k`` axes. The first violation in order of total size is a position where
  the claim is wrong.
* Staircase Nim (the box is not closed: coins move down and raise a pile),
  sums with unusual components, and plugin games are checked against the
  reference implementation on a closed domain (total coins at most ``T``, or
  the plugin's own ``positions(bound)``).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Mapping
from functools import singledispatch
from typing import Any

import numpy as np

from nimproof.expr import evaluate_array
from nimproof.games import (
    HeapGame,
    IntervalTakes,
    MoveDescription,
    PluginGame,
    StairToStair,
    UpToKHeaps,
)
from nimproof.provers import deadline, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.exhaustive.common import (
    GENERIC_MAX_POSITIONS,
    MAX_POSITIONS,
    TooLarge,
    bound,
    first_by_size,
    ladder,
    proved,
    refuted,
    refuted_where,
    undefined_there,
)
from nimproof.verdict import MethodResult, Scope


def heaps_of(ctx: ClaimContext) -> int:
    """The claim's heap count (:class:`TooLarge` if it has none)."""
    if ctx.heap_count is not None:
        return ctx.heap_count
    raise TooLarge("this claim needs a heap count")


def _vector_axes(ctx: ClaimContext, h: int) -> list[HeapGame] | None:
    """Per-axis one-heap rules when the game is a sum that whole-array operations handle."""
    assert ctx.game is not None
    parts = ctx.game.moves_spec.parts(ctx.game, h)
    if parts is None or any(c.splits for c in parts):
        return None
    return list(parts)


def _shift_any(mask: np.ndarray, axis: int, lo: np.ndarray) -> np.ndarray:
    """``out[..a..] = any(mask[..m..] for lo[a] <= m < a)`` along ``axis``."""
    csum = np.cumsum(mask, axis=axis, dtype=np.int64)
    zero_shape = list(mask.shape)
    zero_shape[axis] = 1
    csum = np.concatenate(
        [np.zeros(zero_shape, dtype=np.int64), csum], axis=axis
    )  # csum[a] = #(m < a)
    b = mask.shape[axis]
    hi_idx = np.arange(b)
    upto_a = np.take(csum, hi_idx, axis=axis)
    upto_lo = np.take(csum, np.minimum(lo[:b], hi_idx), axis=axis)
    return (upto_a - upto_lo) > 0


def _reach_axis(mask: np.ndarray, axis: int, game: HeapGame) -> np.ndarray:
    """Positions with a move along ``axis`` (one heap of ``game``) into ``mask``."""
    return _reach_along(game.moves_spec, mask, axis, game)


@singledispatch
def _reach_along(spec: MoveDescription, mask: np.ndarray, axis: int, game: HeapGame) -> np.ndarray:
    """``_reach_axis`` by the description: finite takes by shifts, else each heap's targets."""
    b = mask.shape[axis]
    out = np.zeros(mask.shape, dtype=bool)
    takes = spec.finite_takes()
    if takes is not None:
        for t in takes:
            if t >= b:
                break
            src = [slice(None)] * mask.ndim
            dst = [slice(None)] * mask.ndim
            src[axis] = slice(0, b - t)
            dst[axis] = slice(t, b)
            out[tuple(dst)] |= mask[tuple(src)]
        return out
    for a in range(b):
        targets = sorted(set(game.heap_targets(a)))
        if not targets:
            continue
        sel: list[Any] = [slice(None)] * mask.ndim
        sel[axis] = a
        out[tuple(sel)] = np.take(mask, targets, axis=axis).any(axis=axis)
    return out


@_reach_along.register
def _(spec: IntervalTakes, mask: np.ndarray, axis: int, game: HeapGame) -> np.ndarray:
    b = mask.shape[axis]
    lo = np.asarray([spec.lowest(a) for a in range(b)], dtype=np.int64)
    return _shift_any(mask, axis, lo)


def _reach(mask: np.ndarray, ctx: ClaimContext, axes: list[HeapGame] | None) -> np.ndarray:
    """Positions of the box with a move into ``mask``."""
    assert ctx.game is not None
    return _reach_by(ctx.game.moves_spec, mask, axes)


@singledispatch
def _reach_by(spec: MoveDescription, mask: np.ndarray, axes: list[HeapGame] | None) -> np.ndarray:
    assert axes is not None
    out = np.zeros(mask.shape, dtype=bool)
    for axis, comp in enumerate(axes):
        out |= _reach_axis(mask, axis, comp)
    return out


@_reach_by.register
def _(spec: UpToKHeaps, mask: np.ndarray, axes: list[HeapGame] | None) -> np.ndarray:
    h = mask.ndim
    out = np.zeros(mask.shape, dtype=bool)
    lo = np.zeros(mask.shape[0], dtype=np.int64)
    for size in range(1, min(spec.k, h) + 1):
        for subset in itertools.combinations(range(h), size):
            cur = mask
            for axis in subset:
                cur = _shift_any(cur, axis, lo)
            out |= cur
    return out


@singledispatch
def _by_arrays(spec: MoveDescription, axes: list[HeapGame] | None) -> bool:
    """True when whole-array operations find the moves (a sum of non-splitting rules)."""
    return axes is not None


@_by_arrays.register
def _(spec: UpToKHeaps, axes: list[HeapGame] | None) -> bool:
    return True


@_by_arrays.register
def _(spec: StairToStair, axes: list[HeapGame] | None) -> bool:
    return False


def check(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Every position of the box by whole-array operations, or of a closed domain by the reference."""
    game = ctx.game
    if isinstance(game, PluginGame):
        return _generic(ctx, options)
    assert game is not None
    h = heaps_of(ctx)
    axes = _vector_axes(ctx, h)
    spec = game.moves_spec
    if not _by_arrays(spec, axes):
        return _generic(ctx, options)
    limit = bound(options, ("max_heap",), 7, 4096)
    if (limit + 1) ** h > MAX_POSITIONS:
        raise TooLarge(f"{(limit + 1) ** h} positions exceed the limit of {MAX_POSITIONS}")
    checked = -1
    for b in ladder(limit, 3):
        deadline.check(ctx.deadline, f"checking heaps up to {b}")
        grids = np.meshgrid(*[np.arange(b + 1, dtype=np.int64)] * h, indexing="ij")
        assert ctx.formula is not None
        values, undefined = evaluate_array(ctx.formula, {"h": list(grids), **ctx.params})
        if undefined.any() and (found := undefined_there(ctx, first_by_size(undefined))):
            return found
        bad = _violations(ctx, values, axes)
        if bad.any():
            return _refuted_at(ctx, first_by_size(bad))
        _compare_engine(ctx, h, b, values)
        checked = b
    return proved(
        Scope("bound", bound=checked, measure="heap", heaps=h),
        f"every position with heaps 0..{checked} ({(checked + 1) ** h} positions): local conditions "
        "by whole-array operations",
        (checked + 1) ** h,
    )


def _violations(ctx: ClaimContext, values: np.ndarray, axes: list[HeapGame] | None) -> np.ndarray:
    """The positions of the box where the claimed ``values`` break the local conditions."""
    terminal = ~_reach(np.ones(values.shape, dtype=bool), ctx, axes)
    if ctx.spec.states_p_positions:
        P = np.asarray(values, dtype=bool)
        reach = _reach(P, ctx, axes)
        bad = (P & reach) | (~P & ~reach & ~(terminal if ctx.misere else False))
        if ctx.misere:
            bad |= P & terminal
        return bad
    F = np.asarray(values, dtype=np.int64)
    G = np.full(F.shape, -1, dtype=np.int64)
    top = int(F.max()) + 2 if F.size else 1
    for v in range(top):
        hit = _reach(np.equal(F, v), ctx, axes)
        G = np.where((G < 0) & ~hit, v, G)
    G = np.where(G < 0, top, G)
    if ctx.misere:
        G = np.where(terminal, 1, G)
    return G != F


def _refuted_at(ctx: ClaimContext, point: tuple[int, ...]) -> MethodResult:
    """The refutation where the local conditions fail first, re-checked by the reference if it can."""
    why = (
        f"The local conditions fail at {point} (not re-checked: the reference is too costly here)."
    )
    return refuted_where(settle.first_disagreement(ctx, point), point, why)


def _compare_engine(ctx: ClaimContext, h: int, b: int, values: np.ndarray) -> None:
    """Cross-check against the engine's table; a disagreement is an engine bug and stops the run."""
    from nimproof.engines import multi_table  # lazy: the engines start numba

    if (b + 1) ** h > 2_000_000:
        return
    assert ctx.game is not None
    try:
        table = multi_table(ctx.game, h, b)
    except Exception:  # the engine may not cover this game; the local conditions already decided
        return
    if ctx.spec.states_p_positions:
        same = np.array_equal(
            np.asarray(table.p_positions, dtype=bool), np.asarray(values, dtype=bool)
        )
    else:
        same = table.values is None or np.array_equal(table.values, values)
    if not same:
        raise TooLarge(
            "the claim satisfies the local conditions but the engine's table differs: an engine bug, "
            "reported instead of a verdict"
        )


def _generic_positions(ctx: ClaimContext, b: int, h: int | None) -> Iterator[Any]:
    game = ctx.game
    if isinstance(game, PluginGame):
        yield from game.positions(b)
        return
    assert h is not None and game is not None
    if not game.moves_spec.lowers_heaps:
        # Every position with at most `b` tokens in all: closed under moves that raise a heap
        # but never the total (staircase Nim, Fibonacci Nim, declared games).
        for total in range(b + 1):
            for cut in itertools.combinations(range(total + h - 1), h - 1):
                parts, prev = [], -1
                for c in (*cut, total + h - 1):
                    parts.append(c - prev - 1)
                    prev = c
                yield tuple(parts)
        return
    yield from itertools.product(range(b + 1), repeat=h)


def _sorted_positions(ctx: ClaimContext, b: int, h: int | None) -> list[Any]:
    """The closed domain at bound ``b``, smallest first (:class:`TooLarge` if it is too big)."""
    positions = []
    for pos in _generic_positions(ctx, b, h):
        positions.append(pos)
        if len(positions) > GENERIC_MAX_POSITIONS:
            raise TooLarge(f"more than {GENERIC_MAX_POSITIONS} positions at bound {b}")
    positions.sort(key=lambda p: (sum(p), len(p), p))
    return positions


def _generic(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Compare the claim with reference values on a closed domain, position by position."""
    game = ctx.game
    assert game is not None
    plugin = isinstance(game, PluginGame)
    h = None if plugin else heaps_of(ctx)
    keys = ("max_size",) if plugin else ("max_total",) if ctx.staircase else ("max_heap",)
    limit = bound(options, (*keys, "max_heap", "max_total", "max_size"), 6, 100_000)
    cache: dict[Hashable, int] = {}
    checked = -1
    count = 0
    for b in ladder(limit, 3):
        positions = _sorted_positions(ctx, b, h)
        for i, pos in enumerate(positions):
            deadline.every(ctx.deadline, 64, i, "comparing with the reference")
            cx = settle.reference_mismatch(ctx, pos, cache)
            if cx is not None:
                return refuted(cx, f"first disagreement at {pos}")
        checked, count = b, len(positions)
    measure = "size" if plugin else "total" if ctx.staircase else "heap"
    return proved(
        Scope("bound", bound=checked, measure=measure, heaps=h),
        f"{count} positions compared with the reference (direct mex)",
        count,
    )
