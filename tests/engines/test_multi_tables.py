"""Multi-heap tables against the reference, and against the theorems of the seed texts."""

from __future__ import annotations

from functools import reduce
from itertools import product
from operator import xor

import numpy as np
import pytest

from nimproof.engines import box_table, grundy_table, multi_table, reference
from nimproof.engines.multi import MAX_CELLS, resolve_method
from nimproof.errors import UsageError
from nimproof.games import Game, parse_spec


def _reference_box(game: Game, heaps: int, side: int, sum_form: bool = False) -> np.ndarray:
    cache: dict[object, int] = {}
    out = np.zeros((side + 1,) * heaps, dtype=np.int64)
    for pos in product(range(side + 1), repeat=heaps):
        key: object = tuple((h,) if h else () for h in pos) if sum_form else pos
        out[pos] = reference.value(game, key, cache)
    return out


@pytest.mark.parametrize(
    ("spec", "heaps", "side"),
    [("moore:1", 3, 5), ("moore:2", 3, 5), ("moore:2", 4, 3), ("moore:3", 4, 3), ("moore:4", 3, 4)],
)
def test_moore_sieve_p_positions_match_reference(spec: str, heaps: int, side: int) -> None:
    game = parse_spec(spec)
    table = multi_table(game, heaps, side)
    assert table.kind == "outcome" and table.values is None and table.engine == "moore-sieve"
    assert np.array_equal(table.p_positions, _reference_box(game, heaps, side) == 0)


@pytest.mark.parametrize(
    ("spec", "heaps", "side"), [("moore:2", 3, 4), ("misere:moore:2", 3, 4), ("moore:1", 2, 6)]
)
def test_moore_direct_grundy_values_match_reference(spec: str, heaps: int, side: int) -> None:
    game = parse_spec(spec)
    table = multi_table(game, heaps, side, method="direct")
    assert table.values is not None
    assert np.array_equal(table.values, _reference_box(game, heaps, side))


@pytest.mark.parametrize(("k", "heaps", "side"), [(1, 3, 31), (2, 3, 63), (3, 4, 15), (2, 4, 15)])
def test_moore_sieve_matches_moores_theorem(k: int, heaps: int, side: int) -> None:
    # Seeds 001 and 002: P iff for every bit, the number of heaps with that bit set is 0 mod k+1.
    table = multi_table(parse_spec(f"moore:{k}"), heaps, side)
    grid = np.indices((side + 1,) * heaps)
    expected = np.ones((side + 1,) * heaps, dtype=bool)
    for bit in range(side.bit_length()):
        expected &= ((grid >> bit) & 1).sum(axis=0) % (k + 1) == 0
    assert np.array_equal(table.p_positions, expected)


def test_misere_moore_sieve_matches_reference() -> None:
    game = parse_spec("misere:moore:2")
    table = multi_table(game, 3, 4)
    assert np.array_equal(table.p_positions, _reference_box(game, 3, 4) == 0)


@pytest.mark.parametrize(
    ("spec", "heaps", "side"),
    [("staircase", 2, 6), ("staircase", 3, 4), ("staircase", 4, 2), ("misere:staircase", 3, 3)],
)
def test_staircase_values_match_reference(spec: str, heaps: int, side: int) -> None:
    game = parse_spec(spec)
    table = multi_table(game, heaps, side)
    assert table.values is not None
    assert np.array_equal(table.values, _reference_box(game, heaps, side))


@pytest.mark.parametrize("heaps", [2, 3, 4])
def test_staircase_p_positions_match_seed_004_theorem_3(heaps: int) -> None:
    # P iff the xor of the piles on odd stairs (stair 1 next to the floor) is 0.
    side = {2: 31, 3: 15, 4: 7}[heaps]
    table = multi_table(parse_spec("staircase"), heaps, side)
    grid = np.indices((side + 1,) * heaps)
    odd = reduce(xor, [grid[i] for i in range(0, heaps, 2)])
    assert np.array_equal(table.p_positions, odd == 0)


@pytest.mark.parametrize(
    ("spec", "heaps", "side"),
    [
        ("misere:nim", 3, 5),
        ("misere:knim:2", 3, 6),
        ("misere:subtraction:2,3", 2, 12),
        ("misere:half-heap", 3, 6),
        ("misere:rule:m < n and (n - m) % 2 == 1", 2, 10),
        ("misere:subtraction:3", 2, 8),
    ],
)
def test_misere_boxes_match_reference(spec: str, heaps: int, side: int) -> None:
    game = parse_spec(spec)
    table = multi_table(game, heaps, side)
    assert table.engine == "direct-mex" and table.values is not None
    assert np.array_equal(table.values, _reference_box(game, heaps, side))


def test_misere_nim_matches_seed_004_theorem_4() -> None:
    # Misère Nim: as normal Nim, except when every heap is 0 or 1 (then P iff an odd count of 1s).
    side = 31
    table = multi_table(parse_spec("misere:nim"), 3, side)
    grid = np.indices((side + 1,) * 3)
    small = (grid <= 1).all(axis=0)
    expected = np.where(small, grid.sum(axis=0) % 2 == 1, (grid[0] ^ grid[1] ^ grid[2]) == 0)
    assert np.array_equal(table.p_positions, expected)


@pytest.mark.parametrize(
    ("spec", "heaps", "side"),
    [
        ("nim", 3, 5),
        ("knim:3", 2, 12),
        ("half-heap", 3, 6),
        ("subtraction:primes", 2, 12),
        ("rule:m*m < n", 2, 12),
    ],
)
def test_heap_sums_by_sprague_grundy_and_by_direct_mex_agree_with_reference(
    spec: str, heaps: int, side: int
) -> None:
    game = parse_spec(spec)
    by_xor = multi_table(game, heaps, side)
    direct = multi_table(game, heaps, side, method="direct")
    assert by_xor.engine == "xor-of-heap-tables" and direct.engine == "direct-mex"
    expected = _reference_box(game, heaps, side)
    assert by_xor.values is not None and direct.values is not None
    assert np.array_equal(by_xor.values, expected)
    assert np.array_equal(direct.values, expected)


def test_sum_of_splitting_heaps_by_xor_matches_joint_reference() -> None:
    game = parse_spec("kayles")
    assert np.array_equal(multi_table(game, 2, 8).values, _reference_box(game, 2, 8))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec",
    [
        "sum:knim:3+half-heap",
        "sum:nim+(rule:m*m < n)+subtraction:1,3,4",
        "misere:sum:knim:2+half-heap",
    ],
)
def test_sums_of_different_families_match_reference(spec: str) -> None:
    game = parse_spec(spec)
    heaps = spec.count("+") + 1
    side = 6 if heaps == 3 else 10
    table = multi_table(game, heaps, side)
    assert table.values is not None
    assert np.array_equal(table.values, _reference_box(game, heaps, side, sum_form=True))
    if not game.misere:
        assert np.array_equal(multi_table(game, heaps, side, method="xor").values, table.values)  # type: ignore[arg-type]


def test_sum_with_a_splitting_component_uses_sprague_grundy_and_matches_reference() -> None:
    game = parse_spec("sum:knim:3+kayles")
    table = multi_table(game, 2, 7)
    assert table.engine == "xor-of-heap-tables"
    assert np.array_equal(table.values, _reference_box(game, 2, 7, sum_form=True))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="splits"):
        multi_table(game, 2, 7, method="direct")


def test_box_with_unequal_sides_matches_the_cube() -> None:
    game = parse_spec("misere:knim:2")
    cube = multi_table(game, 2, 9)
    box = box_table(game, np.array([4, 10]))
    assert box.values is not None and cube.values is not None
    assert np.array_equal(box.values, cube.values[:4, :])


def test_xor_table_is_built_from_the_single_heap_table() -> None:
    game = parse_spec("dawsons-kayles")
    g = grundy_table(game, 20)
    table = multi_table(game, 2, 20)
    assert np.array_equal(table.values, g[:, None] ^ g[None, :])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "method"),
    [
        ("misere:nim", "xor"),
        ("staircase", "sieve"),
        ("moore:2", "xor"),
        ("nim", "sieve"),
        ("nim", "bogus"),
    ],
)
def test_methods_that_do_not_apply_are_usage_errors(spec: str, method: str) -> None:
    with pytest.raises(UsageError):
        multi_table(parse_spec(spec), 2, 3, method=method)


def test_auto_method_resolves_per_family() -> None:
    assert resolve_method(parse_spec("moore:2"), 3) == "sieve"
    assert resolve_method(parse_spec("nim"), 3) == "xor"
    assert resolve_method(parse_spec("misere:nim"), 3) == "direct"
    assert resolve_method(parse_spec("sum:nim+knim:2"), 2) == "direct"
    assert resolve_method(parse_spec("sum:nim+kayles"), 2) == "xor"


@pytest.mark.parametrize(
    ("spec", "heaps", "side"),
    [
        ("moore:2", 20, 3),
        ("nim", 3, 10**6),
        ("sum:nim+kayles", 3, 3),
        ("plugin:chocolate", 2, 3),
        ("misere:kayles", 2, 3),
        ("nim", 0, 3),
        ("nim", 2, -1),
    ],
)
def test_bad_or_oversized_boxes_are_usage_errors(spec: str, heaps: int, side: int) -> None:
    with pytest.raises(UsageError):
        multi_table(parse_spec(spec), heaps, side)


def test_direct_mex_refuses_boxes_with_too_many_moves() -> None:
    side = round(MAX_CELLS ** (1 / 3)) - 1
    with pytest.raises(UsageError, match="moves"):
        multi_table(parse_spec("nim"), 3, side, method="direct")


def test_progress_is_reported_once_the_box_is_done() -> None:
    calls: list[tuple[int, int]] = []
    multi_table(parse_spec("moore:2"), 3, 7, progress=lambda a, b: calls.append((a, b)))
    assert calls[-1] == (512, 512)
