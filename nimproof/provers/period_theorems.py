"""Periodicity theorems: when a finite check of ``g(n + p) = g(n) + s`` proves it for all n.

Each function below names one theorem, says exactly when it applies and how
far the relation must be checked; the statements and proofs are in
``docs/periodicity.md``. :func:`theorem_for` picks the theorem for a game.

* :func:`golomb_window` - finite subtraction sets (Golomb 1966): the relation
  on ``n0 <= n < n0 + max S`` (saltus 0).
* :func:`guy_smith_window` - octal games, at most two-way splits, no split
  without removal (Guy–Smith 1956; Winning Ways ch. 4): ``2 n0 + p + t``, or
  CGSuite's safer ``2 n0 + 2 p + t + 2`` (saltus 0).
* :func:`splitting_window` - take-and-break codes whose moves may split a heap
  without taking tokens (``4.x``) or into three heaps (hexadecimal digits
  8..f): the Guy–Smith argument with ``k``-way splits needs the relation on
  ``n0 <= n < k (n0 + p + 1) + t`` (saltus 0).
* :func:`all_but_window` - all-but subtraction games ``S = N \\ E`` (Nim is
  ``E`` empty): the relation on ``n0 <= n < n0 + 2t`` (``t = max E``) together
  with ``u(n0 + 2t + p) = u(n0 + 2t) + s``, where ``u(n)`` is the least value
  not taken by a heap below ``n``. A. Siegel proved that these games are
  ultimately arithmetic-periodic; this window is the lemma in the docs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatch

import numpy as np

from nimproof.games.base import (
    FiniteTakes,
    HeapGame,
    IntervalTakes,
    MoveDescription,
    SetTakes,
    TakeAndBreak,
)

#: A side condition on the table (beyond the relation on the window): None when it holds,
#: else a sentence saying what failed. ``table`` covers at least ``Theorem.needs`` values.
SideCondition = Callable[[np.ndarray], "str | None"]


@dataclass(frozen=True)
class Theorem:
    """A theorem that turns ``g(n + p) = g(n) + s`` on ``n0 <= n < end`` into all ``n >= n0``.

    ``side`` (when set) is a further condition on the table; ``needs`` is
    the number of table values (heaps ``0 .. needs - 1``) that the check reads.
    """

    name: str
    end: int
    needs: int
    side: SideCondition | None = None

    def describe(self, p: int, n0: int, s: int) -> str:
        """One sentence: the theorem and the window it needed."""
        plus = f" + {s}" if s else ""
        return f"{self.name}: checked g(n+{p}) = g(n){plus} for {n0} <= n < {self.end}"


def golomb_window(spec: FiniteTakes, p: int, n0: int, s: int) -> Theorem | None:
    """Finite subtraction set, ``k = max S``: each value depends on the previous ``k`` only."""
    if s != 0:
        return None
    k = max(spec.takes)
    end = n0 + k
    return Theorem(f"finite subtraction window (Golomb), max S = {k}", end, end + p)


def guy_smith_window(
    spec: TakeAndBreak, p: int, n0: int, s: int, margin: str = "cgsuite"
) -> Theorem | None:
    """Octal game with two-way splits at most and ``d0 = 0`` (the classical theorem)."""
    if s != 0 or spec.digits[0] != 0 or any(d >= 8 for d in spec.digits):
        return None
    t = spec.last_index
    if margin == "guy-smith":
        end = 2 * n0 + p + t
        name = f"Guy–Smith theorem, octal last digit index t = {t}, window 2n0 + p + t"
    else:
        end = 2 * n0 + 2 * p + t + 2
        name = f"Guy–Smith theorem, octal last digit index t = {t}, CGSuite's safer window 2n0 + 2p + t + 2"
    return Theorem(name, end, end + p)


def splitting_window(spec: TakeAndBreak, p: int, n0: int, s: int) -> Theorem | None:
    """Take-and-break code with a split-only digit ``d0`` or three-way splits (hex digits)."""
    if s != 0:
        return None
    if spec.digits[0] == 0 and all(d < 8 for d in spec.digits):
        return None  # the classical theorem applies
    k = 3 if any(d & 8 for d in spec.digits) else 2
    t = spec.last_index
    end = k * (n0 + p + 1) + t
    code = (
        "".join(f"{d:x}" for d in spec.digits[:1])
        + "."
        + "".join(f"{d:x}" for d in spec.digits[1 : t + 1])
    )
    name = (
        f"periodicity theorem for {k}-way splits (Guy–Smith argument), code {code}, "
        f"last digit index t = {t}, window {k}(n0 + p + 1) + t"
    )
    return Theorem(name, end, end + p)


def least_unused(table: np.ndarray, n: int) -> int:
    """``u(n)``: the least value that no heap below ``n`` has."""
    if n <= 0:
        return 0
    seen = set(int(x) for x in table[:n])
    u = 0
    while u in seen:
        u += 1
    return u


def all_but_window(excluded: tuple[int, ...], p: int, n0: int, s: int) -> Theorem:
    """All-but subtraction game ``S = N \\ E`` (``E`` finite, possibly empty: Nim)."""
    t = max(excluded, default=0)
    n1 = n0 + 2 * t
    what = "{" + ", ".join(map(str, excluded)) + "}" if excluded else "the empty set (Nim)"

    def side(table: np.ndarray) -> str | None:
        a, b = least_unused(table, n1 + p), least_unused(table, n1)
        if a != b + s:
            return f"u({n1 + p}) = {a} but u({n1}) + {s} = {b + s}"
        return None

    name = (
        f"all-but window lemma (excluded set {what}, t = {t}): the relation on n0 <= n < n0 + 2t "
        f"and u(n0 + 2t + p) = u(n0 + 2t) + s"
    )
    return Theorem(name, n1, n1 + p + 1, side)


def theorem_for(game: HeapGame, p: int, n0: int, s: int, margin: str = "cgsuite") -> Theorem | None:
    """The theorem that applies to ``game`` and this relation, or None.

    Decided from the game's move description; only normal play is passed here.
    """
    if p < 1 or n0 < 0:
        return None
    return _theorem(game.moves_spec, p, n0, s, margin)


@singledispatch
def _theorem(spec: MoveDescription, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    """The window theorem of this kind of description (None: no theorem here covers it)."""
    return None


@_theorem.register
def _(spec: FiniteTakes, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return golomb_window(spec, p, n0, s)


@_theorem.register
def _(spec: IntervalTakes, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return all_but_window((), p, n0, s) if spec.any_number else None  # Nim: nothing excluded


@_theorem.register
def _(spec: SetTakes, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return all_but_window(tuple(spec.excluded), p, n0, s) if spec.kind == "all-but" else None


@_theorem.register
def _(spec: TakeAndBreak, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return guy_smith_window(spec, p, n0, s, margin) or splitting_window(spec, p, n0, s)


def has_theorem(game: HeapGame) -> bool:
    """True when some theorem here can prove a periodicity of ``game`` (for some relation)."""
    return _has(game.moves_spec)


@singledispatch
def _has(spec: MoveDescription) -> bool:
    return False


@_has.register
def _(spec: FiniteTakes | TakeAndBreak) -> bool:
    return True


@_has.register
def _(spec: IntervalTakes) -> bool:
    return spec.any_number


@_has.register
def _(spec: SetTakes) -> bool:
    return spec.kind == "all-but"


def find_periodicity(
    values: Sequence[int] | np.ndarray, max_period: int | None = 4096, min_periods: int = 2
) -> tuple[int, int, int] | None:
    """The least ``(period, preperiod, saltus)`` seen in ``values`` (fewest stored values first).

    A guess only: the relation must hold from the preperiod to the end of
    ``values``, which must hold at least ``min_periods + 1`` full periods from
    the preperiod on (the relation checked over ``min_periods`` of them), with
    a period of at most ``max_period`` (None: any). The caller proves it.
    """
    values = np.asarray(values, dtype=np.int64)
    size = len(values)
    longest = size // (min_periods + 1)
    best: tuple[tuple[int, int], tuple[int, int, int]] | None = None
    for p in range(1, (longest if max_period is None else min(max_period, longest)) + 1):
        if best is not None and p >= best[0][0]:
            break
        d = values[p:] - values[:-p]
        s = int(d[-1])
        bad = np.flatnonzero(d != s)
        pre = int(bad[-1]) + 1 if bad.size else 0
        if size - pre < (min_periods + 1) * p:
            continue
        key = (pre + p, p)
        if best is None or key < best[0]:
            best = (key, (p, pre, s))
    return best[1] if best else None
