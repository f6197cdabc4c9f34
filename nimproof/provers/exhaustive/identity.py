"""Exhaustive checks of identities (every assignment of the variables in ``[0, V]``) and of
sum rules (the direct mex of joint positions against the xor of the parts' tables)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Mapping
from typing import Any

import numpy as np

from nimproof import tables
from nimproof.engines import reference
from nimproof.expr import evaluate_array
from nimproof.provers import deadline, recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.exhaustive.common import (
    MAX_POSITIONS,
    TooLarge,
    bound,
    first_by_size,
    proved,
    refuted,
    unknown,
)
from nimproof.verdict import MethodResult, Scope


def check_identity(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Every assignment of the variables with values ``0..max_value``, in chunks of the first."""
    assert ctx.formula is not None
    names = list(ctx.claim.variables)
    limit = bound(options, ("max_value",), 63, 1 << 20)
    if (limit + 1) ** len(names) > 20 * MAX_POSITIONS:
        raise TooLarge("too many assignments")
    for firsts, env in _assignments(ctx, names, limit):
        ok, undefined = evaluate_array(ctx.formula, env)
        bad = (~np.asarray(ok, dtype=bool)) | undefined
        full = np.broadcast_to(bad, (len(firsts),) + (limit + 1,) * (len(names) - 1))
        if full.any():
            idx = first_by_size(full)
            point = {names[0]: int(firsts[idx[0]]), **dict(zip(names[1:], idx[1:], strict=True))}
            return _false_at(ctx, point)
    total = (limit + 1) ** len(names)
    return proved(
        Scope("bound", bound=limit, measure="value"),
        f"all {total} assignments with values 0..{limit}",
        total,
    )


def _assignments(
    ctx: ClaimContext, names: list[str], limit: int
) -> Iterator[tuple[np.ndarray, dict[str, Any]]]:
    """Chunks of the first variable's values, each with an environment over the whole grid."""
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
        yield firsts, env


def _false_at(ctx: ClaimContext, point: dict[str, int]) -> MethodResult:
    """The verdict where vectorised evaluation finds the identity false, after exact evaluation."""
    cx = settle.identity_fails_at(ctx, point)
    if cx is None:
        return unknown(f"vectorised and exact evaluation disagree at {point}")
    return refuted(cx)


def check_sum_rule(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Every joint position of heaps ``0..max_heap``: direct mex against the xor of the tables."""
    game = ctx.game
    assert game is not None
    limit = bound(options, ("max_heap",), 8, 64)
    comps = ctx.components
    values = [tables.heap_values(c, limit)[: limit + 1] for c in comps]
    for comp, table in zip(comps, values, strict=True):
        k = recheck.table_mismatch(table, reference.heap_table(comp, limit))
        if k is not None:
            return unknown(
                f"the engine table of {comp.spec} disagrees with the reference at n = {k}: an engine bug, "
                "reported instead of a verdict"
            )
    cache: dict[Hashable, int] = {}
    count = 0
    for heaps in sorted(
        itertools.product(range(limit + 1), repeat=len(comps)), key=lambda p: (sum(p), p)
    ):
        deadline.every(ctx.deadline, 16, count, "computing sums")
        direct = reference.value(game, game.position(heaps), cache)
        xor = 0
        for t, x in zip(values, heaps, strict=True):
            xor ^= int(t[x])
        count += 1
        if direct != xor:
            parts = " xor ".join(str(int(t[x])) for t, x in zip(values, heaps, strict=True))
            text = (
                f"At heaps {heaps} the direct mex over joint positions gives {direct}, but the xor of "
                f"the parts' values is {parts} = {xor}."
            )
            return refuted(settle.candidate(heaps, "sum", text, xor, direct))
    return proved(
        Scope("bound", bound=limit, measure="heap", heaps=len(comps)),
        f"{count} joint positions: direct mex equals the xor of the engine tables",
        count,
    )
