"""Exhaustive one-heap checks: the claimed values against one step of mex and the engine.

The claimed values ``F(0..N)`` are fed to a one-step mex kernel
(:mod:`nimproof.provers.kernels`); the first heap where
``mex(options under F) != F`` is the smallest counterexample and the mex there
is its true value. The claim is also compared with the engine's stored table
(two independent paths). Where no kernel applies, the engine table is compared
with the claim and, at small heaps, with the reference implementation.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import singledispatch
from typing import Any

import numpy as np

from nimproof import tables
from nimproof.engines import reference
from nimproof.engines.heap import misere_split_limit
from nimproof.errors import UsageError
from nimproof.expr import evaluate_array
from nimproof.games import (
    IntervalTakes,
    MoveDescription,
    RelationMoves,
    SetTakes,
)
from nimproof.provers import deadline, kernels, recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.exhaustive.common import (
    TooLarge,
    bound,
    ladder,
    proved,
    refuted,
    refuted_where,
    undefined_there,
    unknown,
)
from nimproof.provers.recursion import recursive_values
from nimproof.provers.rule_targets import rule_targets
from nimproof.verdict import MethodResult, Scope


def claimed_values(ctx: ClaimContext, n_max: int) -> tuple[np.ndarray, int | None]:
    """``F(0..n_max)`` and the first heap where the formula is undefined (None if nowhere)."""
    assert ctx.formula is not None
    if ctx.recursive:
        return recursive_values(ctx.formula, n_max, ctx.params)
    n = np.arange(n_max + 1, dtype=np.int64)
    values, undefined = evaluate_array(ctx.formula, {"n": n, **ctx.params})
    bad = np.flatnonzero(undefined)
    return np.asarray(values, dtype=np.int64).copy(), (int(bad[0]) if bad.size else None)


def one_step_mex(ctx: ClaimContext, F: np.ndarray) -> np.ndarray | None:
    """``mex`` over the options of each heap, valued by ``F``; None when no kernel applies."""
    base = ctx.heap_game
    assert base is not None
    return _mex(base.moves_spec, F, 1 if ctx.misere else 0, ctx.misere)


@singledispatch
def _mex(spec: MoveDescription, F: np.ndarray, tv: int, misere: bool) -> np.ndarray | None:
    """The one-step mex kernel of a kind of description (None: no kernel; finite takes by
    the description's takes)."""
    takes = spec.finite_takes()
    if takes is not None:
        return kernels.mex_takes(F, np.asarray(takes, dtype=np.int64), tv)
    if misere:
        return None  # split positions are not single heaps in misère play
    digits = spec.octal_digits()
    if digits is not None:
        return kernels.mex_octal(F, np.asarray(digits, dtype=np.int64))
    if spec.unequal_split:
        return kernels.mex_grundys_game(F)
    return None


@_mex.register
def _(spec: IntervalTakes, F: np.ndarray, tv: int, misere: bool) -> np.ndarray:
    lo = np.asarray([spec.lowest(n) for n in range(len(F))], dtype=np.int64)
    return kernels.mex_interval(F, lo, tv)


@_mex.register
def _(spec: SetTakes | RelationMoves, F: np.ndarray, tv: int, misere: bool) -> np.ndarray:
    starts, targets = _move_targets(spec, len(F))
    return kernels.mex_targets(F, starts, targets, tv)


@singledispatch
def _move_targets(spec: MoveDescription, n_all: int) -> tuple[np.ndarray, np.ndarray]:
    """The heaps each heap ``n < n_all`` moves to, as ``(starts, targets)`` (CSR layout)."""
    raise TypeError(f"no target lists for {spec!r}")


@_move_targets.register
def _(spec: SetTakes, n_all: int) -> tuple[np.ndarray, np.ndarray]:
    starts = [0]
    targets: list[int] = []
    members = spec.members_up_to(n_all)
    for n in range(n_all):
        targets.extend(n - t for t in members if t <= n)
        starts.append(len(targets))
    return np.asarray(starts, dtype=np.int64), np.asarray(targets, dtype=np.int64)


@_move_targets.register
def _(spec: RelationMoves, n_all: int) -> tuple[np.ndarray, np.ndarray]:
    solved = rule_targets(spec.predicate, n_all)
    if solved is not None:
        return solved[0], solved[1]
    if n_all > 3001:
        raise TooLarge("rule games are checked exhaustively up to n = 3000")
    starts = [0]
    targets: list[int] = []
    for n in range(n_all):
        m = np.arange(n, dtype=np.int64)
        ok, undefined = evaluate_array(spec.predicate, {"n": np.int64(n), "m": m})
        legal = np.broadcast_to(ok & ~undefined, m.shape)
        targets.extend(int(x) for x in m[legal])
        starts.append(len(targets))
    return np.asarray(starts, dtype=np.int64), np.asarray(targets, dtype=np.int64)


@singledispatch
def _quadratic(spec: MoveDescription) -> bool:
    """True when a heap may have a move to nearly every smaller heap (checks cost n^2)."""
    return False


@_quadratic.register
def _(spec: IntervalTakes | RelationMoves | SetTakes) -> bool:
    return True


def check(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Every heap up to the bound: one-step mex over the claimed values and the engine table."""
    limit = _limit(ctx, options)
    checked = -1
    engine_name = "grundy_table"
    by_mex = False
    for b in ladder(limit, 63):
        deadline.check(ctx.deadline, f"checking heaps up to {b}")
        F, undefined_at = claimed_values(ctx, b)
        if undefined_at is not None and (found := undefined_there(ctx, undefined_at)):
            return found
        G = one_step_mex(ctx, F)
        by_mex = G is not None
        table = _engine_table(ctx, b, by_mex)
        if table is None:  # beyond the engine's limit the local conditions alone decide
            table, engine_name = F, "none beyond the engine's limit"
        outcome = _against_mex(ctx, F, G, table) if G is not None else _against(ctx, b, F, table)
        if outcome is not None:
            return outcome
        checked = b
    how = "one-step mex over the claimed values and the engine table" if by_mex else "engine table"
    return proved(
        Scope("bound", bound=checked, measure="heap"),
        f"heaps 0..{checked}: {how} ({engine_name})",
        checked + 1,
    )


def _limit(ctx: ClaimContext, options: Mapping[str, Any]) -> int:
    """The largest heap asked for, refused (:class:`TooLarge`) where the check would be too costly."""
    base = ctx.heap_game
    assert base is not None
    limit = bound(options, ("max_n", "max_heap"), 1000, 10_000_000)
    if _quadratic(base.moves_spec) and limit > 200_000:
        raise TooLarge("quadratic move sets are checked exhaustively up to n = 200000")
    engine_limit = misere_split_limit(base) if ctx.misere and base.splits else limit
    if limit > engine_limit:
        raise TooLarge(
            f"misère take-and-break heaps are checked exhaustively up to "
            f"n = {engine_limit} (the misère engine's limit), not to the {limit} asked for"
        )
    return limit


def _engine_table(ctx: ClaimContext, b: int, by_mex: bool) -> np.ndarray | None:
    """The engine's table to ``b``; None beyond the engine's limit if the mex decides alone."""
    assert ctx.game is not None
    try:
        return tables.heap_values(ctx.game, b)[: b + 1]
    except UsageError:
        if not by_mex:
            raise TooLarge(f"no engine table of {ctx.game.spec} up to {b}") from None
        return None


def _against_mex(
    ctx: ClaimContext, F: np.ndarray, G: np.ndarray, table: np.ndarray
) -> MethodResult | None:
    """The verdict if the one-step mex ``G`` or the engine table disagrees with ``F``."""
    diff = np.flatnonzero(G != F)
    if diff.size:
        n0 = int(diff[0])
        # Where the reference disagrees with the mex step or is too costly: a candidate.
        why = (
            f"At heap {n0} the claim gives {int(F[n0])}, but the mex over its options is "
            f"{int(G[n0])} (not re-checked: the reference is too costly at this size)."
        )
        found = settle.heap_counterexample(ctx, n0)
        return refuted_where(found, n0, why, int(F[n0]), int(G[n0]), named=f"n = {n0}")
    if not np.array_equal(table, F):
        k = int(np.flatnonzero(table != F)[0])
        return unknown(
            f"the claim satisfies the local conditions but the engine table differs at n = {k}: "
            "an engine bug, reported instead of a verdict"
        )
    return None


def _against(ctx: ClaimContext, b: int, F: np.ndarray, table: np.ndarray) -> MethodResult | None:
    """The verdict if the engine table disagrees with ``F`` (or, at small heaps, the reference)."""
    diff = np.flatnonzero(table != F)
    if diff.size:
        n0 = int(diff[0])
        cx = settle.heap_counterexample(ctx, n0)
        if cx is None:
            return unknown(
                f"the engine table differs from the claim at n = {n0}, not confirmed by the reference"
            )
        return refuted(cx, f"the table differs first at n = {n0}")
    ref_n = min(b, 40 if ctx.misere else 400)
    ref: list[int | None]
    if ctx.misere:
        ref = [recheck.true_heap_value(ctx, n) for n in range(ref_n + 1)]
    else:
        assert ctx.heap_game is not None
        ref = list(reference.heap_table(ctx.heap_game, ref_n))
    if list(map(int, F[: ref_n + 1])) != ref:
        return unknown("engine table and reference disagree")
    return None
