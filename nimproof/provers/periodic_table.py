"""The periodic-table reduction and Sprague–Grundy composition: all-n proofs from a proved period.

When a heap game's table is proved (ultimately, arithmetic-)periodic by a
theorem of :mod:`nimproof.theory.periodicity`, every claim about single heaps reduces to
a finite check:

* ``grundy`` on one heap, formula ``f``: with ``g(n + p) = g(n) + s`` for
  ``n >= n0`` (proved), let ``L`` be a common multiple of ``p`` and of every
  constant modulus or divisor in ``f`` and ``S = s L / p``. z3 proves over the
  integers that ``f(n + L) = f(n) + S`` for every ``n >= M`` (and that ``f``
  is defined at ``n + L`` exactly where it is at ``n``); then ``f = g`` on
  ``0 <= n < M + L`` (``M >= n0``) gives ``f = g`` for every ``n``, by
  induction on ``n``.
* ``p_positions`` on one heap: the same with the zero set of ``g`` (periodic
  with period ``p`` from ``n0``; with a saltus ``s > 0`` it is empty from
  ``n0 + p`` on) and the predicate.
* ``p_positions`` on several heaps of periodic families (a ``sum:`` game, or
  several heaps of one family): by Sprague–Grundy a position is P iff the
  xor of the heaps' values is 0; z3 proves the predicate periodic in each
  heap separately, and the box of residues is checked against the xor of the
  tables.
* ``sum_rule``: the value of a disjunctive sum of normal-play heap games is
  the xor of the parts' values (Sprague–Grundy, docs/theorems.md: condition 1 is each
  part's mex, condition 2 the xor lemma). It is reported for every position
  when each part is non-splitting or has a proved period, so that every
  part's value is determined for every heap.

The table is computed by the engine and compared with the reference
implementation over everything the theorem's window reads; values beyond
it follow from the proved periodicity. Refutations are re-checked by the
reference implementation before they are reported. A formula outside the
integer fragment (bitwise operations) gives ``unknown``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict

import numpy as np
import z3

from nimproof import certificates, tables
from nimproof.engines import reference
from nimproof.errors import EvalError
from nimproof.expr import evaluate_array
from nimproof.expr.nodes import Binary, Call, Const, Node, walk_tree
from nimproof.expr.to_z3 import Unsupported, compile_int
from nimproof.games import HeapGame
from nimproof.provers import recheck, settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.solving import Solver, Undecided, value_of
from nimproof.theory.periodicity import (
    Relation,
    Unproved,
    check,
    extend,
    find_periodicity,
    has_theorem,
    theorem_for,
    value_at,
)
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "periodic_table"
#: Heaps computed to look for a period (the ``max_n`` option overrides it).
DEFAULT_MAX_N = 3000
#: Most heaps the reduction evaluates a formula on (the preperiod and one period).
MAX_TABLE = 1 << 22
#: Largest window the reference implementation is asked to confirm, by kind of game.
REFERENCE_LIMIT_SPLITTING = 3000
REFERENCE_LIMIT = 200_000
#: Largest box of residues checked for a multi-heap claim.
MAX_BOX = 4_000_000
#: Tries at a later start ``M`` when the formula's own periodicity fails early.
START_TRIES = 4
DEFAULT_TIMEOUT = 30.0


class Options(TypedDict, total=False):
    """Options of the ``periodic_table`` method in ``[claim.checks]`` (all optional)."""

    max_n: int
    """heaps computed to look for the game's period (default 3000)"""
    timeout: float
    """seconds for the z3 queries that prove the formula's own periodicity"""


class NotApplicable(Exception):
    """The reduction does not apply; the message says why (an ``unknown`` answer)."""


class _Refuted(Exception):
    """A re-checked counterexample found while proving the formula's own periodicity."""

    def __init__(self, cx: Counterexample) -> None:
        super().__init__(cx.explanation)
        self.cx = cx


@dataclass(frozen=True)
class PeriodFact:
    """``g(n + period) = g(n) + saltus`` for every ``n >= preperiod``, proved by ``theorem``.

    ``base`` holds the reference-confirmed values of heaps ``0 .. len(base)-1``
    (at least ``preperiod + period``).
    """

    spec: str
    period: int
    preperiod: int
    saltus: int
    theorem: str
    base: tuple[int, ...]

    def value(self, n: int) -> int:
        """``g(n)`` for any ``n`` (from the base values and the proved relation)."""
        return value_at(self.base, Relation(self.period, self.preperiod, self.saltus), n)

    def values(self, count: int) -> np.ndarray:
        """``g(0 .. count-1)`` as an array."""
        return extend(self.base, Relation(self.period, self.preperiod, self.saltus), count)

    def describe(self) -> str:
        """The fact in words."""
        plus = f" + {self.saltus}" if self.saltus else ""
        return f"{self.spec}: g(n + {self.period}) = g(n){plus} for n >= {self.preperiod} ({self.theorem})"


def proved_periodicity(game: HeapGame, max_n: int = DEFAULT_MAX_N) -> PeriodFact | str:
    """The least periodicity seen in ``game``'s table, proved by a theorem; else the reason why not."""
    return _proved_periodicity(game, max_n)


@lru_cache(maxsize=256)
def _proved_periodicity(game: HeapGame, max_n: int) -> PeriodFact | str:
    if game.misere:
        return f"{game.spec} is played misère; the periodicity theorems are about normal play"
    if not has_theorem(game):
        return f"no periodicity theorem covers {game.spec}"
    table = np.asarray(tables.heap_values(game, max_n)[: max_n + 1], dtype=np.int64)
    found = find_periodicity(table)
    if found is None:
        return f"no period seen in the table of {game.spec} up to n = {max_n}"
    p, n0, s = found
    theorem = theorem_for(game, p, n0, s)
    if theorem is None:
        return f"no periodicity theorem applies to {game.spec} with saltus {s}"
    needs = max(theorem.needs, n0 + p + 1)
    limit = REFERENCE_LIMIT_SPLITTING if game.splits else REFERENCE_LIMIT
    if needs > limit:
        return f"the theorem's window needs {needs} values, beyond the reference limit {limit}"
    if needs > len(table):
        table = np.asarray(tables.heap_values(game, needs)[: needs + 1], dtype=np.int64)
    ref = reference.heap_table(game, needs - 1)
    if recheck.table_mismatch(table, ref) is not None:
        return f"engine and reference tables of {game.spec} disagree below {needs}"
    proved = check(theorem, ref, p, n0, s)
    if isinstance(proved, Unproved):
        return f"the period seen in {game.spec} is not proved: {proved.reason}"
    return PeriodFact(game.spec, p, n0, s, proved.describe(), tuple(ref))


def _moduli(node: Node) -> list[int]:
    """The positive constant moduli and divisors in ``node`` (``n % 4``, ``n // 3``, ``floor_div(n, 2)``)."""
    out: list[int] = []
    for sub in walk_tree(node):
        right: Node | None = None
        if isinstance(sub, Binary) and sub.op in ("%", "//"):
            right = sub.right
        elif isinstance(sub, Call) and sub.func in ("floor_div", "ceil_div") and len(sub.args) == 2:
            right = sub.args[1]
        value = right.value if isinstance(right, Const) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append(value)
    return out


def applies(ctx: ClaimContext) -> bool:
    """A cheap test: could the reduction apply to this claim (normal play, families with a theorem)?"""
    if ctx.misere or not (ctx.spec.about_positions or ctx.spec.states_sum):
        return False
    if ctx.spec.states_sum:
        return True
    if _one_heap_game(ctx) is not None:
        return has_theorem(_one_heap_game(ctx))  # type: ignore[arg-type]
    if not ctx.spec.states_p_positions:
        return False
    game = ctx.game
    spec = game.moves_spec if game is not None else None
    fixed = spec.heap_count() if spec is not None else None
    parts = spec.parts(game, fixed) if spec is not None and game is not None and fixed else None
    comps = list(parts) if parts is not None else [game] if ctx.heaps else []
    return bool(comps) and all(isinstance(c, HeapGame) and has_theorem(c) for c in comps)


def run(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Prove the claim for all positions through a proved period, or say why not."""
    t0 = time.monotonic()
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    solver = Solver(time.monotonic() + min(timeout, max(ctx.time_left(), 0.1)))
    max_n = int(options.get("max_n", DEFAULT_MAX_N))
    cert: dict[str, Any] = {}  # the certificate part, filled by the paths that provide one
    try:
        if ctx.spec.states_sum:
            status, detail, cx = _sum_rule(ctx, max_n, cert)
        elif ctx.spec.about_positions and _one_heap_game(ctx) is not None:
            status, detail, cx = _one_heap(ctx, solver, max_n, cert)
        elif ctx.spec.states_p_positions:
            status, detail, cx = _several_heaps(ctx, solver, max_n)
        else:
            raise NotApplicable(f"the periodic-table reduction does not apply to {ctx.kind} claims")
    except _Refuted as found:
        status, detail, cx = "refuted", found.cx.explanation, found.cx
    except (NotApplicable, Unsupported, Undecided) as exc:
        return MethodResult(NAME, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    seconds = time.monotonic() - t0
    stats = {"solver_calls": solver.calls}
    if status == "refuted":
        return MethodResult(
            NAME, "refuted", detail=detail, seconds=seconds, counterexample=cx, stats=stats
        )
    scope = Scope("all", measure="heap", heaps=ctx.heaps)
    part = certificates.periodic_table(cert, solver.queries) if cert else None
    return MethodResult(NAME, "proved", scope, detail, seconds, stats=stats, certificate=part)


Outcome = tuple[str, str, Counterexample | None]


def _one_heap_game(ctx: ClaimContext) -> HeapGame | None:
    """The heap game of a claim about single heaps (one-heap grundy, or p_positions with 1 heap)."""
    if ctx.misere or not isinstance(ctx.game, HeapGame):
        return None
    if ctx.spec.states_values and ctx.heaps is None:
        return ctx.game
    if ctx.spec.states_p_positions and ctx.heaps == 1:
        return ctx.game
    return None


def _fact(game: HeapGame, max_n: int) -> PeriodFact:
    fact = proved_periodicity(game, max_n)
    if isinstance(fact, str):
        raise NotApplicable(fact)
    return fact


def _one_heap(ctx: ClaimContext, solver: Solver, max_n: int, cert: dict[str, Any]) -> Outcome:
    game = _one_heap_game(ctx)
    assert game is not None and ctx.formula is not None
    fact = _fact(game, max_n)
    predicate = ctx.spec.states_p_positions
    if predicate:
        if fact.saltus < 0:
            raise NotApplicable("a negative saltus cannot hold for Grundy values")
        start, saltus = fact.preperiod + (fact.period if fact.saltus else 0), 0
    else:
        start, saltus = fact.preperiod, fact.saltus
    L = math.lcm(fact.period, *_moduli(ctx.formula))
    S = saltus * L // fact.period
    M = _formula_start(ctx, solver, start, L, S, predicate)
    count = M + L
    if count > MAX_TABLE:
        raise NotApplicable(
            f"the formula repeats only from n = {M}: checking {count} heaps is beyond this"
            f" method's budget of {MAX_TABLE}"
        )
    truth = fact.values(count)
    if predicate:
        claimed, undefined = _evaluate(ctx, {"h": [np.arange(count, dtype=np.int64)]}, (count,))
        wrong = np.flatnonzero(undefined | (claimed.astype(bool) != (truth == 0)))
    else:
        claimed, undefined = _evaluate(ctx, {"n": np.arange(count, dtype=np.int64)}, (count,))
        wrong = np.flatnonzero(undefined | (claimed != truth))
    if wrong.size:
        _refute_heap(ctx, int(wrong[0]))
    cert.update(fact=fact, game=game, kind=ctx.kind, L=L, S=S, M=M, claimed=claimed.tolist())
    what = "predicate" if predicate else "formula"
    detail = (
        f"periodic-table reduction: {fact.describe()}; the {what} repeats with period {L}"
        f"{' and saltus ' + str(S) if S else ''} from n = {M} (z3 over the integers) and agrees "
        f"with the table on 0 <= n < {count}"
    )
    return "proved", detail, None


def _evaluate(
    ctx: ClaimContext, env: dict[str, Any], shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The formula and its undefined mask over ``env``, both broadcast to ``shape``."""
    assert ctx.formula is not None
    try:
        values, undefined = evaluate_array(ctx.formula, {**env, **ctx.params})
    except EvalError as exc:
        raise NotApplicable(f"cannot evaluate the formula: {exc}") from None
    return (
        np.broadcast_to(np.asarray(values), shape),
        np.broadcast_to(np.asarray(undefined, dtype=bool), shape),
    )


def _formula_start(
    ctx: ClaimContext, solver: Solver, start: int, L: int, S: int, predicate: bool
) -> int:
    """The least tried ``M >= start`` from which the formula repeats (z3); raises NotApplicable."""
    assert ctx.formula is not None
    n = z3.Int("n")
    params = dict(ctx.params)

    def term(x: z3.ArithRef) -> Any:
        env: dict[str, Any] = {"h": [x]} if predicate else {"n": x}
        return compile_int(ctx.formula, {**env, **params})  # type: ignore[arg-type]

    a, b = term(n), term(n + L)
    same = (a.term == b.term) if predicate else (b.term == a.term + S)
    M = start
    for _ in range(START_TRIES):
        bad = z3.And(n >= M, z3.Or(a.condition != b.condition, z3.And(a.condition, z3.Not(same))))
        model = solver.check(bad)
        if model is None:
            return M
        # From ``start`` on the true values repeat, so the claim is wrong at x or x + L.
        x = value_of(model, n)
        for point in (x, x + L):
            try:
                _refute_heap(ctx, point)
            except NotApplicable:
                continue
        M = x + 1
    raise NotApplicable(
        f"the formula does not repeat with period {L} from any tried start (last {M})"
    )


def _refute_heap(ctx: ClaimContext, n: int) -> Outcome:
    """Raise :class:`_Refuted` with the re-checked counterexample at heap ``n``, else NotApplicable."""
    if ctx.one_heap:
        cx = settle.heap_counterexample(ctx, n)
    else:
        cx = _recheck_heaps(ctx, [_one_heap_game(ctx)], (n,))  # type: ignore[list-item]
    if cx is None:
        raise NotApplicable(
            f"the claim disagrees with the periodic table at n = {n}, "
            "but the re-check could not confirm it"
        )
    raise _Refuted(cx)


#: Largest reference work (see :func:`recheck.heap_cost`) for one re-check.
RECHECK_COST = 3e7


def _recheck_heaps(
    ctx: ClaimContext, comps: list[HeapGame], point: tuple[int, ...]
) -> Counterexample | None:
    """Re-check a P-position claim at one heap per part with the reference tables.

    The value of the position is the xor of the parts' reference values
    (Sprague–Grundy, the way the worked examples evaluate large sums; done by
    :func:`nimproof.provers.settle.wrong_at`); None when the claim holds there
    or the reference would be too slow.
    """
    if any(recheck.heap_cost(c, h) > RECHECK_COST for c, h in zip(comps, point, strict=True)):
        return None
    return settle.wrong_at(ctx, point)


def _components(ctx: ClaimContext) -> list[HeapGame]:
    game = ctx.game
    if ctx.misere:
        raise NotApplicable("misère play is not a sum: Sprague–Grundy does not apply")
    spec = game.moves_spec if game is not None else None
    fixed = spec.heap_count() if spec is not None else None
    parts = spec.parts(game, fixed) if spec is not None and game is not None and fixed else None
    if parts is not None:
        return list(parts)
    if isinstance(game, HeapGame) and ctx.heaps:
        return [game] * ctx.heaps
    raise NotApplicable("applies to sums of heap games (a sum: game, or heaps of one heap game)")


def _several_heaps(ctx: ClaimContext, solver: Solver, max_n: int) -> Outcome:
    assert ctx.formula is not None
    comps = _components(ctx)
    facts = [_fact(c, max_n) for c in comps]
    if any(f.saltus for f in facts):
        raise NotApplicable(
            "a part has a saltus: its values are unbounded, so no finite box of residues"
        )
    moduli = _moduli(ctx.formula)
    periods = [math.lcm(f.period, *moduli) for f in facts]
    starts = [
        _heap_start(ctx, solver, comps, i, f.preperiod, L)
        for i, (f, L) in enumerate(zip(facts, periods, strict=True))
    ]
    sizes = [M + L for M, L in zip(starts, periods, strict=True)]
    if math.prod(sizes) > MAX_BOX:
        raise NotApplicable(f"the box of residues {' x '.join(map(str, sizes))} is too large")
    grids = list(np.indices(sizes, dtype=np.int64))
    xor = np.zeros(sizes, dtype=np.int64)
    for f, size, grid in zip(facts, sizes, grids, strict=True):
        xor ^= f.values(size)[grid]
    claimed, undefined = _evaluate(ctx, {"h": grids}, tuple(sizes))
    wrong = undefined | (claimed.astype(bool) != (xor == 0))
    if wrong.any():
        idx = np.argwhere(wrong)
        point = tuple(int(x) for x in idx[np.argmin(idx.sum(axis=1))])
        cx = _recheck_heaps(ctx, comps, point)
        if cx is None:
            raise NotApplicable(
                f"the claim disagrees with Sprague–Grundy at {point}, but the re-check could not confirm it"
            )
        return "refuted", cx.explanation, cx
    facts_text = "; ".join(dict.fromkeys(f.describe() for f in facts))
    detail = (
        f"periodic-table reduction with Sprague–Grundy composition: P iff the xor of the heaps' "
        f"values is 0; {facts_text}; the predicate repeats in each heap (z3 over the integers) and "
        f"agrees on the box {' x '.join(map(str, sizes))}"
    )
    return "proved", detail, None


def repeat_start(
    ctx: ClaimContext,
    solver: Solver,
    k: int,
    i: int,
    start: int,
    L: int,
    after_break: Callable[[int, tuple[int, ...]], int],
) -> int:
    """The least tried ``M >= start`` from which the predicate on ``k`` heaps repeats with
    period ``L`` in heap ``i``, the other heaps free (z3 over the integers).

    When the predicate breaks at heaps ``x`` with ``x[i] >= M``, ``after_break(M, x)`` gives
    the next start to try (it may raise instead). Raises NotApplicable after ``START_TRIES``.
    """
    assert ctx.formula is not None
    hs = [z3.Int(f"h{j}") for j in range(k)]
    moved = [h + L if j == i else h for j, h in enumerate(hs)]
    a = compile_int(ctx.formula, {"h": hs, **ctx.params})
    b = compile_int(ctx.formula, {"h": moved, **ctx.params})
    nonneg = z3.And(*[h >= 0 for h in hs])
    M = start
    for _ in range(START_TRIES):
        bad = z3.And(
            nonneg,
            hs[i] >= M,
            z3.Or(a.condition != b.condition, z3.And(a.condition, a.term != b.term)),
        )
        model = solver.check(bad)
        if model is None:
            return M
        M = after_break(M, tuple(value_of(model, h) for h in hs))
    raise NotApplicable(
        f"the predicate does not repeat in heap {i} with period {L} from any tried start"
    )


def _heap_start(
    ctx: ClaimContext, solver: Solver, comps: list[HeapGame], i: int, start: int, L: int
) -> int:
    """The least tried ``M >= start`` from which the predicate repeats in heap ``i``, others free."""

    def after_break(M: int, x: tuple[int, ...]) -> int:
        # From ``start`` on heap i's value repeats, so the claim is wrong at x or at x moved by L.
        for point in (x, tuple(v + L if j == i else v for j, v in enumerate(x))):
            cx = _recheck_heaps(ctx, comps, point)
            if cx is not None:
                raise _Refuted(cx)
        return x[i] + 1

    return repeat_start(ctx, solver, len(comps), i, start, L, after_break)


def _sum_rule(ctx: ClaimContext, max_n: int, cert: dict[str, Any]) -> Outcome:
    parts: list[str] = []
    facts: list[tuple[HeapGame, PeriodFact | None]] = []
    cert["sum"] = facts
    for comp in ctx.components:
        if comp.misere:
            raise NotApplicable(
                f"{comp.spec} is played misère; Sprague–Grundy is about normal play"
            )
        if not comp.splits:
            parts.append(f"{comp.spec} (non-splitting: every heap's value is its mex)")
            facts.append((comp, None))
            continue
        fact = proved_periodicity(comp, max_n)
        if isinstance(fact, str):
            raise NotApplicable(f"{comp.spec} splits heaps and has no proved period: {fact}")
        parts.append(fact.describe())
        facts.append((comp, fact))
    detail = (
        "Sprague–Grundy composition: the value of a disjunctive sum of normal-play heap games is "
        "the xor of the parts' values (condition 1: each part's own mex; condition 2: the xor "
        "lemma); parts: " + "; ".join(parts)
    )
    return "proved", detail, None
