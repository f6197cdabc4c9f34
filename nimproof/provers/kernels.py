"""numba kernels for the exhaustive method: one step of mex over a *claimed* table.

Given the claimed values ``F[0..N]`` of single heaps, each kernel returns
``G[n] = mex{ value of each option of n under F }`` (options' values combine
by xor when a move splits a heap). The claim holds on ``0..N`` iff ``G == F``,
and the first index where they differ is the smallest heap where the claim is
wrong, with ``G`` there its true value (everything below agrees, so the mex
is taken over true values). These kernels never compute a Grundy table from
itself: they only read the claim, so they are independent of the engines.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _mex(seen: np.ndarray, stamp: int) -> int:
    """The least value not marked with ``stamp`` (at most the length of ``seen``)."""
    limit = seen.shape[0]
    v = 0
    while v < limit and seen[v] == stamp:
        v += 1
    return v


@njit(cache=True)
def _mark(seen: np.ndarray, v: int, stamp: int) -> None:
    """Mark value ``v`` as seen at ``stamp`` (values beyond ``seen`` cannot be the mex)."""
    if 0 <= v < seen.shape[0]:
        seen[v] = stamp


@njit(cache=True)
def _power_above(F: np.ndarray) -> int:
    """The least power of two above every value of ``F`` (1 for an empty or all-negative ``F``)."""
    top = 1
    for n in range(F.shape[0]):
        while top <= F[n]:
            top *= 2
    return top


@njit(cache=True)
def mex_takes(F: np.ndarray, takes: np.ndarray, terminal_value: int) -> np.ndarray:
    """``G[n]`` for moves ``n -> n - t`` (``t`` in ``takes``, ascending)."""
    n_all = F.shape[0]
    G = np.empty(n_all, dtype=np.int64)
    seen = np.zeros(len(takes) + 2, dtype=np.int64)
    for n in range(n_all):
        stamp = n + 1
        any_move = False
        for t in takes:
            if t > n:
                break
            any_move = True
            _mark(seen, F[n - t], stamp)
        G[n] = _mex(seen, stamp) if any_move else terminal_value
    return G


@njit(cache=True)
def mex_interval(F: np.ndarray, lo: np.ndarray, terminal_value: int) -> np.ndarray:
    """``G[n]`` for moves ``n -> m`` with ``lo[n] <= m < n``."""
    n_all = F.shape[0]
    G = np.empty(n_all, dtype=np.int64)
    seen = np.zeros(n_all + 2, dtype=np.int64)
    for n in range(n_all):
        stamp = n + 1
        if lo[n] >= n:
            G[n] = terminal_value
            continue
        for m in range(lo[n], n):
            _mark(seen, F[m], stamp)
        G[n] = _mex(seen, stamp)
    return G


@njit(cache=True)
def mex_targets(
    F: np.ndarray, starts: np.ndarray, targets: np.ndarray, terminal_value: int
) -> np.ndarray:
    """``G[n]`` for explicit move lists: the targets of ``n`` are ``targets[starts[n]:starts[n+1]]``."""
    n_all = F.shape[0]
    G = np.empty(n_all, dtype=np.int64)
    seen = np.zeros(n_all + 2, dtype=np.int64)
    for n in range(n_all):
        stamp = n + 1
        a, b = starts[n], starts[n + 1]
        if a == b:
            G[n] = terminal_value
            continue
        for i in range(a, b):
            _mark(seen, F[targets[i]], stamp)
        G[n] = _mex(seen, stamp)
    return G


@njit(cache=True)
def mex_octal(F: np.ndarray, digits: np.ndarray) -> np.ndarray:
    """``G[n]`` for a take-and-break code (normal play; split heaps combine by xor of ``F``)."""
    n_all = F.shape[0]
    G = np.empty(n_all, dtype=np.int64)
    top = _power_above(F)
    # A mex never exceeds the number of options, so larger values need no slot.
    three = False
    for d in digits:
        if d & 8:
            three = True
    per_digit = n_all * n_all // 12 + n_all + 2 if three else n_all // 2 + 2
    size = min(2 * top + 2, len(digits) * per_digit + 2)
    seen = np.zeros(size, dtype=np.int64)
    for n in range(n_all):
        stamp = n + 1
        for k in range(len(digits)):
            if k > n:
                break
            d = digits[k]
            rest = n - k
            if d & 1 and k > 0 and rest == 0:
                seen[0] = stamp
            if d & 2 and k > 0 and rest > 0:
                _mark(seen, F[rest], stamp)
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    _mark(seen, F[a] ^ F[rest - a], stamp)
            if d & 8:
                for a in range(1, rest // 3 + 1):
                    for b in range(a, (rest - a) // 2 + 1):
                        c = rest - a - b
                        if c >= b:
                            _mark(seen, F[a] ^ F[b] ^ F[c], stamp)
        G[n] = _mex(seen, stamp)
    return G


@njit(cache=True)
def mex_grundys_game(F: np.ndarray) -> np.ndarray:
    """``G[n]`` for Grundy's game: split into two unequal non-empty heaps."""
    n_all = F.shape[0]
    G = np.empty(n_all, dtype=np.int64)
    top = _power_above(F)
    size = min(2 * top + 2, n_all + 2)
    seen = np.zeros(size, dtype=np.int64)
    for n in range(n_all):
        stamp = n + 1
        for a in range(1, (n + 1) // 2):
            _mark(seen, F[a] ^ F[n - a], stamp)
        G[n] = _mex(seen, stamp)
    return G
