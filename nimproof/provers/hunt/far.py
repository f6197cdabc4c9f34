"""The hunt far away: structured positions evaluated exactly, one at a time.

A false claim is often wrong only at a few large positions: where a heap is
one of the formula's constants (``h[0] == 2**45``), a power of two, or next
to one. :func:`values` lists those numbers (the formula's constants and their
neighbours, their sums and differences, powers of two and their neighbours,
random large numbers); :func:`positions` builds positions from them, those
made of the formula's own constants first.

At each position the claim is decided exactly:

* where the true value is within reach (small positions through the
  reference implementation; any sum of normal-play heaps whose tables the
  reference reaches, by Sprague–Grundy; a sum of Nim heaps, whose heap of
  ``n`` tokens has value ``n``, by Sprague–Grundy) it is compared with the
  claim (:func:`nimproof.provers.settle.wrong_at`; Nim and misère Nim by
  Sprague–Grundy and Bouton's misère theorem at any size);
* otherwise the local conditions are decided at that one position: the claim
  is evaluated exactly there, and z3 answers whether a legal move of the
  family (its symbolic move relation, at a width that holds the position)
  reaches a position the claim calls P (or values ``v``). What z3 finds is
  handed to :mod:`nimproof.provers.settle`: a move is re-checked with the
  family's own move definition and exact evaluation, an ``unsat`` answer by
  settle's own "z3 on the concrete position" query; settle then names the
  position where the claim is wrong when its truth is in reach.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import is_move
from nimproof.provers.z3_bitvec.multi_heap import multi_game, with_heaps
from nimproof.verdict import Counterexample

#: Largest power of two (as an exponent) tried when the formula names nothing larger.
POWERS = 64
#: Random large heaps added to the values, and seconds one z3 query may take.
RANDOM_VALUES = 8
QUERY_SECONDS = 5.0
#: Most positions made of the formula's own constants (beyond it, a random sample of them).
NEAR_TUPLES = 100_000
#: Values below which the reference decides a position directly.
SMALL = 64


def values(consts: Sequence[int], seed: int = 0) -> tuple[list[int], list[int]]:
    """``(near, far)``: the formula's constants with 0, 1, 2 (``near``), and every other
    structured number (``far``): neighbours of the constants, their sums and differences,
    powers of two and their neighbours, random large numbers."""
    near = sorted({0, 1, 2, *consts})
    top = max([POWERS, *[c.bit_length() + 2 for c in consts]])
    far: set[int] = set()
    for c in consts:
        far.update(x for x in (c - 2, c - 1, c + 1, c + 2) if x >= 0)
    for a, b in itertools.combinations(consts, 2):
        far.update((a + b, abs(a - b)))
    for k in range(2, top + 1):
        far.update((2**k - 1, 2**k, 2**k + 1))
    rng = random.Random(seed)
    far.update(rng.randrange(2**top) for _ in range(RANDOM_VALUES))
    return near, sorted(far - set(near))


def positions(h: int, near: list[int], far: list[int], seed: int = 0) -> Iterator[tuple[int, ...]]:
    """Positions of ``h`` heaps: every tuple of ``near`` values (fewest distinct values and
    largest first), then tuples with one ``far`` value among ``near`` ones, then random
    tuples of all the values. Each position is given once."""
    seen: set[tuple[int, ...]] = set()
    rng = random.Random(seed)
    if len(near) ** h <= NEAR_TUPLES:
        pool: Any = itertools.product(near, repeat=h)
    else:  # too many to list: a sample of them
        pool = (tuple(rng.choice(near) for _ in range(h)) for _ in range(NEAR_TUPLES))
    first = sorted(set(pool), key=lambda p: (len(set(p)), -max(p), -sum(p), p))
    mixed = (
        tuple(rng.choice(near) if j != i else x for j in range(h)) for x in far for i in range(h)
    )
    every = near + far
    wild = (tuple(rng.choice(every) for _ in range(h)) for _ in itertools.count())
    for p in itertools.chain(first, mixed, wild):
        if p not in seen:
            seen.add(p)
            yield p


def nim_sum_value(ctx: ClaimContext, position: Sequence[int]) -> int | None:
    """The value of a normal-play sum of Nim heaps (a heap of ``n`` is worth ``n``:
    its options are the heaps ``0..n-1``), or None for any other game."""
    game = ctx.game
    if game is None or game.misere or game.spec != "nim":
        return None
    out = 0
    for x in position:
        out ^= int(x)
    return out


def decidable(ctx: ClaimContext) -> bool:
    """True when large positions of the claim's game can be decided here (a sum of Nim
    heaps, or a game with symbolic moves for z3)."""
    h = ctx.heap_count or 0
    if h == 0:
        return False
    if nim_sum_value(ctx, (0,) * h) is not None:
        return True
    try:
        multi_game(with_heaps(ctx, h), 8)
    except Unsupported:
        return False
    return True


def decide(ctx: ClaimContext, position: tuple[int, ...], stop: float) -> Counterexample | None:
    """A re-checked counterexample at ``position`` (or at a move from it), or None."""
    if max(position) < SMALL or nim_sum_value(ctx, position) is not None:
        return settle.wrong_at(ctx, position)
    try:
        here = recheck.formula_at(ctx, position)
    except EvalError as exc:
        return settle.undefined_at(ctx, position, exc)
    return _local(ctx, position, here, stop)


def _local(ctx: ClaimContext, x: tuple[int, ...], here: Any, stop: float) -> Counterexample | None:
    """The local conditions at ``x`` by z3 on the concrete position (None: they hold, or
    they cannot be decided here)."""
    if ctx.spec.states_p_positions:
        if here and _terminal_misere(ctx, x):
            return settle.wrong_at(ctx, x)
        found = _query(ctx, x, None, stop)
        if found is _UNDECIDED:
            return None
        if here:
            real = found is not None and _is_real_move(ctx, x, found, here)
            return _condition_1(ctx, x, found, here) if real else None
        no_move = found is None and not _terminal_misere(ctx, x)
        return _condition_2(ctx, x, here) if no_move else None
    value = int(here)
    found = _query(ctx, x, value, stop)
    if found is not _UNDECIDED and found is not None and _is_real_move(ctx, x, found, here):
        return _condition_1(ctx, x, found, here)
    for goal in range(min(value, 4)):
        if _query(ctx, x, goal, stop) is None:
            return _condition_2(ctx, x, here, goal)
    return None


_UNDECIDED = object()


def _query(ctx: ClaimContext, x: tuple[int, ...], goal: Any, stop: float) -> Any:
    """A move target from ``x`` whose claimed value is ``goal`` (a P-position when ``goal`` is
    None), None when z3 proves there is none, :data:`_UNDECIDED` when it cannot say."""
    assert ctx.formula is not None
    h = len(x)
    width = max([*[v.bit_length() for v in x], int(goal or 0).bit_length(), 8]) + 4 + h.bit_length()
    q = [z3.BitVec(f"q{i}", width) for i in range(h)]
    p = [z3.BitVecVal(v, width) for v in x]
    try:
        move = multi_game(with_heaps(ctx, h), width).move(p, q)
        c = compile_bv(ctx.formula, {"h": q, **ctx.params}, width)
    except Unsupported:
        return _UNDECIDED
    seconds = min(QUERY_SECONDS, stop - time.monotonic())
    if seconds <= 0.05:
        return _UNDECIDED
    if c.guards and _check(move, z3.Not(z3.And(*c.guards)), seconds=seconds) is not None:
        return _UNDECIDED  # the bit-vector terms are not exact at every target
    target = c.term if ctx.spec.states_p_positions else c.term == z3.BitVecVal(int(goal), width)
    model = _check(move, target, seconds=seconds)
    if model is _UNDECIDED or model is None:
        return model
    return tuple(model.eval(v, model_completion=True).as_long() for v in q)


def _check(*constraints: Any, seconds: float) -> Any:
    solver = z3.SolverFor("QF_BV")
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.add(*constraints)
    answer = solver.check()
    if answer == z3.sat:
        return solver.model()
    return None if answer == z3.unsat else _UNDECIDED


def _terminal_misere(ctx: ClaimContext, x: tuple[int, ...]) -> bool:
    """True for a terminal position of a misère game (an N-position with no move)."""
    game = ctx.game
    assert game is not None
    return game.misere and next(iter(game.moves(game.position(x))), None) is None


def _is_real_move(ctx: ClaimContext, x: tuple[int, ...], q: tuple[int, ...], here: Any) -> bool:
    """z3's move re-checked: legal by the family's move definition, and the claim (exactly
    evaluated) gives the target the same verdict or value as ``x``."""
    assert ctx.game is not None
    try:
        there = recheck.formula_at(ctx, q)
    except EvalError:
        return False
    same = bool(there) and bool(here) if ctx.spec.states_p_positions else there == here
    return same and is_move(ctx.game, x, q)


def _condition_1(
    ctx: ClaimContext, x: tuple[int, ...], q: tuple[int, ...], here: Any
) -> Counterexample | None:
    a, b = ctx.describe(x), ctx.describe(q)
    what = "P-positions" if ctx.spec.states_p_positions else f"positions of value {here}"
    text = (
        f"The move from {a} to {b} joins two {what} of the claim; no move joins two such "
        "positions, so the claim is wrong at one of them."
    )
    return settle.move_joins(ctx, x, q, text)


def _condition_2(
    ctx: ClaimContext, x: tuple[int, ...], here: Any, goal: Any = None
) -> Counterexample | None:
    where = ctx.describe(x)
    if ctx.spec.states_p_positions:
        text = (
            f"At {where} the claim says N (not a P-position), but no move reaches a position the "
            "claim calls P; every N-position has such a move, so the claim is wrong at "
            f"{where} or at one of its options."
        )
    else:
        text = (
            f"At {where} the claim gives {here}, but no move reaches a position the claim values "
            f"{goal}, so the claim is wrong at {where} or at one of its options."
        )
    return settle.no_move_reaches(ctx, x, goal, text, claimed=here)
