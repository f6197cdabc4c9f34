"""Partial misère quotients of a take-and-break game, heap by heap.

For ``n = 1, 2, 3, ...`` the quotient of the sums of heaps ``<= n`` is found
in one of three ways, cheapest first, and each answer is proved by
:func:`nimproof.misere.monoid.find_failure` before it is accepted:

1. heap ``n`` has the same option images as an earlier heap ``j``: then
   ``n`` and ``j`` are indistinguishable and the quotient does not change
   (docs/misere.md, "Same options, same element"); no search is needed;
2. otherwise each element of the current quotient is tried as heap ``n``'s
   element, and the first one the proof accepts is kept (the quotient is
   unchanged: a *conservative extension*);
3. otherwise the quotient grows. Candidates built from the current quotient
   times cyclic monoids are tried first (:mod:`nimproof.misere.trial`); if
   none is proved, a new candidate is learned from exact
   misère outcomes of small sums (an Angluin-style learner over commutative
   words: access words, distinguishing sums, counterexamples from the proof
   search), reduced, and proved.

Exact outcomes come from a memoised search over sums of heaps; the work is
capped (``max_positions``), and a quotient that would need more is reported
as not reached, with the heap where the construction stopped.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from nimproof.misere.monoid import Monoid, Word, find_failure, option_images, reduce
from nimproof.misere.trial import TrialTooLarge, extend, extend_by_recalibration

#: Positions the exact-outcome search may store before the construction gives up.
DEFAULT_MAX_POSITIONS = 3_000_000
#: Elements a learned candidate may have before the construction gives up.
DEFAULT_MAX_ORDER = 2000


class QuotientTooLarge(Exception):
    """The construction passed its budget (positions searched or quotient order)."""


@dataclass
class Partial:
    """The proved misère quotient of the sums of heaps ``0..n`` (``n = len(phi) - 1``)."""

    monoid: Monoid
    phi: list[int]
    #: Heaps at which the quotient changed (grew or was re-presented), in order.
    changes: list[int] = field(default_factory=list)
    #: Quotient order after each heap (``orders[h]`` for heaps 0..n).
    orders: list[int] = field(default_factory=list)


class Outcomes:
    """Exact misère outcomes of sums of heaps (memoised; heaps with no move count as nothing)."""

    def __init__(self, options: Sequence[Sequence[Word]], max_positions: int) -> None:
        self.options = options
        self.max_positions = max_positions
        self.memo: dict[Word, bool] = {(): False}
        #: A proved quotient for the sums of heaps ``< below`` answers those sums at once.
        self.below = 0
        self.known: Monoid | None = None
        self.known_phi: Sequence[int] = ()

    def use(self, monoid: Monoid, phi: Sequence[int]) -> None:
        """Answer every sum of heaps ``<= len(phi) - 1`` from this proved quotient."""
        self.known, self.known_phi, self.below = monoid, list(phi), len(phi)

    def canonical(self, word: Sequence[int]) -> Word:
        """The sum without its moveless heaps, sorted."""
        return tuple(sorted(h for h in word if self.options[h]))

    def is_p(self, word: Sequence[int]) -> bool:
        """True when the sum is a misère P-position (the player to move loses)."""
        key = self.canonical(word)
        got = self.memo.get(key)
        if got is None:
            limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(limit, 20_000))
            try:
                got = self._is_p(key)
            finally:
                sys.setrecursionlimit(limit)
        return got

    def _is_p(self, key: Word) -> bool:
        got = self.memo.get(key)
        if got is not None:
            return got
        if self.known is not None and key and key[-1] < self.below:
            mul, phi, x = self.known.mul, self.known_phi, 0
            for h in key:
                x = mul[x][phi[h]]
            return x in self.known.p
        result = True
        for i, h in enumerate(key):
            if i and key[i - 1] == h:
                continue
            rest = key[:i] + key[i + 1 :]
            for parts in self.options[h]:
                if self._is_p(self.canonical(rest + parts)):
                    result = False
                    break
            if not result:
                break
        if len(self.memo) >= self.max_positions:
            raise QuotientTooLarge(f"exact outcomes passed {self.max_positions} positions")
        self.memo[key] = result
        return result


def heap_options(options_of: Callable[[int], Sequence[Word]], n: int) -> list[list[Word]]:
    """Each heap's options ``0..n`` as sorted tuples of non-empty heaps."""
    return [[]] + [
        [tuple(sorted(x for x in parts if x)) for parts in options_of(h)] for h in range(1, n + 1)
    ]


class Builder:
    """Extends a partial quotient one heap at a time (see the module docstring)."""

    def __init__(
        self,
        options_of: Callable[[int], Sequence[Word]],
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_order: int = DEFAULT_MAX_ORDER,
    ) -> None:
        self.options_of = options_of
        self.options: list[list[Word]] = [[]]
        self.oracle = Outcomes(self.options, max_positions)
        self.max_order = max_order
        self.partial = Partial(Monoid(((0,),), frozenset()), [0], [], [1])
        self.images: list[frozenset[int]] = [frozenset()]
        self.suffixes: list[Word] = [()]

    @property
    def n(self) -> int:
        """Largest heap covered so far."""
        return len(self.partial.phi) - 1

    def step(self) -> None:
        """Add heap ``n + 1``; raises :class:`QuotientTooLarge` past the budget."""
        h = self.n + 1
        self.options.append([tuple(sorted(x for x in parts if x)) for parts in self.options_of(h)])
        part = self.partial
        mul = part.monoid.mul
        s = option_images(mul, part.phi, self.options[h])
        x = self._same_as_earlier(s) if s else 0
        if x is None:
            x = self._conservative(s)
        if x is not None:
            part.phi.append(x)
            self.images.append(s)
        else:
            if not self._extend_by_trials(h):
                self._learn(h)
            part.changes.append(h)
        part.orders.append(self.partial.monoid.order)
        self.oracle.use(self.partial.monoid, self.partial.phi)

    def _same_as_earlier(self, s: frozenset[int]) -> int | None:
        for j in range(1, len(self.images)):
            if self.images[j] == s:
                return self.partial.phi[j]
        return None

    def _conservative(self, s: frozenset[int]) -> int | None:
        monoid, phi = self.partial.monoid, self.partial.phi
        is_p = not any(y in monoid.p for y in s)
        for x in range(monoid.order):
            if (x in monoid.p) != is_p:
                continue
            if find_failure(monoid, [*phi, x], self.options) is None:
                return x
        return None

    def _extend_by_trials(self, h: int) -> bool:
        """Grow the quotient by recalibration, then by products with cyclic monoids (:mod:`nimproof.misere.trial`)."""
        try:
            got = extend_by_recalibration(
                self.partial.monoid, self.partial.phi, self.options, h, max_order=self.max_order
            )
        except TrialTooLarge as exc:
            raise QuotientTooLarge(str(exc)) from exc
        if got is None:
            got = extend(self.partial.monoid, self.partial.phi, self.options, h)
        if got is None:
            return False
        self.partial.monoid, self.partial.phi = got
        self.images = [option_images(got[0].mul, got[1], o) for o in self.options]
        return True

    def _learn(self, h: int) -> None:
        learner = _Learner(self.oracle, self.options, h, self.suffixes, self.max_order)
        monoid, phi = learner.run()
        self.suffixes = learner.suffixes
        self.partial.monoid, self.partial.phi = monoid, phi
        self.images = [option_images(monoid.mul, phi, opts) for opts in self.options]


class _Learner:
    """Learns the quotient of heaps ``1..n`` from exact outcomes, proving the result."""

    def __init__(
        self,
        oracle: Outcomes,
        options: Sequence[Sequence[Word]],
        n: int,
        suffixes: list[Word],
        max_order: int,
    ) -> None:
        self.oracle = oracle
        self.options = options
        self.letters = [h for h in range(1, n + 1) if options[h]]
        self.n = n
        self.suffixes = list(suffixes)
        self.max_order = max_order
        self.access: list[Word] = [()]
        self.rows: dict[tuple[bool, ...], int] = {}

    def row(self, word: Word) -> tuple[bool, ...]:
        return tuple(self.oracle.is_p(word + e) for e in self.suffixes)

    def run(self) -> tuple[Monoid, list[int]]:
        while True:
            table = self._close()
            if table is None:
                continue
            monoid, phi = table
            failure = find_failure(monoid, phi, self.options)
            if failure is None:
                return reduce(monoid, phi)
            self._add_counterexample(monoid, phi, failure)

    def _close(self) -> tuple[Monoid, list[int]] | None:
        """The hypothesis (a commutative table) or ``None`` after adding a distinguishing sum."""
        self.rows = {}
        access: list[Word] = []
        for w in self.access:
            r = self.row(w)
            if r not in self.rows:
                self.rows[r] = len(access)
                access.append(w)
        i = 0
        act: list[list[int]] = []
        while i < len(access):
            out = []
            for g in range(self.n + 1):
                w = tuple(sorted(access[i] + (g,))) if g and self.options[g] else access[i]
                r = self.row(w)
                if r not in self.rows:
                    self.rows[r] = len(access)
                    access.append(w)
                    if len(access) > self.max_order:
                        raise QuotientTooLarge(f"a candidate passed {self.max_order} elements")
                out.append(self.rows[r])
            act.append(out)
            i += 1
        self.access = access
        fix = self._commutation_defect(act)
        if fix is not None:
            self.suffixes.append(fix)
            return None
        mul = tuple(
            tuple(self._run(act, x, access[y]) for y in range(len(access)))
            for x in range(len(access))
        )
        p = frozenset(i for i, w in enumerate(access) if self.oracle.is_p(w))
        return Monoid(mul, p), [act[0][g] for g in range(self.n + 1)]

    @staticmethod
    def _run(act: list[list[int]], x: int, word: Word) -> int:
        for g in word:
            x = act[x][g]
        return x

    def _commutation_defect(self, act: list[list[int]]) -> Word | None:
        """A new distinguishing sum when two letters do not commute in the table, else ``None``."""
        for x, w in enumerate(self.access):
            for g in self.letters:
                for h in self.letters:
                    if h <= g or act[act[x][g]][h] == act[act[x][h]][g]:
                        continue
                    for first, second in ((g, h), (h, g)):
                        y = act[x][first]
                        true_row = self.row(tuple(sorted((*w, first, second))))
                        got = self.access[act[y][second]]
                        if self.row(got) != true_row:
                            # access[y] and w + first share a row but differ after ``second``.
                            return self._split(
                                tuple(sorted(self.access[y] + (second,))),
                                tuple(sorted((*w, first, second))),
                                second,
                            )
        return None

    def _split(self, a: Word, b: Word, letter: int) -> Word:
        for e in self.suffixes:
            if self.oracle.is_p(a + e) != self.oracle.is_p(b + e):
                return tuple(sorted((letter, *e)))
        raise AssertionError("rows differ but no suffix tells them apart")

    def _add_counterexample(self, monoid: Monoid, phi: list[int], failure: Word) -> None:
        """Add the suffixes of a mispredicted sum found at or next to ``failure``."""
        candidates = [failure]
        for i, h in enumerate(failure):
            rest = failure[:i] + failure[i + 1 :]
            candidates += [tuple(sorted(rest + parts)) for parts in self.options[h]]
        for w in candidates:
            predicted = monoid.product([phi[x] for x in w]) in monoid.p
            if predicted != self.oracle.is_p(w):
                for i in range(len(w) + 1):
                    if w[i:] not in self.suffixes:
                        self.suffixes.append(w[i:])
                return
        raise AssertionError(f"no mispredicted sum at or next to {failure}")
