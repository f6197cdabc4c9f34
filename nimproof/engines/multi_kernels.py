"""numba kernels for positions of several heaps (flat arrays over a box).

A position ``(x0, ..., x_{H-1})`` with ``0 <= xi < dims[i]`` is stored at the
flat index ``sum(xi * strides[i])``. For games whose moves only lower heaps
the row-major order (``x0`` slowest) puts every option before its position,
so one pass in index order sees every option's value first. Staircase Nim
raises a lower stair, so it uses the column-major order (the top stair
slowest): a move lowers stair ``i`` and raises stair ``i - 1``, which lowers
the index because ``strides[i] > strides[i - 1]`` by at least a factor 2.

Every kernel is tested against :mod:`nimproof.engines.reference`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nimproof.engines.heap_kernels import stamp_mex


@njit(cache=True)
def row_major_strides(dims: np.ndarray) -> np.ndarray:
    """Strides of the row-major layout (the last heap varies fastest)."""
    h = dims.shape[0]
    strides = np.ones(h, dtype=np.int64)
    for i in range(h - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    return strides


@njit(cache=True)
def _advance(coords: np.ndarray, dims: np.ndarray) -> None:
    # Row-major odometer: the last coordinate varies fastest.
    i = coords.shape[0] - 1
    while i >= 0:
        coords[i] += 1
        if coords[i] < dims[i]:
            return
        coords[i] = 0
        i -= 1


@njit(cache=True)
def _box(dims: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    # The row-major strides of the box, the coordinates of its first position (all 0) and
    # its number of positions.
    total = 1
    for i in range(dims.shape[0]):
        total *= dims[i]
    return row_major_strides(dims), np.zeros(dims.shape[0], dtype=np.int64), total


#: Rows of the array that describes the heaps one move changes (see :func:`_mask_first`).
_STRIDE, _LO, _HI, _CUR = 0, 1, 2, 3


@njit(cache=True)
def _mask_first(
    idx: int,
    coords: np.ndarray,
    dims: np.ndarray,
    strides: np.ndarray,
    mask: int,
    up: bool,
    sel: np.ndarray,
) -> tuple[int, int]:
    # The heaps of ``mask`` (position ``idx`` at ``coords``) with the sizes ``lo <= x < hi``
    # each may take: above its size in the box (``up``) or below it. Fills one column of
    # ``sel`` per heap (its stride, lo, hi, and the current size, starting at lo) and
    # returns (heaps, index of the first target), or (-1, -1) when a heap has no such size.
    size = 0
    target = idx
    for i in range(coords.shape[0]):
        if (mask >> i) & 1:
            a = coords[i] + 1 if up else 0
            b = dims[i] if up else coords[i]
            if a >= b:
                return -1, -1
            sel[_STRIDE, size] = strides[i]
            sel[_LO, size] = a
            sel[_HI, size] = b
            sel[_CUR, size] = a
            target += (a - coords[i]) * strides[i]
            size += 1
    return size, target


@njit(cache=True)
def _mask_next(sel: np.ndarray, size: int, target: int) -> int:
    # Odometer over the heaps of :func:`_mask_first`: the index of the next target after
    # ``target``, or -1 once every combination of sizes has been seen.
    j = size - 1
    while j >= 0:
        sel[_CUR, j] += 1
        target += sel[_STRIDE, j]
        if sel[_CUR, j] < sel[_HI, j]:
            return target
        target -= (sel[_CUR, j] - sel[_LO, j]) * sel[_STRIDE, j]
        sel[_CUR, j] = sel[_LO, j]
        j -= 1
    return -1


@njit(cache=True)
def moore_sieve(dims: np.ndarray, masks: np.ndarray, misere: bool) -> np.ndarray:
    """P-positions of Moore's Nim_k on the box ``dims``; ``masks`` lists the allowed heap sets.

    Each mask (a bit per heap, at most ``k`` bits) is a set of heaps a move
    may lower together. In index order, a position not yet marked is a
    P-position (under misère play the all-zero terminal position is not);
    then every position that can move to it - raise each heap of a mask by a
    positive amount - is marked. Cost: the P-positions times the positions
    above each of them (about ``C(H, k) B^k``).
    """
    strides, coords, total = _box(dims)
    marked = np.zeros(total, dtype=np.bool_)
    p = np.zeros(total, dtype=np.bool_)
    sel = np.zeros((4, dims.shape[0]), dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        if marked[idx]:
            continue
        if misere and idx == 0:
            continue  # misère: the player to move at the end wins
        p[idx] = True
        for mask in masks:
            size, target = _mask_first(idx, coords, dims, strides, mask, True, sel)
            while target >= 0:
                marked[target] = True
                target = _mask_next(sel, size, target)
    return p


@njit(cache=True)
def moore_grundy(dims: np.ndarray, masks: np.ndarray, misere: bool) -> np.ndarray:
    """Grundy values (misère nim-values when ``misere``) of Moore's Nim_k on a box, by mex.

    Every option of every position is visited: about ``total * C(H, k) B^k``
    steps, so only small boxes are feasible.
    """
    strides, coords, total = _box(dims)
    values = np.zeros(total, dtype=np.int64)
    most = 0  # options of a position, at most: a mex is at most that
    for mask in masks:
        cells = 1
        for i in range(dims.shape[0]):
            if (mask >> i) & 1:
                cells *= dims[i] - 1
        most += cells
    seen = np.full(most + 1, -1, dtype=np.int64)
    sel = np.zeros((4, dims.shape[0]), dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        count = 0
        for mask in masks:
            size, target = _mask_first(idx, coords, dims, strides, mask, False, sel)
            while target >= 0:
                if values[target] <= most:
                    seen[values[target]] = idx
                count += 1
                target = _mask_next(sel, size, target)
        values[idx] = (1 if misere else 0) if count == 0 else stamp_mex(seen, idx)
    return values


@njit(cache=True)
def heaps_direct(
    dims: np.ndarray, ptr: np.ndarray, targets: np.ndarray, misere: bool
) -> np.ndarray:
    """Values of joint positions of non-splitting heaps, by mex over every move.

    Heap ``i`` of size ``x`` may become any ``targets[ptr[i, x]:ptr[i, x + 1]]``
    (each heap may follow its own rule: a sum of different families). A
    position with no move has value 0, or 1 under misère play. Cost: the
    positions times the moves of each.
    """
    strides, coords, total = _box(dims)
    values = np.zeros(total, dtype=np.int64)
    most = 0  # options of a position, at most: a mex is at most that
    for i in range(dims.shape[0]):
        most += np.max(ptr[i, 1:] - ptr[i, :-1])
    seen = np.full(most + 1, -1, dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        count = 0
        for i in range(dims.shape[0]):
            x = coords[i]
            for j in range(ptr[i, x], ptr[i, x + 1]):
                v = values[idx - (x - targets[j]) * strides[i]]
                if v <= most:
                    seen[v] = idx
                count += 1
        values[idx] = (1 if misere else 0) if count == 0 else stamp_mex(seen, idx)
    return values


@njit(cache=True)
def staircase_values(caps: np.ndarray, misere: bool) -> np.ndarray:
    """Grundy values of staircase Nim on the domain ``sum(x[j:]) <= caps[j]`` for every ``j``.

    ``caps`` must be non-increasing; the domain is closed under moves (no move
    raises a suffix sum). Stored column-major in the bounding box
    ``x[j] <= caps[j]`` (stride of stair 0 is 1); cells outside the domain
    hold -1. A move carries ``c`` coins from stair ``i`` to stair ``i - 1``
    (off the staircase from stair 0).
    """
    h = caps.shape[0]
    dims = caps + 1
    strides = np.ones(h, dtype=np.int64)
    for i in range(1, h):
        strides[i] = strides[i - 1] * dims[i - 1]
    total = strides[h - 1] * dims[h - 1]
    values = np.full(total, -1, dtype=np.int64)
    # A position has at most caps[0] options (one per coin and amount), so its mex is at most that.
    seen = np.full(caps[0] + 1, -1, dtype=np.int64)
    coords = np.zeros(h, dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            # Column-major odometer: stair 0 varies fastest.
            i = 0
            while i < h:
                coords[i] += 1
                if coords[i] < dims[i]:
                    break
                coords[i] = 0
                i += 1
        suffix = 0
        inside = True
        for j in range(h - 1, -1, -1):
            suffix += coords[j]
            if suffix > caps[j]:
                inside = False
                break
        if not inside:
            continue
        count = 0
        for i in range(h):
            for c in range(1, coords[i] + 1):
                target = idx - c * strides[i]
                if i > 0:
                    target += c * strides[i - 1]
                if values[target] <= caps[0]:
                    seen[values[target]] = idx
                count += 1
        values[idx] = (1 if misere else 0) if count == 0 else stamp_mex(seen, idx)
    return values
