"""One description of a claim's game (issue 21): its answers are the game's own.

``describe_spec`` parses a spec and answers, in one call, what the proof
methods and the re-checks ask of the game; each answer must be the one the game
and its move description give when asked directly, for every registered family.
"""

from __future__ import annotations

import itertools

import pytest

from nimproof.errors import SpecError
from nimproof.games import (
    DESCRIBED_HEAPS,
    Game,
    NotAFormula,
    all_families,
    describe_spec,
    parse_spec,
)

EXAMPLES = sorted({fam.info.example for fam in all_families()})


def _relations(game: Game, heaps: int) -> tuple[str, ...] | type[Exception] | None:
    try:
        return game.moves_spec.heap_formulas(game, heaps)
    except NotAFormula:
        return NotAFormula


@pytest.mark.parametrize("spec", EXAMPLES)
@pytest.mark.parametrize("heaps", [None, 1, 3])
def test_the_description_answers_as_the_game_does(spec: str, heaps: int | None) -> None:
    try:
        described = describe_spec(spec, heaps)
    except SpecError:
        pytest.skip(f"{spec} is not a valid spec here")
    game = parse_spec(spec)
    moves = game.moves_spec
    assert described.game == game and described.normal == game.normal
    assert described.moves == moves
    assert described.fixed_heaps == moves.heap_count()
    assert described.heaps == (heaps if heaps is not None else moves.heap_count())
    along = described.parts_heaps
    assert along == (described.heaps or 1)
    assert described.parts == moves.parts(game, along)
    expected = _relations(game, along)
    if expected is NotAFormula:
        assert isinstance(described.relation_error, NotAFormula)
        assert described.relations is None
    else:
        assert described.relation_error is None and described.relations == expected
    assert described.nim == moves.nim
    assert described.takes == moves.finite_takes()
    assert described.lists_targets == moves.lists_targets()


def test_a_description_of_very_many_heaps_lists_no_parts() -> None:
    """Past DESCRIBED_HEAPS the description lists nothing (a method asks the game itself)."""
    described = describe_spec("nim", DESCRIBED_HEAPS + 1)
    assert described.parts_heaps == 0 and described.parts is None and described.relations is None
    assert describe_spec("nim", DESCRIBED_HEAPS).parts_heaps == DESCRIBED_HEAPS


@pytest.mark.parametrize(
    "spec",
    ["nim", "misere:nim", "subtraction:2,3", "misere:subtraction:2,3", "kayles", "misere:kayles",
     "moore:2", "staircase", "sum:nim+half-heap", "half-heap"],
)  # fmt: skip
def test_the_terminal_test_of_heaps_is_the_games_own(spec: str) -> None:
    """``terminal_heaps`` (one call) agrees with the game's moves at its position."""
    game = parse_spec(spec)
    count = game.moves_spec.heap_count() or 3
    for heaps in itertools.product(range(4), repeat=count):
        position = game.position(tuple(heaps))
        assert game.terminal_heaps(heaps) == game.is_terminal(position), heaps


@pytest.mark.parametrize(
    ("spec", "example"), [("subtraction", "subtraction:1,3,4"), ("misere", "misere:nim")]
)
def test_a_family_that_needs_arguments_is_refused_without_them(spec: str, example: str) -> None:
    for text in (spec, f"{spec}:", f"{spec}:  "):
        with pytest.raises(SpecError, match=f"needs .*e.g. '{example}'"):
            parse_spec(text)
