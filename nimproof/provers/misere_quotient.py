"""Misère P-position claims over sums of heaps, proved for all positions through the misère quotient.

For a misère take-and-break game whose quotient is proved for every heap
(:mod:`nimproof.misere`: each partial quotient proved for all sums of its
heaps, and the periodicity theorem for quotients carrying it to every heap,
docs/misere.md), a sum of heaps is a P-position exactly when the product of
its heaps' elements lies in the P-portion. Each heap's element is periodic
with period ``p`` from ``n0``. So a claim "the P-positions of sums of ``k``
heaps are those where the predicate holds" reduces to a finite check:

* with ``L`` a common multiple of ``p`` and of every constant modulus or
  divisor in the predicate, z3 proves over the integers, for each heap ``i``
  separately and the other heaps free, that moving heap ``i`` by ``L`` does not
  change the predicate (nor where it is defined) once heap ``i`` is at least
  some ``M_i >= n0``;
* the predicate and the quotient then agree on every position iff they agree
  on the box ``0 <= h_i < M_i + L``: every position reduces into the box by
  steps of ``L`` in each heap that change neither side.

A disagreement in the box is returned as a candidate counterexample for the
project's exact re-check (the reference implementation plays the position
out); nothing is reported as refuted unless it is confirmed there.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np

from nimproof.certificates import parts as certificate_parts
from nimproof.errors import EvalError, UsageError
from nimproof.expr import evaluate_array
from nimproof.expr.to_z3 import Unsupported
from nimproof.misere.quotient import MisereQuotient, misere_quotient
from nimproof.provers import quotient_order
from nimproof.provers.context import ClaimContext
from nimproof.provers.periodic_table import NotApplicable, _moduli, repeat_start
from nimproof.provers.solving import Solver, Undecided
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "misere_quotient"
#: Largest box of heap residues checked.
MAX_BOX = 4_000_000
DEFAULT_TIMEOUT = 30.0
#: Heap bound and exact-outcome budget of the quotient computation (the theorem usually
#: stops it earlier; a few seconds of work), shared with the re-check of a wrong figure.
DEFAULT_MAX_HEAP = quotient_order.DEFAULT_MAX_HEAP
DEFAULT_MAX_POSITIONS = quotient_order.DEFAULT_MAX_POSITIONS


class Options(TypedDict, total=False):
    """``max_heap``: largest heap the quotient is computed to; ``max_positions``: its
    exact-outcome budget; ``timeout``: seconds for z3."""

    max_heap: int
    max_positions: int
    timeout: float


def applies(ctx: ClaimContext) -> bool:
    """A misère P-position claim over a fixed number of heaps of a take-and-break (octal)
    code, or a claim of the order of such a code's quotient (kind ``misere_quotient``)."""
    game = ctx.heap_game
    if game is None or getattr(game.moves_spec, "digits", None) is None:
        return False
    return ctx.spec.states_quotient or (
        ctx.misere and ctx.spec.states_p_positions and bool(ctx.heaps)
    )


def run(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Prove the claim for all positions through the proved quotient, or say why not."""
    t0 = time.monotonic()
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    solver = Solver(time.monotonic() + min(timeout, max(ctx.time_left(), 0.1)))
    try:
        if not applies(ctx):
            raise NotApplicable(
                "applies to misère P-position claims over sums of heaps of an octal code "
                "and to the order of such a code's quotient"
            )
        budget = (
            int(options.get("max_heap", DEFAULT_MAX_HEAP)),
            int(options.get("max_positions", DEFAULT_MAX_POSITIONS)),
        )
        if ctx.spec.states_quotient:
            q = _quotient(ctx.heap_game.spec, budget)  # type: ignore[union-attr]
            result = quotient_order.decide(ctx, q, NAME, lambda: time.monotonic() - t0)
            return dataclasses.replace(result, stats={"quotient": quotient_summary(q)})
        cert: dict[str, Any] = {}
        status, detail, cx = _decide(ctx, solver, budget, cert)
        stats = {"quotient": quotient_summary(_quotient(ctx.heap_game.spec, budget))}  # type: ignore[union-attr]
    except (NotApplicable, Unsupported, Undecided, UsageError) as exc:
        return MethodResult(NAME, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    seconds = time.monotonic() - t0
    if status == "refuted":
        return MethodResult(
            NAME, "refuted", detail=detail, seconds=seconds, counterexample=cx, stats=stats
        )
    scope = Scope("all", measure="heap", heaps=ctx.heaps)
    part = certificate_parts.misere_quotient(solver.queries, **cert)
    return MethodResult(NAME, "proved", scope, detail, seconds, stats=stats, certificate=part)


def quotient_summary(q: MisereQuotient) -> dict[str, Any]:
    """What a claim page shows of the quotient (the literature's notation)."""
    n0, p = q.period if q.period else (q.heaps + 1, 0)
    return {
        "game": q.spec,
        "presentation": q.presentation(),
        "order": q.order,
        "p_portion": [q.name(x) for x in q.p_portion],
        "generators": {f"heap {h}": q.name(q.phi[h]) for h in q.generators},
        "preperiod": [q.name(q.phi[h]) for h in range(min(n0, q.heaps + 1))],
        "period": [q.name(q.phi[h]) for h in range(n0, n0 + p)],
        "period_from": n0 if p else None,
        "proved_every_heap": q.proved_all,
    }


_QUOTIENTS: dict[tuple[str, int, int], MisereQuotient] = {}


def _quotient(spec: str, budget: tuple[int, int]) -> MisereQuotient:
    """The quotient of ``spec`` within ``(max_heap, max_positions)``, computed once per run."""
    key = (spec, *budget)
    if key not in _QUOTIENTS:
        _QUOTIENTS[key] = misere_quotient(spec, budget[0], max_positions=budget[1])
    return _QUOTIENTS[key]


def _decide(
    ctx: ClaimContext, solver: Solver, budget: tuple[int, int], cert: dict[str, Any]
) -> tuple[str, str, Counterexample | None]:
    """Decide the claim through the quotient; on a proof, ``cert`` receives what the
    certificate part needs (the quotient, ``L``, the starts and the predicate on the box)."""
    assert ctx.formula is not None and ctx.heap_game is not None and ctx.heaps
    q = _quotient(ctx.heap_game.spec, budget)
    if not q.proved_all or q.period is None:
        raise NotApplicable(
            f"the misère quotient of {ctx.heap_game.spec} is not proved for every heap "
            f"({q.stopped}; heaps <= {q.heaps})"
        )
    n0, p = q.period
    k = ctx.heaps
    L = math.lcm(p, *_moduli(ctx.formula))
    starts = [_heap_start(ctx, solver, i, k, n0, L) for i in range(k)]
    sizes = [M + L for M in starts]
    if math.prod(sizes) > MAX_BOX:
        raise NotApplicable(f"the box of residues {' x '.join(map(str, sizes))} is too large")
    grids = list(np.indices(sizes, dtype=np.int64))
    mul = np.asarray(q.monoid.mul, dtype=np.int64)
    element = np.zeros(sizes, dtype=np.int64)
    for size, grid in zip(sizes, grids, strict=True):
        heap_elements = np.asarray([q.element(h) for h in range(size)], dtype=np.int64)
        element = mul[element, heap_elements[grid]]
    in_p = np.isin(element, sorted(q.monoid.p))
    try:
        values, undefined = evaluate_array(ctx.formula, {"h": grids, **ctx.params})
    except EvalError as exc:
        raise NotApplicable(f"cannot evaluate the predicate: {exc}") from None
    claimed = np.broadcast_to(np.asarray(values), tuple(sizes)).astype(bool)
    wrong = np.broadcast_to(np.asarray(undefined, dtype=bool), tuple(sizes)) | (claimed != in_p)
    quotient = (
        f"misère quotient of order {q.order} (P-portion of {len(q.monoid.p)}), heap map period "
        f"{p} from heap {n0}, proved for every heap by the periodicity theorem (heaps to {q.window})"
    )
    if wrong.any():
        idx = np.argwhere(wrong)
        point = tuple(int(x) for x in idx[np.argmin(idx.sum(axis=1))])
        says = bool(claimed[point])
        truth = bool(in_p[point])
        text = (
            f"At heaps {point} the claim says {'a P-position' if says else 'not a P-position'}, "
            f"but the {quotient} gives {'a P-position' if truth else 'an N-position'}."
        )
        return "refuted", text, Counterexample(point, "value", text, says, 0 if truth else 1)
    cert.update(
        heaps=k,
        mul=q.monoid.mul,
        p_portion=q.p_portion,
        phi=q.phi,
        period=(n0, p),
        L=L,
        starts=starts,
        claimed="".join("1" if v else "0" for v in claimed.ravel()),
    )
    detail = (
        f"{quotient}; the predicate repeats with period {L} in each heap (z3 over the integers) "
        f"and agrees with the quotient on the box {' x '.join(map(str, sizes))}"
    )
    return "proved", detail, None


def _heap_start(ctx: ClaimContext, solver: Solver, i: int, k: int, start: int, L: int) -> int:
    """The least tried ``M >= start`` from which the predicate repeats in heap ``i``, others free
    (after a break at ``M`` the next start tried is ``2M + L``)."""
    return repeat_start(ctx, solver, k, i, start, L, lambda M, _x: 2 * M + L)
