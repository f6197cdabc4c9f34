"""Worked examples: ``value`` and ``sequence`` claims, decided by direct computation.

Each listed position is evaluated by the reference implementation (direct
mex over the position as a whole) and by the engine (Sprague–Grundy over
stored tables where it applies); both must agree with the claim. Winning
moves are compared as sets: the moves the text lists must be exactly the
moves to positions of value 0 (misère: misère nim-value 0).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

from nimproof.engines import reference
from nimproof.games import Game, HeapGame, PluginGame
from nimproof.games.misere import Misere
from nimproof.games.sums import Sum
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import fixed_moves
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "reference"


def _key(ctx: ClaimContext, position: Any) -> Any:
    game = ctx.game
    if isinstance(game, Sum):
        return game.position(position)
    return position


def _moves(ctx: ClaimContext, position: Any) -> list[Any]:
    game = ctx.game
    assert game is not None
    if isinstance(game, PluginGame) or isinstance(position, int):
        return list(dict.fromkeys(game.moves(position)))
    return list(dict.fromkeys(fixed_moves(game, position)))


def run(ctx: ClaimContext, options: dict[str, Any]) -> MethodResult:
    """Check every listed value (and winning move), or the listed sequence."""
    t0 = time.monotonic()
    if ctx.kind == "sequence":
        return _sequence(ctx, t0)
    if ctx.kind != "value":
        return MethodResult(NAME, "unknown", detail=f"does not apply to {ctx.kind} claims")
    game = ctx.game
    assert game is not None
    cache: dict[Hashable, int] = {}
    scope = Scope("all", measure="listed")
    for i, (pos, expected) in enumerate(zip(ctx.claim.positions, ctx.claim.values, strict=True)):
        actual = reference.value(game, _key(ctx, pos), cache)
        if actual != expected:
            text = f"The value of {pos} is {actual}, not {expected} as claimed."
            cx = Counterexample(
                pos, "value", text, expected, actual, None, True, "reference implementation"
            )
            return MethodResult(
                NAME, "refuted", detail=text, seconds=time.monotonic() - t0, counterexample=cx
            )
        engine_value = _engine_value(game, pos)
        if engine_value is not None and engine_value != actual:
            return MethodResult(
                NAME,
                "unknown",
                detail=f"engine and reference disagree at {pos}",
                seconds=time.monotonic() - t0,
            )
        if ctx.claim.winning_moves:
            listed = {_normal(m) for m in ctx.claim.winning_moves[i]}
            true = {
                _normal(q)
                for q in _moves(ctx, pos)
                if reference.value(game, _key(ctx, q), cache) == 0
            }
            if listed != true:
                missing, extra = sorted(true - listed, key=str), sorted(listed - true, key=str)
                text = f"At {pos} the winning moves are {sorted(true, key=str)}"
                text += f"; the claim lists {sorted(listed, key=str)}"
                if extra:
                    text += f" ({extra} do not lead to a P-position)"
                if missing:
                    text += f" (missing {missing})"
                cx = Counterexample(
                    pos,
                    "winning-moves",
                    text + ".",
                    sorted(listed, key=str),
                    sorted(true, key=str),
                    None,
                    True,
                    "reference implementation",
                )
                return MethodResult(
                    NAME, "refuted", detail=text, seconds=time.monotonic() - t0, counterexample=cx
                )
    n = len(ctx.claim.positions)
    return MethodResult(
        NAME,
        "proved",
        scope,
        f"{n} position(s) computed by direct mex",
        time.monotonic() - t0,
        stats={"positions": n},
    )


def _normal(move: Any) -> Any:
    return tuple(move) if isinstance(move, list | tuple) else move


def _engine_value(game: Game, pos: Any) -> int | None:
    from nimproof.engines import position_value

    try:
        return int(position_value(game, pos))
    except Exception:  # the engine does not cover every game; the reference already decided
        return None


def _sequence(ctx: ClaimContext, t0: float) -> MethodResult:
    from nimproof.engines import grundy_table

    game = ctx.game
    if not isinstance(game, HeapGame | Misere):
        return MethodResult(NAME, "unknown", detail="sequence claims need a heap game")
    claimed = [int(v) for v in ctx.claim.values]
    last = ctx.claim.offset + len(claimed) - 1
    table = [int(x) for x in grundy_table(game, last)]
    if isinstance(game, Misere):
        ref = [reference.value(game, n) for n in range(last + 1)]
    else:
        ref = reference.heap_table(game, last)
    if table != ref:
        k = next(i for i, (a, b) in enumerate(zip(table, ref, strict=True)) if a != b)
        return MethodResult(
            NAME,
            "unknown",
            detail=f"engine and reference disagree at n = {k}",
            seconds=time.monotonic() - t0,
        )
    for i, v in enumerate(claimed):
        n = ctx.claim.offset + i
        if ref[n] != v:
            text = (
                f"At heap {n} (term {i + 1} of the listed sequence) the value is {ref[n]}, not {v}."
            )
            cx = Counterexample(n, "value", text, v, ref[n], None, True, "reference implementation")
            return MethodResult(
                NAME, "refuted", detail=text, seconds=time.monotonic() - t0, counterexample=cx
            )
    return MethodResult(
        NAME,
        "proved",
        Scope("all", measure="listed"),
        f"{len(claimed)} values from heap {ctx.claim.offset}, engine and reference agree",
        time.monotonic() - t0,
        stats={"values": len(claimed)},
    )
