"""The misère quotient of a take-and-break game: heap by heap, periodicity, notation, outcomes of sums.

:func:`misere_quotient` builds the partial quotients of the heaps ``<= n`` for
``n = 1, 2, ...`` (:mod:`nimproof.misere.construct`; each one proved for
every sum of heaps ``<= n``) until the heap map is periodic over the window
the periodicity theorem for quotients needs, or a bound or budget is met.

**Periodicity theorem for misère quotients** (Plambeck and Siegel, JCTA 2008;
docs/misere.md states it with a proof): for an octal game (digits below 8,
none before the point) whose last non-zero digit has index ``t``, if the
partial quotient of the heaps ``<= N`` with ``N = 2 n0 + 2 p + t - 1`` maps
heap ``n + p`` to the same element as heap ``n`` for every
``n0 <= n <= N - p``, then it is the quotient of the whole game, and the
heap map has that period from ``n0`` on, for every heap. For other
take-and-break codes (a move may leave three heaps, or split a heap without
removing tokens) the same holds with the longer window
``N = k max(n0, 1) + k p + t - 1``, ``k`` the most heaps a move leaves
(:class:`TheoremWindow`; proved in docs/misere.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nimproof.errors import UsageError
from nimproof.games.registry import parse_spec
from nimproof.misere.construct import Builder, QuotientTooLarge
from nimproof.misere.monoid import Monoid

#: Largest heap bound a quotient computation accepts.
MAX_HEAP = 5000

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass
class MisereQuotient:
    """A misère quotient of the sums of heaps ``<= heaps`` of one game (proved there).

    ``period`` is ``(n0, p)`` when the heap map looks periodic from ``n0`` to the
    last heap; ``proved_all`` says the periodicity theorem carries it (and the
    quotient) to every heap size. ``stopped`` says why the computation ended.
    """

    spec: str
    monoid: Monoid
    phi: list[int]
    orders: list[int]
    changes: list[int]
    period: tuple[int, int] | None
    proved_all: bool
    window: int | None
    stopped: str
    seconds: float
    generators: list[int] = field(default_factory=list)
    normal_forms: list[tuple[int, ...]] = field(default_factory=list)
    relations: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)

    @property
    def heaps(self) -> int:
        """Largest heap the quotient covers exactly."""
        return len(self.phi) - 1

    @property
    def order(self) -> int:
        """Number of elements."""
        return self.monoid.order

    @property
    def p_portion(self) -> list[int]:
        """The elements whose positions are misère P-positions, in element order."""
        return sorted(self.monoid.p)

    def element(self, heap: int) -> int:
        """The element of one heap: exact up to :attr:`heaps`, by the proved period beyond."""
        why = "not proved periodic"
        return heap_element(
            self.phi, self.period if self.proved_all else None, heap, self.spec, why
        )

    def is_p(self, heaps: Sequence[int]) -> bool:
        """True when the sum of these heaps is a misère P-position (read from the quotient)."""
        return self.monoid.product([self.element(h) for h in heaps]) in self.monoid.p

    def name(self, x: int) -> str:
        """An element in the literature's notation: a product of generator powers, ``1`` for none."""
        return word_text(self.normal_forms[x])

    def presentation(self) -> str:
        """``<a, b | a^2 = 1, ...>`` (generators, then the relations of the normal forms)."""
        gens = ", ".join(letter(i) for i in range(len(self.generators)))
        rels = ", ".join(f"{word_text(lhs)} = {word_text(rhs)}" for lhs, rhs in self.relations)
        return f"⟨{gens} | {rels}⟩" if rels else f"⟨{gens}⟩"

    def to_json(self) -> dict[str, Any]:
        """Everything shown, by name (elements by their normal forms)."""
        return {
            "game": self.spec,
            "heaps": self.heaps,
            "order": self.order,
            "p_portion": [self.name(x) for x in self.p_portion],
            "generators": {letter(i): h for i, h in enumerate(self.generators)},
            "presentation": self.presentation(),
            "heap_map": [self.name(x) for x in self.phi],
            "orders": self.orders,
            "changes": self.changes,
            "period": list(self.period) if self.period else None,
            "proved_all_heaps": self.proved_all,
            "theorem_window": self.window,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
        }


def heap_element(
    phi: Sequence[int], period: tuple[int, int] | None, heap: int, what: str, why: str
) -> int:
    """``phi[heap]`` within the computed heaps, through a *proved* ``period`` beyond them.

    ``period`` must be ``None`` unless the periodicity theorem proved it; a heap
    beyond the computed ones is then refused (:class:`UsageError` naming
    ``what`` and ``why``).
    """
    if heap < 0:
        raise UsageError(f"a heap size must not be negative, got {heap}")
    if heap < len(phi):
        return phi[heap]
    if period is None:
        raise UsageError(
            f"the quotient of {what} is known only for heaps <= {len(phi) - 1} "
            f"({why}); heap {heap} is beyond it"
        )
    n0, p = period
    return phi[n0 + (heap - n0) % p]


def letter(i: int) -> str:
    """The name of generator ``i``: a, b, ..., z, then g26, g27, ..."""
    return chr(ord("a") + i) if i < 26 else f"g{i}"


def word_text(exponents: Sequence[int]) -> str:
    """``a b^2`` written as ``ab²``; ``1`` for the empty product."""
    parts = [
        letter(i) + (str(e).translate(_SUPERSCRIPT) if e > 1 else "")
        for i, e in enumerate(exponents)
        if e
    ]
    return "".join(parts) or "1"


@dataclass(frozen=True)
class TheoremWindow:
    """How far the periodicity theorem for quotients must see, for one take-and-break code.

    ``t`` is the index of the last non-zero digit, ``parts`` the most heaps a
    move leaves, ``octal`` whether every digit is below 8 with none before the
    point (the sharper window of Plambeck and Siegel). docs/misere.md states
    both windows with their proofs.
    """

    t: int
    parts: int
    octal: bool

    def last_heap(self, n0: int, p: int) -> int:
        """The theorem's last heap for a period ``p`` from heap ``n0``.

        Octal: ``2 n0 + 2 p + t - 1``. Otherwise (a move leaves up to ``k =
        parts`` heaps, or splits without removing): ``k max(n0, 1) + k p + t - 1``.
        """
        if self.octal:
            return 2 * n0 + 2 * p + self.t - 1
        k = self.parts
        return k * max(n0, 1) + k * p + self.t - 1


def theorem_digits(digits: Sequence[int] | None) -> TheoremWindow | None:
    """The periodicity theorem's window for a take-and-break code, ``None`` for other rules.

    Digits are 4-bit (bit ``2^j``: the move may leave ``j`` non-empty heaps);
    the digit before the point may use only the splitting bits 4 and 8.
    """
    if not digits or digits[0] & 0b0011 or any(d > 15 or d < 0 for d in digits):
        return None
    parts = max((j for d in digits for j in range(4) if d >> j & 1), default=0)
    octal = digits[0] == 0 and all(d < 8 for d in digits)
    t = max(k for k, d in enumerate(digits) if d)
    return TheoremWindow(t, max(parts, 1), octal)


def find_period(
    phi: Sequence[int], rule: TheoremWindow | None
) -> tuple[tuple[int, int] | None, int | None]:
    """The period ``(n0, p)`` of the heap map with the least ``n0 + p`` (then least ``p``).

    Only a period seen at least twice over is returned. The second value is the
    theorem's last heap (:meth:`TheoremWindow.last_heap`) when ``phi`` reaches
    it (then the period is proved), else ``None``.
    """
    n = len(phi) - 1
    for total in range(2, n + 1):
        for p in range(1, total):
            n0 = total - p
            if n - n0 + 1 < 2 * p:
                continue
            if all(phi[k + p] == phi[k] for k in range(n0, n - p + 1)):
                end = rule.last_heap(n0, p) if rule is not None else None
                return (n0, p), (end if end is not None and n >= end else None)
    return None, None


def heap_rules(spec: str, max_heap: int) -> tuple[Callable[[int], Any], TheoremWindow | None]:
    """The one-heap options of ``spec`` and the periodicity theorem's window (``None``: no theorem).

    Refuses (:class:`UsageError`) a heap bound outside ``1..MAX_HEAP`` and a
    game without one-heap rules.
    """
    if not 1 <= max_heap <= MAX_HEAP:
        raise UsageError(f"the heap bound must be between 1 and {MAX_HEAP}, got {max_heap}")
    game = parse_spec(spec)
    base = game.normal if game.misere else game
    options = getattr(base, "options", None)
    if options is None:
        raise UsageError(f"{spec}: misère quotients are computed for one-heap rules (octal codes)")
    return options, theorem_digits(getattr(base.moves_spec, "digits", None))


def misere_quotient(
    spec: str,
    max_heap: int = 200,
    *,
    max_positions: int = 3_000_000,
    max_order: int = 2000,
    progress: Callable[[int, int], None] | None = None,
) -> MisereQuotient:
    """The misère quotient of ``spec`` (a take-and-break game), heap by heap up to ``max_heap``.

    Stops early when the periodicity theorem proves the quotient for every
    heap. Every partial quotient returned is proved for all sums of heaps up to
    its bound. ``progress(heap, order)`` is called after each heap.
    """
    options, t = heap_rules(spec, max_heap)
    builder = Builder(lambda h: list(options(h)), max_positions=max_positions, max_order=max_order)
    start = time.monotonic()
    stopped = f"heap bound {max_heap} reached"
    period, window = None, None
    while builder.n < max_heap:
        try:
            builder.step()
        except (QuotientTooLarge, OverflowError) as exc:
            stopped = f"budget reached at heap {builder.n + 1}: {exc}"
            break
        if progress is not None:
            progress(builder.n, builder.partial.monoid.order)
        period, window = find_period(builder.partial.phi, t)
        if window is not None:
            stopped = "periodicity theorem: proved for every heap"
            break
    part = builder.partial
    out = MisereQuotient(
        spec=spec,
        monoid=part.monoid,
        phi=list(part.phi),
        orders=list(part.orders),
        changes=list(part.changes),
        period=period,
        proved_all=window is not None,
        window=window,
        stopped=stopped,
        seconds=time.monotonic() - start,
    )
    _name_elements(out)
    return out


def _name_elements(q: MisereQuotient) -> None:
    """Generators (heaps not generated by smaller ones), graded normal forms and relations."""
    mul = q.monoid.mul
    seen = {0}
    for h in range(1, len(q.phi)):
        x = q.phi[h]
        if x not in seen:
            q.generators.append(h)
            frontier = list(seen)
            while frontier:
                y = frontier.pop()
                for z in (mul[y][x], *(mul[y][q.phi[g]] for g in q.generators)):
                    if z not in seen:
                        seen.add(z)
                        frontier.append(z)
    gens = [q.phi[h] for h in q.generators]
    k = len(gens)
    nf: dict[int, tuple[int, ...]] = {0: (0,) * k}
    normal = {(0,) * k}
    level = [(0,) * k]
    while level:
        nxt = sorted(
            {tuple(e + (i == j) for j, e in enumerate(w)) for w in level for i in range(k)},
            key=_key,
        )
        level = []
        for w in nxt:
            x = _value(mul, gens, w)
            if x in nf:
                if all(_is_nf(normal, w, i) for i in range(k) if w[i]):
                    q.relations.append((w, nf[x]))
            else:
                nf[x] = w
                normal.add(w)
                level.append(w)
    q.normal_forms = [nf[x] for x in range(q.monoid.order)]
    q.relations.sort(key=lambda r: _key(r[0]))


def _key(w: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (sum(w), tuple(-e for e in w))


def _value(mul: tuple[tuple[int, ...], ...], gens: list[int], w: tuple[int, ...]) -> int:
    x = 0
    for g, e in zip(gens, w, strict=True):
        for _ in range(e):
            x = mul[x][g]
    return x


def _is_nf(normal: set[tuple[int, ...]], w: tuple[int, ...], i: int) -> bool:
    return tuple(e - (j == i) for j, e in enumerate(w)) in normal
