"""The checker's plain reading of each game agrees with the families' own definitions."""

from __future__ import annotations

from itertools import product

import pytest

from nimproof.certificates import describe_game
from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof_check.games import CannotCheck, Values, check_game, heap_values, moves

HEAP_SPECS = [
    "nim",
    "subtraction:1,3,4",
    "knim:3",
    "half-heap",
    "take-fraction:2/3",
    "subtraction:multiples-of:3",
    "subtraction:all-but:2,5",
    "subtraction:primes",
    "subtraction:squares",
    "kayles",
    "dawsons-kayles",
    "octal:0.137",
    "octal:4.7",
    "grundy",
    "lasker",
    "ruler",
    "mock-turtles",
]


@pytest.mark.parametrize("spec", HEAP_SPECS)
def test_heap_values_agree_with_the_reference(spec: str) -> None:
    game = parse_spec(spec)
    described = check_game(describe_game(game))
    assert described["kind"] == "heap"
    assert heap_values(described["rule"], 60) == list(reference.heap_table(game, 60))


@pytest.mark.parametrize(
    ("spec", "heaps"),
    [
        ("moore:2", 3),
        ("staircase", 3),
        ("sum:knim:2+subtraction:1,3", 2),
        ("nim", 2),
        ("misere:nim", 2),
        ("wythoff", 2),
        ("fibonacci-nim", 2),
        ("welter:3", 3),
        ("misere:welter:2", 2),
    ],
)
def test_moves_and_values_agree_with_the_family(spec: str, heaps: int) -> None:
    game = parse_spec(spec)
    described = check_game(describe_game(game))
    values = Values(described)
    for pos in product(range(5), repeat=heaps):
        mine = sorted(moves(described, pos))
        if described["kind"] != "sum" and not described.get("misere"):
            theirs = sorted({tuple(q) for q in game.moves(pos)})
            if described["kind"] == "heap":  # heap games list moves as multisets of heaps
                mine = sorted({tuple(sorted(h for h in q if h)) for q in mine})
            assert mine == theirs, (pos, mine, theirs)
        assert values.value(pos) == reference.value(
            game, game.position(pos) if hasattr(game, "position") else pos
        )


def test_unknown_descriptions_cannot_be_checked() -> None:
    assert describe_game(parse_spec("rule:m < n")) is None
    for bad in (
        None,
        {"kind": "heap", "rule": {"rule": "cubes"}},
        {"kind": "heap", "rule": {"rule": "takes", "takes": []}},
    ):
        with pytest.raises(CannotCheck):
            check_game(bad)
