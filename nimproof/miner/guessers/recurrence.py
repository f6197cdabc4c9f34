"""Index recurrences: ``g(a m + r) = alpha g(c m + d) + beta m + e`` for every residue ``r``.

For each base ``a`` in 2, 3, 4 and each residue ``r`` the guesser looks for
the simplest relation (``alpha`` in 0, 1, -1; ``c < a`` or ``d < r`` so that the
right side reads a smaller heap) that holds from some small ``m`` on, found
on a prefix of the table and then true on the held-out rest. A complete set
(one relation per residue, at least one reading ``g`` at a scaled index)
determines the whole table from a few initial values, so it is written as a
recursive definition the verifier can check: a Grundy formula that reads
earlier values as ``g[i]`` (take-a-third: ``g(3m) = m``, ``g(3m+1) = g(2m)``,
``g(3m+2) = g(2m+1)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nimproof.miner.formula import (
    formula_cost,
    periodic_holds,
    reproduces_heap_table,
    template,
)
from nimproof.miner.guessers.base import Guesser
from nimproof.miner.guessers.periodic import smallest_periodicity
from nimproof.miner.model import Evidence, Guess, HeapTable, Table

BASES = (2, 3, 4)
MAX_START = 4
MIN_INSTANCES = 12
HOLD_OUT = 0.25


@dataclass(frozen=True, slots=True)
class IndexRelation:
    """``g(a m + r) = alpha g(c m + d) + beta m + e`` for every ``m >= start``."""

    a: int
    r: int
    alpha: int
    c: int
    d: int
    beta: int
    e: int
    start: int

    @property
    def cost(self) -> int:
        """Simplicity order: fewer and smaller coefficients first."""
        return abs(self.alpha) + abs(self.beta) + abs(self.e) + abs(self.d) + (self.c != 1)

    def describe(self) -> str:
        """``g(3m+1) = g(2m)`` in the usual notation."""
        left = f"g({self.a}m{'+' + str(self.r) if self.r else ''})"
        terms: list[str] = []
        if self.alpha:
            inner = _lin(self.c, "m", self.d).replace(" * m", "m").replace(" ", "")
            terms.append(("-" if self.alpha < 0 else "") + f"g({inner})")
        if self.beta:
            terms.append(_lin(self.beta, "m", 0).replace(" * m", "m"))
        if self.e or not terms:
            terms.append(str(self.e))
        right = " + ".join(terms).replace("+ -", "- ")
        when = f" for m >= {self.start}" if self.start else ""
        return f"{left} = {right}{when}"

    def expression(self) -> str:
        """The right side as a formula in ``n`` (``m`` is ``n // a``)."""
        m = f"(n // {self.a})"
        parts: list[str] = []
        if self.alpha:
            ref = f"g[{_lin(self.c, m, self.d)}]"
            parts.append(ref if self.alpha > 0 else f"- {ref}")
        if self.beta:
            parts.append(_lin(self.beta, m, 0))
        if self.e or not parts:
            parts.append(str(self.e))
        text = " + ".join(parts).replace("+ -", "-")
        return text[2:] if text.startswith("- ") and len(parts) == 1 else text


def _lin(c: int, x: str, d: int) -> str:
    head = x if c == 1 else f"-{x}" if c == -1 else f"{c} * {x}"
    if d == 0:
        return head
    return f"{head} + {d}" if d > 0 else f"{head} - {-d}"


def _candidates(a: int, r: int) -> list[tuple[int, int, int, int]]:
    """(alpha, c, d, beta) in simplicity order; ``c m + d`` must be below ``a m + r``."""
    out = [(0, 0, 0, b) for b in range(-a, a + 1)]
    for alpha in (1, -1):
        for c in range(1, a + 1):
            for d in range(-a, a + 1):
                if c == a and d >= r:
                    continue
                for beta in (0, 1, -1):
                    out.append((alpha, c, d, beta))
    return sorted(out, key=lambda t: (abs(t[0]) + abs(t[3]) + abs(t[2]) + (t[1] != 1), t))


def find_index_relation(values: np.ndarray, a: int, r: int, cut: int) -> IndexRelation | None:
    """The simplest relation for residue ``r`` mod ``a``, from the smallest start, true on all data."""
    size = len(values)
    ms = np.arange(0, (size - 1 - r) // a + 1, dtype=np.int64)
    for start in range(MAX_START + 1):
        sel = ms[ms >= start]
        fit = sel[a * sel + r < cut]
        if fit.size < MIN_INSTANCES or fit.size == sel.size:
            return None
        y = values[a * sel + r]
        for alpha, c, d, beta in _candidates(a, r):
            idx = c * sel + d
            if alpha and (idx[0] < 0 or np.any(idx >= a * sel + r)):
                continue
            rest = y - (alpha * values[idx] if alpha else 0) - beta * sel
            if np.all(rest == rest[0]):
                return IndexRelation(a, r, alpha, c, d, beta, int(rest[0]), start)
    return None


def recursive_formula(relations: list[IndexRelation], values: np.ndarray) -> str | None:
    """The relations as one formula in ``n`` and ``g``, with the initial values that differ."""
    from nimproof.expr import parse
    from nimproof.provers.recursion import recursive_values

    a = relations[0].a
    body = relations[-1].expression()
    for rel in reversed(relations[:-1]):
        body = f"{rel.expression()} if n % {a} == {rel.r} else ({body})"
    first = max(rel.a * rel.start + rel.r for rel in relations)
    exceptions: list[int] = []
    for _ in range(first + 2):
        text = _with_exceptions(body, exceptions, values)
        node = parse(text, scalars=("n",), sequences=("g",), result="int")
        got, bad = recursive_values(node, first)
        wrong = next(
            (n for n in range(first + 1) if n == bad or int(got[n]) != int(values[n])), None
        )
        if wrong is None:
            return text
        exceptions.append(wrong)
    return None


def _with_exceptions(body: str, exceptions: list[int], values: np.ndarray) -> str:
    text = body
    for n in sorted(exceptions, reverse=True):
        text = f"{int(values[n])} if n == {n} else ({text})"
    return text


class Recurrence(Guesser):
    """Complete sets of index relations, written as recursive definitions."""

    name = "recurrence"

    def guess_point(self, table: Table) -> list[Guess]:
        if not isinstance(table, HeapTable) or table.game.misere:
            return []
        values = table.values
        size = len(values)
        cut = size - max(1, int(size * HOLD_OUT))
        per = smallest_periodicity(values[:cut])
        if per is not None and periodic_holds(values, per.period, per.preperiod, per.saltus):
            return []  # a (saltus) period already determines the table: the periodic guesser's
        for a in BASES:
            rels = [find_index_relation(values, a, r, cut) for r in range(a)]
            if any(rel is None for rel in rels):
                continue
            found = [rel for rel in rels if rel is not None]
            if not any(rel.alpha and rel.c < rel.a for rel in found):
                continue  # quasi-linear or a plain shift: the periodic guesser covers those
            formula = recursive_formula(found, values)
            if formula is None or not reproduces_heap_table(formula, table):
                continue
            return [self._guess(table, found, formula, cut)]
        return []

    def _guess(self, table: HeapTable, rels: list[IndexRelation], formula: str, cut: int) -> Guess:
        size = len(table.values)
        described = "; ".join(rel.describe() for rel in rels)
        tpl, consts = template(formula)
        return Guess(
            kind="grundy",
            game=table.spec,
            guesser=self.name,
            evidence=Evidence(
                fitted=cut,
                held_out=size - cut,
                checked=size,
                details=(
                    f"index relations {described}: found on heaps 0..{cut - 1}, true on heaps "
                    f"up to {size - 1}",
                    "a recursive definition (each relation reads a smaller heap), checked "
                    "exhaustively by the verifier",
                ),
            ),
            cost=formula_cost(formula),
            formula=formula,
            statement=f"In {table.spec}: {described} (with the initial values written out).",
            template=tpl,
            constants=consts,
            point=table.key,
        )
