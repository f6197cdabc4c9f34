"""The truth at one position, for :mod:`.settle`: exact evaluation and the reference values.

This is the layer under :mod:`nimproof.provers.settle`. It says what is true
and never decides what a counterexample is: the exact value of the claim's
formula at a position (:func:`formula_at`, :func:`nimproof.expr.evaluate`),
the true value there (:func:`true_value`: the plain reference
implementation, :mod:`nimproof.engines.reference`, with the family's own
moves; Sprague–Grundy over reference heap tables for a normal-play sum of
heaps; the two theorems for Nim below), and the local conditions evaluated
exactly at one position (:func:`local_conditions`). What a candidate is settled
with is answered in one call (:func:`survey`): values in one evaluation, the
moves of the position in one call, and the first position where the claim
disagrees with the truth (:func:`first_wrong`, a fact: only ``settle`` turns it
into a confirmed counterexample).

Where the reference cannot reach a position of Nim (a heap of ``2**50``), its
value is given by a theorem, not a search:

* **Sprague–Grundy** (normal play): a heap of ``n`` tokens has value ``n`` (its
  options are the heaps ``0..n-1``), so a position's value is the xor of its
  heaps;
* **Bouton's misère theorem**: a position of misère Nim in which some heap has
  at least two tokens has misère nim-value the xor of its heaps (as in normal
  play); one whose heaps are all 0 or 1 has value ``1 xor`` that xor (with no
  move left the player to move wins). In particular its P-positions are those
  with xor 0 and some heap >= 2, and those of heaps 0 and 1 with an odd count
  of ones.

Both are checked against the reference on every small position by
``tests/provers/test_settle.py``.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np

from nimproof.engines import reference
from nimproof.engines.heap import misere_split_limit
from nimproof.errors import EvalError
from nimproof.expr import evaluate
from nimproof.expr.evaluate import evaluate_each
from nimproof.games import (
    Game,
    GameDescription,
    HeapGame,
    PluginGame,
    canonical_heaps,
    heap_move,
)
from nimproof.provers import deadline
from nimproof.provers.context import ClaimContext
from nimproof.provers.moves import fixed_moves, is_move, move_count_bound
from nimproof.provers.recursion import value_at
from nimproof.provers.solving import Undecided

#: Largest number of positions the reference may explore to re-check one counterexample.
REFERENCE_BUDGET = 300_000


def formula_at(ctx: ClaimContext, position: Any, extra: dict[str, int] | None = None) -> Any:
    """The exact value of the claim's formula at ``position`` (raises EvalError where undefined)."""
    assert ctx.formula is not None
    if ctx.recursive:
        return value_at(ctx.formula, int(position), ctx.params)
    env = _env(ctx, position)
    if extra:
        env.update(extra)
    # the same position is asked by the method's re-check and by settle: evaluated once (the
    # entry holds the formula itself, so its id cannot name another formula while it is kept)
    key = _key(ctx, env)
    formula, hit = ctx.memo.get(key, (None, _MISS))
    if formula is not ctx.formula:
        try:
            hit = evaluate(ctx.formula, env)
        except EvalError as exc:
            hit = exc
        _keep(ctx, key, hit)
    if isinstance(hit, EvalError):
        raise hit
    return hit


#: Most values :func:`formula_at` keeps for one claim (a method's random positions are many).
MEMO_SIZE = 10_000
_MISS = object()


def _key(ctx: ClaimContext, env: dict[str, Any]) -> tuple[Any, ...]:
    """The claim's memo key of its formula's value under ``env``."""
    return (id(ctx.formula), tuple(sorted(env.items())))


def _keep(ctx: ClaimContext, key: tuple[Any, ...], value: Any) -> None:
    """Keep the formula's value (or EvalError) under ``key`` while the memo has room."""
    if len(ctx.memo) < MEMO_SIZE:
        ctx.memo[key] = (ctx.formula, value)


def formulas_at(ctx: ClaimContext, positions: Sequence[Any]) -> list[Any]:
    """:func:`formula_at` at each of ``positions``: each value, or the :class:`EvalError` where
    the formula is undefined. Those the claim's memo lacks are evaluated in one exact
    evaluation (:func:`nimproof.expr.evaluate.evaluate_each`) and kept."""
    assert ctx.formula is not None
    if ctx.recursive:
        out: list[Any] = []
        for position in positions:
            try:
                out.append(value_at(ctx.formula, int(position), ctx.params))
            except EvalError as exc:
                out.append(exc)
        return out
    envs = [_env(ctx, position) for position in positions]
    keys = [_key(ctx, env) for env in envs]
    values = [ctx.memo.get(key, (None, _MISS)) for key in keys]
    missing = [i for i, (formula, _) in enumerate(values) if formula is not ctx.formula]
    found = [value for _, value in values]
    if missing:
        for i, value in zip(
            missing, evaluate_each(ctx.formula, [envs[i] for i in missing]), strict=True
        ):
            found[i] = value
            _keep(ctx, keys[i], value)
    return found


def _env(ctx: ClaimContext, position: Any) -> dict[str, Any]:
    """The names the claim's formula reads at ``position``: its parameters and the position."""
    env: dict[str, Any] = dict(ctx.params)
    if ctx.one_heap:
        env["n"] = int(position)
    elif ctx.spec.is_identity:
        env.update(position)
    else:
        env["h"] = tuple(int(x) for x in position)
    return env


def table_mismatch(table: Sequence[int] | np.ndarray, ref: Sequence[int]) -> int | None:
    """The first heap where ``table`` (an engine's, or claimed values) differs from the reference
    table ``ref``, compared over ``ref``'s length; None where they agree there."""
    return next((n for n, v in enumerate(ref) if n >= len(table) or int(table[n]) != v), None)


#: Most work (:func:`heap_cost`) spent on one reference heap table in a re-check (a few
#: seconds of plain Python: half-heap to n = 7,700, Kayles to about 7,700).
HEAP_TABLE_BUDGET = 3e7


def heap_cost(game: HeapGame, n: int, described: GameDescription | None = None) -> float:
    """A rough count of the work the reference needs for the table up to ``n`` (``described``:
    the claim's game description, read instead of asking ``game`` when it is its rule)."""
    spec = game.moves_spec
    known = described is not None and described.normal is game
    takes = described.takes if known and described is not None else spec.finite_takes()
    if takes is not None:
        return n * len(takes)
    if game.splits:
        return n**2 * (n if spec.max_parts >= 3 else 1) / 2
    return n * n / 2


def true_heap_value(ctx: ClaimContext, n: int) -> int | None:
    """The reference value of heap ``n`` of the claim's game, or None when too costly."""
    game = ctx.game
    base = ctx.heap_game
    assert base is not None and game is not None
    if heap_cost(base, n, ctx.description) > HEAP_TABLE_BUDGET:
        return None
    check = lambda: deadline.check(ctx.deadline, "re-checking")  # noqa: E731
    if game.misere:
        if base.splits:
            return None if n > misere_split_limit(base) else reference.value(game, n, check=check)
        return reference.misere_heap_table(base, n, check=check)[n]
    return reference_heap_value(base, n, ctx.deadline, ctx.description)


def reference_heap_value(
    game: HeapGame, n: int, until: float, described: GameDescription | None = None
) -> int | None:
    """The reference value of heap ``n`` of a normal-play ``game``, or None beyond
    :data:`HEAP_TABLE_BUDGET`; the work stops at the deadline ``until`` (:class:`TimeUp`).
    ``described``: as in :func:`heap_cost`.

    Tables are kept, one per game (the longest), and grown geometrically within the
    budget, so that the many look-ups of one claim's re-checks cost one table."""
    if heap_cost(game, n, described) > HEAP_TABLE_BUDGET:
        return None
    table = _TABLES.get(game.spec)
    if table is None or len(table) <= n:
        size = max(n, 2 * len(table)) if table else n
        while size > n and heap_cost(game, size, described) > HEAP_TABLE_BUDGET:
            size = (size + n) // 2
        check = lambda: deadline.check(until, "re-checking")  # noqa: E731
        table = reference.heap_table(game, size, check=check)
        _TABLES[game.spec] = table
    return table[n]


#: Reference heap tables computed for re-checks, by game spec (one per game, the longest).
_TABLES: dict[str, list[int]] = {}


def position_count(game: Game, position: Sequence[int]) -> float:
    """An upper bound on the positions reachable from ``position`` (for budgeting)."""
    if not game.moves_spec.lowers_heaps:
        total = sum(position)
        return math.comb(total + len(position), len(position))
    out = 1.0
    for x in position:
        out *= x + 1
    return out


def true_position_value(
    ctx: ClaimContext, position: Sequence[int], cache: dict[Hashable, int]
) -> int | None:
    """The reference value (Grundy or misère nim-value) of a multi-heap position, or None if too big."""
    game = ctx.game
    assert game is not None
    if position_count(game, position) > REFERENCE_BUDGET:
        return None
    return reference.value(game, game.position(tuple(position)), cache)


# ---------------------------------------------------------------------------
# the true value at one position
# ---------------------------------------------------------------------------


def nim_value(game: Game, position: Sequence[int]) -> tuple[int, str] | None:
    """The value of a position of Nim by theorem (see the module docstring) and which theorem,
    or None for any other game."""
    if game.normal.spec != "nim":
        return None
    out = 0
    for x in position:
        out ^= int(x)
    if not game.misere:
        return out, "Sprague–Grundy: the xor of the Nim heaps (a heap of n tokens has value n)"
    if all(int(x) <= 1 for x in position):
        return out ^ 1, "Bouton's misère theorem: heaps of 0 and 1 only, value 1 xor their xor"
    return out, "Bouton's misère theorem: some heap of 2 or more, value the xor of the heaps"


def nim_options_of_value(game: Game, position: Sequence[int], v: int) -> list[tuple[int, ...]]:
    """The moves of Nim (normal or misère) from ``position`` to a position of value ``v``,
    found by theorem (:func:`nim_value`) without listing the moves: lowering heap ``i`` to
    ``t`` gives value ``s xor x_i xor t`` (``s`` the xor of the heaps), or that xor 1
    when every heap is then 0 or 1 (misère), so ``t`` is one of two numbers per heap."""
    if game.normal.spec != "nim":
        return []
    s = 0
    for x in position:
        s ^= int(x)
    out: list[tuple[int, ...]] = []
    for i, x in enumerate(position):
        for t in sorted({s ^ int(x) ^ v, s ^ int(x) ^ v ^ 1}):
            q = (*position[:i], t, *position[i + 1 :])
            if t < int(x) and q not in out:
                truth = nim_value(game, q)
                if truth is not None and truth[0] == v:
                    out.append(tuple(int(y) for y in q))
    return out


def sum_components(ctx: ClaimContext, h: int) -> list[HeapGame] | None:
    """The one-heap rules whose sum the claim's game is (heap ``i`` of rule ``i``), if it is one."""
    if ctx.game is None:
        return None
    described = ctx.description
    if described is not None and described.game is ctx.game and described.parts_heaps == h:
        return None if described.parts is None else list(described.parts)
    key = ("components", id(ctx.game), h)
    game, comps = ctx.memo.get(key, (None, None))
    if game is not ctx.game:  # the entry holds the game: its id names no other game meanwhile
        comps = ctx.game.moves_spec.parts(ctx.game, h)
        ctx.memo[key] = (ctx.game, comps)
    return None if comps is None else list(comps)


def true_value(ctx: ClaimContext, position: Any) -> tuple[int, str] | None:
    """The true (misère) nim-value at ``position`` and how it was computed, or None if unreachable.

    One heap: the reference table. Several heaps: a normal-play sum by
    Sprague–Grundy over reference heap tables; else the reference on the whole
    position while it has at most :data:`REFERENCE_BUDGET` positions below it;
    beyond both, Nim (normal or misère) by its theorem (:func:`nim_value`).
    """
    game = ctx.game
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        if ctx.misere:
            v = true_heap_value(ctx, int(position))
        else:
            v = reference_heap_value(base, int(position), ctx.deadline, ctx.description)
        return None if v is None else (v, "reference implementation")
    pos = tuple(int(x) for x in position)
    comps = sum_components(ctx, len(pos))
    if comps is not None and not ctx.misere:
        total = 0
        for comp, x in zip(comps, pos, strict=True):
            v = reference_heap_value(comp, x, ctx.deadline)
            if v is None:
                break
            total ^= v
        else:
            return total, "Sprague–Grundy over reference heap tables"
    if game is not None and position_count(game, pos) <= REFERENCE_BUDGET:
        deadline.check(ctx.deadline, "re-checking")
        v = true_position_value(ctx, pos, {})
        if v is not None:
            return v, "reference implementation"
    return None if game is None else nim_value(game, pos)


def truth_at(ctx: ClaimContext, position: Any) -> tuple[Any, int, str] | None:
    """``(claimed, actual, how)`` at ``position``: the claim's exact value there
    (:func:`formula_at`, which raises EvalError where it is undefined) and the true value with
    how it was computed (:func:`true_value`); None when the true value is out of reach."""
    claimed = formula_at(ctx, position)
    truth = true_value(ctx, position)
    return None if truth is None else (claimed, *truth)


# ---------------------------------------------------------------------------
# the local conditions at one position, by exact evaluation
# ---------------------------------------------------------------------------

#: Most options enumerated to decide the local conditions at one position.
MAX_OPTIONS = 2_000_000


@dataclasses.dataclass
class Local:
    """The local conditions evaluated exactly at one position: whether they hold, and if not
    which fails (``condition``), in words (``text``), and the positions to suspect."""

    holds: bool
    options: int
    condition: str = ""
    text: str = ""
    claimed: Any = None
    move: Any = None
    suspects: list[Any] = dataclasses.field(default_factory=list)


def _options(ctx: ClaimContext, position: Any) -> Iterator[tuple[Any, Sequence[Any]]] | None:
    """``(option, parts)`` for each move: ``parts`` are the positions whose claimed values xor
    to the option's value (one for a plain move, several after a split). None: not enumerable."""
    assert ctx.game is not None
    base = ctx.game.normal
    if ctx.one_heap:
        heap = ctx.heap_game
        assert heap is not None
        if ctx.misere and heap.splits:
            return None
        return (
            ((p[0] if len(p) == 1 else p) if p else 0, p or (0,)) for p in heap.options(position)
        )
    if base.moves_spec.parts(base, len(position)) is None:
        if move_count_bound(base, position) > MAX_OPTIONS:
            return None  # known to be too many before any is evaluated
        return ((q, (q,)) for q in base.moves(position))
    comps = sum_components(ctx, len(position))
    if comps is None or any(c.splits for c in comps):
        return None

    def gen() -> Iterator[tuple[Any, Sequence[Any]]]:
        for i, comp in enumerate(comps):
            for parts in comp.options(position[i]):
                q = (*position[:i], parts[0] if parts else 0, *position[i + 1 :])
                yield q, (q,)

    return gen()


def local_conditions(ctx: ClaimContext, position: Any) -> Local | None:
    """Evaluate the local conditions exactly at ``position``; None when its moves are too many."""
    moves = _options(ctx, position)
    if moves is None:
        return None
    try:
        here = formula_at(ctx, position)
    except EvalError:
        return None
    p_claim = ctx.spec.states_p_positions
    seen: dict[Any, Any] = {}
    count = 0
    for count, (q, parts) in enumerate(moves, start=1):
        deadline.every(ctx.deadline, 4096, count, "evaluating the moves of a candidate")
        if count > MAX_OPTIONS:
            return None
        try:
            v: Any = 0
            for part in parts:
                v = (v ^ int(formula_at(ctx, part))) if not p_claim else bool(formula_at(ctx, part))
        except EvalError:
            return None
        seen.setdefault(v, q)
        if (p_claim and here and v) or (not p_claim and v == here):
            return _cond1(ctx, position, q, here, count)
    return _cond2(ctx, position, here, seen, count)


def _cond1(ctx: ClaimContext, position: Any, q: Any, here: Any, count: int) -> Local:
    where, there = ctx.describe(position), ctx.describe(q)
    if ctx.spec.states_p_positions:
        text = (
            f"The move from {where} to {there} joins two positions the claim calls P-positions; "
            f"no move joins two P-positions, so the claim is wrong at one of them."
        )
    else:
        text = (
            f"The move from {where} to {there} joins two positions the claim values {here}; a "
            f"position's value differs from the value of every position it can move to, so the "
            f"claim is wrong at one of them."
        )
    return Local(False, count, "condition-1", text, here, q, [q])


def _cond2(ctx: ClaimContext, position: Any, here: Any, seen: dict[Any, Any], count: int) -> Local:
    where = ctx.describe(position)
    suspects = list(seen.values())
    if ctx.misere and count == 0:
        ok = (not here) if ctx.spec.states_p_positions else here == 1
        if ok:
            return Local(True, 0)
        text = f"{where} has no move, so in misère play its nim-value is 1 (an N-position)."
        return Local(False, 0, "terminal", text, here, None, [])
    if ctx.spec.states_p_positions:
        if here or True in seen:
            return Local(True, count)
        text = (
            f"The claim says {where} is not a P-position, but none of its {count} moves reaches a "
            "position the claim calls a P-position; every N-position has such a move"
        )
    else:
        mex = 0
        while mex in seen:
            mex += 1
        if mex == here:
            return Local(True, count)
        text = (
            f"At {where} the claim gives {here}, but no move reaches a position the claim values "
            f"{mex} (the mex of the claimed values of its {count} options is {mex}); a position's "
            "value is the mex of its options' values"
        )
    text += f", so the claim is wrong at {where} or at one of its options."
    return Local(False, count, "condition-2", text, here, None, suspects)


# ---------------------------------------------------------------------------
# listed positions (value and sequence claims)
# ---------------------------------------------------------------------------

#: Positions of a heap game whose direct evaluation would visit more joint positions than
#: ``DIRECT_BUDGET``, or list more moves than ``DIRECT_COST`` in all, are evaluated by
#: Sprague–Grundy.
DIRECT_BUDGET = 20_000
DIRECT_COST = 2e6
#: For take-and-break games: positions with more tokens than this use Sprague–Grundy.
SPLIT_BUDGET = 40


#: Most work (roughly, set insertions) a reference heap table may take for a value claim.
REFERENCE_COST = 2e9


class TooLarge(Exception):
    """A position beyond what the reference implementation can evaluate."""


def reference_limit(game: HeapGame) -> int:
    """The largest heap whose reference table costs at most :data:`REFERENCE_COST`."""
    lo, hi = 0, 1 << 40
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if heap_cost(game, mid) <= REFERENCE_COST:
            lo = mid
        else:
            hi = mid - 1
    return lo


class Oracle:
    """Reference values of the listed positions of ``value`` and ``sequence`` claims, shared
    caches, and how each was computed (the ``reference`` method and :mod:`.settle` use it)."""

    def __init__(self, game: Game, deadline: float = 0.0) -> None:
        self.game = game
        self.deadline = deadline
        self.cache: dict[Hashable, int] = {}
        self.tables: list[int] = []
        self.methods: set[str] = set()

    def heap_table(self, n: int) -> list[int]:
        assert isinstance(self.game, HeapGame)
        if len(self.tables) <= n:
            limit = reference_limit(self.game)
            if n > limit:
                raise TooLarge(
                    f"heap {n} is too large for this engine (the reference implementation): "
                    f"limit {limit:,} for {self.game.spec}"
                )
            size = min(max(n, 2 * len(self.tables)), limit)
            self.tables = reference.heap_table(
                self.game, size, check=lambda: deadline.check(self.deadline, "computing a table")
            )
        return self.tables

    def value(self, position: Any) -> int:
        game = self.game
        if isinstance(game, HeapGame):
            heaps = canonical_heaps((position,) if isinstance(position, int) else position)
            # A split multiplies the positions below a heap: there the budget is on the tokens.
            if game.splits:
                direct = sum(heaps) <= SPLIT_BUDGET
            else:
                direct = _direct_cost(game, heaps) <= DIRECT_COST
            if not direct:
                self.methods.add("Sprague–Grundy over reference heap tables")
                table = self.heap_table(max(heaps))
                out = 0
                for h in heaps:
                    out ^= table[h]
                return out
            self.methods.add("direct mex")
            return reference.value(game, heaps, self.cache, check=self.check)
        self.methods.add("direct mex")
        key = game.position(position)
        return reference.value(game, key, self.cache, check=self.check)

    def sequence_value(self, n: int) -> int:
        """The value of the ``n``-th term of a sequence claim: heap ``n`` of a heap game's
        reference table, else the direct mex at the position ``n``."""
        if isinstance(self.game, HeapGame):
            return self.heap_table(n)[n]
        return reference.value(self.game, n, self.cache, check=self.check)

    def check(self) -> None:
        """Raise :class:`~nimproof.provers.deadline.TimeUp` past the claim's deadline."""
        deadline.check(self.deadline, "computing a value")

    def moves(self, position: Any) -> list[Any]:
        """The positions one move away, in the form claims write them."""
        game = self.game
        if isinstance(game, HeapGame):
            heaps = (position,) if isinstance(position, int) else tuple(position)
            return list(dict.fromkeys(game.moves(heaps)))
        if isinstance(game, PluginGame) or isinstance(position, int):
            return list(dict.fromkeys(game.moves(position)))
        return list(dict.fromkeys(fixed_moves(game, position)))

    def normal(self, move: Any) -> Any:
        """A listed or generated move in one comparable form."""
        if isinstance(self.game, HeapGame) or self.game.misere:
            if isinstance(move, int):
                return canonical_heaps((move,))
            if isinstance(move, list | tuple) and all(isinstance(x, int) for x in move):
                return canonical_heaps(move)
        return _freeze(move)


def _direct_cost(game: HeapGame, heaps: tuple[int, ...]) -> float:
    """Roughly the moves a direct evaluation of ``heaps`` lists (inf beyond ``DIRECT_BUDGET``)."""
    positions = math.prod(h + 1 for h in heaps)
    if positions > DIRECT_BUDGET:
        return math.inf
    return positions * sum(heap_cost(game, h) / (h + 1) for h in heaps)


def _freeze(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return tuple(_freeze(v) for v in x)
    return x


# ---------------------------------------------------------------------------
# the facts around one candidate, in one call (for :mod:`.settle`)
# ---------------------------------------------------------------------------

#: Positions whose moves :func:`listed_options` lists (their total below this and no more
#: moves than this); beyond, a re-check asks z3 on the concrete position.
ENUMERATE_TOTAL = 50_000
ENUMERATE_MOVES = 50_000
#: Positions with at most this many positions below them are named by a search for the
#: smallest wrong position below (:func:`first_wrong_below`); larger ones by their own truth.
SMALL_BELOW = 5000
#: Most positions :func:`first_wrong_below` evaluates with the reference.
RECHECK_POSITIONS = 5000
#: Most suspects (a position's options) whose true value is looked up to name a wrong one.
NAME_OPTIONS = 2000
#: Heaps of a one-heap game above this are explained with a move only when its targets are
#: listed without testing every smaller heap.
EXPLAIN_HEAPS = 5000


def listed_options(ctx: ClaimContext, p: Any) -> list[Any] | None:
    """Every move from ``p`` (a heap's targets, or positions of the same heaps) when there are
    few enough to list, else None."""
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


def _lists_targets(ctx: ClaimContext, base: HeapGame) -> bool:
    """True when a heap's targets are listed without testing every smaller heap."""
    described = ctx.description
    if described is not None and described.normal is base:
        return described.lists_targets
    return base.moves_spec.lists_targets()


@dataclasses.dataclass(frozen=True)
class Wrong:
    """A position where the claim's exact value differs from the true value, or where the
    claim is undefined (``error``): a fact, which :mod:`.settle` alone may confirm."""

    position: Any
    claimed: Any = None
    actual: int = 0
    how: str = ""
    error: EvalError | None = None
    #: a winning move from the position (the search below names one), else None
    move: Any = None
    #: True when found while naming a finding after its own positions were right or out of
    #: reach (:func:`first_wrong`): its explanation then cites the finding
    cites_finding: bool = False
    #: One heap: its move targets and the claim's values there (to explain with a move), when
    #: they are few enough to list.
    targets: tuple[int, ...] | None = None
    target_values: tuple[Any, ...] = ()


@dataclasses.dataclass(frozen=True)
class Survey:
    """What is true around a candidate position, answered in one call (:func:`survey`)."""

    #: The claim's exact value at the position and at the move's target (or their EvalError).
    here: Any
    there: Any = None
    #: The position has no move (asked with ``terminal``).
    terminal: bool = False
    #: The move is legal by the family's own definition (None: not asked, or ``legal_error``).
    legal: bool | None = None
    legal_error: str = ""
    #: Its moves when few enough to list (asked with ``options``), and the claim's value at
    #: each (or its EvalError); None when too many to list.
    options: tuple[Any, ...] | None = None
    option_values: tuple[Any, ...] = ()
    #: The first position where the claim is wrong, in the order a finding is named (asked
    #: with ``name``): the position itself, the move's target, then (``suspects``) its options.
    wrong: Wrong | None = None


def survey(
    ctx: ClaimContext,
    position: Any,
    move: Any = None,
    *,
    terminal: bool = False,
    options: bool = False,
    name: bool = False,
) -> Survey:
    """The facts a candidate at ``position`` (with a move to ``move``) is settled with, in
    one call: the claim's exact value at both; whether the position is terminal; whether the
    move is legal by the family's definition; the moves and the claim's value at each;
    and, with ``name``, the first position where the claim disagrees with its true value
    (:func:`first_wrong`; ``options``: the position's options are suspects too). Each
    comes from exact evaluation and the plain reference implementation only."""
    legal, legal_error = None, ""
    if move is not None:
        try:
            legal = is_legal(ctx, position, move)
        except ValueError as exc:
            legal_error = str(exc)
    listed = listed_options(ctx, position) if options else None
    # the claim at the position, the move's target and the moves, in one evaluation (the
    # deadline is checked between batches of moves)
    asked = [position] if move is None else [position, move]
    # ... and at the options of Nim a finding may be named at (kept for :func:`first_wrong`)
    suspects = _nim_suspects(ctx, position) if name and options else []
    values = list(_values_in_chunks(ctx, [*asked, *(listed or ()), *suspects]))
    return Survey(
        values[0],
        values[1] if move is not None else None,
        _terminal(ctx, position) if terminal else False,
        legal,
        legal_error,
        None if listed is None else tuple(listed),
        tuple(values[len(asked) : len(asked) + len(listed or ())]),
        first_wrong(ctx, position, move, suspects=options, listed=listed) if name else None,
    )


def _nim_suspects(ctx: ClaimContext, position: Any) -> list[tuple[int, ...]]:
    """The options of a position of Nim (several heaps) with each value a finding there may be
    named by (:func:`_suspects`: 0, or any below 64), found by theorem."""
    if ctx.one_heap or ctx.game is None or ctx.spec.is_identity:
        return []
    goals = [0] if ctx.spec.states_p_positions else range(64)
    here = tuple(int(x) for x in position)
    return [q for v in goals for q in nim_options_of_value(ctx.game, here, v)]


#: Moves whose claimed values are asked in one evaluation (the deadline is checked between).
_CHUNK = 1024


def _values_in_chunks(ctx: ClaimContext, positions: list[Any]) -> Iterator[Any]:
    for start in range(0, len(positions), _CHUNK):
        deadline.check(ctx.deadline, "re-checking the moves of a counterexample")
        yield from formulas_at(ctx, positions[start : start + _CHUNK])


def is_legal(ctx: ClaimContext, p: Any, q: Any) -> bool:
    """``p -> q`` is a move by the family's own definition (raises ValueError when deciding it
    would list too many moves)."""
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return heap_move(base, int(p), int(q))
    assert ctx.game is not None
    return is_move(ctx.game, tuple(p), tuple(q))


def _terminal(ctx: ClaimContext, p: Any) -> bool:
    if ctx.one_heap:
        base = ctx.heap_game
        assert base is not None
        return base.heap_terminal(int(p))
    assert ctx.game is not None
    return ctx.game.terminal_heaps(tuple(p))


def first_wrong(
    ctx: ClaimContext,
    position: Any,
    move: Any = None,
    *,
    suspects: bool,
    named: bool = True,
    listed: list[Any] | None = None,
) -> Wrong | None:
    """The first position where the claim disagrees with the true value, in the order a
    finding at ``position`` (with a move to ``move``) is named; None when each is right or
    out of reach.

    With ``named``, first the finding's own positions: one heap, ``position`` then ``move``
    by the reference table (with the targets that explain it by a move); several heaps, the
    smallest wrong position below ``position`` while at most :data:`SMALL_BELOW` positions
    lie below it (else ``position`` by its truth), then ``move``. A search that would list
    too many moves stops there. Then (``cites_finding``) ``position``, ``move`` and, with
    ``suspects`` (a value no move reaches), its options (:func:`local_conditions`) or, for
    Nim at any size, the options of the values it says no move reaches, each by its truth.
    ``listed``: the position's moves when the caller has listed them."""
    if named:
        try:
            found = _own_wrong(ctx, position, move, listed)
        except (ValueError, RecursionError):
            found = None
        if found is not None:
            return found
    here = as_position(ctx, position)
    if here is None or not ctx.spec.about_positions:
        return None
    try:
        for suspect in _suspects(ctx, here, move, suspects):
            wrong = wrong_at(ctx, suspect)
            if wrong is not None:
                return dataclasses.replace(wrong, cites_finding=True)
    except (deadline.TimeUp, Undecided, EvalError, OverflowError):
        pass
    return None


def _own_wrong(ctx: ClaimContext, position: Any, move: Any, listed: Any) -> Wrong | None:
    """The finding's own position, then its move's target, where the claim is wrong."""
    if ctx.one_heap:
        found = heap_wrong(ctx, int(position), listed)
        if found is None and move is not None:
            found = heap_wrong(ctx, int(move))
        return found
    point = tuple(int(x) for x in position)
    if ctx.game is not None and position_count(ctx.game, point) <= SMALL_BELOW:
        found = first_wrong_below(ctx, point)
    else:
        found = wrong_at(ctx, point)
    if found is None and move is not None:
        found = wrong_at(ctx, tuple(int(x) for x in move))
    return found


def heap_wrong(ctx: ClaimContext, n: int, listed: list[int] | None = None) -> Wrong | None:
    """Heap ``n`` where the claim differs from the reference table, with the heap's targets
    (``listed``, when the caller has them) and the claim's values there when they are few
    enough to explain it by a move."""
    try:
        truth = truth_at(ctx, n)
    except EvalError as exc:
        return Wrong(n, error=exc)
    if truth is None or int(truth[0]) == truth[1]:
        return None
    base = ctx.heap_game
    targets: tuple[int, ...] | None = None
    values: tuple[Any, ...] = ()
    if (
        not ctx.recursive
        and base is not None
        and not base.splits
        and (_lists_targets(ctx, base) or n <= EXPLAIN_HEAPS)
    ):
        targets = tuple(base.target_list(n) if listed is None else listed)
        values = tuple(formulas_at(ctx, list(targets)))
    claimed, actual = int(truth[0]), truth[1]
    how = "reference implementation"
    return Wrong(n, claimed, actual, how, targets=targets, target_values=values)


def wrong_at(ctx: ClaimContext, position: Any) -> Wrong | None:
    """``position`` when the claim's value (or P-verdict) there differs from the true one or is
    undefined there; None when it is right or the truth is out of reach."""
    try:
        truth = truth_at(ctx, position)
    except EvalError as exc:
        return Wrong(position, error=exc)
    if truth is None:
        return None
    claimed, actual, how = truth
    return Wrong(position, claimed, actual, how) if ctx.contradicts(claimed, actual) else None


def first_wrong_below(ctx: ClaimContext, point: tuple[int, ...]) -> Wrong | None:
    """The smallest position reachable from ``point`` (itself included) where the claim is
    wrong, with a winning move from it; None when every position examined (at most
    :data:`RECHECK_POSITIONS`) agrees or one is too large. Exact evaluation of the claim and
    the reference values only."""
    game = ctx.game
    assert game is not None
    cache: dict[Hashable, int] = {}
    seen = {point}
    frontier = [(sum(point), point)]
    examined = 0
    while frontier and examined < RECHECK_POSITIONS:
        deadline.check(ctx.deadline, "re-checking")
        _, pos = heapq.heappop(frontier)
        examined += 1
        actual = true_position_value(ctx, pos, cache)
        if actual is None:
            return None
        try:
            claimed = formula_at(ctx, pos)
        except EvalError as exc:
            return Wrong(pos, error=exc)
        if ctx.contradicts(claimed, actual):
            move = None
            if actual != 0 or not ctx.spec.states_p_positions:
                options = fixed_moves(game, pos)
                move = next((q for q in options if true_position_value(ctx, q, cache) == 0), None)
            return Wrong(pos, claimed, actual, "reference implementation", move=move)
        for option in fixed_moves(game, pos):
            if option not in seen:
                seen.add(option)
                heapq.heappush(frontier, (sum(option), option))
    return None


def _suspects(ctx: ClaimContext, here: Any, move: Any, options: bool) -> Iterator[Any]:
    """The position, the move's target and (``options``: a value no move reaches) the options
    with the value the claim says no move reaches: listed among the position's options where
    they are few, or found by theorem for Nim at any size."""
    yield here
    target = as_position(ctx, move)
    if target is not None and target != here:
        yield target
    if not options:
        return
    size = int(here) if ctx.one_heap else sum(here)
    if size <= MAX_OPTIONS and true_value(ctx, here) is not None:
        local = local_conditions(ctx, here)
        if local is not None:
            for suspect in local.suspects[:NAME_OPTIONS]:
                if as_position(ctx, suspect) is not None:
                    yield suspect
            return
    if ctx.game is not None and not ctx.one_heap:
        try:
            claimed = formula_at(ctx, here)
        except EvalError:
            return
        goals = [0] if ctx.spec.states_p_positions else range(min(int(claimed), 64))
        for v in goals:
            yield from nim_options_of_value(ctx.game, here, v)


def as_position(ctx: ClaimContext, raw: Any) -> Any:
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
