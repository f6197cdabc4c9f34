"""Periodicity theorems: a finite computation that proves a claim for all n.

* Finite subtraction set ``S`` with ``k = max S``: each value depends only on
  the previous ``k``, so ``g(n + p) = g(n)`` for ``n0 <= n < n0 + k`` implies
  it for all ``n >= n0`` (Golomb 1966).
* Octal game with last non-zero digit at index ``t`` (Guy–Smith 1956;
  Winning Ways ch. 4): ``g(n + p) = g(n)`` for ``n0 <= n < 2 n0 + p + t``
  implies it for all ``n >= n0``. By default the safer window of CGSuite's
  checker, ``2 n0 + 2 p + t + 2``, is used; ``margin = "guy-smith"`` selects
  the theorem's own. The theorem needs two-way splits only (digits below 8)
  and no split without removal (``d0 = 0``).
* Codes with a split-only digit ``d0`` or three-way splits, and all-but
  subtraction games with a saltus: see :mod:`.period_theorems` (every
  window used here comes from that module).

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
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal, TypedDict

import numpy as np

from nimproof.certificates import parts as certificate_parts
from nimproof.engines import reference
from nimproof.games import HeapGame
from nimproof.provers.context import ClaimContext
from nimproof.provers.period_theorems import theorem_for
from nimproof.provers.recheck import table_mismatch
from nimproof.provers.settle import candidate
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
    from nimproof.engines import grundy_table  # lazy: the engines start numba

    claim = ctx.claim
    game = ctx.heap_game
    if ctx.kind != "periodic" or game is None or ctx.misere:
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
    table = grundy_table(game, last)
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
    for n in range(n0, check_to):
        if int(table[n + p]) != int(table[n]) + s:
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
        stats.update(theorem=theorem, window_end=end)
        values = [int(v) for v in table[: window.needs]]
        part = certificate_parts.periodicity(theorem, p, n0, s, values, claim.least)
        return MethodResult(
            NAME,
            "proved",
            Scope("all", measure="heap"),
            f"{theorem}: checked g(n+{p}) = g(n){' + ' + str(s) if s else ''} for {n0} <= n < {end}; "
            f"{found}",
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
    window: Any,
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


def least_period(table: np.ndarray, p: int, n0: int, s: int) -> tuple[int, int]:
    """The least period and its least preperiod, given that ``(p, n0, s)`` holds on ``table``.

    An eventual period with saltus divides into the least one: a divisor ``d``
    of ``p`` (with ``s d / p`` whole) that holds for one full period from
    ``n0`` holds for every ``n >= n0``, because both sides advance by ``s``
    every ``p`` steps. Its least preperiod is found by extending it downwards
    from ``n0`` while it still holds.
    """
    best = p
    for d in range(1, p):
        if p % d or (s * d) % p:
            continue
        sd = s * d // p
        if all(int(table[n + d]) == int(table[n]) + sd for n in range(n0, n0 + p)):
            best = d
            break
    sd = s * best // p
    n1 = n0
    while n1 > 0 and int(table[n1 - 1 + best]) == int(table[n1 - 1]) + sd:
        n1 -= 1
    return best, n1


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


def theorem_window(
    game: HeapGame, period: int, preperiod: int, saltus: int = 0, margin: str = "cgsuite"
) -> tuple[str, int]:
    """The periodicity theorem that applies to ``game`` and the end (exclusive) of the window
    of heaps ``n`` on which ``g(n + period) == g(n) + saltus`` must be checked; ``("", 0)``
    when no theorem applies. ``margin``: ``"cgsuite"`` (the safer window) or ``"guy-smith"``.
    """
    return _window(game, period, preperiod, saltus, {"margin": margin})


def _window(game: HeapGame, p: int, n0: int, s: int, options: Mapping[str, Any]) -> tuple[str, int]:
    """The theorem that applies and the end of the window it needs (exclusive); ('', 0) if none."""
    if s != 0:
        return "", 0
    spec = game.moves_spec
    takes, digits = spec.finite_takes(), spec.octal_digits()
    if takes is not None:
        k = max(takes)
        return f"finite subtraction window (Golomb), max S = {k}", n0 + k
    if digits is not None and digits[0] == 0 and all(d < 8 for d in digits):
        t = max(k for k, d in enumerate(digits) if d)
        if options.get("margin", "cgsuite") == "guy-smith":
            return (
                f"Guy–Smith theorem, octal last digit index t = {t}, window 2n0 + p + t",
                2 * n0 + p + t,
            )
        return (
            f"Guy–Smith theorem, octal last digit index t = {t}, CGSuite's safer window 2n0 + 2p + t + 2",
            2 * n0 + 2 * p + t + 2,
        )
    return "", 0


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
