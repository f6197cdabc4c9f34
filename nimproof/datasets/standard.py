"""The standard tables (``nimproof data build``) and spot checks against the reference.

The list is what the miner and the provers use most; building it all takes
well under a minute on two cores.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nimproof.datasets.store import Table, get_or_compute, get_or_compute_multi
from nimproof.engines import reference
from nimproof.games import parse_spec


@dataclass(frozen=True, slots=True)
class Standard:
    """One standard table: a single-heap table up to ``bound``, or a box of ``heaps`` heaps."""

    spec: str
    bound: int
    heaps: int | None = None

    @property
    def label(self) -> str:
        """How the build reports this table."""
        if self.heaps is None:
            return f"{self.spec} (n <= {self.bound:,})"
        return f"{self.spec} ({self.heaps} heaps <= {self.bound})"


STANDARD: tuple[Standard, ...] = (
    Standard("nim", 100_000),
    Standard("subtraction:1,3,4", 1_000_000),
    *(Standard(f"knim:{k}", 100_000) for k in range(1, 11)),
    Standard("half-heap", 100_000),
    Standard("take-fraction:2/3", 100_000),
    Standard("subtraction:primes", 20_000),
    Standard("subtraction:squares", 100_000),
    Standard("subtraction:all-but:1,2", 100_000),
    Standard("kayles", 1 << 16),
    Standard("dawsons-kayles", 1 << 16),
    Standard("dawsons-chess", 1 << 14),
    Standard("officers", 1 << 14),
    Standard("octal:0.007", 1 << 14),
    Standard("grundys-game", 1 << 14),
    Standard("misere:nim", 10_000),
    Standard("misere:knim:3", 10_000),
    Standard("misere:kayles", 30),
    Standard("moore:2", 63, heaps=3),
    Standard("moore:3", 15, heaps=4),
    Standard("staircase", 31, heaps=3),
    Standard("misere:nim", 31, heaps=3),
    Standard("sum:knim:3+half-heap", 255, heaps=2),
)


def build(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    items: tuple[Standard, ...] = STANDARD,
    on_start: Callable[[Standard], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Standard]:
    """Compute (or extend) and store every standard table that is not stored yet with its bound."""
    for item in items:
        if on_start is not None:
            on_start(item)
        game = parse_spec(item.spec)
        if item.heaps is None:
            get_or_compute(game, item.bound, data_dir=data_dir, progress=progress)
        else:
            get_or_compute_multi(game, item.heaps, item.bound, data_dir=data_dir, progress=progress)
    return list(items)


def spot_check(table: Table, count: int = 64) -> str | None:
    """Recompute the start of a stored table with the reference; ``None`` when it agrees.

    Heap tables: heaps ``0..count-1`` (fewer for misère play of splitting
    games). Box tables: the sub-box of side ``min(bound, cbrt(count))``.
    """
    game = parse_spec(table.spec)
    if table.layout == "heap":
        n = min(table.bound, count - 1)
        base = getattr(game, "base", None)
        if game.misere and getattr(base, "splits", False):
            n = min(n, 20)
        stored = table.grundy[: n + 1]
        if game.misere:
            cache: dict[object, int] = {}
            expected = [reference.value(game, i, cache) for i in range(n + 1)]
        else:
            expected = reference.heap_table(game, n)  # type: ignore[arg-type]
        for i, (a, b) in enumerate(zip(stored, expected, strict=True)):
            if int(a) != b:
                return f"heap {i}: stored {int(a)}, reference {b}"
        return None
    side = max(0, min(table.bound, round(count ** (1 / table.heaps)) - 1))
    mt = table.to_multi()
    cache2: dict[object, int] = {}
    for pos in np.ndindex(*((side + 1,) * table.heaps)):
        if table.spec.startswith("sum:"):
            key: object = tuple((h,) if h else () for h in pos)
        else:
            key = tuple(int(h) for h in pos)
        v = reference.value(game, key, cache2)
        if mt.values is not None and int(mt.values[pos]) != v:
            return f"position {pos}: stored {int(mt.values[pos])}, reference {v}"
        if bool(mt.p_positions[pos]) != (v == 0):
            return f"position {pos}: stored outcome disagrees with the reference"
    return None
