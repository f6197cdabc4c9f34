"""Finding and proving the period of a one-heap game on long tables.

:func:`find_period` grows the table of a game (the sparse-space engine for
two-way take-and-break games and Grundy's game, :func:`grundy_table` for
every other one-heap family) and looks for a period at every quarter of each
doubling (:func:`nimproof.engines.sparse.check_points`). It stops as soon as
the period is *proved*: a theorem of :mod:`nimproof.theory.periodicity`
applies to the game (Guy–Smith for octal codes, the splitting window for
``4.x`` and hexadecimal codes, Golomb's window for finite subtraction sets,
the all-but window lemma) and the table reaches every heap its window needs.
Otherwise it stops at ``max_n`` and reports what it saw: a period that holds
through the table ("periodic up to N, not proved") or none ("unsolved up to N").

The values that enter a proof are checked before the proof is reported:
against the plain reference implementation on a prefix, and against the
dense kernel of :mod:`.heap_kernels` (which looks at every split and shares
no code with the sparse engine) on a longer prefix.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nimproof.engines import grundy_table, heap_engine, reference
from nimproof.engines import heap_kernels as hk
from nimproof.engines.sparse import (
    PeriodCheck,
    Progress,
    SparseTable,
    check_memory,
    check_points,
    period_check,
    split_rule,
    table_bytes,
)
from nimproof.errors import UsageError
from nimproof.games.base import Game, HeapGame

#: Heaps compared with the plain reference implementation by default (splitting games;
#: the reference is plain Python, O(n^2): about a second at this size).
REFERENCE_CHECK = 3000
#: Heaps compared with the dense kernel by default.
DENSE_CHECK = 1 << 15


@dataclass
class PeriodRun:
    """What :func:`find_period` found: the period (if any), the figures, the checks made."""

    spec: str
    values: int
    found: PeriodCheck | None
    engine: str
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    checked: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False

    @property
    def status(self) -> str:
        """``proved``, ``periodic`` (seen but not proved) or ``unsolved``."""
        if self.found is not None and self.found.proved:
            return "proved"
        return "periodic" if self.found is not None else "unsolved"

    def summary(self) -> str:
        """One line a person reads."""
        n = self.values - 1
        if self.found is None:
            return f"{self.spec}: unsolved up to {n:,} (no period in the second half of the table)"
        f = self.found
        head = f"{self.spec}: preperiod {f.preperiod:,}, period {f.period:,}"
        if f.proved:
            return f"{head}, proved for all n ({f.theorem}; window to {f.window_end:,})"
        why = (
            "no periodicity theorem applies" if not f.theorem else "table too short for the window"
        )
        return f"{head} up to {n:,}, not proved ({why})"

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape of the ``period`` command."""
        f = self.found
        return {
            "spec": self.spec,
            "status": self.status,
            "max_n": self.values - 1,
            "preperiod": None if f is None else f.preperiod,
            "period": None if f is None else f.period,
            "proved": self.status == "proved",
            "theorem": "" if f is None else f.theorem,
            "window_end": None if f is None else f.window_end,
            "engine": self.engine,
            "seconds": round(self.seconds, 3),
            "checked": self.checked,
            **self.stats,
        }


def find_period(
    game: Game,
    max_n: int,
    *,
    progress: Progress | None = None,
    dense_check: int = DENSE_CHECK,
    reference_check: int = REFERENCE_CHECK,
    stop_when_proved: bool = True,
    seconds: float | None = None,
) -> tuple[PeriodRun, np.ndarray]:
    """Grow the table of ``game`` up to ``max_n`` until its period is proved; the run and values.

    Raises :class:`UsageError` for games without a one-heap table, and
    refuses (one line, with the memory it needs) a bound the machine cannot
    hold. A proof is reported only after the values pass the reference and
    dense-kernel checks (a disagreement raises, naming the heap). With
    ``seconds``, no new stretch of the table is started after that much time
    (the run then says ``timed_out`` and reports the table it has).
    """
    if not isinstance(game, HeapGame) or game.misere:
        raise UsageError(f"{game.spec}: periods are found for normal-play one-heap games")
    t0 = time.monotonic()
    rule = split_rule(game)
    if rule is not None:
        check_memory(game.spec, table_bytes(max_n), max_n)
        table = SparseTable(rule, max_n + 1)
        grow = table.extend
        engine = "sparse-space"
    else:
        engine = heap_engine(game)
        box: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]

        def grow(stop: int, progress: Progress | None = None) -> None:
            box[0] = grundy_table(game, stop - 1, prefix=box[0], progress=progress)

    found: PeriodCheck | None = None
    count = 0
    timed_out = False
    for point in check_points(0, max_n + 1):
        if seconds is not None and count and time.monotonic() - t0 > seconds:
            timed_out = True
            break
        grow(point, progress)
        count = point
        values = table.values if rule is not None else box[0]
        found = period_check(game, values, count)
        if found is not None and found.proved and stop_when_proved:
            break
    values = table.values[:count] if rule is not None else box[0][:count]
    run = PeriodRun(game.spec, count, found, engine, 0.0, timed_out=timed_out)
    if rule is not None:
        run.stats = table.stats()
    run.checked = cross_check(game, values, dense_check, reference_check)
    run.seconds = time.monotonic() - t0
    return run, values


def cross_check(
    game: HeapGame,
    values: np.ndarray,
    dense_check: int,
    reference_check: int = REFERENCE_CHECK,
) -> dict[str, int]:
    """Compare ``values`` with the reference and (splitting codes) the dense kernel on prefixes.

    Returns how far each check went; raises :class:`UsageError` naming the
    first heap where a check disagrees (the table must not be trusted then).
    """
    out: dict[str, int] = {}
    n_ref = min(len(values), reference_check if game.splits else 100_000)
    ref = reference.heap_table(game, n_ref - 1)
    _same(game, "the reference implementation", values[:n_ref], np.array(ref))
    out["reference"] = n_ref - 1
    spec = game.moves_spec
    if game.splits and dense_check > 0:
        n_dense = min(len(values), dense_check + 1)
        dense = np.zeros(n_dense, dtype=np.int64)
        digits = spec.octal_digits()
        if digits is not None:
            hk.octal_kernel(dense, 0, n_dense, np.array(digits, dtype=np.int64), 0, 0)
        elif spec.unequal_split:
            hk.grundys_game_kernel(dense, 0, n_dense, 0)
        else:
            return out
        _same(game, "the dense kernel", values[:n_dense], dense)
        out["dense_kernel"] = n_dense - 1
    return out


def _same(game: HeapGame, what: str, got: np.ndarray, want: np.ndarray) -> None:
    diff = np.nonzero(got.astype(np.int64) != want.astype(np.int64))[0]
    if len(diff):
        k = int(diff[0])
        raise UsageError(
            f"{game.spec}: the table disagrees with {what} at n = {k} "
            f"({int(got[k])} against {int(want[k])}); nothing is claimed"
        )
