"""A hard time limit per claim: each claim is decided in a child process ended at its deadline.

:func:`decide` forks a child that runs :func:`nimproof.provers.verify_claim`
and streams every method's settled result back through a pipe as soon as it
exists. The parent waits until the claim's ``timeout`` (plus a small grace for
the cooperative deadline inside the child to answer first), then kills the
child. The verdict is combined from whatever arrived: a confirmed
counterexample found before the deadline still refutes, a proof of some scope
still counts, a candidate still blocks ``proved``, and the method that was cut
off is ``unknown`` ("time limit reached"). One pathological claim therefore
costs at most its timeout, and the other claims of a run are unaffected.

Where ``os.fork`` does not exist the claim runs in-process with the
cooperative deadline only.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import time
import traceback
from collections.abc import Iterator
from typing import Any

from nimproof.claims.model import Claim
from nimproof.provers import verify_claim
from nimproof.verdict import MethodResult, Verdict

#: Seconds past the timeout the child gets to finish on its own (its cooperative
#: deadline fires at the timeout itself).
GRACE = 1.5
_HEADER = struct.Struct(">I")


def decide(claim: Claim, timeout: float, *, grace: float = GRACE) -> Verdict:
    """The verdict on ``claim``, guaranteed to return within about ``timeout + grace`` seconds."""
    if not hasattr(os, "fork"):
        return verify_claim(claim, timeout=timeout)
    t0 = time.monotonic()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: decide, stream, and leave without running the parent's exit code
        os.close(read_end)
        _child(claim, timeout, write_end)
    os.close(write_end)
    results: list[MethodResult] = []
    verdict: Verdict | None = None
    error = ""
    try:
        for kind, payload in _messages(read_end, t0 + timeout + grace):
            if kind == "result":
                results.append(payload)
            elif kind == "verdict":
                verdict = payload
            else:
                error = str(payload)
    finally:
        os.close(read_end)
        _end(pid)
    if verdict is not None:
        return verdict
    seconds = time.monotonic() - t0
    why = (
        f"the claim's worker failed: {error}"
        if error
        else f"time limit of {timeout:g} s reached; the work in progress was stopped"
    )
    results.append(MethodResult("time-limit", "unknown", detail=why, seconds=seconds))
    return Verdict.combine(
        claim.id, results, claim.expect, seconds, require=claim.require, domain=claim.domain()
    )


def _child(claim: Claim, timeout: float, fd: int) -> None:
    code = 0
    try:
        verdict = verify_claim(claim, timeout=timeout, report=lambda r: _send(fd, ("result", r)))
        _send(fd, ("verdict", verdict))
    except BaseException as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        with contextlib.suppress(OSError):
            _send(fd, ("error", f"{type(exc).__name__}: {exc}{where}"))
        code = 1
    finally:
        os._exit(code)


def _send(fd: int, message: tuple[str, object]) -> None:
    data = pickle.dumps(message)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _messages(fd: int, deadline: float) -> Iterator[tuple[str, Any]]:
    """Yield ``(kind, payload)`` messages from the child until it ends or the deadline passes."""
    buf = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buf += chunk
        while len(buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buf)
            if len(buf) < _HEADER.size + size:
                break
            yield pickle.loads(buf[_HEADER.size : _HEADER.size + size])
            buf = buf[_HEADER.size + size :]


def _end(pid: int) -> None:
    """Kill the child if it is still running, and reap it."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass
