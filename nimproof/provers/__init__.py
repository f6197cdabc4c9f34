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
from nimproof.methods import ORDER, REGISTRY, LoadedMethod, RunFunction, load_all
from nimproof.provers import settle
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


def checks_for(ctx: ClaimContext) -> dict[str, dict[str, Any]]:
    """The checks a claim asks for: its kind's policy (:meth:`ClaimKindSpec.checks`: the
    named checks, or the kind's defaults when it names none), plus, when it names none,
    the periodic-table reduction and the hunt where they apply."""
    named = dict(ctx.claim.checks)
    checks = ctx.spec.checks(named)
    # lazy: every provers module imports this package first; hunt and periodic_table load z3
    from nimproof.provers import hunt, periodic_table

    if not named and periodic_table.applies(ctx):
        # A claim that names no method gets the all-positions reduction where it applies.
        checks.setdefault(periodic_table.NAME, {})
    if not named and hunt.applies(ctx):
        # ... and the hunt, for at most FILE_SECONDS (a corpus run stays bounded; ``check``
        # gives it the rest of the claim's time).
        checks.setdefault(hunt.NAME, {"timeout": hunt.FILE_SECONDS})
    return checks


def run_method(
    name: str,
    ctx: ClaimContext,
    options: Mapping[str, Any],
    methods: Mapping[str, LoadedMethod] | None = None,
) -> MethodResult:
    """Run one registered method on a prepared claim, its candidate counterexample settled.

    ``methods``: the registry's answer (:func:`nimproof.methods.load_all`) when the
    caller already has it (:func:`verify_claim` asks once per claim); else it is asked
    for this method.

    Never raises: a method that fails internally gives an ``unknown`` result
    naming the error and where it happened; one that reaches the claim's
    deadline gives ``unknown`` ("time limit reached"). A candidate
    counterexample the method could not confirm is settled exactly
    (:func:`nimproof.provers.settle.settle`): confirmed, dismissed, or kept
    as an unconfirmed candidate that keeps the claim from being proved.
    """
    start = time.monotonic()
    method = (methods or load_all([name]))[name]
    if ctx.recursive and name != "exhaustive":
        detail = "a recursive definition (g[...]) is checked by the exhaustive method only"
        return MethodResult(name, "unknown", detail=detail)
    if _loopy(ctx) and not method.method.loopy:
        detail = (
            "a loopy game (a play may go on forever) has no Grundy values; see the loopy method"
        )
        return MethodResult(name, "unknown", detail=detail)
    try:
        result = method.run(ctx, options)
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
    settled = settle.settle(ctx, result)
    if settled is result:
        return result
    return dataclasses.replace(settled, seconds=time.monotonic() - start)


#: Methods whose proofs cover every position (in registry order, strongest first).
ALL_SCOPE: tuple[str, ...] = tuple(m.name for m in REGISTRY if m.reaches == "all")


def default_methods(
    ctx: ClaimContext, methods: Mapping[str, LoadedMethod] | None = None
) -> tuple[str, ...]:
    """The all-positions methods tried for ``ctx`` even when its checks do not name them.

    Every registered method that reaches ``all`` and is registered as tried on every claim
    with a formula (``on_formulas``: the automata method, for P-position, Grundy and
    identity claims), or whose module has an ``applies(ctx)`` function saying yes.
    ``methods``: as in :func:`run_method`.
    """
    out = []
    for name, loaded in (methods or load_all(ALL_SCOPE)).items():
        if loaded.method.reaches != "all" or name == "reference":
            continue
        if loaded.method.on_formulas:
            tried = ctx.spec.formula_role is not None
        else:
            tried = loaded.applies is not None and loaded.applies(ctx)
        if tried:
            out.append(name)
    return tuple(out)


def method_plan(
    ctx: ClaimContext,
    only_named: bool = False,
    methods: Mapping[str, LoadedMethod] | None = None,
    checks: dict[str, dict[str, Any]] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """The methods to run for ``ctx``: its checks plus the default strong ones, strongest first.

    With ``only_named`` exactly the methods the claim's checks name run (no
    default method is added). ``methods``: as in :func:`run_method` (at least the
    checks and the all-positions methods); ``checks``: :func:`checks_for` when the caller
    has it.
    """
    checks = checks_for(ctx) if checks is None else checks
    methods = methods or load_all(_wanted(checks))
    extra = () if only_named else default_methods(ctx, methods)
    plan = [(name, checks.get(name, {})) for name in ORDER if name in checks or name in extra]
    if _loopy(ctx) and not only_named:
        plan = [(name, opts) for name, opts in plan if methods[name].method.loopy]
    return plan


def _wanted(checks: Mapping[str, Any]) -> set[str]:
    """The methods a claim with these checks may run: its checks and the all-positions ones."""
    return set(checks) | set(ALL_SCOPE)


def _loopy(ctx: ClaimContext) -> bool:
    """True for a claim about a loopy game (only methods registered as ``loopy`` decide it)."""
    return ctx.game is not None and ctx.game.moves_spec.loopy


def auto_witness(ctx: ClaimContext) -> ClaimContext:
    """A multi-heap claim without a witness gets its family's built-in one (moves are re-checked)."""
    if ctx.witness_name is not None or not ctx.spec.states_p_positions or ctx.game is None:
        return ctx
    from nimproof.provers.witnesses import witness_of  # lazy: z3, as above

    name = witness_of(ctx.game, ctx.description)
    if name is None:
        return ctx
    return dataclasses.replace(ctx, witness_name=name)


def verify_claim(
    claim: Claim,
    *,
    timeout: float = 600.0,
    only_named: bool = False,
    report: Callable[[MethodResult], None] | None = None,
) -> Verdict:
    """Run the claim's methods, strongest scope first, and combine their results.

    The all-positions methods of the registry (the automata method by
    default, even when the claim's checks do not name it) run first; once one
    proves the claim for every position the bounded methods are skipped
    (``reference`` still checks listed positions). Otherwise the cheaper,
    bounded methods run and find small counterexamples. The run stops at the
    first re-checked refutation. A multi-heap claim without a witness gets
    its family's built-in one. ``only_named`` runs exactly the methods the
    claim's checks name, each to the end (to test one method at a time).
    Never raises for a claim that :func:`prepare` accepts: a method that
    fails internally contributes an ``unknown`` result naming the error.
    Every candidate counterexample a method finds is settled exactly before
    the next method runs (:mod:`.settle`, in :func:`run_method`); ``report``
    receives each method's settled result as soon as it exists (the worker
    of :func:`nimproof.provers.isolate.decide` streams them). The deadline is
    cooperative here; :func:`~nimproof.provers.isolate.decide` enforces it for
    code that cannot poll.
    """
    t0 = time.monotonic()
    ctx = prepare(claim, deadline=t0 + timeout)
    if not only_named:
        ctx = auto_witness(ctx)
    checks = checks_for(ctx)
    methods = load_all(_wanted(checks))  # the registry, asked once for the claim
    results: list[MethodResult] = []
    for name, options in method_plan(ctx, only_named, methods, checks):
        if (
            not only_named
            and name != "reference"
            and any(r.status == "proved" and r.scope.kind == "all" for r in results)
        ):
            continue
        result = run_method(name, ctx, options, methods)
        results.append(result)
        if report is not None:
            report(result)
        if result.status == "refuted" and result.counterexample and result.counterexample.rechecked:
            break
    return Verdict.combine(
        claim.id,
        results,
        claim.expect,
        time.monotonic() - t0,
        require=claim.require,
        domain=claim.domain(),
    )


__all__ = [
    "ALL_SCOPE",
    "METHODS",
    "ORDER",
    "ClaimContext",
    "auto_witness",
    "checks_for",
    "method_plan",
    "prepare",
    "run_method",
    "verify_claim",
]
