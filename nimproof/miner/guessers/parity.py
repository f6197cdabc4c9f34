"""Linear tables corrected by the parity of a popcount: ``g(n) = a n + b + c (popcount(n + s) % 2)``.

Sequences built on the Thue–Morse word have this shape: the odious numbers
(Mock Turtles: a heads coin at ``n >= 1`` has value ``2(n - 1)`` or
``2(n - 1) + 1`` by the parity of the 1 bits of ``n - 1``), the evil numbers,
and their shifts. For each shift ``s`` in ``-2 .. 2`` and each first heap
``n0`` in ``0 .. MAX_START`` (the heaps below it are listed as exceptions),
the integers ``a, b, c`` are solved from three heaps of the fitted part and
must then reproduce every fitted heap and the held-out rest. A fit with
``c = 0`` is an ordinary linear table, left to the periodic guesser.
"""

from __future__ import annotations

import numpy as np

from nimproof.miner.formula import reproduces_heap_table
from nimproof.miner.guessers.base import MAX_START, MIN_INSTANCES, HeapGuesser, predicted_guess
from nimproof.miner.model import Guess, HeapTable

SHIFTS = (0, -1, 1, -2, 2)


def _parity(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    y = x.copy()
    while np.any(y):
        out ^= y & 1
        y >>= 1
    return out


def _fit(values: np.ndarray, start: int, shift: int, cut: int) -> tuple[int, int, int] | None:
    """Integers ``(a, b, c)`` with ``g(n) = a n + b + c p(n + shift)`` on ``start <= n < cut``."""
    n = np.arange(start, cut, dtype=np.int64)
    if n.size < MIN_INSTANCES or start + shift < 0:
        return None
    p = _parity(n + shift)
    y = values[start:cut].astype(np.int64)
    m = np.stack([n, np.ones_like(n), p], axis=1).astype(float)
    if np.linalg.matrix_rank(m) < 3:
        return None
    sol, *_ = np.linalg.lstsq(m, y.astype(float), rcond=None)
    a, b, c = (round(float(x)) for x in sol)
    if c == 0 or not np.array_equal(a * n + b + c * p, y):
        return None
    return a, b, c


def _formula(values: np.ndarray, start: int, shift: int, abc: tuple[int, int, int]) -> str:
    a, b, c = abc
    arg = "n" if shift == 0 else f"n + {shift}" if shift > 0 else f"n - {-shift}"
    terms = [f"{a} * n" if a not in (0, 1) else "n" if a == 1 else "", str(b) if b else ""]
    body = " + ".join(t for t in terms if t) or "0"
    parity = f"popcount({arg}) % 2"
    body = (
        f"{body} + {parity}"
        if c == 1
        else f"{body} - {parity}"
        if c == -1
        else (f"{body} + {c} * ({parity})")
    )
    body = body.replace("+ -", "- ")
    for k in range(start - 1, -1, -1):
        body = f"{int(values[k])} if n == {k} else {body}"
    return body


class PopcountParity(HeapGuesser):
    """``a n + b`` corrected by the parity of the 1 bits of ``n + s`` (odious and evil numbers)."""

    name = "parity"
    normal_play_only = True

    def guess_heap(self, table: HeapTable, cut: int) -> list[Guess]:
        values = np.asarray(table.values, dtype=np.int64)
        size = len(values)
        for start in range(MAX_START + 1):
            for shift in SHIFTS:
                abc = _fit(values, start, shift, cut)
                if abc is None:
                    continue
                formula = _formula(values, start, shift, abc)
                if not reproduces_heap_table(formula, table):
                    continue
                details = (
                    f"a n + b + c (popcount(n + s) % 2) with (a, b, c, s) = {(*abc, shift)}: "
                    f"solved on heaps {start}..{cut - 1}, true on heaps up to {size - 1}",
                )
                return [predicted_guess(self.name, table, formula, cut, details)]
        return []

    def why_not_heap(self, table: HeapTable, cut: int) -> str:
        return (
            f"no a n + b + c (popcount(n + s) % 2) with c != 0 for shifts {SHIFTS} from a heap "
            f"up to {MAX_START}"
        )
