"""position_value and winning_moves against the reference, for every kind of position."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimproof.engines import Move, position_value, reference, winning_moves
from nimproof.errors import UsageError
from nimproof.games import Game, canonical_heaps, parse_spec
from nimproof.games.sums import Sum


def _reference_key(game: Game, target: object) -> object:
    # The reference names positions of heap games as sorted tuples of non-empty heaps.
    base = getattr(game, "base", game)
    if isinstance(base, Sum):
        return target
    if hasattr(base, "options"):
        return canonical_heaps(target)  # type: ignore[arg-type]
    return target


CASES = [
    ("nim", (3, 4, 5)),
    ("nim", (7,)),
    ("nim", (1, 2, 3)),
    ("kayles", (5, 7)),
    ("kayles", (4, 4, 9)),
    ("grundys-game", (7, 9)),
    ("half-heap", (23, 13, 7)),
    ("octal:0.007", (11, 5)),
    ("rule:m*m < n", (10, 20)),
    ("misere:nim", (1, 1, 1)),
    ("misere:nim", (3, 4, 5)),
    ("misere:nim", (2, 2)),
    ("misere:knim:3", (5, 6)),
    ("misere:kayles", (4, 5)),
    ("misere:grundys-game", (7, 8)),
    ("moore:2", (1, 2, 3)),
    ("moore:2", (3, 3, 3)),
    ("moore:3", (2, 3, 1, 4)),
    ("misere:moore:2", (1, 1, 2)),
    ("staircase", (3, 1, 2)),
    ("staircase", (2, 0, 2, 1)),
    ("misere:staircase", (1, 2, 1)),
    ("sum:knim:3+half-heap", (5, 9)),
    ("sum:knim:3+kayles", (4, 6)),
    ("misere:sum:knim:2+half-heap", (3, 6)),
    ("misere:sum:knim:2+kayles", (3, 5)),
    ("plugin:chocolate", (4, 5, 1, 3)),
    ("plugin:easychomp", (4, 7)),
    ("plugin:coin-strip", (1, 4, 6)),
    ("misere:plugin:easychomp", (3, 5)),
]


def _as_position(game: Game, heaps: tuple[int, ...]) -> object:
    base = getattr(game, "base", game)
    if isinstance(base, Sum):
        return base.position(heaps)
    return heaps


@pytest.mark.parametrize(("spec", "heaps"), CASES)
def test_position_value_matches_reference(spec: str, heaps: tuple[int, ...]) -> None:
    game = parse_spec(spec)
    position = _as_position(game, heaps)
    assert position_value(game, position) == reference.value(game, position)


@pytest.mark.parametrize(("spec", "heaps"), CASES)
def test_winning_moves_are_exactly_the_reference_moves_to_zero(
    spec: str, heaps: tuple[int, ...]
) -> None:
    game = parse_spec(spec)
    position = _as_position(game, heaps)
    found = winning_moves(game, position)
    assert {_reference_key(game, m.target) for m in found} == reference.winning_targets(
        game, position
    )
    assert bool(found) == (reference.value(game, position) != 0)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 10), min_size=1, max_size=3),
    st.sampled_from(["nim", "knim:2", "kayles", "half-heap"]),
)
def test_random_sums_match_the_joint_reference_value(heaps: list[int], spec: str) -> None:
    game = parse_spec(spec)
    assert position_value(game, tuple(heaps)) == reference.value(game, tuple(heaps))


def test_single_heap_position_may_be_an_int() -> None:
    game = parse_spec("kayles")
    assert position_value(game, 9) == position_value(game, (9,)) == reference.value(game, 9)
    assert {m.target for m in winning_moves(parse_spec("nim"), 5)} == {(0,)}


def test_sum_position_may_be_given_one_int_per_component() -> None:
    game = parse_spec("sum:knim:3+kayles")
    assert position_value(game, (4, 6)) == position_value(game, ((4,), (6,)))


def test_moves_say_which_heap_changed_and_how() -> None:
    moves = winning_moves(parse_spec("nim"), (17, 24, 7, 11))
    assert moves == [Move((17, 24, 2, 11), 2, 7, (2,))]
    assert moves[0].describe() == "heap 3: 7 -> 2"
    split = winning_moves(parse_spec("kayles"), (5, 7))
    assert Move((1, 3, 7), 0, 5, (1, 3)) in split


def test_moore_move_of_several_heaps_has_no_single_heap() -> None:
    moves = winning_moves(parse_spec("moore:2"), (1, 2, 3))
    assert [m.target for m in moves] == [(1, 1, 1)]
    assert moves[0].heap is None and moves[0].describe() == "-> (1, 1, 1)"


def test_p_position_has_no_winning_move() -> None:
    assert winning_moves(parse_spec("nim"), (1, 2, 3)) == []
    assert winning_moves(parse_spec("misere:nim"), (1,)) == []


@pytest.mark.parametrize(
    ("spec", "position"),
    [
        ("nim", (3, -1)),
        ("nim", "3 4"),
        ("nim", (2.5,)),
        ("sum:nim+kayles", (1, 2, 3)),
        ("moore:2", ()),
        ("misere:kayles", (40, 40)),
        ("moore:2", (400, 400, 400)),
    ],
)
def test_malformed_or_oversized_positions_are_usage_errors(spec: str, position: object) -> None:
    with pytest.raises(UsageError):
        position_value(parse_spec(spec), position)
