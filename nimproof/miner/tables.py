"""Where the miner's tables come from: one small module, so the source can change.

The fast engines (:func:`nimproof.engines.grundy_table`,
:func:`nimproof.engines.multi_table`) are used when they are available; the
plain reference implementation otherwise (and for games an engine refuses).
Mined formulas are re-checked against tables, and the tests re-check them
against the reference implementation independently, so a bug in either
source cannot turn into a claimed result without the verifier noticing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from nimproof.engines import reference
from nimproof.errors import UsageError
from nimproof.games.base import Game, HeapGame, MultiHeapGame


def is_heap_game(game: Game) -> bool:
    """True for a one-heap rule or misère play of one (tables of single heaps make sense)."""
    return isinstance(game.normal, HeapGame)


def _engine(name: str) -> Callable[..., Any] | None:
    try:
        from nimproof import engines
    except ImportError:  # pragma: no cover - the package itself is always there
        return None
    fn = getattr(engines, name, None)
    return fn if callable(fn) else None


def heap_values(game: Game, n_max: int) -> np.ndarray:
    """Values of single heaps ``0..n_max`` (misère nim-values for ``misere:`` games), int64.

    Raises :class:`UsageError` for a game that is not a one-heap rule.
    """
    if not is_heap_game(game):
        raise UsageError(f"{game.spec} is not a one-heap game; mine it with --heaps")
    fast = _engine("grundy_table")
    if fast is not None:
        try:
            return np.asarray(fast(game, n_max), dtype=np.int64)
        except NotImplementedError:
            pass
    return reference_heap_values(game, n_max)


def reference_heap_values(game: Game, n_max: int) -> np.ndarray:
    """The same table computed by :mod:`nimproof.engines.reference` only."""
    if isinstance(game, HeapGame):
        return np.asarray(reference.heap_table(game, n_max), dtype=np.int64)
    cache: dict[Hashable, int] = {}
    return np.asarray([reference.value(game, n, cache) for n in range(n_max + 1)], dtype=np.int64)


def p_positions(game: Game, heaps: int, max_heap: int) -> np.ndarray:
    """Boolean array of shape ``(max_heap + 1,) * heaps``: True at the P-positions.

    For a one-heap rule the positions are sums of ``heaps`` heaps (evaluated
    as sums); for misère play and multi-heap games they are evaluated as a
    whole.
    """
    if not (is_heap_game(game) or isinstance(game, MultiHeapGame)):
        raise UsageError(f"{game.spec} has no heap positions to tabulate")
    spec = game.moves_spec
    fixed = spec.heap_count()
    if fixed is not None and heaps != fixed:
        raise UsageError(f"{game.spec} has exactly {fixed} heaps, not {heaps}")
    fast = _engine("multi_table")
    if fast is not None:
        try:
            table = fast(game, heaps, max_heap)
            return np.asarray(table.p_positions, dtype=bool)
        except NotImplementedError:
            pass
    return reference_p_positions(game, heaps, max_heap)


def reference_p_positions(game: Game, heaps: int, max_heap: int) -> np.ndarray:
    """The same array computed by :mod:`nimproof.engines.reference` only."""
    shape = (max_heap + 1,) * heaps
    out = np.zeros(shape, dtype=bool)
    cache: dict[Hashable, int] = {}
    for point in itertools.product(range(max_heap + 1), repeat=heaps):
        position: Hashable = game.position(tuple(point))
        out[point] = reference.value(game, position, cache) == 0
    return out
