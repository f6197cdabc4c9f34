"""Shift rules: ``g(n) = alpha g(n - f(n)) + gamma g(f(n)) + e`` on residue classes.

Where a table is not periodic, its values often repeat an earlier value a
*variable* distance back: take-a-third has ``g(n) = g(n - floor(n/3) - 1)``
unless ``3 | n``; take-two-fifths ``g(n) = g(n - floor(2n/5) - 1)`` unless
``n % 5`` is 0 or 3, where a new value ``2 floor(n/5)`` or ``2 floor(n/5) + 1``
appears; sums of binary digits satisfy ``g(n) = g(n - 2^k) + g(2^k)`` with
``2^k`` the highest power of 2 in ``n``. The guesser tries, for each modulus
``a`` (1 to :data:`MAX_MODULUS`) and each offset ``f`` of a fixed list
(``floor(p n/q) + c``, the highest and the lowest power of 2 in ``n``, small
constants), one rule per residue ``r``: the shift rule with the smallest
coefficients, or else a new-value rule ``g(a m + r) = beta m + e``. Each rule
is found on heaps below the held-out cut and must then hold on the rest. A
complete set with at least one shift determines the table from its first
values, so it is written as a recursive definition (``g[i]`` reads an earlier
value) that the verifier checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nimproof.miner.formula import reproduces_heap_table
from nimproof.miner.guessers.base import MAX_START, MIN_INSTANCES, RecursiveGuesser
from nimproof.miner.model import Guess, HeapTable
from nimproof.miner.relations import IndexRelation, linear_text, recursive_formula


@dataclass(frozen=True, slots=True)
class Offset:
    """A distance ``f(n)`` back: its formula, the heap ``n - f(n)`` as a formula, words, values."""

    text: str
    back: str
    words: str
    values: Callable[[np.ndarray], np.ndarray]
    cost: float


#: Largest modulus ``a`` of the residue classes.
MAX_MODULUS = 6
#: Largest constant ``|e|`` of a shift rule.
MAX_E = 3


def _bit_length(n: np.ndarray) -> np.ndarray:
    out = np.zeros(n.shape, dtype=np.int64)
    for i in range(63):
        out = np.where((n >> i) > 0, i + 1, out)
    return out


def _high_bit(n: np.ndarray) -> np.ndarray:
    return np.where(n > 0, 1 << np.maximum(_bit_length(n) - 1, 0), 0)


def _low_bit(n: np.ndarray) -> np.ndarray:
    return n & -n


def _fraction(p: int, q: int, c: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda n: p * n // q + c


def _constant(c: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda n: np.full(n.shape, c, dtype=np.int64)


def _offsets() -> list[Offset]:
    high, low = "1 << (bit_length(n) - 1)", "1 << trailing_zeros(n)"
    out = [
        Offset(high, f"n - ({high})", "2^k, the highest power of 2 in n", _high_bit, 2.0),
        Offset(low, f"n - ({low})", "the lowest power of 2 dividing n", _low_bit, 2.0),
    ]
    for q in range(2, MAX_MODULUS + 1):
        for p in range(1, q):
            if math.gcd(p, q) != 1:
                continue
            for c in range(3):
                head = f"n // {q}" if p == 1 else f"{p} * n // {q}"
                back = f"n - {head}" + (f" - {c}" if c else "")
                words = f"floor({'' if p == 1 else p}n/{q})" + (f" + {c}" if c else "")
                out.append(
                    Offset(linear_text(1, head, c), back, words, _fraction(p, q, c), 1.0 + p + c)
                )
    out += [Offset(str(c), f"n - {c}", str(c), _constant(c), 0.5 * c) for c in (1, 2, 3)]
    return out


OFFSETS = _offsets()


@dataclass(frozen=True, slots=True)
class ShiftRule:
    """``g(n) = alpha g(n - f(n)) + gamma g(f(n)) + e`` for ``n % a == r``, ``n >= first``."""

    a: int
    r: int
    offset: Offset
    alpha: int
    gamma: int
    e: int
    first: int

    @property
    def cost(self) -> float:
        """Simplicity order: the offset, then the coefficients."""
        return self.offset.cost + abs(self.alpha - 1) + 2 * self.gamma + abs(self.e)

    def expression(self) -> str:
        """The rule as a formula in ``n`` reading earlier values ``g[...]``."""
        parts = [linear_text(self.alpha, f"g[{self.offset.back}]")]
        if self.gamma:
            parts.append(linear_text(self.gamma, f"g[{self.offset.text}]"))
        if self.e:
            parts.append(str(self.e))
        return " + ".join(parts).replace("+ -", "- ")

    def describe(self) -> str:
        """``g(n) = g(n - f(n)) + 1`` in words for the statement."""
        f = "f(n)"
        right = linear_text(self.alpha, f"g(n - {f})")
        if self.gamma:
            right += f" + g({f})"
        if self.e:
            right += f" + {self.e}" if self.e > 0 else f" - {-self.e}"
        return right


Rule = ShiftRule | IndexRelation


def _instances(size: int, a: int, r: int, first: int) -> np.ndarray:
    n = np.arange(r, size, a, dtype=np.int64)
    return n[n >= first]


def find_shift(values: np.ndarray, a: int, r: int, offset: Offset, cut: int) -> ShiftRule | None:
    """The simplest shift rule with ``offset`` for ``n % a == r``, found below ``cut``, true on all."""
    size = len(values)
    for start in range(MAX_START + 1):
        n = _instances(size, a, r, a * start + r)
        if np.count_nonzero(n < cut) < MIN_INSTANCES or n.size == np.count_nonzero(n < cut):
            return None
        f = offset.values(n)
        back = n - f
        if f.min() < 1 or back.min() < 0:
            continue
        y = values[n]
        for gamma in (0, 1):
            if gamma and np.any(f >= n):  # g(f(n)) must read a smaller heap
                continue
            extra = values[f] if gamma else 0
            for alpha in (1, -1):
                rest = y - alpha * values[back] - extra
                if np.all(rest == rest[0]) and abs(int(rest[0])) <= MAX_E:
                    return ShiftRule(a, r, offset, alpha, gamma, int(rest[0]), int(n[0]))
    return None


def find_new_value(values: np.ndarray, a: int, r: int, cut: int) -> IndexRelation | None:
    """``g(a m + r) = beta m + e`` (a value that is new, or constant), found below ``cut``."""
    size = len(values)
    for start in range(MAX_START + 1):
        n = _instances(size, a, r, a * start + r)
        fitted = np.count_nonzero(n < cut)
        if fitted < MIN_INSTANCES or n.size == fitted:
            return None
        m, y = n // a, values[n]
        beta = int(y[1] - y[0]) if n.size > 1 else 0
        rest = y - beta * m
        if abs(beta) <= a and np.all(rest == rest[0]):
            return IndexRelation(a, r, 0, 0, 0, beta, int(rest[0]), start)
    return None


def rule_set(values: np.ndarray, a: int, offset: Offset, cut: int) -> list[Rule] | None:
    """One rule per residue mod ``a`` with ``offset``, at least one a shift; else None."""
    rules: list[Rule] = []
    for r in range(a):
        rule: Rule | None = find_shift(values, a, r, offset, cut)
        if rule is None:
            rule = find_new_value(values, a, r, cut)
        if rule is None:
            return None
        rules.append(rule)
    if not any(isinstance(rule, ShiftRule) for rule in rules):
        return None
    return rules


class Shift(RecursiveGuesser):
    """Complete sets of shift rules, written as recursive definitions."""

    name = "shift"

    def guess_rules(self, table: HeapTable, cut: int) -> list[Guess]:
        values = table.values
        for a in range(1, MAX_MODULUS + 1):
            found = []
            for offset in OFFSETS:
                rules = rule_set(values, a, offset, cut)
                if rules is not None:
                    found.append(rules)
            for rules in sorted(found, key=_set_cost):
                formula = recursive_formula(rules, values)
                if formula is not None and reproduces_heap_table(formula, table):
                    described = describe_rules(rules)
                    return [self.recursive_guess(table, "shift rules", described, formula, cut)]
        return []

    def why_not_heap(self, table: HeapTable, cut: int) -> str:
        values = table.values
        best = (0, 1, "")
        for a in range(1, MAX_MODULUS + 1):
            for offset in OFFSETS:
                found = sum(find_shift(values, a, r, offset, cut) is not None for r in range(a))
                if found and found / a > best[0] / best[1]:
                    best = (found, a, offset.words)
        if not best[0]:
            return (
                "no shift g(n) = alpha g(n - f(n)) + gamma g(f(n)) + e holds on any residue class"
            )
        return (
            f"at best {best[0]} of {best[1]} residues mod {best[1]} follow a shift, "
            f"with f(n) = {best[2]}"
        )


def _set_cost(rules: list[Rule]) -> float:
    return sum(rule.cost for rule in rules)


def describe_rules(rules: list[Rule]) -> str:
    """The rule set in words: the shift with its offset and classes, then the other classes."""
    shifts = [rule for rule in rules if isinstance(rule, ShiftRule)]
    others = [rule for rule in rules if isinstance(rule, IndexRelation)]
    a = rules[0].a
    parts: list[str] = []
    by_form: dict[str, list[int]] = {}
    for rule in shifts:
        by_form.setdefault(rule.describe(), []).append(rule.r)
    offset = shifts[0].offset
    for right, residues in by_form.items():
        if a == 1:
            where = ""
        elif len(residues) == 1:
            where = f" for n % {a} == {residues[0]}"
        else:
            where = f" for n % {a} in {{{', '.join(map(str, residues))}}}"
        parts.append(f"g(n) = {right}{where}")
    parts[0] += f", with f(n) = {offset.words}"
    parts += [rule.describe() for rule in others]
    return "; ".join(parts)
