"""Re-check a counterexample that MONA gave for one obligation, without MONA.

The assignment is decoded into heaps (``X0..``), the move target (``Y0..``)
and values (``V``, ``W``); then the failure is confirmed by the re-checks of
:mod:`nimproof.provers.settle` (exact integer evaluation of the claim, the
family's own move definition, the reference implementation where the position
is small, its true value by theorem for Nim, and z3 on the concrete position
where it is too large to enumerate its moves). A candidate that does not
re-check is never a refutation: the caller reports ``unknown`` with the note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimproof.errors import EvalError
from nimproof.provers import recheck as rc
from nimproof.provers import settle
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample

if TYPE_CHECKING:
    from nimproof.provers.automata import Plan

#: Positions with at most this many positions below them are re-checked by a search for
#: the smallest wrong position below (:func:`nimproof.provers.settle.smallest_wrong_below`).
SMALL_BELOW = 5000


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
) -> Recheck:
    """Confirm MONA's counterexample to ``obligation`` (``assignment``, already shrunk by the
    automata method where it could be)."""
    if obligation == "w":
        return Recheck(None, "a move that does not lower the measure induction runs on")
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
        return Recheck(
            settle.undefined_at(ctx, xs[0] if ctx.one_heap else tuple(xs), exc), str(exc)
        )


def _identity(ctx: ClaimContext, xs: list[int]) -> Recheck:
    point = dict(zip(ctx.claim.variables, xs, strict=True))
    cx = settle.identity_fails_at(ctx, point)
    if cx is None:
        return Recheck(None, f"MONA's counterexample {point} holds in exact evaluation")
    if cx.condition == "undefined":
        return Recheck(cx, "undefined there")
    return Recheck(cx, "re-checked by exact evaluation")


def _guard(ctx: ClaimContext, point: Any) -> Recheck:
    try:
        rc.formula_at(ctx, point)
    except EvalError as exc:
        return Recheck(settle.undefined_at(ctx, point, exc), "undefined there")
    where = rc.describe_position(ctx, point)
    return Recheck(
        None, f"a negative intermediate value at {where} is outside what this method compiles"
    )


def _terminal(ctx: ClaimContext, p: Any) -> bool:
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return base.heap_terminal(int(p))
    assert ctx.game is not None
    return ctx.game.is_terminal(ctx.game.position(p))


def _p(ctx: ClaimContext, ob: str, x: tuple[int, ...], y: tuple[int, ...]) -> Recheck:
    s_x = bool(rc.formula_at(ctx, x))
    if ob == "a":
        text = (
            f"The move {x} -> {y} leads from a claimed P-position to another; no move can join "
            "two P-positions, so the claim is false at one of them or below."
        )
        found = settle.move_joins(ctx, x, y, text, "exact evaluation and the move definition")
        if found is None:
            return Recheck(None, f"MONA's move {x} -> {y} does not re-check")
        return _named(ctx, found, x, y)
    if ob == "c":
        note = " (misère: no move, so the player to move wins)"
        cx = settle.terminal_misvalued(ctx, x, s_x, note) if s_x else None
        if cx is None:
            return Recheck(None, f"MONA's terminal position {x} does not re-check")
        return Recheck(cx, "re-checked")
    # (b): outside S, not terminal under misère play, and no move enters S.
    if s_x or (ctx.misere and _terminal(ctx, x)):
        return Recheck(None, f"MONA's position {x} for (b) does not re-check")
    text = (
        f"At {rc.describe_position(ctx, x)} the claim says N, but no move reaches a position the "
        "claim calls P: the claim is false there or at one of its options."
    )
    found = settle.no_move_reaches(ctx, x, None, text, claimed=False)
    if found is None:
        return Recheck(
            None, f"no re-check confirmed that no move from {x} enters the claimed P-set"
        )
    return _named(ctx, found, x, None)


def _g(ctx: ClaimContext, ob: str, x: Any, y: Any, v: int, w: int) -> Recheck:
    gx = int(rc.formula_at(ctx, x))
    where = rc.describe_position(ctx, x)
    if ob == "g1":
        text = f"The move {x} -> {y} joins two positions the claim values {gx}; mex forbids it."
        found = settle.move_joins(ctx, x, y, text, "exact evaluation and the move definition")
        if found is None:
            return Recheck(None, f"MONA's move {x} -> {y} does not re-check")
        return _named(ctx, found, x, y)
    if ob == "g0":
        cx = settle.terminal_misvalued(ctx, x, gx)
        if cx is None:
            return Recheck(None, f"MONA's terminal position {x} does not re-check")
        return Recheck(cx, "re-checked")
    if not (v < gx) or (ctx.misere and _terminal(ctx, x)):
        return Recheck(None, f"MONA's value {v} at {x} does not re-check")
    text = f"At {where} the claim gives {gx}, but no move reaches a position the claim values {v}."
    found = settle.no_move_reaches(ctx, x, v, text, claimed=gx)
    if found is None:
        return Recheck(None, f"no re-check confirmed that no move from {x} reaches value {v}")
    return _named(ctx, found, x, None)


def _named(ctx: ClaimContext, found: Counterexample, x: Any, move: Any) -> Recheck:
    """The confirmed finding ``found``, replaced by the smallest misclassified position the
    reference finds (at ``x``, or else at the move's target ``move``: where the claim is wrong)."""
    try:
        if ctx.one_heap:
            exact = settle.heap_counterexample(ctx, int(x))
            if exact is None and move is not None:
                exact = settle.heap_counterexample(ctx, int(move))
        else:
            # Small positions: the smallest wrong position below, by the reference. Large
            # ones: their true value (Sprague–Grundy, Bouton's misère theorem for Nim).
            exact = settle.smallest_wrong_below(ctx, tuple(x), SMALL_BELOW)
            if exact is None and move is not None:
                exact = settle.wrong_at(ctx, tuple(move))
    except (ValueError, RecursionError):
        exact = None
    if exact is not None:
        return Recheck(exact, "re-checked by the reference implementation")
    return Recheck(found, f"re-checked by {found.recheck}")
