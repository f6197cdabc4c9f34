"""The one table service: where a Grundy table comes from.

Every part of nimproof that needs the values of a game (the command line,
the Python API, the miner, position evaluation) asks here, and the choice is
made in one place:

1. a **stored table** in the data directory (``data/``, ``$NIMPROOF_DATA`` or
   ``data_dir``) is reused when it covers the bound (sliced), or extended from
   its values when it is shorter (:mod:`nimproof.datasets`);
2. otherwise a **small normal-play one-heap table** (at most
   :data:`REFERENCE_BUDGET` moves) is computed by the plain reference
   implementation, which starts instantly;
3. otherwise the **compiled engines** compute it (:mod:`nimproof.engines`),
   and it is stored when asked to.

The compiled engines (numba), the stored datasets (pandas, pyarrow) and even
numpy are imported only when a table needs them, so a small table computed by
the reference implementation starts instantly.

Functions:

* :func:`heap_table` - the values of heaps ``0..max_n`` with the engine and
  source that made them (the policy above);
* :func:`heap_values` - a process-wide memo of one-heap tables, grown
  geometrically (position evaluation asks for many small tables);
* :func:`box_table` - the table of a box ``[0, B]^H`` of several heaps;
* :func:`p_positions` - the P-positions of a box as a boolean array;
* :func:`plugin_values` - every position of a plugin game up to a size, valued;
* :func:`reference_heap_values`, :func:`reference_p_positions` - the same
  tables by the reference implementation only (independent oracles).

A table is never verified by the code that produced it: the verifier and the
tests compare these tables with the reference implementation.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimproof.datasets.paths import data_directory, file_name
from nimproof.engines import reference
from nimproof.errors import UsageError
from nimproof.games.base import Game, HeapGame, MultiHeapGame, PluginGame

if TYPE_CHECKING:
    import numpy as np

    from nimproof.datasets.store import Fetched

Progress = Callable[[int, int], None]

#: Moves the reference implementation may enumerate for a one-heap table before the
#: compiled engines take over (it answers in well under a tenth of a second).
REFERENCE_BUDGET = 300_000


def is_heap_game(game: Game) -> bool:
    """True for a one-heap rule or misère play of one (tables of single heaps make sense)."""
    return isinstance(game.normal, HeapGame)


def is_multi_heap(game: Game) -> bool:
    """True for families whose positions are several heaps (not sums of one heap game)."""
    base = getattr(game, "base", game)
    return isinstance(base, MultiHeapGame)


def is_plugin(game: Game) -> bool:
    """True for a plugin game (valued position by position, by the reference implementation)."""
    return isinstance(getattr(game, "base", game), PluginGame)


@dataclass(frozen=True, slots=True)
class HeapValues:
    """The values of heaps ``0..bound``, the engine that made them and where they came from."""

    values: Sequence[int] | np.ndarray
    """Values of heaps ``0..bound`` (misère nim-values for ``misere:`` games): a list from
    the reference implementation, an int64 array from the engines and datasets."""
    engine: str
    source: str
    """``"dataset"`` (sliced from a stored table), ``"extended"`` or ``"computed"``."""

    def as_list(self) -> list[int]:
        """The values as a list of Python ints."""
        if isinstance(self.values, list):
            return self.values
        return [int(v) for v in self.values]

    def as_array(self) -> np.ndarray:
        """The values as an int64 array."""
        import numpy as np  # lazy: start-up time (numpy)

        return np.asarray(self.values, dtype=np.int64)


def _stored(game: Game, data_dir: str | os.PathLike[str] | None) -> bool:
    return (data_directory(data_dir) / file_name(game.spec)).exists()


def heap_table(
    game: Game,
    max_n: int,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    save: bool = False,
    stored: bool = True,
    progress: Progress | None = None,
) -> HeapValues:
    """The values of heaps ``0..max_n`` of a one-heap game, by the policy of this module.

    ``stored=False`` leaves the data directory alone (nothing read, nothing
    written). ``save`` stores the result (and so skips the reference shortcut,
    whose values are not stored). Raises :class:`UsageError` for a game without
    one-heap tables and for a bound beyond the engine's limit.
    """
    on_disk = stored and _stored(game, data_dir)
    if not save and not on_disk and isinstance(game, HeapGame) and not game.misere:
        small = reference.heap_table_within(game, max_n, REFERENCE_BUDGET)
        if small is not None:
            return HeapValues(small, "reference", "computed")
    if not (on_disk or save):  # no stored table to read or write: no pandas, no pyarrow
        from nimproof.engines.heap import grundy_table, heap_engine  # lazy: start-up time (numba)

        values = grundy_table(game, max_n, progress=progress)
        return HeapValues(values, heap_engine(game), "computed")
    from nimproof.datasets.store import fetch_heap  # lazy: start-up time (pandas, pyarrow)

    got = fetch_heap(game, max_n, data_dir=data_dir, progress=progress, store=save)
    assert got.values is not None
    return HeapValues(got.values, got.engine, got.source)


_MEMO: dict[tuple[str, bool], np.ndarray] = {}


def heap_values(game: Game, n: int) -> np.ndarray:
    """The one-heap table of ``game`` up to at least heap ``n``, from the engines.

    Kept for the life of the process and extended incrementally, growing
    geometrically (many small calls stay linear) within the engine's limit.
    """
    from nimproof.engines.heap import grundy_table, plan_heap  # lazy: start-up time (numba)

    key = (game.spec, game.misere)
    known = _MEMO.get(key)
    if known is None or len(known) <= n:
        grown = n if known is None else min(max(n, 2 * (len(known) - 1)), plan_heap(game).limit)
        known = grundy_table(game, max(n, grown), prefix=known)
        _MEMO[key] = known
    return known


def box_table(
    game: Game,
    heaps: int,
    max_heap: int,
    *,
    method: str = "auto",
    data_dir: str | os.PathLike[str] | None = None,
    save: bool = False,
    progress: Progress | None = None,
) -> Fetched:
    """The table of the box ``[0, max_heap]^heaps``: a stored one is sliced, else it is
    computed by the engines (and stored with ``save``). ``.multi`` holds the table."""
    from nimproof.datasets.store import fetch_multi  # lazy: start-up time (pandas, pyarrow)

    return fetch_multi(
        game, heaps, max_heap, method=method, data_dir=data_dir, progress=progress, store=save
    )


def p_positions(game: Game, heaps: int, max_heap: int) -> np.ndarray:
    """Boolean array of shape ``(max_heap + 1,) * heaps``: True at the P-positions.

    Computed by the engines (no stored table is read). For a one-heap rule the
    positions are sums of ``heaps`` heaps; for misère play and multi-heap games
    they are evaluated as a whole.
    """
    if not (is_heap_game(game) or isinstance(game, MultiHeapGame)):
        raise UsageError(f"{game.spec} has no heap positions to tabulate")
    fixed = game.moves_spec.heap_count()
    if fixed is not None and heaps != fixed:
        raise UsageError(f"{game.spec} has exactly {fixed} heaps, not {heaps}")
    # lazy: start-up time (numpy, numba)
    import numpy as np

    from nimproof.engines.multi import multi_table

    return np.asarray(multi_table(game, heaps, max_heap).p_positions, dtype=bool)


def plugin_values(game: Game, max_size: int) -> list[tuple[Any, int]]:
    """Every position of size at most ``max_size`` that a plugin game enumerates, with its
    value (reference implementation, one shared memo)."""
    base = getattr(game, "base", game)
    if not isinstance(base, PluginGame):
        raise UsageError(f"{game.spec} is not a plugin game")
    cache: dict[Any, int] = {}
    return [(pos, reference.value(game, pos, cache)) for pos in base.positions(max_size)]


def reference_heap_values(game: Game, n_max: int) -> np.ndarray:
    """Values of heaps ``0..n_max`` by :mod:`nimproof.engines.reference` only (an oracle)."""
    import numpy as np  # lazy: start-up time (numpy)

    if isinstance(game, HeapGame):
        return np.asarray(reference.heap_table(game, n_max), dtype=np.int64)
    cache: dict[Hashable, int] = {}
    return np.asarray([reference.value(game, n, cache) for n in range(n_max + 1)], dtype=np.int64)


def reference_p_positions(game: Game, heaps: int, max_heap: int) -> np.ndarray:
    """:func:`p_positions` by :mod:`nimproof.engines.reference` only (an oracle)."""
    import numpy as np  # lazy: start-up time (numpy)

    shape = (max_heap + 1,) * heaps
    out = np.zeros(shape, dtype=bool)
    cache: dict[Hashable, int] = {}
    for point in itertools.product(range(max_heap + 1), repeat=heaps):
        position: Hashable = game.position(tuple(point))
        out[point] = reference.value(game, position, cache) == 0
    return out
