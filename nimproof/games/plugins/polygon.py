"""The diagonal game on a convex polygon (seed 004, Zadanie 2: the 64th Polish olympiad).

Two players take turns drawing a diagonal of a convex ``n``-gon that has no
interior point and no endpoint in common with the diagonals already drawn;
the player who cannot draw one loses.

How a position is represented
-----------------------------
Call a vertex *free* when no diagonal ends at it. The drawn diagonals cut the
polygon into convex regions, and every free vertex lies on the boundary of
exactly one of them. A new diagonal joins two free vertices of one region
(a chord between two regions would cross the diagonal that separates them),
and the two must not be neighbours on the polygon (that segment is a side).
Inside a region, the free vertices form *runs*: maximal blocks of
consecutive polygon vertices. Two free vertices of a region are neighbours
on the polygon exactly when they are consecutive in one run, except in the
untouched polygon, whose single run closes on itself. So a region is
described completely by the cyclic sequence of its run lengths, and a
drawing by the collection of its regions:

* the untouched ``n``-gon is the ``int`` ``n``;
* any later position is a flat tuple of run lengths: the regions one after
  another, separated by a ``0`` (a run is never empty, so the separator is
  unambiguous). Each region is written in its least rotation or reflection
  (the game on a region is unchanged by turning or mirroring it) and the
  regions are sorted. Regions where no diagonal fits any more are left out,
  so the finished game is the empty tuple. After the diameter of an octagon,
  for instance, the position is ``(3, 0, 3)``: two regions of one run of
  three free vertices each.

Drawing a diagonal between free vertices ``u`` and ``v`` of a region splits
it into the region on each side of ``u v``; each side keeps the runs (or
parts of runs) strictly between ``u`` and ``v`` on that side.

:meth:`Polygon.moves` is the plain move generator the reference engine uses.
:func:`region_value` and :meth:`Polygon.fast_value` compute values region by
region, using the Sprague–Grundy theorem (the regions are independent
games); they reach larger polygons and are tested against the reference on
small ones.
The geometric definition (coordinates and segment crossings) that the
representation is tested against lives in the test suite.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache

from nimproof.errors import UsageError
from nimproof.games.base import PluginGame, Position, mex

Region = tuple[int, ...]

#: Largest polygon the plugin accepts (the game has at most n/2 moves).
MAX_SIDES = 100_000


def canonical_region(runs: Sequence[int]) -> Region:
    """The least rotation or reflection of a cyclic sequence of run lengths (zeros dropped)."""
    return _canonical(tuple(x for x in runs if x > 0))


@lru_cache(maxsize=1 << 18)
def _canonical(r: Region) -> Region:
    if not r:
        return ()
    variants = []
    for seq in (r, r[::-1]):
        for i in range(len(seq)):
            variants.append(seq[i:] + seq[:i])
    return min(variants)


def is_dead(region: Region) -> bool:
    """True when no diagonal fits in the region (under two free vertices, or two neighbours)."""
    return sum(region) < 2 or region == (2,)


def encode(regions: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The position of ``regions``: each canonical, dead ones dropped, sorted, 0-separated."""
    return _join(r for r in map(canonical_region, regions) if not is_dead(r))


def _join(live: Iterable[Region]) -> tuple[int, ...]:
    out: list[int] = []
    for region in sorted(live):
        if out:
            out.append(0)
        out.extend(region)
    return tuple(out)


def decode(position: Sequence[int]) -> list[Region]:
    """The regions of a position written as a flat 0-separated tuple."""
    regions: list[Region] = []
    current: list[int] = []
    for x in position:
        if x == 0:
            regions.append(tuple(current))
            current = []
        else:
            current.append(x)
    if current:
        regions.append(tuple(current))
    return regions


def first_diagonals(n: int) -> Iterator[tuple[Region, Region]]:
    """The two sides left by each first diagonal of the untouched ``n``-gon.

    By rotation every first diagonal is some ``(0, d)``, ``2 <= d <= n - 2``;
    it leaves ``d - 1`` free vertices on one side and ``n - d - 1`` on the other.
    """
    for d in range(2, n - 1):
        yield (d - 1,), (n - d - 1,)


def region_splits(region: Region) -> Iterator[tuple[Region, Region]]:
    """For each diagonal inside ``region``, the run lengths left on its two sides (not canonical).

    Free vertices are numbered along the region's boundary: run ``i``,
    offset ``p``. A diagonal joins ``(i, p)`` and ``(j, q)``, taken in that
    order along the boundary, unless they are consecutive in one run.
    """
    k = len(region)
    for i in range(k):
        for p in range(region[i]):
            for j in range(i, k):
                for q in range(p + 2 if j == i else 0, region[j]):
                    if j == i:
                        inner: list[int] = [q - p - 1]
                        outer = [region[i] - q - 1, *region[i + 1 :], *region[:i], p]
                    else:
                        inner = [region[i] - p - 1, *region[i + 1 : j], q]
                        outer = [region[j] - q - 1, *region[j + 1 :], *region[:i], p]
                    yield tuple(inner), tuple(outer)


class Polygon(PluginGame):
    """Positions: the ``int`` ``n`` (untouched ``n``-gon) or a flat 0-separated tuple of regions."""

    name = "polygon"
    summary = (
        "a convex n-gon; players take turns drawing diagonals that share no point with earlier ones"
    )
    example_position = "12"

    def moves(self, position: Position) -> Iterator[Position]:
        if isinstance(position, int):
            for a, b in first_diagonals(position):
                yield encode([a, b])
            return
        regions = decode(position)  # type: ignore[arg-type]
        for idx, region in enumerate(regions):
            rest = regions[:idx] + regions[idx + 1 :]
            for new in _region_moves(region):
                yield _join([*rest, *new])

    def parse_position(self, words: Sequence[str]) -> Position:
        (n,) = self.numbers(words, "a polygon position is its number of sides, e.g. 12", 1)
        if not 3 <= n <= MAX_SIDES:
            raise UsageError(f"a polygon needs between 3 and {MAX_SIDES} sides, got {n}")
        return n

    def positions(self, bound: int) -> Iterator[Position]:
        """The untouched polygons with 3 to ``bound`` sides."""
        yield from range(3, bound + 1)

    @staticmethod
    def fast_value(position: Position) -> int:
        """Grundy value of a position, region by region (Sprague–Grundy: regions are independent).

        Equal to :func:`nimproof.engines.reference.value` (tested on small
        polygons) and much faster, because each region is solved once.
        """
        if isinstance(position, int):
            return mex(region_value(a) ^ region_value(b) for a, b in first_diagonals(position))
        out = 0
        for region in decode(position):  # type: ignore[arg-type]
            out ^= region_value(region)
        return out


@lru_cache(maxsize=1 << 16)
def _region_moves(region: Region) -> tuple[tuple[Region, ...], ...]:
    """The distinct live regions left by each diagonal inside a canonical region."""
    out: set[tuple[Region, ...]] = set()
    for a, b in region_splits(region):
        out.add(
            tuple(sorted(r for r in (canonical_region(a), canonical_region(b)) if not is_dead(r)))
        )
    return tuple(sorted(out))


def region_value(region: Sequence[int]) -> int:
    """Grundy value of one region given by its cyclic run lengths (memoised)."""
    return _region_value(canonical_region(region))


@cache
def _region_value(region: Region) -> int:
    if is_dead(region):
        return 0
    values = []
    for new in _region_moves(region):
        v = 0
        for r in new:
            v ^= _region_value(r)
        values.append(v)
    return mex(values)
