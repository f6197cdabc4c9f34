"""What the hunt's searches share: the time budget, growth prediction, results."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from nimproof.expr.evaluate import evaluate
from nimproof.expr.nodes import Const, Index, Node, Var, walk_tree
from nimproof.provers.context import ClaimContext
from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope

NAME = "hunt"
#: Seconds the hunt uses when the claim has no deadline and no ``timeout`` option is given.
DEFAULT_SECONDS = 60.0
#: The share of the remaining time kept back for the verdict (settling a candidate,
#: combining results, writing them out), and its bounds in seconds.
RESERVE_SHARE = 0.05
RESERVE_MIN, RESERVE_MAX = 0.5, 5.0


@dataclass
class Budget:
    """The hunt's time: it ends :data:`RESERVE_SHARE` of the claim's remaining time before
    the claim's deadline (at least :data:`RESERVE_MIN` seconds, at most :data:`RESERVE_MAX`),
    or after the ``timeout`` option when that comes first."""

    stop: float
    start: float = field(default_factory=time.monotonic)

    @classmethod
    def of(cls, ctx: ClaimContext, timeout: float | None) -> Budget:
        now = time.monotonic()
        end = ctx.deadline if ctx.deadline else now + DEFAULT_SECONDS
        if timeout is not None:
            end = min(end, now + max(0.0, float(timeout)))
        total = max(0.0, end - now)
        reserve = min(RESERVE_MAX, max(RESERVE_MIN, RESERVE_SHARE * total))
        if ctx.deadline:
            end = min(end, ctx.deadline - reserve)
        return cls(end, now)

    def left(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.stop - time.monotonic())

    def fits(self, seconds: float) -> bool:
        """True when work predicted to take ``seconds`` ends before the budget does."""
        return seconds < self.left()

    def until(self, share: float) -> float:
        """A monotonic time ``share`` of the remaining budget from now."""
        return time.monotonic() + share * self.left()


def predict(took: float, size: float, next_size: float, exponent: float) -> float:
    """Time for ``next_size`` after ``size`` took ``took`` seconds, with cost ~ size**exponent."""
    if size <= 0:
        return took
    return max(took, 1e-3) * (next_size / size) ** exponent


def exponent_from(history: list[tuple[float, float]], default: float) -> float:
    """The cost exponent measured on the last two ``(size, seconds)`` steps (clipped to
    ``[1, 3]``; ``default`` while the steps are too short to time)."""
    if len(history) < 2:
        return default
    (n1, t1), (n2, t2) = history[-2], history[-1]
    if t1 < 0.05 or t2 < 0.05 or n2 <= n1:
        return default
    return min(3.0, max(1.0, math.log(t2 / t1) / math.log(n2 / n1)))


def constants(ctx: ClaimContext) -> list[int]:
    """Every whole number the claim's formula names: its constants, the values of its
    constant sub-expressions (``2**45``), and its parameters."""
    out: set[int] = {abs(int(v)) for v in ctx.params.values()}
    if ctx.formula is None:
        return sorted(out)
    for node in walk_tree(ctx.formula):
        if isinstance(node, Const) and not isinstance(node.value, bool):
            out.add(abs(int(node.value)))
        elif node.type == "int" and not _reads_variables(node):
            try:
                value = evaluate(node, dict(ctx.params))
            except Exception:  # an undefined constant (1 // 0) names no number
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                out.add(abs(value))
    return sorted(out)


def _reads_variables(node: Node) -> bool:
    return any(isinstance(n, Var | Index) for n in walk_tree(node))


def result(
    status: str,
    scope: Scope = NO_SCOPE,
    detail: str = "",
    cx: Counterexample | None = None,
    stats: dict[str, Any] | None = None,
) -> MethodResult:
    """A hunt result (``status`` is ``proved`` for the region covered, ``refuted`` or ``unknown``)."""
    return MethodResult(NAME, status, scope, detail, 0.0, cx, stats or {})  # type: ignore[arg-type]
