"""Exhaustive checks on every position of a finite domain closed under moves.

One module per kind of claim: :mod:`.one_heap`, :mod:`.multi_heap`,
:mod:`.identity` (identities and sum rules); :mod:`.common` holds what they share.

* One heap: the claimed values ``F(0..N)`` are fed to a one-step mex kernel
  (:mod:`.kernels`); the first heap where ``mex(options under F) != F`` is the
  smallest counterexample and the mex there is its true value. The claim is
  also compared with the engine's stored table (two independent paths).
* Several heaps (box ``[0, B]^h``, closed for heap-lowering moves): the local
  conditions are evaluated with whole-array operations — for Nim-like moves
  "some smaller value along an axis is in the set" is a shifted cumulative
  sum; Moore's moves combine those along up to ``k`` axes. The first violation
  in order of total size is a position where the claim is wrong.
* Staircase Nim (the box is not closed: coins move down and raise a pile),
  sums with unusual components, and plugin games are checked against the
  reference implementation on a closed domain (total coins at most ``T``, or
  the plugin's own ``positions(bound)``).
* Identities: every assignment of the variables in ``[0, V]``.

Bounds grow geometrically up to the requested one, so a false claim is
caught at a small bound with a small counterexample.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TypedDict

from nimproof.errors import EvalError
from nimproof.provers.context import ClaimContext
from nimproof.provers.exhaustive.common import NAME, TooLarge, unknown
from nimproof.provers.exhaustive.identity import check_identity, check_sum_rule
from nimproof.provers.exhaustive.multi_heap import check_multi_heap
from nimproof.provers.exhaustive.one_heap import check_one_heap
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
        if ctx.kind == "identity":
            result = check_identity(ctx, options)
        elif ctx.kind == "sum_rule":
            result = check_sum_rule(ctx, options)
        elif ctx.one_heap:
            result = check_one_heap(ctx, options)
        elif ctx.kind in ("grundy", "p_positions"):
            result = check_multi_heap(ctx, options)
        else:
            return MethodResult(NAME, "unknown", detail=f"does not apply to {ctx.kind} claims")
    except TooLarge as exc:
        result = unknown(str(exc))
    except EvalError as exc:
        result = unknown(f"cannot evaluate: {exc}")
    return replace(result, seconds=time.monotonic() - t0)


__all__ = ["NAME", "Options", "run"]
