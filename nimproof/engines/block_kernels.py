"""The sparse-space method over blocks of heaps: a swept rare list, checked in parallel.

Same games, same classes and the same exact answer as
:func:`nimproof.engines.sparse_kernels.sparse_kernel` (read its module
docstring first); what changes is the order of the work, so that the two costly
walks of a heap read consecutive table entries and run on every core. Heaps are
taken in blocks ``n0 .. n0 + B - 1``; ``rows`` (step 1) and ``marks`` (steps 2 to
4) hold one byte per value and heap of the block (0 unmarked, 1 an option value,
2 wanted).

1. **The rare sweep of the block** (parallel over tiles of heaps): for each rare
   heap ``a`` below ``n0`` and split ``k``, the partners ``n - k - a`` of the
   heaps of the block are one contiguous stretch of the table; every partner
   below ``n0`` is marked (``g(a) xor g(partner)``). This reads the table in order
   and stores one byte a pair, about half the cost of a pair in the one-heap
   kernel's sweep (which reads the partners scattered over the table).
2. **Candidates, in order** (one thread, a few dozen pairs a heap): the pairs
   the sweep could not see (a rare heap whose partner lies in the block, rare
   heaps found in the block) and the moves that leave one heap or nothing; then
   ``c``, the least unmarked value of the rare sweep's class, and the wanted
   values (unmarked values of the other class below ``c``). The heap's value is
   *tentatively* ``c``, written into the table so that later heaps of the block
   can read it.
3. **The common-pair check** (parallel over heaps): each heap looks for its
   wanted values among the splits of two common heaps, reading the ranked list
   of :func:`~nimproof.engines.sparse_kernels.ranked_prefix` first. Heaps of a
   tile read list entries together, in chunks (for one entry the partners of
   consecutive heaps are again consecutive in the table); the heaps still
   looking after the list go on alone. The pairs left out (a rare heap below the
   list's bound) were marked by steps 1 and 2 and give no wanted value.
4. **Commit, in order.** A heap whose wanted values were all found has value
   ``c``. A heap with a wanted value no split gives has read every pair; its
   value is the least such value (a rare heap, as in the one-heap kernel), and
   the tentative values after it are recomputed (steps 2 and 3 again from the
   next heap; the sweep of step 1 stays valid).

Why the tentative values are safe: heap ``n`` reads only heaps below ``n``. If
every heap of the block before ``n`` was committed with its tentative value,
each of them is exact, so what ``n`` read in steps 2 and 3 is exact, and so is
its own result; the first heap whose result differs from its tentative value is
exact too, and nothing after it is committed before being recomputed.

Threads: numba's ``workqueue`` layer is chosen (unless ``NUMBA_THREADING_LAYER``
says otherwise) because its threads sleep instead of spinning while they wait,
which matters on a machine whose cores are shared. It runs one parallel region
at a time, so callers on other threads than the main one pass ``threads=1``
(the same work on one thread).
"""

from __future__ import annotations

import os

import numba
import numpy as np
from numba import njit, prange

from nimproof.engines.sparse_kernels import DONE, OVERFLOW, record, split_count, split_removals

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"  # type: ignore[attr-defined]

#: Heaps a tile of the rare sweep and of the common-pair check works on together.
TILE = 64
#: List entries the heaps of a tile read together before the finished ones leave.
CHUNK = 64


@njit(cache=True)
def _sweep_tile(
    g: np.ndarray,
    n0: int,
    j0: int,
    j1: int,
    rule: tuple[np.ndarray, bool],
    rares: tuple[np.ndarray, np.ndarray, int],
    rows: np.ndarray,
    S: int,
    lag: int,
) -> None:
    # Step 1 for the heaps n0 + j0 .. n0 + j1 - 1: rows[j] (all zero before) gets the values of
    # the splits with a rare heap a = rare[t] (t < nrare, value grare[t]) whose partner
    # b = n0 + j - k - a satisfies 1 <= b < n0 - lag.
    ks, unequal = rule
    rare, grare, nrare = rares
    for k in ks:
        for t in range(nrare):
            a = rare[t]
            lo = max(j0, a + k + 1 - n0)  # b >= 1
            hi = min(j1, a + k - lag)  # b < n0 - lag
            if lo >= hi:
                continue
            skip = 2 * a + k - n0  # the heap whose partner is a itself
            if unequal and lo <= skip < hi:
                _mark_run(g, n0 - k - a, lo, skip, grare[t], rows, S)
                lo = skip + 1
            _mark_run(g, n0 - k - a, lo, hi, grare[t], rows, S)


@njit(cache=True, inline="always")
def _mark_run(
    g: np.ndarray, base: int, lo: int, hi: int, ga: np.uint64, rows: np.ndarray, S: int
) -> None:
    # rows[j][ga ^ g[base + j]] = 1 for lo <= j < hi (base + lo >= 1: unsigned indices).
    src = np.uint64(base + lo)
    dst = np.uint64(lo * S)
    for _ in range(hi - lo):
        rows[dst + (ga ^ g[src])] = 1
        src += np.uint64(1)
        dst += np.uint64(S)


@njit(cache=True, parallel=True)
def _sweep_parallel(
    g: np.ndarray,
    n0: int,
    m: int,
    rule: tuple[np.ndarray, bool],
    rares: tuple[np.ndarray, np.ndarray, int],
    rows: np.ndarray,
    S: int,
) -> None:
    for tile in prange((m + TILE - 1) // TILE):
        j0 = tile * TILE
        _sweep_tile(g, n0, j0, min(m, j0 + TILE), rule, rares, rows, S, 0)


@njit(cache=True)
def _candidates(
    g: np.ndarray,
    n0: int,
    j: int,
    m: int,
    rule: tuple[np.ndarray, np.ndarray, bool],
    cls: tuple[np.ndarray, int, int],
    rares: tuple[np.ndarray, np.ndarray, int, int],
    rows: np.ndarray,
    marks: tuple[np.ndarray, np.ndarray, np.ndarray],
    tops: np.ndarray,
    need: np.ndarray,
    lag: int,
) -> int:
    """Step 2 for heaps ``n0 + j`` on: ``marks[i]`` from ``rows[i]``, ``tops[i]`` = c,
    ``need[i]`` = the number of wanted values; ``g[n0 + i] = c`` (tentative).
    ``rows`` holds the rare pairs whose partner lies below ``n0 - lag`` (empty: the sweep
    wrote them into ``marks``); the others are added here.

    Returns the end of the heaps prepared: the first heap whose ``c`` does not fit
    (``c >= P`` or beyond the array's type; its value is not written) ends them.
    """
    digits, ks, unequal = rule
    parity, posbit, vmax = cls
    rare, grare, nrare0, nrare = rares
    marks8, words, classes = marks
    P = parity.shape[0]
    S = 8 * classes.shape[1]  # the stride of a heap's row
    for i in range(j, m):
        n = n0 + i
        row = marks8[i * S : (i + 1) * S]
        if rows.shape[0]:  # a word at a time (a slice copy is slower)
            for w in range(i * S // 8, (i + 1) * S // 8):
                words[w] = rows[w]
        for k in range(1, min(digits.shape[0], n + 1)):
            if digits[k] & 1 and n == k:
                row[g[0]] = 1
            if digits[k] & 2 and n > k:
                row[g[n - k]] = 1
        tp = 1
        for k in ks:
            rest = n - k
            tp = 1 ^ (posbit & rest)
            for t in range(nrare0):  # rare heaps whose partner lies at n0 - lag or above
                a = rare[t]
                if a > rest - n0 + lag:
                    break
                row[grare[t] ^ g[rest - a]] = 1
            for t in range(nrare0, nrare):  # rare heaps of the block (partners below n0)
                a = rare[t]
                if a < rest and not (unequal and 2 * a == rest):
                    row[grare[t] ^ g[rest - a]] = 1
        c, count = _wanted(words[(i * S) // 8 : ((i + 1) * S) // 8], classes, tp, P)
        tops[i], need[i] = c, count
        if c >= P or c > vmax:
            return i + 1
        g[n] = c
    return m


@njit(cache=True)
def _wanted(row: np.ndarray, classes: np.ndarray, tp: int, P: int) -> tuple[int, int]:
    """``c``, the least unmarked value of class ``tp`` (``P`` if none), and how many
    unmarked values (all of the other class) lie below it, which are marked wanted (2).

    ``row``: the heap's marks (0 or 1), eight to a word; ``classes[tp]`` has the byte 1
    where a value is of class ``tp``.
    """
    ones = np.uint64(0x0101010101010101)
    one = np.uint64(1)
    c = P
    for w in range(row.shape[0]):
        x = row[w]
        free = ~(x | (x >> one)) & ones & classes[tp, w]
        if free:
            b = 0
            while not (free >> np.uint64(8 * b)) & one:
                b += 1
            c = 8 * w + b
            break
    count = 0
    for w in range((c + 7) // 8):
        x = row[w]
        want = ~(x | (x >> one)) & ones & classes[1 - tp, w]
        if 8 * w + 8 > c:
            want &= (one << np.uint64(8 * (c - 8 * w))) - one
        row[w] = x | (want << one)
        count += int((want * ones) >> np.uint64(56))
    return c, count


@njit(cache=True)
def _scan_heap(
    g: np.ndarray,
    rest: int,
    last: int,
    prefix: tuple[np.ndarray, np.ndarray, int],
    q0: int,
    row: np.ndarray,
    need: int,
) -> int:
    # The common pairs a + (rest - a), a <= last, from the list entry q0 on (then every heap
    # a >= cbound), until no value is wanted (row[x] == 2); returns the values still wanted.
    cpos, cval, cbound = prefix
    top = np.uint64(rest)
    short = last < cbound - 1
    for q in range(q0, cpos.shape[0]):
        a = cpos[q]
        if short and a > last:
            continue
        x = cval[q] ^ g[top - np.uint64(a)]
        if row[x] == 2:
            row[x] = 1
            need -= 1
            if need == 0:
                return 0
    for a in range(np.uint64(cbound), np.uint64(last + 1)):
        x = g[a] ^ g[top - a]
        if row[x] == 2:
            row[x] = 1
            need -= 1
            if need == 0:
                return 0
    return need


@njit(cache=True)
def _chunks(
    g: np.ndarray,
    base: int,
    prefix: tuple[np.ndarray, np.ndarray, int],
    act: np.ndarray,
    nact: int,
    marks: np.ndarray,
    need: np.ndarray,
    S: int,
) -> tuple[int, int]:
    # The heaps act[:nact] (heap n0 + i reads partner base + i - a) read the list together,
    # CHUNK entries at a time, with no branch a pair; the finished heaps leave after each
    # chunk. Returns (heaps still looking, in act[:nact], the first entry not read).
    cpos, cval, _ = prefix
    q = 0
    while nact > 0 and q + CHUNK <= cpos.shape[0]:
        for t in range(nact):
            i = act[t]
            row = np.uint64(i * S)
            src = np.uint64(base + i)
            found = 0
            for e in range(q, q + CHUNK):
                cell = row + (cval[e] ^ g[src - np.uint64(cpos[e])])
                r = marks[cell]
                found += r >> 1
                marks[cell] = 1  # an option value either way
            need[i] -= found
        q += CHUNK
        kept = 0
        for t in range(nact):
            if need[act[t]] > 0:
                act[kept] = act[t]
                kept += 1
        nact = kept
    return nact, q


@njit(cache=True)
def _check_part(
    g: np.ndarray,
    n0: int,
    i0: int,
    i1: int,
    rule: tuple[np.ndarray, bool],
    prefix: tuple[np.ndarray, np.ndarray, int],
    work: tuple[np.ndarray, np.ndarray, int],
) -> None:
    # Step 3 for the heaps n0 + i0 .. n0 + i1 - 1: need[i] ends at 0 when every wanted value
    # of heap i is given by a split, else it counts those no split gives (all pairs read).
    # work: the marks (a row of S bytes a heap) and need.
    ks, unequal = rule
    marks, need, S = work
    act = np.zeros(i1 - i0, dtype=np.int64)
    nact = 0
    for i in range(i0, i1):
        if need[i] > 0:
            act[nact] = i
            nact += 1
    q = 0
    cbound = prefix[2]
    # Together only where every list entry is a split of every heap (one splitting removal).
    if ks.shape[0] == 1 and n0 - ks[0] >= 2 * cbound + 2:
        nact, q = _chunks(g, n0 - ks[0], prefix, act, nact, marks, need, S)
    for t in range(nact):
        i = act[t]
        for s in range(ks.shape[0]):
            rest = n0 + i - ks[s]
            if need[i] > 0 and rest >= 2:
                row = marks[i * S : (i + 1) * S]
                need[i] = _scan_heap(
                    g, rest, split_count(rest, 0, unequal), prefix, q, row, need[i]
                )
            q = 0


@njit(cache=True, parallel=True)
def _check_parallel(
    g: np.ndarray,
    n0: int,
    heaps: tuple[int, int, int],
    rule: tuple[np.ndarray, bool],
    prefix: tuple[np.ndarray, np.ndarray, int],
    work: tuple[np.ndarray, np.ndarray, int],
) -> None:
    # Step 3 for the heaps n0 + j .. n0 + e - 1 in `parts` parts, one per thread.
    j, e, parts = heaps
    size = (e - j + parts - 1) // parts
    for p in prange(parts):
        i0 = j + p * size
        _check_part(g, n0, i0, min(e, i0 + size), rule, prefix, work)


@njit(cache=True)
def _sweep(
    g: np.ndarray,
    n0: int,
    m: int,
    rule: tuple[np.ndarray, bool],
    rares: tuple[np.ndarray, np.ndarray, int],
    rows: np.ndarray,
    S: int,
    threads: int,
) -> None:
    # Step 1 for the heaps n0 .. n0 + m - 1, on `threads` threads.
    if threads > 1:
        _sweep_parallel(g, n0, m, rule, rares, rows, S)
    else:
        for j0 in range(0, m, TILE):
            _sweep_tile(g, n0, j0, min(m, j0 + TILE), rule, rares, rows, S, 0)


@njit(cache=True)
def _check(
    g: np.ndarray,
    n0: int,
    j: int,
    e: int,
    rule: tuple[np.ndarray, bool],
    prefix: tuple[np.ndarray, np.ndarray, int],
    work: tuple[np.ndarray, np.ndarray, int],
    threads: int,
) -> None:
    # Step 3 for the heaps n0 + j .. n0 + e - 1, on `threads` threads.
    if threads > 1 and e - j > 1:
        _check_parallel(g, n0, (j, e, min(threads, e - j)), rule, prefix, work)
    else:
        for i0 in range(j, e, TILE):
            _check_part(g, n0, i0, min(e, i0 + TILE), rule, prefix, work)


@njit(cache=True)
def _least_wanted(marks: np.ndarray, i: int, S: int, c: int) -> int:
    # Step 4 for a heap with values no split gives: the least of them.
    for v in range(c):
        if marks[i * S + v] == 2:
            return v
    return c


@njit(cache=True)
def _commit(
    g: np.ndarray,
    n0: int,
    heaps: tuple[int, int],
    cls: tuple[np.ndarray, int, int, int],
    rares: tuple[np.ndarray, np.ndarray, int],
    figures: tuple[np.ndarray, float],
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int],
) -> tuple[int, int, int, bool]:
    """Step 4 for the heaps ``n0 + j .. n0 + e - 1`` (``heaps = (j, e)``), in order.

    Returns ``(i, nrare, reason, back)``: ``reason`` is :func:`record`'s first early
    return (at heap ``n0 + i``); else ``i`` is the next heap to compute, after ``e`` or
    (``back``) after the first heap whose value is not its tentative one. The tentative
    values past what was committed are cleared.
    """
    j, e = heaps
    parity, posbit, cbit, vmax = cls
    rare, grare, nrare = rares
    hist, dense_share = figures
    marks, rows64, tops, need, S = work
    for i in range(j, e):
        value = tops[i] if need[i] == 0 else _least_wanted(marks, i, S, tops[i])
        before = nrare
        nrare, reason = record(
            g, n0 + i, value, parity, posbit, cbit, rare, nrare, hist, vmax, dense_share
        )
        if nrare > before:
            grare[before] = value
        for w in range(i * S // 8, (i + 1) * S // 8):
            rows64[w] = 0  # ready for the next block
        if reason != DONE or need[i]:
            g[n0 + i + 1 : n0 + e] = 0  # tentative values
            return (i if reason != DONE else i + 1), nrare, reason, reason == DONE
    return e, nrare, DONE, False


@njit(cache=True)
def _buffers(
    g: np.ndarray, parity: np.ndarray, rare: np.ndarray, nrare: int, block: int
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The block kernel's arrays: ``(S, grare, rows, marks, classes)``.

    ``S``: the bytes of a heap's row of marks (whole words); ``grare``: the values of the
    rare heaps (room for ``len(rare)``); ``rows`` (step 1) and ``marks`` (steps 2-4): a
    row a heap of the block; ``classes[c]``: the byte 1 where a value is of class ``c``.
    """
    P = parity.shape[0]
    S = max(8, P)
    grare = np.zeros(rare.shape[0], dtype=np.uint64)
    for t in range(nrare):
        grare[t] = g[rare[t]]
    classes = np.zeros((2, S), dtype=np.uint8)
    for v in range(P):
        classes[parity[v], v] = 1
    rows = np.zeros(block * S, dtype=np.uint8)
    return S, grare, rows, np.zeros(block * S, dtype=np.uint8), classes


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
    prefix: tuple[np.ndarray, np.ndarray, int],
    threads: int,
) -> tuple[int, int, int]:
    """Fill ``g[start:stop]`` block by block; returns ``(next n, nrare, reason)``.

    The arguments and the early returns are those of
    :func:`~nimproof.engines.sparse_kernels.sparse_kernel` (no stamp array:
    the marks are per block); ``prefix`` is the common-pair scan's list
    (:func:`~nimproof.engines.sparse_kernels.ranked_prefix`); ``threads``: steps 1
    and 3 run on that many of numba's threads when above 1 (only from the main
    thread). Needs
    ``start >= 4 * block`` and ``start > len(digits)`` (every heap has a split, and
    the block's small partners lie below it). Table entries past the returned heap
    are left as zeros.
    """
    ks = split_removals(digits)
    S, grare, rows, marks, classes = _buffers(g, parity, rare, nrare, block)
    rows64 = rows.view(np.uint64)
    words = (marks, marks.view(np.uint64), classes.view(np.uint64))
    tops = np.zeros(block, dtype=np.int64)
    need = np.zeros(block, dtype=np.int64)
    span = block  # heaps checked at once: halved after a rare heap, else doubled
    n0 = start
    while n0 < stop:
        m = min(block, stop - n0)
        nrare0 = nrare
        _sweep(g, n0, m, (ks, unequal), (rare, grare, nrare0), rows, S, threads)
        j = 0
        while j < m:
            rule, cls, rares = (
                (digits, ks, unequal),
                (parity, posbit, vmax),
                (rare, grare, nrare0, nrare),
            )
            e = _candidates(
                g, n0, j, min(m, j + span), rule, cls, rares, rows64, words, tops, need, 0
            )
            _check(g, n0, j, e, (ks, unequal), prefix, (marks, need, S), threads)
            j, nrare, reason, back = _commit(
                g,
                n0,
                (j, e),
                (parity, posbit, cbit, vmax),
                (rare, grare, nrare),
                (hist, dense_share),
                (marks, rows64, tops, need, S),
            )
            if reason != DONE:
                return (n0 + j if reason == OVERFLOW else n0 + j + 1), nrare, reason
            span = max(4, span // 2) if back else min(block, 2 * span)
        n0 += m
    return stop, nrare, DONE
