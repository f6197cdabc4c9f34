"""Exhaustive checks on every position of a finite domain closed under moves.

* One heap: the claimed values ``F(0..N)`` are fed to a one-step mex kernel
  (:mod:`.kernels`); the first heap where ``mex(options under F) != F`` is the
  smallest counterexample and the mex there is its true value. The claim is
  also compared with the engine's stored table (two independent paths).
* Several heaps (box ``[0, B]^h``, closed for heap-lowering moves): the local
  conditions are evaluated with whole-array operations — for Nim-like moves
  "some smaller value along an axis is in the set" is a shifted cumulative
  sum; Moore's moves combine those along up to ``k`` axes. The first violation
  in order of total size is a position where the claim is wrong.
* Staircase Nim (the box is not closed: coins move down and raise a pile),
  sums with unusual components, and plugin games are checked against the
  reference implementation on a closed domain (total coins at most ``T``, or
  the plugin's own ``positions(bound)``).
* Identities: every assignment of the variables in ``[0, V]``.

Bounds grow geometrically up to the requested one, so a false claim is
caught at a small bound with a small counterexample.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Hashable, Iterator, Mapping
from typing import Any, TypedDict, cast

import numpy as np

from nimproof.engines import reference
from nimproof.errors import EvalError
from nimproof.expr import evaluate, evaluate_array
from nimproof.games import (
    FiniteTakes,
    HeapGame,
    IntervalTakes,
    OneHeapOfEach,
    PluginGame,
    RelationMoves,
    SetTakes,
    SplitUnequal,
    StairToStair,
    TakeAndBreak,
    UpToKHeaps,
)
from nimproof.provers import deadline, evidence, kernels, recheck
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample, MethodResult, Scope, Status

NAME = "exhaustive"


class Options(TypedDict, total=False):
    """Options of the ``exhaustive`` method in ``[claim.checks]`` (all optional)."""

    max_n: int
    """largest heap (one-heap claims)"""
    max_heap: int
    """largest heap in each position"""
    max_total: int
    """most tokens in all (staircase Nim)"""
    max_size: int
    """largest size (plugin games)"""
    max_value: int
    """largest value of each variable (identities)"""


MAX_POSITIONS = 50_000_000
GENERIC_MAX_POSITIONS = 400_000


class _TooLarge(Exception):
    pass


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Check the claim on every position up to the bound in ``options``."""
    t0 = time.monotonic()
    try:
        if ctx.kind == "identity":
            result = _identity(ctx, options)
        elif ctx.kind == "sum_rule":
            result = _sum_rule(ctx, options)
        elif ctx.one_heap:
            result = _one_heap(ctx, options)
        elif ctx.kind in ("grundy", "p_positions"):
            result = _multi(ctx, options)
        else:
            return MethodResult(NAME, "unknown", detail=f"does not apply to {ctx.kind} claims")
    except _TooLarge as exc:
        return MethodResult(NAME, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    except EvalError as exc:
        # Numbers beyond int64 (huge shifts, powers): decide the smallest positions exactly.
        found = evidence.scan_smallest(ctx, 63 if ctx.one_heap else 7)
        if found is not None:
            return MethodResult(
                NAME,
                "refuted",
                detail=f"vectorised evaluation impossible ({exc}); exact evaluation instead",
                seconds=time.monotonic() - t0,
                counterexample=found,
            )
        return MethodResult(
            NAME, "unknown", detail=f"cannot evaluate: {exc}", seconds=time.monotonic() - t0
        )
    status, scope, cx, detail, stats = result
    return MethodResult(NAME, cast(Status, status), scope, detail, time.monotonic() - t0, cx, stats)


Result = tuple[str, Scope, Counterexample | None, str, dict[str, Any]]


def _ladder(limit: int, first: int) -> list[int]:
    out, b = [], first
    while b < limit:
        out.append(b)
        b = b * 4 + 3
    out.append(limit)
    return out


def _bound(options: Mapping[str, Any], keys: tuple[str, ...], default: int, cap: int) -> int:
    for key in keys:
        if key in options:
            value = options[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise _TooLarge(f"{key} must be a non-negative whole number")
            if value > cap:
                raise _TooLarge(f"{key} = {value} is above this method's limit of {cap}")
            return value
    return default


# ---------------------------------------------------------------------------
# one heap
# ---------------------------------------------------------------------------


def claimed_values(ctx: ClaimContext, n_max: int) -> tuple[np.ndarray, int | None]:
    """``F(0..n_max)`` and the first heap where the formula is undefined (None if nowhere)."""
    assert ctx.formula is not None
    n = np.arange(n_max + 1, dtype=np.int64)
    values, undefined = evaluate_array(ctx.formula, {"n": n, **ctx.params})
    bad = np.flatnonzero(undefined)
    return np.asarray(values, dtype=np.int64).copy(), (int(bad[0]) if bad.size else None)


def one_step_mex(ctx: ClaimContext, F: np.ndarray) -> np.ndarray | None:
    """``mex`` over the options of each heap, valued by ``F``; None when no kernel applies."""
    base = ctx.heap_game
    assert base is not None
    tv = 1 if ctx.misere else 0
    n_all = len(F)
    spec = base.moves_spec
    if isinstance(spec, FiniteTakes):
        return kernels.mex_takes(F, np.asarray(spec.takes, dtype=np.int64), tv)
    if isinstance(spec, IntervalTakes):
        lo = np.asarray([spec.lowest(n) for n in range(n_all)], dtype=np.int64)
        return kernels.mex_interval(F, lo, tv)
    if isinstance(spec, SetTakes | RelationMoves):
        starts = [0]
        targets: list[int] = []
        if isinstance(spec, SetTakes):
            members = spec.members_up_to(n_all)
            for n in range(n_all):
                targets.extend(n - t for t in members if t <= n)
                starts.append(len(targets))
        else:
            if n_all > 3001:
                raise _TooLarge("rule games are checked exhaustively up to n = 3000")
            for n in range(n_all):
                m = np.arange(n, dtype=np.int64)
                ok, undefined = evaluate_array(spec.predicate, {"n": np.int64(n), "m": m})
                legal = np.broadcast_to(ok & ~undefined, m.shape)
                targets.extend(int(x) for x in m[legal])
                starts.append(len(targets))
        return kernels.mex_targets(
            F, np.asarray(starts, dtype=np.int64), np.asarray(targets, dtype=np.int64), tv
        )
    if ctx.misere:
        return None  # split positions are not single heaps in misère play
    if isinstance(spec, TakeAndBreak):
        return kernels.mex_octal(F, np.asarray(spec.digits, dtype=np.int64))
    if isinstance(spec, SplitUnequal):
        return kernels.mex_grundys_game(F)
    return None


def _one_heap(ctx: ClaimContext, options: Mapping[str, Any]) -> Result:
    from nimproof.engines import grundy_table

    base = ctx.heap_game
    assert base is not None
    limit = _bound(options, ("max_n", "max_heap"), 1000, 10_000_000)
    if isinstance(base.moves_spec, IntervalTakes | RelationMoves | SetTakes) and limit > 200_000:
        raise _TooLarge("quadratic move sets are checked exhaustively up to n = 200000")
    if ctx.misere and base.splits and limit > 60:
        raise _TooLarge("misère take-and-break heaps are checked exhaustively up to n = 60")
    checked = -1
    engine_name = "grundy_table"
    for bound in _ladder(limit, 63):
        deadline.check(ctx.deadline, f"checking heaps up to {bound}")
        F, undefined_at = claimed_values(ctx, bound)
        if undefined_at is not None:
            try:
                recheck.formula_at(ctx, undefined_at)
            except EvalError as exc:
                return (
                    "refuted",
                    Scope("none"),
                    recheck.undefined_at(ctx, undefined_at, exc),
                    "",
                    {},
                )
        G = one_step_mex(ctx, F)
        assert ctx.game is not None
        table = grundy_table(ctx.game, bound)
        if G is not None:
            diff = np.flatnonzero(G != F)
            if diff.size:
                n0 = int(diff[0])
                cx = recheck.heap_counterexample(ctx, n0, "reference implementation")
                if cx is None:
                    # The mex step says the claim fails at n0; the reference disagrees or is too costly.
                    cx = Counterexample(
                        n0,
                        "value",
                        f"At heap {n0} the claim gives {int(F[n0])}, but the mex over its options is "
                        f"{int(G[n0])} (not re-checked: the reference is too costly at this size).",
                        int(F[n0]),
                        int(G[n0]),
                        None,
                        False,
                        "",
                    )
                return "refuted", Scope("none"), cx, f"local conditions fail first at n = {n0}", {}
            if not np.array_equal(table, F):
                k = int(np.flatnonzero(table != F)[0])
                return (
                    "unknown",
                    Scope("none"),
                    None,
                    f"the claim satisfies the local conditions but the engine table differs at n = {k}: "
                    "an engine bug, reported instead of a verdict",
                    {},
                )
        else:
            diff = np.flatnonzero(table != F)
            if diff.size:
                n0 = int(diff[0])
                cx = recheck.heap_counterexample(ctx, n0, "reference implementation")
                if cx is None:
                    return (
                        "unknown",
                        Scope("none"),
                        None,
                        f"the engine table differs from the claim at n = {n0}, not confirmed by the reference",
                        {},
                    )
                return "refuted", Scope("none"), cx, f"the table differs first at n = {n0}", {}
            ref_n = min(bound, 40 if ctx.misere else 400)
            ref = (
                [recheck.true_heap_value(ctx, n) for n in range(ref_n + 1)]
                if ctx.misere
                else (reference.heap_table(base, ref_n))
            )
            if list(map(int, F[: ref_n + 1])) != ref:
                return ("unknown", Scope("none"), None, "engine table and reference disagree", {})
        checked = bound
    how = (
        "one-step mex over the claimed values and the engine table"
        if G is not None
        else "engine table"
    )
    return (
        "proved",
        Scope("bound", bound=checked, measure="heap"),
        None,
        f"heaps 0..{checked}: {how} ({engine_name})",
        {"positions": checked + 1},
    )


# ---------------------------------------------------------------------------
# several heaps
# ---------------------------------------------------------------------------


def _heaps_of(ctx: ClaimContext) -> int:
    if ctx.heap_count is not None:
        return ctx.heap_count
    raise _TooLarge("this claim needs a heap count")


def _vector_axes(ctx: ClaimContext, h: int) -> list[HeapGame] | None:
    """Per-axis one-heap rules when the game is a sum that whole-array operations handle."""
    assert ctx.game is not None
    spec = ctx.game.moves_spec
    base = ctx.game.normal
    if isinstance(spec, OneHeapOfEach):
        comps = list(spec.components)
    elif isinstance(base, HeapGame):
        comps = [base] * h
    else:
        return None
    if any(c.splits for c in comps):
        return None
    return comps


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
    b = mask.shape[axis]
    spec = game.moves_spec
    if isinstance(spec, IntervalTakes):
        lo = np.asarray([spec.lowest(a) for a in range(b)], dtype=np.int64)
        return _shift_any(mask, axis, lo)
    out = np.zeros(mask.shape, dtype=bool)
    if isinstance(spec, FiniteTakes):
        for t in spec.takes:
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


def _reach(mask: np.ndarray, ctx: ClaimContext, axes: list[HeapGame] | None) -> np.ndarray:
    """Positions of the box with a move into ``mask``."""
    assert ctx.game is not None
    spec = ctx.game.moves_spec
    if isinstance(spec, UpToKHeaps):
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
    assert axes is not None
    out = np.zeros(mask.shape, dtype=bool)
    for axis, comp in enumerate(axes):
        out |= _reach_axis(mask, axis, comp)
    return out


def _first_by_size(mask: np.ndarray) -> tuple[int, ...]:
    idx = np.argwhere(mask)
    order = np.lexsort((*[idx[:, i] for i in range(idx.shape[1] - 1, -1, -1)], idx.sum(axis=1)))
    return tuple(int(x) for x in idx[order[0]])


def _multi(ctx: ClaimContext, options: Mapping[str, Any]) -> Result:
    game = ctx.game
    if isinstance(game, PluginGame):
        return _generic(ctx, options)
    assert game is not None
    h = _heaps_of(ctx)
    axes = _vector_axes(ctx, h)
    spec = game.moves_spec
    if isinstance(spec, StairToStair) or (axes is None and not isinstance(spec, UpToKHeaps)):
        return _generic(ctx, options)
    limit = _bound(options, ("max_heap",), 7, 4096)
    if (limit + 1) ** h > MAX_POSITIONS:
        raise _TooLarge(f"{(limit + 1) ** h} positions exceed the limit of {MAX_POSITIONS}")
    checked = -1
    for bound in _ladder(limit, 3):
        deadline.check(ctx.deadline, f"checking heaps up to {bound}")
        grids = np.meshgrid(*[np.arange(bound + 1, dtype=np.int64)] * h, indexing="ij")
        assert ctx.formula is not None
        values, undefined = evaluate_array(ctx.formula, {"h": list(grids), **ctx.params})
        if undefined.any():
            point = _first_by_size(undefined)
            try:
                recheck.formula_at(ctx, point)
            except EvalError as exc:
                return "refuted", Scope("none"), recheck.undefined_at(ctx, point, exc), "", {}
        terminal = ~_reach(np.ones(values.shape, dtype=bool), ctx, axes)
        if ctx.kind == "p_positions":
            P = np.asarray(values, dtype=bool)
            reach = _reach(P, ctx, axes)
            bad = (P & reach) | (~P & ~reach & ~(terminal if ctx.misere else False))
            if ctx.misere:
                bad |= P & terminal
        else:
            F = np.asarray(values, dtype=np.int64)
            G = np.full(F.shape, -1, dtype=np.int64)
            top = int(F.max()) + 2 if F.size else 1
            for v in range(top):
                hit = _reach(np.equal(F, v), ctx, axes)
                G = np.where((G < 0) & ~hit, v, G)
            G = np.where(G < 0, top, G)
            if ctx.misere:
                G = np.where(terminal, 1, G)
            bad = G != F
        if bad.any():
            point = _first_by_size(bad)
            cx = recheck.first_disagreement(ctx, point)
            if cx is None:
                cx = Counterexample(
                    point,
                    "value",
                    f"The local conditions fail at {point} (not re-checked: "
                    "the reference is too costly here).",
                    None,
                    None,
                    None,
                    False,
                    "",
                )
            return "refuted", Scope("none"), cx, f"local conditions fail first at {point}", {}
        _compare_engine(ctx, h, bound, values)
        checked = bound
    return (
        "proved",
        Scope("bound", bound=checked, measure="heap", heaps=h),
        None,
        f"every position with heaps 0..{checked} ({(checked + 1) ** h} positions): local conditions "
        "by whole-array operations",
        {"positions": (checked + 1) ** h},
    )


def _compare_engine(ctx: ClaimContext, h: int, bound: int, values: np.ndarray) -> None:
    """Cross-check against the engine's table; a disagreement is an engine bug and stops the run."""
    from nimproof.engines import multi_table

    if (bound + 1) ** h > 2_000_000:
        return
    assert ctx.game is not None
    try:
        table = multi_table(ctx.game, h, bound)
    except Exception:  # the engine may not cover this game; the local conditions already decided
        return
    if ctx.kind == "p_positions":
        same = np.array_equal(
            np.asarray(table.p_positions, dtype=bool), np.asarray(values, dtype=bool)
        )
    else:
        same = table.values is None or np.array_equal(table.values, values)
    if not same:
        raise _TooLarge(
            "the claim satisfies the local conditions but the engine's table differs: an engine bug, "
            "reported instead of a verdict"
        )


def _generic_positions(ctx: ClaimContext, bound: int, h: int | None) -> Iterator[Any]:
    game = ctx.game
    if isinstance(game, PluginGame):
        yield from game.positions(bound)
        return
    assert h is not None and game is not None
    if isinstance(game.moves_spec, StairToStair):
        # Every position with at most `bound` coins in all: closed under moves.
        for total in range(bound + 1):
            for cut in itertools.combinations(range(total + h - 1), h - 1):
                parts, prev = [], -1
                for c in (*cut, total + h - 1):
                    parts.append(c - prev - 1)
                    prev = c
                yield tuple(parts)
        return
    yield from itertools.product(range(bound + 1), repeat=h)


def _generic(ctx: ClaimContext, options: Mapping[str, Any]) -> Result:
    """Compare the claim with reference values on a closed domain, position by position."""
    game = ctx.game
    assert game is not None
    plugin = isinstance(game, PluginGame)
    h = None if plugin else _heaps_of(ctx)
    keys = ("max_size",) if plugin else ("max_total",) if ctx.staircase else ("max_heap",)
    limit = _bound(options, (*keys, "max_heap", "max_total", "max_size"), 6, 100_000)
    cache: dict[Hashable, int] = {}
    checked = -1
    count = 0
    for bound in _ladder(limit, 3):
        positions = []
        for pos in _generic_positions(ctx, bound, h):
            positions.append(pos)
            if len(positions) > GENERIC_MAX_POSITIONS:
                raise _TooLarge(f"more than {GENERIC_MAX_POSITIONS} positions at bound {bound}")
        positions.sort(key=lambda p: (sum(p), len(p), p))
        for i, pos in enumerate(positions):
            deadline.every(ctx.deadline, 64, i, "comparing with the reference")
            key = game.position(pos)
            actual = reference.value(game, key, cache)
            try:
                claimed = recheck.formula_at(ctx, pos)
            except EvalError as exc:
                return "refuted", Scope("none"), recheck.undefined_at(ctx, pos, exc), "", {}
            wrong = (
                (bool(claimed) != (actual == 0))
                if ctx.kind == "p_positions"
                else (claimed != actual)
            )
            if wrong:
                move = None
                for q in game.moves(key):
                    if reference.value(game, q, cache) == 0:
                        move = q
                        break
                return (
                    "refuted",
                    Scope("none"),
                    recheck.value_mismatch(
                        ctx, pos, claimed, actual, "reference implementation", move
                    ),
                    f"first disagreement at {pos}",
                    {},
                )
        checked, count = bound, len(positions)
    measure = "size" if plugin else "total" if ctx.staircase else "heap"
    return (
        "proved",
        Scope("bound", bound=checked, measure=measure, heaps=h),
        None,
        f"{count} positions compared with the reference (direct mex)",
        {"positions": count},
    )


# ---------------------------------------------------------------------------
# identities and sums
# ---------------------------------------------------------------------------


def _identity(ctx: ClaimContext, options: Mapping[str, Any]) -> Result:
    assert ctx.formula is not None
    names = list(ctx.claim.variables)
    limit = _bound(options, ("max_value",), 63, 1 << 20)
    if (limit + 1) ** len(names) > 20 * MAX_POSITIONS:
        raise _TooLarge("too many assignments")
    rest = names[1:]
    grids = (
        np.meshgrid(*[np.arange(limit + 1, dtype=np.int64)] * len(rest), indexing="ij")
        if rest
        else []
    )
    per_first = (limit + 1) ** len(rest)
    chunk = max(1, 4_000_000 // per_first)
    for start in range(0, limit + 1, chunk):
        firsts = np.arange(start, min(limit + 1, start + chunk), dtype=np.int64)
        env: dict[str, Any] = {names[0]: firsts.reshape((-1,) + (1,) * len(rest)), **ctx.params}
        env.update((name, g[np.newaxis, ...]) for name, g in zip(rest, grids, strict=True))
        ok, undefined = evaluate_array(ctx.formula, env)
        bad = (~np.asarray(ok, dtype=bool)) | undefined
        shape = (len(firsts),) + (limit + 1,) * len(rest)
        full = np.broadcast_to(bad, shape)
        if full.any():
            idx = _first_by_size(full)
            point = {names[0]: int(firsts[idx[0]]), **dict(zip(rest, idx[1:], strict=True))}
            try:
                value = evaluate(ctx.formula, {**point, **ctx.params})
            except EvalError as exc:
                return "refuted", Scope("none"), recheck.undefined_at(ctx, point, exc), "", {}
            if value:
                return (
                    "unknown",
                    Scope("none"),
                    None,
                    f"vectorised and exact evaluation disagree at {point}",
                    {},
                )
            text = f"The identity is false at {recheck.describe_position(ctx, point)}."
            return (
                "refuted",
                Scope("none"),
                Counterexample(
                    point, "identity", text, True, False, None, True, "exact integer evaluation"
                ),
                "",
                {},
            )
    total = (limit + 1) ** len(names)
    return (
        "proved",
        Scope("bound", bound=limit, measure="value"),
        None,
        f"all {total} assignments with values 0..{limit}",
        {"positions": total},
    )


def _sum_rule(ctx: ClaimContext, options: Mapping[str, Any]) -> Result:
    from nimproof.engines import grundy_table

    game = ctx.game
    assert game is not None
    limit = _bound(options, ("max_heap",), 8, 64)
    comps = ctx.components
    tables = [grundy_table(c, limit) for c in comps]
    for comp, table in zip(comps, tables, strict=True):
        ref = reference.heap_table(comp, limit)
        if [int(x) for x in table] != ref:
            k = next(i for i, (a, b) in enumerate(zip(table, ref, strict=True)) if a != b)
            return (
                "unknown",
                Scope("none"),
                None,
                f"the engine table of {comp.spec} disagrees with the reference at n = {k}: an engine bug, "
                "reported instead of a verdict",
                {},
            )
    cache: dict[Hashable, int] = {}
    count = 0
    for heaps in sorted(
        itertools.product(range(limit + 1), repeat=len(comps)), key=lambda p: (sum(p), p)
    ):
        deadline.every(ctx.deadline, 16, count, "computing sums")
        direct = reference.value(game, game.position(heaps), cache)
        xor = 0
        for t, x in zip(tables, heaps, strict=True):
            xor ^= int(t[x])
        count += 1
        if direct != xor:
            parts = " xor ".join(str(int(t[x])) for t, x in zip(tables, heaps, strict=True))
            text = (
                f"At heaps {heaps} the direct mex over joint positions gives {direct}, but the xor of "
                f"the parts' values is {parts} = {xor}."
            )
            return (
                "refuted",
                Scope("none"),
                Counterexample(
                    heaps, "sum", text, xor, direct, None, True, "reference implementation"
                ),
                "",
                {},
            )
    return (
        "proved",
        Scope("bound", bound=limit, measure="heap", heaps=len(comps)),
        None,
        f"{count} joint positions: direct mex equals the xor of the engine tables",
        {"positions": count},
    )
