"""Fast single-heap tables of the rules described by :class:`~nimproof.games.base.PartMoves`.

A :class:`PartMoves` record may name a kernel (``kernel``); each kernel here
computes ``g(n) = mex`` of the option values of exactly the moves that the
record's shapes describe, with numpy vectors of O(n) work per heap (O(n^2)
in all) instead of enumerating every move:

* ``lasker`` - one smaller heap (``g[0..n-1]``) or two non-empty heaps
  ``a + b = n`` (``g[a] ^ g[n - a]``);
* ``ruler`` - the runs ``j + 1 .. n - 1``: ``P[n - 1] ^ P[j]`` with ``P`` the
  prefix xor of the table;
* ``mock-turtles`` - nothing (0), one smaller coin ``g[b]`` (``1 <= b < n``) or
  two ``g[a] ^ g[b]`` (``1 <= a < b < n``), the latter kept as a growing set
  of pair values.

Tests compare every kernel with the reference implementation over the
family's own moves.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Kernel = Callable[[np.ndarray, int, int], None]


def _mex(seen: np.ndarray) -> int:
    free = np.flatnonzero(~seen)
    return int(free[0]) if free.size else int(seen.size)


def _size(g: np.ndarray, n: int) -> int:
    top = int(g[:n].max()) if n else 0
    return 1 << (max(top, 1).bit_length() + 1)


def lasker(g: np.ndarray, start: int, stop: int) -> None:
    """Fill ``g[start:stop]`` for Lasker's Nim."""
    for n in range(max(start, 1), stop):
        seen = np.zeros(_size(g, n), dtype=bool)
        seen[g[:n]] = True
        h = n // 2
        if h:
            seen[g[1 : h + 1] ^ g[n - 1 : n - h - 1 : -1]] = True
        g[n] = _mex(seen)
    if start == 0:
        g[0] = 0


def ruler(g: np.ndarray, start: int, stop: int) -> None:
    """Fill ``g[start:stop]`` for Ruler (heap n: a heads coin at n)."""
    if start == 0:
        g[0] = 0
        start = 1
    pre = np.zeros(stop, dtype=np.int64)
    if start > 1:
        pre[1:start] = np.bitwise_xor.accumulate(g[1:start])
    for n in range(start, stop):
        seen = np.zeros(_size(g, n) + 2 * n + 2, dtype=bool)
        seen[pre[n - 1] ^ pre[:n]] = True
        g[n] = _mex(seen)
        pre[n] = pre[n - 1] ^ g[n]


def mock_turtles(g: np.ndarray, start: int, stop: int) -> None:
    """Fill ``g[start:stop]`` for Mock Turtles (heap n: a heads coin at n)."""
    g[0] = 0
    pairs = np.zeros(8, dtype=bool)

    def add_pairs(b: int) -> np.ndarray:
        vals = g[1:b] ^ g[b]
        nonlocal pairs
        need = int(vals.max()) + 1 if vals.size else 0
        if need > pairs.size:
            pairs = np.concatenate([pairs, np.zeros(2 * need, dtype=bool)])
        pairs[vals] = True
        return pairs

    for b in range(2, min(start, stop)):
        add_pairs(b)
    for n in range(max(start, 1), stop):
        seen = np.zeros(max(_size(g, n), pairs.size), dtype=bool)
        seen[0] = True
        seen[g[1:n]] = True
        seen[: pairs.size] |= pairs
        g[n] = _mex(seen)
        add_pairs(n)


KERNELS: dict[str, Kernel] = {"lasker": lasker, "ruler": ruler, "mock-turtles": mock_turtles}
