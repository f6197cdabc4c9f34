"""Proof methods and the one entry point that runs them: :func:`verify_claim`.

Each method is a module with ``NAME`` and ``run(ctx, options) -> MethodResult``
registered in :data:`METHODS`; a new method is a new module plus one line
here. Methods run in :data:`ORDER` (cheap, small-counterexample methods
first) and the run stops at the first re-checked refutation.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable
from typing import Any

from nimproof.claims.model import Claim
from nimproof.provers import (
    evidence,
    examples,
    exhaustive,
    periodicity,
    random_check,
    z3_bitvec,
    z3_int,
)
from nimproof.provers.context import ClaimContext, prepare
from nimproof.provers.deadline import TimeUp
from nimproof.verdict import MethodResult, Verdict

Method = Callable[[ClaimContext, dict[str, Any]], MethodResult]

METHODS: dict[str, Method] = {
    examples.NAME: examples.run,
    exhaustive.NAME: exhaustive.run,
    periodicity.NAME: periodicity.run,
    z3_int.NAME: z3_int.run,
    z3_bitvec.NAME: z3_bitvec.run,
    random_check.NAME: random_check.run,
}
ORDER = ("reference", "exhaustive", "periodicity", "z3_int", "z3_bitvec", "hypothesis")

DEFAULT_CHECKS: dict[str, dict[str, dict[str, Any]]] = {
    "grundy": {"exhaustive": {}},
    "p_positions": {"exhaustive": {}},
    "identity": {"exhaustive": {}, "z3_bitvec": {"width": 16}},
    "sum_rule": {"exhaustive": {}},
    "periodic": {"periodicity": {}},
    "value": {"reference": {}},
    "sequence": {"reference": {}},
}


def checks_for(ctx: ClaimContext) -> dict[str, dict[str, Any]]:
    """The checks a claim asks for (its kind's defaults when it names none)."""
    checks = dict(ctx.claim.checks) or dict(DEFAULT_CHECKS[ctx.kind])
    if ctx.kind in ("value", "sequence"):
        checks.setdefault("reference", {})
    return checks


def verify_claim(
    claim: Claim,
    *,
    timeout: float = 600.0,
    report: Callable[[MethodResult], None] | None = None,
) -> Verdict:
    """Run the claim's checks and combine their results into one verdict.

    Never raises for a claim that :func:`prepare` accepts: a method that fails
    internally contributes an ``unknown`` result naming the error. Every
    candidate counterexample a method finds is settled exactly before the
    next method runs (:mod:`.evidence`); ``report`` receives each method's
    settled result as soon as it exists (the isolation layer streams them).
    The deadline is cooperative; :func:`nimproof.provers.isolate.decide`
    enforces it for code that cannot poll.
    """
    t0 = time.monotonic()
    ctx = prepare(claim)
    ctx.deadline = t0 + timeout
    results: list[MethodResult] = []
    checks = checks_for(ctx)
    for name in ORDER:
        if name not in checks:
            continue
        options = checks[name]
        start = time.monotonic()
        try:
            result = METHODS[name](ctx, options)
        except TimeUp as exc:
            result = MethodResult(
                name, "unknown", detail=str(exc), seconds=time.monotonic() - start
            )
        except Exception as exc:  # a method's failure is an answer (unknown), not a crash
            last = traceback.extract_tb(exc.__traceback__)[-1]
            where = f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
            result = MethodResult(
                name,
                "unknown",
                detail=f"internal error {type(exc).__name__}: {exc} ({where})",
                seconds=time.monotonic() - start,
            )
        result = _settled(ctx, result)
        results.append(result)
        if report is not None:
            report(result)
        if result.status == "refuted" and result.counterexample and result.counterexample.rechecked:
            break
    return Verdict.combine(claim.id, results, claim.expect, time.monotonic() - t0)


def _settled(ctx: ClaimContext, result: MethodResult) -> MethodResult:
    """The result with its candidate counterexample (if any) confirmed, dismissed or kept open."""
    start = time.monotonic()
    settled = evidence.settle(ctx, result)
    if settled is result:
        return result
    return dataclasses.replace(settled, seconds=result.seconds + time.monotonic() - start)


__all__ = ["METHODS", "ORDER", "ClaimContext", "checks_for", "prepare", "verify_claim"]
