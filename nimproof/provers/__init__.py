"""Proof methods and the one entry point that runs them: :func:`verify_claim`.

The methods are listed once, strongest first, in :mod:`nimproof.methods`
(each is a module here with ``run(ctx, options) -> MethodResult`` and an
``Options`` TypedDict). A claim's checks run in that order and the run stops
at the first re-checked refutation.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from nimproof.claims.model import Claim
from nimproof.methods import ORDER, REGISTRY, RunFunction
from nimproof.provers import evidence
from nimproof.provers.context import ClaimContext, prepare
from nimproof.provers.deadline import TimeUp
from nimproof.verdict import MethodResult, Verdict


class _Methods(Mapping[str, RunFunction]):
    """Name -> run function of every registered method (loaded on first use)."""

    def __getitem__(self, name: str) -> RunFunction:
        for method in REGISTRY:
            if method.name == name:
                return method.run
        raise KeyError(name)

    def __iter__(self) -> Any:
        return iter(ORDER)

    def __len__(self) -> int:
        return len(ORDER)


#: The registered methods' run functions, by name (see :mod:`nimproof.methods`).
METHODS: Mapping[str, RunFunction] = _Methods()

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


def run_method(name: str, ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Run one registered method on a prepared claim, its candidate counterexample settled.

    Never raises: a method that fails internally gives an ``unknown`` result
    naming the error and where it happened; one that reaches the claim's
    deadline gives ``unknown`` ("time limit reached"). A candidate
    counterexample the method could not confirm is settled exactly
    (:func:`nimproof.provers.evidence.settle`): confirmed, dismissed, or kept
    as an unconfirmed candidate that keeps the claim from being proved.
    """
    start = time.monotonic()
    try:
        result = METHODS[name](ctx, options)
    except TimeUp as exc:
        return MethodResult(name, "unknown", detail=str(exc), seconds=time.monotonic() - start)
    except Exception as exc:  # a method's failure is an answer (unknown), not a crash
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
        return MethodResult(
            name,
            "unknown",
            detail=f"internal error {type(exc).__name__}: {exc} ({where})",
            seconds=time.monotonic() - start,
        )
    settled = evidence.settle(ctx, result)
    if settled is result:
        return result
    return dataclasses.replace(settled, seconds=time.monotonic() - start)


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
    ctx = prepare(claim, deadline=t0 + timeout)
    results: list[MethodResult] = []
    checks = checks_for(ctx)
    for name in ORDER:
        if name not in checks:
            continue
        result = run_method(name, ctx, checks[name])
        results.append(result)
        if report is not None:
            report(result)
        if result.status == "refuted" and result.counterexample and result.counterexample.rechecked:
            break
    return Verdict.combine(claim.id, results, claim.expect, time.monotonic() - t0)


__all__ = [
    "METHODS",
    "ORDER",
    "ClaimContext",
    "checks_for",
    "prepare",
    "run_method",
    "verify_claim",
]
