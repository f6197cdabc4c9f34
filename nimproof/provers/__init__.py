"""Proof methods and the one entry point that runs them: :func:`verify_claim`.

Each method is a module with ``NAME`` and ``run(ctx, options) -> MethodResult``
registered in :data:`METHODS`; a new method is a new module plus one line
here. Methods run in :data:`ORDER` (cheap, small-counterexample methods
first) and the run stops at the first re-checked refutation.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any

from nimproof.claims.model import Claim
from nimproof.provers import (
    automata,
    examples,
    exhaustive,
    periodicity,
    random_check,
    z3_bitvec,
    z3_int,
)
from nimproof.provers.context import ClaimContext, prepare
from nimproof.verdict import MethodResult, Verdict

Method = Callable[[ClaimContext, dict[str, Any]], MethodResult]

METHODS: dict[str, Method] = {
    examples.NAME: examples.run,
    exhaustive.NAME: exhaustive.run,
    automata.NAME: automata.run,
    periodicity.NAME: periodicity.run,
    z3_int.NAME: z3_int.run,
    z3_bitvec.NAME: z3_bitvec.run,
    random_check.NAME: random_check.run,
}
ORDER = (
    "reference",
    "exhaustive",
    "automata",
    "periodicity",
    "z3_int",
    "z3_bitvec",
    "hypothesis",
)

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


#: Methods whose proofs cover every position, strongest first: tried by default.
ALL_SCOPE = ("automata", "periodicity", "z3_int")
#: Cheap methods that find small counterexamples: run when no method proved every position.
CHEAP = ("reference", "exhaustive")
#: Bounded methods: run only while no method has proved the claim for every position.
BOUNDED = ("z3_bitvec", "hypothesis")

#: The family's built-in winning-move witness, used by z3_bitvec when a claim names none.
_FAMILY_WITNESS = {"Nim": "nim", "Moore": "moore", "Staircase": "staircase"}


def default_strong(ctx: ClaimContext) -> tuple[str, ...]:
    """The all-positions methods tried for ``ctx`` even when its checks do not name them."""
    if ctx.kind in ("grundy", "p_positions", "identity"):
        return ("automata",)
    return ()


def method_plan(ctx: ClaimContext, only_named: bool = False) -> list[tuple[str, dict[str, Any]]]:
    """The methods to run for ``ctx``, in order: strongest scope down, then cheap, then bounded.

    With ``only_named`` exactly the methods the claim's checks name run (no
    default all-positions method is added), still in this order.
    """
    checks = checks_for(ctx)
    strong = set() if only_named else set(default_strong(ctx))
    plan = [(name, checks.get(name, {})) for name in ALL_SCOPE if name in checks or name in strong]
    plan += [(name, checks[name]) for name in CHEAP if name in checks]
    plan += [(name, checks[name]) for name in BOUNDED if name in checks]
    return plan


def _auto_witness(ctx: ClaimContext) -> None:
    """Give a multi-heap claim without a witness its family's built-in one (moves are re-checked)."""
    if ctx.witness_name is not None or ctx.kind != "p_positions" or ctx.game is None:
        return
    from nimproof.games.heap import Nim
    from nimproof.games.misere import Misere

    base = ctx.game.base if isinstance(ctx.game, Misere) else ctx.game
    name = _FAMILY_WITNESS.get(type(base).__name__)
    if name is None or (name == "nim" and not isinstance(base, Nim)):
        return
    ctx.witness_name = "misere-nim" if ctx.misere and name == "nim" else name


def _run_method(name: str, ctx: ClaimContext, options: dict[str, Any]) -> MethodResult:
    start = time.monotonic()
    try:
        return METHODS[name](ctx, options)
    except Exception as exc:  # a method's failure is an answer (unknown), not a crash
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
        return MethodResult(
            name,
            "unknown",
            detail=f"internal error {type(exc).__name__}: {exc} ({where})",
            seconds=time.monotonic() - start,
        )


def verify_claim(claim: Claim, *, timeout: float = 600.0, only_named: bool = False) -> Verdict:
    """Run the claim's methods and combine their results into one verdict.

    Methods run from the strongest scope down: first :data:`ALL_SCOPE`
    (tried by default even when the claim's checks do not name them), then
    the cheap small-counterexample methods and the bounded ones, which are
    skipped once some method has proved the claim for every position
    (``reference`` always runs: it checks listed positions). The run stops at
    the first re-checked refutation. ``only_named`` runs exactly the methods
    the claim's checks name, each to the end (to test one method). Never raises for a claim
    that :func:`prepare` accepts: a method that fails internally contributes
    an ``unknown`` result naming the error.
    """
    t0 = time.monotonic()
    ctx = prepare(claim)
    ctx.deadline = t0 + timeout
    if not only_named:
        _auto_witness(ctx)
    results: list[MethodResult] = []
    for name, options in method_plan(ctx, only_named):
        if not only_named and name != "reference" and any(
            r.status == "proved" and r.scope.kind == "all" for r in results
        ):
            continue
        result = _run_method(name, ctx, options)
        results.append(result)
        if result.status == "refuted" and result.counterexample and result.counterexample.rechecked:
            break
    return Verdict.combine(
        claim.id, results, claim.expect, time.monotonic() - t0, require=claim.require
    )


__all__ = [
    "ALL_SCOPE",
    "BOUNDED",
    "CHEAP",
    "METHODS",
    "ORDER",
    "ClaimContext",
    "checks_for",
    "method_plan",
    "prepare",
    "verify_claim",
]
