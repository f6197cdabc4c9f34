"""The one-heap sparse kernel on two threads or more, for games with few rare heaps.

:func:`nimproof.engines.sparse_kernels.sparse_kernel` computes one heap after the
other. When the smallest move that leaves a heap leaves at least ``d`` tokens fewer
(:func:`~nimproof.engines.sparse_kernels.reach`: 0.167 has ``d = 2``, 0.106 ``d = 3``),
heap ``n`` reads nothing above ``n - d``, so heaps ``n .. n + d - 1`` can be computed
at once. :func:`lockstep_kernel` lets ``min(threads, d)`` threads take the heaps in
turn, in one parallel region a stretch:

* a thread takes the next heap ``m`` from a ticket counter and waits (spinning, then
  yielding its core) until every heap ``<= m - d`` is committed;
* it computes ``m``'s value with the one-heap kernel's own loop
  (:func:`~nimproof.engines.sparse_kernels.heap_loop`) and its own stamp arrays
  (``seen``, ``want``), reading the rare list as it was when the stretch began;
* it waits until heap ``m - 1`` is committed, then commits ``m``: writes ``g[m]``
  and moves the commit counter on (a store with release; the waits load it with
  acquire, so a value is written before any thread reads it).

A heap whose value makes the engine act — a rare heap (the rare list grows), a value
the histogram has never seen, a value at or above ``P``, or one that does not fit the
array — is not committed: it ends the stretch, the heaps taken after it are dropped
(they never reach the table), and after the threads have left the region it is
recorded exactly as :func:`~nimproof.engines.sparse_kernels.sparse_kernel` records it
(:func:`~nimproof.engines.sparse_kernels.record`). Every committed heap of a stretch
is common and its value was seen before, so the rare list, the grown histogram and
``P`` that the heaps of the stretch read are the ones the one-heap kernel would have
read: the values are the same, heap by heap. The histogram of the committed heaps is
counted once the stretch ends.

It cannot deadlock: a thread waits only for heaps with smaller tickets, taken by
threads that are running; one thread alone takes every heap in order. As in
:mod:`.block_pipeline`, a thread that waits more than half of a window of the
processor's cycle counter leaves the stretch (on a machine with no free core a
waiting thread mostly waits for one the system has set aside); one always stays.

**Two threads only where they pay.** Heaps handed over one at a time cost a few
transfers of cache lines between the cores per heap (0.106: about 110 ns of work a
heap; 0.167: about 285 ns), so whether two threads beat one depends on the machine
and on its load, which change while a table grows. The kernel measures both, in
cycles a heap, over whole calls (a call is a stretch of up to 2^18 heaps): the
caller's ``memo`` keeps the one-thread figure of the last call that ran on one thread
(the one-heap kernel itself), and a call on two threads that is not at least
:data:`GAIN` times as fast, or that lost a worker, sends the next calls back to one
thread: 1, then 2, 4... up to :data:`BACKOFF` calls; every :data:`BACKOFF`-th call
runs on one thread anyway, so the one-thread figure stays current.

With ``w`` workers, a worker that takes heap ``m`` has committed its previous heap, so
every heap before that one is committed and the heaps not yet committed are the ``w -
1`` the others hold, all above ``m - w``: as ``w <= d``, the wait for heaps ``<= m - d``
never waits. It is kept: it states the rule the values depend on.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from nimproof.engines import turns
from nimproof.engines.sparse_kernels import DONE, OVERFLOW, heap_loop, reach, record, sparse_kernel

#: After a call on two threads that did not pay (see the module docstring), the next calls
#: run on one thread (the one-heap kernel itself): 1, then 2, 4... up to this many. On a
#: machine with no free core, workers that wait for each other lose more than a second
#: thread gains (0.106: 0.64 times the one-thread speed without this rule, measured).
BACKOFF = 32
#: A call on two threads pays when it takes at most 1 / GAIN of the cycles a heap of the
#: last call on one thread.
GAIN = 1.1
#: Calls with fewer heaps than this are not measured (the figures are too noisy).
MEASURED = 1 << 14
# Slots of `memo`: calls still to run on one thread, the last backoff, one thread's cycles
# a heap (0: not measured yet), calls since the last one on one thread.
_SKIP, _BACK, _ONE, _SINCE = range(4)
#: Length of the `memo` array a caller keeps.
MEMO = 4


@njit(cache=True, parallel=True)
def _region(g, span, rule, cls, rares, figures, prefix, lock, workers):  # type: ignore[no-untyped-def]
    # One parallel region: `workers` workers share the heaps span[0] .. span[1] - 1, each with
    # stamp arrays of its own (heap_loop makes its `want`).
    ctl, d = lock
    for _ in prange(workers):
        clock = np.zeros(2, dtype=np.int64)  # [cycles at the start of the window, cycles waited]
        clock[0] = turns.cycles()
        seen = np.full(cls[0].shape[0] + 1, -1, dtype=np.int64)
        heap_loop(g, span, rule, cls, rares, figures, seen, prefix, (ctl, d, clock))


@njit(cache=True, nogil=True)
def lockstep_kernel(
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
    threads: int,
    memo: np.ndarray,
    retire: tuple[int, float] = turns.RETIRE,
) -> tuple[int, int, int]:
    """Fill ``g[start:stop]``; returns ``(next n, nrare, reason)`` and leaves the table,
    ``rare`` and ``hist`` as :func:`~nimproof.engines.sparse_kernels.sparse_kernel` does
    with the same arguments (the same values, early returns and needs; ``seen`` is there
    to keep the same arguments: the workers stamp arrays of their own), with
    ``min(threads, reach(digits))`` workers (one parallel region a stretch; one worker
    when the game's reach is 1). ``retire``: as in
    :func:`~nimproof.engines.block_pipeline.pipelined_kernel`. ``memo`` (int64,
    :data:`MEMO` slots, zeros at first, kept by the caller between calls) holds the
    figures of the rule "two threads only where they pay" (module docstring); its slot 2
    set to -1 turns the rule off (tests: every call on the workers, but for the calls
    still to run on one thread after a stretch that lost a worker).
    Only from the main thread when ``threads > 1`` (numba's parallel layer)."""
    d = reach(digits)
    workers = max(1, min(threads, d))
    one = (rare, nrare, seen, hist, vmax, dense_share, prefix)
    if workers == 1:
        return sparse_kernel(g, start, stop, digits, unequal, parity, posbit, cbit, *one)
    t0 = turns.cycles()
    measure = memo[_ONE] >= 0
    if memo[_SKIP] > 0 or memo[_ONE] == 0 or (measure and memo[_SINCE] >= BACKOFF):
        memo[_SKIP] = max(0, memo[_SKIP] - 1)
        out = sparse_kernel(g, start, stop, digits, unequal, parity, posbit, cbit, *one)
        if out[0] - start >= MEASURED:
            memo[_ONE] = (turns.cycles() - t0) // (out[0] - start)
            memo[_SINCE] = 0
        return out
    game, cls = (digits, unequal, d), (parity, posbit, cbit)
    figures = (hist, vmax, dense_share)
    n, nrare, reason, kept = _stretches(
        g, (start, stop), game, cls, (rare, nrare), figures, prefix, workers, retire
    )
    memo[_SINCE] += 1
    spent = turns.cycles() - t0
    slow = measure and GAIN * spent > memo[_ONE] * (n - start)
    if not kept or (slow and n - start >= MEASURED):
        memo[_BACK] = min(max(1, 2 * memo[_BACK]), BACKOFF)
        memo[_SKIP] = memo[_BACK]
    elif n - start >= MEASURED:
        memo[_BACK] = 0
    return n, nrare, reason


@njit(cache=True)
def _stretches(g, span, game, cls, rares, figures, prefix, workers, retire):  # type: ignore[no-untyped-def]
    # The heaps span[0] .. span[1] - 1 in stretches of `workers` workers (see
    # lockstep_kernel); returns (next n, nrare, reason, whether every stretch kept them all).
    start, stop = span
    digits, unequal, d = game
    rare, nrare = rares
    parity, posbit, cbit = cls
    hist, vmax, dense_share = figures
    rule = (digits, unequal)
    ctl = np.zeros(turns.SLOTS, dtype=np.int64)
    n, reason, kept = start, DONE, True
    while n < stop:
        ctl[:] = 0
        ctl[turns.STOP], ctl[turns.COMMITTED], ctl[turns.ACTIVE] = turns.NEVER, n, workers
        ctl[turns.RETIRE_AFTER] = retire[0]
        ctl[turns.RETIRE_PERMILLE] = int(1000 * retire[1])
        _region(g, (n, stop), rule, cls, (rare, nrare), figures, prefix, (ctl, d), workers)
        end = min(ctl[turns.COMMITTED], ctl[turns.STOP])
        for m in range(n, end):
            hist[m & 1, g[m]] += 1
        n = end
        kept = kept and ctl[turns.ACTIVE] == workers
        if n == stop:
            break
        args = (parity, posbit, cbit, rare, nrare, hist, vmax, dense_share)
        nrare, reason = record(g, n, ctl[turns.VALUE], *args)
        if reason != DONE:
            n += reason != OVERFLOW
            break
        n += 1
    return n, nrare, reason, kept
