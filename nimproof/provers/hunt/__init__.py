"""The hunt: the rest of a claim's time spent looking for a counterexample.

When no method proves a claim for every position, the hunt (run last) grows
the region it searches geometrically until the claim's deadline, keeping a
little time back for the verdict (:class:`.common.Budget`):

* single heaps of a heap game (:mod:`.tables`): the claim against the
  fastest engine's table, grown by a factor of four while the next step fits;
* several heaps (:mod:`.boxes`): exhaustive boxes, z3's local conditions at
  widths from the smallest that holds the formula's constants up to 256 bits,
  and structured far positions decided exactly (:mod:`.far`);
* plugin games: the exhaustive search of their own sizes, grown the same way.

Every counterexample is re-checked (the reference implementation, the
family's own moves and exact evaluation) before it is reported; a finding
that cannot be re-checked is handed on as an unconfirmed candidate. A
search that finds nothing answers ``proved`` with the region it covered
(``bound`` or ``width``), never more: the verdict reports that region as
what was checked.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TypedDict

from nimproof.provers.context import ClaimContext
from nimproof.provers.hunt import boxes, tables
from nimproof.provers.hunt.common import NAME, Budget, result
from nimproof.verdict import MethodResult

#: Seconds the hunt gets on a claim from a file that names no method (so that ``verify``
#: over a corpus stays bounded); ``nimproof check`` gives it the rest of the claim's time.
FILE_SECONDS = 30.0


class Options(TypedDict, total=False):
    """Options of the ``hunt`` method in ``[claim.checks]`` (all optional)."""

    timeout: float
    """seconds the hunt may use (default: the rest of the claim's time)"""
    max_n: int
    """largest heap of a one-heap table"""
    max_heap: int
    """largest heap of an exhaustive box"""
    max_size: int
    """largest size (plugin games)"""
    max_width: int
    """widest z3 width (default 256)"""


def applies(ctx: ClaimContext) -> bool:
    """True for the claims the hunt searches: Grundy formulas and P-position rules."""
    return ctx.spec.about_positions and ctx.formula is not None


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Search for a counterexample until the budget ends; ``proved`` for the region covered."""
    t0 = time.monotonic()
    if not applies(ctx):
        return result("unknown", detail=f"does not apply to {ctx.kind} claims")
    if ctx.recursive:
        return result(
            "unknown", detail="a recursive definition is checked by the exhaustive method"
        )
    budget = Budget.of(ctx, options.get("timeout"))
    if tables.applies(ctx):
        out = tables.hunt(ctx, budget, options.get("max_n"))
    else:
        out = boxes.hunt(ctx, budget, options)
    return replace(out, seconds=time.monotonic() - t0)


__all__ = ["FILE_SECONDS", "NAME", "Options", "applies", "run"]
