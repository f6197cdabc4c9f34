"""The one place that confirms counterexamples.

A proof method that finds a point where a claim seems to fail (a z3 model, a
kernel's first mismatch, a MONA assignment, a random sample) does not decide
whether it is real. It either hands the finding to :func:`settle` as a
*candidate* (:func:`candidate`, or raises :class:`Candidate`), or asks one of
the re-checks below, which do the checking here and answer with a confirmed
counterexample or None. Nothing outside this module marks a counterexample
confirmed (``Counterexample.rechecked``; ``tests/provers/test_settle.py``
scans the source for it).

How a position is re-checked, in order:

1. the true value there (:func:`nimproof.provers.recheck.true_value`): the
   plain reference implementation with the family's own moves while the
   position is small; Sprague–Grundy over reference heap tables for a sum of
   heaps in normal play; Nim by Sprague–Grundy and misère Nim by Bouton's
   misère theorem at any size. The claim is wrong there exactly when its
   value (or P-verdict) differs (:func:`wrong_at`);
2. otherwise the local conditions at that one position, by exact evaluation
   of the claim and the family's moves: a move joining two positions of equal
   claimed value (:func:`move_joins`), a claimed value no move reaches
   (:func:`no_move_reaches`, listing the moves, or z3 on the concrete position
   when they are too many).

A finding that relates two positions (a move, or a position and its options)
shows that the claim is wrong at one of them; :func:`settle` re-checks both,
the target and the source, and names the one where the claim is wrong, with
the failing condition in words (:func:`name_wrong_position`).

A candidate that is confirmed refutes the claim; one that exact evaluation
shows to be spurious is dismissed (the method's own answer stands without
it); one that nothing can reach stays a candidate, and the verdict is then
``unknown`` with the candidate shown, never ``proved`` at any scope
(:meth:`nimproof.verdict.Verdict.combine`). All of it runs under the claim's
deadline (:mod:`.deadline`).
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from functools import singledispatch
from typing import Any, Literal

import z3

from nimproof.engines import reference
from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.games import IntervalTakes, MoveDescription
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
from nimproof.provers.solving import Undecided
from nimproof.verdict import Counterexample, MethodResult, Status

#: Most options whose true value is looked up to name a wrong position.
NAME_OPTIONS = 2000
#: Most positions :func:`first_disagreement` evaluates with the reference.
RECHECK_POSITIONS = 5000
#: Positions whose moves :func:`no_move_reaches` lists (their total below this and no
#: more moves than this); z3 on the concrete position beyond.
ENUMERATE_TOTAL = 50_000
ENUMERATE_MOVES = 50_000

_EXACT = "exact integer evaluation"
_REFERENCE = "reference implementation"


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
    """A method's finding, unconfirmed, for :func:`settle` to decide."""
    return Counterexample(position, condition, explanation, claimed, actual, move)


def _confirmed(cx: Counterexample, how: str) -> Counterexample:
    """``cx`` marked confirmed by ``how``: the only place the flag is set."""
    return dataclasses.replace(cx, rechecked=True, recheck=how)


@dataclass(frozen=True)
class Settled:
    """What exact evaluation made of a candidate."""

    outcome: Literal["confirmed", "dismissed", "open"]
    counterexample: Counterexample
    reason: str = ""


def settle(ctx: ClaimContext, result: MethodResult) -> MethodResult:
    """Decide the counterexample of ``result``, if it has one, and make a confirmed one name
    a position where the claim is wrong (:func:`name_wrong_position`).

    A counterexample confirmed by a re-check of this module is kept. A candidate
    is re-checked: confirmed, the result refutes with it; dismissed, it is dropped
    and the method keeps the scope it proved before finding it (``unknown`` if
    none); open (or out of time), it stays, unconfirmed, and keeps the claim from
    being proved.
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


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


# ---------------------------------------------------------------------------
# naming the wrong position
# ---------------------------------------------------------------------------

#: Conditions whose finding relates two positions (a move, or a position and its options):
#: the claim is wrong at one of them, not necessarily at the one first reported.
_BETWEEN = ("condition-1", "condition-2")


def name_wrong_position(ctx: ClaimContext, cx: Counterexample) -> Counterexample:
    """``cx`` moved to a position where the claim itself is wrong, when the truth is in reach.

    A condition-1 finding (a move joining two positions of equal claimed value)
    or a condition-2 finding (a claimed value no move reaches) shows that the
    claim is wrong at the reported position *or* at a move target, not which.
    The reported position is re-checked first, then the move's target, then
    (condition 2) its options, each by its true value
    (:func:`nimproof.provers.recheck.true_value`: the reference, Sprague–Grundy,
    or Bouton's misère theorem for Nim at any size): the first whose true value
    differs from the claimed one is reported as a ``value`` counterexample, with
    the original finding kept in its explanation. When none can be evaluated,
    ``cx`` is returned unchanged: its explanation says the claim is wrong at one
    of the positions it names.
    """
    if cx.condition not in _BETWEEN or not ctx.spec.about_positions:
        return cx
    here = _as_position(ctx, cx.position)
    if here is None:
        return cx
    try:
        for position in _suspects(ctx, cx, here):
            named = wrong_at(ctx, position, because=cx.explanation)
            if named is not None:
                return named
    except (dl.TimeUp, Undecided, EvalError, OverflowError):
        pass
    return cx


def _suspects(ctx: ClaimContext, cx: Counterexample, here: Any) -> Iterator[Any]:
    """The reported position, the move's target and (condition 2) the options with the true
    value the claim says no move reaches: listed among the position's options where they
    are few, or found by theorem for Nim at any size."""
    yield here
    target = _as_position(ctx, cx.move)
    if target is not None and target != here:
        yield target
    if cx.condition != "condition-2":
        return
    size = int(here) if ctx.one_heap else sum(here)
    if size <= rc.MAX_OPTIONS and rc.true_value(ctx, here) is not None:
        local = rc.local_conditions(ctx, here)
        if local is not None:
            for suspect in local.suspects[:NAME_OPTIONS]:
                if _as_position(ctx, suspect) is not None:
                    yield suspect
            return
    if ctx.game is not None and not ctx.one_heap:
        try:
            claimed = rc.formula_at(ctx, here)
        except EvalError:
            return
        goals = [0] if ctx.spec.states_p_positions else range(min(int(claimed), 64))
        for v in goals:
            yield from rc.nim_options_of_value(ctx.game, here, v)


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


# ---------------------------------------------------------------------------
# deciding a candidate
# ---------------------------------------------------------------------------


def confirm(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """Settle one candidate by exact means (see the module docstring)."""
    if ctx.game is not None and ctx.game.moves_spec.loopy:
        return _loopy(ctx, cx)
    if ctx.spec.states_quotient and cx.condition == "quotient":
        return _quotient(ctx, cx)
    if cx.condition == "undefined" and cx.position is not None:
        return _undefined(ctx, cx)
    if ctx.spec.is_identity:
        return _identity(ctx, cx)
    if ctx.spec.states_period and cx.condition in ("period", "least-period", "least-preperiod"):
        return _period(ctx, cx)
    if ctx.spec.listed is not None:
        return _listed(ctx, cx)
    if ctx.spec.states_sum and cx.condition == "sum":
        return _sum(ctx, cx)
    if not ctx.spec.about_positions or cx.position is None:
        return Settled("open", cx, f"no exact re-check for {ctx.kind} candidates")
    position = cx.position if ctx.one_heap else tuple(int(x) for x in cx.position)
    named = wrong_at(ctx, position)
    if named is not None:
        return Settled("confirmed", named)
    if cx.condition == "condition-1" and cx.move is not None:
        joined = move_joins(ctx, position, cx.move, cx.explanation)
        if joined is not None:
            return Settled("confirmed", joined)
    return _local(ctx, cx, position)


def _loopy(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A loopy game's candidate, by the plain fixed-point outcome over the family's moves."""
    # lazy: import cycle (provers.loopy imports the provers package, which imports this module)
    from nimproof.provers.loopy import RECHECK, outcome_counterexample

    if cx.position is None:
        return Settled("open", cx, "a loopy game's candidate needs a position")
    found = outcome_counterexample(ctx, tuple(int(x) for x in cx.position))
    if found is None:
        return Settled("dismissed", cx, "the plain fixed-point outcome agrees with the claim there")
    return Settled("confirmed", _confirmed(found, RECHECK))


def _quotient(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A wrong stated figure of a misère quotient, by the rebuilt quotient and the brute force."""
    # lazy: import cycle (provers.quotient_order is reached through the provers package)
    from nimproof.provers.quotient_order import confirm_figure

    how = confirm_figure(ctx, cx)
    if how is None:
        return Settled("open", cx, "the rebuilt quotient does not confirm the figure")
    return Settled("confirmed", _confirmed(cx, how))


def _local(ctx: ClaimContext, cx: Counterexample, position: Any) -> Settled:
    local = rc.local_conditions(ctx, position)
    if local is None:
        if cx.condition == "condition-2":
            reached = _no_move_candidate(ctx, cx, position)
            if reached is not None:
                return Settled("confirmed", reached)
        where = rc.describe_position(ctx, position)
        return Settled("open", cx, f"{where} is beyond every exact method here")
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
    how = "exact evaluation of the claim and the family's moves at this position"
    found = Counterexample(position, local.condition, local.text, local.claimed, None, local.move)
    return Settled("confirmed", _confirmed(found, how))


def _no_move_candidate(
    ctx: ClaimContext, cx: Counterexample, position: Any
) -> Counterexample | None:
    """A condition-2 candidate at a position with too many moves to list: z3 on the position."""
    try:
        here = rc.formula_at(ctx, position)
    except EvalError:
        return None
    if ctx.spec.states_p_positions:
        if here:
            return None
        return no_move_reaches(ctx, position, None, cx.explanation, claimed=here)
    goal = cx.actual if isinstance(cx.actual, int) else None
    if goal is None or not goal < int(here):
        return None
    return no_move_reaches(ctx, position, goal, cx.explanation, claimed=here)


def _undefined(ctx: ClaimContext, cx: Counterexample) -> Settled:
    point = dict(cx.position) if ctx.spec.is_identity else cx.position
    try:
        rc.formula_at(ctx, point)
    except EvalError as exc:
        return Settled("confirmed", undefined_at(ctx, point, exc))
    return Settled("dismissed", cx, "exact integer evaluation says the formula is defined there")


def _identity(ctx: ClaimContext, cx: Counterexample) -> Settled:
    point = dict(cx.position)
    found = identity_fails_at(ctx, point)
    if found is None:
        return Settled("dismissed", cx, "exact integer evaluation says the identity holds there")
    return Settled("confirmed", found)


def _period(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A period failure ``g(m) != g(m - period) + saltus``, or a smaller period (or preperiod)
    than the claimed least one, re-checked with the reference table."""
    game = ctx.heap_game
    p, s = ctx.claim.period or 1, ctx.claim.saltus
    if game is None or ctx.misere:
        return Settled("open", cx, "no reference table for this game")

    def g(n: int) -> int:
        v = rc.reference_heap_value(game, n, ctx.deadline)
        if v is None:
            raise Undecided(f"the reference table up to {n} is beyond the budget")
        return v

    if cx.condition == "period":
        m = int(cx.position)
        top, low = g(m), g(m - p)
        if top == low + s:
            return Settled("dismissed", cx, f"the reference gives g({m}) = g({m - p}) + {s}")
        found = dataclasses.replace(cx, claimed=low + s, actual=top)
        return Settled("confirmed", _confirmed(found, "reference table"))
    n0 = ctx.claim.preperiod or 0
    if cx.condition == "least-period":
        d = int(cx.actual)
        sd = s * d // p if p % d == 0 and (s * d) % p == 0 else None
        holds = sd is not None and all(g(n + d) == g(n) + sd for n in range(n0, n0 + p))
    else:
        n1 = int(cx.actual)
        holds = n1 < n0 and all(g(n + p) == g(n) + s for n in range(n1, n0))
    if not holds:
        return Settled("dismissed", cx, "the reference table does not show the smaller one")
    return Settled("confirmed", _confirmed(cx, "reference table"))


def _listed(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A listed value, winning moves or sequence term, recomputed by the reference."""
    game = ctx.game
    if game is None:
        return Settled("open", cx, "no game to re-check with")
    oracle = rc.Oracle(game, ctx.deadline)
    pos = cx.position
    try:
        if cx.condition == "winning-moves":
            true = sorted(
                {oracle.normal(q) for q in oracle.moves(pos) if oracle.value(q) == 0}, key=str
            )
            listed = sorted({oracle.normal(m) for m in cx.claimed}, key=str)
            if true == listed:
                return Settled("dismissed", cx, "the reference finds the listed winning moves")
            found = dataclasses.replace(cx, actual=true)
            return Settled("confirmed", _confirmed(found, _REFERENCE))
        actual = oracle.sequence_value(pos) if ctx.spec.lists_sequence else oracle.value(pos)
    except rc.TooLarge as exc:
        return Settled("open", cx, str(exc))
    if actual == cx.claimed:
        return Settled("dismissed", cx, f"the reference gives {actual} there, as claimed")
    return Settled("confirmed", _confirmed(dataclasses.replace(cx, actual=actual), _REFERENCE))


def _sum(ctx: ClaimContext, cx: Counterexample) -> Settled:
    """A sum rule's failure: the direct mex of the joint position against the xor of the
    parts' reference heap values."""
    game = ctx.game
    heaps = tuple(int(x) for x in cx.position)
    comps = list(ctx.components) or rc.sum_components(ctx, len(heaps))
    if game is None or not comps or len(comps) != len(heaps):
        return Settled("open", cx, "not a sum of one-heap rules")
    direct = reference.value(game, game.position(heaps))
    xor = 0
    for comp, x in zip(comps, heaps, strict=True):
        v = rc.reference_heap_value(comp, x, ctx.deadline)
        if v is None:
            return Settled("open", cx, f"the reference table of {comp.spec} to {x} is too costly")
        xor ^= v
    if direct == xor:
        return Settled("dismissed", cx, "the reference's direct mex equals the xor of the parts")
    found = dataclasses.replace(cx, claimed=xor, actual=direct)
    return Settled("confirmed", _confirmed(found, _REFERENCE))


# ---------------------------------------------------------------------------
# the re-checks methods ask for (each checks, then confirms)
# ---------------------------------------------------------------------------


def wrong_at(ctx: ClaimContext, position: Any, because: str = "") -> Counterexample | None:
    """A confirmed counterexample at ``position`` when the claim is wrong there (its value or
    P-verdict differs from the true one, or it is undefined there), else None (right there,
    or the truth is out of reach). ``because``: the finding that led here, kept in words."""
    try:
        truth = rc.truth_at(ctx, position)
    except EvalError as exc:
        return undefined_at(ctx, position, exc)
    if truth is None:
        return None
    claimed, actual, how = truth
    if not _is_wrong(ctx, claimed, actual):
        return None
    cx = _value_mismatch(ctx, position, claimed, actual, how)
    if because:
        cx = dataclasses.replace(
            cx, explanation=f"{cx.explanation} (Found because {because[0].lower()}{because[1:]})"
        )
    return cx


def _is_wrong(ctx: ClaimContext, claimed: Any, actual: int) -> bool:
    """True when the claim's value (or P-verdict) ``claimed`` contradicts the true value."""
    if ctx.spec.states_p_positions:
        return bool(claimed) != (actual == 0)
    return bool(claimed != actual)


def _value_mismatch(
    ctx: ClaimContext, position: Any, claimed: Any, actual: int, how: str, move: Any = None
) -> Counterexample:
    """The counterexample where the claimed value or outcome differs from the true value
    ``actual`` (computed by ``how``), in words."""
    where = rc.describe_position(ctx, position)
    source = "the reference implementation" if how == _REFERENCE else how.split(":", maxsplit=1)[0]
    if ctx.spec.states_p_positions:
        says = "a P-position" if claimed else "not a P-position"
        truth = "a P-position" if actual == 0 else f"an N-position (value {actual})"
        text = f"At {where} the claim says {says}, but {source} gives {truth}."
        if move is not None and actual != 0:
            text += f" Winning move: to {move}."
    else:
        text = f"At {where} the claim gives {claimed}, but the true value is {actual} ({source})."
        if move is not None:
            text += f" {move}"
    return _confirmed(Counterexample(position, "value", text, claimed, actual, move), how)


def undefined_at(ctx: ClaimContext, position: Any, error: EvalError) -> Counterexample:
    """The confirmed counterexample where exact evaluation of the formula raised ``error``
    (division by zero, negative bitwise operand)."""
    where = rc.describe_position(ctx, position)
    text = f"The formula is undefined at {where}: {error}."
    return _confirmed(Counterexample(position, "undefined", text), _EXACT)


def identity_fails_at(ctx: ClaimContext, point: dict[str, int]) -> Counterexample | None:
    """The counterexample an identity has at ``point`` by exact evaluation: false there, or
    undefined there; None when it holds at ``point``."""
    try:
        holds = bool(rc.formula_at(ctx, point))
    except EvalError as exc:
        return undefined_at(ctx, point, exc)
    if holds:
        return None
    text = f"The identity is false at {rc.describe_position(ctx, point)}."
    return _confirmed(Counterexample(point, "identity", text, True, False), _EXACT)


def heap_counterexample(ctx: ClaimContext, n: int) -> Counterexample | None:
    """Re-check a one-heap claim at heap ``n`` with the reference; None if it holds there
    (or the reference table to ``n`` is too costly).

    Explains the failure with a move: for a claimed value equal to that of an
    option, that option; for a claimed value that no option realises, the
    missing value.
    """
    try:
        truth = rc.truth_at(ctx, n)
    except EvalError as exc:
        return undefined_at(ctx, n, exc)
    if truth is None or int(truth[0]) == truth[1]:
        return None
    claimed, actual = int(truth[0]), truth[1]
    move = _explain_heap_move(ctx, n, claimed)
    return _value_mismatch(ctx, n, claimed, actual, _REFERENCE, move)


@singledispatch
def _few_targets(spec: MoveDescription) -> bool:
    """True when a heap's targets are listed without testing every smaller heap."""
    return spec.finite_takes() is not None


@_few_targets.register
def _(spec: IntervalTakes) -> bool:
    return True


def _explain_heap_move(ctx: ClaimContext, n: int, claimed: int) -> str | None:
    if ctx.recursive:
        return None  # each value would re-run the recursion; the value mismatch says enough
    base = ctx.heap_game
    if base is None or base.splits or (not _few_targets(base.moves_spec) and n > 5000):
        return None
    targets = base.target_list(n)
    values = {m: int(v) for m, v in rc.claims_at(ctx, targets).items()}
    same = [m for m, v in values.items() if v == claimed]
    if same:
        return f"The move {n} -> {same[0]} reaches a heap the claim also values {claimed}, which mex forbids."
    if not targets:
        expected = 1 if ctx.misere else 0
        return f"Heap {n} has no move, so its value is {expected}."
    missing = [v for v in range(claimed) if v not in values.values()]
    if missing:
        return f"No move from {n} reaches a heap the claim values {missing[0]}, so {claimed} is not the mex."
    return None


def reference_mismatch(
    ctx: ClaimContext, position: Any, cache: dict[Hashable, int] | None = None
) -> Counterexample | None:
    """The claim re-checked at ``position`` (of any game, plugins included) by the reference
    on the whole position: a confirmed counterexample, with a winning move, where it is
    wrong; None where it is right. ``cache`` is the reference's memo, shared across calls."""
    game = ctx.game
    assert game is not None
    memo: dict[Hashable, int] = {} if cache is None else cache
    key = game.position(position)
    actual = reference.value(game, key, memo)
    try:
        claimed = rc.formula_at(ctx, position)
    except EvalError as exc:
        return undefined_at(ctx, position, exc)
    if not _is_wrong(ctx, claimed, actual):
        return None
    move = next((q for q in game.moves(key) if reference.value(game, q, memo) == 0), None)
    return _value_mismatch(ctx, position, claimed, actual, _REFERENCE, move)


def first_disagreement(ctx: ClaimContext, point: tuple[int, ...]) -> Counterexample | None:
    """The smallest position reachable from ``point`` (itself included) where the claim is wrong.

    Uses exact evaluation of the claim and the reference values only. Returns
    None when every position examined agrees or the positions are too large.
    """
    game = ctx.game
    assert game is not None
    cache: dict[Hashable, int] = {}
    seen = {point}
    frontier = [(sum(point), point)]
    examined = 0
    while frontier and examined < RECHECK_POSITIONS:
        dl.check(ctx.deadline, "re-checking")
        _, pos = heapq.heappop(frontier)
        examined += 1
        actual = rc.true_position_value(ctx, pos, cache)
        if actual is None:
            return None
        try:
            claimed = rc.formula_at(ctx, pos)
        except EvalError as exc:
            return undefined_at(ctx, pos, exc)
        if _is_wrong(ctx, claimed, actual):
            move = None
            if actual != 0 or not ctx.spec.states_p_positions:
                for option in fixed_moves(game, pos):
                    if rc.true_position_value(ctx, option, cache) == 0:
                        move = option
                        break
            return _value_mismatch(ctx, pos, claimed, actual, _REFERENCE, move)
        for option in fixed_moves(game, pos):
            if option not in seen:
                seen.add(option)
                heapq.heappush(frontier, (sum(option), option))
    return None


def smallest_wrong_below(
    ctx: ClaimContext, point: tuple[int, ...], small: int
) -> Counterexample | None:
    """The claim re-checked at ``point``: while at most ``small`` positions lie below it, the
    smallest wrong position reachable from it (:func:`first_disagreement`); beyond, ``point``
    itself by its true value (:func:`wrong_at`)."""
    if ctx.game is not None and rc.position_count(ctx.game, point) <= small:
        return first_disagreement(ctx, point)
    return wrong_at(ctx, point)


def _legal(ctx: ClaimContext, p: Any, q: Any) -> bool:
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return heap_move_legal(base, int(p), int(q))
    assert ctx.game is not None
    return is_move(ctx.game, tuple(p), tuple(q))


def move_joins(
    ctx: ClaimContext, p: Any, q: Any, text: str, how: str = ""
) -> Counterexample | None:
    """Condition 1 at ``p``: the move ``p -> q`` (legal by the family's own move definition)
    joins two positions the claim calls P, or values equally (exact evaluation); None when
    it does not. Names the wrong one of the two when its truth is in reach."""
    q = q if ctx.one_heap else tuple(q)
    try:
        a, b = rc.formula_at(ctx, p), rc.formula_at(ctx, q)
    except EvalError:
        return None
    same = (bool(a) and bool(b)) if ctx.spec.states_p_positions else a == b
    if not (same and _legal(ctx, p, q)):
        return None
    how = how or "the family's move definition and exact evaluation of the claim at both positions"
    return _confirmed(Counterexample(p, "condition-1", text, a, None, q), how)


def terminal_misvalued(
    ctx: ClaimContext, x: Any, claimed: Any, note: str = ""
) -> Counterexample | None:
    """Misère play: ``x`` has no move (the player to move wins: value 1) and the claim calls it
    a P-position or gives it another value; None when it has a move or the claim agrees."""
    game = ctx.game
    assert game is not None
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        terminal = base.heap_terminal(int(x))
    else:
        terminal = game.is_terminal(game.position(tuple(x)))
    if not (game.misere and terminal) or not _is_wrong(ctx, claimed, 1):
        return None
    cx = _value_mismatch(ctx, x, claimed, 1, "exact evaluation: a terminal misère position")
    return dataclasses.replace(cx, explanation=cx.explanation + note) if note else cx


def no_move_reaches(
    ctx: ClaimContext, x: Any, value: int | None, text: str, claimed: Any = None
) -> Counterexample | None:
    """Condition 2 at ``x``: no legal move reaches a position the claim calls P (``value``
    None) or values ``value``, decided by listing the moves and evaluating the claim at
    each, or by z3 on the concrete position when they are too many; None when some move
    does or it cannot be decided."""
    options = _few_options(ctx, x)
    if options is not None:
        for start in range(0, len(options), _CHUNK):
            dl.check(ctx.deadline, "re-checking the moves of a counterexample")
            # the claim at a batch of moves in one evaluation (undefined ones reach nothing)
            for v in rc.formulas_at(ctx, options[start : start + _CHUNK]):
                if not isinstance(v, EvalError) and (bool(v) if value is None else int(v) == value):
                    return None
        how = "exact evaluation of the claim at every move (the family's move definition)"
    elif _z3_no_move(ctx, x, value):
        how = "z3 on the concrete position (no legal move reaches the claimed target)"
    else:
        return None
    return _confirmed(Counterexample(x, "condition-2", text, claimed), how)


#: Moves whose claimed values :func:`no_move_reaches` asks in one evaluation (the deadline is
#: checked between batches).
_CHUNK = 1024


def _few_options(ctx: ClaimContext, p: Any) -> list[Any] | None:
    """Every move from ``p`` when there are few enough to list, else None."""
    total = int(p) if ctx.one_heap else sum(p)
    if total > ENUMERATE_TOTAL:
        return None
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return base.target_list(int(p))
    assert ctx.game is not None
    if move_count_bound(ctx.game, tuple(p)) > ENUMERATE_MOVES:
        return None  # Moore's Nim: lowering two heaps of 1000 is already a million moves
    return fixed_moves(ctx.game, tuple(p))


def _z3_no_move(ctx: ClaimContext, x: Any, value: int | None) -> bool:
    """z3 on the concrete position: is there a legal move into the claim's target? (unsat: no)."""
    # z3_bitvec imports this module (Candidate): its move encodings are imported here.
    from nimproof.provers.z3_bitvec.common import heap_move  # lazy: a cycle
    from nimproof.provers.z3_bitvec.multi_heap import multi_game, with_heaps  # lazy: a cycle

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
            move = multi_game(with_heaps(ctx, h), width).move(p, q)
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
