"""Periodic and arithmetic-periodic tables: ``g(n + p) = g(n) + s`` for ``n >= n0``.

The smallest description wins: among all periods ``p`` the one with the
fewest stored values ``n0 + p`` (ties: the shorter period). To keep short
tables from producing false periods, a candidate must be seen at least
:data:`MIN_REPETITIONS` full times with at least :data:`MIN_RELATIONS`
instances of the relation, and it is found on a prefix of the table and must
then predict the held-out rest.

The search is :func:`nimproof.theory.periodicity.find_periodicity`. A found
period becomes a ``periodic`` claim (the verifier proves it for all ``n`` when
a theorem of :mod:`nimproof.theory.periodicity` covers the game). When one period has a short description (``n % 4``,
``2 * (n % 3)``, a small formula in ``n % p``) and the preperiod is at most
a few values, it also becomes a closed ``grundy`` formula (the preperiod
written as exceptions), which is then true exactly when the periodicity is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nimproof.claims.kinds import Periodic as PeriodicKind
from nimproof.miner.formula import (
    heap_formula_values,
    periodic_holds,
    reproduces_heap_table,
    substitute_name,
)
from nimproof.miner.guessers.base import HeapGuesser, note, predicted_guess
from nimproof.miner.model import Evidence, Guess, HeapTable
from nimproof.miner.relations import linear_text
from nimproof.miner.search import ARITH, BITWISE, find_formula
from nimproof.theory.periodicity import find_periodicity

MIN_REPETITIONS = 4.0
MIN_RELATIONS = 16
MAX_PERIOD = 4096
#: Largest preperiod whose values are written out as exceptions in a closed formula.
MAX_EXCEPTIONS = 3


@dataclass(frozen=True, slots=True)
class Periodicity:
    """``g(n + period) = g(n) + saltus`` for every ``n >= preperiod``."""

    period: int
    preperiod: int
    saltus: int


def smallest_periodicity(
    values: np.ndarray,
    *,
    min_repetitions: float = MIN_REPETITIONS,
    min_relations: int = MIN_RELATIONS,
    saltus: bool = True,
) -> Periodicity | None:
    """The periodicity of ``values`` with the fewest stored values, or None.

    The relation must hold from the preperiod to the end of ``values``, cover
    ``min_repetitions`` full periods and ``min_relations`` instances.
    """
    found = find_periodicity(
        values,
        MAX_PERIOD,
        min_repetitions=min_repetitions,
        min_relations=min_relations,
        saltus=saltus,
    )
    return Periodicity(*found) if found else None


def residue_formula(residues: list[int], period: int) -> str | None:
    """A short formula in ``n`` for ``r -> residues[r]`` applied to ``r = n % period``."""
    v = residues
    r = f"n % {period}"
    if len(set(v)) == 1:
        return str(v[0])
    c, d = v[1] - v[0], v[0]
    if all(v[i] == c * i + d for i in range(period)):
        return linear_text(c, r, d)
    found = find_formula(
        {"r": np.arange(period, dtype=np.int64)},
        np.asarray(v, dtype=np.int64),
        constants=tuple(range(min(period, 8) + 1)),
        binary=ARITH + BITWISE,
        max_size=5,
    )
    return substitute_name(found, "r", r) if found is not None else None


def closed_form(values: np.ndarray, per: Periodicity) -> str | None:
    """A closed formula for a periodic table, or None.

    From the preperiod on, ``g(n) = s * (n // p) + e(n % p)`` with ``e`` one
    period written as a short formula; at most :data:`MAX_EXCEPTIONS` values
    of the preperiod that differ are written as exceptions
    (``0 if n == 0 else ...``).
    """
    p, s, pre = per.period, per.saltus, per.preperiod
    if pre > MAX_EXCEPTIONS or pre + p > len(values):
        return None
    e = [0] * p
    for n in range(pre, pre + p):
        e[n % p] = int(values[n]) - s * (n // p)
    c = e[1] - e[0] if p > 1 else s
    if s != 0 and s == c * p and all(e[i] == c * i + e[0] for i in range(p)):
        body = linear_text(c, "n", e[0])
    else:
        rest = residue_formula(e, p)
        if rest is None:
            return None
        if s == 0:
            body = rest
        else:
            steps = f"n // {p}" if p > 1 else "n"
            head = linear_text(s, steps)
            body = head if rest == "0" else f"{head} + {rest}"
    if pre:
        start = heap_formula_values(body, pre - 1, {})
        for n in reversed(range(pre)):
            if start is None or int(start[n]) != int(values[n]):
                body = f"{int(values[n])} if n == {n} else {body}"
    return body


def period_notation(values: np.ndarray, per: Periodicity, limit: int = 120) -> str:
    """The table in the usual notation: the preperiod, then the repeating block after ``|``.

    ``0 0 1 1 2 0 | 3 1 1 0 [period 2]``, or ``[period 3, saltus +1]`` for an
    arithmetic period; long blocks are shortened with ``...``.
    """

    def run(xs: np.ndarray) -> str:
        text = [str(int(x)) for x in xs]
        return " ".join(text if len(text) <= limit else [*text[:limit], "..."])

    pre = run(values[: per.preperiod])
    block = run(values[per.preperiod : per.preperiod + per.period])
    tail = f"period {per.period}" + (f", saltus {per.saltus:+d}" if per.saltus else "")
    return f"{pre + ' | ' if pre else '| '}{block} [{tail}]"


def periodic_cost(values: np.ndarray, per: Periodicity) -> float:
    """Description length of a periodic description: the stored values and the three numbers."""
    stored = values[: per.preperiod + per.period]
    return (
        2.0
        + math.log2(per.period + 1)
        + math.log2(per.preperiod + 1)
        + math.log2(abs(per.saltus) + 1)
        + float(sum(1.0 + math.log2(abs(int(x)) + 1) for x in stored))
    )


def predicted_periodicity(values: np.ndarray, cut: int) -> Periodicity | None:
    """The periodicity found on ``values[:cut]`` when it also holds on the rest, else None."""
    per = smallest_periodicity(values[:cut])
    if per is None or not periodic_holds(values, per.period, per.preperiod, per.saltus):
        return None
    return per


class Periodic(HeapGuesser):
    """Eventual (arithmetic) periodicity of single-heap tables."""

    name = "periodic"

    def guess_heap(self, table: HeapTable, cut: int) -> list[Guess]:
        values = table.values
        size = len(values)
        per = predicted_periodicity(values, cut)
        if per is None:
            return []
        reps = (size - per.preperiod) / per.period
        found_on = f"found on heaps 0..{cut - 1}, then predicted heaps {cut}..{size - 1}"
        plus = f" + {per.saltus}" if per.saltus else ""
        evidence = Evidence(
            fitted=cut,
            held_out=size - cut,
            checked=size,
            repetitions=reps,
            details=(
                f"g(n + {per.period}) = g(n){plus} for n >= {per.preperiod}: {found_on}",
                f"{reps:.1f} full periods after the preperiod",
            ),
        )
        out: list[Guess] = []
        if table.game.misere:
            # Misère nim-values are not additive and the periodicity theorems are about
            # normal play, so the relation is reported, not claimed.
            text = (
                f"{table.spec}: the misère nim-values satisfy g(n + {per.period}) = g(n){plus} "
                f"for n >= {per.preperiod} on heaps 0..{size - 1} (not a claim: the periodicity "
                "theorems are about normal play)"
            )
            out.append(note(self.name, table, text))
        else:
            out.append(
                Guess(
                    kind=PeriodicKind.name,
                    game=table.spec,
                    guesser=self.name,
                    evidence=evidence,
                    cost=periodic_cost(values, per),
                    period=per.period,
                    preperiod=per.preperiod,
                    saltus=per.saltus,
                    statement=(
                        f"In {table.spec}, g(n + {per.period}) = g(n){plus} for every n >= {per.preperiod}"
                        + (
                            f": arithmetic-periodic with saltus {per.saltus}."
                            if per.saltus
                            else "."
                        )
                        + f" Values: {period_notation(values, per)}"
                    ),
                    template="periodic",
                    constants=(per.period, per.preperiod, per.saltus),
                    point=table.key,
                )
            )
        formula = closed_form(values, per)
        if formula is not None and reproduces_heap_table(formula, table):
            closed = "closed form: one period written as a formula in n % " + (
                f"{per.period} plus the saltus" if per.saltus else f"{per.period}"
            )
            details = (*evidence.details, closed)
            out.append(predicted_guess(self.name, table, formula, cut, details, repetitions=reps))
        return out

    def why_not_heap(self, table: HeapTable, cut: int) -> str:
        values = table.values
        per = smallest_periodicity(values[:cut])
        longest = min(MAX_PERIOD, int(cut // MIN_REPETITIONS))
        if per is None:
            return (
                f"no period up to {longest} repeats {MIN_REPETITIONS:g} times on heaps 0..{cut - 1}"
            )
        d = values[per.preperiod + per.period :] - values[per.preperiod : -per.period]
        broken = per.preperiod + per.period + int(np.flatnonzero(d != per.saltus)[0])
        return (
            f"period {per.period} (preperiod {per.preperiod}) on heaps 0..{cut - 1}, "
            f"broken at heap {broken}"
        )
