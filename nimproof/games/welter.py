"""Welter's game: coins on distinct squares of a strip; a move slides one coin left to an empty square.

Squares are numbered 0, 1, 2, ...; coins may pass over other coins. A
position of ``K`` coins is the tuple of their squares, so the game is ``K``
heaps of distinct sizes in which a move lowers one heap to a size no other
heap has (C. P. Welter, "The theory of a class of games on a sequence of
squares, in terms of the advancing operation in a special group",
Indagationes Math. 16, 1954; J. H. Conway, *On Numbers and Games*, ch. 13).

**Welter's function.** The Grundy value of ``(a1, ..., aK)`` is
``a1 xor ... xor aK xor`` the xor, over all pairs ``i < j``, of
``2^(v + 1) - 1`` with ``v`` the exponent of the largest power of 2 dividing
``ai - aj`` (M. Sato's closed form of Welter's function, as quoted by T. Abuku,
"Transfinite version of Welter's game", arXiv:1701.08928). With
``d = |ai - aj|``, ``2^(v + 1) - 1 = d ^ (d - 1)``.

A tuple with two equal heaps is not a position of the game; this family gives
it no moves (so its value is 0), and a move never creates one. The moves are
a relation between the heaps before (``h``) and after (``k``) a move
(:class:`~nimproof.games.base.HeapsRelation`), one per number of coins
(``welter:K``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from itertools import combinations
from typing import cast

from nimproof.errors import UsageError
from nimproof.games.args import parse_int
from nimproof.games.base import HeapsRelation, MultiHeapGame, Position, relation_predicate
from nimproof.games.registry import family

MAX_COINS = 8


def distinct(k: int, name: str = "h") -> str:
    """The formula "the ``k`` entries of ``name`` are pairwise different"."""
    return (
        " and ".join(f"{name}[{i}] != {name}[{j}]" for i, j in combinations(range(k), 2)) or "True"
    )


def relation(k: int) -> str:
    """Welter's moves on ``k`` coins as a formula in ``h`` (before) and ``k`` (after)."""
    cases = []
    for i in range(k):
        others = [j for j in range(k) if j != i]
        same = [f"k[{j}] == h[{j}]" for j in others]
        free = [f"k[{i}] != h[{j}]" for j in others]
        cases.append("(" + " and ".join([f"k[{i}] < h[{i}]", *same, *free]) + ")")
    return f"({distinct(k)}) and ({' or '.join(cases)})"


def welter_function(k: int) -> str:
    """Welter's function of ``k`` coins (Sato's form) as a formula in ``h``, 0 off the positions."""
    terms = [f"h[{i}]" for i in range(k)]
    for i, j in combinations(range(k), 2):
        d = f"(max(h[{i}], h[{j}]) - min(h[{i}], h[{j}]))"
        terms.append(f"({d} ^ ({d} - 1))")
    return f"({' ^ '.join(terms)}) if {distinct(k)} else 0"


class Welter(MultiHeapGame):
    """Welter's game on ``k`` coins (positions: tuples of ``k`` squares)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.spec = f"welter:{k}"

    @cached_property
    def moves_spec(self) -> HeapsRelation:
        text = relation(self.k)
        return HeapsRelation(self.k, relation_predicate(text), text)

    def moves(self, position: Position) -> Iterator[Position]:
        heaps = cast(tuple[int, ...], position)
        if len(heaps) != self.k:
            raise UsageError(f"a position of {self.spec} has {self.k} coins, got {len(heaps)}")
        taken = set(heaps)
        if len(taken) != len(heaps):
            return
        for i, a in enumerate(heaps):
            for b in range(a):
                if b not in taken:
                    yield (*heaps[:i], b, *heaps[i + 1 :])


@family(
    "welter",
    "Welter's game: K coins on distinct squares of a strip; a move slides one coin left "
    "(over others if need be) to an empty square",
    "welter:3",
    multi_heap=True,
    needs="a number of coins",
)
def _welter(args: str | None) -> Welter:
    assert args  # the registry refuses a spec without it (``needs``)
    k = parse_int(args, "the number of coins", low=1, high=MAX_COINS)
    return Welter(k)
