"""Zeckendorf numeration: numbers as sums of non-consecutive Fibonacci numbers.

Every natural number is, in exactly one way, a sum of Fibonacci numbers
``F(i + 2)`` (1, 2, 3, 5, 8, ... for positions ``i = 0, 1, 2, ...``) with no
two consecutive positions (Zeckendorf's theorem). A number is then the
finite set of its positions, as in binary: this is the numeration in which
the theorems stated with the golden ratio (Wythoff's game, Fibonacci Nim)
become regular, so that MONA decides them for every position
(:mod:`nimproof.expr.to_ws1s_zeckendorf`).

This module holds the plain arithmetic (conversions, the lowest term, the
shift by one position, ``floor(n * phi)``) and the addition automaton,
built here from first principles and checked by the tests against integer
addition and by MONA for totality and functionality.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import isqrt

__all__ = [
    "AdderAutomaton",
    "adder",
    "from_positions",
    "phi_floor",
    "positions",
    "weight",
    "zlow",
    "zshift",
]


@cache
def _weights(count: int) -> tuple[int, ...]:
    w = [1, 2]
    while len(w) < count:
        w.append(w[-1] + w[-2])
    return tuple(w[:count])


def weight(i: int) -> int:
    """The value of position ``i``: the Fibonacci number ``F(i + 2)``."""
    return _weights(max(i + 1, 2))[i]


def positions(n: int) -> tuple[int, ...]:
    """The Zeckendorf positions of ``n >= 0``, ascending (greedy: largest term first)."""
    if n < 0:
        raise ValueError(f"no Zeckendorf representation of the negative number {n}")
    count = 2
    while _weights(count)[-1] <= n:
        count *= 2
    out = []
    for i in range(count - 1, -1, -1):
        w = _weights(count)[i]
        if w <= n:
            out.append(i)
            n -= w
    return tuple(reversed(out))


def from_positions(ps: tuple[int, ...] | list[int] | set[int]) -> int:
    """The number whose positions are ``ps`` (any set of positions, valid or not)."""
    return sum(weight(i) for i in set(ps))


def zlow(n: int) -> int:
    """The smallest term of ``n``'s Zeckendorf representation (0 for 0)."""
    ps = positions(n)
    return weight(ps[0]) if ps else 0


def zshift(n: int) -> int:
    """``n`` with every term ``F(i + 2)`` replaced by ``F(i + 3)`` (a shift by one position)."""
    return from_positions([i + 1 for i in positions(n)])


def phi_floor(n: int) -> int:
    """``floor(n * phi)`` for ``n >= 0``, ``phi = (1 + sqrt 5) / 2`` (exact integer arithmetic).

    In Zeckendorf numeration this is ``zshift(n)``, less 1 when the lowest
    position of ``n`` is even (a tested identity the WS1S back end uses).
    """
    if n < 0:
        raise ValueError("phi_floor of a negative number")
    return (n + isqrt(5 * n * n)) // 2


# ---------------------------------------------------------------------------
# the addition automaton


class AdderAutomaton:
    """A deterministic automaton reading three valid sets ``X, Y, Z`` from the highest
    position down; it ends in an accepting state exactly when ``X + Y = Z``.

    A state ``(a, b)`` after reading positions ``>= p`` says that the digits
    read so far contribute ``a * F(p + 2) + b * F(p + 1)`` to ``X + Y - Z``;
    reading the digits at ``p - 1`` gives ``(a + b + x + y - z, a)`` because
    ``F(p + 2) = F(p + 1) + F(p)``. After position 0 the difference is
    ``a + b``, so the accepting states are those with ``a + b = 0``. Only
    the states from which an accepting state can still be reached are kept
    (a missing transition rejects), and equivalent states are merged.
    ``start`` is state 0.
    """

    def __init__(
        self,
        states: int,
        delta: dict[tuple[int, tuple[int, int, int]], int],
        accepting: frozenset[int],
    ) -> None:
        self.states = states
        self.delta = delta
        self.accepting = accepting

    def accepts(self, x: int, y: int, z: int) -> bool:
        """True when the automaton accepts the Zeckendorf sets of ``x``, ``y``, ``z``."""
        xs, ys, zs = (set(positions(v)) for v in (x, y, z))
        top = max([*xs, *ys, *zs, 0])
        state = 0
        for p in range(top, -1, -1):
            digits = (int(p in xs), int(p in ys), int(p in zs))
            nxt = self.delta.get((state, digits))
            if nxt is None:
                return False
            state = nxt
        return state in self.accepting


@cache
def adder(box: int = 8) -> AdderAutomaton:
    """The minimal addition automaton (see :class:`AdderAutomaton`); states whose
    components exceed ``box`` in size are never co-reachable (the tests check totality)."""
    order, trans = _reachable(box)
    live = _live(order, trans)
    kept = [s for s in order if s in live]
    blocks = _minimise(kept, {k: v for k, v in trans.items() if k[0] in live and v in live})
    index: dict[int, int] = {}
    for s in kept:  # the start state's block is state 0
        index.setdefault(blocks[s], len(index))
    delta = {
        (index[blocks[s]], d): index[blocks[t]]
        for (s, d), t in trans.items()
        if s in live and t in live
    }
    accepting = frozenset(index[blocks[s]] for s in kept if s[0] + s[1] == 0)
    return AdderAutomaton(len(index), delta, accepting)


Digits = tuple[int, int, int]
_DIGITS: list[Digits] = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
State = tuple[int, int]


def _reachable(box: int) -> tuple[list[State], dict[tuple[State, Digits], State]]:
    order: list[State] = [(0, 0)]
    seen = {(0, 0)}
    trans: dict[tuple[State, Digits], State] = {}
    for s in order:
        for x, y, z in product((0, 1), repeat=3):
            d = (x, y, z)
            t = (s[0] + s[1] + x + y - z, s[0])
            if max(abs(t[0]), abs(t[1])) > box:
                continue
            trans[(s, d)] = t
            if t not in seen:
                seen.add(t)
                order.append(t)
    return order, trans


def _live(order: list[State], trans: dict[tuple[State, Digits], State]) -> set[State]:
    live = {s for s in order if s[0] + s[1] == 0}
    grew = True
    while grew:
        grew = False
        for (s, _), t in trans.items():
            if t in live and s not in live:
                live.add(s)
                grew = True
    return live


def _minimise(states: list[State], trans: dict[tuple[State, Digits], State]) -> dict[State, int]:
    """Moore's partition refinement: the block of every state."""
    block = {s: int(s[0] + s[1] == 0) for s in states}
    while True:
        sig = {
            s: (
                block[s],
                tuple(block.get(trans.get((s, d), (99, 99)), -1) for d in _DIGITS),
            )
            for s in states
        }
        names: dict[object, int] = {}
        new = {s: names.setdefault(sig[s], len(names)) for s in states}
        if len(names) == len(set(block.values())):
            return new
        block = new
