"""Re-check a counterexample that MONA gave for one obligation, without MONA.

The assignment is decoded into heaps (``X0..``), the move target (``Y0..``)
and values (``V``, ``W``); then the failure is confirmed with exact integer
evaluation of the claim (:func:`nimproof.expr.evaluate`), the family's own
move definition (:mod:`nimproof.provers.moves`), the reference implementation
where the position is small, and z3 on the concrete position where it is too
large to enumerate its moves. A candidate that does not re-check is never a
refutation: the caller reports ``unknown`` with the note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.provers import deadline as dl
from nimproof.provers import recheck as rc
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import (
    fixed_moves,
    heap_move_legal,
    heap_moves,
    is_move,
    move_count_bound,
)
from nimproof.verdict import Counterexample

if TYPE_CHECKING:
    from nimproof.provers.automata import Plan

#: Positions whose moves are enumerated directly (their total below this, and no more
#: moves than ``ENUMERATE_MOVES``); z3 beyond.
ENUMERATE_TOTAL = 50_000
ENUMERATE_MOVES = 50_000


@dataclass(frozen=True)
class Recheck:
    """A confirmed counterexample, or None with the reason it could not be confirmed."""

    counterexample: Counterexample | None
    note: str


def recheck(
    ctx: ClaimContext,
    plan: Plan,
    obligation: str,
    assignment: dict[str, int],
    shrink: Callable[[dict[str, int]], dict[str, int]],
) -> Recheck:
    """Confirm MONA's counterexample to ``obligation`` (after shrinking it)."""
    if obligation == "w":
        return Recheck(None, "a move that does not lower the measure induction runs on")
    if obligation != "rule-guard":
        assignment = shrink(assignment)
    xs = [assignment.get(f"X{i}", 0) for i in range(plan.heaps)]
    ys = [assignment.get(f"Y{i}", 0) for i in range(plan.heaps)]
    v, w = assignment.get("V", 0), assignment.get("W", 0)
    try:
        if obligation == "rule-guard":
            return Recheck(None, "the move rule has a negative intermediate value (outside WS1S)")
        if ctx.spec.is_identity:
            return _identity(ctx, xs)
        point: Any = xs[0] if ctx.one_heap else tuple(xs)
        if obligation == "guard":
            return _guard(ctx, point)
        if ctx.spec.states_p_positions:
            return _p(ctx, obligation, tuple(xs), tuple(ys))
        target: Any = ys[0] if ctx.one_heap else tuple(ys)
        return _g(ctx, obligation, point, target, v, w)
    except EvalError as exc:
        return Recheck(rc.undefined_at(ctx, xs[0] if ctx.one_heap else tuple(xs), exc), str(exc))


def _identity(ctx: ClaimContext, xs: list[int]) -> Recheck:
    point = dict(zip(ctx.claim.variables, xs, strict=True))
    try:
        holds = bool(rc.formula_at(ctx, point))
    except EvalError as exc:
        return Recheck(rc.undefined_at(ctx, point, exc), "undefined there")
    if holds:
        return Recheck(None, f"MONA's counterexample {point} holds in exact evaluation")
    cx = Counterexample(
        point,
        "identity",
        f"The identity is false at {rc.describe_position(ctx, point)}.",
        True,
        False,
        None,
        True,
        "exact integer evaluation",
    )
    return Recheck(cx, "re-checked by exact evaluation")


def _guard(ctx: ClaimContext, point: Any) -> Recheck:
    try:
        rc.formula_at(ctx, point)
    except EvalError as exc:
        return Recheck(rc.undefined_at(ctx, point, exc), "undefined there")
    where = rc.describe_position(ctx, point)
    return Recheck(
        None, f"a negative intermediate value at {where} is outside what this method compiles"
    )


def _legal(ctx: ClaimContext, p: Any, q: Any) -> bool:
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return heap_move_legal(base, int(p), int(q))
    assert ctx.game is not None
    return is_move(ctx.game, p, q)


def _options(ctx: ClaimContext, p: Any) -> list[Any] | None:
    """Every move from ``p`` when there are few enough to list, else None."""
    total = int(p) if ctx.one_heap else sum(p)
    if total > ENUMERATE_TOTAL:
        return None
    if (
        not ctx.one_heap
        and ctx.game is not None
        and move_count_bound(ctx.game, p) > ENUMERATE_MOVES
    ):
        return None  # Moore's Nim: lowering two heaps of 1000 is already a million moves
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return sorted(set(base.heap_targets(int(p))))
    assert ctx.game is not None
    return fixed_moves(ctx.game, p)


def _terminal(ctx: ClaimContext, p: Any) -> bool:
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return next(iter(base.heap_targets(int(p))), None) is None
    assert ctx.game is not None
    return next(iter(ctx.game.moves(ctx.game.position(p))), None) is None


def _p(ctx: ClaimContext, ob: str, x: tuple[int, ...], y: tuple[int, ...]) -> Recheck:
    s_x = bool(rc.formula_at(ctx, x))
    if ob == "a":
        if not (_legal(ctx, x, y) and s_x and bool(rc.formula_at(ctx, y))):
            return Recheck(None, f"MONA's move {x} -> {y} does not re-check")
        text = (
            f"The move {x} -> {y} leads from a claimed P-position to another; no move can join "
            "two P-positions, so the claim is false at one of them or below."
        )
        return _confirmed(ctx, x, "condition-1", text, True, y)
    if ob == "c":
        if not (s_x and _terminal(ctx, x)):
            return Recheck(None, f"MONA's terminal position {x} does not re-check")
        cx = rc.value_mismatch(ctx, x, True, 1, "exact evaluation: a terminal position")
        return Recheck(
            replace(
                cx, explanation=cx.explanation + " (misère: no move, so the player to move wins)"
            ),
            "re-checked",
        )
    # (b): outside S, not terminal under misère play, and no move enters S.
    if s_x or (ctx.misere and _terminal(ctx, x)):
        return Recheck(None, f"MONA's position {x} for (b) does not re-check")
    how = _no_move_reaches(ctx, x, lambda q: bool(rc.formula_at(ctx, q)), None)
    if not how:
        return Recheck(
            None, f"no re-check confirmed that no move from {x} enters the claimed P-set"
        )
    text = (
        f"At {rc.describe_position(ctx, x)} the claim says N, but no move reaches a position the "
        "claim calls P: the claim is false there or at one of its options."
    )
    return _confirmed(ctx, x, "condition-2", text, False, None, how)


def _g(ctx: ClaimContext, ob: str, x: Any, y: Any, v: int, w: int) -> Recheck:
    gx = int(rc.formula_at(ctx, x))
    where = rc.describe_position(ctx, x)
    if ob == "g1":
        if not (_legal(ctx, x, y) and int(rc.formula_at(ctx, y)) == gx):
            return Recheck(None, f"MONA's move {x} -> {y} does not re-check")
        text = f"The move {x} -> {y} joins two positions the claim values {gx}; mex forbids it."
        return _confirmed(ctx, x, "condition-1", text, gx, y)
    if ob == "g0":
        if not (_terminal(ctx, x) and gx != 1):
            return Recheck(None, f"MONA's terminal position {x} does not re-check")
        cx = rc.value_mismatch(ctx, x, gx, 1, "exact evaluation: a terminal misère position")
        return Recheck(cx, "re-checked")
    if not (v < gx) or (ctx.misere and _terminal(ctx, x)):
        return Recheck(None, f"MONA's value {v} at {x} does not re-check")
    how = _no_move_reaches(ctx, x, lambda q: int(rc.formula_at(ctx, q)) == v, v)
    if not how:
        return Recheck(None, f"no re-check confirmed that no move from {x} reaches value {v}")
    text = f"At {where} the claim gives {gx}, but no move reaches a position the claim values {v}."
    return _confirmed(ctx, x, "condition-2", text, gx, None, how)


def _confirmed(
    ctx: ClaimContext,
    x: Any,
    condition: str,
    text: str,
    claimed: Any,
    move: Any,
    how: str = "exact evaluation and the move definition",
) -> Recheck:
    """The counterexample, replaced by the smallest misclassified position the reference finds
    (at ``x``, or else at the move's target ``move``: the position where the claim is wrong)."""
    try:
        if ctx.one_heap:
            exact = rc.heap_counterexample(ctx, int(x), "reference implementation")
            if exact is None and move is not None:
                exact = rc.heap_counterexample(ctx, int(move), "reference implementation")
        else:
            from nimproof.provers import evidence

            # Small positions: the smallest wrong position below, by the reference. Large
            # ones: Sprague–Grundy over reference heap tables (exact and fast at any size).
            small = ctx.game is not None and rc.position_count(ctx.game, tuple(x)) <= 5000
            exact = (
                rc.first_disagreement(ctx, tuple(x)) if small else evidence.wrong_at(ctx, tuple(x))
            )
            if exact is None and move is not None and not small:
                exact = evidence.wrong_at(ctx, tuple(move))
    except (ValueError, RecursionError):
        exact = None
    if exact is not None:
        return Recheck(exact, "re-checked by the reference implementation")
    cx = Counterexample(x, condition, text, claimed, None, move, True, how)
    return Recheck(cx, f"re-checked by {how}")


def _no_move_reaches(
    ctx: ClaimContext, x: Any, goal: Callable[[Any], bool], value: int | None
) -> str:
    """How it was confirmed that no move from ``x`` satisfies ``goal``; "" when one does or
    it could not be decided (listing the moves, or z3 on the concrete position when too many)."""
    options = _options(ctx, x)
    if options is not None:
        for i, q in enumerate(options):
            dl.every(ctx.deadline, 1024, i, "re-checking the moves of a counterexample")
            try:
                if goal(q):
                    return ""
            except EvalError:
                continue
        return "exact evaluation of the claim at every move (the family's move definition)"
    if _z3_no_move(ctx, x, value):
        return "z3 on the concrete position (no legal move reaches the claimed target)"
    return ""


def _z3_no_move(ctx: ClaimContext, x: Any, value: int | None) -> bool:
    """z3 on the concrete position: is there a legal move into the claim's target? (unsat: no)."""
    from nimproof.provers.z3_bitvec.common import heap_move
    from nimproof.provers.z3_bitvec.multi_heap import multi_game, with_heaps

    assert ctx.formula is not None
    values = [int(x)] if ctx.one_heap else list(x)
    h = len(values)
    width = max(max(values).bit_length(), (value or 0).bit_length()) + 4 + h.bit_length()
    q = [z3.BitVec(f"q{i}", width) for i in range(h)]
    p = [z3.BitVecVal(a, width) for a in values]
    try:
        if ctx.one_heap:
            base = ctx.heap_game
            assert base is not None
            hm = heap_moves(base)
            if hm is None:
                return False
            move = heap_move(hm, p[0], q[0], width)
            c = compile_bv(ctx.formula, {"n": q[0], **ctx.params}, width)
        else:
            mg = multi_game(with_heaps(ctx, h), width)
            move = mg.move(p, q)
            c = compile_bv(ctx.formula, {"h": q, **ctx.params}, width)
    except Unsupported:
        return False
    goal = c.term if value is None else c.term == z3.BitVecVal(value, width)
    solver = z3.Solver()
    solver.set("timeout", _z3_ms(ctx))
    if c.guards:  # the bit-vector terms must be exact at every move target
        solver.add(move, z3.Not(z3.And(*c.guards)))
        if solver.check() != z3.unsat:
            return False
        solver.reset()
        solver.set("timeout", _z3_ms(ctx))
    solver.add(move, goal)
    return bool(solver.check() == z3.unsat)


def _z3_ms(ctx: ClaimContext) -> int:
    """z3's time limit for one concrete query: 30 s, and never past the claim's deadline."""
    dl.check(ctx.deadline, "re-checking a counterexample with z3")
    return max(1, int(1000 * min(30.0, ctx.time_left())))
