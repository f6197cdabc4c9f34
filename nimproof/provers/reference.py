"""Worked examples: ``value`` and ``sequence`` claims, decided by direct computation.

Each listed position is evaluated by the reference implementation and, where
the engine covers the game, by the engine too; both must agree with the
claim. A position of a heap game (a sum of heaps) is evaluated as a whole
by direct mex while it is small; a larger one is evaluated by
Sprague–Grundy, xor of the reference heap tables (the detail says which).
A disagreement is returned as a candidate and confirmed by
:mod:`nimproof.provers.settle`, which recomputes the value there.
Winning moves are compared as sets: the moves the text lists must be exactly
the moves to positions of value 0 (misère: misère nim-value 0). For heap
games a move is written as the heaps it leaves: a number, or a list of heaps
(order does not matter; a move that splits a heap leaves more heaps).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any, TypedDict

from nimproof import tables
from nimproof.engines import reference
from nimproof.games import Game, HeapGame, PluginGame
from nimproof.provers.context import ClaimContext
from nimproof.provers.recheck import Oracle, TooLarge, table_mismatch
from nimproof.provers.settle import candidate
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "reference"


class Options(TypedDict, total=False):
    """The ``reference`` method takes no options."""


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Check every listed value (and winning move), or the listed sequence."""
    t0 = time.monotonic()
    if ctx.spec.lists_sequence:
        result = _sequence(ctx)
    elif not ctx.spec.lists_positions:
        return _unknown(f"does not apply to {ctx.kind} claims")
    else:
        assert ctx.game is not None
        try:
            result = _values(ctx, Oracle(ctx.game, ctx.deadline))
        except TooLarge as exc:
            result = _unknown(str(exc))
    return replace(result, seconds=time.monotonic() - t0)


def _unknown(detail: str) -> MethodResult:
    return MethodResult(NAME, "unknown", detail=detail)


def _refuted(cx: Counterexample, detail: str) -> MethodResult:
    return MethodResult(NAME, "refuted", detail=detail, counterexample=cx)


def _values(ctx: ClaimContext, oracle: Oracle) -> MethodResult:
    game = oracle.game
    for i, (pos, expected) in enumerate(zip(ctx.claim.positions, ctx.claim.values, strict=True)):
        actual = oracle.value(pos)
        if actual != expected:
            text = f"The value of {pos} is {actual}, not {expected} as claimed."
            cx = candidate(pos, "value", text, expected, actual)
            return _refuted(cx, text)
        engine_value = _engine_value(game, pos)
        if engine_value is not None and engine_value != actual:
            return _unknown(f"engine and reference disagree at {pos}")
        if ctx.claim.winning_moves:
            listed = {oracle.normal(m) for m in ctx.claim.winning_moves[i]}
            true = {oracle.normal(q) for q in oracle.moves(pos) if oracle.value(q) == 0}
            if listed != true:
                missing, extra = sorted(true - listed, key=str), sorted(listed - true, key=str)
                text = f"At {pos} the winning moves are {sorted(true, key=str)}; the claim lists {sorted(listed, key=str)}"
                if extra:
                    text += f" ({extra} do not lead to a P-position)"
                if missing:
                    text += f" (missing {missing})"
                cx = candidate(
                    pos, "winning-moves", text + ".", sorted(listed, key=str), sorted(true, key=str)
                )
                return _refuted(cx, text)
    n = len(ctx.claim.positions)
    how = " and ".join(sorted(oracle.methods)) or "direct mex"
    return MethodResult(
        NAME,
        "proved",
        Scope("all", measure="listed"),
        f"{n} position(s) computed by {how}",
        stats={"positions": n},
    )


def _engine_value(game: Game, pos: Any) -> int | None:
    from nimproof.engines import position_value  # lazy: the engines start numba

    if isinstance(game, PluginGame):
        return None
    try:
        return int(position_value(game, pos))
    except Exception:  # the engine does not cover every game or size; the reference already decided
        return None


def _sequence(ctx: ClaimContext) -> MethodResult:
    game = ctx.game
    assert game is not None
    claimed = [int(v) for v in ctx.claim.values]
    last = ctx.claim.offset + len(claimed) - 1
    if isinstance(game, PluginGame):
        # A plugin whose positions include the integers (e.g. an untouched polygon of n sides).
        cache: dict[Hashable, int] = {}
        ref = [
            reference.value(game, n, cache) if n >= ctx.claim.offset else 0 for n in range(last + 1)
        ]
        how = "direct mex on the plugin's positions"
    elif isinstance(game, HeapGame) or game.misere:
        table = [int(x) for x in tables.heap_values(game, last)[: last + 1]]
        if isinstance(game, HeapGame):
            ref = reference.heap_table(game, last)
        else:
            ref = [reference.value(game, n) for n in range(last + 1)]
        k = table_mismatch(table, ref)
        if k is not None:
            return _unknown(f"engine and reference disagree at n = {k}")
        how = "engine and reference agree"
    else:
        return _unknown("sequence claims need a heap game or a plugin")
    for i, v in enumerate(claimed):
        n = ctx.claim.offset + i
        if ref[n] != v:
            text = f"At {n} (term {i + 1} of the listed sequence) the value is {ref[n]}, not {v}."
            cx = candidate(n, "value", text, v, ref[n])
            return _refuted(cx, text)
    return MethodResult(
        NAME,
        "proved",
        Scope("all", measure="listed"),
        f"{len(claimed)} values from {ctx.claim.offset}, {how}",
        stats={"values": len(claimed)},
    )
