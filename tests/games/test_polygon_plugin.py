"""plugin:polygon (seed 004, Zadanie 2) against a geometric brute force.

The brute force knows nothing of runs or regions: a position is the set of
diagonals drawn so far, and a diagonal is legal when it is not a side, shares
no endpoint with a drawn diagonal and does not meet one (segment
intersection with the vertices of a regular polygon as coordinates). Each
brute-force position is mapped to the plugin's representation by walking the
faces of the drawing, and the two move generators must commute with that map.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from functools import cache

import pytest

from nimproof.engines import reference
from nimproof.errors import UsageError
from nimproof.games import mex, parse_spec
from nimproof.games.plugins.polygon import Polygon

Diagonal = tuple[int, int]
Drawing = frozenset[Diagonal]


@cache
def _points(n: int) -> list[tuple[float, float]]:
    return [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]


def _orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)


def _on_segment(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> bool:
    return (
        min(a[0], b[0]) - 1e-12 <= p[0] <= max(a[0], b[0]) + 1e-12
        and min(a[1], b[1]) - 1e-12 <= p[1] <= max(a[1], b[1]) + 1e-12
    )


def _meet(pts: list[tuple[float, float]], d: Diagonal, e: Diagonal) -> bool:
    """True when the closed segments of two diagonals have a common point."""
    a, b, c, f = pts[d[0]], pts[d[1]], pts[e[0]], pts[e[1]]
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, f), _orient(c, f, a), _orient(c, f, b)
    if o1 != o2 and o3 != o4:
        return True
    return any(
        o == 0 and _on_segment(s, t, p)
        for o, s, t, p in ((o1, a, b, c), (o2, a, b, f), (o3, c, f, a), (o4, c, f, b))
    )


def _legal(n: int, drawing: Drawing, d: Diagonal) -> bool:
    i, j = d
    if (j - i) % n in (1, n - 1):  # a side, not a diagonal
        return False
    used = {v for e in drawing for v in e}
    if i in used or j in used:
        return False
    pts = _points(n)
    return not any(_meet(pts, d, e) for e in drawing)


def _brute_moves(n: int, drawing: Drawing) -> Iterator[Drawing]:
    used = {v for e in drawing for v in e}
    free = [v for v in range(n) if v not in used]
    for a, i in enumerate(free):
        for j in free[a + 1 :]:
            if _legal(n, drawing, (i, j)):
                yield drawing | {(i, j)}


def _canonical(runs: tuple[int, ...]) -> tuple[int, ...]:
    forms = [seq[k:] + seq[:k] for seq in (runs, runs[::-1]) for k in range(len(runs))]
    return min(forms)


def _abstract(n: int, drawing: Drawing) -> object:
    """The plugin's position for a drawing: faces walked around, free vertices cut into runs."""
    if not drawing:
        return n
    partner = {}
    for i, j in drawing:
        partner[i], partner[j] = j, i
    sides_done: set[int] = set()  # side v -> v+1 already walked
    regions = []
    for start in range(n):
        if start in sides_done:
            continue
        # Walk the face that has the side start -> start+1 on its boundary: along sides, and
        # along a diagonal whenever a side ends at one of its endpoints.
        face, v = [], start
        while True:
            face.append(v)
            sides_done.add(v)
            w = (v + 1) % n
            if w in partner:
                face.append(w)
                w = partner[w]
            if w == start:
                break
            v = w
        free = [v for v in face if v not in partner]
        if not any(_legal(n, drawing, (min(a, b), max(a, b))) for a in free for b in free if a < b):
            continue  # no diagonal fits in this face
        # maximal blocks of consecutive free vertices along the face boundary
        k = next(i for i, v in enumerate(face) if v in partner)
        rotated = face[k:] + face[:k]
        runs, length = [], 0
        for v in rotated:
            if v in partner:
                if length:
                    runs.append(length)
                length = 0
            else:
                length += 1
        if length:
            runs.append(length)
        regions.append(_canonical(tuple(runs)))
    out: list[int] = []
    for region in sorted(regions):
        out.extend(([0] if out else []) + list(region))
    return tuple(out)


def _reachable(n: int) -> list[Drawing]:
    todo: list[Drawing] = [frozenset()]
    seen: set[Drawing] = {frozenset()}
    while todo:
        d = todo.pop()
        for e in _brute_moves(n, d):
            if e not in seen:
                seen.add(e)
                todo.append(e)
    return sorted(seen, key=lambda s: (len(s), sorted(s)))


@pytest.mark.parametrize("n", [*range(4, 13), pytest.param(13, marks=pytest.mark.slow)])
def test_polygon_moves_commute_with_the_geometric_brute_force(n: int) -> None:
    game = Polygon()
    for drawing in _reachable(n):
        expected = {_abstract(n, after) for after in _brute_moves(n, drawing)}
        assert set(game.moves(_abstract(n, drawing))) == expected, (n, sorted(drawing))


@pytest.mark.parametrize("n", [16, 20, 24])
def test_polygon_moves_commute_along_random_games_on_larger_polygons(n: int) -> None:
    # Regions with four or more runs (where the cyclic order of runs matters) need at least
    # 14 sides. Random games that mostly cut off one or two vertices with a short diagonal
    # leave a large central region with many runs.
    game = Polygon()
    rng = random.Random(n)
    for _ in range(20):
        drawing: Drawing = frozenset()
        while True:
            after = list(_brute_moves(n, drawing))
            assert set(game.moves(_abstract(n, drawing))) == {_abstract(n, e) for e in after}, (
                sorted(drawing)
            )
            if not after:
                break
            short = [
                e
                for e in after
                if min((j - i) % n for d in e - drawing for i, j in [d, d[::-1]]) <= 3
            ]
            drawing = rng.choice(short if short and rng.random() < 0.8 else after)


@pytest.mark.parametrize("n", range(3, 11))
def test_polygon_values_match_the_geometric_brute_force(n: int) -> None:
    @cache
    def brute(drawing: Drawing) -> int:
        return mex(brute(e) for e in _brute_moves(n, drawing))

    assert reference.value(Polygon(), n) == brute(frozenset())


def test_region_by_region_values_match_the_reference_up_to_24_sides() -> None:
    game = Polygon()
    cache_: dict = {}
    assert [Polygon.fast_value(n) for n in range(3, 25)] == [
        reference.value(game, n, cache_) for n in range(3, 25)
    ]


def test_polygon_is_registered_and_parses_its_positions() -> None:
    game = parse_spec("plugin:polygon")
    assert isinstance(game, Polygon)
    assert game.parse_position(["12"]) == 12
    assert list(game.positions(5)) == [3, 4, 5]
    with pytest.raises(UsageError):
        game.parse_position(["2"])
    with pytest.raises(UsageError):
        game.parse_position(["twelve"])


def test_a_diameter_of_the_octagon_leaves_two_regions_of_three_free_vertices() -> None:
    assert (3, 0, 3) in set(Polygon().moves(8))
    assert _abstract(8, frozenset({(0, 4)})) == (3, 0, 3)
