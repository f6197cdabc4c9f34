"""Re-check a periodicity certificate part: recompute the window's values and the theorem's hypotheses.

The part names the relation ``g(n + p) = g(n) + s`` for ``n >= n0`` and a
theorem; the window each theorem needs is derived here from its statement
(docs/periodicity.md), never read from the certificate:

* ``golomb``: a finite subtraction set with largest member ``k``, ``s = 0``:
  the relation on ``n0 <= n < n0 + k``.
* ``guy-smith``: a take-and-break code with digits below 8 and ``d0 = 0``, last
  non-zero digit at index ``t``, ``s = 0``: the relation on
  ``n0 <= n < 2 n0 + p + t``; ``guy-smith-cgsuite`` asks for the larger
  ``2 n0 + 2 p + t + 2``.
* ``splitting``: any other take-and-break code (``k = 3`` when a digit has bit 8,
  else 2), ``s = 0``: the relation on ``n0 <= n < k (n0 + p + 1) + t``.
* ``all-but``: take any number except a finite set ``E`` (``t = max E``; Nim
  is ``E`` empty): the relation on ``n0 <= n < n0 + 2t`` and
  ``u(n0 + 2t + p) = u(n0 + 2t) + s``, ``u(n)`` the least value no heap below
  ``n`` has.

With ``least`` the part also claims that ``p`` and ``n0`` are the least period
and preperiod: no proper divisor ``d`` of ``p`` (with ``s d / p`` whole) holds
for one full period from ``n0``, and the relation fails at ``n0 - 1``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from nimproof_check.games import CannotCheck, Rejected, check_rule, heap_values

MAX_VALUES = 5_000_000


def values_digest(values: list[int]) -> str:
    """The sha256 of the values written as decimal numbers joined by commas."""
    return hashlib.sha256(",".join(map(str, values)).encode()).hexdigest()


def window(theorem: str, rule: dict[str, Any], p: int, n0: int, s: int) -> tuple[int, int | None]:
    """``(end, u_at)``: the relation must hold for ``n0 <= n < end``; ``u_at`` (all-but only)
    is where ``u(u_at + p) = u(u_at) + s`` must hold. CannotCheck when the hypotheses fail."""
    name = rule["rule"]
    if theorem == "golomb":
        if name != "takes" or s != 0:
            raise CannotCheck("Golomb's window needs a finite subtraction set and saltus 0")
        return n0 + max(rule["takes"]), None
    if theorem == "all-but":
        if name == "interval" and rule["p"] == rule["q"]:
            t = 0
        elif name == "all-but":
            t = max(rule["excluded"], default=0)
        else:
            raise CannotCheck("the all-but lemma needs an all-but subtraction set (or Nim)")
        return n0 + 2 * t, n0 + 2 * t
    if name != "code" or s != 0:
        raise CannotCheck(f"theorem {theorem} needs a take-and-break code and saltus 0")
    digits = rule["digits"]
    t = max(i for i, d in enumerate(digits) if d)
    classical = digits[0] == 0 and all(d < 8 for d in digits)
    if theorem in ("guy-smith", "guy-smith-cgsuite"):
        if not classical:
            raise CannotCheck("the Guy–Smith theorem needs digits below 8 and d0 = 0")
        return (2 * n0 + p + t if theorem == "guy-smith" else 2 * n0 + 2 * p + t + 2), None
    if theorem == "splitting":
        k = 3 if any(d & 8 for d in digits) else 2
        return k * (n0 + p + 1) + t, None
    raise CannotCheck(f"a theorem this checker does not know: {theorem!r}")


def least_unused(values: list[int], n: int) -> int:
    """``u(n)``: the least value that no heap below ``n`` has."""
    seen = set(values[:n])
    u = 0
    while u in seen:
        u += 1
    return u


def check_part(part: dict[str, Any], game: Any) -> list[str]:
    """Re-check one ``periodicity`` part. Raises Rejected / CannotCheck."""
    if not isinstance(game, dict) or game.get("kind") != "heap" or game.get("misere"):
        raise CannotCheck("periodicity parts need a one-heap game under normal play")
    rule = check_rule(game.get("rule"))
    try:
        p, n0, s = int(part["period"]), int(part["preperiod"]), int(part.get("saltus", 0))
    except (KeyError, TypeError, ValueError):
        raise Rejected("the part must state period, preperiod and saltus") from None
    if p < 1 or n0 < 0:
        raise Rejected("period must be positive and preperiod non-negative")
    end, u_at = window(str(part.get("theorem")), rule, p, n0, s)
    count = max(end + p, (u_at or 0) + p + 1, n0 + 2 * p)
    if count > MAX_VALUES:
        raise CannotCheck(f"the window needs {count} values; this checker stops at {MAX_VALUES}")
    g = heap_values(rule, count)
    for n in range(n0, end):
        if g[n + p] != g[n] + s:
            raise Rejected(
                f"g({n + p}) = {g[n + p]} but g({n}) + {s} = {g[n] + s}: the relation fails in the window"
            )
    if u_at is not None and least_unused(g, u_at + p) != least_unused(g, u_at) + s:
        raise Rejected(f"the all-but lemma's condition u({u_at + p}) = u({u_at}) + {s} fails")
    stated = part.get("values_sha256")
    n_stated = part.get("values_count")
    if not isinstance(n_stated, int) or not 0 < n_stated <= len(g):
        raise Rejected(f"values_count {n_stated!r} is not a count of recomputed values")
    if values_digest(g[:n_stated]) != stated:
        raise Rejected(f"the hash of g(0..{n_stated - 1}) differs from the recomputed values")
    done = [
        f"{part['theorem']}: g(n+{p}) = g(n){' + ' + str(s) if s else ''} for {n0} <= n < {end} "
        f"(window derived by the checker; {count} values by plain mex)",
        f"values hash over g(0..{n_stated - 1}) matches",
    ]
    if part.get("least"):
        done.append(_least(g, p, n0, s))
    return done


def _least(g: list[int], p: int, n0: int, s: int) -> str:
    for d in range(1, p):
        if p % d or (s * d) % p:
            continue
        if all(g[n + d] == g[n] + s * d // p for n in range(n0, n0 + p)):
            raise Rejected(f"period {p} is not the least: {d} holds from {n0}")
    if n0 > 0 and g[n0 - 1 + p] == g[n0 - 1] + s:
        raise Rejected(f"preperiod {n0} is not the least: the relation holds at {n0 - 1}")
    return f"period {p} and preperiod {n0} are the least"
