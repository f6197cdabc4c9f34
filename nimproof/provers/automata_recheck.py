"""Turn the counterexample MONA gave for one obligation into a candidate for :mod:`.settle`.

The assignment is decoded into heaps (``X0..``), the move target (``Y0..``)
and a value (``V``): a candidate counterexample at that position, marked with
the failed obligation (:data:`nimproof.provers.settle.OBLIGATION`). Nothing
here evaluates or confirms anything: :func:`nimproof.provers.settle.settle`
re-checks the candidate in one pass, without MONA (exact integer evaluation of
the claim, the family's own move definition, the reference implementation
where the position is small, its true value by theorem for Nim, and z3 on the
concrete position where it is too large to list its moves). A candidate that
does not re-check is never a refutation: the method's result is then
``unknown`` with the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nimproof.provers.context import ClaimContext
from nimproof.provers.settle import OBLIGATION
from nimproof.verdict import Counterexample

if TYPE_CHECKING:
    from nimproof.provers.automata import Plan

#: Obligations whose counterexample names no position of the claim: why each is not one.
NOT_A_POSITION = {
    "w": "a move that does not lower the measure induction runs on",
    "rule-guard": "the move rule has a negative intermediate value (outside WS1S)",
}
#: Obligations whose counterexample is a move (its target decoded from ``Y0..``).
MOVE_OBLIGATIONS = ("a", "g1")


def candidate(
    ctx: ClaimContext, plan: Plan, obligation: str, assignment: dict[str, int]
) -> Counterexample | str:
    """MONA's counterexample to ``obligation`` (``assignment``, already shrunk by the automata
    method where it could be) as an unconfirmed candidate for
    :func:`nimproof.provers.settle.settle`, or why it names no position of the claim."""
    if obligation in NOT_A_POSITION:
        return NOT_A_POSITION[obligation]
    xs = [assignment.get(f"X{i}", 0) for i in range(plan.heaps)]
    ys = [assignment.get(f"Y{i}", 0) for i in range(plan.heaps)]
    position: Any
    if ctx.spec.is_identity:
        position = dict(zip(ctx.claim.variables, xs, strict=True))
    else:
        position = xs[0] if ctx.one_heap else tuple(xs)
    move: Any = None
    if obligation in MOVE_OBLIGATIONS and not ctx.spec.is_identity:
        move = ys[0] if ctx.one_heap else tuple(ys)
    value = assignment.get("V", 0)
    text = f"MONA's counterexample to obligation {obligation} (not yet re-checked)"
    return Counterexample(position, OBLIGATION + obligation, text, None, value, move)
