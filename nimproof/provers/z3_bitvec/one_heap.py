"""z3 bit-vector proofs of one-heap claims: the local conditions for every heap below ``2**w``.

The steps, in order: the formula (and a rule's move relation) must be exact
at the working width on the whole domain; condition 1 (no move joins two
heaps of equal claimed value); in misère play, terminal heaps have value 1;
condition 2 (every smaller value is reached), by the finite list of moves,
a witness formula expanded over ``j``, or a quantifier at small widths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.games import HeapGame
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import HeapMoves, heap_move_legal, heap_moves
from nimproof.provers.settle import Candidate, candidate
from nimproof.provers.solving import Solver, Undecided, all_of, value_of
from nimproof.provers.z3_bitvec.common import (
    Found,
    note,
    relation_move,
    require_quantifier_width,
    shrink_heap,
)


@dataclass
class _Heap:
    """The symbolic one-heap problem at one width: heap ``n``, move target ``m``, value ``v``."""

    ctx: ClaimContext
    base: HeapGame
    hm: HeapMoves
    w: int
    width: int
    solver: Solver

    def __post_init__(self) -> None:
        self.n = z3.BitVec("n", self.width)
        self.m = z3.BitVec("m", self.width)
        self.v = z3.BitVec("v", self.width)
        self.dom = z3.ULT(self.n, z3.BitVecVal(1 << self.w, self.width))
        self.fn, self.gn = self.F(self.n)

    def F(self, x: z3.BitVecRef) -> tuple[z3.BitVecRef, z3.BoolRef]:
        """The claimed value at ``x`` and the guard that it is exact."""
        assert self.ctx.formula is not None
        c = compile_bv(self.ctx.formula, {"n": x, **self.ctx.params}, self.width)
        return c.term, all_of(list(c.guards))

    def legal(self, a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BoolRef:
        """``a -> b`` is a move of the rule's relation."""
        assert self.hm.relation is not None
        return relation_move(self.hm.relation, a, b, self.width)

    def option_pairs(self, a: z3.BitVecRef) -> list[tuple[z3.BoolRef, z3.BitVecRef]]:
        """Each take's condition and target (finite take sets)."""
        assert self.hm.takes is not None
        return [(z3.UGE(a, t), a - t) for t in self.hm.takes if t < (1 << self.w)]

    def takes_reach(self, value: z3.BitVecRef) -> z3.BoolRef:
        """Some take from ``n`` reaches a heap of claimed value ``value``."""
        pairs = self.option_pairs(self.n)
        if not pairs:
            return z3.BoolVal(False)
        return z3.Or(*[z3.And(ok, self.F(q)[0] == value) for ok, q in pairs])


def prove_one_heap(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """None when the local conditions hold for every heap below ``2**w``.

    A violation re-checked by the reference is returned; one that is not
    raises :class:`Candidate`; a width the terms do not fit raises
    :class:`Undecided`, a rule without a symbolic form :class:`Unsupported`.
    """
    P = _problem(ctx, w, solver)
    found = _condition_1(P)
    if found is not None:
        return found
    terminal = _terminal(P)
    if ctx.misere and (found := _terminal_values(P, terminal)) is not None:
        return found
    return _condition_2(P, terminal, options, notes)


def _problem(ctx: ClaimContext, w: int, solver: Solver) -> _Heap:
    """The symbolic problem, once the formula and the move rule are exact on the domain."""
    base = ctx.heap_game
    assert base is not None and ctx.formula is not None
    hm = heap_moves(base)
    if hm is None:
        raise Unsupported(f"{base.spec} has no symbolic move rule (splitting or infinite set)")
    width = w + 4 + max(3, max(hm.takes or (1,)).bit_length())
    P = _Heap(ctx, base, hm, w, width, solver)
    # The formula must be exact on the whole domain.
    model = solver.check(P.dom, z3.Not(P.gn))
    if model is not None:
        raise Undecided(f"the formula leaves the {width}-bit range at n = {value_of(model, P.n)}")
    if hm.relation is not None:
        rel = compile_bv(hm.relation, {"n": P.n, "m": P.m}, width)
        model = solver.check(P.dom, z3.ULT(P.m, P.n), z3.Not(all_of(list(rel.guards))))
        if model is not None:
            raise Undecided(
                f"the move rule leaves the {width}-bit range at n = {value_of(model, P.n)}"
            )
    return P


def _condition_1(P: _Heap) -> Found | None:
    """Condition 1: no move between heaps of equal claimed value."""
    pick: Callable[[z3.ModelRef], int]
    if P.hm.takes is not None:
        c1 = P.takes_reach(P.fn)

        def pick(md: z3.ModelRef) -> int:
            return next(
                value_of(md, q)
                for ok, q in P.option_pairs(P.n)
                if z3.is_true(md.eval(ok)) and value_of(md, P.F(q)[0]) == value_of(md, P.fn)
            )

    else:
        c1 = z3.And(P.legal(P.n, P.m), P.F(P.m)[0] == P.fn)

        def pick(md: z3.ModelRef) -> int:
            return value_of(md, P.m)

    if P.solver.check(P.dom, c1) is None:
        return None
    found = _recheck_condition_1(P, [P.dom, c1], pick)
    if found:
        return found
    raise Undecided("condition 1 model did not re-check")


def _recheck_condition_1(
    P: _Heap, query: list[z3.BoolRef], pick: Callable[[z3.ModelRef], int]
) -> Found | None:
    """The smallest move of ``query``, re-checked with exact arithmetic and the family's moves."""
    ctx = P.ctx
    k = shrink_heap(P.solver, query, P.n, P.width)
    model = P.solver.check(*query, P.n == k)
    assert model is not None
    target = pick(model)
    # Re-check with exact arithmetic and the family's own definition of a move.
    if not heap_move_legal(P.base, k, target):
        return None
    try:
        a, b = int(recheck.formula_at(ctx, k)), int(recheck.formula_at(ctx, target))
    except EvalError as exc:
        return Found(settle.undefined_at(ctx, k, exc))
    if a != b:
        return None
    actual = recheck.true_heap_value(ctx, k)
    text = (
        f"The move {k} -> {target} joins two heaps the claim values {a}; a heap's value differs from "
        f"the value of every heap it can move to, so the claim is false at {k} or below."
    )
    if actual is not None:
        text += f" The true value of heap {k} is {actual}."
    cx = settle.move_joins(ctx, k, target, text, "exact evaluation and the move rule")
    return None if cx is None else Found(cx)


def _terminal(P: _Heap) -> z3.BoolRef:
    """The heaps with no move (misère play); False under normal play, where it is not needed."""
    if not P.ctx.misere:
        return z3.BoolVal(False)
    if P.hm.terminal is None:
        raise Unsupported("no formula for the terminal heaps of this rule (needed in misère play)")
    return compile_bv(P.hm.terminal, {"n": P.n}, P.width).term


def _terminal_values(P: _Heap, terminal: z3.BoolRef) -> Found | None:
    """Misère: terminal heaps have value 1 (the mex conditions apply to the others)."""
    query = [P.dom, terminal, P.fn != 1]
    if P.solver.check(*query) is None:
        return None
    k = shrink_heap(P.solver, query, P.n, P.width)
    cx = settle.heap_counterexample(P.ctx, k)
    if cx is not None:
        return Found(cx)
    raise Candidate(
        candidate(
            k, "terminal", f"Heap {k} has no move but the claim does not give it value 1.", None
        )
    )


def _reach(P: _Heap, options: Mapping[str, Any]) -> tuple[z3.BoolRef, bool, str]:
    """Condition 2's "some move reaches value ``v``": the formula, whether it is complete, how."""
    ctx = P.ctx
    if P.hm.takes is not None:
        return P.takes_reach(P.v), True, "finite list of moves"
    if ctx.witness is not None:
        cands = []
        count = int(options.get("witness_candidates", P.width))
        for j in range(max(1, min(count, 4 * P.width))):
            c = compile_bv(ctx.witness, {"n": P.n, "v": P.v, "j": j, **ctx.params}, P.width)
            target = c.term
            ft, gt = P.F(target)
            cands.append(z3.And(all_of(list(c.guards)), P.legal(P.n, target), gt, ft == P.v))
        how = f"witness {ctx.claim.witness!r} expanded over j = 0..{len(cands) - 1}"
        return z3.Or(*cands), False, how
    require_quantifier_width(P.w, options, "a quantifier")
    reach = z3.Exists([P.m], z3.And(P.legal(P.n, P.m), P.F(P.m)[0] == P.v))
    return reach, True, "quantified formula"


def _condition_2(
    P: _Heap, terminal: z3.BoolRef, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """Condition 2: from every non-terminal heap, every smaller value is reached by a move."""
    reach, complete, how = _reach(P, options)
    query = [P.dom, z3.Not(terminal), z3.ULT(P.v, P.fn), z3.Not(reach)]
    quantified = how == "quantified formula"
    model = P.solver.check(*query, quantified=quantified)
    note(notes, f"condition 2 by {how}")
    if model is None:
        return None
    k = shrink_heap(P.solver, query, P.n, P.width, quantified)
    cx = settle.heap_counterexample(P.ctx, k)
    if cx is not None:
        return Found(cx)
    how_found = "z3 finds" if complete else "the witness finds"
    raise Candidate(
        candidate(
            k,
            "condition-2",
            f"At heap {k} {how_found} no move to a heap with some smaller claimed value.",
        )
    )
