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

from nimproof.engines.heap_kernels import grown


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
def moore_sieve(dims: np.ndarray, masks: np.ndarray, misere: bool) -> np.ndarray:
    """P-positions of Moore's Nim_k on the box ``dims``; ``masks`` lists the allowed heap sets.

    Each mask (a bit per heap, at most ``k`` bits) is a set of heaps a move
    may lower together. In index order, a position not yet marked is a
    P-position (under misère play the all-zero terminal position is not);
    then every position that can move to it - raise each heap of a mask by a
    positive amount - is marked. Cost: the P-positions times the positions
    above each of them (about ``C(H, k) B^k``).
    """
    h = dims.shape[0]
    strides = row_major_strides(dims)
    total = 1
    for i in range(h):
        total *= dims[i]
    marked = np.zeros(total, dtype=np.bool_)
    p = np.zeros(total, dtype=np.bool_)
    coords = np.zeros(h, dtype=np.int64)
    chosen = np.zeros(h, dtype=np.int64)
    cur = np.zeros(h, dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        if marked[idx]:
            continue
        if misere and idx == 0:
            continue  # misère: the player to move at the end wins
        p[idx] = True
        for mask in masks:
            size = 0
            ok = True
            for i in range(h):
                if (mask >> i) & 1:
                    if coords[i] + 1 >= dims[i]:
                        ok = False
                        break
                    chosen[size] = i
                    cur[size] = coords[i] + 1
                    size += 1
            if not ok:
                continue
            while True:
                target = idx
                for j in range(size):
                    target += (cur[j] - coords[chosen[j]]) * strides[chosen[j]]
                marked[target] = True
                j = size - 1
                while j >= 0:
                    cur[j] += 1
                    if cur[j] < dims[chosen[j]]:
                        break
                    cur[j] = coords[chosen[j]] + 1
                    j -= 1
                if j < 0:
                    break
    return p


@njit(cache=True)
def moore_grundy(dims: np.ndarray, masks: np.ndarray, misere: bool) -> np.ndarray:
    """Grundy values (misère nim-values when ``misere``) of Moore's Nim_k on a box, by mex.

    Every option of every position is visited: about ``total * C(H, k) B^k``
    steps, so only small boxes are feasible.
    """
    h = dims.shape[0]
    strides = row_major_strides(dims)
    total = 1
    for i in range(h):
        total *= dims[i]
    values = np.zeros(total, dtype=np.int64)
    size = 16
    seen = np.full(size, -1, dtype=np.int64)
    coords = np.zeros(h, dtype=np.int64)
    chosen = np.zeros(h, dtype=np.int64)
    cur = np.zeros(h, dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        count = 0
        for mask in masks:
            n_chosen = 0
            ok = True
            for i in range(h):
                if (mask >> i) & 1:
                    if coords[i] == 0:
                        ok = False
                        break
                    chosen[n_chosen] = i
                    cur[n_chosen] = 0
                    n_chosen += 1
            if not ok:
                continue
            while True:
                target = idx
                for j in range(n_chosen):
                    target += (cur[j] - coords[chosen[j]]) * strides[chosen[j]]
                v = values[target]
                if v >= size:
                    newsize = size
                    while newsize <= v:
                        newsize *= 2
                    seen = grown(seen, newsize)
                    size = newsize
                seen[v] = idx
                count += 1
                j = n_chosen - 1
                while j >= 0:
                    cur[j] += 1
                    if cur[j] < coords[chosen[j]]:
                        break
                    cur[j] = 0
                    j -= 1
                if j < 0:
                    break
        if count == 0:
            values[idx] = 1 if misere else 0
            continue
        m = 0
        while m < size and seen[m] == idx:
            m += 1
        values[idx] = m
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
    h = dims.shape[0]
    strides = row_major_strides(dims)
    total = 1
    for i in range(h):
        total *= dims[i]
    values = np.zeros(total, dtype=np.int64)
    size = 16
    seen = np.full(size, -1, dtype=np.int64)
    coords = np.zeros(h, dtype=np.int64)
    for idx in range(total):
        if idx > 0:
            _advance(coords, dims)
        count = 0
        for i in range(h):
            x = coords[i]
            for j in range(ptr[i, x], ptr[i, x + 1]):
                v = values[idx - (x - targets[j]) * strides[i]]
                if v >= size:
                    newsize = size
                    while newsize <= v:
                        newsize *= 2
                    seen = grown(seen, newsize)
                    size = newsize
                seen[v] = idx
                count += 1
        if count == 0:
            values[idx] = 1 if misere else 0
            continue
        m = 0
        while m < size and seen[m] == idx:
            m += 1
        values[idx] = m
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
    size = 16
    seen = np.full(size, -1, dtype=np.int64)
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
                v = values[target]
                if v >= size:
                    newsize = size
                    while newsize <= v:
                        newsize *= 2
                    seen = grown(seen, newsize)
                    size = newsize
                seen[v] = idx
                count += 1
        if count == 0:
            values[idx] = 1 if misere else 0
            continue
        m = 0
        while m < size and seen[m] == idx:
            m += 1
        values[idx] = m
    return values
