"""numba kernels for tables computed in chunks with a bounded window (streamed tables).

A finite subtraction set ``S`` makes ``g(n)`` depend only on the ``max S``
heaps below ``n``; the table is computed chunk by chunk in a buffer whose
first ``w = max S`` cells hold the end of the previous chunk. Values are at
most ``|S|``, so they fit ``uint8`` for sets of fewer than 255 members.
Tested against :mod:`nimproof.engines.reference` like every kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def window_subtraction_kernel(
    buf: np.ndarray, w: int, start: int, count: int, takes: np.ndarray
) -> None:
    """Fill ``buf[w:w + count]`` with ``g(start) .. g(start + count - 1)``.

    ``buf[:w]`` must hold ``g(start - w) .. g(start - 1)`` (cells for heaps
    below 0 are never read: a take larger than the heap is no move).
    ``takes`` is sorted ascending with ``takes[-1] <= w`` or ``w == start``
    (then ``buf`` is the whole table and is filled in place). For fewer than 64
    takes the option values are bits of one machine word.
    """
    k = takes.shape[0]
    one = np.uint64(1)
    if k <= 30:
        _small_set(buf, w, start, count, takes)
        return
    if k < 64:
        for j in range(count):
            n = start + j
            mask = np.uint64(0)
            for i in range(k):
                t = takes[i]
                if t > n:
                    break
                mask |= one << np.uint64(buf[w + j - t])
            m = 0
            while mask & one:
                mask >>= one
                m += 1
            buf[w + j] = m
        return
    seen = np.full(k + 2, -1, dtype=np.int64)
    for j in range(count):
        n = start + j
        for i in range(k):
            t = takes[i]
            if t > n:
                break
            seen[buf[w + j - t]] = n
        m = 0
        while seen[m] == n:
            m += 1
        buf[w + j] = m


@njit(cache=True)
def _small_set(buf: np.ndarray, w: int, start: int, count: int, takes: np.ndarray) -> None:
    # At most 30 takes: values are at most 30 and the option values fit a 32-bit mask;
    # once the heap exceeds max S no take needs a bound check.
    k = takes.shape[0]
    one = np.uint32(1)
    j0 = min(count, max(0, int(takes[k - 1]) - start))  # heaps below max S: check each take
    for j in range(j0):
        n = start + j
        mask = np.uint32(0)
        for i in range(k):
            t = takes[i]
            if t > n:
                break
            mask |= one << np.uint32(buf[w + j - t])
        m = 0
        while mask & one:
            mask >>= one
            m += 1
        buf[w + j] = m
    for j in range(j0, count):
        mask = np.uint32(0)
        for i in range(k):
            mask |= one << np.uint32(buf[w + j - takes[i]])
        m = 0
        while mask & one:
            mask >>= one
            m += 1
        buf[w + j] = m
