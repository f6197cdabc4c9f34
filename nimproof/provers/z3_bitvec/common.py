"""What the z3 bit-vector proofs share: limits, the found-violation record, shrinking."""

from __future__ import annotations

from dataclasses import dataclass

import z3

from nimproof.provers.solving import Solver, shrink
from nimproof.verdict import Counterexample

QUANTIFIER_MAX_WIDTH = 10
SHRINK_ROUNDS = 40


@dataclass
class Found:
    """A re-checked violation."""

    counterexample: Counterexample


def note(notes: list[str], text: str) -> None:
    """Add ``text`` to the method's notes once."""
    if text not in notes:
        notes.append(text)


def shrink_below(
    solver: Solver, query: list[z3.BoolRef], n: z3.BitVecRef, width: int, quantified: bool = False
) -> int:
    """The smallest ``n`` satisfying ``query`` that a bounded binary search finds."""
    return shrink(
        solver, query, n, lambda k: z3.ULE(n, z3.BitVecVal(k, width)), SHRINK_ROUNDS, quantified
    )
