"""Misère nim-values of single heaps for every heap size, from a misère quotient joined with nim heaps.

The misère nim-value ``g(X)`` of a position (1 when ``X`` has no move, else
the mex of its options' values; CGSuite's ``MisereNimValue``) is not additive,
so a heap's value needs the values of sums of smaller heaps, and the exact
evaluation of whole positions is limited by the number of such sums
(:func:`nimproof.engines.heap.misere_split_limit`). This module uses instead:

**Lemma** (docs/misere.md, "Misère nim-values from a quotient"). For every
impartial game ``X`` and every ``k >= 0``, ``X + *k`` is a misère P-position
if and only if ``g(X) = k``.

So ``g(heap n)`` is the ``k`` for which ``heap n + *k`` lies in the P-portion
of the misère quotient of the game *joined with the nim heaps* ``*1..*K``
(sums of game heaps and nim heaps). That quotient is built heap by heap by the
same construction as :func:`nimproof.misere.quotient.misere_quotient` (nim
heaps first, then the game's heaps), each partial quotient proved for every
sum; when the game heaps' map is periodic over the window of the periodicity
theorem, it holds for every heap, and so does the value. A heap whose value is
above ``K`` is reported as such, never guessed (the lemma then proves
``g >= K + 1``). For Kayles, ``K = 3`` already gives a quotient proved for every
heap (heaps 1, 2, 3 are the games ``*1``, ``*2``, ``*3``), so every value up to 3
is decided at every heap; docs/misere.md, "Misère nim-values", says where each
seed's code stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from nimproof.errors import UsageError
from nimproof.misere.construct import Builder, QuotientTooLarge
from nimproof.misere.monoid import Monoid, Word
from nimproof.misere.quotient import find_period, heap_element, heap_rules

#: Most nim heaps a joined quotient may include.
MAX_NIM_HEAPS = 16


@dataclass
class MisereValues:
    """Misère nim-values of single heaps of ``spec``, read from a proved joined quotient."""

    spec: str
    nim_heaps: int
    monoid: Monoid
    #: Elements of the nim heaps ``*0..*K`` (index ``k``) and of the game's heaps ``0..heaps``.
    nim_phi: list[int]
    heap_phi: list[int]
    period: tuple[int, int] | None
    proved_all: bool
    stopped: str

    @property
    def heaps(self) -> int:
        """Largest game heap the joined quotient covers exactly."""
        return len(self.heap_phi) - 1

    def element(self, n: int) -> int:
        """Element of game heap ``n``: exact up to :attr:`heaps`, through the proved period beyond."""
        period = self.period if self.proved_all else None
        return heap_element(
            self.heap_phi, period, n, f"{self.spec} joined with nim heaps", self.stopped
        )

    def value(self, n: int) -> int:
        """The misère nim-value of heap ``n`` (the lemma in the module docstring).

        Raises :class:`UsageError` beyond the proved heaps, or when the value is
        above the nim heaps joined (it is then not decided here).
        """
        x = self.element(n)
        mul, p = self.monoid.mul, self.monoid.p
        for k, y in enumerate(self.nim_phi):
            if mul[x][y] in p:
                return k
        raise UsageError(
            f"the misère nim-value of heap {n} of {self.spec} is above {self.nim_heaps}, "
            f"the largest nim heap joined to the quotient"
        )

    def values(self, n_max: int) -> list[int]:
        """Values of heaps ``0..n_max`` (see :meth:`value`)."""
        return [self.value(n) for n in range(n_max + 1)]


def misere_values(
    spec: str,
    nim_heaps: int = 4,
    max_heap: int = 400,
    *,
    max_positions: int = 300_000,
    max_order: int = 2000,
) -> MisereValues:
    """Misère nim-values of ``spec``'s heaps from the quotient joined with ``*1..*nim_heaps``.

    Builds the joined quotient heap by heap (game heaps up to ``max_heap``) until
    the periodicity theorem proves the game heaps' map for every heap, or a
    bound or budget stops it (``stopped`` says which and where).
    """
    if not 1 <= nim_heaps <= MAX_NIM_HEAPS:
        raise UsageError(f"the nim heaps joined must be 1..{MAX_NIM_HEAPS}, got {nim_heaps}")
    options, t = heap_rules(spec, max_heap)
    k = nim_heaps

    def joined(h: int) -> list[Word]:
        if h <= k:  # the nim heap *h: its options are *0..*(h-1)
            return [(j,) if j else () for j in range(h)]
        return [tuple(k + x for x in parts if x) for parts in options(h - k)]

    builder = Builder(joined, max_positions=max_positions, max_order=max_order)
    stopped = f"heap bound {max_heap} reached"
    period, window = None, None
    while builder.n < k + max_heap:
        try:
            builder.step()
        except (QuotientTooLarge, OverflowError) as exc:
            stopped = f"budget reached at heap {builder.n - k + 1}: {exc}"
            break
        if builder.n > k:
            period, window = find_period([0, *builder.partial.phi[k + 1 :]], t)
            if window is not None:
                stopped = "periodicity theorem: proved for every heap"
                break
    phi = builder.partial.phi
    return MisereValues(
        spec=spec,
        nim_heaps=k,
        monoid=builder.partial.monoid,
        nim_phi=list(phi[: k + 1]),
        heap_phi=[0, *phi[k + 1 :]],
        period=period,
        proved_all=window is not None,
        stopped=stopped,
    )
