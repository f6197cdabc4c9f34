"""What the exhaustive checks share: bounds, the ladder of growing bounds, results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope

NAME = "exhaustive"
MAX_POSITIONS = 50_000_000
GENERIC_MAX_POSITIONS = 400_000


class TooLarge(Exception):
    """The requested bound is beyond what this method checks; the message says why."""


def ladder(limit: int, first: int) -> list[int]:
    """Bounds growing about fourfold from ``first`` to ``limit`` (small counterexamples first)."""
    out, b = [], first
    while b < limit:
        out.append(b)
        b = b * 4 + 3
    out.append(limit)
    return out


def bound(options: Mapping[str, Any], keys: tuple[str, ...], default: int, cap: int) -> int:
    """The first of ``keys`` given in ``options`` (``default`` if none); :class:`TooLarge` if bad."""
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
    """The true cell of ``mask`` with the smallest coordinate sum (then lexicographically first)."""
    idx = np.argwhere(mask)
    order = np.lexsort((*[idx[:, i] for i in range(idx.shape[1] - 1, -1, -1)], idx.sum(axis=1)))
    return tuple(int(x) for x in idx[order[0]])


def proved(scope: Scope, detail: str, positions: int) -> MethodResult:
    """A bounded proof over ``positions`` positions (seconds are filled in by ``run``)."""
    return MethodResult(NAME, "proved", scope, detail, stats={"positions": positions})


def refuted(cx: Counterexample, detail: str = "") -> MethodResult:
    """A refutation by ``cx``."""
    return MethodResult(NAME, "refuted", NO_SCOPE, detail, counterexample=cx)


def unknown(detail: str) -> MethodResult:
    """No verdict; ``detail`` says why."""
    return MethodResult(NAME, "unknown", NO_SCOPE, detail)
