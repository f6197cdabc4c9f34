"""What the exhaustive method's checks share: bounds, the ladder of bounds, results."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from nimproof.errors import EvalError
from nimproof.provers import deadline, recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope

NAME = "exhaustive"

MAX_POSITIONS = 50_000_000
GENERIC_MAX_POSITIONS = 400_000


class TooLarge(Exception):
    """The check asked for is beyond this method's limits: the answer is ``unknown``."""


def ladder(limit: int, first: int) -> list[int]:
    """Bounds ``first, 4 first + 3, ...`` below ``limit``, then ``limit`` itself."""
    out, b = [], first
    while b < limit:
        out.append(b)
        b = b * 4 + 3
    out.append(limit)
    return out


def bound(options: Mapping[str, Any], keys: tuple[str, ...], default: int, cap: int) -> int:
    """The first of ``keys`` given in ``options`` (a whole number at most ``cap``), else ``default``."""
    for key in keys:
        if key in options:
            value = options[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise TooLarge(f"{key} must be a non-negative whole number")
            if value > cap:
                raise TooLarge(f"{key} = {value} is above this method's limit of {cap}")
            return value
    return default


def first_by_size(mask: np.ndarray) -> tuple[int, ...]:
    """The true entry of ``mask`` with the smallest coordinate sum (lexicographic among equals)."""
    idx = np.argwhere(mask)
    order = np.lexsort((*[idx[:, i] for i in range(idx.shape[1] - 1, -1, -1)], idx.sum(axis=1)))
    return tuple(int(x) for x in idx[order[0]])


def proved(scope: Scope, detail: str, positions: int) -> MethodResult:
    """``proved`` on ``scope`` after checking ``positions`` positions."""
    return MethodResult(NAME, "proved", scope, detail, stats={"positions": positions})


def refuted(cx: Counterexample, detail: str = "") -> MethodResult:
    """``refuted`` by the re-checked counterexample ``cx``."""
    return MethodResult(NAME, "refuted", NO_SCOPE, detail, counterexample=cx)


def refuted_where(
    found: Counterexample | None,
    where: Any,
    why: str,
    claimed: Any = None,
    actual: Any = None,
    named: str = "",
) -> MethodResult:
    """``refuted`` by ``found`` (a counterexample :mod:`..settle` confirmed), or when the
    re-check could not reach the truth, by a candidate at ``where`` (``why`` in words) for
    :func:`~nimproof.provers.settle.settle` to decide; the detail names ``where`` (as
    ``named`` when given)."""
    cx = found or settle.candidate(where, "value", why, claimed, actual)
    return refuted(cx, f"local conditions fail first at {named or where}")


def unknown(detail: str) -> MethodResult:
    """``unknown``, with the reason."""
    return MethodResult(NAME, "unknown", NO_SCOPE, detail)


def undefined_there(ctx: ClaimContext, point: Any) -> MethodResult | None:
    """A refutation if exact evaluation finds the claim undefined at ``point``; None if it is defined."""
    try:
        recheck.formula_at(ctx, point)
    except EvalError as exc:
        return refuted(settle.undefined_at(ctx, point, exc))
    return None


#: Positions the exact scan examines at most.
SCAN_POSITIONS = 4096


def scan_smallest(ctx: ClaimContext, bound: int) -> Counterexample | None:
    """The first position (smallest first, heaps up to ``bound``) where the claim is wrong.

    Uses exact integer evaluation of the claim and the true values only (each
    position re-checked by :mod:`nimproof.provers.settle`); for formulas whose
    numbers leave int64 (huge shifts and powers). Examines at most
    :data:`SCAN_POSITIONS` positions.
    """
    if ctx.spec.is_identity:
        names = list(ctx.claim.variables)
        points: Iterator[Any] = (
            dict(zip(names, p, strict=True))
            for p in sorted(
                itertools.product(range(bound + 1), repeat=len(names)), key=lambda p: (sum(p), p)
            )
        )
    elif ctx.one_heap:
        points = iter(range(bound + 1))
    elif ctx.spec.about_positions and ctx.heaps:
        points = iter(
            sorted(itertools.product(range(bound + 1), repeat=ctx.heaps), key=lambda p: (sum(p), p))
        )
    else:
        return None
    for i, point in enumerate(itertools.islice(points, SCAN_POSITIONS)):
        deadline.every(ctx.deadline, 64, i, "evaluating the claim exactly")
        if ctx.spec.is_identity:
            found = settle.identity_fails_at(ctx, point)
        else:
            found = settle.wrong_at(ctx, point)
        if found is not None:
            return found
    return None
