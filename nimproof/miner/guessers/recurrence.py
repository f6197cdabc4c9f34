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

import numpy as np

from nimproof.miner.formula import reproduces_heap_table
from nimproof.miner.guessers.base import (
    BASES,
    MAX_START,
    MIN_INSTANCES,
    RecursiveGuesser,
    residue_counts,
)
from nimproof.miner.model import Guess, HeapTable
from nimproof.miner.relations import IndexRelation, recursive_formula


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


class Recurrence(RecursiveGuesser):
    """Complete sets of index relations, written as recursive definitions."""

    name = "recurrence"

    def guess_rules(self, table: HeapTable, cut: int) -> list[Guess]:
        values = table.values
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
            described = "; ".join(rel.describe() for rel in found)
            return [self.recursive_guess(table, "index relations", described, formula, cut)]
        return []

    def why_not_heap(self, table: HeapTable, cut: int) -> str:
        counts = residue_counts(lambda a, r: find_index_relation(table.values, a, r, cut), BASES)
        return f"index relations g(am + r) = alpha g(cm + d) + beta m + e for {counts}"
