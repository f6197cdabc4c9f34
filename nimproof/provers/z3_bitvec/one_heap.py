"""z3 bit-vector proof of a one-heap claim ``g(n) = F(n)`` for every heap below ``2**w``.

The steps follow the local conditions: the formula and the move rule must be
exact on the domain; condition 1 (no move joins two heaps of equal claimed
value); misère play's terminal condition; condition 2 (every smaller value
is reached), discharged by the finite list of moves, a witness formula or a
quantified formula. Every model is shrunk and re-checked before it refutes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.provers import recheck
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import heap_move_legal, heap_moves
from nimproof.provers.solving import Solver, Undecided, all_of, value_of
from nimproof.provers.z3_bitvec.common import QUANTIFIER_MAX_WIDTH, Found, note, shrink_below
from nimproof.verdict import Counterexample

Pair = tuple[z3.BoolRef, z3.BitVecRef]


class _OneHeap:
    """One proof attempt at width ``w``: the symbols, the domain and the claimed values."""

    def __init__(self, ctx: ClaimContext, w: int, solver: Solver) -> None:
        base = ctx.heap_game
        assert base is not None and ctx.formula is not None
        hm = heap_moves(base)
        if hm is None:
            raise Unsupported(f"{base.spec} has no symbolic move rule (splitting or infinite set)")
        self.ctx, self.w, self.solver, self.base, self.hm = ctx, w, solver, base, hm
        self.width = width = w + 4 + max(3, max(hm.takes or (1,)).bit_length())
        self.n, self.m, self.v = (z3.BitVec(x, width) for x in ("n", "m", "v"))
        self.dom = z3.ULT(self.n, z3.BitVecVal(1 << w, width))
        self.fn, self.gn = self.F(self.n)

    def F(self, x: z3.BitVecRef) -> tuple[z3.BitVecRef, z3.BoolRef]:
        """The claimed value at ``x`` and the guards under which it is exact."""
        assert self.ctx.formula is not None
        c = compile_bv(self.ctx.formula, {"n": x, **self.ctx.params}, self.width)
        return c.term, all_of(list(c.guards))

    def legal(self, a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BoolRef:
        """The move ``a -> b`` by the rule's relation, with its guards."""
        assert self.hm.relation is not None
        c = compile_bv(self.hm.relation, {"n": a, "m": b}, self.width)
        return z3.And(z3.ULT(b, a), c.term, all_of(list(c.guards)))

    def option_pairs(self, a: z3.BitVecRef) -> list[Pair]:
        """For a finite subtraction set: (move possible, target) for each take."""
        assert self.hm.takes is not None
        return [(z3.UGE(a, t), a - t) for t in self.hm.takes if t < (1 << self.w)]

    def reach_by_takes(self, value: z3.BitVecRef) -> z3.BoolRef:
        """Some take leads to a heap of claimed value ``value``."""
        pairs = self.option_pairs(self.n)
        if not pairs:
            return z3.BoolVal(False)
        return z3.Or(*[z3.And(ok, self.F(q)[0] == value) for ok, q in pairs])

    def check_exact(self) -> None:
        """The formula and the move rule must be exact on the whole domain."""
        model = self.solver.check(self.dom, z3.Not(self.gn))
        if model is not None:
            raise Undecided(
                f"the formula leaves the {self.width}-bit range at n = {value_of(model, self.n)}"
            )
        if self.hm.relation is None:
            return
        rel = compile_bv(self.hm.relation, {"n": self.n, "m": self.m}, self.width)
        model = self.solver.check(
            self.dom, z3.ULT(self.m, self.n), z3.Not(all_of(list(rel.guards)))
        )
        if model is not None:
            raise Undecided(
                f"the move rule leaves the {self.width}-bit range at n = {value_of(model, self.n)}"
            )

    def condition_1(self) -> Found | None:
        """No move between heaps of equal claimed value; a re-checked violation refutes."""
        n, fn = self.n, self.fn
        pick: Callable[[z3.ModelRef], int] | None = None
        if self.hm.takes is not None:
            c1 = self.reach_by_takes(fn)

            def pick(md: z3.ModelRef) -> int:
                return next(
                    value_of(md, q)
                    for ok, q in self.option_pairs(n)
                    if z3.is_true(md.eval(ok)) and value_of(md, self.F(q)[0]) == value_of(md, fn)
                )

            m = None
        else:
            c1 = z3.And(self.legal(n, self.m), self.F(self.m)[0] == fn)
            m = self.m
        if self.solver.check(self.dom, c1) is None:
            return None
        found = _recheck_condition_1(self, [self.dom, c1], m, pick)
        if found:
            return found
        raise Undecided("condition 1 model did not re-check")

    def terminal(self) -> tuple[z3.BoolRef, Found | None]:
        """Misère: terminal heaps have value 1. Returns the terminal predicate and any violation."""
        if not self.ctx.misere:
            return z3.BoolVal(False), None
        if self.hm.terminal is None:
            raise Unsupported(
                "no formula for the terminal heaps of this rule (needed in misère play)"
            )
        terminal = compile_bv(self.hm.terminal, {"n": self.n}, self.width).term
        query = [self.dom, terminal, self.fn != 1]
        if self.solver.check(*query) is None:
            return terminal, None
        k = shrink_below(self.solver, query, self.n, self.width)
        cx = recheck.heap_counterexample(self.ctx, k, "reference implementation")
        if cx is not None:
            return terminal, Found(cx)
        raise Undecided(f"terminal condition fails at n = {k} but did not re-check")

    def reach_for_condition_2(self, options: Mapping[str, Any]) -> tuple[z3.BoolRef, bool, str]:
        """``reach``: some move leads to value ``v``; whether that encoding is complete; how."""
        n, v, width = self.n, self.v, self.width
        if self.hm.takes is not None:
            return self.reach_by_takes(v), True, "finite list of moves"
        ctx = self.ctx
        if ctx.witness is not None:
            cands = []
            count = int(options.get("witness_candidates", width))
            for j in range(max(1, min(count, 4 * width))):
                c = compile_bv(ctx.witness, {"n": n, "v": v, "j": j, **ctx.params}, width)
                ft, gt = self.F(c.term)
                cands.append(z3.And(all_of(list(c.guards)), self.legal(n, c.term), gt, ft == v))
            how = f"witness {ctx.claim.witness!r} expanded over j = 0..{len(cands) - 1}"
            return z3.Or(*cands), False, how
        limit = options.get("quantifier_max_width", QUANTIFIER_MAX_WIDTH)
        if self.w > int(limit):
            raise Unsupported(
                f"no witness: condition 2 needs a quantifier, tried only up to width {limit}"
            )
        reach = z3.Exists([self.m], z3.And(self.legal(n, self.m), self.F(self.m)[0] == v))
        return reach, True, "quantified formula"

    def condition_2(
        self, terminal: z3.BoolRef, options: Mapping[str, Any], notes: list[str]
    ) -> Found | None:
        """Every value below the claimed one is reached by a move (outside terminal heaps)."""
        reach, complete, how = self.reach_for_condition_2(options)
        query = [self.dom, z3.Not(terminal), z3.ULT(self.v, self.fn), z3.Not(reach)]
        quantified = how == "quantified formula"
        model = self.solver.check(*query, quantified=quantified)
        note(notes, f"condition 2 by {how}")
        if model is None:
            return None
        k = shrink_below(self.solver, query, self.n, self.width, quantified)
        cx = recheck.heap_counterexample(self.ctx, k, "reference implementation")
        if cx is not None:
            return Found(cx)
        if complete:
            raise Undecided(f"condition 2 fails at n = {k} but the reference could not confirm it")
        raise Undecided(
            f"the witness finds no move at n = {k}; the reference could not confirm a failure"
        )


def prove_one_heap(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """Prove the local conditions for heaps below ``2**w``; a re-checked violation is returned."""
    proof = _OneHeap(ctx, w, solver)
    proof.check_exact()
    found = proof.condition_1()
    if found:
        return found
    terminal, found = proof.terminal()
    if found:
        return found
    return proof.condition_2(terminal, options, notes)


def _recheck_condition_1(
    proof: _OneHeap,
    query: list[z3.BoolRef],
    m: z3.BitVecRef | None,
    pick: Callable[[z3.ModelRef], int] | None,
) -> Found | None:
    """Shrink a condition-1 model and re-check it with exact arithmetic and the move rule."""
    ctx, n = proof.ctx, proof.n
    k = shrink_below(proof.solver, query, n, proof.width)
    model = proof.solver.check(*query, n == k)
    assert model is not None
    if m is not None:
        target = value_of(model, m)
    else:
        assert pick is not None
        target = pick(model)
    if not heap_move_legal(proof.base, k, target):
        return None
    try:
        a, b = int(recheck.formula_at(ctx, k)), int(recheck.formula_at(ctx, target))
    except EvalError as exc:
        return Found(recheck.undefined_at(ctx, k, exc))
    if a != b:
        return None
    actual = recheck.true_heap_value(ctx, k)
    text = (
        f"The move {k} -> {target} joins two heaps the claim values {a}; a heap's value differs from "
        f"the value of every heap it can move to, so the claim is false at {k} or below."
    )
    if actual is not None:
        text += f" The true value of heap {k} is {actual}."
    return Found(
        Counterexample(
            k, "condition-1", text, a, actual, target, True, "exact evaluation and the move rule"
        )
    )
