"""The period of a one-heap game, as ``nimproof period`` and :func:`nimproof.period` report it.

The table of the game is computed up to ``max_n``; the relation
``g(n + p) = g(n) + s`` (period ``p``, preperiod ``n0``, saltus ``s``) with the
fewest stored values ``n0 + p`` that holds to the end of the table, over at
least :data:`MIN_PERIODS` periods, is reported. Whether a theorem proves it
for every ``n`` is decided by :mod:`nimproof.theory.periodicity` (the same
theorems as the ``periodicity`` proof method and the atlas: Golomb, Guy–Smith
with CGSuite's safer window, the splitting window, the all-but window lemma
with any saltus). The table is extended to the heap the theorem's window
needs (up to :data:`MAX_THEOREM_N`); only then is the period called
*proved*. Otherwise it is *apparent*: seen up to ``max_n``, no more.

Above :data:`LONG_FROM` heaps the search runs on long tables instead
(:func:`nimproof.engines.periods.find_period`: the sparse-space engine for
two-way take-and-break codes and Grundy's game, a period looked for at every
quarter of each doubling, saltus 0 only), and the answer also holds
``seconds``, ``checked`` (the cross-checks of the values) and ``figures``;
``values`` then holds only the first :data:`LONG_VALUES_SHOWN` values.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from nimproof import tables
from nimproof.engines.periods import find_period
from nimproof.games import HeapGame
from nimproof.theory.periodicity import (
    Established,
    Relation,
    Theorem,
    check,
    find_periodicity,
    theorem_for,
)

DEFAULT_MAX_N = 2000
#: Largest table extended to when a theorem asks for it.
MAX_THEOREM_N = 1_000_000
#: Above this ``max_n`` the long-table search is used.
LONG_FROM = 100_000
#: Values kept in the answer of a long-table search.
LONG_VALUES_SHOWN = 2000
#: Full periods that must follow the preperiod in the table.
MIN_PERIODS = 3
#: ``progress(description)``: a context giving a ``callback(done, total)`` (a progress bar).
ProgressFactory = Callable[[str], AbstractContextManager[Callable[[int, int], None]]]
#: ``values_of(game, max_n)``: the values of heaps ``0..max_n`` and the engine that made them.
ValuesOf = Callable[[HeapGame, int], tuple[list[int], str]]


@contextlib.contextmanager
def _silent(description: str) -> Iterator[Callable[[int, int], None]]:
    yield lambda done, total: None


def stored_or_computed(
    game: HeapGame, max_n: int, progress: ProgressFactory | None = None
) -> tuple[list[int], str]:
    """The values of heaps ``0..max_n`` and their engine, by the one table policy of
    :func:`nimproof.tables.heap_table` (a stored table if there is one, a small table from
    the reference implementation, else the compiled engines; nothing is saved)."""
    with (progress or _silent)(f"{game.spec}: heaps 0..{max_n:,}") as cb:
        got = tables.heap_table(game, max_n, progress=cb)
    return got.as_list(), got.engine


def analyse(
    game: HeapGame,
    max_n: int,
    values_of: ValuesOf | None = None,
    progress: ProgressFactory | None = None,
) -> dict[str, Any]:
    """The answer as JSON: periodicity found, theorem, bound, status and the values used.

    ``status`` is ``proved`` (a theorem proves the relation for every ``n``;
    ``theorem`` names it and ``bound`` is the last heap it read), ``apparent``
    or ``none``. ``values_of`` gives the tables (default
    :func:`stored_or_computed`); ``progress`` draws the long search's progress.
    """
    if max_n > LONG_FROM:
        return analyse_long(game, max_n, progress)
    get = values_of or (lambda g, n: stored_or_computed(g, n, progress))
    values, engine = get(game, max_n)
    per = find_periodicity(values, max_period=None, min_periods=MIN_PERIODS)
    out: dict[str, Any] = {"spec": game.spec, "max_n": max_n, "engine": engine}
    if per is None:
        out.update(status="none", values=values)
        return out
    theorem = theorem_for(game, *per)
    if theorem is not None and theorem.needs - 1 <= MAX_THEOREM_N and theorem.needs > len(values):
        values, engine = get(game, theorem.needs - 1)
        again = find_periodicity(values, max_period=None, min_periods=MIN_PERIODS)
        if again != per:  # the longer table shows another periodicity: report that one
            per = again or per
            theorem = theorem_for(game, *per) if again else None
    proved = _proved(theorem, values, per)
    out.update(
        status="proved" if proved else "apparent",
        period=per.period,
        preperiod=per.preperiod,
        saltus=per.saltus,
        theorem=theorem.name if theorem else None,
        bound=theorem.needs - 1 if theorem else None,
        checked_to=len(values) - 1,
        engine=engine,
        values=values,
    )
    return out


def _proved(theorem: Theorem | None, values: list[int], per: Relation) -> bool:
    """True when ``theorem`` proves ``per`` from ``values`` (within :data:`MAX_THEOREM_N`)."""
    if theorem is None or theorem.needs - 1 > MAX_THEOREM_N:
        return False
    return isinstance(check(theorem, values, *per), Established)


def _bound(game: HeapGame, p: int, n0: int) -> int | None:
    """The last heap the theorem for ``(p, n0, 0)`` reads (None: no theorem applies)."""
    theorem = theorem_for(game, p, n0, 0)
    return theorem.needs - 1 if theorem else None


def analyse_long(
    game: HeapGame, max_n: int, progress: ProgressFactory | None = None
) -> dict[str, Any]:
    """The answer for a long table (see the module docstring), in the same JSON shape."""
    with (progress or _silent)(f"{game.spec}: heaps") as cb:
        run, values = find_period(game, max_n, progress=cb)
    out: dict[str, Any] = {"spec": game.spec, "max_n": max_n, "engine": run.engine}
    extra = {"seconds": round(run.seconds, 3), "checked": run.checked, "figures": run.stats}
    shown = [int(v) for v in values[:LONG_VALUES_SHOWN]]
    f = run.found
    if f is None:
        out.update(status="none", checked_to=run.values - 1, values=shown, **extra)
        return out
    out.update(
        status="proved" if f.proved else "apparent",
        period=f.period,
        preperiod=f.preperiod,
        saltus=0,
        theorem=f.theorem or None,
        bound=_bound(game, f.period, f.preperiod) if f.theorem else None,
        checked_to=run.values - 1,
        values=shown,
        **extra,
    )
    return out
