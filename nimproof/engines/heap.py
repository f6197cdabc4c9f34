"""Tables of single heaps: pick a kernel for a game and run it.

:func:`grundy_table` is the entry point. Each family with structure gets a
numba kernel from :mod:`.heap_kernels`; any other :class:`HeapGame` falls
back to the plain reference loop (slow but always available). Misère play
of a non-splitting game runs the same kernels with terminal value 1; misère
play of a splitting game is evaluated on whole positions (multisets of
heaps) by :class:`MisereHeaps`, which only reaches small heaps.

Practical limits (each enforced with a :class:`UsageError`):

==========================================  ==========================  ===============
engine                                      cost                        largest n
==========================================  ==========================  ===============
finite subtraction, non-splitting codes     O(n |S|)                    10^8
interval window (nim, half-heap,            O(n log n)                  5 * 10^7
take-fraction, all-but sets)
infinite subtraction (member lists)         O(n * members <= n)         by density
two-way take-and-break, Grundy's game       sparse space: O(n * rare)   2^28 (memory)
(:mod:`.sparse`; dense O(n^2) where rare
heaps are not rare)
three-way splits (hex digits with bit 8)    O(n^2 P)                    500 000
rule games (vectorised rule + numba mex)    O(n^2) evaluations          50 000
misère of a splitting game                  positions: partitions of n  40; Kayles 64,
(whole positions; 10^6 stored sums)                                     0.07 87, 0.137 86
other heap games (plain Python)             O(n * options)              5 000
==========================================  ==========================  ===============

(A quadratic engine at 500 000 runs for minutes; the rule engine at 50 000
evaluates the rule about 1.25e9 times; member lists stop at about 4e10 steps.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import cast

import numpy as np

from nimproof.engines import heap_kernels as hk
from nimproof.engines import part_kernels
from nimproof.engines import stream_kernels as stk
from nimproof.engines.sparse import SparseTable, SplitRule, check_memory, split_rule, table_bytes
from nimproof.errors import EvalError, UsageError
from nimproof.expr import evaluate_array
from nimproof.games.base import (
    FiniteTakes,
    Game,
    HeapGame,
    IntervalTakes,
    MoveDescription,
    PartMoves,
    RelationMoves,
    SetTakes,
    SplitUnequal,
    TakeAndBreak,
    mex,
)

Progress = Callable[[int, int], None]

#: Largest heap for the linear engines (memory: one int64 per heap).
LINEAR_MAX_N = 10**8
#: Largest heap for the sliding-window engine (it also keeps lo(n) and a segment tree:
#: about 27 bytes per heap, 2.7 GB at the limit).
INTERVAL_MAX_N = 10**8
#: Largest heap for the quadratic engines (take-and-break codes, Grundy's game).
QUADRATIC_MAX_N = 500_000
#: Largest heap for two-way take-and-break codes and Grundy's game (sparse space; memory
#: is checked against the machine before the table is allocated).
SPARSE_MAX_N = 1 << 28
#: Largest heap for rule games (the rule is evaluated for every pair m < n).
RULE_MAX_N = 50_000
#: Largest total work (sum over n of the members <= n) for infinite subtraction sets.
MEMBERS_MAX_WORK = 4 * 10**10
#: Largest heap for misère play of a splitting game (whole positions are evaluated).
MISERE_SPLIT_MAX_N = 40
#: Positions the exact misère evaluation of a splitting game may store (memory: about
#: 250 bytes each) before it stops and names the heap where it stopped.
MISERE_MAX_POSITIONS = 1_000_000
#: For the octal codes of the seeds, the last heap whose table (heaps 0, 1, 2, ... in
#: order) stays within :data:`MISERE_MAX_POSITIONS`; the next heap passes it (measured,
#: docs/misere.md, "Misère nim-values"). Other codes keep :data:`MISERE_SPLIT_MAX_N`.
MISERE_SPLIT_LIMITS: dict[tuple[int, ...], int] = {
    (0, 7, 7): 64,  # Kayles
    (0, 0, 7): 87,  # Dawson's Kayles
    (0, 1, 3, 7): 86,  # Dawson's Chess
}
#: Largest heap for the generic fallback (plain Python over ``options``).
GENERIC_MAX_N = 5_000
#: Largest heap for the PartMoves kernels (numpy, O(n) per heap).
PART_MAX_N = 200_000
_PART_CHUNK = 1 << 12

# Chunk sizes: a kernel is called once per chunk so that progress can be reported.
_LINEAR_CHUNK = 1 << 20
_QUADRATIC_CHUNK = 1 << 11
_RULE_CELLS = 1 << 22


@dataclass(frozen=True, slots=True)
class HeapPlan:
    """How a single-heap table of one game is computed: an engine name and its runner."""

    engine: str
    limit: int
    run: Callable[[np.ndarray, int, int, Progress | None], None]
    """``run(g, start, n_max, progress)`` fills ``g[start:n_max + 1]``."""
    #: Why the limit is where it is, when the engine says more than "practical limit".
    why: str = ""


def heap_engine(game: Game) -> str:
    """The name of the engine :func:`grundy_table` uses for ``game`` (recorded in datasets)."""
    return plan_heap(game).engine


def grundy_table(
    game: Game,
    n_max: int,
    *,
    prefix: np.ndarray | None = None,
    progress: Progress | None = None,
) -> np.ndarray:
    """Grundy values (misère nim-values for ``Misere`` games) of single heaps ``0..n_max``.

    Returns a fresh int64 array of length ``n_max + 1``. ``prefix`` holds the
    already-known values of heaps ``0..len(prefix)-1`` and is reused as is.
    ``progress(done, total)`` is called as heaps are filled in. Raises
    :class:`UsageError` for a game that has no single-heap table (multi-heap
    families, plugins) and for a bound beyond the engine's documented limit.
    """
    if isinstance(n_max, bool) or not isinstance(n_max, (int, np.integer)):
        raise UsageError(f"the heap bound must be a whole number, got {n_max!r}")
    n_max = int(n_max)
    if n_max < 0:
        raise UsageError(f"the heap bound must be at least 0, got {n_max}")
    plan = plan_heap(game)
    if n_max > plan.limit:
        raise UsageError(
            f"{game.spec}: the {plan.engine} engine handles heaps up to {plan.limit:,}; "
            f"{n_max:,} is beyond its practical limit{plan.why}"
        )
    g = np.zeros(n_max + 1, dtype=np.int64)
    start = 0
    if prefix is not None:
        known = np.asarray(prefix)
        if known.ndim != 1 or not np.issubdtype(known.dtype, np.integer):
            raise UsageError("prefix must be a one-dimensional array of integers")
        start = min(len(known), n_max + 1)
        g[:start] = known[:start]
    if start <= n_max:
        plan.run(g, start, n_max, progress)
    if progress is not None:
        progress(n_max + 1, n_max + 1)
    return g


def plan_heap(game: Game) -> HeapPlan:
    """Choose the engine for the single-heap table of ``game`` (raises for games without one)."""
    if game.misere:
        base = game.normal
        if not isinstance(base, HeapGame):
            raise UsageError(
                f"{game.spec} is not a one-heap game; "
                "use --heaps H --max-heap B for a multi-heap table"
            )
        if base.splits:
            limit = misere_split_limit(base)
            return HeapPlan(
                "misere-joint-positions",
                limit,
                _misere_split_runner(base),
                _misere_why(base, limit),
            )
        return _plan_plain(base, terminal_value=1)
    if not isinstance(game, HeapGame):
        raise UsageError(
            f"{game.spec} has no single-heap table; "
            "multi-heap families take --heaps H --max-heap B, "
            "plugins are evaluated position by position (nimproof value)"
        )
    return _plan_plain(game, terminal_value=0)


def _plan_plain(game: HeapGame, terminal_value: int) -> HeapPlan:
    return _plan_by(game.moves_spec, game, terminal_value)


@singledispatch
def _plan_by(spec: MoveDescription, game: HeapGame, tv: int) -> HeapPlan:
    """The kernel of a kind of description; the default: the sparse-space engine for a
    splitting code it takes, else the family's own moves."""
    rule = split_rule(game) if tv == 0 else None
    if rule is not None:
        return HeapPlan("sparse-space", SPARSE_MAX_N, _sparse_runner(game, rule))
    if game.splits:
        if tv != 0:  # pragma: no cover - misère splitting games take the joint-position path
            raise AssertionError("misère of a splitting game")
        return HeapPlan("generic-python", GENERIC_MAX_N, _generic_runner(game))
    return HeapPlan("generic-targets", GENERIC_MAX_N, _targets_runner(game, tv))


@_plan_by.register
def _(spec: FiniteTakes, game: HeapGame, tv: int) -> HeapPlan:
    takes = np.sort(np.array(spec.takes, dtype=np.int64))
    if tv == 0:  # the packed kernel of streamed tables, filling g in place
        return HeapPlan(
            "subtraction-finite",
            LINEAR_MAX_N,
            _chunked(
                lambda g, a, b, top: stk.window_subtraction_kernel(g, a, a, b - a, takes),
                _LINEAR_CHUNK,
            ),
        )
    return HeapPlan(
        "subtraction-finite",
        LINEAR_MAX_N,
        _chunked(lambda g, a, b, top: hk.subtraction_kernel(g, a, b, takes, tv), _LINEAR_CHUNK),
    )


@_plan_by.register
def _(spec: IntervalTakes, game: HeapGame, tv: int) -> HeapPlan:
    return HeapPlan("interval-window", INTERVAL_MAX_N, _interval_runner(game, tv, _NO_EXCLUSIONS))


@_plan_by.register
def _(spec: SetTakes, game: HeapGame, tv: int) -> HeapPlan:
    if spec.kind == "all-but":
        # Moves reach every smaller heap except n - e for the excluded takes e.
        excluded = np.array(spec.excluded, dtype=np.int64)
        return HeapPlan("interval-window", INTERVAL_MAX_N, _interval_runner(game, tv, excluded))
    return HeapPlan("subtraction-members", _members_limit(spec), _members_runner(spec, tv))


@_plan_by.register
def _(spec: TakeAndBreak, game: HeapGame, tv: int) -> HeapPlan:
    rule = split_rule(game) if tv == 0 else None
    if rule is not None:
        return HeapPlan("sparse-space", SPARSE_MAX_N, _sparse_runner(game, rule))
    digits = np.array(spec.digits, dtype=np.int64)
    if not spec.splits:
        return HeapPlan(
            "octal-nonsplitting",
            LINEAR_MAX_N,
            _chunked(lambda g, a, b, top: hk.octal_kernel(g, a, b, digits, tv, top), _LINEAR_CHUNK),
        )
    # Three-way splits rebuild their pair table on each call: few chunks.
    most = 8 if spec.max_parts >= 3 else 0
    return HeapPlan(
        "octal-splits",
        QUADRATIC_MAX_N,
        _chunked(
            lambda g, a, b, top: hk.octal_kernel(g, a, b, digits, tv, top),
            _QUADRATIC_CHUNK,
            most=most,
        ),
    )


@_plan_by.register
def _(spec: SplitUnequal, game: HeapGame, tv: int) -> HeapPlan:
    rule = split_rule(game) if tv == 0 else None
    if rule is not None:
        return HeapPlan("sparse-space", SPARSE_MAX_N, _sparse_runner(game, rule))
    if tv != 0:  # pragma: no cover - Grundy's game always splits, handled above
        raise AssertionError("misère Grundy's game is a splitting game")
    return HeapPlan(
        "grundys-game", QUADRATIC_MAX_N, _chunked(hk.grundys_game_kernel, _QUADRATIC_CHUNK)
    )


@_plan_by.register
def _(spec: RelationMoves, game: HeapGame, tv: int) -> HeapPlan:
    return HeapPlan("rule-vectorised", RULE_MAX_N, _rule_runner(spec, tv))


@_plan_by.register
def _(spec: PartMoves, game: HeapGame, tv: int) -> HeapPlan:
    kernel = part_kernels.KERNELS.get(spec.kernel)
    if kernel is None or tv != 0:
        return _plan_by.dispatch(MoveDescription)(spec, game, tv)
    return HeapPlan(
        f"parts-{spec.kernel}",
        PART_MAX_N,
        _chunked(lambda g, a, b, top: kernel(g, a, b), _PART_CHUNK),
    )


# ---------------------------------------------------------------------------
# Runners
# ---------------------------------------------------------------------------


def _chunked(
    kernel: Callable[[np.ndarray, int, int, int], None], chunk: int, *, most: int = 0
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    """Run ``kernel(g, a, b, top)`` over ``[start, stop)`` in chunks (one call when nobody
    watches progress); ``top`` is the largest value in ``g[:a]``.

    ``most`` caps the number of chunks, for kernels that rebuild work tables on each call.
    """

    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        stop = n_max + 1
        top = int(g[:start].max()) if start > 0 else 0
        if progress is None:
            kernel(g, start, stop, top)
            return
        size = chunk if not most else max(chunk, -(-(stop - start) // most))
        a = start
        while a < stop:
            b = min(stop, a + size)
            kernel(g, a, b, top)
            top = max(top, int(g[a:b].max()))
            progress(b, stop)
            a = b

    return run


_NO_EXCLUSIONS = np.zeros(0, dtype=np.int64)


def _sparse_runner(
    game: HeapGame, rule: SplitRule
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        # The caller's int64 table is already allocated: count it too.
        check_memory(game.spec, table_bytes(n_max) + 8 * (n_max + 1), n_max)
        table = SparseTable(rule, n_max + 1, prefix=g[:start])
        table.extend(n_max + 1, progress)
        g[start:] = table.values[start:]

    return run


def interval_lows(game: HeapGame, stop: int) -> np.ndarray:
    """``lo(n)`` for ``n < stop``: moves from ``n`` reach ``[lo(n), n)`` (less exclusions)."""
    return _lows(game.moves_spec, game, stop)


@singledispatch
def _lows(spec: MoveDescription, game: HeapGame, stop: int) -> np.ndarray:
    raise TypeError(f"{game.spec} has no move interval")


@_lows.register
def _(spec: IntervalTakes, game: HeapGame, stop: int) -> np.ndarray:
    n = np.arange(stop, dtype=np.int64)
    return n - (spec.p * n) // spec.q


@_lows.register
def _(spec: SetTakes, game: HeapGame, stop: int) -> np.ndarray:
    return np.zeros(stop, dtype=np.int64)  # all-but: every smaller heap, less the exclusions


def _interval_runner(
    game: HeapGame, tv: int, excluded: np.ndarray
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        stop = n_max + 1
        lo = interval_lows(game, stop)
        if stop > 1 and bool(np.any(np.diff(lo) < 0)):
            # The sliding window needs lo(n) non-decreasing; otherwise list the targets.
            _targets_runner(game, tv)(g, start, n_max, progress)
            return
        a = start
        while a < stop:
            b = stop if progress is None else min(stop, a + _LINEAR_CHUNK)
            hk.interval_kernel(g, a, b, lo, excluded, tv)
            if progress is not None:
                progress(b, stop)
            a = b

    return run


def subtraction_members(members: SetTakes | HeapGame, n: int) -> np.ndarray:
    """Members of an infinite subtraction set up to ``n``, ascending (vectorised)."""
    game = cast(SetTakes, members.moves_spec if isinstance(members, HeapGame) else members)
    if n < 1:
        return np.zeros(0, dtype=np.int64)
    t = np.arange(n + 1, dtype=np.int64)
    if game.kind == "primes":
        sieve = np.ones(n + 1, dtype=bool)
        sieve[:2] = False
        for p in range(2, math.isqrt(n) + 1):
            if sieve[p]:
                sieve[p * p :: p] = False
        mask = sieve
    elif game.kind == "squares":
        r = np.arange(1, math.isqrt(n) + 1, dtype=np.int64)
        return r * r
    elif game.kind == "triangular":
        r = np.arange(1, math.isqrt(2 * n) + 2, dtype=np.int64)
        tri = r * (r + 1) // 2
        return tri[tri <= n]
    elif game.kind == "multiples-of":
        return np.arange(game.modulus, n + 1, game.modulus, dtype=np.int64)
    elif game.kind == "all-but":
        mask = np.ones(n + 1, dtype=bool)
        mask[0] = False
        for e in game.excluded:
            if e <= n:
                mask[e] = False
    else:
        return np.array(game.members_up_to(n), dtype=np.int64)
    return t[mask]


def _members_limit(game: SetTakes) -> int:
    # Work is about sum_{n <= N} |members <= n|; keep it under MEMBERS_MAX_WORK.
    if game.kind == "squares":
        return min(LINEAR_MAX_N, int((MEMBERS_MAX_WORK * 1.5) ** (2 / 3)))
    if game.kind == "triangular":
        return min(LINEAR_MAX_N, int((MEMBERS_MAX_WORK * 1.5 / math.sqrt(2)) ** (2 / 3)))
    if game.kind == "primes":
        return 2_000_000
    if game.kind == "multiples-of":
        return min(LINEAR_MAX_N, int(math.sqrt(2 * MEMBERS_MAX_WORK * game.modulus)))
    return QUADRATIC_MAX_N


def _members_runner(
    game: SetTakes, tv: int
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        members = subtraction_members(game, n_max)
        _chunked(
            lambda gg, a, b, top: hk.members_kernel(gg, a, b, members, tv, top),
            _QUADRATIC_CHUNK,
            most=64,
        )(g, start, n_max, progress)

    return run


def rule_legal_rows(game: RelationMoves, n0: int, n1: int) -> np.ndarray:
    """``legal[r, m]``: whether ``n0 + r -> m`` is a move, for ``n0 <= n < n1`` and ``m < n1``.

    The rule is evaluated vectorised; where int64 arithmetic would overflow,
    row by row, and where a row still overflows, exactly point by point. An
    undefined value (division by zero) makes the move illegal, as in
    :meth:`Rule.legal`.
    """
    n = np.arange(n0, n1, dtype=np.int64)[:, None]
    m = np.arange(0, n1, dtype=np.int64)[None, :]
    try:
        ok, undefined = evaluate_array(game.predicate, {"n": n, "m": m})
        return np.asarray(ok & ~undefined & (m < n), dtype=bool)
    except EvalError:
        pass
    out = np.zeros((n1 - n0, n1), dtype=bool)
    for r in range(n1 - n0):
        heap = n0 + r
        if heap == 0:
            continue
        ms = np.arange(heap, dtype=np.int64)
        try:
            ok, undefined = evaluate_array(game.predicate, {"n": np.int64(heap), "m": ms})
            out[r, :heap] = np.asarray(ok & ~undefined, dtype=bool)
        except EvalError:
            out[r, :heap] = [game.legal(heap, int(x)) for x in range(heap)]
    return out


def _rule_runner(
    game: RelationMoves, tv: int
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        stop = n_max + 1
        seen = np.full(stop + 2, -1, dtype=np.int64)
        top = int(g[:start].max()) if start > 0 else 0
        a = start
        while a < stop:
            rows = max(1, min(stop - a, _RULE_CELLS // max(1, stop)))
            # Columns only up to the block's last heap: m < n for every row of the block.
            b = a + rows
            legal = rule_legal_rows(game, a, b)
            top = hk.rule_rows_kernel(g, a, legal, tv, seen, top)
            if progress is not None:
                progress(b, stop)
            a = b

    return run


@singledispatch
def _target_lists(spec: MoveDescription, game: HeapGame, n_max: int) -> list[np.ndarray]:
    """The targets of each heap ``n <= n_max`` (sorted, no duplicates); default: its moves."""
    return [np.array(sorted(set(game.heap_targets(n))), dtype=np.int64) for n in range(n_max + 1)]


@_target_lists.register
def _(spec: FiniteTakes, game: HeapGame, n_max: int) -> list[np.ndarray]:
    takes = np.array(spec.takes, dtype=np.int64)
    return [np.sort(n - takes[takes <= n]) for n in range(n_max + 1)]


@_target_lists.register
def _(spec: IntervalTakes, game: HeapGame, n_max: int) -> list[np.ndarray]:
    lo = interval_lows(game, n_max + 1)
    return [np.arange(lo[n], n, dtype=np.int64) for n in range(n_max + 1)]


@_target_lists.register
def _(spec: SetTakes, game: HeapGame, n_max: int) -> list[np.ndarray]:
    members = subtraction_members(spec, n_max)
    return [np.sort(n - members[members <= n]) for n in range(n_max + 1)]


@_target_lists.register
def _(spec: RelationMoves, game: HeapGame, n_max: int) -> list[np.ndarray]:
    lists: list[np.ndarray] = []
    step = max(1, _RULE_CELLS // max(1, n_max + 1))
    for a in range(0, n_max + 1, step):
        b = min(n_max + 1, a + step)
        legal = rule_legal_rows(spec, a, b)
        for r in range(b - a):
            lists.append(np.nonzero(legal[r])[0].astype(np.int64))
    return lists


def heap_targets_csr(game: HeapGame, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """For a non-splitting game: ``(ptr, targets)`` with the heaps one move from ``n`` in
    ``targets[ptr[n]:ptr[n+1]]`` (sorted, without duplicates), for ``n <= n_max``.

    Uses the family's structure where there is one (subtraction sets, move
    intervals, vectorised rules) and the plain move generator otherwise.
    """
    if game.splits:
        raise UsageError(f"{game.spec} splits heaps; its positions are not single heaps")
    lists = _target_lists(game.moves_spec, game, n_max)
    ptr = np.zeros(n_max + 2, dtype=np.int64)
    ptr[1:] = np.cumsum([len(x) for x in lists])
    targets = np.concatenate(lists) if lists else np.zeros(0, dtype=np.int64)
    return ptr, targets.astype(np.int64)


def _targets_runner(
    game: HeapGame, tv: int
) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        ptr, targets = heap_targets_csr(game, n_max)
        hk.targets_kernel(g, start, n_max + 1, ptr, targets, tv)

    return run


def _generic_runner(game: HeapGame) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        for n in range(start, n_max + 1):
            values = set()
            for parts in game.options(n):
                v = 0
                for a in parts:
                    v ^= int(g[a])
                values.add(v)
            g[n] = mex(values)
            if progress is not None and n % 256 == 0:
                progress(n, n_max + 1)

    return run


# ---------------------------------------------------------------------------
# Misère play of splitting games: whole positions
# ---------------------------------------------------------------------------


def misere_split_limit(base: Game) -> int:
    """The largest heap of a misère table of the splitting game ``base`` (normal-play rules).

    The measured limit of :data:`MISERE_SPLIT_LIMITS` for the seeds' codes, else
    :data:`MISERE_SPLIT_MAX_N`.
    """
    return MISERE_SPLIT_LIMITS.get(_code_digits(base), MISERE_SPLIT_MAX_N)


def _code_digits(base: Game) -> tuple[int, ...]:
    """The digits of ``base``'s take-and-break code (empty for other rules)."""
    return tuple(getattr(getattr(base, "moves_spec", None), "digits", None) or ())


def _misere_why(base: Game, limit: int) -> str:
    if _code_digits(base) in MISERE_SPLIT_LIMITS:
        return (
            f" (whole positions are evaluated exactly; heap {limit + 1} passes the budget of "
            f"{MISERE_MAX_POSITIONS:,} stored sums, and no quotient route found decides every value "
            'beyond it: docs/misere.md, "Misère nim-values")'
        )
    return ' (whole positions are evaluated exactly; docs/misere.md, "Misère nim-values")'


class MisereBudget(UsageError):
    """The exact misère evaluation of a splitting game passed its position budget."""

    def __init__(self, spec: str, heap: int, budget: int) -> None:
        self.heap, self.budget = heap, budget
        super().__init__(
            f"{spec}: the exact misère evaluation of whole positions passed {budget:,} "
            f"positions at heap {heap} (misère nim-values are exact only below it)"
        )


class MisereHeaps:
    """Misère nim-values of sums of heaps of a splitting game, evaluated as whole positions.

    A position is a multiset of heaps, kept in a reduced form that is the *same
    game* in misère play, so its value is the same (docs/misere.md, "Exact
    evaluation of whole positions"):

    * heaps with no move ("dead" heaps, such as 0) are dropped;
    * a heap whose options, reduced, are the same set as an earlier heap's is
      replaced by that heap (equal option sets make equal games);
    * heaps equal to ``*1`` (their only options are dead) cancel in pairs
      (``*1 + *1 = 0`` in misère play).

    Values are memoised across calls. The positions below a heap of ``n`` grow
    like the partitions of ``n``; at most ``max_positions`` are stored, and
    passing that budget raises :class:`MisereBudget` naming the heap.
    """

    def __init__(self, base: HeapGame, max_positions: int = MISERE_MAX_POSITIONS) -> None:
        self.base = base
        self.max_positions = max_positions
        self.memo: dict[tuple[int, ...], int] = {(): 1}
        self._options: list[list[tuple[int, ...]]] = [[]]
        self._rep: list[int] = [0]
        self._one = 0  # the first heap equal to *1 (0: none yet)
        self._sets: dict[frozenset[tuple[int, ...]], int] = {}

    def _grow(self, n: int) -> None:
        while len(self._rep) <= n:
            h = len(self._rep)
            opts = sorted({self._reduce(p) for p in self.base.options(h)})
            key = frozenset(opts)
            if not opts:
                self._rep.append(0)
            elif key in self._sets:
                self._rep.append(self._sets[key])
            else:
                self._sets[key] = h
                self._rep.append(h)
                if opts == [()]:
                    self._one = h
            self._options.append(opts if self._rep[h] == h else [])

    def _reduce(self, heaps: Sequence[int]) -> tuple[int, ...]:
        """The reduced form of a sum of heaps whose representatives are known."""
        rep, one = self._rep, self._one
        out = sorted(rep[h] for h in heaps if rep[h])
        k = out.count(one) if one else 0
        if k > 1:
            out = sorted([h for h in out if h != one] + [one] * (k % 2))
        return tuple(out)

    def value(self, heaps: tuple[int, ...]) -> int:
        """Misère nim-value of the sum of ``heaps`` (1 when no move is possible)."""
        self._grow(max(heaps, default=0))
        start = self._reduce(heaps)
        stack = [start]
        memo, options, reduce = self.memo, self._options, self._reduce
        while stack:
            pos = stack[-1]
            if pos in memo:
                stack.pop()
                continue
            values: set[int] = set()
            missing = False
            for i, h in enumerate(pos):
                if i > 0 and pos[i - 1] == h:
                    continue  # equal heaps give the same options
                rest = pos[:i] + pos[i + 1 :]
                for parts in options[h]:
                    got = memo.get(child := reduce(rest + parts))
                    if got is None:
                        missing = True
                        stack.append(child)
                    else:
                        values.add(got)
            if missing:
                continue
            memo[pos] = mex(values)
            stack.pop()
            if len(memo) > self.max_positions:
                raise MisereBudget(self.base.spec, max(heaps, default=0), self.max_positions)
        return memo[start]


def _misere_split_runner(base: HeapGame) -> Callable[[np.ndarray, int, int, Progress | None], None]:
    def run(g: np.ndarray, start: int, n_max: int, progress: Progress | None) -> None:
        evaluator = MisereHeaps(base)
        for n in range(start, n_max + 1):
            g[n] = evaluator.value((n,))
            if progress is not None:
                progress(n + 1, n_max + 1)

    return run
