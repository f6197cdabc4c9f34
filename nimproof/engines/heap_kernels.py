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
def stamp_mex(seen: np.ndarray, tag: int) -> int:
    """The least value not marked with ``tag`` in the stamp array ``seen`` (at most its length)."""
    m = 0
    size = seen.shape[0]
    while m < size and seen[m] == tag:
        m += 1
    return m


@njit(cache=True)
def bits_mex(mask: np.uint64) -> int:
    """The least value whose bit is clear in ``mask`` (its count of trailing one bits)."""
    one = np.uint64(1)
    value = 0
    while mask & one:
        mask >>= one
        value += 1
    return value


@njit(cache=True)
def note(mask: np.uint64, seen: np.ndarray, v: int, tag: int, small: bool) -> np.uint64:
    """Record the option value ``v``: as a bit of ``mask`` when ``small`` (every value below
    64), else as the stamp ``seen[v] = tag``. Returns the mask (unchanged in the second case)."""
    if small:
        return mask | (np.uint64(1) << np.uint64(v))
    seen[v] = tag
    return mask


@njit(cache=True)
def mex_of(mask: np.uint64, seen: np.ndarray, tag: int, small: bool) -> int:
    """The mex of the option values recorded by :func:`note` (with the same ``small``)."""
    return bits_mex(mask) if small else stamp_mex(seen, tag)


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
        g[n] = terminal_value if count == 0 else stamp_mex(seen, n)


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
    seen = np.full(stop + 2, -1, dtype=np.int64)  # values are at most n
    for n in range(start, stop):
        small = top < 64
        count = 0
        mask = np.uint64(0)
        for t in members:
            if t > n:
                break
            count += 1
            mask = note(mask, seen, g[n - t], n, small)
        g[n] = terminal_value if count == 0 else mex_of(mask, seen, n, small)
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
        g[n] = stamp_mex(seen, n)


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
    rows = legal.shape[0]
    cols = legal.shape[1]
    for r in range(rows):
        n = n0 + r
        small = top < 64
        count = 0
        mask = np.uint64(0)
        for m in range(n if n < cols else cols):
            if legal[r, m]:
                count += 1
                mask = note(mask, seen, g[m], n, small)
        g[n] = terminal_value if count == 0 else mex_of(mask, seen, n, small)
        top = max(top, g[n])
    return top


@njit(cache=True)
def _pair_row(g: np.ndarray, s: int, row: np.ndarray) -> None:
    # row[v] = True when s = a + b with a, b >= 1 and g[a] ^ g[b] == v.
    for a in range(1, s // 2 + 1):
        row[g[a] ^ g[s - a]] = True


@njit(cache=True)
def take_options(
    g: np.ndarray, n: int, k: int, d: int, mask: np.uint64, seen: np.ndarray, small: bool
) -> tuple[np.uint64, int]:
    """Record (see :func:`note`) the option of removing ``k >= 1`` tokens from a heap of ``n``
    that leaves nothing (bit 1 of the digit ``d``) or one heap (bit 2); returns the mask and
    the number of such options (0 or 1)."""
    rest = n - k
    if d & 1 and k > 0 and rest == 0:
        return note(mask, seen, g[0], n, small), 1
    if d & 2 and k > 0 and rest > 0:
        return note(mask, seen, g[rest], n, small), 1
    return mask, 0


@njit(cache=True)
def split_options(
    g: np.ndarray, rest: int, last: int, mask: np.uint64, seen: np.ndarray, tag: int, small: bool
) -> np.uint64:
    """Record (see :func:`note`) the values ``g[a] ^ g[rest - a]`` for ``1 <= a <= last``: the
    splits of ``rest`` tokens into two heaps. Returns the mask."""
    if small:
        one = np.uint64(1)
        for a in range(1, last + 1):
            mask |= one << np.uint64(g[a] ^ g[rest - a])
    else:
        for a in range(1, last + 1):
            seen[g[a] ^ g[rest - a]] = tag
    return mask


@njit(cache=True)
def _digit_options(
    g: np.ndarray, n: int, k: int, d: int, pair: np.ndarray, mask: np.uint64, seen: np.ndarray
) -> tuple[np.uint64, int]:
    """Record the option values of removing ``k`` tokens from a heap of ``n`` (digit ``d``).

    ``P``, the power of two above every value, is the length of the stamp
    array ``seen``. Values go into the bits of ``mask`` while ``P <= 64``,
    else into ``seen`` (stamped with ``n``); returns the new mask and the
    number of options.
    """
    P = seen.shape[0]
    small = P <= 64
    rest = n - k
    mask, count = take_options(g, n, k, d, mask, seen, small)
    if d & 4:
        half = rest // 2
        mask = split_options(g, rest, half, mask, seen, n, small)
        count += half
    if d & 8 and rest >= 3:
        for a in range(1, rest - 1):
            ga = g[a]
            row = pair[rest - a]
            for v in range(P):
                if row[v]:
                    mask = note(mask, seen, ga ^ v, n, small)
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
            mask, found = _digit_options(g, n, k, d, pair, mask, seen)
            count += found
        value = terminal_value if count == 0 else mex_of(mask, seen, n, P <= 64)
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
    P = pow2_above(top)
    seen = np.full(P, -1, dtype=np.int64)
    for n in range(start, stop):
        small = P <= 64
        mask = split_options(g, n, (n + 1) // 2 - 1, np.uint64(0), seen, n, small)
        value = mex_of(mask, seen, n, small)
        g[n] = value
        if value >= P:
            P = pow2_above(value)
            seen = grown(seen, P)
