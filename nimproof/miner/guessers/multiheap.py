"""P-position rules for multi-heap tables, from a library of candidate predicates.

The library (for ``H`` heaps):

* the xor of all heaps is 0 (Bouton);
* the xor of a regular subset of heaps is 0: ``h[::2]`` (the odd stairs of
  staircase Nim, stair 1 being index 0), ``h[1::2]``, every third heap;
* every binary column sums to 0 modulo ``m`` (``m = 2 .. H + 1``: Moore's
  Nim_k has ``m = k + 1``);
* the total, or the largest heap, is 0 modulo small ``m``;
* the same rules with misère Nim's exception region: where every heap is 0 or
  1, P iff the number of 1-heaps has a given parity;
* Welter's function is 0 (coins on distinct squares, M. Sato's closed form:
  the xor of the heaps and of ``d ^ (d - 1)`` for the difference ``d`` of
  every pair), where the heaps are pairwise different (elsewhere P);
* for two heaps, the golden-ratio rules (proved in Zeckendorf numeration):
  the Beatty pairs ``(floor(k phi), floor(k phi) + k)`` in either order, and
  "the second heap is below the smallest Zeckendorf term of the first".

Every candidate is compared with the table on a small box first (the *fit*)
and then on the whole table (the held-out positions must agree too). All
candidates that fit the whole table are returned, each with its description
length; the ranking then prefers the simplest. A rule that is the known
theorem for a built-in family gets that family's winning-move ``witness``.
"""

from __future__ import annotations

from functools import singledispatch

import numpy as np

from nimproof.claims.kinds import PPositions
from nimproof.games.base import Game, MoveDescription, StairToStair, UpToKHeaps
from nimproof.miner.formula import formula_cost, predicate_values
from nimproof.miner.guessers.base import Guesser, formula_guess
from nimproof.miner.model import Evidence, Guess, PTable, Table

XOR_ALL = "xor(h) == 0"
ODD_STAIRS = "xor(h[::2]) == 0"
_EXCEPTION = "count(x == 1 for x in h) % 2 == {parity} if all(x <= 1 for x in h) else {rule}"


def column_rule(m: int) -> str:
    """Every binary column of the heaps sums to 0 modulo ``m``."""
    return f"all(colsum(h, b) % {m} == 0 for b in bits)"


def misere_rule(rule: str, parity: int = 1) -> str:
    """``rule`` outside the region where every heap is 0 or 1; a parity rule inside it."""
    return _EXCEPTION.format(parity=parity, rule=rule)


def library(heaps: int) -> list[str]:
    """The candidate predicates for ``heaps`` heaps, in a fixed order."""
    base = [XOR_ALL]
    if heaps >= 2:
        base += [ODD_STAIRS, "xor(h[1::2]) == 0"]
    if heaps >= 3:
        base += [f"xor(h[{i}::3]) == 0" if i else "xor(h[::3]) == 0" for i in range(3)]
    base += [column_rule(m) for m in range(2, heaps + 2)]
    rules = list(base)
    rules += ["max(h) == 0", *(f"sum(h) % {m} == 0" for m in (2, 3, 4))]
    rules += [misere_rule(rule, parity) for rule in base for parity in (1, 0)]
    if heaps >= 2:
        rules.append(welter_rule(heaps))
    if heaps == 2:
        rules += list(GOLDEN_RULES)
    return rules


def welter_rule(heaps: int) -> str:
    """Welter's function of the heaps is 0 where they are pairwise different (P elsewhere).

    M. Sato's closed form: the xor of the heaps and, for every pair, of
    ``2^(v + 1) - 1`` where ``2^v`` is the largest power of 2 dividing their
    difference ``d``, that is ``d ^ (d - 1)``.
    """
    pairs = [(i, j) for i in range(heaps) for j in range(i + 1, heaps)]
    terms = [f"h[{i}]" for i in range(heaps)]
    for i, j in pairs:
        d = f"(max(h[{i}], h[{j}]) - min(h[{i}], h[{j}]))"
        terms.append(f"({d} ^ ({d} - 1))")
    distinct = " and ".join(f"h[{i}] != h[{j}]" for i, j in pairs)
    return f"not ({distinct}) or ({' ^ '.join(terms)}) == 0"


#: Two-heap rules of the golden ratio (docs/golden-ratio.md).
GOLDEN_RULES = (
    "(h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0]))"
    " or (h[1] <= h[0] and h[1] == phi_floor(h[0] - h[1]))",
    "h[0] == 0 or h[1] < zlow(h[0])",
)


def witness_for(game: Game, rule: str) -> str | None:
    """The built-in winning-move witness when ``rule`` is the known theorem for ``game``."""
    return _witness(game.moves_spec, game.misere, rule)


@singledispatch
def _witness(spec: MoveDescription, misere: bool, rule: str) -> str | None:
    if misere:
        return "misere-nim" if spec.nim and rule == misere_rule(XOR_ALL) else None
    return "nim" if spec.nim and rule == XOR_ALL else None


@_witness.register
def _(spec: UpToKHeaps, misere: bool, rule: str) -> str | None:
    return "moore" if not misere and rule == column_rule(spec.k + 1) else None


@_witness.register
def _(spec: StairToStair, misere: bool, rule: str) -> str | None:
    return "staircase" if not misere and rule == ODD_STAIRS else None


class MultiHeap(Guesser):
    """Library search for the P-positions of multi-heap tables."""

    name = "multiheap"

    def why_not(self, table: Table) -> str | None:
        if not isinstance(table, PTable):
            return None
        return f"none of the {len(library(table.heaps))} library rules for {table.heaps} heaps fits"

    def guess_point(self, table: Table) -> list[Guess]:
        if not isinstance(table, PTable):
            return []
        small = max(1, table.max_heap // 2)
        inner = (slice(0, small + 1),) * table.heaps
        total = int(table.p.size)
        fitted = int(table.p[inner].size)
        n_p = int(table.p.sum())
        out: list[Guess] = []
        for rule in library(table.heaps):
            values = predicate_values(rule, table.heaps, table.max_heap, table.params)
            if values is None or not np.array_equal(values[inner], table.p[inner]):
                continue
            if not np.array_equal(values, table.p):
                continue
            witness = witness_for(table.game, rule)
            out.append(
                formula_guess(
                    self.name,
                    table,
                    rule,
                    Evidence(
                        fitted=fitted,
                        held_out=total - fitted,
                        checked=total,
                        details=(
                            f"{table.heaps} heaps: fits the box [0, {small}]^{table.heaps}, then "
                            f"predicts the rest of [0, {table.max_heap}]^{table.heaps} "
                            f"({n_p} P-positions among {total})",
                            *(
                                (f"the known theorem for {table.spec}: witness {witness!r}",)
                                if witness
                                else ()
                            ),
                        ),
                    ),
                    kind=PPositions.name,
                    cost=formula_cost(rule, predicate=True),
                    statement=f"A position of {table.heaps} heaps in {table.spec} is a P-position iff {rule}.",
                    heaps=(table.heaps,),
                    witness=witness,
                )
            )
        return out
