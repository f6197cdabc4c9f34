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

A ``periodic`` claim says the **least** period is ``period`` and the **least**
preperiod is ``preperiod`` (with ``saltus`` s: ``g(n + p) = g(n) + s``). The
table comes from the engine and is compared with the reference
implementation over the whole window where that is affordable. Without an
applicable theorem the claim is verified up to ``max_n`` only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Literal, TypedDict

import numpy as np

from nimproof.engines import reference
from nimproof.games import FiniteTakes, HeapGame, TakeAndBreak
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample, MethodResult, Scope

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
    from nimproof.engines import grundy_table

    t0 = time.monotonic()
    claim = ctx.claim
    game = ctx.heap_game
    if ctx.kind != "periodic" or game is None or ctx.misere:
        return MethodResult(
            NAME, "unknown", detail="applies to periodic claims on normal-play heap games"
        )
    p, n0, s = claim.period or 1, claim.preperiod or 0, claim.saltus
    theorem, end = _window(game, p, n0, s, options)
    max_n = int(options.get("max_n", 0))
    last = max(end + p, max_n, n0 + 2 * p) if theorem else max(max_n, n0 + 4 * p)
    if last > 10_000_000:
        return MethodResult(NAME, "unknown", detail=f"the window needs {last} values; too many")
    table = grundy_table(game, last)
    stats: dict[str, Any] = {"values": last + 1}
    ref_n = min(last, REFERENCE_LIMIT if game.splits else 200_000)
    ref = reference.heap_table(game, ref_n)
    if list(map(int, table[: ref_n + 1])) != ref:
        k = next(i for i, (a, b) in enumerate(zip(table, ref, strict=False)) if a != b)
        return MethodResult(
            NAME,
            "unknown",
            detail=f"engine and reference tables disagree at n = {k}",
            seconds=time.monotonic() - t0,
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
                ref,
                "period",
                t0,
                f"g({n + p}) = {int(table[n + p])} but g({n}) + {s} = {int(table[n]) + s}",
            )
    not_least = _not_least(ctx, table, ref, ref_n, t0, stats)
    if not_least is not None:
        return not_least
    if theorem:
        stats.update(theorem=theorem, window_end=end)
        return MethodResult(
            NAME,
            "proved",
            Scope("all", measure="heap"),
            f"{theorem}: checked g(n+{p}) = g(n){' + ' + str(s) if s else ''} for {n0} <= n < {end}",
            time.monotonic() - t0,
            stats=stats,
        )
    return MethodResult(
        NAME,
        "proved",
        Scope("bound", bound=last, measure="heap"),
        "no periodicity theorem applies; verified on the computed table",
        time.monotonic() - t0,
        stats=stats,
    )


def _not_least(
    ctx: ClaimContext,
    table: Any,
    ref: list[int],
    ref_n: int,
    t0: float,
    stats: dict[str, Any],
) -> MethodResult | None:
    """A refutation when a smaller preperiod or a smaller period already holds (None if not)."""
    claim = ctx.claim
    p, n0, s = claim.period or 1, claim.preperiod or 0, claim.saltus
    if n0 > 0 and int(table[n0 - 1 + p]) == int(table[n0 - 1]) + s:
        return _refute(
            ctx,
            n0 - 1,
            p,
            s,
            table,
            ref,
            "preperiod",
            t0,
            f"g({n0 - 1 + p}) = g({n0 - 1}) + {s} already, so the preperiod is smaller than {n0}",
        )
    for d in range(1, p):
        if p % d or (s * d) % p:
            continue
        sd = s * d // p
        if all(int(table[n + d]) == int(table[n]) + sd for n in range(n0, n0 + p)):
            text = f"period {d} already holds from n = {n0} (one full period checked), so {p} is not the least"
            cx = Counterexample(
                n0, "period", text, p, d, None, ref_n >= n0 + p + d, "reference table"
            )
            return MethodResult(
                NAME,
                "refuted",
                detail=text,
                seconds=time.monotonic() - t0,
                counterexample=cx,
                stats=stats,
            )
    return None


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
    if isinstance(spec, FiniteTakes):
        k = max(spec.takes)
        return f"finite subtraction window (Golomb), max S = {k}", n0 + k
    if isinstance(spec, TakeAndBreak) and spec.digits[0] == 0 and all(d < 8 for d in spec.digits):
        t = spec.last_index
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
    ref: list[int],
    cond: str,
    t0: float,
    text: str,
) -> MethodResult:
    rechecked = n + p < len(ref)
    cx = Counterexample(
        n,
        cond,
        text,
        int(table[n]) + s,
        int(table[n + p]),
        None,
        rechecked,
        "reference table" if rechecked else "",
    )
    return MethodResult(
        NAME, "refuted", detail=text, seconds=time.monotonic() - t0, counterexample=cx
    )
