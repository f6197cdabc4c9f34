"""z3 bit-vector proofs of the local conditions for every position with heaps below ``2**w``.

For a claimed Grundy function ``F`` (or P-set ``P``) on a domain ``D`` closed
under moves, ``F`` is the Grundy function on ``D`` iff (the local conditions):

1. no move joins two positions of equal claimed value (no move P -> P);
2. every value below ``F(p)`` is reached by a move (every non-P position has
   a move into P); 3. (misère) terminal positions have value 1 / are not P.

Each condition is negated and handed to z3: ``unsat`` proves it on ``D``.
``D`` is the box ``[0, 2**w)^h`` (closed for heap-lowering games) or, for
staircase Nim, the positions with fewer than ``2**w`` coins in all.

Soundness measures:

* terms are computed at a working width ``W > w`` and every operation carries
  a guard (no overflow, no negative intermediate, no zero divisor) from
  :mod:`nimproof.expr.to_z3`; before anything is proved the method asks z3
  whether a guard can fail on ``D`` (for the formula and for a rule's move
  relation) and answers ``unknown`` if it can;
* condition 2's existential is discharged by, in order: the finite list of
  moves (finite subtraction sets: complete), a winning-move witness
  (:mod:`~nimproof.provers.witnesses`; candidates must pass the family's move
  relation, so a wrong witness cannot help a false claim), or a quantified
  formula at small widths;
* a model is never reported as a refutation until it has been re-checked
  with exact integer arithmetic and the family's own move definition
  (:mod:`~nimproof.provers.recheck`); condition-2 models from an incomplete
  witness are re-checked by enumerating the moves, after shrinking the model.

The proofs live in :mod:`.one_heap`, :mod:`.multi_heap` (with the symbolic
moves of multi-heap games) and :mod:`.identity`; :mod:`.common` holds what
they share. This module runs them width by width and reports.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any, TypedDict, cast

from nimproof.certificates import parts as certificate_parts
from nimproof.expr.to_z3 import Unsupported
from nimproof.provers.context import ClaimContext
from nimproof.provers.settle import Candidate
from nimproof.provers.solving import Solver, Undecided
from nimproof.provers.z3_bitvec.common import NAME, QUANTIFIER_MAX_WIDTH, Found
from nimproof.provers.z3_bitvec.identity import prove_identity
from nimproof.provers.z3_bitvec.multi_heap import prove_multi
from nimproof.provers.z3_bitvec.one_heap import prove_one_heap
from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope, Status


class Options(TypedDict, total=False):
    """Options of the ``z3_bitvec`` method in ``[claim.checks]`` (all optional)."""

    width: int
    """heaps below 2**width"""
    widths: list[int]
    """several widths, tried in ascending order"""
    timeout: float
    """seconds for the solver"""
    witness_candidates: int
    """how many values of j a witness formula is expanded over"""
    quantifier_max_width: int
    """largest width at which condition 2 may use a quantifier"""


DEFAULT_TIMEOUT = 120.0


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Prove the claim's local conditions at each requested width (ascending)."""
    t0 = time.monotonic()
    widths = options.get("widths") or [options.get("width", 16)]
    if not isinstance(widths, list) or not all(
        isinstance(w, int) and 1 <= w <= 1024 for w in widths
    ):
        return MethodResult(NAME, "unknown", detail="widths must be whole numbers from 1 to 1024")
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    deadline = min(time.monotonic() + timeout, time.monotonic() + max(ctx.time_left(), 0.1))
    solver = Solver(deadline, "QF_BV")
    proved: list[int] = []
    notes: list[str] = []
    measure = "value" if ctx.spec.is_identity else "total" if ctx.staircase else "heap"

    def scope() -> Scope:
        return (
            Scope("width", width=max(proved), measure=measure, heaps=ctx.heaps)
            if proved
            else NO_SCOPE
        )

    # Every width is tried: one that cannot be decided (a constant that does not fit, a
    # solver unknown) skips only itself; a found counterexample ends the run.
    for w in sorted(set(widths)):
        try:
            outcome = _prove(ctx, w, solver, options, notes)
        except Candidate as exc:
            return _result(
                ctx,
                "refuted",
                scope(),
                exc.counterexample,
                f"candidate at width {w}",
                notes,
                solver,
                t0,
            )
        except (Undecided, Unsupported) as exc:
            notes.append(f"width {w}: {exc}")
            if isinstance(exc, Undecided) and str(exc).startswith("time limit"):
                break
            continue
        if isinstance(outcome, Found):
            return _result(
                ctx,
                "refuted",
                NO_SCOPE,
                outcome.counterexample,
                f"counterexample at width {w}",
                notes,
                solver,
                t0,
            )
        proved.append(w)
    status = "proved" if proved else "unknown"
    result = _result(ctx, status, scope(), None, "", notes, solver, t0, proved)
    if not proved:
        return result
    part = certificate_parts.smt(ctx.kind, solver.queries, widths=proved)
    return dataclasses.replace(result, certificate=part)


def _result(
    ctx: ClaimContext,
    status: str,
    scope: Scope,
    cx: Counterexample | None,
    head: str,
    notes: list[str],
    solver: Solver,
    t0: float,
    proved: list[int] | None = None,
) -> MethodResult:
    stats: dict[str, Any] = {
        "solver_calls": solver.calls,
        "solver_seconds": round(solver.seconds, 3),
    }
    if proved is not None:
        stats["widths_proved"] = proved
    detail = "; ".join([head, *notes] if head else notes)
    return MethodResult(NAME, cast(Status, status), scope, detail, time.monotonic() - t0, cx, stats)


def _prove(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    if ctx.spec.is_identity:
        return prove_identity(ctx, w, solver)
    if ctx.one_heap:
        return prove_one_heap(ctx, w, solver, options, notes)
    if ctx.spec.about_positions:
        return prove_multi(ctx, w, solver, options, notes)
    raise Unsupported(f"z3_bitvec does not apply to {ctx.kind} claims")


__all__ = ["DEFAULT_TIMEOUT", "NAME", "QUANTIFIER_MAX_WIDTH", "Options", "run"]
