"""numba kernels for tables of single heaps.

Every kernel fills ``g[start:stop]`` in place, reading only ``g[:n]`` when
it computes ``g[n]``; so a table can be extended from a known prefix, and a
long table can be computed in chunks (for progress reports). A kernel takes
``terminal_value``: 0 in normal play (the mex of no options), 1 for misère
nim-values of non-splitting games (where a single heap stays a single heap).

The mex is taken with a *stamp* array: ``seen[v] == tag`` marks value ``v``
as an option value of the heap being computed, so the array is never
cleared; or, while every value is below 64, with the bits of one machine
word. Option values of a splitting game are xors of earlier values, hence
below the least power of two above every earlier value; the kernels keep the
stamp array at least that large and grow it when a new value reaches it.
Kernels that need it take ``top``, the largest value in ``g[:start]`` (the
caller keeps it up to date between chunks instead of rescanning the table).

The kernels are tested against :mod:`nimproof.engines.reference`; nothing
here is trusted on its own.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pow2_above(x: int) -> int:
    """The least power of two strictly greater than ``x`` (``x >= 0``)."""
    p = 1
    while p <= x:
        p *= 2
    return p


@njit(cache=True)
def grown(seen: np.ndarray, size: int) -> np.ndarray:
    """A stamp array of ``size`` cells: ``seen`` followed by unused cells (-1)."""
    out = np.full(size, -1, dtype=np.int64)
    out[: seen.shape[0]] = seen
    return out


@njit(cache=True)
def subtraction_kernel(
    g: np.ndarray, start: int, stop: int, takes: np.ndarray, terminal_value: int
) -> None:
    """Finite subtraction set ``takes`` (sorted ascending): ``g(n) = mex{g(n - t)}``.

    A mex over at most ``len(takes)`` options is at most ``len(takes)``, so
    option values above that cannot change it and are skipped. O(n * |S|).
    """
    size = takes.shape[0] + 2
    seen = np.full(size, -1, dtype=np.int64)
    for n in range(start, stop):
        count = 0
        for t in takes:
            if t > n:
                break
            count += 1
            v = g[n - t]
            if v < size:
                seen[v] = n
        if count == 0:
            g[n] = terminal_value
            continue
        m = 0
        while seen[m] == n:
            m += 1
        g[n] = m


@njit(cache=True)
def members_kernel(
    g: np.ndarray, start: int, stop: int, members: np.ndarray, terminal_value: int, top: int
) -> None:
    """Subtraction from an infinite set, given its members up to ``stop`` (sorted ascending).

    O(n * (members <= n)): linear in the count of members, so quadratic for
    dense sets (multiples of a small number) and about ``n^1.5`` for squares.
    While every value so far is below 64, option values are collected as
    bits of one word; afterwards in a stamp array.
    """
    one = np.uint64(1)
    size = stop + 2
    seen = np.full(size, -1, dtype=np.int64)
    for n in range(start, stop):
        count = 0
        value = 0
        if top < 64:
            mask = np.uint64(0)
            for t in members:
                if t > n:
                    break
                count += 1
                mask |= one << np.uint64(g[n - t])
            while mask & one:
                mask >>= one
                value += 1
        else:
            for t in members:
                if t > n:
                    break
                count += 1
                v = g[n - t]
                if v < size:
                    seen[v] = n
            while seen[value] == n:
                value += 1
        g[n] = terminal_value if count == 0 else value
        top = max(top, g[n])


@njit(cache=True)
def _tree_add(tree: np.ndarray, leaves: int, v: int, delta: int) -> None:
    i = leaves + v
    tree[i] += np.int32(delta)
    i //= 2
    while i >= 1:
        a = tree[2 * i]
        b = tree[2 * i + 1]
        tree[i] = a if a < b else b
        i //= 2


@njit(cache=True)
def _tree_first_zero(tree: np.ndarray, leaves: int) -> int:
    node = 1
    while node < leaves:
        node = 2 * node if tree[2 * node] == 0 else 2 * node + 1
    return node - leaves


@njit(cache=True)
def interval_kernel(
    g: np.ndarray, start: int, stop: int, lo: np.ndarray, excluded: np.ndarray, terminal_value: int
) -> None:
    """Moves from ``n`` reach ``lo[n] <= m < n`` except ``m = n - e`` for ``e`` in ``excluded``.

    Requires ``lo`` non-decreasing (the caller checks). The window of option
    values slides: a count per value, and a segment tree holding the minimum
    count over value ranges finds the least value with count zero (the mex)
    in O(log n). Excluded takes (``all-but`` sets) are removed from the
    counts for one step and put back. O(n * (log n + |excluded| log n)).
    """
    leaves = 1
    while leaves < stop + 2:
        leaves *= 2
    # tree[leaves + v] = how many option values equal v; inner nodes hold minima.
    tree = np.zeros(2 * leaves, dtype=np.int32)
    low = lo[start] if start < stop else 0
    for m in range(low, start):
        _tree_add(tree, leaves, g[m], 1)
    for n in range(start, stop):
        while low < lo[n]:
            _tree_add(tree, leaves, g[low], -1)
            low += 1
        count = n - low
        for e in excluded:
            m = n - e
            if low <= m < n:
                _tree_add(tree, leaves, g[m], -1)
                count -= 1
        if count == 0:
            g[n] = terminal_value
        else:
            g[n] = _tree_first_zero(tree, leaves)
        for e in excluded:
            m = n - e
            if low <= m < n:
                _tree_add(tree, leaves, g[m], 1)
        _tree_add(tree, leaves, g[n], 1)


@njit(cache=True)
def targets_kernel(
    g: np.ndarray, start: int, stop: int, ptr: np.ndarray, targets: np.ndarray, terminal_value: int
) -> None:
    """A non-splitting game given by explicit target lists: ``targets[ptr[n]:ptr[n+1]]``."""
    size = 2
    for n in range(stop):
        width = ptr[n + 1] - ptr[n]
        size = max(size, width + 2)
    seen = np.full(size, -1, dtype=np.int64)
    for n in range(start, stop):
        a = ptr[n]
        b = ptr[n + 1]
        if a == b:
            g[n] = terminal_value
            continue
        for j in range(a, b):
            v = g[targets[j]]
            if v < size:
                seen[v] = n
        m = 0
        while seen[m] == n:
            m += 1
        g[n] = m


@njit(cache=True)
def rule_rows_kernel(
    g: np.ndarray, n0: int, legal: np.ndarray, terminal_value: int, seen: np.ndarray, top: int
) -> int:
    """Rows ``n0 .. n0 + rows - 1`` of a rule game; ``legal[r, m]``: is ``n0 + r -> m`` a move.

    ``seen`` is a stamp array of length above the largest heap (shared
    between calls; initialise it to -1). While every value so far is below
    64, option values are collected as bits of one word instead. Returns the
    largest value in ``g`` up to the last row (the next call's ``top``).
    """
    one = np.uint64(1)
    rows = legal.shape[0]
    cols = legal.shape[1]
    for r in range(rows):
        n = n0 + r
        count = 0
        value = 0
        last = n if n < cols else cols
        if top < 64:
            mask = np.uint64(0)
            for m in range(last):
                if legal[r, m]:
                    count += 1
                    mask |= one << np.uint64(g[m])
            while mask & one:
                mask >>= one
                value += 1
        else:
            for m in range(last):
                if legal[r, m]:
                    count += 1
                    seen[g[m]] = n
            while seen[value] == n:
                value += 1
        g[n] = terminal_value if count == 0 else value
        top = max(top, g[n])
    return top


@njit(cache=True)
def _pair_row(g: np.ndarray, s: int, row: np.ndarray) -> None:
    # row[v] = True when s = a + b with a, b >= 1 and g[a] ^ g[b] == v.
    for a in range(1, s // 2 + 1):
        row[g[a] ^ g[s - a]] = True


@njit(cache=True)
def _mex_of(mask: np.uint64, seen: np.ndarray, n: int, P: int) -> int:
    # Option values are either bits of ``mask`` (when P <= 64) or stamps in ``seen``.
    value = 0
    if P <= 64:
        one = np.uint64(1)
        while mask & one:
            mask >>= one
            value += 1
        return value
    while value < P and seen[value] == n:
        value += 1
    return value


@njit(cache=True)
def _digit_options(
    g: np.ndarray,
    n: int,
    k: int,
    d: int,
    pair: np.ndarray,
    P: int,
    mask: np.uint64,
    seen: np.ndarray,
) -> tuple[np.uint64, int]:
    """Record the option values of removing ``k`` tokens from a heap of ``n`` (digit ``d``).

    Values go into the bits of ``mask`` while ``P <= 64``, else into ``seen``
    (stamped with ``n``); returns the new mask and the number of options.
    """
    one = np.uint64(1)
    small = P <= 64
    rest = n - k
    count = 0
    if d & 1 and k > 0 and rest == 0:
        if small:
            mask |= one << np.uint64(g[0])
        else:
            seen[g[0]] = n
        count += 1
    if d & 2 and k > 0 and rest > 0:
        if small:
            mask |= one << np.uint64(g[rest])
        else:
            seen[g[rest]] = n
        count += 1
    if d & 4:
        half = rest // 2
        if small:
            for a in range(1, half + 1):
                mask |= one << np.uint64(g[a] ^ g[rest - a])
        else:
            for a in range(1, half + 1):
                seen[g[a] ^ g[rest - a]] = n
        count += half
    if d & 8 and rest >= 3:
        for a in range(1, rest - 1):
            ga = g[a]
            row = pair[rest - a]
            for v in range(P):
                if row[v]:
                    if small:
                        mask |= one << np.uint64(ga ^ v)
                    else:
                        seen[ga ^ v] = n
                    count += 1
    return mask, count


@njit(cache=True)
def octal_kernel(
    g: np.ndarray, start: int, stop: int, digits: np.ndarray, terminal_value: int, top: int
) -> None:
    """A take-and-break code (see :mod:`nimproof.games.octal`): 2- and 3-way splits.

    For removing ``k`` tokens (digit ``d = digits[k]``) from a heap of ``n``,
    ``rest = n - k``:

    * bit 1, ``k > 0`` and ``rest == 0``: the empty position, value ``g[0]``
      (0 in normal play; the misère nim-value of the empty position, 1, for
      non-splitting codes under misère play);
    * bit 2, ``k > 0`` and ``rest > 0``: the heap ``rest``;
    * bit 4: ``a + b = rest``, ``a, b >= 1``, value ``g[a] ^ g[b]``; O(rest);
    * bit 8: ``a + b + c = rest``, all ``>= 1``. The values of every pair
      ``b + c = s`` are kept as a bit row ``pair[s]``, so the three-way
      splits cost O(rest * P) with ``P`` the power of two above the values.

    While every value is below 64 the option values of one heap are
    collected as bits of one machine word (no memory traffic in the inner
    loop); above that, in the stamp array. O(n^2) for two-way splits;
    O(n^2 * P) with three-way splits.
    """
    kmax = digits.shape[0]
    has3 = False
    for k in range(kmax):
        if digits[k] & 8:
            has3 = True
    P = pow2_above(top)
    seen = np.full(P, -1, dtype=np.int64)
    pair = np.zeros((stop if has3 else 1, P if has3 else 1), dtype=np.bool_)
    if has3:
        for s in range(2, start):
            _pair_row(g, s, pair[s])
    for n in range(start, stop):
        count = 0
        mask = np.uint64(0)
        for k in range(kmax):
            d = digits[k]
            if d == 0:
                continue
            if k > n:
                break
            mask, found = _digit_options(g, n, k, d, pair, P, mask, seen)
            count += found
        value = terminal_value if count == 0 else _mex_of(mask, seen, n, P)
        g[n] = value
        if value >= P:
            newP = pow2_above(value)
            seen = grown(seen, newP)
            if has3:
                wider = np.zeros((stop, newP), dtype=np.bool_)
                wider[:, :P] = pair
                pair = wider
            P = newP
        if has3 and n >= 2:
            _pair_row(g, n, pair[n])


@njit(cache=True)
def grundys_game_kernel(g: np.ndarray, start: int, stop: int, top: int) -> None:
    """Grundy's game: split a heap into two non-empty heaps of different sizes. O(n^2).

    Option values go into one machine word while they are below 64 (as in
    :func:`octal_kernel`), into the stamp array above.
    """
    one = np.uint64(1)
    P = pow2_above(top)
    seen = np.full(P, -1, dtype=np.int64)
    for n in range(start, stop):
        mask = np.uint64(0)
        if P <= 64:
            for a in range(1, (n + 1) // 2):
                mask |= one << np.uint64(g[a] ^ g[n - a])
        else:
            for a in range(1, (n + 1) // 2):
                seen[g[a] ^ g[n - a]] = n
        value = _mex_of(mask, seen, n, P)
        g[n] = value
        if value >= P:
            P = pow2_above(value)
            seen = grown(seen, P)
