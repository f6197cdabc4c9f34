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

A failed WS1S obligation (the automata method's candidate, condition
:data:`OBLIGATION`) is confirmed in one pass: :func:`settle` asks
:func:`nimproof.provers.recheck.survey` once for every fact it needs (the
claim at the position, the move's target and the listed moves; the terminal
test; the move's legality; the first position where the claim disagrees with
the truth, in the order a finding is named), asks z3 once when the moves are
too many to list, and decides with the obligation's own steps. A candidate
that does not re-check leaves that method ``unknown`` with the reason and
without a counterexample.

A candidate that is confirmed refutes the claim; one that exact evaluation
shows to be spurious is dismissed (the method's own answer stands without
it); one that nothing can reach stays a candidate, and the verdict is then
``unknown`` with the candidate shown, never ``proved`` at any scope
(:meth:`nimproof.verdict.Verdict.combine`). All of it runs under the claim's
deadline (:mod:`.deadline`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

from nimproof.engines import reference
from nimproof.errors import EvalError
from nimproof.provers import deadline as dl
from nimproof.provers import recheck as rc
from nimproof.provers.context import ClaimContext
from nimproof.provers.solving import Undecided
from nimproof.verdict import Counterexample, MethodResult, Status

#: The condition of a candidate decoded from a failed WS1S obligation (the automata method):
#: ``obligation:NAME``, at ``position``, with the move's target ``move`` and, for a value no
#: move reaches, that value as ``actual``; :func:`settle` confirms it in one pass
#: (:func:`_obligation`).
OBLIGATION = "obligation:"

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
    if cx.condition.startswith(OBLIGATION) and not cx.rechecked:
        return _obligation(ctx, result, cx)
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
    two = cx.condition == "condition-2"
    wrong = rc.first_wrong(ctx, cx.position, cx.move, suspects=two, named=False)
    return cx if wrong is None else _from_wrong(ctx, wrong, cx.explanation)


def _from_wrong(ctx: ClaimContext, wrong: rc.Wrong, because: str = "") -> Counterexample:
    """The confirmed counterexample at a position where the claim disagrees with the true
    value (:class:`nimproof.provers.recheck.Wrong`), in words; ``because``: the finding that
    led here, cited when the position was found while naming it."""
    if wrong.error is not None:
        return undefined_at(ctx, wrong.position, wrong.error)
    move = wrong.move
    if wrong.targets is not None:
        move = _heap_move_text(ctx, wrong.position, wrong.claimed, wrong)
    cx = _value_mismatch(ctx, wrong.position, wrong.claimed, wrong.actual, wrong.how, move)
    if because and wrong.cites_finding:
        cx = dataclasses.replace(
            cx, explanation=f"{cx.explanation} (Found because {because[0].lower()}{because[1:]})"
        )
    return cx


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
        where = ctx.describe(position)
        return Settled("open", cx, f"{where} is beyond every exact method here")
    if local.holds:
        return Settled(
            "dismissed",
            cx,
            f"exact evaluation of all {local.options} moves there satisfies the local conditions",
        )
    for suspect in local.suspects[: rc.NAME_OPTIONS]:
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
# a failed WS1S obligation: confirmed in one pass
# ---------------------------------------------------------------------------


def _obligation(ctx: ClaimContext, result: MethodResult, cx: Counterexample) -> MethodResult:
    """The automata method's candidate (:data:`OBLIGATION`), confirmed and named from the facts
    around it asked in one call (:func:`nimproof.provers.recheck.survey`): refuted with the
    confirmed counterexample, or ``unknown`` with why not (never an unconfirmed candidate:
    a failed obligation the re-check cannot confirm says nothing about the claim)."""
    name = cx.condition.removeprefix(OBLIGATION)
    try:
        found, note = _confirm_obligation(ctx, name, cx)
    except (dl.TimeUp, Undecided) as exc:
        found, note = None, str(exc)
    if found is None:
        detail = f"obligation {name}: {note}"
        return dataclasses.replace(result, status="unknown", counterexample=None, detail=detail)
    detail = f"obligation {name} fails; {note}"
    return dataclasses.replace(result, status="refuted", counterexample=found, detail=detail)


#: Obligations whose failure relates a position and its moves (named like condition 1 or 2).
_TERMINAL_OBLIGATIONS = ("c", "g0")


def _confirm_obligation(
    ctx: ClaimContext, name: str, cx: Counterexample
) -> tuple[Counterexample | None, str]:
    """The confirmed counterexample of the failed obligation ``name`` at ``cx.position`` and
    the note saying how; or None and why it does not re-check.

    The steps are those of each obligation (exact evaluation of the claim, the family's own
    move definition, z3 on the concrete position when its moves are too many to list); a
    finding between a position and its moves is then replaced by the first position where
    the claim disagrees with the reference implementation or a theorem."""
    x, move = cx.position, cx.move
    simple = name in ("guard", "identity")
    between = not simple and name not in _TERMINAL_OBLIGATIONS
    facts = rc.survey(
        ctx,
        x,
        move,
        terminal=ctx.misere and name not in ("a", "g1") and not simple,
        options=between and name not in ("a", "g1"),
        name=between,
    )
    if name == "identity":
        found = _identity_false(ctx, x, facts.here)
        if found is None:
            return None, f"MONA's counterexample {x} holds in exact evaluation"
        return found, "undefined there" if found.condition == "undefined" else _EXACT_NOTE
    if isinstance(facts.here, EvalError):
        return undefined_at(ctx, x, facts.here), "undefined there" if simple else str(facts.here)
    if name == "guard":
        where = ctx.describe(x)
        return (
            None,
            f"a negative intermediate value at {where} is outside what this method compiles",
        )
    decide = _p_obligation if ctx.spec.states_p_positions else _g_obligation
    found, why_not = decide(ctx, name, cx, facts)
    if found is None:
        return None, why_not
    if not between:
        return found, "re-checked"
    wrong = facts.wrong
    if wrong is None or wrong.cites_finding:
        named = found if wrong is None else _from_wrong(ctx, wrong, found.explanation)
        return named, f"re-checked by {found.recheck}"
    return _from_wrong(ctx, wrong), "re-checked by the reference implementation"


_EXACT_NOTE = "re-checked by exact evaluation"
_MOVE_DEFINITION = "exact evaluation and the move definition"


def _p_obligation(
    ctx: ClaimContext, name: str, cx: Counterexample, facts: rc.Survey
) -> tuple[Counterexample | None, str]:
    """A P-position obligation: (a) a move joins two claimed P-positions, (c) a terminal
    misère position claimed P, (b) a claimed N-position with no move into the claimed P-set."""
    x, y = cx.position, cx.move
    s_x = bool(facts.here)
    if name == "a":
        text = (
            f"The move {x} -> {y} leads from a claimed P-position to another; no move can join "
            "two P-positions, so the claim is false at one of them or below."
        )
        found = _joins(ctx, x, y, facts.here, facts.there, text, _MOVE_DEFINITION, _legal_of(facts))
        return found, f"MONA's move {x} -> {y} does not re-check{_why(facts)}"
    if name == "c":
        note = " (misère: no move, so the player to move wins)"
        found = _terminal_misvalued(ctx, x, s_x, facts.terminal, note) if s_x else None
        return found, f"MONA's terminal position {x} does not re-check"
    if s_x or (ctx.misere and facts.terminal):
        return None, f"MONA's position {x} for (b) does not re-check"
    text = (
        f"At {ctx.describe(x)} the claim says N, but no move reaches a position the "
        "claim calls P: the claim is false there or at one of its options."
    )
    found = _none_reach(ctx, facts, x, None, text, False)
    return found, f"no re-check confirmed that no move from {x} enters the claimed P-set"


def _g_obligation(
    ctx: ClaimContext, name: str, cx: Counterexample, facts: rc.Survey
) -> tuple[Counterexample | None, str]:
    """A Grundy obligation: (g1) a move joins two equal claimed values, (g0) a terminal misère
    position not valued 1, (g2) a value below the claimed one that no move reaches."""
    x, y = cx.position, cx.move
    gx = int(facts.here)
    if name == "g1":
        text = f"The move {x} -> {y} joins two positions the claim values {gx}; mex forbids it."
        found = _joins(ctx, x, y, facts.here, facts.there, text, _MOVE_DEFINITION, _legal_of(facts))
        return found, f"MONA's move {x} -> {y} does not re-check{_why(facts)}"
    if name == "g0":
        found = _terminal_misvalued(ctx, x, gx, facts.terminal)
        return found, f"MONA's terminal position {x} does not re-check"
    v = int(cx.actual or 0)
    if not (v < gx) or (ctx.misere and facts.terminal):
        return None, f"MONA's value {v} at {x} does not re-check"
    text = f"At {ctx.describe(x)} the claim gives {gx}, but no move reaches a position the claim values {v}."
    found = _none_reach(ctx, facts, x, v, text, gx)
    return found, f"no re-check confirmed that no move from {x} reaches value {v}"


def _legal_of(facts: rc.Survey) -> Any:
    """The survey's answer to "is the move legal?", as :func:`_joins` asks it."""
    return lambda: bool(facts.legal)


def _why(facts: rc.Survey) -> str:
    return f" ({facts.legal_error})" if facts.legal_error else ""


def _terminal_misvalued(
    ctx: ClaimContext, x: Any, claimed: Any, terminal: bool, note: str = ""
) -> Counterexample | None:
    """Misère play: ``x`` has no move (``terminal``: the player to move wins, value 1) and the
    claim calls it a P-position or gives it another value; None when it has a move or the
    claim agrees."""
    if not (ctx.misere and terminal) or not ctx.contradicts(claimed, 1):
        return None
    cx = _value_mismatch(ctx, x, claimed, 1, "exact evaluation: a terminal misère position")
    return dataclasses.replace(cx, explanation=cx.explanation + note) if note else cx


# ---------------------------------------------------------------------------
# the re-checks methods ask for (each checks, then confirms)
# ---------------------------------------------------------------------------


def wrong_at(ctx: ClaimContext, position: Any, because: str = "") -> Counterexample | None:
    """A confirmed counterexample at ``position`` when the claim is wrong there (its value or
    P-verdict differs from the true one, or it is undefined there), else None (right there,
    or the truth is out of reach). ``because``: the finding that led here, kept in words."""
    wrong = rc.wrong_at(ctx, position)
    if wrong is None:
        return None
    return _from_wrong(ctx, dataclasses.replace(wrong, cites_finding=bool(because)), because)


def _value_mismatch(
    ctx: ClaimContext, position: Any, claimed: Any, actual: int, how: str, move: Any = None
) -> Counterexample:
    """The counterexample where the claimed value or outcome differs from the true value
    ``actual`` (computed by ``how``), in words."""
    where = ctx.describe(position)
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
    text = f"The formula is undefined at {ctx.describe(position)}: {error}."
    return _confirmed(Counterexample(position, "undefined", text), _EXACT)


def identity_fails_at(ctx: ClaimContext, point: dict[str, int]) -> Counterexample | None:
    """The counterexample an identity has at ``point`` by exact evaluation: false there, or
    undefined there; None when it holds at ``point``."""
    try:
        holds = rc.formula_at(ctx, point)
    except EvalError as exc:
        return undefined_at(ctx, point, exc)
    return _identity_false(ctx, point, holds)


def _identity_false(ctx: ClaimContext, point: dict[str, int], holds: Any) -> Counterexample | None:
    """The identity's counterexample at ``point``, where its exact value is ``holds``."""
    if isinstance(holds, EvalError):
        return undefined_at(ctx, point, holds)
    if holds:
        return None
    text = f"The identity is false at {ctx.describe(point)}."
    return _confirmed(Counterexample(point, "identity", text, True, False), _EXACT)


def heap_counterexample(ctx: ClaimContext, n: int) -> Counterexample | None:
    """Re-check a one-heap claim at heap ``n`` with the reference; None if it holds there
    (or the reference table to ``n`` is too costly).

    Explains the failure with a move: for a claimed value equal to that of an
    option, that option; for a claimed value that no option realises, the
    missing value.
    """
    wrong = rc.heap_wrong(ctx, n)
    return None if wrong is None else _from_wrong(ctx, wrong)


def _heap_move_text(ctx: ClaimContext, n: int, claimed: int, wrong: rc.Wrong) -> str | None:
    """Why heap ``n`` cannot have the claimed value, by a move (from its targets and the
    claim's values there, :attr:`nimproof.provers.recheck.Wrong.targets`)."""
    targets = wrong.targets or ()
    values = {
        m: int(v)
        for m, v in zip(targets, wrong.target_values, strict=True)
        if not isinstance(v, EvalError)
    }
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
    if not ctx.contradicts(claimed, actual):
        return None
    move = next((q for q in game.moves(key) if reference.value(game, q, memo) == 0), None)
    return _value_mismatch(ctx, position, claimed, actual, _REFERENCE, move)


def first_disagreement(ctx: ClaimContext, point: tuple[int, ...]) -> Counterexample | None:
    """The smallest position reachable from ``point`` (itself included) where the claim is wrong
    (:func:`nimproof.provers.recheck.first_wrong_below`), confirmed, with a winning move.

    Uses exact evaluation of the claim and the reference values only. Returns
    None when every position examined agrees or the positions are too large.
    """
    wrong = rc.first_wrong_below(ctx, point)
    return None if wrong is None else _from_wrong(ctx, wrong)


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
    return _joins(ctx, p, q, a, b, text, how, lambda: rc.is_legal(ctx, p, q))


def _joins(
    ctx: ClaimContext, p: Any, q: Any, a: Any, b: Any, text: str, how: str, legal: Any
) -> Counterexample | None:
    """Condition 1 confirmed: the claim's exact values ``a`` at ``p`` and ``b`` at ``q`` are both
    P (or equal) and ``legal()`` says the move is one by the family's definition."""
    if isinstance(a, EvalError) or isinstance(b, EvalError):
        return None
    same = (bool(a) and bool(b)) if ctx.spec.states_p_positions else a == b
    if not (same and legal()):
        return None
    how = how or "the family's move definition and exact evaluation of the claim at both positions"
    return _confirmed(Counterexample(p, "condition-1", text, a, None, q), how)


def no_move_reaches(
    ctx: ClaimContext, x: Any, value: int | None, text: str, claimed: Any = None
) -> Counterexample | None:
    """Condition 2 at ``x``: no legal move reaches a position the claim calls P (``value``
    None) or values ``value``, decided by listing the moves and evaluating the claim at
    each, or by z3 on the concrete position when they are too many; None when some move
    does or it cannot be decided."""
    return _none_reach(ctx, rc.survey(ctx, x, options=True), x, value, text, claimed)


def _none_reach(
    ctx: ClaimContext, facts: rc.Survey, x: Any, value: int | None, text: str, claimed: Any
) -> Counterexample | None:
    """Condition 2 confirmed at ``x`` from the claim's values at its listed moves (``facts``),
    or by z3 on the concrete position when they are too many to list."""
    if facts.options is not None:
        for v in facts.option_values:
            if not isinstance(v, EvalError) and (bool(v) if value is None else int(v) == value):
                return None
        how = "exact evaluation of the claim at every move (the family's move definition)"
    elif _z3_no_move(ctx, x, value):
        how = "z3 on the concrete position (no legal move reaches the claimed target)"
    else:
        return None
    return _confirmed(Counterexample(x, "condition-2", text, claimed), how)


def _z3_no_move(ctx: ClaimContext, x: Any, value: int | None) -> bool:
    """z3 on the concrete position: no legal move into the claim's target (unsat), in one call
    (:func:`nimproof.provers.z3_bitvec.multi_heap.no_move_into`)."""
    # z3_bitvec imports this module (Candidate): its move encodings are imported here.
    from nimproof.provers.z3_bitvec.multi_heap import no_move_into  # lazy: a cycle

    return no_move_into(ctx, x, value)
