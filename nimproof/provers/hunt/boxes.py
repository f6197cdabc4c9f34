"""The hunt on several heaps: exhaustive boxes, z3 at growing widths, far positions.

The phases share the budget in this order, each stopping at the first
re-checked counterexample:

1. a small exhaustive box (every heap up to 15), where most false claims fail;
2. structured far positions (:mod:`.far`), for at most a quarter of what is left;
3. z3's proof of the local conditions at every width from the smallest that
   holds the formula's constants (at least 8 bits) to :data:`MAX_WIDTH`,
   doubling, each width given the time left;
4. exhaustive boxes doubling while the time the next one is predicted to take
   fits (for plugin games, the only phase: their own ``size`` grows).

The region covered is the larger of the box and the widest width proved.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from nimproof.games import PluginGame
from nimproof.provers import exhaustive, z3_bitvec
from nimproof.provers.context import ClaimContext
from nimproof.provers.deadline import TimeUp
from nimproof.provers.hunt import far
from nimproof.provers.hunt.common import Budget, constants, exponent_from, predict, result
from nimproof.verdict import Counterexample, MethodResult, Scope

#: Widest z3 width tried (the widths double from the smallest that holds the constants).
MAX_WIDTH = 256
#: The first box, and the share of the budget the far positions may use.
FIRST_BOX = 15
FIRST_PLUGIN_BOX = 7
#: Most positions in one exhaustive box (memory: the whole-array checks hold several
#: arrays of this many entries).
BOX_POSITIONS = 1 << 22
FAR_SHARE = 0.25


class Progress:
    """What the phases covered so far (for the final scope and detail)."""

    def __init__(self) -> None:
        self.box = -1
        self.width = 0
        self.far = 0
        self.measure = "heap"
        self.notes: list[str] = []

    def scope(self, heaps: int | None) -> Scope:
        if self.width and (1 << self.width) - 1 > self.box:
            return Scope("width", width=self.width, measure=self.measure, heaps=heaps)
        return Scope("bound", bound=self.box, measure=self.measure, heaps=heaps)


def hunt(ctx: ClaimContext, budget: Budget, options: Mapping[str, Any]) -> MethodResult:
    """Search the claim's positions (see the module docstring) until the budget ends."""
    done = Progress()
    # The family's built-in witness (for z3); every phase stops at the budget, not later.
    ctx = replace(_with_witness(ctx), deadline=budget.stop)
    plugin = isinstance(ctx.game, PluginGame)
    key = "max_size" if plugin else "max_total" if ctx.staircase else "max_heap"
    done.measure = "size" if plugin else "total" if ctx.staircase else "heap"
    cap = int(options.get(key, options.get("max_heap", 1 << 30)))
    found = _box(ctx, budget, key, min(FIRST_PLUGIN_BOX if plugin else FIRST_BOX, cap), done)
    if found is None and not plugin:
        found = _far(ctx, budget, done)
        found = found or _widths(ctx, budget, int(options.get("max_width", MAX_WIDTH)), done)
    found = found or _grow_boxes(ctx, budget, key, cap, done)
    if found is not None:
        return found
    if done.box < 0 and not done.width:
        return result("unknown", detail="; ".join(done.notes) or "nothing could be checked")
    return result("proved", done.scope(ctx.heaps), _detail(done), stats=_stats(done))


def _with_witness(ctx: ClaimContext) -> ClaimContext:
    """``ctx`` with its family's built-in winning-move witness when it names none."""
    from nimproof import provers  # lazy: import cycle (the provers package runs the hunt)

    out: ClaimContext = provers.auto_witness(ctx)
    return out


def _detail(done: Progress) -> str:
    parts = []
    if done.box >= 0:
        parts.append(f"every position with each {done.measure} <= {done.box:,}")
    if done.width:
        parts.append(f"the local conditions for each {done.measure} < 2^{done.width} (z3)")
    if done.far:
        parts.append(f"{done.far:,} structured far positions decided exactly")
    text = "no counterexample: " + "; ".join(parts)
    return text + (" (" + "; ".join(done.notes) + ")" if done.notes else "")


def _stats(done: Progress) -> dict[str, Any]:
    return {"box": done.box, "width": done.width, "far_positions": done.far}


def _box(
    ctx: ClaimContext, budget: Budget, key: str, b: int, done: Progress
) -> MethodResult | None:
    """One exhaustive box; a refutation ends the hunt, a proof extends ``done.box``."""
    try:
        out = exhaustive.run(ctx, {key: b})  # type: ignore[misc]
    except TimeUp:
        done.notes.append(f"box {b} stopped at the time limit")
        return None
    if out.status == "refuted" or out.counterexample is not None:
        return result(out.status, detail=f"exhaustive box {b}: {out.detail}", cx=out.counterexample)
    if out.status == "proved":
        done.box = max(done.box, b)
    else:
        done.notes.append(f"box {b}: {out.detail}")
    return None


def _grow_boxes(
    ctx: ClaimContext, budget: Budget, key: str, cap: int, done: Progress
) -> MethodResult | None:
    history: list[tuple[float, float]] = []
    b = max(done.box, 3)
    heaps = ctx.heap_count or 1
    while b < cap:
        nxt = min(cap, 2 * b + 1)
        if (nxt + 1) ** heaps > BOX_POSITIONS:
            break
        step = (
            predict(history[-1][1], history[-1][0], nxt, exponent_from(history, heaps + 1))
            if history
            else 0.0
        )
        if history and not budget.fits(step):
            break
        if not budget.fits(0.5):
            break
        t0 = time.monotonic()
        before = done.box
        found = _box(ctx, budget, key, nxt, done)
        if found is not None:
            return found
        if done.box == before:
            break  # beyond the method's limits
        history.append((nxt, time.monotonic() - t0))
        b = nxt
    return None


def _far(ctx: ClaimContext, budget: Budget, done: Progress) -> MethodResult | None:
    """Structured far positions until :data:`FAR_SHARE` of the budget is used."""
    h = ctx.heap_count
    if h is None or not ctx.spec.about_positions or ctx.formula is None:
        return None
    if not far.decidable(ctx):
        done.notes.append("no exact method decides large positions of this game")
        return None
    stop = budget.until(FAR_SHARE)
    near, remote = far.values(constants(ctx))
    for position in far.positions(h, near, remote):
        if time.monotonic() >= stop:
            break
        try:
            cx = far.decide(ctx, position, stop)
        except TimeUp:
            break
        if cx is not None:
            where = "structured far position"
            return result("refuted" if cx.rechecked else "unknown", detail=where, cx=cx)
        done.far += 1
    return None


def _widths(ctx: ClaimContext, budget: Budget, top: int, done: Progress) -> MethodResult | None:
    """z3 at each width from the smallest holding the constants up to ``top``, doubling."""
    consts = constants(ctx)
    w = max([8, *[c.bit_length() + 1 for c in consts]])
    while w <= top and budget.fits(0.5):
        out = z3_bitvec.run(ctx, {"widths": [w], "timeout": budget.left()})
        if out.counterexample is not None:
            return result(
                out.status, detail=f"z3 at width {w}: {out.detail}", cx=out.counterexample
            )
        if out.status != "proved":
            done.notes.append(f"z3 width {w}: {out.detail}")
            break
        done.width = w
        w = top if w < top < 2 * w else 2 * w
    return None


def _decide_candidate(ctx: ClaimContext, budget: Budget, cx: Counterexample) -> Counterexample:
    """z3's unconfirmed point decided exactly (:func:`.far.decide`), at the point and at the
    move's target; the candidate itself when neither re-checks."""
    points = [cx.position, cx.move]
    for point in points:
        if not isinstance(point, tuple | list):
            continue
        try:
            found = far.decide(ctx, tuple(int(x) for x in point), budget.stop)
        except TimeUp:
            break
        if found is not None:
            return found
    return cx
