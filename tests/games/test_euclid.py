"""Euclid's game: moves, table against the reference, the golden-ratio criterion on a box."""

from __future__ import annotations

from itertools import product

from nimproof.engines import reference
from nimproof.engines.multi import multi_table
from nimproof.games import parse_spec
from nimproof.provers.moves import is_move


def lost_by_the_mover(a: int, b: int) -> bool:
    """Cole and Davie's criterion in integers: a zero, or a != b and max < phi * min."""
    hi, lo = max(a, b), min(a, b)
    return lo == 0 or (hi != lo and (2 * hi - lo) ** 2 < 5 * lo * lo)


def test_the_moves_are_the_relation_of_the_description() -> None:
    game = parse_spec("euclid")
    for p in product(range(10), repeat=2):
        listed = set(game.moves(p))
        for q in product(range(10), repeat=2):
            assert (q in listed) == is_move(game, p, q), (p, q)


def test_the_table_agrees_with_the_reference_and_the_criterion() -> None:
    game = parse_spec("euclid")
    table = multi_table(game, 2, 80)
    assert table.values is not None
    cache: dict[object, int] = {}
    for a, b in product(range(81), repeat=2):
        if a < 30 and b < 30:
            assert int(table.values[a, b]) == reference.value(game, (a, b), cache), (a, b)
        assert bool(table.p_positions[a, b]) == lost_by_the_mover(a, b), (a, b)
