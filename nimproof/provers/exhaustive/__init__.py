"""Exhaustive checks on every position of a finite domain closed under moves.

* One heap (:mod:`.one_heap`): the claimed values against one step of mex and
  the engine's table.
* Several heaps (:mod:`.multi_heap`): the local conditions on a box by
  whole-array operations, or the reference implementation on a closed domain
  (staircase Nim, unusual sums, plugin games).
* Identities and sum rules (:mod:`.identity`): every assignment of the
  variables in ``[0, V]``; the direct mex of joint positions against the xor
  of the parts.

Bounds grow geometrically up to the requested one, so a false claim is
caught at a small bound with a small counterexample.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TypedDict

from nimproof.errors import EvalError
from nimproof.provers.context import ClaimContext
from nimproof.provers.exhaustive import identity, multi_heap, one_heap
from nimproof.provers.exhaustive.common import NAME, TooLarge, refuted, scan_smallest, unknown
from nimproof.verdict import MethodResult


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


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Check the claim on every position up to the bound in ``options``."""
    t0 = time.monotonic()
    try:
        if ctx.spec.is_identity:
            result = identity.check_identity(ctx, options)
        elif ctx.spec.states_sum:
            result = identity.check_sum_rule(ctx, options)
        elif ctx.one_heap:
            result = one_heap.check(ctx, options)
        elif ctx.spec.about_positions:
            result = multi_heap.check(ctx, options)
        else:
            return unknown(f"does not apply to {ctx.kind} claims")
    except TooLarge as exc:
        result = unknown(str(exc))
    except EvalError as exc:
        # Numbers beyond int64 (huge shifts, powers): decide the smallest positions exactly.
        found = scan_smallest(ctx, 63 if ctx.one_heap else 7)
        if found is not None:
            result = refuted(
                found, f"vectorised evaluation impossible ({exc}); exact evaluation instead"
            )
        else:
            result = unknown(f"cannot evaluate: {exc}")
    return replace(result, seconds=time.monotonic() - t0)


__all__ = ["NAME", "Options", "run"]
