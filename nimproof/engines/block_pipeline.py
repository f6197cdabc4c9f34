"""The block kernel on two threads or more: one parallel region for a whole stretch.

:func:`nimproof.engines.block_kernels.block_kernel` runs its parallel steps (the
rare sweep of a block, the common-pair check) as one numba parallel region each:
two regions a block of 256 heaps, each too short (about 100 us of work for a
thread) to pay back waking the threads. :func:`pipelined_kernel` computes the
same values with the same steps, but the threads enter **one** region for a
whole stretch of blocks and share its steps as *tasks*, taken in a fixed order
from a counter; a task waits (spinning, then yielding the core) until the tasks
it needs are done. For block ``b`` of the stretch (heaps ``h .. h + B - 1``):

* ``sweep(b)`` (in :data:`SWEEP_PARTS` parts): the rare sweep, for partners
  below ``h - B`` (the start of the block before; below ``h`` for the first
  block), so that it can run while block ``b - 1`` is still being prepared;
  it needs the tentative values of block ``b - 2``;
* ``cand(b)``: the candidates step, in order, heap by heap; the pairs the sweep
  did not see (a rare heap whose partner lies at ``h - B`` or above) are
  added here; the heap's tentative value is written into the table. It needs
  ``sweep(b)`` and ``cand(b - 1)``: this chain is the only sequential one;
* ``check(b)`` (in :data:`CHECK_PARTS` parts): the common-pair check;
* ``commit(b)``: the values, in order, needing ``check(b)`` and ``commit(b - 1)``.
  A heap whose wanted values were not all found, or whose figures make the
  engine act (a new value, a value out of range...), ends the stretch: the
  tasks of later blocks are dropped, their tentative values cleared, and that
  heap is recorded after the threads have left the region.

The marks of :data:`RING` blocks are held at once (``sweep(b)`` waits for
``commit(b - RING)``, which clears the rows it used).

Why the values are exact: each heap reads only smaller heaps, and a heap is
committed only after every heap before it was committed with its tentative
value (the argument of :mod:`.block_kernels`); a task waits with an acquire
load for a counter its producers increase with a release, so every value a task
reads was written before it reads it. A thread waits only for tasks with
smaller tickets, taken by threads that are running, so the tasks cannot wait
on each other in a circle, on any number of threads (one thread takes every
task in order).
"""

from __future__ import annotations

import platform
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from nimproof.engines.block_kernels import (
    TILE,
    _buffers,
    _candidates,
    _check_part,
    _least_wanted,
    _sweep_tile,
)
from nimproof.engines.sparse_kernels import DONE, OVERFLOW, record, split_removals

#: Blocks whose rows of marks are held at once.
RING = 4
#: Parts of a block's rare sweep and of its common-pair check (tasks a thread takes).
SWEEP_PARTS = 2
CHECK_PARTS = 4
#: Tasks of a step, in this order: cand(b), check(b - 1) in parts, sweep(b + 1) in parts,
#: commit(b - 1) (before the first step: sweep(0)).
STEP = SWEEP_PARTS + 2 + CHECK_PARTS
#: Spins (with a pause) before a waiting thread gives up its core for a moment.
SPINS = 64
#: A worker leaves the stretch (the others take its tasks; one always stays) when, in a
#: window of RETIRE[0] cycles, it has spent more than the share RETIRE[1] of them waiting: on
#: a machine with no free core a waiting thread mostly waits for another one the system has
#: set aside (70 to 90% of its time measured), with a free core 5 to 7%.
RETIRE = (1 << 25, 0.5)

# Per block, in `state`: counters of the parts done, and the heaps prepared.
_SWEPT, _CANDS, _CHECKED, _COMMITTED, _LIMIT = range(5)
_FIELDS = 5
# The region's control slots, in `ctl`.
_TICKET, _STOP_CAND, _STOP_COMMIT, _END, _VALUE, _REASON, _NRARE, _HIGH, _ACTIVE = range(9)
_RETIRE_AFTER, _RETIRE_PERMILLE = 9, 10
#: `_REASON` values besides the record reasons: none yet; a heap whose value is not c.
_NONE, _BACK = -2, -1
_NEVER = 1 << 62

_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def _pointer(context: Any, builder: Any, sig: Any, args: Any) -> Any:
    array = context.make_array(sig.args[0])(context, builder, args[0])
    return cgutils.get_item_pointer(context, builder, sig.args[0], array, [args[1]])


def _load_typer(typingctx: Any, arr: Any, idx: Any) -> Any:
    """``arr[idx]`` read with acquire ordering (``arr``: int64)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.load_atomic(_pointer(context, builder, sig, args), "acquire", 8)

    return types.int64(arr, idx), codegen


_load: Any = intrinsic(_load_typer)


def _add_typer(typingctx: Any, arr: Any, idx: Any, value: Any) -> Any:
    """``arr[idx] += value`` at once, with release and acquire ordering; returns the old value."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        return builder.atomic_rmw("add", _pointer(context, builder, sig, args), v, "acq_rel")

    return types.int64(arr, idx, value), codegen


_add: Any = intrinsic(_add_typer)


def _store_typer(typingctx: Any, arr: Any, idx: Any, value: Any) -> Any:
    """``arr[idx] = value`` with release ordering."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        builder.store_atomic(v, _pointer(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()

    return types.void(arr, idx, value), codegen


_store: Any = intrinsic(_store_typer)


def _nullary(symbol: str, result: str, ir_result: str) -> Any:
    """An intrinsic that calls the function ``symbol`` (none: empty) with no argument and
    returns its result: ``int64`` (the function's ``i64``) or ``void`` (ignored; the
    function's LLVM type is ``ir_result``: ``void`` or ``i32``)."""

    def typer(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            out = context.get_dummy_value()
            if symbol:
                ret = ir.VoidType() if ir_result == "void" else ir.IntType(int(ir_result[1:]))
                fn = cgutils.get_or_insert_function(
                    builder.module, ir.FunctionType(ret, []), symbol
                )
                called = builder.call(fn, [])
                out = called if result == "int64" else out
            return out

        return (types.int64() if result == "int64" else types.void()), codegen

    return intrinsic(typer)


#: The processor's spin-wait hint (x86 ``pause``; nothing elsewhere).
_pause: Any = _nullary("llvm.x86.sse2.pause" if _X86 else "", "void", "void")
#: ``sched_yield()``: let another runnable thread have this core.
_yield: Any = _nullary("sched_yield", "void", "i32")
#: The processor's cycle counter (0 where it has none).
_cycles: Any = _nullary("llvm.readcyclecounter", "int64", "i64")


@njit(cache=True)
def _stop(ctl: np.ndarray) -> int:
    # The last block whose tasks still count.
    return min(_load(ctl, _STOP_CAND), _load(ctl, _STOP_COMMIT))


@njit(cache=True)
def _wait(sync: tuple[np.ndarray, np.ndarray, np.ndarray], slot: int, count: int, b: int) -> bool:
    # Wait until state[slot] >= count; False when block b's task no longer counts. The
    # cycles waited are added to the worker's clock[1].
    state, ctl, clock = sync
    if _load(state, slot) >= count:
        return _stop(ctl) >= b
    t0 = _cycles()
    spins = 0
    while _load(state, slot) < count:
        if _stop(ctl) < b:
            return False
        _pause()
        spins += 1
        if spins == SPINS:
            _yield()
            spins = 0
    clock[1] += _cycles() - t0
    return _stop(ctl) >= b


@njit(cache=True)
def _sweep_task(g, span, b, part, game, rares, ring, sync):  # type: ignore[no-untyped-def]
    # sweep(b), one part: the rows of the heaps of block b in its part of the block.
    state = sync[0]
    n0, n1, B = span
    ks, unequal = game[1], game[2]
    if b >= 2 and not _wait(sync, _FIELDS * (b - 2) + _CANDS, 1, b):
        return
    if b >= RING and not _wait(sync, _FIELDS * (b - RING) + _COMMITTED, 1, b):
        return
    h = n0 + b * B
    m = min(B, n1 - h)
    S = ring[5]
    rows = ring[0][(b % RING) * B * S :]
    size = (B + SWEEP_PARTS - 1) // SWEEP_PARTS
    lag = 0 if b == 0 else B
    for j0 in range(part * size, min(m, (part + 1) * size), TILE):
        _sweep_tile(
            g, h, j0, min(m, j0 + TILE, (part + 1) * size), (ks, unequal), rares, rows, S, lag
        )
    _add(state, _FIELDS * b + _SWEPT, 1)


@njit(cache=True)
def _cand_task(g, span, b, game, rares, ring, sync):  # type: ignore[no-untyped-def]
    # cand(b): the tentative values of block b, in order.
    state, ctl, _ = sync
    n0, n1, B = span
    if not _wait(sync, _FIELDS * b + _SWEPT, SWEEP_PARTS, b):
        return
    if b >= 1 and not _wait(sync, _FIELDS * (b - 1) + _CANDS, 1, b):
        return
    h = n0 + b * B
    m = min(B, n1 - h)
    marks, words, classes, tops, need, S = ring
    r = b % RING
    rows8 = marks[r * B * S : (r + 1) * B * S]
    rows64 = words[r * B * S // 8 : (r + 1) * B * S // 8]
    digits, ks, unequal, parity, posbit, vmax = game
    rare, grare, nrare = rares
    e = _candidates(
        g,
        h,
        0,
        m,
        (digits, ks, unequal),
        (parity, posbit, vmax),
        (rare, grare, nrare, nrare),
        rows64[:0],  # the sweep wrote into the marks
        (rows8, rows64, classes),
        tops[r * B : (r + 1) * B],
        need[r * B : (r + 1) * B],
        0 if b == 0 else B,
    )
    state[_FIELDS * b + _LIMIT] = e
    if e < m:
        _store(ctl, _STOP_CAND, b)
        _store(ctl, _HIGH, h + e - 1)
    else:
        _store(ctl, _HIGH, h + e)
    _add(state, _FIELDS * b + _CANDS, 1)


@njit(cache=True)
def _check_task(g, span, b, part, game, prefix, ring, sync):  # type: ignore[no-untyped-def]
    # check(b), one part: the common-pair check of its heaps.
    state = sync[0]
    n0, _, B = span
    if not _wait(sync, _FIELDS * b + _CANDS, 1, b):
        return
    e = state[_FIELDS * b + _LIMIT]
    marks, _, _, _, need, S = ring
    r = b % RING
    size = (B + CHECK_PARTS - 1) // CHECK_PARTS
    i0, i1 = part * size, min(e, (part + 1) * size)
    if i0 < i1:
        work = (marks[r * B * S : (r + 1) * B * S], need[r * B : (r + 1) * B], S)
        _check_part(g, n0 + b * B, i0, i1, (game[1], game[2]), prefix, work)
    _add(state, _FIELDS * b + _CHECKED, 1)


@njit(cache=True)
def _commit_task(g, span, b, figures, rares, ring, sync):  # type: ignore[no-untyped-def]
    # commit(b): the values of block b in order; a heap that ends the stretch is left in ctl.
    state, ctl, _ = sync
    n0, _, B = span
    if not _wait(sync, _FIELDS * b + _CHECKED, CHECK_PARTS, b):
        return
    if b >= 1 and not _wait(sync, _FIELDS * (b - 1) + _COMMITTED, 1, b):
        return
    parity, posbit, cbit, vmax, hist, dense_share = figures
    rare, grare = rares
    marks, words, _, tops, need, S = ring
    r = b % RING
    h = n0 + b * B
    e = state[_FIELDS * b + _LIMIT]
    nrare = ctl[_NRARE]
    for i in range(e):
        n = h + i
        if need[r * B + i]:
            ctl[_VALUE] = _least_wanted(marks[r * B * S :], i, S, tops[r * B + i])
            _end(ctl, b, n, _BACK)
            return
        before = nrare
        nrare, reason = record(
            g, n, tops[r * B + i], parity, posbit, cbit, rare, nrare, hist, vmax, dense_share
        )
        ctl[_NRARE] = nrare
        if nrare > before:
            grare[before] = tops[r * B + i]
        for w in range((r * B + i) * S // 8, (r * B + i + 1) * S // 8):
            words[w] = 0
        if reason != DONE or nrare > before:
            _end(ctl, b, n + 1 if reason == DONE else n, reason)
            return
    if e < min(B, span[1] - h):
        _end(ctl, b, h + e, DONE)
        return
    _add(state, _FIELDS * b + _COMMITTED, 1)


@njit(cache=True)
def _end(ctl: np.ndarray, b: int, n: int, reason: int) -> None:
    # The stretch ends at heap n (recorded, unless reason is _BACK) in block b.
    ctl[_END] = n
    ctl[_REASON] = reason
    _store(ctl, _STOP_COMMIT, b)


@njit(cache=True)
def _worker(g, span, game, figures, rares, prefix, ring, state, ctl):  # type: ignore[no-untyped-def]
    # Take tickets in order and run their tasks until none is left, the stretch ended, or
    # this worker waits too much (see RETIRE).
    n0, n1, B = span
    nb = (n1 - n0 + B - 1) // B
    total = SWEEP_PARTS + (nb + 1) * STEP
    clock = np.zeros(2, dtype=np.int64)  # [cycles at the start, cycles waited]
    clock[0] = _cycles()
    sync = (state, ctl, clock)
    while True:
        t = _add(ctl, _TICKET, 1)
        if t >= total or not _task(g, span, t, game, figures, rares, prefix, ring, sync):
            return
        spent = _cycles() - clock[0]
        if spent > ctl[_RETIRE_AFTER]:  # the end of a window
            if 1000 * clock[1] > ctl[_RETIRE_PERMILLE] * spent:
                if _add(ctl, _ACTIVE, -1) > 1:
                    return
                _add(ctl, _ACTIVE, 1)
            clock[0], clock[1] = _cycles(), 0


@njit(cache=True)
def _task(g, span, t, game, figures, rares, prefix, ring, sync):  # type: ignore[no-untyped-def]
    # Ticket t's task (see STEP); False when no later ticket has a task that counts.
    n0, n1, B = span
    nb = (n1 - n0 + B - 1) // B
    if t < SWEEP_PARTS:
        _sweep_task(g, span, 0, t, game, rares, ring, sync)
        return True
    step, r = (t - SWEEP_PARTS) // STEP, (t - SWEEP_PARTS) % STEP
    stop = _stop(sync[1])
    if step - 1 > stop:
        return False
    if r == 0:
        if step < nb and step <= stop:
            _cand_task(g, span, step, game, rares, ring, sync)
    elif r <= CHECK_PARTS:
        if 1 <= step <= stop + 1:
            _check_task(g, span, step - 1, r - 1, game, prefix, ring, sync)
    elif r <= CHECK_PARTS + SWEEP_PARTS:
        if step + 1 < nb and step + 1 <= stop:
            _sweep_task(g, span, step + 1, r - CHECK_PARTS - 1, game, rares, ring, sync)
    elif 1 <= step <= stop + 1:
        _commit_task(g, span, step - 1, figures, rares[:2], ring, sync)
    return True


@njit(cache=True, parallel=True)
def _region(g, span, game, figures, rares, prefix, ring, ctl, threads):  # type: ignore[no-untyped-def]
    # One parallel region: `threads` workers share the tasks of heaps span[0] .. span[1] - 1.
    n0, n1, B = span
    state = np.zeros(_FIELDS * ((n1 - n0 + B - 1) // B + 1), dtype=np.int64)
    for _ in prange(threads):
        _worker(g, span, game, figures, rares, prefix, ring, state, ctl)


@njit(cache=True, nogil=True)
def pipelined_kernel(
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
    hist: np.ndarray,
    vmax: int,
    dense_share: float,
    block: int,
    prefix: tuple[np.ndarray, np.ndarray, int],
    threads: int,
    retire: tuple[int, float] = RETIRE,
) -> tuple[int, int, int]:
    """Fill ``g[start:stop]``; returns ``(next n, nrare, reason)``, as
    :func:`~nimproof.engines.block_kernels.block_kernel` does with the same arguments
    (the same values, early returns and needs), with ``threads`` workers in one parallel
    region a stretch (a stretch ends at ``stop`` or at a heap that turns out rare).
    ``retire = (cycles, share)``: a worker that, in a window of that many cycles of the
    processor's counter, has waited more than that share of them leaves the stretch to the
    others.
    Only from the main thread when ``threads > 1`` (numba's parallel layer)."""
    ks = split_removals(digits)
    S, grare, _, _, classes = _buffers(g, parity, rare, nrare, 1)
    ring8 = np.zeros(RING * block * S, dtype=np.uint8)
    tops = np.zeros(RING * block, dtype=np.int64)
    ring = (ring8, ring8.view(np.uint64), classes.view(np.uint64), tops, np.zeros_like(tops), S)
    game = (digits, ks, unequal, parity, posbit, vmax)
    figures = (parity, posbit, cbit, vmax, hist, dense_share)
    ctl = np.zeros(11, dtype=np.int64)
    n = start
    while n < stop:
        ctl[:] = 0
        ctl[_STOP_CAND], ctl[_STOP_COMMIT], ctl[_REASON] = _NEVER, _NEVER, _NONE
        ctl[_NRARE], ctl[_HIGH], ctl[_ACTIVE] = nrare, n, threads
        ctl[_RETIRE_AFTER], ctl[_RETIRE_PERMILLE] = retire[0], int(1000 * retire[1])
        _region(
            g, (n, stop, block), game, figures, (rare, grare, nrare), prefix, ring, ctl, threads
        )
        nrare, reason, end = ctl[_NRARE], ctl[_REASON], ctl[_END]
        if reason == _NONE:
            return stop, nrare, DONE
        g[end + (reason != DONE) : max(end + 1, ctl[_HIGH])] = 0  # tentative values
        ring8[:] = 0
        if reason == _BACK:
            before = nrare
            args = (parity, posbit, cbit, rare, nrare, hist, vmax, dense_share)
            nrare, reason = record(g, end, ctl[_VALUE], *args)
            if nrare > before:
                grare[before] = ctl[_VALUE]
            end += reason == DONE
        if reason != DONE:
            return (end if reason == OVERFLOW else end + 1), nrare, reason
        n = end
    return stop, nrare, DONE
