"""An independent check of a misère quotient: brute-force outcomes of sums of heaps.

This module shares no code with the quotient construction (it imports nothing
from :mod:`nimproof.misere` or the engines; ``tests/misere/test_bruteforce.py``
checks its imports). It plays every sum of heaps with the game's own
``moves`` and compares each outcome with the quotient's answer, given as plain
data: the multiplication table, the P-portion and the heap map.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nimproof.games.registry import parse_spec


@dataclass(frozen=True)
class Disagreement:
    """A sum of heaps where the quotient and the game disagree."""

    heaps: tuple[int, ...]
    quotient_says_p: bool
    game_says_p: bool


def misere_p(
    spec: str, heaps: Sequence[int], memo: dict[tuple[int, ...], bool] | None = None
) -> bool:
    """True when the sum of ``heaps`` of ``spec`` (played misère) is a P-position, by playing it out."""
    game = parse_spec(spec)
    base = game.normal if game.misere else game
    table = {} if memo is None else memo
    start = tuple(sorted(h for h in heaps if h))
    stack = [start]
    while stack:
        pos = stack[-1]
        if pos in table:
            stack.pop()
            continue
        targets = [_sorted(t) for t in base.moves(pos)] if pos else []
        missing = [t for t in targets if t not in table]
        if missing:
            stack.extend(missing)
            continue
        # Misère: with no move the player to move has won (N); otherwise P iff every move reaches N.
        table[pos] = bool(targets) and not any(table[t] for t in targets)
        stack.pop()
    return table[start]


def _sorted(position: Any) -> tuple[int, ...]:
    heaps = (position,) if isinstance(position, int) else tuple(position)
    return tuple(sorted(h for h in heaps if h))


def compare(
    spec: str,
    mul: Sequence[Sequence[int]],
    p_portion: Sequence[int],
    heap_map: Sequence[int],
    max_heaps: int,
    max_total: int,
) -> tuple[int, list[Disagreement]]:
    """Every sum of at most ``max_heaps`` heaps (each ``<= len(heap_map) - 1``), total ``<= max_total``.

    Returns how many sums were compared and the disagreements found.
    """
    p = set(p_portion)
    memo: dict[tuple[int, ...], bool] = {}
    top = min(len(heap_map) - 1, max_total)
    count = 0
    bad: list[Disagreement] = []
    for k in range(1, max_heaps + 1):
        for heaps in itertools.combinations_with_replacement(range(1, top + 1), k):
            if sum(heaps) > max_total:
                continue
            x = 0
            for h in heaps:
                x = mul[x][heap_map[h]]
            says = x in p
            truth = misere_p(spec, heaps, memo)
            count += 1
            if says != truth:
                bad.append(Disagreement(heaps, says, truth))
    return count, bad
