"""z3 bit-vector proofs of the local conditions for every position with heaps below ``2**w``.

For a claimed Grundy function ``F`` (or P-set ``P``) on a domain ``D`` closed
under moves, ``F`` is the Grundy function on ``D`` iff (the local conditions):

1. no move joins two positions of equal claimed value (no move P -> P);
2. every value below ``F(p)`` is reached by a move (every non-P position has
   a move into P); 3. (misère) terminal positions have value 1 / are not P.

Each condition is negated and handed to z3: ``unsat`` proves it on ``D``.
``D`` is the box ``[0, 2**w)^h`` (closed for heap-lowering games) or, for
staircase Nim, the positions with fewer than ``2**w`` coins in all.

Soundness measures:

* terms are computed at a working width ``W > w`` and every operation carries
  a guard (no overflow, no negative intermediate, no zero divisor) from
  :mod:`nimproof.expr.to_z3`; before anything is proved the method asks z3
  whether a guard can fail on ``D`` (for the formula and for a rule's move
  relation) and answers ``unknown`` if it can;
* condition 2's existential is discharged by, in order: the finite list of
  moves (finite subtraction sets: complete), a winning-move witness
  (:mod:`~nimproof.provers.witnesses`; candidates must pass the family's move
  relation, so a wrong witness cannot help a false claim), or a quantified
  formula at small widths;
* a model is never reported as a refutation until it has been re-checked
  with exact integer arithmetic and the family's own move definition
  (:mod:`~nimproof.provers.recheck`); condition-2 models from an incomplete
  witness are re-checked by enumerating the moves, after shrinking the model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict, cast

import z3

from nimproof.errors import EvalError
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.games import Game, HeapGame, OneHeapOfEach, StairToStair, UpToKHeaps
from nimproof.provers import recheck, witnesses
from nimproof.provers.context import ClaimContext
from nimproof.provers.evidence import Candidate, candidate
from nimproof.provers.moves import HeapMoves, heap_move_legal, heap_moves, is_move
from nimproof.provers.solving import Solver, Undecided, all_of, shrink, value_of
from nimproof.verdict import NO_SCOPE, Counterexample, MethodResult, Scope, Status

NAME = "z3_bitvec"


class Options(TypedDict, total=False):
    """Options of the ``z3_bitvec`` method in ``[claim.checks]`` (all optional)."""

    width: int
    """heaps below 2**width"""
    widths: list[int]
    """several widths, tried in ascending order"""
    timeout: float
    """seconds for the solver"""
    witness_candidates: int
    """how many values of j a witness formula is expanded over"""
    quantifier_max_width: int
    """largest width at which condition 2 may use a quantifier"""


DEFAULT_TIMEOUT = 120.0
QUANTIFIER_MAX_WIDTH = 10
SHRINK_ROUNDS = 40
#: Largest position (counted by the positions below it) searched below for a wrong value.
FIRST_DISAGREEMENT_SIZE = 5000


@dataclass
class _Found:
    """A re-checked violation."""

    counterexample: Counterexample


def run(ctx: ClaimContext, options: Options) -> MethodResult:
    """Prove the claim's local conditions at each requested width (ascending)."""
    t0 = time.monotonic()
    widths = options.get("widths") or [options.get("width", 16)]
    if not isinstance(widths, list) or not all(
        isinstance(w, int) and 1 <= w <= 1024 for w in widths
    ):
        return MethodResult(NAME, "unknown", detail="widths must be whole numbers from 1 to 1024")
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    deadline = min(time.monotonic() + timeout, time.monotonic() + max(ctx.time_left(), 0.1))
    solver = Solver(deadline, "QF_BV")
    proved: list[int] = []
    notes: list[str] = []
    measure = "value" if ctx.kind == "identity" else "total" if ctx.staircase else "heap"

    def scope() -> Scope:
        return (
            Scope("width", width=max(proved), measure=measure, heaps=ctx.heaps)
            if proved
            else NO_SCOPE
        )

    # Every width is tried: one that cannot be decided (a constant that does not fit, a
    # solver unknown) skips only itself; a found counterexample ends the run.
    for w in sorted(set(widths)):
        try:
            outcome = _prove(ctx, w, solver, options, notes)
        except Candidate as exc:
            return _result(
                ctx,
                "refuted",
                scope(),
                exc.counterexample,
                f"candidate at width {w}",
                notes,
                solver,
                t0,
            )
        except (Undecided, Unsupported) as exc:
            notes.append(f"width {w}: {exc}")
            if isinstance(exc, Undecided) and str(exc).startswith("time limit"):
                break
            continue
        if isinstance(outcome, _Found):
            return _result(
                ctx,
                "refuted",
                NO_SCOPE,
                outcome.counterexample,
                f"counterexample at width {w}",
                notes,
                solver,
                t0,
            )
        proved.append(w)
    status = "proved" if proved else "unknown"
    return _result(ctx, status, scope(), None, "", notes, solver, t0, proved)


def _result(
    ctx: ClaimContext,
    status: str,
    scope: Scope,
    cx: Counterexample | None,
    head: str,
    notes: list[str],
    solver: Solver,
    t0: float,
    proved: list[int] | None = None,
) -> MethodResult:
    stats: dict[str, Any] = {
        "solver_calls": solver.calls,
        "solver_seconds": round(solver.seconds, 3),
    }
    if proved is not None:
        stats["widths_proved"] = proved
    detail = "; ".join([head, *notes] if head else notes)
    return MethodResult(NAME, cast(Status, status), scope, detail, time.monotonic() - t0, cx, stats)


def _prove(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> _Found | None:
    if ctx.kind == "identity":
        return _identity(ctx, w, solver)
    if ctx.one_heap:
        return _one_heap(ctx, w, solver, options, notes)
    if ctx.kind in ("grundy", "p_positions"):
        return _multi(ctx, w, solver, options, notes)
    raise Unsupported(f"z3_bitvec does not apply to {ctx.kind} claims")


# ---------------------------------------------------------------------------
# identities
# ---------------------------------------------------------------------------


def _identity(ctx: ClaimContext, w: int, solver: Solver) -> _Found | None:
    assert ctx.formula is not None
    width = w + 2
    xs = {name: z3.BitVec(name, width) for name in ctx.claim.variables}
    dom = [z3.ULT(x, z3.BitVecVal(1 << w, width)) for x in xs.values()]
    c = compile_bv(ctx.formula, {**xs, **ctx.params}, width)
    query = [*dom, z3.Or(z3.Not(c.term), z3.Not(all_of(list(c.guards))))]
    model = solver.check(*query)
    if model is None:
        return None
    # Shrink: look for a model whose largest variable is smaller.
    for _ in range(SHRINK_ROUNDS):
        biggest = max(value_of(model, x) for x in xs.values())
        if biggest == 0:
            break
        smaller = solver.check(
            *query, *[z3.ULT(x, z3.BitVecVal(biggest, width)) for x in xs.values()]
        )
        if smaller is None:
            break
        model = smaller
    point = {name: value_of(model, x) for name, x in xs.items()}
    try:
        holds = bool(recheck.formula_at(ctx, point))
    except EvalError as exc:
        return _Found(recheck.undefined_at(ctx, point, exc))
    if holds:
        raise Undecided(
            f"the formula leaves the {width}-bit range at {point}; cannot decide at this width"
        )
    text = f"The identity is false at {recheck.describe_position(ctx, point)}."
    return _Found(
        Counterexample(point, "identity", text, True, False, None, True, "exact integer evaluation")
    )


# ---------------------------------------------------------------------------
# one heap
# ---------------------------------------------------------------------------


def _one_heap(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> _Found | None:
    base = ctx.heap_game
    assert base is not None and ctx.formula is not None
    hm = heap_moves(base)
    if hm is None:
        raise Unsupported(f"{base.spec} has no symbolic move rule (splitting or infinite set)")
    width = w + 4 + max(3, max(hm.takes or (1,)).bit_length())
    top = z3.BitVecVal(1 << w, width)
    n, m, v = z3.BitVec("n", width), z3.BitVec("m", width), z3.BitVec("v", width)

    formula = ctx.formula

    def F(x: z3.BitVecRef) -> tuple[z3.BitVecRef, z3.BoolRef]:
        c = compile_bv(formula, {"n": x, **ctx.params}, width)
        return c.term, all_of(list(c.guards))

    fn, gn = F(n)
    dom = z3.ULT(n, top)
    # The formula must be exact on the whole domain.
    model = solver.check(dom, z3.Not(gn))
    if model is not None:
        raise Undecided(f"the formula leaves the {width}-bit range at n = {value_of(model, n)}")

    relation = hm.relation

    def legal(a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BoolRef:
        assert relation is not None
        c = compile_bv(relation, {"n": a, "m": b}, width)
        return z3.And(z3.ULT(b, a), c.term, all_of(list(c.guards)))

    if relation is not None:
        rel = compile_bv(relation, {"n": n, "m": m}, width)
        model = solver.check(dom, z3.ULT(m, n), z3.Not(all_of(list(rel.guards))))
        if model is not None:
            raise Undecided(
                f"the move rule leaves the {width}-bit range at n = {value_of(model, n)}"
            )

    def option_pairs(a: z3.BitVecRef) -> list[tuple[z3.BoolRef, z3.BitVecRef]]:
        assert hm.takes is not None
        return [(z3.UGE(a, t), a - t) for t in hm.takes if t < (1 << w)]

    # Condition 1: no move between positions of equal claimed value.
    if hm.takes is not None:
        c1 = (
            z3.Or(*[z3.And(ok, F(q)[0] == fn) for ok, q in option_pairs(n)])
            if option_pairs(n)
            else z3.BoolVal(False)
        )
        model = solver.check(dom, c1)
        if model is not None:
            found = _one_heap_cond1(
                ctx,
                base,
                hm,
                solver,
                [dom, c1],
                n,
                None,
                width,
                lambda md: next(
                    value_of(md, q)
                    for ok, q in option_pairs(n)
                    if z3.is_true(md.eval(ok)) and value_of(md, F(q)[0]) == value_of(md, fn)
                ),
            )
            if found:
                return found
            raise Undecided("condition 1 model did not re-check")
    else:
        c1 = z3.And(legal(n, m), F(m)[0] == fn)
        model = solver.check(dom, c1)
        if model is not None:
            found = _one_heap_cond1(ctx, base, hm, solver, [dom, c1], n, m, width, None)
            if found:
                return found
            raise Undecided("condition 1 model did not re-check")

    # Misère: terminal heaps have value 1; the mex conditions apply to the others.
    terminal: z3.BoolRef = z3.BoolVal(False)
    if ctx.misere:
        if hm.terminal is None:
            raise Unsupported(
                "no formula for the terminal heaps of this rule (needed in misère play)"
            )
        ct = compile_bv(hm.terminal, {"n": n}, width)
        terminal = ct.term
        model = solver.check(dom, terminal, fn != 1)
        if model is not None:
            k = _shrink(solver, [dom, terminal, fn != 1], n, width)
            cx = recheck.heap_counterexample(ctx, k, "reference implementation")
            if cx is not None:
                return _Found(cx)
            raise Candidate(
                candidate(
                    k,
                    "terminal",
                    f"Heap {k} has no move but the claim does not give it value 1.",
                    None,
                )
            )

    # Condition 2: every smaller value is reached.
    if hm.takes is not None:
        reach = (
            z3.Or(*[z3.And(ok, F(q)[0] == v) for ok, q in option_pairs(n)])
            if option_pairs(n)
            else z3.BoolVal(False)
        )
        complete = True
        how = "finite list of moves"
    elif ctx.witness is not None:
        cands = []
        count = int(options.get("witness_candidates", width))
        for j in range(max(1, min(count, 4 * width))):
            c = compile_bv(ctx.witness, {"n": n, "v": v, "j": j, **ctx.params}, width)
            target = c.term
            ft, gt = F(target)
            cands.append(z3.And(all_of(list(c.guards)), legal(n, target), gt, ft == v))
        reach = z3.Or(*cands)
        complete = False
        how = f"witness {ctx.claim.witness!r} expanded over j = 0..{len(cands) - 1}"
    else:
        if w > int(options.get("quantifier_max_width", QUANTIFIER_MAX_WIDTH)):
            raise Unsupported(
                f"no witness: condition 2 needs a quantifier, tried only up to width "
                f"{options.get('quantifier_max_width', QUANTIFIER_MAX_WIDTH)}"
            )
        reach = z3.Exists([m], z3.And(legal(n, m), F(m)[0] == v))
        complete = True
        how = "quantified formula"
    query = [dom, z3.Not(terminal), z3.ULT(v, fn), z3.Not(reach)]
    quantified = how == "quantified formula"
    model = solver.check(*query, quantified=quantified)
    _note(notes, f"condition 2 by {how}")
    if model is None:
        return None
    k = _shrink(solver, query, n, width, quantified)
    cx = recheck.heap_counterexample(ctx, k, "reference implementation")
    if cx is not None:
        return _Found(cx)
    how_found = "z3 finds" if complete else "the witness finds"
    raise Candidate(
        candidate(
            k,
            "condition-2",
            f"At heap {k} {how_found} no move to a heap with some smaller claimed value.",
        )
    )


def _note(notes: list[str], text: str) -> bool:
    if text not in notes:
        notes.append(text)
    return True


def _shrink(
    solver: Solver, query: list[z3.BoolRef], n: z3.BitVecRef, width: int, quantified: bool = False
) -> int:
    """The smallest ``n`` satisfying ``query`` that a bounded binary search finds."""
    return shrink(
        solver, query, n, lambda k: z3.ULE(n, z3.BitVecVal(k, width)), SHRINK_ROUNDS, quantified
    )


def _one_heap_cond1(
    ctx: ClaimContext,
    base: HeapGame,
    hm: HeapMoves,
    solver: Solver,
    query: list[z3.BoolRef],
    n: z3.BitVecRef,
    m: z3.BitVecRef | None,
    width: int,
    pick: Callable[[z3.ModelRef], int] | None,
) -> _Found | None:
    k = _shrink(solver, query, n, width)
    model = solver.check(*query, n == k)
    assert model is not None
    if m is not None:
        target = value_of(model, m)
    else:
        assert pick is not None
        target = pick(model)
    # Re-check with exact arithmetic and the family's own definition of a move.
    if not heap_move_legal(base, k, target):
        return None
    try:
        a, b = int(recheck.formula_at(ctx, k)), int(recheck.formula_at(ctx, target))
    except EvalError as exc:
        return _Found(recheck.undefined_at(ctx, k, exc))
    if a != b:
        return None
    actual = recheck.true_heap_value(ctx, k)
    text = (
        f"The move {k} -> {target} joins two heaps the claim values {a}; a heap's value differs from "
        f"the value of every heap it can move to, so the claim is false at {k} or below."
    )
    if actual is not None:
        text += f" The true value of heap {k} is {actual}."
    return _Found(
        Counterexample(
            k, "condition-1", text, a, actual, target, True, "exact evaluation and the move rule"
        )
    )


# ---------------------------------------------------------------------------
# several heaps
# ---------------------------------------------------------------------------


@dataclass
class _MultiGame:
    """Symbolic moves of a multi-heap game: relation, terminal test, complete move list if finite."""

    move: Callable[[list[z3.BitVecRef], list[z3.BitVecRef]], z3.BoolRef]
    terminal: Callable[[list[z3.BitVecRef]], z3.BoolRef]
    finite: Callable[[list[z3.BitVecRef]], list[tuple[list[z3.BitVecRef], z3.BoolRef]]] | None
    plain: Game  # the game whose move definition re-checks a move (is_move)


def _multi_game(ctx: ClaimContext, width: int) -> _MultiGame:
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


def _multi(
    ctx: ClaimContext, w: int, solver: Solver, options: Mapping[str, Any], notes: list[str]
) -> _Found | None:
    assert ctx.formula is not None
    h = ctx.heap_count
    if h is None:
        raise Unsupported("a multi-heap claim needs a heap count")
    ctx_heaps = h
    width = w + 4 + ctx_heaps.bit_length()
    staircase = ctx.staircase
    mg = _multi_game(_with_heaps(ctx, ctx_heaps), width)
    p = [z3.BitVec(f"p{i}", width) for i in range(ctx_heaps)]
    q = [z3.BitVec(f"q{i}", width) for i in range(ctx_heaps)]
    v = z3.BitVec("v", width)
    top = z3.BitVecVal(1 << w, width)
    if staircase:
        total = p[0]
        for x in p[1:]:
            total = total + x
        # Every pile is below 2**w too, so with 4 + log2(h) spare bits the sum cannot wrap.
        dom = z3.And(z3.ULT(total, top), *[z3.ULT(x, top) for x in p])
    else:
        dom = z3.And(*[z3.ULT(x, top) for x in p])

    formula = ctx.formula

    def F(pos: list[z3.BitVecRef]) -> tuple[z3.ExprRef, z3.BoolRef]:
        c = compile_bv(formula, {"h": pos, **ctx.params}, width)
        return c.term, all_of(list(c.guards))

    fp, gp = F(p)
    model = solver.check(dom, z3.Not(gp))
    if model is not None:
        raise Undecided(
            f"the formula leaves the {width}-bit range at {[value_of(model, x) for x in p]}"
        )
    fq, _ = F(q)
    is_p_claim = ctx.kind == "p_positions"

    def shrink_and_point(
        query: list[z3.BoolRef], quantified: bool = False
    ) -> tuple[list[int], z3.ModelRef]:
        model = solver.check(*query, quantified=quantified)
        assert model is not None
        for _ in range(SHRINK_ROUNDS):
            size = sum(value_of(model, x) for x in p)
            if size == 0:
                break
            wide = [z3.ZeroExt(8, x) for x in p]
            s = wide[0]
            for x in wide[1:]:
                s = s + x
            try:
                smaller = solver.check(
                    *query, z3.ULT(s, z3.BitVecVal(size, width + 8)), quantified=quantified
                )
            except Undecided:
                break
            if smaller is None:
                break
            model = smaller
        return [value_of(model, x) for x in p], model

    # Condition 1.
    c1 = z3.And(fp, fq) if is_p_claim else (fq == fp)
    query = [dom, mg.move(p, q), c1]
    if solver.check(*query) is not None:
        point, model = shrink_and_point(query)
        target = [value_of(model, x) for x in q]
        found = _multi_cond1(ctx, mg, point, target)
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

    terminal = mg.terminal(p) if ctx.misere else z3.BoolVal(False)
    if ctx.misere:
        bad_terminal = z3.And(dom, terminal, fp if is_p_claim else (fp != 1))
        if solver.check(bad_terminal) is not None:
            point, _ = shrink_and_point([bad_terminal])
            cx = _multi_value_recheck(ctx, point)
            if cx is not None:
                return _Found(cx)
            raise Candidate(
                candidate(
                    tuple(point), "terminal", f"The terminal position {tuple(point)} is misvalued."
                )
            )

    # Condition 2.
    candidates: list[tuple[list[z3.BitVecRef], z3.BoolRef]]
    complete = False
    if mg.finite is not None:
        candidates = mg.finite(p)
        complete = True
        how = "finite list of moves"
    elif ctx.witness_name in ("nim", "misere-nim", "moore", "staircase"):
        candidates = _builtin_candidates(ctx, p, fp if not is_p_claim else None, v)
        how = f"witness {ctx.witness_name!r}"
    else:
        if w > int(options.get("quantifier_max_width", QUANTIFIER_MAX_WIDTH)):
            raise Unsupported(
                "no witness: condition 2 needs a quantifier over moves; tried only up to width "
                f"{options.get('quantifier_max_width', QUANTIFIER_MAX_WIDTH)}"
            )
        candidates = []
        how = "quantified formula"
    goal: Callable[[list[z3.BitVecRef]], z3.BoolRef]
    if is_p_claim:

        def goal(pos: list[z3.BitVecRef]) -> z3.BoolRef:
            f, g = F(pos)
            return z3.And(g, f)

        need = z3.Not(fp)
    else:

        def goal(pos: list[z3.BitVecRef]) -> z3.BoolRef:
            f, g = F(pos)
            return z3.And(g, f == v)

        need = z3.ULT(v, fp)
    if candidates:
        reach = z3.Or(*[z3.And(ok, mg.move(p, c), goal(c)) for c, ok in candidates])
    else:
        reach = z3.Exists(q, z3.And(mg.move(p, q), goal(q)))
    _note(notes, f"condition 2 by {how}")
    query = [dom, z3.Not(terminal), need, z3.Not(reach)]
    quantified = not candidates
    if solver.check(*query, quantified=quantified) is None:
        return None
    point, _ = shrink_and_point(query, quantified)
    cx = _multi_value_recheck(ctx, point)
    if cx is not None:
        return _Found(cx)
    how_found = "z3 finds" if complete else f"the witness {ctx.witness_name!r} finds"
    raise Candidate(
        candidate(
            tuple(point),
            "condition-2",
            f"At {tuple(point)} {how_found} no move that the claim's conditions need.",
        )
    )


def _with_heaps(ctx: ClaimContext, h: int) -> ClaimContext:
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
) -> _Found | None:
    if not is_move(mg.plain, point, target):
        return None
    try:
        a, b = recheck.formula_at(ctx, point), recheck.formula_at(ctx, target)
    except EvalError as exc:
        return _Found(recheck.undefined_at(ctx, point, exc))
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
    return _Found(cx)


def _multi_value_recheck(ctx: ClaimContext, point: list[int]) -> Counterexample | None:
    """Confirm with the reference that the claim is wrong at ``point`` or at a position below it.

    The local conditions can fail at ``point`` while the claim is right there
    and wrong at some position a few moves below; positions reachable from
    ``point`` are searched, smallest first, for the first one where the claim
    and the reference disagree (at most ``RECHECK_POSITIONS`` of them).
    """
    from nimproof.provers import evidence

    found = evidence.wrong_at(ctx, tuple(point))
    if found is not None or ctx.game is None:
        return found
    if recheck.position_count(ctx.game, point) > FIRST_DISAGREEMENT_SIZE:
        return found
    return recheck.first_disagreement(ctx, tuple(point))
