"""The sparse-space method over blocks of heaps, on every core (numba ``prange``).

Same games, same classes and the same exact answer as
:func:`nimproof.engines.sparse_kernels.sparse_kernel` (read its module
docstring first); what changes is the order of the work. Heaps are taken in
blocks ``n0 .. n0 + B - 1``. Heap ``n`` of a block reads ``g(m)`` for ``m < n``;
most of what it reads lies below ``n0`` and is known before the block starts:

* **phase A** (parallel, one heap per iteration) marks, for every heap of the
  block, the option values of the splits whose two parts both lie below
  ``n0``: the pairs with a rare heap (the rare sweep), then common pairs, until
  every unmarked value of the other class below the least unmarked value of
  the rare sweep's class is found or those pairs run out; it keeps, per
  split, the first common pair it did not read;
* **phase B** (in order, heap by heap) adds what phase A could not see: pairs
  with a part in the block (rare heaps below ``B``, rare heaps found in this
  block) and the moves that leave one heap or nothing. Then, as in the
  one-heap kernel: ``c`` is the least unmarked value of the rare sweep's
  class, and the value is the least unmarked value of the other class below
  ``c`` that no split produces, else ``c``; the common pairs it still reads
  are those with a part in the block and those phase A did not read.

Marks live in one byte per value and heap of the block (``B x P`` bytes):
0 unmarked, 1 an option value (every value a common pair gives while phase A
or B reads it is marked), 2 wanted (a value still looked for among the common
pairs). Every mark is the value of a real move, so the marks never make a
value too small, and phase B only gives up on a wanted value when every pair
that could give it has been read: the values are those of the one-heap
kernel, which the tests check value by value, and both are checked against
the plain reference implementation.

Threads: numba's ``workqueue`` layer is chosen (unless ``NUMBA_THREADING_LAYER``
says otherwise) because its threads sleep instead of spinning while they wait,
which matters on a machine whose cores are shared.
"""

from __future__ import annotations

import os

import numba
import numpy as np
from numba import njit, prange

from nimproof.engines.sparse_kernels import DONE, OVERFLOW, record, split_removals

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"  # type: ignore[attr-defined]


@njit(cache=True)
def _last_pair(rest: int, unequal: bool) -> int:
    # The largest a of a split a + (rest - a) with a <= rest - a (a < rest - a when unequal).
    return (rest - 1) // 2 if unequal else rest // 2


@njit(cache=True)
def _scan(
    g: np.ndarray, rest: int, lo: int, hi: int, row: np.ndarray, need: int
) -> tuple[int, int]:
    # Pairs a + (rest - a), lo <= a <= hi: every value seen is marked (1); a wanted one (2)
    # counts as found. Returns (values still wanted, the first pair not read): it stops at 0.
    for a in range(lo, hi + 1):
        x = g[a] ^ g[rest - a]
        if row[x] == 2:
            need -= 1
            if need == 0:
                row[x] = 1
                return 0, a + 1
        row[x] = 1
    return need, hi + 1


@njit(cache=True)
def _sweep(
    g: np.ndarray,
    row: np.ndarray,
    n: int,
    ks: np.ndarray,
    rare: np.ndarray,
    lo: int,
    hi: int,
    n0: int,
    side: int,
    unequal: bool,
    posbit: int,
) -> int:
    # Mark g[r] ^ g[rest - r] for every split rest = n - k and the rare heaps r = rare[lo:hi]
    # below rest whose partner rest - r lies below n0 (side 0), at or above n0 (side 1), or
    # anywhere (side 2); returns the class tp of the rare-common values.
    tp = 1
    for k in ks:
        rest = n - k
        if rest < 2:
            continue
        tp = 1 ^ (posbit & rest)
        for i in range(lo, hi):
            r = rare[i]
            if r >= rest:
                break
            b = rest - r
            if side == 1 and b < n0:
                break  # rare is increasing: every later partner is below n0 too
            if (side == 0 and b >= n0) or (unequal and b == r):
                continue
            row[g[r] ^ g[b]] = 1
    return tp


@njit(cache=True)
def _least_free(row: np.ndarray, parity: np.ndarray, tp: int) -> int:
    # The least unmarked value of class tp (P when there is none).
    P = parity.shape[0]
    c = 0
    while c < P and (row[c] != 0 or parity[c] != tp):
        c += 1
    return c


@njit(cache=True)
def _want_below(row: np.ndarray, parity: np.ndarray, tp: int, bound: int) -> int:
    # Mark every unmarked value below bound of the class other than tp as wanted; their count.
    need = 0
    for v in range(bound):
        if row[v] == 0 and parity[v] != tp:
            row[v] = 2
            need += 1
    return need


@njit(cache=True)
def _phase_a(
    g: np.ndarray,
    n: int,
    n0: int,
    ks: np.ndarray,
    unequal: bool,
    parity: np.ndarray,
    posbit: int,
    rare: np.ndarray,
    nrare: int,
    row: np.ndarray,
    stops: np.ndarray,
) -> None:
    """Phase A for heap ``n`` of the block starting at ``n0`` (see the module).

    ``stops[i]``: the first common pair of the split ``ks[i]`` that phase A did not read.
    """
    row[:] = 0
    tp = _sweep(g, row, n, ks, rare, 0, nrare, n0, 0, unequal, posbit)
    c = _least_free(row, parity, tp)
    need = _want_below(row, parity, tp, c)
    for i in range(ks.shape[0]):
        rest = n - ks[i]
        stops[i] = max(1, rest - n0 + 1)
        if need:
            need, stops[i] = _scan(g, rest, stops[i], _last_pair(rest, unequal), row, need)
    for v in range(c):
        if row[v] == 2:
            row[v] = 0  # not produced by any pair read here: unmarked again


@njit(cache=True)
def _phase_b(
    g: np.ndarray,
    n: int,
    n0: int,
    digits: np.ndarray,
    ks: np.ndarray,
    unequal: bool,
    parity: np.ndarray,
    posbit: int,
    rare: np.ndarray,
    nrare0: int,
    nrare: int,
    row: np.ndarray,
    stops: np.ndarray,
) -> int:
    """Phase B for heap ``n``: completes the marks of ``row`` and returns ``g(n)``."""
    for k in range(1, min(digits.shape[0], n + 1)):
        d = digits[k]
        if d & 1 and n == k:
            row[g[0]] = 1
        if d & 2 and n > k:
            row[g[n - k]] = 1
    tp = _sweep(g, row, n, ks, rare, 0, nrare0, n0, 1, unequal, posbit)
    _sweep(g, row, n, ks, rare, nrare0, nrare, n0, 2, unequal, posbit)
    c = _least_free(row, parity, tp)
    need = _want_below(row, parity, tp, c)
    for i in range(ks.shape[0]):
        if need == 0:
            break
        rest = n - ks[i]
        last = _last_pair(rest, unequal)
        need, _ = _scan(g, rest, 1, min(rest - n0, last), row, need)
        if need:
            need, _ = _scan(g, rest, stops[i], last, row, need)
    if need:
        for v in range(c):
            if row[v] == 2:
                return v
    return c


@njit(cache=True, parallel=True)
def _block_a(
    g: np.ndarray,
    n0: int,
    m: int,
    ks: np.ndarray,
    unequal: bool,
    parity: np.ndarray,
    posbit: int,
    rare: np.ndarray,
    nrare: int,
    marks: np.ndarray,
    stops: np.ndarray,
) -> None:
    # Phase A for heaps n0 .. n0 + m - 1, one heap per iteration, on every core.
    for j in prange(m):
        _phase_a(g, n0 + j, n0, ks, unequal, parity, posbit, rare, nrare, marks[j], stops[j])


@njit(cache=True, nogil=True)
def block_kernel(
    g: np.ndarray,
    start: int,
    stop: int,
    digits: np.ndarray,
    unequal: bool,
    parity: np.ndarray,
    posbit: int,
    cbit: int,
    rare: np.ndarray,
    nrare: int,
    hist: np.ndarray,
    vmax: int,
    dense_share: float,
    block: int,
) -> tuple[int, int, int]:
    """Fill ``g[start:stop]`` block by block; returns ``(next n, nrare, reason)``.

    The arguments and the early returns are those of
    :func:`~nimproof.engines.sparse_kernels.sparse_kernel` (no stamp array:
    the marks are per block). Needs ``start >= 4 * block`` and
    ``start > len(digits)`` (every heap has a split, every split part below
    the block is read in phase A).
    """
    P = parity.shape[0]
    ks = split_removals(digits)
    marks = np.zeros((block, P), dtype=np.uint8)
    stops = np.zeros((block, ks.shape[0]), dtype=np.int64)
    n0 = start
    while n0 < stop:
        m = min(block, stop - n0)
        nrare0 = nrare
        _block_a(g, n0, m, ks, unequal, parity, posbit, rare, nrare, marks, stops)
        for j in range(m):
            n = n0 + j
            value = _phase_b(
                g,
                n,
                n0,
                digits,
                ks,
                unequal,
                parity,
                posbit,
                rare,
                nrare0,
                nrare,
                marks[j],
                stops[j],
            )
            nrare, reason = record(
                g, n, value, parity, posbit, cbit, rare, nrare, hist, vmax, dense_share
            )
            if reason != DONE:
                return (n if reason == OVERFLOW else n + 1), nrare, reason
        n0 += m
    return stop, nrare, DONE
