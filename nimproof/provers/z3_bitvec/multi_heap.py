"""z3 bit-vector proof of a multi-heap claim for every position with heaps below ``2**w``.

The game's moves come from its description (:attr:`~nimproof.games.Game.moves_spec`):
Moore's Nim_k, staircase Nim, or a sum of non-splitting heap rules. The same
local conditions as for one heap are checked; condition 2 is discharged by
the finite list of moves, a built-in witness or a quantified formula, and
every model is shrunk (smallest total first) and re-checked before it refutes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.games import Game, HeapGame, OneHeapOfEach, StairToStair, UpToKHeaps
from nimproof.provers import recheck, witnesses
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import heap_moves, is_move
from nimproof.provers.solving import Solver, Undecided, all_of, value_of
from nimproof.provers.z3_bitvec.common import QUANTIFIER_MAX_WIDTH, SHRINK_ROUNDS, Found, note
from nimproof.verdict import Counterexample


@dataclass
class _MultiGame:
    """Symbolic moves of a multi-heap game: relation, terminal test, complete move list if finite."""

    move: Callable[[list[z3.BitVecRef], list[z3.BitVecRef]], z3.BoolRef]
    terminal: Callable[[list[z3.BitVecRef]], z3.BoolRef]
    finite: Callable[[list[z3.BitVecRef]], list[tuple[list[z3.BitVecRef], z3.BoolRef]]] | None
    plain: Game  # the game whose move definition re-checks a move (is_move)


def multi_game(ctx: ClaimContext, width: int) -> _MultiGame:
    """The symbolic moves of the claim's game, from its description."""
    game = ctx.game
    assert game is not None
    spec = game.moves_spec
    h = ctx.heaps or 0
    if isinstance(spec, UpToKHeaps):
        return _moore_game(game, spec.k, h)
    if isinstance(spec, StairToStair):
        return _staircase_game(game, h)
    normal = game.normal
    if isinstance(spec, OneHeapOfEach):
        components: list[HeapGame] = list(spec.components)
    elif isinstance(normal, HeapGame):
        components = [normal] * h
    else:
        raise Unsupported(f"no symbolic moves for {game.spec}")
    return _sum_game(game, components, h, width)


def _all_zero(p: list[z3.BitVecRef]) -> z3.BoolRef:
    return z3.And(*[x == 0 for x in p])


def _moore_game(game: Game, k: int, h: int) -> _MultiGame:
    """Moore's Nim_k: 1..k heaps lowered, none raised."""

    def moore_move(p: list[z3.BitVecRef], q: list[z3.BitVecRef]) -> z3.BoolRef:
        lowered = [
            z3.If(z3.ULT(q[i], p[i]), z3.BitVecVal(1, 8), z3.BitVecVal(0, 8)) for i in range(h)
        ]
        count = lowered[0]
        for x in lowered[1:]:
            count = count + x
        return z3.And(*[z3.ULE(q[i], p[i]) for i in range(h)], z3.UGE(count, 1), z3.ULE(count, k))

    return _MultiGame(moore_move, _all_zero, None, game.normal)


def _staircase_game(game: Game, h: int) -> _MultiGame:
    """Staircase Nim: coins carried from stair i to stair i - 1 (or off the first stair)."""

    def stair_move(p: list[z3.BitVecRef], q: list[z3.BitVecRef]) -> z3.BoolRef:
        cases = []
        for i in range(h):
            same = [q[j] == p[j] for j in range(h) if j not in (i, i - 1)]
            down = z3.ULT(q[i], p[i])
            if i == 0:
                cases.append(z3.And(down, *same))
            else:
                moved = p[i] - q[i]
                cases.append(
                    z3.And(
                        down,
                        q[i - 1] == p[i - 1] + moved,
                        z3.BVAddNoOverflow(p[i - 1], moved, False),
                        *same,
                    )
                )
        return z3.Or(*cases)

    return _MultiGame(stair_move, _all_zero, None, game.normal)


def _sum_game(game: Game, components: list[HeapGame], h: int, width: int) -> _MultiGame:
    """A sum of non-splitting heap rules: a move changes exactly one heap by its rule."""
    views = []
    for comp in components:
        hm = heap_moves(comp)
        if hm is None:
            raise Unsupported(f"{comp.spec} has no symbolic move rule")
        views.append(hm)

    def heap_legal(i: int, a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BoolRef:
        hm = views[i]
        if hm.takes is not None:
            return z3.Or(*[z3.And(z3.UGE(a, t), b == a - t) for t in hm.takes])
        assert hm.relation is not None
        c = compile_bv(hm.relation, {"n": a, "m": b}, width)
        return z3.And(z3.ULT(b, a), c.term, all_of(list(c.guards)))

    def sum_move(p: list[z3.BitVecRef], q: list[z3.BitVecRef]) -> z3.BoolRef:
        return z3.Or(
            *[
                z3.And(heap_legal(i, p[i], q[i]), *[q[j] == p[j] for j in range(h) if j != i])
                for i in range(h)
            ]
        )

    def sum_terminal(p: list[z3.BitVecRef]) -> z3.BoolRef:
        parts = []
        for i, hm in enumerate(views):
            if hm.terminal is None:
                raise Unsupported(f"no formula for the terminal heaps of {components[i].spec}")
            parts.append(compile_bv(hm.terminal, {"n": p[i]}, width).term)
        return z3.And(*parts)

    finite = None
    if all(hm.takes is not None for hm in views):

        def finite_moves(p: list[z3.BitVecRef]) -> list[tuple[list[z3.BitVecRef], z3.BoolRef]]:
            out = []
            for i, hm in enumerate(views):
                for t in hm.takes or ():
                    q = list(p)
                    q[i] = p[i] - t
                    out.append((q, z3.UGE(p[i], t)))
            return out

        finite = finite_moves
    return _MultiGame(sum_move, sum_terminal, finite, game.normal)


Candidates = list[tuple[list[z3.BitVecRef], z3.BoolRef]]


class _MultiHeap:
    """One proof attempt at width ``w``: symbols for a position ``p`` and a move target ``q``."""

    def __init__(self, ctx: ClaimContext, w: int, solver: Solver) -> None:
        assert ctx.formula is not None
        h = ctx.heap_count
        if h is None:
            raise Unsupported("a multi-heap claim needs a heap count")
        self.ctx, self.w, self.solver = ctx, w, solver
        self.width = width = w + 4 + h.bit_length()
        self.mg = multi_game(with_heaps(ctx, h), width)
        self.p = [z3.BitVec(f"p{i}", width) for i in range(h)]
        self.q = [z3.BitVec(f"q{i}", width) for i in range(h)]
        self.v = z3.BitVec("v", width)
        top = z3.BitVecVal(1 << w, width)
        bounded = [z3.ULT(x, top) for x in self.p]
        if ctx.staircase:
            # Every pile is below 2**w too, so with 4 + log2(h) spare bits the sum cannot wrap.
            self.dom = z3.And(z3.ULT(_total(self.p), top), *bounded)
        else:
            self.dom = z3.And(*bounded)
        self.is_p_claim = ctx.kind == "p_positions"
        self.fp, gp = self.F(self.p)
        model = solver.check(self.dom, z3.Not(gp))
        if model is not None:
            point = [value_of(model, x) for x in self.p]
            raise Undecided(f"the formula leaves the {width}-bit range at {point}")

    def F(self, pos: list[z3.BitVecRef]) -> tuple[z3.ExprRef, z3.BoolRef]:
        """The claimed value (or P-ness) at ``pos`` and the guards under which it is exact."""
        assert self.ctx.formula is not None
        c = compile_bv(self.ctx.formula, {"h": pos, **self.ctx.params}, self.width)
        return c.term, all_of(list(c.guards))

    def goal(self, pos: list[z3.BitVecRef]) -> z3.BoolRef:
        """``pos`` is what condition 2 must reach: a P-position, or one of value ``v``."""
        f, g = self.F(pos)
        return z3.And(g, f) if self.is_p_claim else z3.And(g, f == self.v)

    def shrink_and_point(
        self, query: list[z3.BoolRef], quantified: bool = False
    ) -> tuple[list[int], z3.ModelRef]:
        """A model of ``query`` with the smallest total that a bounded search finds."""
        solver, p = self.solver, self.p
        model = solver.check(*query, quantified=quantified)
        assert model is not None
        total = _total([z3.ZeroExt(8, x) for x in p])
        for _ in range(SHRINK_ROUNDS):
            size = sum(value_of(model, x) for x in p)
            if size == 0:
                break
            smaller_total = z3.ULT(total, z3.BitVecVal(size, self.width + 8))
            try:
                smaller = solver.check(*query, smaller_total, quantified=quantified)
            except Undecided:
                break
            if smaller is None:
                break
            model = smaller
        return [value_of(model, x) for x in p], model

    def condition_1(self) -> Found | None:
        """No move joins two P-positions (two positions of equal claimed value)."""
        fq, _ = self.F(self.q)
        c1 = z3.And(self.fp, fq) if self.is_p_claim else (fq == self.fp)
        query = [self.dom, self.mg.move(self.p, self.q), c1]
        if self.solver.check(*query) is None:
            return None
        point, model = self.shrink_and_point(query)
        target = [value_of(model, x) for x in self.q]
        found = _multi_cond1(self.ctx, self.mg, point, target)
        if found:
            return found
        raise Undecided(f"condition 1 fails at {point} -> {target} but did not re-check")

    def terminal(self) -> tuple[z3.BoolRef, Found | None]:
        """Misère: terminal positions are not P (have value 1)."""
        if not self.ctx.misere:
            return z3.BoolVal(False), None
        terminal = self.mg.terminal(self.p)
        wrong = self.fp if self.is_p_claim else (self.fp != 1)
        bad_terminal = z3.And(self.dom, terminal, wrong)
        if self.solver.check(bad_terminal) is None:
            return terminal, None
        point, _ = self.shrink_and_point([bad_terminal])
        cx = _multi_value_recheck(self.ctx, point)
        if cx is not None:
            return terminal, Found(cx)
        raise Undecided(f"terminal condition fails at {point} but did not re-check")

    def candidates(self, options: Mapping[str, Any]) -> tuple[Candidates, bool, str]:
        """The moves condition 2 tries, whether they are all the moves, and how they were chosen."""
        ctx = self.ctx
        if self.mg.finite is not None:
            return self.mg.finite(self.p), True, "finite list of moves"
        if ctx.witness_name in ("nim", "misere-nim", "moore", "staircase"):
            target = self.fp if not self.is_p_claim else None
            found = _builtin_candidates(ctx, self.p, target, self.v)
            return found, False, f"witness {ctx.witness_name!r}"
        limit = options.get("quantifier_max_width", QUANTIFIER_MAX_WIDTH)
        if self.w > int(limit):
            raise Unsupported(
                "no witness: condition 2 needs a quantifier over moves; tried only up to width "
                f"{limit}"
            )
        return [], False, "quantified formula"

    def condition_2(
        self, terminal: z3.BoolRef, options: Mapping[str, Any], notes: list[str]
    ) -> Found | None:
        """Every non-P position has a move into P (every smaller value is reached)."""
        p, mg = self.p, self.mg
        candidates, complete, how = self.candidates(options)
        need = z3.Not(self.fp) if self.is_p_claim else z3.ULT(self.v, self.fp)
        if candidates:
            reach = z3.Or(*[z3.And(ok, mg.move(p, c), self.goal(c)) for c, ok in candidates])
        else:
            reach = z3.Exists(self.q, z3.And(mg.move(p, self.q), self.goal(self.q)))
        note(notes, f"condition 2 by {how}")
        query = [self.dom, z3.Not(terminal), need, z3.Not(reach)]
        quantified = not candidates
        if self.solver.check(*query, quantified=quantified) is None:
            return None
        point, _ = self.shrink_and_point(query, quantified)
        cx = _multi_value_recheck(self.ctx, point)
        if cx is not None:
            return Found(cx)
        if complete:
            raise Undecided(f"condition 2 fails at {point} but the reference could not confirm it")
        raise Undecided(
            f"the witness finds no move at {point}; the reference could not confirm a failure"
        )


def _total(xs: list[z3.BitVecRef]) -> z3.BitVecRef:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def prove_multi_heap(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """Prove the local conditions for heaps below ``2**w``; a re-checked violation is returned."""
    proof = _MultiHeap(ctx, w, solver)
    found = proof.condition_1()
    if found:
        return found
    terminal, found = proof.terminal()
    if found:
        return found
    return proof.condition_2(terminal, options, notes)


def with_heaps(ctx: ClaimContext, h: int) -> ClaimContext:
    if ctx.heaps == h:
        return ctx
    return replace(ctx, claim=replace(ctx.claim, heaps=h))


def _builtin_candidates(
    ctx: ClaimContext, p: list[z3.BitVecRef], fp: z3.ExprRef | None, v: z3.BitVecRef
) -> list[tuple[list[z3.BitVecRef], z3.BoolRef]]:
    name = ctx.witness_name
    if name == "nim":
        target = None if fp is None else (fp ^ v)
        return witnesses.nim(p, target)
    if name == "misere-nim":
        return witnesses.misere_nim(p)
    if name == "staircase":
        return witnesses.staircase(p)
    if name == "moore":
        spec = ctx.game.moves_spec if ctx.game is not None else None
        if not isinstance(spec, UpToKHeaps):
            raise Unsupported("the 'moore' witness needs a moore:K game")
        return witnesses.moore(p, spec.k)
    raise Unsupported(f"unknown witness {name!r}")


def _multi_cond1(
    ctx: ClaimContext, mg: _MultiGame, point: list[int], target: list[int]
) -> Found | None:
    if not is_move(mg.plain, point, target):
        return None
    try:
        a, b = recheck.formula_at(ctx, point), recheck.formula_at(ctx, target)
    except EvalError as exc:
        return Found(recheck.undefined_at(ctx, point, exc))
    if ctx.kind == "p_positions":
        if not (a and b):
            return None
        text = (
            f"The move {tuple(point)} -> {tuple(target)} leads from a claimed P-position to another; "
            "no move can join two P-positions, so the claim is false at one of them or below."
        )
    else:
        if a != b:
            return None
        text = (
            f"The move {tuple(point)} -> {tuple(target)} joins two positions the claim values {a}; "
            "no move can join two positions of equal value."
        )
    actual = recheck.true_position_value(ctx, point, {})
    if actual is not None:
        text += f" The reference value of {tuple(point)} is {actual}."
    cx = Counterexample(
        tuple(point),
        "condition-1",
        text,
        a,
        actual,
        tuple(target),
        True,
        "exact evaluation and the move definition",
    )
    return Found(cx)


def _multi_value_recheck(ctx: ClaimContext, point: list[int]) -> Counterexample | None:
    """Confirm with the reference that the claim is wrong at ``point`` or at a position below it.

    The local conditions can fail at ``point`` while the claim is right there
    and wrong at some position a few moves below; positions reachable from
    ``point`` are searched, smallest first, for the first one where the claim
    and the reference disagree (at most ``RECHECK_POSITIONS`` of them).
    """
    return recheck.first_disagreement(ctx, tuple(point))
