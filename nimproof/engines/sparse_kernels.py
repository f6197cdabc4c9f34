"""numba kernels for two-way take-and-break games in *sparse space*.

The games: a code whose digits use only the bits 1, 2 and 4 (remove ``k``
tokens and leave nothing, one heap, or two non-empty heaps; the digit before
the point may split without removing), and Grundy's game (split into two
*unequal* heaps, flag ``unequal``). A move that splits ``rest`` tokens into
``a + b`` has the option value ``g(a) xor g(b)``.

**Rare and common values** (Gangolli and Plambeck 1989; Flammenkamp). Fix a
bit mask ``M``. A value ``v`` is *rare* when ``v & M`` has an even number of
one bits, *common* otherwise. Parity is linear, so ``common xor common`` and
``rare xor rare`` are rare, ``rare xor common`` is common. When few heaps
have rare values (the list ``rare`` of those heaps ``>= 1``) the mex of a
heap is found without looking at every split:

1. every option value that involves a rare heap (rare-common pairs, which
   give every *common* option value, and rare-rare pairs) is marked by
   walking the short list of rare heaps: ``O(#rare)`` per split;
2. ``c`` = the least common value not marked: no option has value ``c``,
   because common option values come only from step 1;
3. the rare values below ``c`` that are not yet marked can only come from
   common-common pairs; those pairs are walked until every such value is
   found (usually after a few hundred pairs), or all pairs are exhausted;
4. ``g(n)`` is the least rare value below ``c`` still unmarked, else ``c``.

Every step is exact: the mask only changes how fast the answer is found, not
the answer, and the tests compare every value with the plain reference
implementation. A dense kernel (every pair, option values in one machine
word while they are below 64) serves games whose rare heaps are not rare.

Kernels return early (with a reason code) when the caller has to act: a value
that does not fit the array's type, a value at or above the current power of
two ``P`` (the stamp arrays grow), a value never seen before (the caller may
choose a better mask), the rare list full, or too many rare heaps for the
sparse method to pay.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nimproof.engines.heap_kernels import mex_of, split_options, take_options

#: Reasons a kernel stops before ``stop``.
DONE = 0
OVERFLOW = 1  # the value of heap n does not fit the array's dtype (g[n] not written)
RANGE = 2  # g[n] >= P: grow the stamp arrays (g[n] written)
NEW_VALUE = 3  # g[n] is a value never seen before (g[n] written)
RARE_FULL = 4  # the rare list has no room for the next rare heap (g[n] written)
DENSE = 5  # rare heaps are too many for the sparse method (g[n] written)

#: The common-pair scan reads the common heaps below this from a list (see ranked_prefix).
COMMON_PREFIX = 1 << 15


@njit(cache=True)
def parity_table(mask: int, size: int) -> np.ndarray:
    """``out[v] = popcount(v & mask) % 2`` for ``v < size`` (1: common, 0: rare)."""
    out = np.zeros(size, dtype=np.uint8)
    for v in range(size):
        x = v & mask
        p = 0
        while x:
            p ^= 1
            x &= x - 1
        out[v] = p
    return out


@njit(cache=True)
def walsh_hadamard(hist: np.ndarray) -> np.ndarray:
    """``w[M] = sum_v hist[v] * (-1)^popcount(v & M)`` for every mask ``M`` (len a power of 2).

    The number of heaps whose value is rare under ``M`` is ``(total + w[M]) / 2``.
    """
    w = hist.astype(np.int64).copy()
    size = w.shape[0]
    h = 1
    while h < size:
        for i in range(0, size, 2 * h):
            for j in range(i, i + h):
                x = w[j]
                y = w[j + h]
                w[j] = x + y
                w[j + h] = x - y
        h *= 2
    return w


@njit(cache=True)
def collect_rare(
    g: np.ndarray, stop: int, parity: np.ndarray, posbit: int, cbit: int, rare: np.ndarray
) -> int:
    """Write the rare heaps ``1 <= n < stop`` into ``rare``; return their count.

    Heap ``n`` is rare when ``parity[g[n]] ^ (posbit & n) ^ cbit == 0``.
    ``rare`` must be long enough (the caller sizes it from the histogram).
    """
    count = 0
    for n in range(1, stop):
        if parity[g[n]] ^ (posbit & n) ^ cbit == 0:
            rare[count] = n
            count += 1
    return count


@njit(cache=True)
def last_rare_heap(g: np.ndarray, count: int, parity: np.ndarray, posbit: int, cbit: int) -> int:
    """The largest rare heap ``1 <= n < count`` (0 when there is none); see :func:`collect_rare`."""
    for n in range(count - 1, 0, -1):
        if parity[g[n]] ^ (posbit & n) ^ cbit == 0:
            return n
    return 0


@njit(cache=True)
def split_removals(digits: np.ndarray) -> np.ndarray:
    """The removals ``k`` whose digit allows a split into two heaps (bit 4), increasing."""
    count = 0
    for k in range(digits.shape[0]):
        if digits[k] & 4:
            count += 1
    out = np.zeros(count, dtype=np.int64)
    i = 0
    for k in range(digits.shape[0]):
        if digits[k] & 4:
            out[i] = k
            i += 1
    return out


@njit(cache=True)
def common_prefix(
    g: np.ndarray, bound: int, parity: np.ndarray, posbit: int, cbit: int
) -> tuple[np.ndarray, np.ndarray]:
    """The common heaps ``1 <= a < bound`` (increasing) and their values.

    The common-pair scans read this list first: a split with a rare part is
    already marked by the rare sweep, so skipping the rare heaps of the
    prefix loses nothing and saves a fifth of the pairs (Officers).
    """
    count = 0
    for a in range(1, bound):
        if parity[g[a]] ^ (posbit & a) ^ cbit == 1:
            count += 1
    pos = np.zeros(count, dtype=np.int64)
    val = np.zeros(count, dtype=np.uint64)
    i = 0
    for a in range(1, bound):
        if parity[g[a]] ^ (posbit & a) ^ cbit == 1:
            pos[i] = a
            val[i] = g[a]
            i += 1
    return pos, val


@njit(cache=True)
def ranked_prefix(
    g: np.ndarray,
    start: int,
    rule: tuple[np.ndarray, bool],
    cls: tuple[np.ndarray, int, int],
    rare: np.ndarray,
    nrare: int,
    sample: int,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The prefix list of the common-pair scan: ``(heaps, values, bound)``.

    :func:`sparse_kernel` looks for the wanted values first among the pairs
    of the heaps of this list, then among the pairs of every heap from
    ``bound`` on. The list holds the common heaps below ``bound`` (in any
    order: the scan reads every pair before it gives up on a wanted value,
    so the order changes how soon they are found, never the values), or is
    empty with ``bound = 1`` (every pair in increasing order, as before).

    Ranked by the heaps ``start - sample .. start - 1``, already known: a
    heap of the list earns, for each wanted value its pair gives there, one
    over the number of pairs of the list that give it (a pair that alone
    gives a value scores 1). The ranked list is used only when it reads
    fewer than 0.8 times the pairs of the plain scan on those heaps, which
    need 64 pairs or more (Officers at 2^20: about 2,450 pairs a heap in
    increasing order, 1,100 ranked; 0.106: a few pairs, no list).
    ``rare[:nrare]``: every rare heap below ``start``.
    """
    digits, unequal = rule
    parity, posbit, cbit = cls
    bound = max(1, min(start, COMMON_PREFIX))
    none = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint64), 1)
    P = parity.shape[0]
    lo = max(start - sample, 4 * bound)
    if lo >= start or P > 4096:
        return none
    cpos, cval = common_prefix(g, bound, parity, posbit, cbit)
    ks = split_removals(digits)
    k = ks[ks.shape[0] - 1]
    wanted, counts = _sample_wants(g, lo, start, digits, ks, unequal, cls, rare, nrare)
    want = np.full(P, -1, dtype=np.int64)
    plain = _sample_pairs(g, lo, k, unequal, none, wanted, counts, want, 0)
    if plain < 64 * (start - lo):
        return none
    hits = np.zeros(P, dtype=np.int64)
    score = np.zeros(cpos.shape[0], dtype=np.float64)
    want[:] = -1
    for s in range(start - lo):
        want[wanted[s, : counts[s]]] = s
        rest = lo + s - k
        for rounds in range(2):  # count the pairs that give each wanted value, then score
            for i in range(cpos.shape[0]):
                x = cval[i] ^ g[rest - cpos[i]]
                if want[x] == s:
                    if rounds == 0:
                        hits[x] += 1
                    else:
                        score[i] += 1.0 / hits[x]
        hits[:] = 0
    order = np.argsort(-score, kind="mergesort")
    ranked = (cpos[order], cval[order], bound)
    want[:] = -1
    if _sample_pairs(g, lo, k, unequal, ranked, wanted, counts, want, 0) < 0.8 * plain:
        return ranked
    return none


@njit(cache=True)
def _sample_wants(
    g: np.ndarray,
    lo: int,
    hi: int,
    digits: np.ndarray,
    ks: np.ndarray,
    unequal: bool,
    cls: tuple[np.ndarray, int, int],
    rare: np.ndarray,
    nrare: int,
) -> tuple[np.ndarray, np.ndarray]:
    # The wanted values of the heaps lo .. hi - 1 (steps 1-3 of the method): row s holds the
    # counts[s] values wanted for heap lo + s.
    parity, posbit, _ = cls
    P = parity.shape[0]
    seen = np.full(P + 1, -1, dtype=np.int64)
    want = np.full(P, -1, dtype=np.int64)
    wanted = np.zeros((hi - lo, P), dtype=np.int64)
    counts = np.zeros(hi - lo, dtype=np.int64)
    for n in range(lo, hi):
        _non_split_options(g, n, digits, np.uint64(0), seen, False)
        tp = 1
        for k in ks:
            rest = n - k
            tp = 1 ^ (posbit & rest)
            for r in rare[:nrare]:
                if r < rest and not (unequal and 2 * r == rest):
                    seen[g[r] ^ g[rest - r]] = n
        cm = _wanted(parity, tp, seen, n, want)[0]
        for v in range(min(cm, P)):
            if want[v] == n:
                wanted[n - lo, counts[n - lo]] = v
                counts[n - lo] += 1
    return wanted, counts


@njit(cache=True)
def _sample_pairs(
    g: np.ndarray,
    lo: int,
    k: int,
    unequal: bool,
    prefix: tuple[np.ndarray, np.ndarray, int],
    wanted: np.ndarray,
    counts: np.ndarray,
    want: np.ndarray,
    stamp: int,
) -> int:
    # Pairs the common-pair scan of the split k reads, with this prefix, until it finds the
    # wanted values of each sample heap (all of them when some value is not found).
    cpos, cval, cbound = prefix
    total = 0
    for s in range(counts.shape[0]):
        stamp += 1
        want[wanted[s, : counts[s]]] = stamp
        need = counts[s]
        rest = lo + s - k
        last = split_count(rest, 0, unequal)
        for i in range(cpos.shape[0] + last + 1 - cbound):
            if need == 0:
                break
            if i < cpos.shape[0]:
                a = cpos[i]
                x = cval[i] ^ g[rest - a]
            else:
                a = cbound + i - cpos.shape[0]
                x = g[a] ^ g[rest - a]
            total += 1
            if a <= last and want[x] == stamp:
                want[x] = -1
                need -= 1
    return total


@njit(cache=True)
def _non_split_options(
    g: np.ndarray, n: int, digits: np.ndarray, mask: np.uint64, seen: np.ndarray, small: bool
) -> tuple[np.uint64, int]:
    # Moves that leave nothing or one heap (see take_options); returns the mask and their count.
    count = 0
    for k in range(1, min(digits.shape[0], n + 1)):
        mask, found = take_options(g, n, k, digits[k], mask, seen, small)
        count += found
    return mask, count


@njit(cache=True)
def split_count(n: int, k: int, unequal: bool) -> int:
    # Number of unordered splits of n - k into two non-empty parts (unequal ones if asked).
    rest = n - k
    if rest < 2:
        return 0
    half = rest // 2
    if unequal and rest % 2 == 0:
        half -= 1
    return half


@njit(cache=True)
def _workspace(
    g: np.ndarray,
    P: int,
    prefix: tuple[np.ndarray, np.ndarray, int],
    rare: np.ndarray,
    nrare: int,
) -> tuple[np.ndarray, np.ndarray]:
    # want: stamps of the wanted values (want[:P]), then the prefix list, value << 32 | heap
    # (one array: each array a per-heap call takes costs reference counting); grare: the
    # values of the rare heaps (room for len(rare)).
    cpos, cval, _ = prefix
    want = np.full(P + cpos.shape[0], -1, dtype=np.int64)
    for i in range(cpos.shape[0]):
        want[P + i] = np.int64(cval[i]) << 32 | cpos[i]
    grare = np.zeros(rare.shape[0], dtype=np.uint64)
    for i in range(nrare):
        grare[i] = g[rare[i]]
    return want, grare


@njit(cache=True, nogil=True)
def sparse_kernel(
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
    seen: np.ndarray,
    hist: np.ndarray,
    vmax: int,
    dense_share: float,
    prefix: tuple[np.ndarray, np.ndarray, int],
) -> tuple[int, int, int]:
    """Fill ``g[start:stop]`` by the rare-value method; returns ``(next n, nrare, reason)``.

    The class of heap ``m`` is ``parity[g[m]] ^ (posbit & m) ^ cbit`` (0: rare,
    1: common); ``posbit`` may be 1 only when every splitting removal ``k`` has
    the same parity (then the class of a split's value depends on the parity
    of what is split, Flammenkamp's sparse space "in the domain").
    ``parity`` (length ``P``, the power of two above every value so far) is
    ``popcount(v & mask) % 2``; ``rare[:nrare]`` lists, in increasing order,
    every rare heap ``1 <= m < start``; ``seen`` (length ``P + 1``) is a
    stamp array never cleared (stamp = heap); ``hist[m & 1, v]`` counts the
    heaps ``m`` with value ``v`` (``P + 1`` columns). ``vmax``: the largest
    value the dtype of ``g`` holds. Stops with :data:`DENSE` when more than
    ``dense_share`` of the heaps are rare. ``prefix``: the common heaps below a
    bound, in the order the common-pair scan reads them (:func:`ranked_prefix`).
    """
    P = parity.shape[0]
    kmax = digits.shape[0]
    want, grare = _workspace(g, P, prefix, rare, nrare)
    nlist, cbound = want.shape[0] - P, prefix[2]
    for n in range(start, stop):
        _, count = _non_split_options(g, n, digits, np.uint64(0), seen, False)
        # 1. Pairs with a rare heap: every option value of parity tp, and the rare-rare ones.
        tp = 1
        for k in range(min(kmax, n + 1)):
            if not digits[k] & 4:
                continue
            rest = n - k
            tp = 1 ^ (posbit & rest)
            c = split_count(n, k, unequal)
            if c == 0:
                continue
            count += c
            if nrare and 2 * rare[nrare - 1] < rest:
                # Every rare heap lies below its partner: no test in the loop, and unsigned
                # indices (no test for negative ones either).
                top = np.uint64(rest)
                for i in range(nrare):
                    seen[grare[i] ^ g[top - np.uint64(rare[i])]] = n
                continue
            for i in range(nrare):
                r = rare[i]
                if r >= rest:
                    break
                b = rest - r
                if unequal and b == r:
                    continue
                seen[grare[i] ^ g[b]] = n
        value = 0
        if count:
            value = _finish_mex(g, n, digits, unequal, parity, tp, seen, want, nlist, cbound)
        before = nrare
        nrare, reason = record(
            g, n, value, parity, posbit, cbit, rare, nrare, hist, vmax, dense_share
        )
        if nrare > before:
            grare[before] = value
        if reason != DONE:
            return (n if reason == OVERFLOW else n + 1), nrare, reason
    return stop, nrare, DONE


@njit(cache=True)
def record(
    g: np.ndarray,
    n: int,
    value: int,
    parity: np.ndarray,
    posbit: int,
    cbit: int,
    rare: np.ndarray,
    nrare: int,
    hist: np.ndarray,
    vmax: int,
    dense_share: float,
) -> tuple[int, int]:
    """Store ``g(n) = value`` and its figures; returns ``(nrare, reason)``.

    The reason (:data:`DONE` to go on) is the sparse kernels' early return:
    :data:`OVERFLOW` (nothing stored), :data:`RANGE`, :data:`RARE_FULL`,
    :data:`DENSE` or :data:`NEW_VALUE` (``g(n)`` stored, and ``n`` added to the
    rare list when it is rare and there is room).
    """
    if value > vmax:
        return nrare, OVERFLOW
    g[n] = value
    first = hist[0, value] + hist[1, value] == 0
    hist[n & 1, value] += 1
    if value >= parity.shape[0]:
        return nrare, RANGE
    if parity[value] ^ (posbit & n) ^ cbit == 0 and n >= 1:
        if nrare == rare.shape[0]:
            return nrare, RARE_FULL
        rare[nrare] = n
        nrare += 1
        if nrare > dense_share * n and n >= 1024:
            return nrare, DENSE
    if first:
        return nrare, NEW_VALUE
    return nrare, DONE


@njit(cache=True, inline="always")
def _wanted(
    parity: np.ndarray, tp: int, seen: np.ndarray, stamp: int, want: np.ndarray
) -> tuple[int, int]:
    # Steps 2 and 3 of the method (seen holds every option value of class tp, stamped):
    # cm = the least value of class tp that no option has; the values of the other class below
    # cm still unmarked are wanted (want[v] = stamp). Returns (cm, how many are wanted).
    P = parity.shape[0]
    cm = 0
    while cm < P and (parity[cm] != tp or seen[cm] == stamp):
        cm += 1
    need = 0
    for v in range(min(cm, P)):
        if parity[v] != tp and seen[v] != stamp:
            want[v] = stamp
            need += 1
    return cm, need


@njit(cache=True)
def _finish_mex(
    g: np.ndarray,
    n: int,
    digits: np.ndarray,
    unequal: bool,
    parity: np.ndarray,
    tp: int,
    seen: np.ndarray,
    want: np.ndarray,
    nlist: int,
    cbound: int,
) -> int:
    # Steps 2-4 of the method: every option value of parity tp is already marked in seen.
    # Wanted values (want[v] == n, a stamp: the array is never cleared) can only come from
    # common-common pairs.
    P = parity.shape[0]
    cm, need = _wanted(parity, tp, seen, n, want)
    if need > 0:
        need = _scan_common(g, n, digits, unequal, want, need, P, nlist, cbound)
    # 4. The least value of the other parity still unmarked, else cm.
    if need > 0:
        for v in range(min(cm, P)):
            if want[v] == n:
                return v
    return cm


@njit(cache=True)
def _scan_common(
    g: np.ndarray,
    n: int,
    digits: np.ndarray,
    unequal: bool,
    want: np.ndarray,
    need: int,
    P: int,
    nlist: int,
    cbound: int,
) -> int:
    # Walk the splits of heap n, unmarking want[x] == n for each option value x, until none is
    # left: first the heaps of the prefix list (want[P:P + nlist], value << 32 | heap: every
    # common heap below cbound, in any order), then every heap from cbound on. The pairs
    # skipped have a rare part: the rare sweep marked them, and they give no wanted value.
    for k in range(min(digits.shape[0], n + 1)):
        if not digits[k] & 4:
            continue
        rest = n - k
        last = split_count(n, k, unequal)
        top = np.uint64(rest)
        short = last < cbound - 1  # some heaps of the list are too large for this split
        for i in range(P, P + nlist):
            a = want[i] & 0xFFFFFFFF
            if short and a > last:
                continue
            # Unsigned indices: no test for negative ones.
            x = np.uint64(want[i] >> 32) ^ g[top - np.uint64(a)]
            if want[x] == n:
                want[x] = -1
                need -= 1
                if need == 0:
                    return 0
        for a in range(np.uint64(cbound), np.uint64(last + 1)):
            x = g[a] ^ g[top - a]  # unsigned indices: no test for negative ones
            if want[x] == n:
                want[x] = -1
                need -= 1
                if need == 0:
                    return 0
    return need


@njit(cache=True, nogil=True)
def dense_kernel(
    g: np.ndarray,
    start: int,
    stop: int,
    digits: np.ndarray,
    unequal: bool,
    seen: np.ndarray,
    hist: np.ndarray,
    vmax: int,
) -> tuple[int, int]:
    """Fill ``g[start:stop]`` looking at every split; returns ``(next n, reason)``.

    While every value is below 64 (``seen`` of length at most 65) the option
    values of one heap are bits of one machine word; above, stamps in
    ``seen`` (length ``P + 1``). Stops with :data:`RANGE` when a value reaches
    ``len(seen) - 1`` (grow ``seen``) and :data:`OVERFLOW` past ``vmax``;
    ``hist[m & 1, v]`` counts the heaps ``m`` with value ``v``.
    """
    P = seen.shape[0] - 1
    kmax = digits.shape[0]
    small = P <= 64
    for n in range(start, stop):
        mask, count = _non_split_options(g, n, digits, np.uint64(0), seen, small)
        for k in range(min(kmax, n + 1)):
            if not digits[k] & 4:
                continue
            last = split_count(n, k, unequal)
            count += last
            mask = split_options(g, n - k, last, mask, seen, n, small)
        value = mex_of(mask, seen, n, small) if count > 0 else 0
        if value > vmax:
            return n, OVERFLOW
        g[n] = value
        hist[n & 1, value] += 1
        if value >= P:
            return n + 1, RANGE
    return stop, DONE


@njit(cache=True)
def least_period_tail(g: np.ndarray, lo: int, hi: int) -> int:
    """The least period of the segment ``g[lo:hi]`` (its length when it has no shorter one).

    Knuth–Morris–Pratt failure function: O(hi - lo) time, one int32 per value.
    """
    m = hi - lo
    if m <= 1:
        return max(m, 1)
    fail = np.zeros(m, dtype=np.int32)
    j = 0
    for i in range(1, m):
        while j > 0 and g[lo + i] != g[lo + j]:
            j = fail[j - 1]
        if g[lo + i] == g[lo + j]:
            j += 1
        fail[i] = j
    return m - fail[m - 1]


@njit(cache=True)
def periodic_from(g: np.ndarray, p: int, lo: int, hi: int) -> int:
    """The least ``n0 <= lo`` with ``g[n + p] == g[n]`` for every ``n0 <= n < hi - p``.

    Assumes it holds for ``lo <= n < hi - p``; walks down from ``lo``.
    """
    n = lo
    while n > 0 and g[n - 1 + p] == g[n - 1]:
        n -= 1
    return n
