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

from nimproof.engines.heap_kernels import bits_mex, stamp_mex


@njit(cache=True, nogil=True)
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
    if k <= 30:
        _small_set(buf, w, start, count, takes)
        return
    if k < 64:
        _bits_rows(buf, w, start, 0, count, takes)
        return
    seen = np.full(k + 2, -1, dtype=np.int64)
    for j in range(count):
        n = start + j
        for i in range(k):
            t = takes[i]
            if t > n:
                break
            seen[buf[w + j - t]] = n
        buf[w + j] = stamp_mex(seen, n)


@njit(cache=True)
def _bits_rows(buf: np.ndarray, w: int, start: int, lo: int, hi: int, takes: np.ndarray) -> None:
    # Rows lo..hi-1 (fewer than 64 takes), each take checked against the heap; option values
    # as bits of one machine word.
    one = np.uint64(1)
    k = takes.shape[0]
    for j in range(lo, hi):
        n = start + j
        mask = np.uint64(0)
        for i in range(k):
            t = takes[i]
            if t > n:
                break
            mask |= one << np.uint64(buf[w + j - t])
        buf[w + j] = bits_mex(mask)


@njit(cache=True)
def _small_set(buf: np.ndarray, w: int, start: int, count: int, takes: np.ndarray) -> None:
    # At most 30 takes: values are at most 30; once the heap exceeds max S no take needs a
    # bound check (heaps below max S: see _bits_rows).
    k = takes.shape[0]
    one = np.uint32(1)
    j0 = min(count, max(0, int(takes[k - 1]) - start))
    _bits_rows(buf, w, start, 0, j0, takes)
    for j in range(j0, count):
        mask = np.uint32(0)  # values are at most 30: one 32-bit word
        for i in range(k):
            mask |= one << np.uint32(buf[w + j - takes[i]])
        buf[w + j] = bits_mex(np.uint64(mask))
