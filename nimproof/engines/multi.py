"""Tables of positions with several heaps, over the box ``[0, max_heap]^heaps``.

:func:`multi_table` chooses a method:

* ``"sieve"`` - Moore's Nim_k: the P-positions only (``kind = "outcome"``);
* ``"direct"`` - mex over every move of the joint position: misère play,
  staircase Nim, sums evaluated as a whole, Moore's Nim_k on small boxes;
* ``"xor"`` - Sprague–Grundy: the xor of single-heap tables (sums of heap
  games, sums of heap games).

``method="auto"`` takes ``sieve`` for Moore's Nim_k, ``xor`` for several heaps
of one heap game and for a ``Sum`` with a splitting component (its joint
positions leave the box), and ``direct`` for everything else
(:func:`resolve_method` says which without computing anything). A sum-rule check
compares ``direct`` with ``xor``; :attr:`MultiTable.engine` says which ran.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import singledispatch
from itertools import combinations
from math import prod
from typing import cast

import numpy as np

from nimproof.engines import multi_kernels as mk
from nimproof.engines.heap import grundy_table, heap_targets_csr
from nimproof.errors import UsageError
from nimproof.games.base import (
    Game,
    HeapGame,
    MoveDescription,
    MultiHeapGame,
    StairToStair,
    UpToKHeaps,
    mex,
)

Progress = Callable[[int, int], None]

METHODS = ("auto", "sieve", "direct", "xor")

#: Largest number of cells of a box (positions) any multi-heap table may have.
MAX_CELLS = 50_000_000
#: Largest estimated number of move visits of a direct (mex) computation.
MAX_MOVES = 10**9
#: Largest number of heaps.
MAX_HEAPS = 12


@dataclass(frozen=True)
class MultiTable:
    """Values or outcomes of every position of a box ``[0, max_heap]^heaps``.

    ``values[h0, ..., h_{H-1}]`` is the Grundy value (misère nim-value for a
    misère game) of that position, or ``None`` when only outcomes were
    computed (``kind == "outcome"``). ``p_positions`` is a boolean array of
    the same shape: True where the player to move loses. ``engine`` names the
    method that produced the table (``moore-sieve``, ``direct-mex``,
    ``staircase-direct-mex``, ``xor-of-heap-tables``).
    """

    values: np.ndarray | None
    p_positions: np.ndarray
    kind: str
    engine: str

    @property
    def heaps(self) -> int:
        """The number of heaps (dimensions of the box)."""
        return int(self.p_positions.ndim)

    @property
    def max_heap(self) -> int:
        """The largest heap size in the box."""
        return int(self.p_positions.shape[0]) - 1


def multi_table(
    game: Game,
    heaps: int,
    max_heap: int,
    *,
    progress: Progress | None = None,
    method: str = "auto",
) -> MultiTable:
    """The table of ``game`` on the box ``[0, max_heap]^heaps`` (see the module docstring).

    Raises :class:`UsageError` for games without multi-heap positions
    (plugins), a method that does not apply, and boxes beyond the limits
    (:data:`MAX_CELLS` positions, :data:`MAX_MOVES` move visits).
    """
    heaps, max_heap = _check_box(heaps, max_heap)
    dims = np.full(heaps, max_heap + 1, dtype=np.int64)
    table = box_table(game, dims, method=method, progress=progress)
    if progress is not None:
        cells = int(prod(int(d) for d in dims))
        progress(cells, cells)
    return table


def _check_box(heaps: int, max_heap: int) -> tuple[int, int]:
    for name, v in (("heaps", heaps), ("max_heap", max_heap)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise UsageError(f"{name} must be a whole number, got {v!r}")
    if not 1 <= int(heaps) <= MAX_HEAPS:
        raise UsageError(f"the number of heaps must be between 1 and {MAX_HEAPS}, got {heaps}")
    if int(max_heap) < 0:
        raise UsageError(f"the largest heap must be at least 0, got {max_heap}")
    cells = (int(max_heap) + 1) ** int(heaps)
    if cells > MAX_CELLS:
        raise UsageError(
            f"a box of {heaps} heaps up to {max_heap} has {cells:,} positions; "
            f"the limit is {MAX_CELLS:,}"
        )
    return int(heaps), int(max_heap)


def box_table(
    game: Game, dims: np.ndarray, *, method: str = "auto", progress: Progress | None = None
) -> MultiTable:
    """Like :func:`multi_table` on the box ``0 <= h[i] < dims[i]`` (the sides may differ)."""
    dims = np.asarray(dims, dtype=np.int64)
    if dims.ndim != 1 or dims.size == 0 or int(dims.min()) < 1:
        raise UsageError("a box needs at least one heap and positive sides")
    cells = int(prod(int(d) for d in dims))
    if cells > MAX_CELLS:
        raise UsageError(f"the box has {cells:,} positions; the limit is {MAX_CELLS:,}")
    method = resolve_method(game, int(dims.size), method)
    return _box(game.moves_spec, game, dims, method)


@singledispatch
def _box(spec: MoveDescription, game: Game, dims: np.ndarray, method: str) -> MultiTable:
    """The box table from the description: a sum of one-heap rules by ``xor`` or ``direct``,
    any other game by the generic engine over its own moves."""
    comps = spec.parts(game, int(dims.size))
    if comps is None:
        return generic_table(game, dims)
    if method == "xor":
        return _xor(list(comps), dims)
    return _direct(game, list(comps), dims, game.misere)


@_box.register
def _(spec: UpToKHeaps, game: Game, dims: np.ndarray, method: str) -> MultiTable:
    if method == "sieve":
        return _moore_sieve(spec, dims, game.misere)
    return _moore_direct(spec, dims, game.misere)


@_box.register
def _(spec: StairToStair, game: Game, dims: np.ndarray, method: str) -> MultiTable:
    return _staircase(dims, game.misere)


def resolve_method(game: Game, heaps: int, method: str = "auto") -> str:
    """The method :func:`multi_table` runs for ``game`` on ``heaps`` heaps (``auto`` resolved).

    Raises :class:`UsageError` when the game has no box table or the method
    does not apply to it.
    """
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    misere = game.misere
    allowed = _methods(game.moves_spec, game, heaps)
    if method == "auto":
        return allowed[0]
    if method not in allowed:
        why = " (misère values are not additive)" if misere and method == "xor" else ""
        raise UsageError(
            f"method {method!r} does not apply to {game.spec}{why}; use one of {', '.join(allowed)}"
        )
    return method


@singledispatch
def _methods(spec: MoveDescription, game: Game, heaps: int) -> tuple[str, ...]:
    fixed = spec.heap_count()
    if fixed is not None and fixed != heaps:
        raise UsageError(
            f"{game.spec} positions have {fixed} heaps (one per component), not {heaps}"
            if spec.parts(game, fixed) is not None
            else f"{game.spec} positions have {fixed} heaps, not {heaps}"
        )
    comps = spec.parts(game, heaps)
    if comps is not None:
        if game.misere:
            return ("direct",)
        own = isinstance(game.normal, HeapGame)
        return ("xor", "direct") if own or any(c.splits for c in comps) else ("direct", "xor")
    if isinstance(game, MultiHeapGame):
        return ("direct",)
    raise UsageError(
        f"{game.spec} has no table over heap sizes; "
        "evaluate its positions one by one (nimproof value)"
    )


@_methods.register
def _(spec: UpToKHeaps, game: Game, heaps: int) -> tuple[str, ...]:
    return ("sieve", "direct")


@_methods.register
def _(spec: StairToStair, game: Game, heaps: int) -> tuple[str, ...]:
    return ("direct",)


def generic_table(game: Game, dims: np.ndarray) -> MultiTable:
    """Values of a multi-heap game on a box from its own :meth:`Game.moves` (any family).

    Every move lowers the description's weighted measure
    (:meth:`MoveDescription.weights`), so the positions reachable from the
    box are evaluated in increasing measure: each one's options are known
    before it. Limited to :data:`MAX_CELLS` reachable positions and
    :data:`MAX_MOVES` move visits.
    """
    shape = tuple(int(d) for d in dims)
    weights = game.moves_spec.weights(len(shape))
    options: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    todo = [tuple(int(x) for x in ix) for ix in np.ndindex(*shape)]
    visits = 0
    while todo:
        pos = todo.pop()
        if pos in options:
            continue
        targets: list[tuple[int, ...]] = [cast(tuple[int, ...], q) for q in game.normal.moves(pos)]
        options[pos] = targets
        visits += len(targets)
        todo.extend(q for q in targets if q not in options)
        if len(options) > MAX_CELLS:
            raise UsageError(
                f"{game.spec}: more than {MAX_CELLS:,} positions reachable from the box"
            )
        _check_work(visits, f"{game.spec} by mex over its own moves")

    def measure(q: tuple[int, ...]) -> int:
        return sum(w * x for w, x in zip(weights, q, strict=True))

    value: dict[tuple[int, ...], int] = {}
    terminal = 1 if game.misere else 0
    for pos in sorted(options, key=measure):
        seen = {value[q] for q in options[pos]}
        value[pos] = mex(seen) if options[pos] else terminal
    values = np.zeros(shape, dtype=np.int64)
    for ix in np.ndindex(*shape):
        values[ix] = value[tuple(int(x) for x in ix)]
    return MultiTable(values, values == 0, "grundy", "generic-mex")


def moore_masks(heaps: int, k: int) -> np.ndarray:
    """The sets of heaps (as bit masks) one move of Moore's Nim_k may lower: 1..k heaps."""
    masks = [
        sum(1 << i for i in chosen)
        for size in range(1, min(k, heaps) + 1)
        for chosen in combinations(range(heaps), size)
    ]
    return np.array(masks, dtype=np.int64)


def _moore_sieve(game: UpToKHeaps, dims: np.ndarray, misere: bool) -> MultiTable:
    masks = moore_masks(int(dims.size), game.k)
    p = mk.moore_sieve(dims, masks, misere).reshape(tuple(int(d) for d in dims))
    return MultiTable(None, p, "outcome", "moore-sieve")


def _moore_direct(game: UpToKHeaps, dims: np.ndarray, misere: bool) -> MultiTable:
    masks = moore_masks(int(dims.size), game.k)
    shape = tuple(int(d) for d in dims)
    # Each position has at most sum over masks of prod(dims[mask]) options.
    work = int(prod(shape)) * sum(
        int(prod(int(dims[i]) for i in range(dims.size) if (int(m) >> i) & 1)) for m in masks
    )
    _check_work(work, "Moore's Nim by mex over every move")
    values = mk.moore_grundy(dims, masks, misere).reshape(shape)
    return MultiTable(values, values == 0, "grundy", "moore-direct-mex")


def _staircase(dims: np.ndarray, misere: bool) -> MultiTable:
    # The domain must be closed under moves: bound every suffix sum by the box's suffix sum.
    sides = dims - 1
    caps = np.cumsum(sides[::-1])[::-1].astype(np.int64)
    cells = int(prod(int(c) + 1 for c in caps))
    if cells > MAX_CELLS:
        raise UsageError(
            f"staircase Nim on this box needs a closed domain of {cells:,} cells; "
            f"the limit is {MAX_CELLS:,}"
        )
    _check_work(cells * int(caps[0]), "staircase Nim")
    full = mk.staircase_values(caps, misere)
    box = full.reshape(tuple(int(c) + 1 for c in caps), order="F")
    values = np.ascontiguousarray(box[tuple(slice(0, int(d)) for d in dims)])
    return MultiTable(values, values == 0, "grundy", "staircase-direct-mex")


def _xor(components: list[HeapGame], dims: np.ndarray) -> MultiTable:
    tables = [grundy_table(c, int(d) - 1) for c, d in zip(components, dims, strict=True)]
    values = np.zeros(tuple(int(d) for d in dims), dtype=np.int64)
    for axis, t in enumerate(tables):
        shape = [1] * len(tables)
        shape[axis] = len(t)
        values ^= t.reshape(shape)
    return MultiTable(values, values == 0, "grundy", "xor-of-heap-tables")


def _direct(game: Game, components: list[HeapGame], dims: np.ndarray, misere: bool) -> MultiTable:
    for c in components:
        if c.splits:
            raise UsageError(
                f"{game.spec}: {c.spec} splits heaps, so joint positions leave the box; "
                "direct evaluation needs non-splitting components"
            )
    width = int(dims.max()) + 1
    ptr = np.zeros((len(components), width), dtype=np.int64)
    lists = []
    offset = 0
    moves_per_heap = []
    for i, (c, d) in enumerate(zip(components, dims, strict=True)):
        p, t = heap_targets_csr(c, int(d) - 1)
        ptr[i, : len(p)] = p + offset
        ptr[i, len(p) :] = p[-1] + offset
        lists.append(t)
        offset += len(t)
        moves_per_heap.append(len(t) / int(d))
    targets = np.concatenate(lists).astype(np.int64)
    cells = int(prod(int(d) for d in dims))
    _check_work(int(cells * sum(moves_per_heap)), f"{game.spec} by mex over joint positions")
    shape = tuple(int(d) for d in dims)
    values = mk.heaps_direct(dims, ptr, targets, misere).reshape(shape)
    return MultiTable(values, values == 0, "grundy", "direct-mex")


def _check_work(work: int, what: str) -> None:
    if work > MAX_MOVES:
        raise UsageError(
            f"evaluating {what} on this box visits about {work:.2e} moves; "
            f"the limit is {MAX_MOVES:.0e}"
        )
