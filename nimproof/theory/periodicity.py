"""The periodicity theorems: when a finite check of ``g(n + p) = g(n) + s`` proves it for all n.

This module is the one home of the project's periodicity knowledge. Engines,
provers, the atlas, the API and the command line all ask it, so every entry
point proves the same periods. It reads tables and move descriptions only; it
imports nothing from the engines, provers or command line. Statements and
proofs are in ``docs/periodicity.md``.

A *relation* ``(p, n0, s)`` says ``g(n + p) = g(n) + s`` for every ``n >= n0``
(period ``p``, preperiod ``n0``, saltus ``s``; ``s = 0`` is plain periodicity,
``s != 0`` arithmetic periodicity). Each window function below names one
theorem, says exactly when it applies (its hypotheses) and how far the
relation must be checked:

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
  not taken by a heap below ``n`` (any saltus). A. Siegel proved that these
  games are ultimately arithmetic-periodic; this window is the lemma in the docs.

:func:`theorem_for` picks the theorem for a game's move description;
:func:`check` checks a value sequence against a theorem and returns what was
established (:class:`Established`) or why not (:class:`Unproved`);
:func:`prove` does both. :func:`find_periodicity` finds the relation with the
fewest stored values in a table (a guess, until proved) and
:func:`least_period` the least period and preperiod of a relation that holds;
:func:`value_at` and :func:`extend` give the values a proved relation implies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import NamedTuple

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

#: Which statement of the Guy–Smith window: CGSuite's safer one (default) or the theorem's own.
MARGINS = ("cgsuite", "guy-smith")


class Relation(NamedTuple):
    """``g(n + period) = g(n) + saltus`` for every ``n >= preperiod`` (compares equal to a tuple)."""

    period: int
    preperiod: int
    saltus: int


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


@dataclass(frozen=True)
class Established:
    """What a theorem proved from a table: ``relation`` for every ``n >= preperiod``.

    ``theorem`` names the theorem and its window, ``window_end`` is the end
    (exclusive) of the heaps ``n`` on which the relation was checked, and
    ``bound`` the last heap of the table the check read.
    """

    relation: Relation
    theorem: str
    window_end: int
    bound: int

    @property
    def period(self) -> int:
        """The period ``p``."""
        return self.relation.period

    @property
    def preperiod(self) -> int:
        """The preperiod ``n0``."""
        return self.relation.preperiod

    @property
    def saltus(self) -> int:
        """The saltus ``s``."""
        return self.relation.saltus

    def describe(self) -> str:
        """One sentence: the theorem and the window it needed."""
        p, n0, s = self.relation
        plus = f" + {s}" if s else ""
        return f"{self.theorem}: checked g(n+{p}) = g(n){plus} for {n0} <= n < {self.window_end}"


@dataclass(frozen=True)
class Unproved:
    """Why a relation was not proved: ``reason`` in words.

    ``theorem`` is the theorem that applies (None: no theorem covers the game
    and relation); ``breaks_at`` is the first heap ``n`` of its window where
    ``g(n + p) != g(n) + s`` (None when the relation holds on what was read).
    """

    reason: str
    theorem: Theorem | None = None
    breaks_at: int | None = None


def golomb_window(largest_take: int, p: int, n0: int, s: int) -> Theorem | None:
    """Finite subtraction set with ``k = max S``: each value depends on the previous ``k`` only.

    Hypotheses: saltus 0 (a finite move set gives bounded values).
    """
    if s != 0:
        return None
    k = largest_take
    end = n0 + k
    return Theorem(f"finite subtraction window (Golomb), max S = {k}", end, end + p)


def is_octal(digits: Sequence[int]) -> bool:
    """True for the classical theorem's codes: ``d0 = 0`` and every digit below 8."""
    return digits[0] == 0 and all(d < 8 for d in digits)


def last_index(digits: Sequence[int]) -> int:
    """Index of the last non-zero digit of a take-and-break code."""
    return max(k for k, d in enumerate(digits) if d)


def guy_smith_window(
    digits: Sequence[int], p: int, n0: int, s: int, margin: str = "cgsuite"
) -> Theorem | None:
    """Octal game with two-way splits at most and ``d0 = 0`` (the classical theorem).

    Hypotheses: saltus 0, an octal code (:func:`is_octal`). ``margin`` is
    ``"cgsuite"`` (the safer window, default) or ``"guy-smith"``.
    """
    if s != 0 or not is_octal(digits):
        return None
    t = last_index(digits)
    if margin == "guy-smith":
        end = 2 * n0 + p + t
        name = f"Guy–Smith theorem, octal last digit index t = {t}, window 2n0 + p + t"
    else:
        end = 2 * n0 + 2 * p + t + 2
        name = f"Guy–Smith theorem, octal last digit index t = {t}, CGSuite's safer window 2n0 + 2p + t + 2"
    return Theorem(name, end, end + p)


def splitting_window(digits: Sequence[int], p: int, n0: int, s: int) -> Theorem | None:
    """Take-and-break code with a split-only digit ``d0`` or three-way splits (hex digits).

    Hypotheses: saltus 0, a code that is not octal (octal codes take
    :func:`guy_smith_window`).
    """
    if s != 0 or is_octal(digits):
        return None
    k = 3 if any(d & 8 for d in digits) else 2
    t = last_index(digits)
    end = k * (n0 + p + 1) + t
    code = f"{digits[0]:x}." + "".join(f"{d:x}" for d in digits[1 : t + 1])
    name = (
        f"periodicity theorem for {k}-way splits (Guy–Smith argument), code {code}, "
        f"last digit index t = {t}, window {k}(n0 + p + 1) + t"
    )
    return Theorem(name, end, end + p)


def least_unused(table: np.ndarray | Sequence[int], n: int) -> int:
    """``u(n)``: the least value that no heap below ``n`` has."""
    if n <= 0:
        return 0
    seen = np.unique(np.asarray(table[:n], dtype=np.int64))
    gaps = np.flatnonzero(seen != np.arange(len(seen)))
    return int(gaps[0]) if gaps.size else len(seen)


def all_but_window(excluded: Sequence[int], p: int, n0: int, s: int) -> Theorem:
    """All-but subtraction game ``S = N \\ E`` (``E`` finite, possibly empty: Nim); any saltus."""
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
    return golomb_window(max(spec.takes), p, n0, s)


@_theorem.register
def _(spec: IntervalTakes, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return all_but_window((), p, n0, s) if spec.any_number else None  # Nim: nothing excluded


@_theorem.register
def _(spec: SetTakes, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return all_but_window(tuple(spec.excluded), p, n0, s) if spec.kind == "all-but" else None


@_theorem.register
def _(spec: TakeAndBreak, p: int, n0: int, s: int, margin: str) -> Theorem | None:
    return guy_smith_window(spec.digits, p, n0, s, margin) or splitting_window(
        spec.digits, p, n0, s
    )


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


def first_break(
    values: np.ndarray | Sequence[int], p: int, s: int, start: int, stop: int
) -> int | None:
    """The first ``n`` in ``start <= n < stop`` with ``g(n + p) != g(n) + s``, else None.

    ``values`` must hold heaps up to ``stop - 1 + p``.
    """
    if stop <= start:
        return None
    arr = np.asarray(values[start : stop + p])
    if s:  # a saltus needs signed arithmetic; without one, compare in the table's own type
        arr = arr.astype(np.int64)
    bad = np.flatnonzero(arr[p:] != arr[: len(arr) - p] + s)
    return start + int(bad[0]) if bad.size else None


def check(
    theorem: Theorem, values: np.ndarray | Sequence[int], p: int, n0: int, s: int
) -> Established | Unproved:
    """Check ``values`` (``g(0), g(1), ...``) against ``theorem`` for the relation ``(p, n0, s)``.

    Established (the relation for every ``n >= n0``) only when ``values``
    holds every value the theorem reads, the relation holds on its whole
    window and its side condition (if any) holds; otherwise Unproved says
    which of these failed (``breaks_at``: the first heap of the window where
    the relation fails).
    """
    if len(values) < theorem.needs:
        return Unproved(
            f"{theorem.name}: the window needs {theorem.needs} values, the table has {len(values)}",
            theorem,
        )
    n = first_break(values, p, s, n0, theorem.end)
    if n is not None:
        plus = f" + {s}" if s else ""
        return Unproved(
            f"{theorem.name}: g({n + p}) != g({n}){plus} inside the window", theorem, breaks_at=n
        )
    side = theorem.side(np.asarray(values[: theorem.needs])) if theorem.side is not None else None
    if side is not None:
        return Unproved(f"{theorem.name}: the side condition fails ({side})", theorem)
    return Established(Relation(p, n0, s), theorem.name, theorem.end, theorem.needs - 1)


def prove(
    game: HeapGame,
    values: np.ndarray | Sequence[int],
    p: int,
    n0: int,
    s: int,
    margin: str = "cgsuite",
) -> Established | Unproved:
    """The relation ``(p, n0, s)`` proved for every heap of ``game`` from ``values``, or why not.

    ``game`` is a normal-play heap game and ``values`` its table from heap 0
    (the caller vouches for the values).
    """
    theorem = theorem_for(game, p, n0, s, margin)
    if theorem is None:
        plus = f" with saltus {s}" if s else ""
        return Unproved(f"no periodicity theorem applies to {game.spec}{plus}")
    return check(theorem, values, p, n0, s)


def find_periodicity(
    values: Sequence[int] | np.ndarray,
    max_period: int | None = 4096,
    min_periods: int = 2,
    *,
    min_repetitions: float | None = None,
    min_relations: int = 0,
    saltus: bool = True,
) -> Relation | None:
    """The least ``(period, preperiod, saltus)`` seen in ``values`` (fewest stored values first).

    A guess only: the relation must hold from the preperiod to the end of
    ``values``, which must hold at least ``min_periods + 1`` full periods from
    the preperiod on (the relation checked over ``min_periods`` of them), or
    ``min_repetitions`` periods when that is given, and at least
    ``min_relations`` instances of the relation, with a period of at most
    ``max_period`` (None: any); ``saltus = False`` looks for plain periods
    only. Ties in ``n0 + p`` go to the shorter period. The caller proves it.
    """
    values = np.asarray(values, dtype=np.int64)
    size = len(values)
    repetitions = min_periods + 1 if min_repetitions is None else min_repetitions
    longest = int(size // repetitions)
    best: tuple[tuple[int, int], Relation] | None = None
    for p in range(1, (longest if max_period is None else min(max_period, longest)) + 1):
        if best is not None and p >= best[0][0]:
            break  # n0 + p can no longer beat the best
        d = values[p:] - values[:-p]
        s = int(d[-1])
        if s and not saltus:
            continue
        bad = np.flatnonzero(d != s)
        pre = int(bad[-1]) + 1 if bad.size else 0
        if size - pre < repetitions * p or size - pre - p < min_relations:
            continue
        key = (pre + p, p)
        if best is None or key < best[0]:
            best = (key, Relation(p, pre, s))
    return best[1] if best else None


def least_period(table: np.ndarray | Sequence[int], p: int, n0: int, s: int) -> tuple[int, int]:
    """The least period and its least preperiod, given that ``(p, n0, s)`` holds on ``table``.

    An eventual period with saltus divides into the least one: a divisor ``d``
    of ``p`` (with ``s d / p`` whole) that holds for one full period from
    ``n0`` holds for every ``n >= n0``, because both sides advance by ``s``
    every ``p`` steps. Its least preperiod is found by extending it downwards
    from ``n0`` while it still holds.
    """
    best = p
    for d in range(1, p):
        if p % d or (s * d) % p:
            continue
        sd = s * d // p
        if all(int(table[n + d]) == int(table[n]) + sd for n in range(n0, n0 + p)):
            best = d
            break
    sd = s * best // p
    n1 = n0
    while n1 > 0 and int(table[n1 - 1 + best]) == int(table[n1 - 1]) + sd:
        n1 -= 1
    return best, n1


def value_at(base: Sequence[int], relation: Relation, n: int) -> int:
    """``g(n)`` for any ``n``, from the values ``base`` (heaps ``0 .. len(base) - 1``, at least
    ``preperiod + period``) and a relation proved for every ``n >= preperiod``."""
    if n < len(base):
        return int(base[n])
    p, n0, s = relation
    q, r = divmod(n - n0, p)
    return int(base[n0 + r]) + q * s


def extend(base: Sequence[int] | np.ndarray, relation: Relation, count: int) -> np.ndarray:
    """``g(0 .. count - 1)`` as an array: :func:`value_at` for every heap below ``count``."""
    known_values = np.asarray(base, dtype=np.int64)
    out = np.empty(count, dtype=np.int64)
    known = min(count, len(known_values))
    out[:known] = known_values[:known]
    if count > known:
        p, n0, s = relation
        q, r = np.divmod(np.arange(known, count, dtype=np.int64) - n0, p)
        out[known:] = known_values[n0 + r] + q * s
    return out
