"""The ``periodicity`` method: a finite computation that proves a ``periodic`` claim for all n.

The theorems, their hypotheses and the window of heaps each needs are those
of :mod:`nimproof.theory.periodicity` (Golomb for finite subtraction sets,
Guy–Smith for octal codes with CGSuite's safer window by default, the
``k``-way splitting window for ``4.x`` and hexadecimal codes, the all-but
window lemma with a saltus); this module computes the table, checks it and
words the answer. ``margin = "guy-smith"`` selects the Guy–Smith theorem's
own window.

A ``periodic`` claim says ``g(n + period) = g(n) + saltus`` for every
``n >= preperiod`` (any valid period and preperiod, as the README defines
it); with ``least = true`` it also says both are the least ones. The least
period and preperiod found are reported either way. The
table comes from the engine and is compared with the reference
implementation over the whole window where that is affordable. Without an
applicable theorem the claim is verified up to ``max_n`` only.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Literal, TypedDict

import numpy as np

from nimproof import tables
from nimproof.certificates import parts as certificate_parts
from nimproof.engines import reference
from nimproof.provers.context import ClaimContext
from nimproof.provers.recheck import table_mismatch
from nimproof.provers.settle import candidate
from nimproof.theory.periodicity import (
    Theorem,
    Unproved,
    check,
    first_break,
    least_period,
    theorem_for,
)
from nimproof.verdict import MethodResult, Scope

NAME = "periodicity"


class Options(TypedDict, total=False):
    """Options of the ``periodicity`` method in ``[claim.checks]`` (all optional)."""

    max_n: int
    """check the table at least up to this heap (0: as far as the theorem needs)"""
    margin: Literal["cgsuite", "guy-smith"]
    """which statement of the periodicity theorem's margin to use"""


REFERENCE_LIMIT = 3000


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Decide a ``periodic`` claim."""
    t0 = time.monotonic()
    result = _decide(ctx, options)
    return replace(result, seconds=time.monotonic() - t0)


def _decide(ctx: ClaimContext, options: Options) -> MethodResult:
    claim = ctx.claim
    game = ctx.heap_game
    if not ctx.spec.states_period or game is None or ctx.misere:
        return MethodResult(
            NAME, "unknown", detail="applies to periodic claims on normal-play heap games"
        )
    p, n0, s = claim.period or 1, claim.preperiod or 0, claim.saltus
    window = theorem_for(game, p, n0, s, str(options.get("margin", "cgsuite")))
    theorem, end = (window.name, window.end) if window else ("", 0)
    max_n = int(options.get("max_n", 0))
    last = max(window.needs, end + p, max_n, n0 + 2 * p) if window else max(max_n, n0 + 4 * p)
    if last > 10_000_000:
        return MethodResult(NAME, "unknown", detail=f"the window needs {last} values; too many")
    table = tables.heap_values(game, last)[: last + 1]
    stats: dict[str, Any] = {"values": last + 1}
    ref_n = min(last, REFERENCE_LIMIT if game.splits else 200_000)
    ref = reference.heap_table(game, ref_n)
    k = table_mismatch(table, ref)
    if k is not None:
        return MethodResult(
            NAME, "unknown", detail=f"engine and reference tables disagree at n = {k}"
        )
    stats["reference_checked_up_to"] = ref_n
    check_to = end if theorem else last - p + 1
    n = first_break(table, p, s, n0, check_to)
    if n is not None:
        return _refute(
            ctx,
            n,
            p,
            s,
            table,
            "period",
            f"The claim needs g({n + p}) = g({n}){' + ' + str(s) if s else ''} = "
            f"{int(table[n]) + s} (n = {n} >= preperiod {n0}), but g({n + p}) = {int(table[n + p])}.",
        )
    failed = _side_condition(ctx, window, table, ref, end, last, (p, s), stats)
    if failed is not None:
        return failed
    d, n1 = least_period(table, p, n0, s)
    stats.update(least_period=d, least_preperiod=n1)
    if claim.least and (d, n1) != (p, n0):
        return _not_least(ctx, p, n0, d, n1, stats)
    found = f"least period {d} from least preperiod {n1}"
    if window is not None:
        proved = check(window, table, p, n0, s)
        if isinstance(proved, Unproved):  # the checks above passed; never proved without it
            return MethodResult(NAME, "unknown", detail=proved.reason, stats=stats)
        stats.update(theorem=theorem, window_end=end)
        values = [int(v) for v in table[: window.needs]]
        part = certificate_parts.periodicity(theorem, p, n0, s, values, claim.least)
        return MethodResult(
            NAME,
            "proved",
            Scope("all", measure="heap"),
            f"{proved.describe()}; {found}",
            stats=stats,
            certificate=part,
        )
    return MethodResult(
        NAME,
        "proved",
        Scope("bound", bound=last, measure="heap"),
        f"no periodicity theorem applies; verified on the computed table; {found} within it",
        stats=stats,
    )


def _side_condition(
    ctx: ClaimContext,
    window: Theorem | None,
    table: np.ndarray,
    ref: list[int],
    end: int,
    last: int,
    ps: tuple[int, int],
    stats: dict[str, Any],
) -> MethodResult | None:
    """A theorem's side condition: None when it holds (or there is none), else the answer."""
    p, s = ps
    theorem = window.name if window is not None else ""
    side = window.side(table) if window is not None and window.side is not None else None
    if side is not None:
        for n in range(end, last - p + 1):
            if int(table[n + p]) != int(table[n]) + s:
                got, want = int(table[n + p]), int(table[n]) + s
                text = f"g({n + p}) = {got} but g({n}) + {s} = {want}"
                return _refute(ctx, n, p, s, table, "period", text)
        return MethodResult(
            NAME,
            "unknown",
            detail=f"{theorem}: the side condition fails ({side}); no counterexample up to {last}",
            stats=stats,
        )
    return None


def _not_least(
    ctx: ClaimContext,
    p: int,
    n0: int,
    d: int,
    n1: int,
    stats: dict[str, Any],
) -> MethodResult:
    """A ``least = true`` claim whose period or preperiod is valid but not the least."""
    s = ctx.claim.saltus
    rule = f"g(n + {d}) = g(n){' + ' + str(s * d // p) if s else ''}"
    if d != p:
        text = (
            f"The claimed period {p} holds from n = {n0}, but it is not the least: {rule} already "
            f"holds for every n >= {n1}, so the least period is {d} (with least preperiod {n1})."
        )
        condition, claimed, actual = "least-period", p, d
    else:
        text = (
            f"The claimed period {p} holds from n = {n0}, but {n0} is not the least preperiod: "
            f"g({n1 + p}) = g({n1}){' + ' + str(s) if s else ''} and the period holds for every "
            f"n >= {n1}, so the least preperiod is {n1}."
        )
        condition, claimed, actual = "least-preperiod", n0, n1
    cx = candidate(None, condition, text, claimed, actual)
    return MethodResult(NAME, "refuted", detail=text, counterexample=cx, stats=stats)


def _refute(
    ctx: ClaimContext,
    n: int,
    p: int,
    s: int,
    table: np.ndarray,
    cond: str,
    text: str,
) -> MethodResult:
    cx = candidate(n + p, cond, text, int(table[n]) + s, int(table[n + p]))
    return MethodResult(NAME, "refuted", detail=text, counterexample=cx)
