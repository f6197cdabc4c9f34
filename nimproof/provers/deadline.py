"""Cooperative time limits for one claim.

Every loop that may run long (re-checks, reference computations, position
enumerations) calls :func:`check` with the claim's deadline; past it,
:class:`TimeUp` is raised and :func:`nimproof.provers.verify_claim` turns it
into an ``unknown`` answer for the method that was running. The process
boundary in :mod:`nimproof.provers.isolate` is the backstop for the code that
cannot poll (one long z3 call, one numba kernel, one deep recursion).
"""

from __future__ import annotations

import time

from nimproof.provers.solving import Undecided


class TimeUp(Undecided):
    """The claim's time limit was reached (an ``unknown``, never a crash)."""


def left(deadline: float) -> float:
    """Seconds until ``deadline`` (a ``time.monotonic`` value; 0 means none, i.e. infinite)."""
    return float("inf") if not deadline else deadline - time.monotonic()


def check(deadline: float, doing: str = "") -> None:
    """Raise :class:`TimeUp` when ``deadline`` has passed (0 means no deadline)."""
    if deadline and time.monotonic() >= deadline:
        raise TimeUp(f"time limit reached{' while ' + doing if doing else ''}")


def every(deadline: float, step: int, i: int, doing: str = "") -> None:
    """:func:`check` once every ``step`` iterations of a loop counter ``i`` (cheap to call)."""
    if i % step == 0:
        check(deadline, doing)
