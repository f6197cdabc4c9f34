"""Claims of the kind ``misere_quotient``: the order of a game's misère quotient (issue 20).

A claim states the order of the misère quotient of a take-and-break code and,
optionally, the size of its P-portion and the period (and preperiod) of its
heap map. The quotient comes from :func:`nimproof.misere.quotient.misere_quotient`
(each partial quotient proved for all sums of its heaps):

* when the periodicity theorem for quotients carries the quotient to every
  heap (``proved_all``), the claim is decided for every heap: proved when each
  stated figure matches, refuted with the true figure otherwise;
* otherwise only the partial quotient of the heaps up to the bound reached is
  known: matching figures are a bounded result (``checked``, heaps up to
  that bound), a mismatch is ``unknown`` (a larger heap may still change it).

Every answer is cross-checked first by the independent brute force of
:mod:`nimproof.misere.bruteforce` (it shares no code with the construction):
every sum of up to :data:`CHECK_HEAPS` heaps of total at most
:data:`CHECK_TOTAL` is played out and compared with the quotient. A
refutation is reported as re-checked only when the brute force agrees on all
of them; any disagreement gives ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from nimproof.certificates import parts as certificate_parts
from nimproof.misere.bruteforce import compare
from nimproof.misere.quotient import MisereQuotient, misere_quotient
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample, MethodResult, Scope

#: The heap bound and exact-outcome budget of a re-check (the method's defaults).
DEFAULT_MAX_HEAP = 400
DEFAULT_MAX_POSITIONS = 300_000
#: Sums of at most this many heaps are played out by the brute force.
CHECK_HEAPS = 3
#: ... with at most this many tokens in all.
CHECK_TOTAL = 18


def decide(
    ctx: ClaimContext, quotient: MisereQuotient, name: str, seconds: Callable[[], float]
) -> MethodResult:
    """The method result of ``name`` for a quotient-order claim, given its game's quotient."""
    q = quotient
    agrees, agreed = _cross_check(q)
    if not agrees:
        return MethodResult(name, "unknown", detail=agreed, seconds=seconds())
    wrong = _mismatches(ctx, q)
    where = f"misère quotient of {q.spec}: order {q.order}, P-portion of {len(q.monoid.p)}" + (
        f", heap map period {q.period[1]} from heap {q.period[0]}" if q.period else ""
    )
    if q.proved_all:
        where += f", proved for every heap by the periodicity theorem (heaps to {q.window})"
    else:
        where += f", the partial quotient of heaps <= {q.heaps} ({q.stopped})"
    where += f"; {agreed}"
    if not wrong:
        scope = (
            Scope("all", measure="heap")
            if q.proved_all
            else Scope("bound", bound=q.heaps, measure="heap")
        )
        part = certificate(ctx, q) if q.proved_all else None
        return MethodResult(name, "proved", scope, where, seconds(), certificate=part)
    if not q.proved_all:
        detail = f"{'; '.join(w for w, _c, _a in wrong)} for heaps <= {q.heaps} only: {where}"
        return MethodResult(name, "unknown", detail=detail, seconds=seconds())
    what, claimed, actual = wrong[0]
    text = f"The claim is wrong: {what}. The {where}."
    cx = Counterexample(None, "quotient", text, claimed, actual)
    return MethodResult(name, "refuted", detail=text, seconds=seconds(), counterexample=cx)


def _cross_check(q: MisereQuotient) -> tuple[bool, str]:
    """Whether the brute force agrees with ``q`` on every sum it plays, and in words."""
    top = CHECK_TOTAL if q.proved_all else min(CHECK_TOTAL, q.heaps)
    heap_map = [q.element(h) for h in range(top + 1)]
    count, bad = compare(
        f"misere:{q.spec}", q.monoid.mul, sorted(q.monoid.p), heap_map, CHECK_HEAPS, top
    )
    if bad:
        first = bad[0]
        return False, (
            f"the quotient disagrees with brute-force misère outcomes at heaps {first.heaps} "
            f"({len(bad)} of {count} sums): not used"
        )
    return True, (
        f"brute-force outcomes agree on all {count} sums of up to {CHECK_HEAPS} heaps "
        f"of total <= {top}"
    )


def _mismatches(ctx: ClaimContext, q: MisereQuotient) -> list[tuple[str, Any, Any]]:
    """Each stated figure that differs from the quotient's: (words, claimed, actual); a
    heap-map period as ``(period, from heap)``."""
    claim = ctx.claim
    out: list[tuple[str, Any, Any]] = []
    if claim.order is not None and claim.order != q.order:
        out.append((f"the quotient has order {q.order}, not {claim.order}", claim.order, q.order))
    size = len(q.monoid.p)
    if claim.p_portion is not None and claim.p_portion != size:
        out.append(
            (f"the P-portion has {size} elements, not {claim.p_portion}", claim.p_portion, size)
        )
    if claim.period is not None:
        start = claim.preperiod if claim.preperiod is not None else 0
        failure = _period_failure(q, claim.period, start)
        if failure is not None:
            actual = (q.period[1], q.period[0]) if q.period else None
            out.append((failure, (claim.period, start), actual))
    return out


def _period_failure(q: MisereQuotient, period: int, start: int) -> str | None:
    """Why heap ``n + period`` and heap ``n`` do not always share an element for ``n >= start``.

    With the quotient proved for every heap, its map is periodic with ``p`` from
    ``n0``, so both sides repeat with ``p`` beyond ``max(n0, start)``: heaps
    ``start <= n < max(n0, start) + p`` decide every ``n``. Without the proof only the
    computed heaps are compared, and a period not seen there is a failure too.
    """
    if q.proved_all and q.period is not None:
        n0, p = q.period
        last = max(n0, start) + p
    else:
        last = q.heaps + 1 - period
        if last <= start:
            return f"the heap map is computed only to heap {q.heaps}, too short for period {period}"
    for n in range(start, last):
        if q.element(n + period) != q.element(n):
            return (
                f"the heap map does not have period {period} from heap {start} "
                f"(heaps {n} and {n + period} map to {q.name(q.element(n))} and "
                f"{q.name(q.element(n + period))})"
            )
    return None


def certificate(ctx: ClaimContext, q: MisereQuotient) -> dict[str, Any] | None:
    """The certificate part of a proved quotient-order claim: the quotient, the claim's stated
    figures, a sum of heaps reaching each element and an element telling each pair apart
    (:func:`nimproof.certificates.parts.misere_quotient_order`); None when the quotient is not
    proved for every heap, or (never for a reduced quotient generated by its heaps) some
    element is unreached or some pair is not told apart."""
    if not q.proved_all or q.period is None or q.window is None:
        return None
    mul, ps = q.monoid.mul, set(q.monoid.p)
    reach = _reaching_sums(mul, q.phi[1 : q.window + 1], q.order)
    distinguish = []
    for x in range(q.order):
        for y in range(x + 1, q.order):
            z = next((z for z in range(q.order) if (mul[x][z] in ps) != (mul[y][z] in ps)), None)
            if z is None:
                return None
            distinguish.append(z)
    if reach is None:
        return None
    claim = ctx.claim
    stated = {
        "order": claim.order,
        "p_portion": claim.p_portion,
        "period": claim.period,
        "preperiod": claim.preperiod,
    }
    return certificate_parts.misere_quotient_order(
        mul=mul,
        p_portion=q.p_portion,
        phi=q.phi[: q.window + 1],
        period=q.period,
        stated=stated,
        reach=reach,
        distinguish=distinguish,
    )


def _reaching_sums(
    mul: Sequence[Sequence[int]], elements: list[int], order: int
) -> list[list[int]] | None:
    """For each element, a shortest sum of heaps (heap ``h`` has ``elements[h - 1]``) whose
    product is that element; None when some element is reached by no sum."""
    first: dict[int, int] = {}
    for h, x in enumerate(elements, start=1):
        first.setdefault(x, h)
    sums: dict[int, list[int]] = {0: []}
    frontier = [0]
    while frontier:
        nxt = []
        for d in frontier:
            for x, h in sorted(first.items()):
                e = mul[d][x]
                if e not in sums:
                    sums[e] = [*sums[d], h]
                    nxt.append(e)
        frontier = nxt
    if len(sums) != order:
        return None
    return [sums[x] for x in range(order)]


def confirm_figure(ctx: ClaimContext, cx: Counterexample) -> str | None:
    """How a wrong stated figure ``cx`` of a quotient-order claim is re-checked, or None when
    it is not: the quotient is rebuilt, must be proved for every heap, must agree with the
    independent brute force (:func:`_cross_check`) and must still differ from the claim in
    the figure ``cx`` names (used by :func:`nimproof.provers.settle.confirm` only)."""
    assert ctx.heap_game is not None
    q = misere_quotient(ctx.heap_game.spec, DEFAULT_MAX_HEAP, max_positions=DEFAULT_MAX_POSITIONS)
    agrees, _agreed = _cross_check(q)
    if not (q.proved_all and agrees):
        return None
    if not any((c, a) == (cx.claimed, cx.actual) for _w, c, a in _mismatches(ctx, q)):
        return None
    return (
        f"the quotient rebuilt and proved for every heap; brute-force misère outcomes of every "
        f"sum of up to {CHECK_HEAPS} heaps of total <= {CHECK_TOTAL} agree with it"
    )
