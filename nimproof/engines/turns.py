"""Threads that take turns: atomic counters, spin-waits, and heaps taken in turn.

The intrinsics (:func:`load`, :func:`add`, :func:`store`, :func:`pause`,
:func:`yield_core`, :func:`cycles`) serve the kernels whose threads share one numba
parallel region (:mod:`.block_pipeline`, :mod:`.lockstep`): a thread waits for a counter
read with acquire ordering that its producers move on with release ordering, so every
value a thread reads after the wait was written before it.

The rest is the turn-taking of :mod:`.lockstep`'s workers (``lock = (ctl, reach,
clock)``, see :func:`take` and :func:`commit`): heaps are handed out by a ticket counter
and committed in order.
"""

from __future__ import annotations

import platform
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: Spins (with a pause) before a waiting thread gives up its core for a moment.
SPINS = 64
#: A worker leaves the stretch (the others take its tasks; one always stays) when, in a
#: window of RETIRE[0] cycles, it has spent more than the share RETIRE[1] of them waiting: on
#: a machine with no free core a waiting thread mostly waits for another one the system has
#: set aside (70 to 90% of its time measured), with a free core 5 to 7%.
RETIRE = (1 << 25, 0.5)


_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def _pointer(context: Any, builder: Any, sig: Any, args: Any) -> Any:
    array = context.make_array(sig.args[0])(context, builder, args[0])
    return cgutils.get_item_pointer(context, builder, sig.args[0], array, [args[1]])


def _load_typer(typingctx: Any, arr: Any, idx: Any) -> Any:
    """``arr[idx]`` read with acquire ordering (``arr``: int64)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.load_atomic(_pointer(context, builder, sig, args), "acquire", 8)

    return types.int64(arr, idx), codegen


load: Any = intrinsic(_load_typer)


def _add_typer(typingctx: Any, arr: Any, idx: Any, value: Any) -> Any:
    """``arr[idx] += value`` at once, with release and acquire ordering; returns the old value."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        return builder.atomic_rmw("add", _pointer(context, builder, sig, args), v, "acq_rel")

    return types.int64(arr, idx, value), codegen


add: Any = intrinsic(_add_typer)


def _store_typer(typingctx: Any, arr: Any, idx: Any, value: Any) -> Any:
    """``arr[idx] = value`` with release ordering."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        v = context.cast(builder, args[2], sig.args[2], types.int64)
        builder.store_atomic(v, _pointer(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()

    return types.void(arr, idx, value), codegen


store: Any = intrinsic(_store_typer)


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
pause: Any = _nullary("llvm.x86.sse2.pause" if _X86 else "", "void", "void")
#: ``sched_yield()``: let another runnable thread have this core.
yield_core: Any = _nullary("sched_yield", "void", "i32")
#: The processor's cycle counter (0 where it has none).
cycles: Any = _nullary("llvm.readcyclecounter", "int64", "i64")


# Control slots of the turn-taking (each on its own cache line: 8 int64 apart).
TICKET, COMMITTED, STOP, VALUE, ACTIVE, RETIRE_AFTER, RETIRE_PERMILLE = (8 * i for i in range(7))
#: Length of the control array.
SLOTS = 8 * 7
#: ``ctl[STOP]`` while no heap has ended the stretch.
NEVER = 1 << 62


@njit(cache=True)
def wait_committed(lock: tuple[np.ndarray, int, np.ndarray], count: int, m: int) -> bool:
    """Wait until ``ctl[COMMITTED] >= count``; False when the stretch ended at a heap below
    ``m`` (heap ``m`` no longer counts). The cycles waited are added to ``clock[1]``."""
    ctl, _, clock = lock
    if load(ctl, COMMITTED) >= count:
        return True
    t0 = cycles()
    spins = 0
    while load(ctl, COMMITTED) < count:
        if load(ctl, STOP) < m:
            return False
        pause()
        spins += 1
        if spins == SPINS:
            yield_core()
            spins = 0
    clock[1] += cycles() - t0
    return True


@njit(cache=True)
def take(lock: tuple[np.ndarray, int, np.ndarray], start: int, stop: int) -> int:
    """The next heap ``m`` of the stretch ``start .. stop - 1`` for this worker, once every
    heap ``<= m - reach`` is committed; -1 when none is left for it (the stretch is over,
    ended before ``m``, or this worker leaves it: see :data:`RETIRE`)."""
    ctl, reach, clock = lock
    spent = cycles() - clock[0]
    if spent > ctl[RETIRE_AFTER]:  # the end of a window
        if 1000 * clock[1] > ctl[RETIRE_PERMILLE] * spent:
            if add(ctl, ACTIVE, -1) > 1:
                return -1
            add(ctl, ACTIVE, 1)
        clock[0], clock[1] = cycles(), 0
    m = start + add(ctl, TICKET, 1)
    if m >= stop or load(ctl, STOP) < m or not wait_committed(lock, m - reach + 1, m):
        return -1
    return m


@njit(cache=True)
def commit(
    lock: tuple[np.ndarray, int, np.ndarray], g: np.ndarray, m: int, value: int, act: bool
) -> bool:
    """Commit heap ``m`` once heap ``m - 1`` is: write ``g[m] = value`` and move the commit
    counter on (release), or, when ``act`` (recording the value makes the engine act), end
    the stretch there with ``ctl[VALUE] = value`` and nothing written. False when this
    worker stops (the stretch ended at or before ``m``)."""
    ctl = lock[0]
    if not wait_committed(lock, m, m):
        return False
    if act:
        ctl[VALUE] = value
        store(ctl, STOP, m)
        return False
    g[m] = value
    store(ctl, COMMITTED, m + 1)
    return True
