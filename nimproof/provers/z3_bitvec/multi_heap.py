"""z3 bit-vector proofs of multi-heap claims: the local conditions on every position with heaps
below ``2**w`` (for staircase Nim: fewer than ``2**w`` coins in all).

The game's moves are a symbolic relation built from its move description
(:func:`multi_game`): sums of one-heap rules, Moore's Nim_k, staircase Nim.
The steps mirror the one-heap proof: the formula exact on the domain,
condition 1, terminal positions in misère play, condition 2 (by the finite
list of moves, a built-in winning-move witness, or a quantifier at small
widths). A violation is shrunk to a small total size and re-checked with
the family's own moves and the reference implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.games import (
    Game,
    GameDescription,
    HeapGame,
    MoveDescription,
    StairToStair,
    UpToKHeaps,
)
from nimproof.provers import deadline, recheck, settle, witnesses
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import HeapMoves, heap_moves, is_move
from nimproof.provers.settle import Candidate, candidate
from nimproof.provers.solving import Solver, Undecided, all_of, value_of
from nimproof.provers.z3_bitvec.common import (
    SHRINK_ROUNDS,
    Found,
    heap_move,
    heap_moves_each,
    note,
    require_quantifier_width,
)
from nimproof.verdict import Counterexample

#: Largest position (counted by the positions below it) searched below for a wrong value.
FIRST_DISAGREEMENT_SIZE = 5000

Position = list[z3.BitVecRef]


@dataclass
class MultiGame:
    """Symbolic moves of a multi-heap game: relation, terminal test, complete move list if finite."""

    move: Callable[[Position, Position], z3.BoolRef]
    terminal: Callable[[Position], z3.BoolRef]
    finite: Callable[[Position], list[tuple[Position, z3.BoolRef]]] | None
    plain: Game  # the game whose move definition re-checks a move (is_move)


def multi_game(ctx: ClaimContext, width: int) -> MultiGame:
    """The symbolic moves of the claim's game, from its description."""
    game = ctx.game
    assert game is not None
    described = ctx.description if ctx.description and ctx.description.game is game else None
    return _symbolic(game.moves_spec, game, ctx.heaps or 0, width, described)


@singledispatch
def _symbolic(
    spec: MoveDescription, game: Game, h: int, width: int, described: GameDescription | None
) -> MultiGame:
    """A sum of one-heap rules (from the description's parts: ``described``, the claim's
    game description, when it lists them for this many heaps); other descriptions have none."""
    if described is not None:
        fixed = described.fixed_heaps
        along = fixed if fixed is not None else h
        components = described.parts if described.parts_heaps == along else spec.parts(game, along)
    else:
        fixed = spec.heap_count()
        components = spec.parts(game, fixed if fixed is not None else h)
    if components is None:
        raise Unsupported(f"no symbolic moves for {game.spec}")
    return _sum_game(game, list(components), len(components), width)


@_symbolic.register
def _(
    spec: UpToKHeaps, game: Game, h: int, width: int, described: GameDescription | None
) -> MultiGame:
    return _moore_game(game, spec.k, h)


@_symbolic.register
def _(
    spec: StairToStair, game: Game, h: int, width: int, described: GameDescription | None
) -> MultiGame:
    return _staircase_game(game, h)


def with_heaps(ctx: ClaimContext, h: int) -> ClaimContext:
    """``ctx`` with its claim's heap count set to ``h``."""
    if ctx.heaps == h:
        return ctx
    return replace(ctx, claim=replace(ctx.claim, heaps=h))


def _all_zero(p: Position) -> z3.BoolRef:
    return z3.And(*[x == 0 for x in p])


def _moore_game(game: Game, k: int, h: int) -> MultiGame:
    """Moore's Nim_k: 1..k heaps lowered, none raised."""

    def moore_move(p: Position, q: Position) -> z3.BoolRef:
        lowered = [
            z3.If(z3.ULT(q[i], p[i]), z3.BitVecVal(1, 8), z3.BitVecVal(0, 8)) for i in range(h)
        ]
        count = lowered[0]
        for x in lowered[1:]:
            count = count + x
        return z3.And(*[z3.ULE(q[i], p[i]) for i in range(h)], z3.UGE(count, 1), z3.ULE(count, k))

    return MultiGame(moore_move, _all_zero, None, game.normal)


def _staircase_game(game: Game, h: int) -> MultiGame:
    """Staircase Nim: coins carried from stair i to stair i - 1 (or off the first stair)."""

    def stair_move(p: Position, q: Position) -> z3.BoolRef:
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

    return MultiGame(stair_move, _all_zero, None, game.normal)


def _sum_game(game: Game, components: list[HeapGame], h: int, width: int) -> MultiGame:
    """A sum of non-splitting heap rules: a move changes exactly one heap by its rule."""
    by_spec: dict[str, HeapMoves] = {}  # each distinct rule's solver view, asked once
    for comp in components:
        if comp.spec not in by_spec:
            hm = heap_moves(comp)
            if hm is None:
                raise Unsupported(f"{comp.spec} has no symbolic move rule")
            by_spec[comp.spec] = hm
    views = [by_spec[comp.spec] for comp in components]

    def sum_move(p: Position, q: Position) -> z3.BoolRef:
        moves = heap_moves_each(views, p, q, width)
        return z3.Or(
            *[z3.And(moves[i], *[q[j] == p[j] for j in range(h) if j != i]) for i in range(h)]
        )

    def sum_terminal(p: Position) -> z3.BoolRef:
        parts = []
        for i, hm in enumerate(views):
            if hm.terminal is None:
                raise Unsupported(f"no formula for the terminal heaps of {components[i].spec}")
            parts.append(compile_bv(hm.terminal, {"n": p[i]}, width).term)
        return z3.And(*parts)

    finite = None
    if all(hm.takes is not None for hm in views):

        def finite_moves(p: Position) -> list[tuple[Position, z3.BoolRef]]:
            out = []
            for i, hm in enumerate(views):
                for t in hm.takes or ():
                    q = list(p)
                    q[i] = p[i] - t
                    out.append((q, z3.UGE(p[i], t)))
            return out

        finite = finite_moves
    return MultiGame(sum_move, sum_terminal, finite, game.normal)


@dataclass
class _Box:
    """The symbolic multi-heap problem at one width: position ``p``, move target ``q``."""

    ctx: ClaimContext
    mg: MultiGame
    h: int
    w: int
    width: int
    solver: Solver

    def __post_init__(self) -> None:
        self.p = [z3.BitVec(f"p{i}", self.width) for i in range(self.h)]
        self.q = [z3.BitVec(f"q{i}", self.width) for i in range(self.h)]
        self.v = z3.BitVec("v", self.width)
        top = z3.BitVecVal(1 << self.w, self.width)
        if self.ctx.staircase:
            total = self.p[0]
            for x in self.p[1:]:
                total = total + x
            # Every pile is below 2**w too, so with 4 + log2(h) spare bits the sum cannot wrap.
            self.dom = z3.And(z3.ULT(total, top), *[z3.ULT(x, top) for x in self.p])
        else:
            self.dom = z3.And(*[z3.ULT(x, top) for x in self.p])
        self.fp, self.gp = self.F(self.p)
        self.is_p_claim = self.ctx.spec.states_p_positions

    def F(self, pos: Position) -> tuple[z3.ExprRef, z3.BoolRef]:
        """The claimed value (or P-membership) at ``pos`` and the guard that it is exact."""
        assert self.ctx.formula is not None
        c = compile_bv(self.ctx.formula, {"h": pos, **self.ctx.params}, self.width)
        return c.term, all_of(list(c.guards))

    def goal(self, pos: Position) -> z3.BoolRef:
        """``pos`` is what condition 2 needs a move into: a P-position, or a position of value ``v``."""
        f, g = self.F(pos)
        return z3.And(g, f) if self.is_p_claim else z3.And(g, f == self.v)

    def smallest(
        self, query: list[z3.BoolRef], quantified: bool = False
    ) -> tuple[list[int], z3.ModelRef]:
        """A model of ``query`` with a small total size (a bounded search), and its position."""
        model = self.solver.check(*query, quantified=quantified)
        assert model is not None
        for _ in range(SHRINK_ROUNDS):
            size = sum(value_of(model, x) for x in self.p)
            if size == 0:
                break
            wide = [z3.ZeroExt(8, x) for x in self.p]
            s = wide[0]
            for x in wide[1:]:
                s = s + x
            try:
                smaller = self.solver.check(
                    *query, z3.ULT(s, z3.BitVecVal(size, self.width + 8)), quantified=quantified
                )
            except Undecided:
                break
            if smaller is None:
                break
            model = smaller
        return [value_of(model, x) for x in self.p], model


def prove_multi(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """None when the local conditions hold on every position of the domain at width ``w``.

    A violation re-checked by the reference is returned; one that is not
    raises :class:`Candidate`; a width the terms do not fit raises
    :class:`Undecided`, a game without symbolic moves :class:`Unsupported`.
    """
    B = _problem(ctx, w, solver)
    found = _condition_1(B)
    if found is not None:
        return found
    terminal = B.mg.terminal(B.p) if ctx.misere else z3.BoolVal(False)
    if ctx.misere and (found := _terminal_values(B, terminal)) is not None:
        return found
    return _condition_2(B, terminal, options, notes)


def _problem(ctx: ClaimContext, w: int, solver: Solver) -> _Box:
    """The symbolic problem, once the formula is exact on the domain."""
    assert ctx.formula is not None
    h = ctx.heap_count
    if h is None:
        raise Unsupported("a multi-heap claim needs a heap count")
    width = w + 4 + h.bit_length()
    B = _Box(ctx, multi_game(with_heaps(ctx, h), width), h, w, width, solver)
    model = solver.check(B.dom, z3.Not(B.gp))
    if model is not None:
        raise Undecided(
            f"the formula leaves the {width}-bit range at {[value_of(model, x) for x in B.p]}"
        )
    return B


def _condition_1(B: _Box) -> Found | None:
    """Condition 1: no move between two claimed P-positions, or two positions of equal value."""
    fq, _ = B.F(B.q)
    c1 = z3.And(B.fp, fq) if B.is_p_claim else (fq == B.fp)
    query = [B.dom, B.mg.move(B.p, B.q), c1]
    if B.solver.check(*query) is None:
        return None
    point, model = B.smallest(query)
    target = [value_of(model, x) for x in B.q]
    found = _recheck_condition_1(B.ctx, B.mg, point, target)
    if found:
        return found
    raise Candidate(
        candidate(
            tuple(point),
            "condition-1",
            f"z3 finds the move {tuple(point)} -> {tuple(target)} between equal claimed values.",
            move=tuple(target),
        )
    )


def _terminal_values(B: _Box, terminal: z3.BoolRef) -> Found | None:
    """Misère: terminal positions have value 1 (are not P-positions)."""
    bad_terminal = z3.And(B.dom, terminal, B.fp if B.is_p_claim else (B.fp != 1))
    if B.solver.check(bad_terminal) is None:
        return None
    point, _ = B.smallest([bad_terminal])
    cx = _value_recheck(B.ctx, point)
    if cx is not None:
        return Found(cx)
    raise Candidate(
        candidate(tuple(point), "terminal", f"The terminal position {tuple(point)} is misvalued.")
    )


def _candidates(
    B: _Box, options: Mapping[str, Any]
) -> tuple[list[tuple[Position, z3.BoolRef]], bool, str]:
    """Condition 2's candidate moves (none: a quantifier), whether they are complete, and how."""
    ctx = B.ctx
    if B.mg.finite is not None:
        return B.mg.finite(B.p), True, "finite list of moves"
    if ctx.witness_name in ("nim", "misere-nim", "moore", "staircase"):
        cands = _builtin_candidates(ctx, B.p, B.fp if not B.is_p_claim else None, B.v)
        return cands, False, f"witness {ctx.witness_name!r}"
    require_quantifier_width(B.w, options, "a quantifier over moves")
    return [], False, "quantified formula"


def _condition_2(
    B: _Box, terminal: z3.BoolRef, options: Mapping[str, Any], notes: list[str]
) -> Found | None:
    """Condition 2: every non-P position moves into P; every smaller value is reached."""
    candidates, complete, how = _candidates(B, options)
    need = z3.Not(B.fp) if B.is_p_claim else z3.ULT(B.v, B.fp)
    if candidates:
        reach = z3.Or(*[z3.And(ok, B.mg.move(B.p, c), B.goal(c)) for c, ok in candidates])
    else:
        reach = z3.Exists(B.q, z3.And(B.mg.move(B.p, B.q), B.goal(B.q)))
    note(notes, f"condition 2 by {how}")
    query = [B.dom, z3.Not(terminal), need, z3.Not(reach)]
    quantified = not candidates
    if B.solver.check(*query, quantified=quantified) is None:
        return None
    point, _ = B.smallest(query, quantified)
    cx = _value_recheck(B.ctx, point)
    if cx is not None:
        return Found(cx)
    how_found = "z3 finds" if complete else f"the witness {B.ctx.witness_name!r} finds"
    raise Candidate(
        candidate(
            tuple(point),
            "condition-2",
            f"At {tuple(point)} {how_found} no move that the claim's conditions need.",
        )
    )


def _builtin_candidates(
    ctx: ClaimContext, p: Position, fp: z3.ExprRef | None, v: z3.BitVecRef
) -> list[tuple[Position, z3.BoolRef]]:
    name = ctx.witness_name
    if name == "nim":
        target = None if fp is None else (fp ^ v)
        return witnesses.nim(p, target)
    if name == "misere-nim":
        return witnesses.misere_nim(p)
    if name == "staircase":
        return witnesses.staircase(p)
    if name == "moore":
        game = ctx.game
        if game is None or witnesses.witness_of(game) != "moore":
            raise Unsupported("the 'moore' witness needs a moore:K game")
        return witnesses.moore(p, _moore_k(game.moves_spec))
    raise Unsupported(f"unknown witness {name!r}")


def _recheck_condition_1(
    ctx: ClaimContext, mg: MultiGame, point: list[int], target: list[int]
) -> Found | None:
    """The move ``point -> target`` between equal claims, re-checked exactly; None if it is not."""
    if not is_move(mg.plain, point, target):
        return None
    try:
        a, b = recheck.formula_at(ctx, point), recheck.formula_at(ctx, target)
    except EvalError as exc:
        return Found(settle.undefined_at(ctx, point, exc))
    if ctx.spec.states_p_positions:
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
    how = "exact evaluation and the move definition"
    cx = settle.move_joins(ctx, tuple(point), tuple(target), text, how)
    return None if cx is None else Found(cx)


def _value_recheck(ctx: ClaimContext, point: list[int]) -> Counterexample | None:
    """Confirm with the reference that the claim is wrong at ``point`` or at a position below it.

    The local conditions can fail at ``point`` while the claim is right there
    and wrong at some position a few moves below; positions reachable from
    ``point`` are searched, smallest first, for the first one where the claim
    and the reference disagree (at most ``FIRST_DISAGREEMENT_SIZE`` of them).
    """
    found = settle.wrong_at(ctx, tuple(point))
    if found is not None or ctx.game is None:
        return found
    if recheck.position_count(ctx.game, point) > FIRST_DISAGREEMENT_SIZE:
        return found
    return settle.first_disagreement(ctx, tuple(point))


@singledispatch
def _moore_k(spec: MoveDescription) -> int:
    raise Unsupported("the 'moore' witness needs a moore:K game")


@_moore_k.register
def _(spec: UpToKHeaps) -> int:
    return spec.k


def no_move_into(ctx: ClaimContext, x: Any, value: int | None) -> bool:
    """True when z3 shows, on the concrete position ``x`` (a heap, or heaps), that no legal
    move reaches a position the claim calls P (``value`` None) or values ``value``: the
    move relation of the claim's game and the claim at the target, in one query (unsat).
    False when z3 finds such a move, cannot decide, or the rule has no symbolic form."""
    assert ctx.formula is not None
    values = [int(x)] if ctx.one_heap else [int(a) for a in x]
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
            c = compile_bv(ctx.formula, {"n": q[0], **ctx.params}, width, ctx.constants)
        else:
            move = multi_game(with_heaps(ctx, h), width).move(p, q)
            c = compile_bv(ctx.formula, {"h": q, **ctx.params}, width, ctx.constants)
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
    deadline.check(ctx.deadline, "re-checking a counterexample with z3")
    return max(1, int(1000 * min(30.0, ctx.time_left())))
