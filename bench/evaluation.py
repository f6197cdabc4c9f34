"""Exact scalar evaluation of formulas: evaluations per second.

The verifier re-checks every counterexample, the rule games test each move,
and recursive claims are computed, by exact evaluation of a formula tree with
Python integers (:func:`nimproof.expr.evaluate`). Each case here evaluates one
typical formula at many points; the best of a few runs counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nimproof.expr import evaluate, parse

RUNS = 5


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One formula: how many exact evaluations it took and the best time for them."""

    formula: str
    evaluations: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.evaluations / self.seconds if self.seconds > 0 else float("inf")


def _one_heap(n: int) -> list[dict[str, Any]]:
    return [{"n": x} for x in range(n)]


def _rule(n: int) -> list[dict[str, Any]]:
    return [{"n": x, "m": y} for x in range(n) for y in range(x)]


def _heaps(side: int) -> list[dict[str, Any]]:
    return [{"h": (a, b, c)} for a in range(side) for b in range(side) for c in range(side)]


#: (formula, scalar names, sequence names, points)
CASES: tuple[
    tuple[str, tuple[str, ...], tuple[str, ...], Callable[[], list[dict[str, Any]]]], ...
] = (
    ("n % 5 if n % 5 < 3 else 0", ("n",), (), lambda: _one_heap(20_000)),
    ("popcount(n) % 2 == 0 and n >= 1", ("n",), (), lambda: _one_heap(20_000)),
    ("(n + 1) // 2 <= m < n", ("n", "m"), (), lambda: _rule(200)),
    ("h[0] ^ h[1] ^ h[2] == 0", (), ("h",), lambda: _heaps(28)),
    ("xor(x for x in h)", (), ("h",), lambda: _heaps(20)),
)


def run_evaluation_benchmarks(runs: int = RUNS) -> list[Evaluation]:
    """Time :func:`~nimproof.expr.evaluate` on every case of :data:`CASES` (best of ``runs``)."""
    out = []
    for text, scalars, sequences, points in CASES:
        tree = parse(text, scalars=scalars, sequences=sequences)
        envs = points()
        best = float("inf")
        for _ in range(runs):
            t0 = time.perf_counter()
            for env in envs:
                evaluate(tree, env)
            best = min(best, time.perf_counter() - t0)
        out.append(Evaluation(text, len(envs), best))
    return out
