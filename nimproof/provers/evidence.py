"""Evidence is never discarded: every candidate counterexample is settled exactly.

A proof method that finds a point where the claim seems to fail (a z3 model,
a kernel's first mismatch, a random sample) but cannot confirm it itself
reports it as a *candidate*: a :class:`~nimproof.verdict.Counterexample` with
``rechecked = False``. :func:`settle` then decides the candidate with
whichever exact method reaches it:

1. the true value at the position, from the plain reference implementation
   while the position is small, or by Sprague–Grundy (the xor of reference
   heap tables) for a sum of heaps in normal play;
2. otherwise exact evaluation of the family's own move definition and of the
   claim at that one position (the local conditions of docs/theorems.md: a position's
   value is the mex of its options' values; no move joins two P-positions and
   every other position has a move into the P-set).

A candidate that is confirmed refutes the claim; one that exact evaluation
shows to be spurious is dismissed (the method's own answer stands without
it); one that nothing can reach stays a candidate, and the verdict is then
``unknown`` with the candidate shown, never ``proved`` at any scope
(:meth:`nimproof.verdict.Verdict.combine`). All of it runs under the claim's
deadline (:mod:`.deadline`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from nimproof.errors import EvalError
from nimproof.games import HeapGame
from nimproof.provers import deadline as dl
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import move_count_bound
from nimproof.provers.recheck import reference_heap_value
from nimproof.provers.solving import Undecided
from nimproof.verdict import Counterexample, MethodResult, Status

#: Most options enumerated to decide the local conditions at one position.
MAX_OPTIONS = 2_000_000
#: Most options whose true value is looked up to name a wrong position.
NAME_OPTIONS = 2000


class Candidate(Undecided):
    """Raised by a method that found a point it could not confirm; carries the candidate."""

    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__(counterexample.explanation)
        self.counterexample = counterexample


def candidate(
    position: Any,
    condition: str,
    explanation: str,
    claimed: Any = None,
    actual: Any = None,
    move: Any = None,
) -> Counterexample:
    """An unconfirmed counterexample (``rechecked = False``) for :func:`settle` to decide."""
    return Counterexample(position, condition, explanation, claimed, actual, move, False, "")


@dataclass(frozen=True)
class Settled:
    """What exact evaluation made of a candidate."""

    outcome: Literal["confirmed", "dismissed", "open"]
    counterexample: Counterexample
    reason: str = ""


def settle(ctx: ClaimContext, result: MethodResult) -> MethodResult:
    """Decide the unconfirmed candidate of ``result``, if it has one, and make every
    confirmed counterexample name a position where the claim is wrong
    (:func:`name_wrong_position`).

    Confirmed: the result refutes with the confirmed counterexample. Dismissed:
    the candidate is dropped and the method keeps the scope it proved before
    finding it (``unknown`` if none). Open (or out of time): the candidate
    stays, unconfirmed, and keeps the claim from being proved.
    """
    cx = result.counterexample
    if cx is None:
        return result
    if cx.rechecked:
        named = name_wrong_position(ctx, cx)
        return result if named is cx else dataclasses.replace(result, counterexample=named)
    try:
        settled = confirm(ctx, cx)
    except (dl.TimeUp, Undecided) as exc:
        settled = Settled("open", cx, str(exc))
    if settled.outcome == "confirmed":
        note = f"candidate confirmed by {settled.counterexample.recheck}"
        return dataclasses.replace(
            result,
            status="refuted",
            counterexample=name_wrong_position(ctx, settled.counterexample),
            detail=_join(result.detail, note),
        )
    if settled.outcome == "dismissed":
        status: Status = "proved" if result.scope.kind != "none" else "unknown"
        note = f"candidate at {cx.position} dismissed: {settled.reason}"
        return dataclasses.replace(
            result, status=status, counterexample=None, detail=_join(result.detail, note)
        )
    shown = dataclasses.replace(
        cx,
        explanation=_join(
            cx.explanation,
            "Not confirmed: " + (settled.reason or "no exact method reaches this position"),
        ),
    )
    return dataclasses.replace(result, status="unknown", counterexample=shown)


#: Conditions whose finding relates two positions (a move, or a position and its options):
#: the claim is wrong at one of them, not necessarily at the one first reported.
_BETWEEN = ("condition-1", "condition-2")


def name_wrong_position(ctx: ClaimContext, cx: Counterexample) -> Counterexample:
    """``cx`` moved to a position where the claim itself is wrong, when exact evaluation finds one.

    A condition-1 finding (a move joining two positions of equal claimed value)
    or a condition-2 finding (a claimed value no move reaches) shows that the
    claim is wrong at the reported position *or* at a move target, not which.
    The reported position is re-checked first, then the move's target, then
    (condition 2, when the position itself is within the reference's reach) its
    options: the first whose true value differs from the claimed one is
    reported as a ``value`` counterexample, with the original finding kept in
    its explanation. When none can be evaluated (too large for the reference),
    ``cx`` is returned unchanged: its explanation already says the claim is
    wrong at one of the positions it names.
    """
    if cx.condition not in _BETWEEN or not ctx.spec.about_positions:
        return cx
    here = _as_position(ctx, cx.position)
    if here is None:
        return cx
    try:
        reachable = true_value(ctx, here) is not None
        for position in _suspects(ctx, cx, here, reachable):
            named = wrong_at(ctx, position, because=cx.explanation)
            if named is not None:
                return named
    except (dl.TimeUp, Undecided, EvalError, OverflowError):
        pass
    return cx


def _suspects(ctx: ClaimContext, cx: Counterexample, here: Any, reachable: bool) -> Iterator[Any]:
    """The reported position, the move's target and (condition 2, when the reported position
    is within the reference's reach, so that its options are too) the position's options."""
    if reachable:
        yield here
    target = _as_position(ctx, cx.move)
    if target is not None and target != here:
        yield target
    if reachable and cx.condition == "condition-2":
        local = local_conditions(ctx, here)
        if local is not None:
            for suspect in local.suspects[:NAME_OPTIONS]:
                if _as_position(ctx, suspect) is not None:
                    yield suspect


def _as_position(ctx: ClaimContext, raw: Any) -> Any:
    """``raw`` as a position of the claim (a heap size, or a tuple of ``heaps`` sizes), or None
    (a move written as parts after a split, or text)."""
    if isinstance(raw, bool):
        return None
    if ctx.one_heap:
        return int(raw) if isinstance(raw, int) or hasattr(raw, "item") else None
    shaped = isinstance(raw, tuple | list) and all(isinstance(x, int) for x in raw)
    if shaped and (ctx.heaps is None or len(raw) == ctx.heaps):
        return tuple(int(x) for x in raw)
    return None


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def confirm(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """Settle one candidate by exact means (see the module docstring)."""
    if ctx.spec.is_identity:
        return _identity(ctx, cx)
    if ctx.spec.states_period and cx.condition == "period":
        return _period(ctx, cx)
    if not ctx.spec.about_positions or cx.position is None:
        return Settled("open", cx, f"no exact re-check for {ctx.kind} candidates")
    position = cx.position if ctx.one_heap else tuple(int(x) for x in cx.position)
    named = wrong_at(ctx, position)
    if named is not None:
        return Settled("confirmed", named)
    local = local_conditions(ctx, position)
    if local is None:
        return Settled("open", cx, f"{_where(ctx, position)} is beyond every exact method here")
    if local.holds:
        return Settled(
            "dismissed",
            cx,
            f"exact evaluation of all {local.options} moves there satisfies the local conditions",
        )
    for suspect in local.suspects[:NAME_OPTIONS]:
        named = wrong_at(ctx, suspect, because=local.text)
        if named is not None:
            return Settled("confirmed", named)
    return Settled("confirmed", local.counterexample(ctx, position))


def _identity(ctx: ClaimContext, cx: Counterexample) -> Settled:
    from nimproof.provers import recheck

    point = dict(cx.position)
    try:
        holds = bool(recheck.formula_at(ctx, point))
    except EvalError as exc:
        return Settled("confirmed", recheck.undefined_at(ctx, point, exc))
    if holds:
        return Settled("dismissed", cx, "exact integer evaluation says the identity holds there")
    text = f"The identity is false at {recheck.describe_position(ctx, point)}."
    return Settled(
        "confirmed",
        Counterexample(
            point, "identity", text, True, False, None, True, "exact integer evaluation"
        ),
    )


def _period(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A period failure ``g(m) != g(m - period) + saltus`` re-checked with the reference table."""
    game = ctx.heap_game
    m, p, s = int(cx.position), ctx.claim.period or 1, ctx.claim.saltus
    if game is None or ctx.misere:
        return Settled("open", cx, "no reference table for this game")
    top, low = heap_value(game, m, ctx.deadline), heap_value(game, m - p, ctx.deadline)
    if top is None or low is None:
        return Settled("open", cx, f"the reference table up to {m} is beyond the budget")
    if top == low + s:
        return Settled("dismissed", cx, f"the reference gives g({m}) = g({m - p}) + {s}")
    return Settled(
        "confirmed",
        dataclasses.replace(
            cx, claimed=low + s, actual=top, rechecked=True, recheck="reference implementation"
        ),
    )


# ---------------------------------------------------------------------------
# the true value at one position
# ---------------------------------------------------------------------------


def _where(ctx: ClaimContext, position: Any) -> str:
    from nimproof.provers.recheck import describe_position

    return describe_position(ctx, position)


def claimed_at(ctx: ClaimContext, position: Any) -> Any:
    """The claim's exact value (or P-verdict) at ``position``; raises EvalError where undefined."""
    from nimproof.provers.recheck import formula_at

    return formula_at(ctx, position)


#: The reference value of one heap of a normal-play game, or None beyond the budget
#: (one cache of reference tables, shared with every re-check).
heap_value = reference_heap_value


def true_value(ctx: ClaimContext, position: Any) -> tuple[int, str] | None:
    """The true (misère) nim-value at ``position`` and how it was computed, or None if unreachable."""
    from nimproof.provers import recheck

    game = ctx.game
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        if ctx.misere:
            v = recheck.true_heap_value(ctx, int(position))
            return None if v is None else (v, "reference implementation")
        v = heap_value(base, int(position), ctx.deadline)
        return None if v is None else (v, "reference implementation")
    pos = tuple(int(x) for x in position)
    comps = _sum_components(ctx, len(pos))
    if comps is not None and not ctx.misere:
        total = 0
        for comp, x in zip(comps, pos, strict=True):
            v = heap_value(comp, x, ctx.deadline)
            if v is None:
                break
            total ^= v
        else:
            return total, "Sprague–Grundy over reference heap tables"
    if game is not None and recheck.position_count(game, pos) <= recheck.REFERENCE_BUDGET:
        dl.check(ctx.deadline, "re-checking")
        v = recheck.true_position_value(ctx, pos, {})
        if v is not None:
            return v, "reference implementation"
    return None


def _sum_components(ctx: ClaimContext, h: int) -> list[HeapGame] | None:
    """The one-heap rules whose sum the claim's game is (heap ``i`` of rule ``i``), if it is one."""
    if ctx.game is None:
        return None
    comps = ctx.game.moves_spec.parts(ctx.game, h)
    return None if comps is None else list(comps)


def wrong_at(ctx: ClaimContext, position: Any, because: str = "") -> Counterexample | None:
    """A re-checked counterexample at ``position`` when the claim is wrong there, else None."""
    from nimproof.provers import recheck

    try:
        claimed = claimed_at(ctx, position)
    except EvalError as exc:
        return recheck.undefined_at(ctx, position, exc)
    truth = true_value(ctx, position)
    if truth is None:
        return None
    actual, how = truth
    wrong = (bool(claimed) != (actual == 0)) if ctx.spec.states_p_positions else claimed != actual
    if not wrong:
        return None
    cx = recheck.value_mismatch(ctx, position, claimed, actual, how)
    text = cx.explanation.replace("the reference implementation computes", f"{how} gives")
    if because:
        text += f" (Found because {because[0].lower()}{because[1:]})"
    return dataclasses.replace(cx, explanation=text)


# ---------------------------------------------------------------------------
# the local conditions at one position, by exact evaluation
# ---------------------------------------------------------------------------


@dataclass
class Local:
    """The local conditions evaluated exactly at one position."""

    holds: bool
    options: int
    condition: str = ""
    text: str = ""
    claimed: Any = None
    move: Any = None
    suspects: list[Any] = dataclasses.field(default_factory=list)

    def counterexample(self, ctx: ClaimContext, position: Any) -> Counterexample:
        return Counterexample(
            position,
            self.condition,
            self.text,
            self.claimed,
            None,
            self.move,
            True,
            "exact evaluation of the claim and the family's moves at this position",
        )


def _options(ctx: ClaimContext, position: Any) -> Iterator[tuple[Any, Sequence[Any]]] | None:
    """``(option, parts)`` for each move: ``parts`` are the positions whose claimed values xor
    to the option's value (one for a plain move, several after a split). None: not enumerable."""
    assert ctx.game is not None
    base = ctx.game.normal
    if ctx.one_heap:
        heap = ctx.heap_game
        assert heap is not None
        if ctx.misere and heap.splits:
            return None
        return (
            ((p[0] if len(p) == 1 else p) if p else 0, p or (0,)) for p in heap.options(position)
        )
    if base.moves_spec.parts(base, len(position)) is None:
        if move_count_bound(base, position) > MAX_OPTIONS:
            return None  # known to be too many before any is evaluated
        return ((q, (q,)) for q in base.moves(position))
    comps = _sum_components(ctx, len(position))
    if comps is None or any(c.splits for c in comps):
        return None

    def gen() -> Iterator[tuple[Any, Sequence[Any]]]:
        for i, comp in enumerate(comps):
            for parts in comp.options(position[i]):
                q = (*position[:i], parts[0] if parts else 0, *position[i + 1 :])
                yield q, (q,)

    return gen()


def local_conditions(ctx: ClaimContext, position: Any) -> Local | None:
    """Evaluate the local conditions exactly at ``position``; None when its moves are too many."""
    moves = _options(ctx, position)
    if moves is None:
        return None
    try:
        here = claimed_at(ctx, position)
    except EvalError:
        return None
    p_claim = ctx.spec.states_p_positions
    seen: dict[Any, Any] = {}
    count = 0
    for count, (q, parts) in enumerate(moves, start=1):
        dl.every(ctx.deadline, 4096, count, "evaluating the moves of a candidate")
        if count > MAX_OPTIONS:
            return None
        try:
            v: Any = 0
            for part in parts:
                v = (v ^ int(claimed_at(ctx, part))) if not p_claim else bool(claimed_at(ctx, part))
        except EvalError:
            return None
        seen.setdefault(v, q)
        if (p_claim and here and v) or (not p_claim and v == here):
            return _cond1(ctx, position, q, here, count)
    return _cond2(ctx, position, here, seen, count)


def _cond1(ctx: ClaimContext, position: Any, q: Any, here: Any, count: int) -> Local:
    where, there = _where(ctx, position), _where(ctx, q)
    if ctx.spec.states_p_positions:
        text = (
            f"The move from {where} to {there} joins two positions the claim calls P-positions; "
            f"no move joins two P-positions, so the claim is wrong at one of them."
        )
    else:
        text = (
            f"The move from {where} to {there} joins two positions the claim values {here}; a "
            f"position's value differs from the value of every position it can move to, so the "
            f"claim is wrong at one of them."
        )
    return Local(False, count, "condition-1", text, here, q, [q])


def _cond2(ctx: ClaimContext, position: Any, here: Any, seen: dict[Any, Any], count: int) -> Local:
    where = _where(ctx, position)
    suspects = list(seen.values())
    if ctx.misere and count == 0:
        ok = (not here) if ctx.spec.states_p_positions else here == 1
        if ok:
            return Local(True, 0)
        text = f"{where} has no move, so in misère play its nim-value is 1 (an N-position)."
        return Local(False, 0, "terminal", text, here, None, [])
    if ctx.spec.states_p_positions:
        if here or True in seen:
            return Local(True, count)
        text = (
            f"The claim says {where} is not a P-position, but none of its {count} moves reaches a "
            "position the claim calls a P-position; every N-position has such a move"
        )
    else:
        mex = 0
        while mex in seen:
            mex += 1
        if mex == here:
            return Local(True, count)
        text = (
            f"At {where} the claim gives {here}, but no move reaches a position the claim values "
            f"{mex} (the mex of the claimed values of its {count} options is {mex}); a position's "
            "value is the mex of its options' values"
        )
    text += f", so the claim is wrong at {where} or at one of its options."
    return Local(False, count, "condition-2", text, here, None, suspects)


# ---------------------------------------------------------------------------
# exact scan of the smallest positions (when vectorised evaluation cannot be used)
# ---------------------------------------------------------------------------

#: Positions the exact scan examines at most.
SCAN_POSITIONS = 4096


def scan_smallest(ctx: ClaimContext, bound: int) -> Counterexample | None:
    """The first position (smallest first, heaps up to ``bound``) where the claim is wrong.

    Uses exact integer evaluation of the claim and the true values of
    :func:`true_value` only; for formulas whose numbers leave int64 (huge
    shifts and powers). Examines at most :data:`SCAN_POSITIONS` positions.
    """
    import itertools

    from nimproof.provers import recheck

    if ctx.spec.is_identity:
        names = list(ctx.claim.variables)
        points: Iterator[Any] = (
            dict(zip(names, p, strict=True))
            for p in sorted(
                itertools.product(range(bound + 1), repeat=len(names)), key=lambda p: (sum(p), p)
            )
        )
    elif ctx.one_heap:
        points = iter(range(bound + 1))
    elif ctx.spec.about_positions and ctx.heaps:
        points = iter(
            sorted(itertools.product(range(bound + 1), repeat=ctx.heaps), key=lambda p: (sum(p), p))
        )
    else:
        return None
    for i, point in enumerate(itertools.islice(points, SCAN_POSITIONS)):
        dl.every(ctx.deadline, 64, i, "evaluating the claim exactly")
        if ctx.spec.is_identity:
            try:
                if not recheck.formula_at(ctx, point):
                    return _identity(ctx, candidate(point, "identity", "")).counterexample
            except EvalError as exc:
                return recheck.undefined_at(ctx, point, exc)
            continue
        found = wrong_at(ctx, point)
        if found is not None:
            return found
    return None
