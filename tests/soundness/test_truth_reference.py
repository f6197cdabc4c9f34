"""The suite's truth reference agrees with itself: its theorems against its brute force."""

from __future__ import annotations

import pytest

from tests.soundness import truth


@pytest.mark.parametrize("spec", sorted(truth.FAMILIES))
def test_closed_forms_match_brute_force(spec: str) -> None:
    n_max = 300 if spec in ("kayles", "dawsons-kayles") else 1200
    table = truth.heap_table(truth.FAMILIES[spec], n_max)
    assert [truth.heap_value(spec, n) for n in range(n_max + 1)] == table


def test_misere_nim_heap_matches_brute_force() -> None:
    table = truth.misere_heap_table(truth.nim_options, 200)
    assert [truth.misere_nim_heap(n) for n in range(201)] == table


@pytest.mark.parametrize(
    ("spec", "heaps", "bound"),
    [
        ("nim", 3, 7),
        ("misere:nim", 3, 6),
        ("moore:2", 3, 5),
        ("staircase", 3, 8),
        ("knim:3", 2, 12),
    ],
)
def test_p_position_theorems_match_brute_force(spec: str, heaps: int, bound: int) -> None:
    for position, p in truth.p_positions_box(spec, heaps, bound).items():
        assert truth.is_p(spec, position) == p, (spec, position)
        for q in truth.multi_moves(spec, position):
            assert truth.legal_multi_move(spec, position, q), (spec, position, q)


@pytest.mark.parametrize(
    ("spec", "heaps", "bound"),
    [
        ("nim", 3, 7),
        ("misere:nim", 3, 6),
        ("staircase", 3, 8),
        ("staircase", 4, 6),
        ("knim:3", 2, 12),
    ],
)
def test_winning_moves_are_exactly_the_moves_to_p_positions(
    spec: str, heaps: int, bound: int
) -> None:
    box = truth.p_positions_box(spec, heaps, bound)
    for position in box:
        moves = set(truth.multi_moves(spec, position))
        want = sorted(q for q in moves if truth.is_p(spec, q))
        assert truth.winning_moves(spec, position) == want, (spec, position)
