"""Values and winning moves of single positions.

:func:`position_value` and :func:`winning_moves` accept the positions of
every family:

* a heap game: an ``int`` (one heap) or a sequence of heaps (a sum, valued by
  Sprague–Grundy from the heap table);
* misère play of a heap game: the same, valued as a whole position;
* Moore's Nim_k, staircase Nim (and their misère play): a sequence of heaps;
* ``sum:A+B+...``: one ``int`` per component, or the game's own form (a tuple
  with a tuple of heaps per component);
* plugins: the plugin's own positions.

Tables are used where the family has one; plugins and misère play of
splitting games fall back to whole-position evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import singledispatch
from math import prod

import numpy as np

from nimproof.engines import reference
from nimproof.engines.heap import MisereHeaps, misere_split_limit
from nimproof.engines.move import Move
from nimproof.engines.multi import MAX_CELLS, MAX_MOVES, box_table, moore_masks
from nimproof.engines.multi_kernels import moore_sieve, staircase_values
from nimproof.errors import UsageError
from nimproof.games.base import (
    Game,
    HeapGame,
    MoveDescription,
    MultiHeapGame,
    PluginGame,
    Position,
    StairToStair,
    UpToKHeaps,
)
from nimproof.tables import heap_values

#: Largest number of positions a plugin evaluation may memoise.
PLUGIN_MAX_POSITIONS = 2_000_000


def position_value(game: Game, position: Position) -> int:
    """The Grundy value (normal play) or misère nim-value (misère play) of ``position``.

    Raises :class:`UsageError` for a malformed position or one too large for
    the available engines.
    """
    return _Evaluator(game, position).value()


def winning_moves(game: Game, position: Position) -> list[Move]:
    """Every move from ``position`` to a position of value 0 (a P-position), without duplicates.

    Empty when ``position`` is itself a P-position (or terminal).
    """
    return _Evaluator(game, position).winning()


# ---------------------------------------------------------------------------


def _heaps(position: Position, what: str = "a heap") -> tuple[int, ...]:
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        items: Sequence[object] = (int(position),)
    elif isinstance(position, (tuple, list, np.ndarray)):
        items = list(position)
    else:
        raise UsageError(
            f"a position of heaps must be a number or a list of numbers, got {position!r}"
        )
    out = []
    for x in items:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
            raise UsageError(f"{what} size must be a whole number, got {x!r}")
        if int(x) < 0:
            raise UsageError(f"{what} size must be at least 0, got {x}")
        out.append(int(x))
    return tuple(out)


class _Evaluator:
    """Values one position and its options; box-valued games compute their box once."""

    def __init__(self, game: Game, position: Position) -> None:
        self.game = game
        self.position = position
        self.base = game.normal
        self.spec = game.moves_spec
        self.misere = game.misere
        fixed = self.spec.heap_count()
        # A sum of one heap of each component family (None for every other game).
        self.comps = self.spec.parts(game, fixed) if fixed is not None else None

    # -- dispatch ----------------------------------------------------------

    def value(self) -> int:
        box = self._box()
        if box is not None:
            values, index = box
            return int(values[index(None)])
        if isinstance(self.base, HeapGame):
            heaps = _heaps(self.position)
            if not self.misere:
                t = heap_values(self.base, max(heaps, default=0))
                out = 0
                for h in heaps:
                    out ^= int(t[h])
                return out
            return self._misere_heaps_value(heaps)
        if self.comps is not None:
            return self._sum_value(self._sum_position(self.position))
        return self._plugin_value(self.position)

    def winning(self) -> list[Move]:
        moves = self._moves()
        sieve = None if self.misere else _p_sieve(self.spec, self)
        if sieve is not None:
            # Only "value 0 or not" is needed: the P-position sieve is far cheaper.
            return [m for m in moves if bool(sieve[_heaps(m.target)])]
        box = self._box()
        if box is not None:
            values, index = box
            return [m for m in moves if int(values[index(m)]) == 0]
        return [m for m in moves if _Evaluator(self.game, m.target).value() == 0]

    # -- games valued on a box around the position ------------------------------

    def _box(self) -> tuple[np.ndarray, Callable[[Move | None], tuple[int, ...]]] | None:
        """Values on a domain holding the position and its options, and how to index it.

        ``index(None)`` is the position itself, ``index(move)`` the move's target.
        ``None`` for games valued otherwise (heap tables, plugins, misère of
        splitting games, single heaps).
        """
        base = self.base
        own = _own_box(self.spec, self)
        if own is not None:
            return own
        if not self.misere:
            return None
        if isinstance(base, HeapGame) and not base.splits:
            heaps = _heaps(self.position)
            if sum(1 for h in heaps if h > 0) <= 1:
                return None
            flat = heaps
        elif self.comps is not None and not any(c.splits for c in self.comps):
            parts = self._sum_position(self.position)
            if any(len(h) > 1 for h in parts):
                return None
            flat = tuple(h[0] if h else 0 for h in parts)
        else:
            return None
        dims = np.array([h + 1 for h in flat], dtype=np.int64)
        cells = int(prod(int(d) for d in dims))
        if cells > MAX_CELLS:
            raise UsageError(
                f"{self.game.spec}: misère positions are evaluated as a whole, here over "
                f"{cells:,} positions; the limit is {MAX_CELLS:,}"
            )
        table = box_table(self.game, dims)
        assert table.values is not None

        def index(move: Move | None) -> tuple[int, ...]:
            if move is None:
                return flat
            assert move.heap is not None and move.after is not None
            # A non-splitting move leaves at most one heap where the moved heap was.
            return (*flat[: move.heap], move.after[0] if move.after else 0, *flat[move.heap + 1 :])

        return table.values, index

    def _staircase_box(self) -> tuple[np.ndarray, Callable[[Move | None], tuple[int, ...]]]:
        heaps = _heaps(self.position)
        if not heaps:
            raise UsageError(f"{self.game.spec} needs at least one stair")
        # Moves carry coins down, so options leave the box; the domain bounding every suffix
        # sum by the position's own is closed under moves and holds every option.
        caps = np.cumsum(np.array(heaps[::-1], dtype=np.int64))[::-1].astype(np.int64)
        cells = int(prod(int(c) + 1 for c in caps))
        if cells > MAX_CELLS:
            raise UsageError(
                f"staircase position {heaps} is too large to evaluate (too many coins)"
            )
        full = staircase_values(caps, self.misere).reshape(
            tuple(int(c) + 1 for c in caps), order="F"
        )
        return full, lambda move: heaps if move is None else _heaps(move.target)

    def _moore_box(self, k: int) -> tuple[np.ndarray, Callable[[Move | None], tuple[int, ...]]]:
        heaps = _heaps(self.position)
        if not heaps:
            raise UsageError(f"{self.game.spec} needs at least one heap")
        dims = np.array([h + 1 for h in heaps], dtype=np.int64)
        cells = int(prod(int(d) for d in dims))
        masks = moore_masks(len(heaps), k)
        work = cells * sum(
            int(prod(int(dims[i]) for i in range(len(heaps)) if (int(m) >> i) & 1)) for m in masks
        )
        if cells > MAX_CELLS or work > MAX_MOVES:
            raise UsageError(
                f"the Grundy value of {self.game.spec} at {heaps} needs about "
                f"{work:.1e} move visits; "
                "use smaller heaps (the P-positions of larger boxes come from 'nimproof table')"
            )
        table = box_table(self.game, dims, method="direct")
        assert table.values is not None
        return table.values, lambda move: heaps if move is None else _heaps(move.target)

    def _moore_p_positions(self, k: int) -> np.ndarray:
        heaps = _heaps(self.position)
        dims = np.array([h + 1 for h in heaps], dtype=np.int64)
        if int(prod(int(d) for d in dims)) > MAX_CELLS:
            raise UsageError(f"position {heaps} of {self.game.spec} is too large")
        return moore_sieve(dims, moore_masks(len(heaps), k), False).reshape(
            tuple(int(d) for d in dims)
        )

    # -- heap games ----------------------------------------------------------

    def _misere_heaps_value(self, heaps: tuple[int, ...]) -> int:
        base = self.base
        assert isinstance(base, HeapGame)
        live = tuple(h for h in heaps if h > 0)
        if len(live) <= 1:
            return int(heap_values(self.game, max(live, default=0))[max(live, default=0)])
        limit = misere_split_limit(base)
        if sum(live) > limit:
            raise UsageError(
                f"{self.game.spec}: misère positions are evaluated as a whole; "
                f"heaps totalling {sum(live)} exceed the limit of {limit}"
            )
        return _misere_evaluator(base).value(live)

    # -- sums of different families -----------------------------------------

    def _sum_position(self, position: Position) -> tuple[tuple[int, ...], ...]:
        assert self.comps is not None
        k = len(self.comps)
        if not isinstance(position, (tuple, list)) or len(position) != k:
            raise UsageError(
                f"{self.game.spec} needs one heap per component ({k} heaps), got {position!r}"
            )
        parts: list[tuple[int, ...]] = []
        for item in position:
            if isinstance(item, (tuple, list)):
                parts.append(tuple(sorted(h for h in _heaps(tuple(item)) if h > 0)))
            else:
                parts.append(tuple(h for h in _heaps(item) if h > 0))
        return tuple(parts)

    def _sum_value(self, parts: tuple[tuple[int, ...], ...]) -> int:
        assert self.comps is not None
        if not self.misere:
            out = 0
            for comp, heaps in zip(self.comps, parts, strict=True):
                t = heap_values(comp, max(heaps, default=0))
                for h in heaps:
                    out ^= int(t[h])
            return out
        return self._plugin_value(parts)

    # -- plugins and the fallback ---------------------------------------------

    def _plugin_value(self, position: Position) -> int:
        if isinstance(self.base, PluginGame) and not isinstance(position, Hashable):
            raise UsageError(f"{self.game.spec}: positions must be hashable, got {position!r}")
        cache = _plugin_cache(self.game)
        value = reference.value(self.game, position, cache)
        if len(cache) > PLUGIN_MAX_POSITIONS:
            cache.clear()
        return value

    # -- moves ------------------------------------------------------------------

    def _moves(self) -> list[Move]:
        base = self.base
        out: list[Move] = []
        seen: set[Hashable] = set()
        if isinstance(base, HeapGame):
            heaps = _heaps(self.position)
            for i, h in enumerate(heaps):
                for parts in base.options(h):
                    after = tuple(parts)
                    key = (i, tuple(sorted(after)))
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(Move(heaps[:i] + after + heaps[i + 1 :], i, h, after))
            return out
        if self.comps is not None:
            parts_now = self._sum_position(self.position)
            for i, (comp, heaps) in enumerate(zip(self.comps, parts_now, strict=True)):
                for j, h in enumerate(heaps):
                    if j > 0 and heaps[j - 1] == h:
                        continue
                    rest = heaps[:j] + heaps[j + 1 :]
                    for opt in comp.options(h):
                        new = tuple(sorted(x for x in rest + tuple(opt) if x > 0))
                        target = (*parts_now[:i], new, *parts_now[i + 1 :])
                        if target in seen:
                            continue
                        seen.add(target)
                        out.append(Move(target, i, h, tuple(opt)))
            return out
        if isinstance(base, MultiHeapGame):
            heaps = _heaps(self.position)
            for t in base.moves(heaps):
                after = _heaps(t)
                if after in seen:
                    continue
                seen.add(after)
                changed = [i for i in range(len(heaps)) if heaps[i] != after[i]]
                if len(changed) == 1:
                    i = changed[0]
                    out.append(Move(after, i, heaps[i], (after[i],)))
                else:
                    out.append(Move(after))
            return out
        for t in self.game.moves(self.position):
            if t in seen:
                continue
            seen.add(t)
            out.append(Move(t))
        return out


_MISERE: dict[str, MisereHeaps] = {}
_PLUGIN_CACHES: dict[str, dict[Hashable, int]] = {}


def _misere_evaluator(base: HeapGame) -> MisereHeaps:
    ev = _MISERE.get(base.spec)
    if ev is None:
        ev = _MISERE[base.spec] = MisereHeaps(base)
    return ev


def _plugin_cache(game: Game) -> dict[Hashable, int]:
    return _PLUGIN_CACHES.setdefault(f"{type(game).__name__}:{game.spec}", {})


Box = tuple[np.ndarray, Callable[[Move | None], tuple[int, ...]]]


@singledispatch
def _own_box(spec: MoveDescription, ev: _Evaluator) -> Box | None:
    """The values around the position from a kernel of the description's own, if it has one."""
    return None


@_own_box.register
def _(spec: StairToStair, ev: _Evaluator) -> Box | None:
    return ev._staircase_box()


@_own_box.register
def _(spec: UpToKHeaps, ev: _Evaluator) -> Box | None:
    return ev._moore_box(spec.k)


@singledispatch
def _p_sieve(spec: MoveDescription, ev: _Evaluator) -> np.ndarray | None:
    """The P-positions around the position by a sieve (normal play), if the description has one."""
    return None


@_p_sieve.register
def _(spec: UpToKHeaps, ev: _Evaluator) -> np.ndarray | None:
    return ev._moore_p_positions(spec.k)
