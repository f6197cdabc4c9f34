"""One-heap families that never split a heap: Nim, subtraction games, fractions.

Each class states its move rule twice: as plain Python in :meth:`options`
(the reference) and, where the rule has one, as data the fast engines and the
provers use (:attr:`takes` for a finite subtraction set,
:meth:`move_interval` for rules whose targets form an interval).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from functools import cached_property

from nimproof.errors import SpecError
from nimproof.games.args import no_args, parse_int, parse_number_list
from nimproof.games.base import (
    FiniteTakes,
    HeapGame,
    Heaps,
    IntervalTakes,
    MoveSpec,
    PythonMoves,
    SetTakes,
)
from nimproof.games.registry import family

MAX_TAKE = 10**6


class IntervalGame(HeapGame):
    """A heap game whose moves from ``n`` reach exactly the heaps ``lo(n) <= m < n``."""

    @cached_property
    def moves_spec(self) -> MoveSpec:
        """:class:`IntervalTakes` where the lower end is linear in ``n``; else only Python moves."""
        return PythonMoves()

    def move_interval(self, n: int) -> tuple[int, int]:
        """The half-open range ``[lo, n)`` of heap sizes one move away from ``n``."""
        spec = self.moves_spec
        if not isinstance(spec, IntervalTakes):
            raise NotImplementedError(f"{self.spec} must define move_interval")
        return spec.lowest(n), n

    def options(self, n: int) -> Iterator[Heaps]:
        lo, hi = self.move_interval(n)
        for m in range(lo, hi):
            yield (m,)


class Nim(IntervalGame):
    """One Nim heap: take any positive number of tokens."""

    spec = "nim"

    @cached_property
    def moves_spec(self) -> IntervalTakes:
        return IntervalTakes(1, 1)


class TakeFraction(IntervalGame):
    """Take between 1 and ``floor(P*n/Q)`` tokens; ``half-heap`` is ``P/Q = 1/2``."""

    def __init__(self, p: int, q: int, spec: str | None = None) -> None:
        if q <= 0 or p <= 0:
            raise SpecError("take-fraction needs positive P and Q")
        if p > q:
            raise SpecError(
                f"take-fraction {p}/{q} exceeds 1: a move could take more than the heap"
            )
        g = math.gcd(p, q)
        self.p, self.q = p // g, q // g
        self.spec = spec or f"take-fraction:{self.p}/{self.q}"

    @cached_property
    def moves_spec(self) -> IntervalTakes:
        return IntervalTakes(self.p, self.q)


class Subtraction(HeapGame):
    """Subtract a number of tokens from a finite set ``takes``."""

    def __init__(self, takes: tuple[int, ...], spec: str | None = None) -> None:
        if not takes:
            raise SpecError("a subtraction set needs at least one number")
        if any(t <= 0 for t in takes):
            raise SpecError("subtraction set members must be positive")
        if max(takes) > MAX_TAKE:
            raise SpecError(f"subtraction set members must be at most {MAX_TAKE}")
        self.takes = tuple(sorted(set(takes)))
        self.spec = spec or "subtraction:" + ",".join(map(str, self.takes))

    @cached_property
    def moves_spec(self) -> FiniteTakes:
        return FiniteTakes(self.takes)

    def options(self, n: int) -> Iterator[Heaps]:
        for t in self.takes:
            if t <= n:
                yield (n - t,)


class InfiniteSubtraction(HeapGame):
    """Subtract any member of an infinite set (primes, squares, triangular, multiples)."""

    def __init__(self, kind: str, modulus: int = 0, excluded: tuple[int, ...] = ()) -> None:
        self.kind = kind
        self.modulus = modulus
        self.excluded = excluded
        if kind == "multiples-of":
            self.spec = f"subtraction:multiples-of:{modulus}"
        elif kind == "all-but":
            self.spec = "subtraction:all-but:" + ",".join(map(str, excluded))
        else:
            self.spec = f"subtraction:{kind}"

    @cached_property
    def moves_spec(self) -> SetTakes:
        return SetTakes(self.kind, self.modulus, self.excluded)

    def contains(self, t: int) -> bool:
        """True when ``t`` is in the subtraction set."""
        return self.moves_spec.contains(t)

    def members_up_to(self, n: int) -> list[int]:
        """The members of the set that are at most ``n``, ascending."""
        return self.moves_spec.members_up_to(n)

    def options(self, n: int) -> Iterator[Heaps]:
        for t in range(1, n + 1):
            if self.contains(t):
                yield (n - t,)


@family("nim", "one heap; a move takes any number of tokens (at least one)", "nim")
def _nim(args: str | None) -> Nim:
    no_args("nim", args)
    return Nim()


_INFINITE = ("primes", "squares", "triangular")


@family(
    "subtraction",
    "one heap; a move takes a number of tokens from a fixed set: a list such as 1,3,4, "
    "or primes, squares, triangular, multiples-of:K, all-but:LIST",
    "subtraction:1,3,4",
    aliases=("sub",),
    needs="a subtraction set",
)
def _subtraction(args: str | None) -> HeapGame:
    assert args  # the registry refuses a spec without its set (``needs``)
    text = args.strip().lower()
    if text in _INFINITE:
        return InfiniteSubtraction(text)
    if text.startswith("multiples-of:"):
        k = parse_int(text.partition(":")[2], "the modulus of multiples-of", low=1, high=MAX_TAKE)
        return InfiniteSubtraction("multiples-of", modulus=k)
    if text.startswith("all-but:"):
        excluded = tuple(
            sorted(set(parse_number_list(text.partition(":")[2], "all-but", high=MAX_TAKE)))
        )
        return InfiniteSubtraction("all-but", excluded=excluded)
    return Subtraction(parse_number_list(text, "the subtraction set", high=MAX_TAKE))


@family(
    "knim",
    "one heap; a move takes 1 to K tokens (the same as subtraction:1,...,K)",
    "knim:3",
    aliases=("k-nim",),
    needs="K",
)
def _knim(args: str | None) -> Subtraction:
    assert args  # the registry refuses a spec without it (``needs``)
    k = parse_int(args, "K of knim", low=1, high=MAX_TAKE)
    return Subtraction(tuple(range(1, k + 1)), spec=f"knim:{k}")


@family(
    "half-heap",
    "one heap of n tokens; a move takes 1 to n/2 of them (rounded down)",
    "half-heap",
    aliases=("take-half", "half"),
)
def _half(args: str | None) -> TakeFraction:
    no_args("half-heap", args)
    return TakeFraction(1, 2, spec="half-heap")


@family(
    "take-fraction",
    "one heap of n tokens; a move takes 1 to P*n/Q of them (rounded down)",
    "take-fraction:2/3",
    needs="a fraction P/Q",
)
def _fraction(args: str | None) -> TakeFraction:
    assert args  # the registry refuses a spec without it (``needs``)
    text = args
    p_s, sep, q_s = text.partition("/")
    if not sep:
        raise SpecError(f"take-fraction needs P/Q, got {text!r}")
    p = parse_int(p_s, "P of take-fraction", low=1, high=10**6)
    q = parse_int(q_s, "Q of take-fraction", low=1, high=10**6)
    frac = Fraction(p, q)
    if frac == Fraction(1, 2):
        return TakeFraction(1, 2, spec="half-heap")
    return TakeFraction(frac.numerator, frac.denominator)
