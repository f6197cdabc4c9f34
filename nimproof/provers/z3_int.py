"""z3 integer proofs: unbounded claims without bitwise operations, for **all** n.

Over ``Int`` the domain is every non-negative integer (closed under moves),
so an ``unsat`` answer proves the claim for all positions. Applies to
identities and to one-heap Grundy claims whose formula and move rule are
arithmetic (``n % (k+1)`` for k-Nim, for instance). The same local
conditions, guards and re-checks as :mod:`.z3_bitvec` apply; condition 2 is
discharged by the finite list of moves (finite subtraction sets), a witness
formula without ``j``, or a quantified formula.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, TypedDict

import z3

from nimproof.certificates import parts as certificate_parts
from nimproof.errors import EvalError
from nimproof.expr.nodes import free_names
from nimproof.expr.to_z3 import Unsupported, compile_int
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import heap_moves
from nimproof.provers.solving import Solver, Undecided, all_of, shrink, value_of
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "z3_int"


class Options(TypedDict, total=False):
    """Options of the ``z3_int`` method in ``[claim.checks]`` (all optional)."""

    timeout: float
    """seconds for the solver"""


DEFAULT_TIMEOUT = 60.0


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Prove the claim for all non-negative integers, or say why not."""
    t0 = time.monotonic()
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    solver = Solver(time.monotonic() + min(timeout, max(ctx.time_left(), 0.1)))
    try:
        if ctx.spec.is_identity:
            cx = _identity(ctx, solver)
            how = "identity over the integers"
        elif ctx.one_heap:
            cx, how = _one_heap(ctx, solver, options)
        else:
            raise Unsupported(
                f"z3_int applies to identities and one-heap Grundy claims, not {ctx.kind}"
            )
    except (Undecided, Unsupported) as exc:
        return MethodResult(
            NAME,
            "unknown",
            detail=str(exc),
            seconds=time.monotonic() - t0,
            stats={"solver_calls": solver.calls},
        )
    stats = {"solver_calls": solver.calls}
    if cx is not None:
        return MethodResult(
            NAME,
            "refuted",
            detail=how,
            seconds=time.monotonic() - t0,
            counterexample=cx,
            stats=stats,
        )
    measure = "value" if ctx.spec.is_identity else "heap"
    part = certificate_parts.smt(ctx.kind, solver.queries)
    seconds = time.monotonic() - t0
    scope = Scope("all", measure=measure)
    return MethodResult(NAME, "proved", scope, how, seconds, stats=stats, certificate=part)


def _shrink(solver: Solver, query: list[z3.BoolRef], var: z3.ArithRef) -> int:
    """The smallest ``var`` satisfying ``query`` that a bounded binary search finds."""
    return shrink(solver, query, var, lambda k: var <= k, 64)


def _identity(ctx: ClaimContext, solver: Solver) -> Counterexample | None:
    assert ctx.formula is not None
    xs = {name: z3.Int(name) for name in ctx.claim.variables}
    c = compile_int(ctx.formula, {**xs, **ctx.params})
    dom = [x >= 0 for x in xs.values()]
    query = [*dom, z3.Or(z3.Not(c.term), z3.Not(all_of(c.guards)))]
    model = solver.check(*query)
    if model is None:
        return None
    total = sum(xs.values())
    size = _shrink(solver, [*query], total)
    model = solver.check(*query, total == size)
    assert model is not None
    point = {name: value_of(model, x) for name, x in xs.items()}
    cx = settle.identity_fails_at(ctx, point)
    if cx is None:
        raise Undecided(f"a guard fails at {point} (e.g. a divisor that may be negative)")
    return cx


class _OneHeap:
    """One proof over the integers: symbols ``n``, ``m``, ``v`` and the claimed values."""

    def __init__(self, ctx: ClaimContext, solver: Solver) -> None:
        base = ctx.heap_game
        assert base is not None and ctx.formula is not None
        hm = heap_moves(base)
        if hm is None:
            raise Unsupported(f"{base.spec} has no symbolic move rule")
        self.ctx, self.solver, self.base, self.hm = ctx, solver, base, hm
        self.n, self.m, self.v = z3.Int("n"), z3.Int("m"), z3.Int("v")
        self.fn, gn = self.F(self.n)
        self.dom = self.n >= 0
        model = solver.check(self.dom, z3.Not(gn))
        if model is not None:
            raise Undecided(f"a guard of the formula fails at n = {value_of(model, self.n)}")

    def F(self, x: z3.ArithRef) -> tuple[z3.ArithRef, z3.BoolRef]:
        """The claimed value at ``x`` and the guards under which it is exact."""
        assert self.ctx.formula is not None
        c = compile_int(self.ctx.formula, {"n": x, **self.ctx.params})
        return c.term, all_of(c.guards)

    def legal(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        """The move ``a -> b`` by the rule's relation, with its guards."""
        assert self.hm.relation is not None
        c = compile_int(self.hm.relation, {"n": a, "m": b})
        return z3.And(b >= 0, b < a, c.term, all_of(c.guards))

    def condition_1(self) -> Counterexample | None:
        """No move joins two heaps of equal claimed value (a violation is re-checked)."""
        n, m, hm, dom, solver = self.n, self.m, self.hm, self.dom, self.solver
        if hm.takes is not None:
            c1 = z3.Or(*[z3.And(n >= t, self.F(n - t)[0] == self.fn) for t in hm.takes])
        else:
            assert hm.relation is not None
            rel = compile_int(hm.relation, {"n": n, "m": m})
            model = solver.check(dom, m >= 0, m < n, z3.Not(all_of(rel.guards)))
            if model is not None:
                raise Undecided(f"a guard of the move rule fails at n = {value_of(model, n)}")
            c1 = z3.And(self.legal(n, m), self.F(m)[0] == self.fn)
        if solver.check(dom, c1) is None:
            return None
        k = _shrink(solver, [dom, c1], n)
        cx = settle.heap_counterexample(self.ctx, k)
        return cx if cx is not None else self.move_between_equal_values(c1, k)

    def move_between_equal_values(self, c1: z3.BoolRef, k: int) -> Counterexample:
        """The condition-1 counterexample at ``k``, re-checked by the move rule."""
        ctx, hm = self.ctx, self.hm
        model = self.solver.check(self.dom, c1, self.n == k)
        assert model is not None
        target = (
            value_of(model, self.m)
            if hm.takes is None
            else next(k - t for t in hm.takes if t <= k and _equal(ctx, k, k - t))
        )
        a = int(recheck.formula_at(ctx, k))
        text = f"The move {k} -> {target} joins two heaps the claim values {a}."
        cx = settle.move_joins(ctx, k, target, text, "exact evaluation and the move rule")
        if cx is None:
            raise Undecided("condition 1 model did not re-check")
        return cx

    def terminal(self) -> tuple[z3.BoolRef, Counterexample | None]:
        """Misère: terminal heaps have value 1."""
        if not self.ctx.misere:
            return z3.BoolVal(False), None
        if self.hm.terminal is None:
            raise Unsupported("no formula for the terminal heaps of this rule")
        terminal = compile_int(self.hm.terminal, {"n": self.n}).term
        bad = [self.dom, terminal, self.fn != 1]
        if self.solver.check(*bad) is None:
            return terminal, None
        k = _shrink(self.solver, bad, self.n)
        cx = settle.heap_counterexample(self.ctx, k)
        if cx is None:
            raise Undecided(f"terminal condition fails at n = {k} but did not re-check")
        return terminal, cx

    def reach(self) -> tuple[z3.BoolRef, str]:
        """Some move leads to a heap of claimed value ``v``, and how that is encoded."""
        n, v, ctx = self.n, self.v, self.ctx
        if self.hm.takes is not None:
            return z3.Or(*[z3.And(n >= t, self.F(n - t)[0] == v) for t in self.hm.takes]), (
                "finite list of moves"
            )
        if ctx.witness is not None:
            if "j" in free_names(ctx.witness):
                raise Unsupported("the witness ranges over bit positions j; use z3_bitvec")
            w = compile_int(ctx.witness, {"n": n, "v": v, "j": 0, **ctx.params})
            reach = z3.And(all_of(w.guards), self.legal(n, w.term), self.F(w.term)[0] == v)
            return reach, f"witness {ctx.claim.witness!r}"
        return z3.Exists([self.m], z3.And(self.legal(n, self.m), self.F(self.m)[0] == v)), (
            "quantified formula"
        )

    def condition_2(self, terminal: z3.BoolRef) -> tuple[Counterexample | None, str]:
        """Every value below the claimed one is reached by a move (outside terminal heaps)."""
        reach, how = self.reach()
        query = [self.dom, z3.Not(terminal), self.v >= 0, self.v < self.fn, z3.Not(reach)]
        if self.solver.check(*query) is None:
            return None, f"local conditions for all n; condition 2 by {how}"
        k = _shrink(self.solver, query, self.n)
        cx = settle.heap_counterexample(self.ctx, k)
        if cx is None:
            raise Undecided(f"condition 2 fails at n = {k} but the reference could not confirm it")
        return cx, "condition 2"


def _one_heap(
    ctx: ClaimContext, solver: Solver, options: Mapping[str, Any]
) -> tuple[Counterexample | None, str]:
    proof = _OneHeap(ctx, solver)
    cx = proof.condition_1()
    if cx is not None:
        return cx, "condition 1"
    terminal, cx = proof.terminal()
    if cx is not None:
        return cx, "terminal condition"
    return proof.condition_2(terminal)


def _equal(ctx: ClaimContext, a: int, b: int) -> bool:
    try:
        return int(recheck.formula_at(ctx, a)) == int(recheck.formula_at(ctx, b))
    except EvalError:
        return False
