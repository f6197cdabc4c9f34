"""Worked examples: ``value`` and ``sequence`` claims, decided by direct computation.

Each listed position is evaluated by the reference implementation and, where
the engine covers the game, by the engine too; both must agree with the
claim. A position of a heap game (a sum of heaps) is evaluated as a whole
by direct mex while it is small; a larger one is evaluated by
Sprague–Grundy, xor of the reference heap tables (the detail says which).
Winning moves are compared as sets: the moves the text lists must be exactly
the moves to positions of value 0 (misère: misère nim-value 0). For heap
games a move is written as the heaps it leaves: a number, or a list of heaps
(order does not matter; a move that splits a heap leaves more heaps).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any, TypedDict

from nimproof.engines import reference
from nimproof.games import Game, HeapGame, PluginGame, canonical_heaps
from nimproof.provers import deadline
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import fixed_moves
from nimproof.provers.recheck import table_mismatch
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "reference"


class Options(TypedDict, total=False):
    """The ``reference`` method takes no options."""


#: Positions of a heap game whose direct evaluation would visit more joint positions than
#: ``DIRECT_BUDGET``, or list more moves than ``DIRECT_COST`` in all, are evaluated by
#: Sprague–Grundy.
DIRECT_BUDGET = 20_000
DIRECT_COST = 2e6
#: For take-and-break games: positions with more tokens than this use Sprague–Grundy.
SPLIT_BUDGET = 40


#: Most work (roughly, set insertions) a reference heap table may take for a value claim.
REFERENCE_COST = 2e9


class TooLarge(Exception):
    """A position beyond what the reference implementation can evaluate."""


def reference_limit(game: HeapGame) -> int:
    """The largest heap whose reference table costs at most :data:`REFERENCE_COST`."""
    from nimproof.provers.recheck import heap_cost

    lo, hi = 0, 1 << 40
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if heap_cost(game, mid) <= REFERENCE_COST:
            lo = mid
        else:
            hi = mid - 1
    return lo


class _Oracle:
    """Reference values of the claim's positions, shared caches, and how each was computed."""

    def __init__(self, game: Game, deadline: float = 0.0) -> None:
        self.game = game
        self.deadline = deadline
        self.cache: dict[Hashable, int] = {}
        self.tables: list[int] = []
        self.methods: set[str] = set()

    def heap_table(self, n: int) -> list[int]:
        assert isinstance(self.game, HeapGame)
        if len(self.tables) <= n:
            limit = reference_limit(self.game)
            if n > limit:
                raise TooLarge(
                    f"heap {n} is too large for this engine (the reference implementation): "
                    f"limit {limit:,} for {self.game.spec}"
                )
            size = min(max(n, 2 * len(self.tables)), limit)
            self.tables = reference.heap_table(
                self.game, size, check=lambda: deadline.check(self.deadline, "computing a table")
            )
        return self.tables

    def value(self, position: Any) -> int:
        game = self.game
        if isinstance(game, HeapGame):
            heaps = canonical_heaps((position,) if isinstance(position, int) else position)
            # A split multiplies the positions below a heap: there the budget is on the tokens.
            if game.splits:
                direct = sum(heaps) <= SPLIT_BUDGET
            else:
                direct = _direct_cost(game, heaps) <= DIRECT_COST
            if not direct:
                self.methods.add("Sprague–Grundy over reference heap tables")
                table = self.heap_table(max(heaps))
                out = 0
                for h in heaps:
                    out ^= table[h]
                return out
            self.methods.add("direct mex")
            return reference.value(game, heaps, self.cache, check=self.check)
        self.methods.add("direct mex")
        key = game.position(position)
        return reference.value(game, key, self.cache, check=self.check)

    def check(self) -> None:
        """Raise :class:`~nimproof.provers.deadline.TimeUp` past the claim's deadline."""
        deadline.check(self.deadline, "computing a value")

    def moves(self, position: Any) -> list[Any]:
        """The positions one move away, in the form claims write them."""
        game = self.game
        if isinstance(game, HeapGame):
            heaps = (position,) if isinstance(position, int) else tuple(position)
            return list(dict.fromkeys(game.moves(heaps)))
        if isinstance(game, PluginGame) or isinstance(position, int):
            return list(dict.fromkeys(game.moves(position)))
        return list(dict.fromkeys(fixed_moves(game, position)))

    def normal(self, move: Any) -> Any:
        """A listed or generated move in one comparable form."""
        if isinstance(self.game, HeapGame) or self.game.misere:
            if isinstance(move, int):
                return canonical_heaps((move,))
            if isinstance(move, list | tuple) and all(isinstance(x, int) for x in move):
                return canonical_heaps(move)
        return _freeze(move)


def _direct_cost(game: HeapGame, heaps: tuple[int, ...]) -> float:
    """Roughly the moves a direct evaluation of ``heaps`` lists (inf beyond ``DIRECT_BUDGET``)."""
    from nimproof.provers.recheck import heap_cost

    positions = math.prod(h + 1 for h in heaps)
    if positions > DIRECT_BUDGET:
        return math.inf
    return positions * sum(heap_cost(game, h) / (h + 1) for h in heaps)


def _freeze(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return tuple(_freeze(v) for v in x)
    return x


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
            result = _values(ctx, _Oracle(ctx.game, ctx.deadline))
        except TooLarge as exc:
            result = _unknown(str(exc))
    return replace(result, seconds=time.monotonic() - t0)


def _unknown(detail: str) -> MethodResult:
    return MethodResult(NAME, "unknown", detail=detail)


def _refuted(cx: Counterexample, detail: str) -> MethodResult:
    return MethodResult(NAME, "refuted", detail=detail, counterexample=cx)


def _values(ctx: ClaimContext, oracle: _Oracle) -> MethodResult:
    game = oracle.game
    for i, (pos, expected) in enumerate(zip(ctx.claim.positions, ctx.claim.values, strict=True)):
        actual = oracle.value(pos)
        if actual != expected:
            text = f"The value of {pos} is {actual}, not {expected} as claimed."
            cx = Counterexample(
                pos, "value", text, expected, actual, None, True, "reference implementation"
            )
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
    from nimproof.engines import position_value

    if isinstance(game, PluginGame):
        return None
    try:
        return int(position_value(game, pos))
    except Exception:  # the engine does not cover every game or size; the reference already decided
        return None


def _sequence(ctx: ClaimContext) -> MethodResult:
    from nimproof.engines import grundy_table

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
        table = [int(x) for x in grundy_table(game, last)]
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
            cx = Counterexample(n, "value", text, v, ref[n], None, True, "reference implementation")
            return _refuted(cx, text)
    return MethodResult(
        NAME,
        "proved",
        Scope("all", measure="listed"),
        f"{len(claimed)} values from {ctx.claim.offset}, {how}",
        stats={"values": len(claimed)},
    )
