"""Wythoff's game: its moves, its table against the reference, and the published P-pairs."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np
import pytest

from nimproof.engines import reference
from nimproof.engines.multi import multi_table
from nimproof.engines.positions import position_value, winning_moves
from nimproof.errors import SpecError, UsageError
from nimproof.games import HeapsRelation, parse_spec
from nimproof.provers.moves import is_move

DATA = Path(__file__).resolve().parents[1] / "data" / "wythoff_p_pairs.txt"


def published_pairs() -> list[tuple[int, int]]:
    """The pairs (A000201(k), A001950(k)) of the data file."""
    rows = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, values = line.partition(":")
            rows[name] = [int(v) for v in values.split(",")]
    return list(zip(rows["A000201"], rows["A001950"], strict=True))


def test_the_data_file_holds_sixty_published_pairs() -> None:
    pairs = published_pairs()
    assert len(pairs) == 60
    assert pairs[:3] == [(1, 2), (3, 5), (4, 7)]
    # Each k = b - a appears once, in order: the pairs are the Beatty pairs.
    assert [b - a for a, b in pairs] == list(range(1, 61))


def test_the_moves_are_the_relation_of_the_description() -> None:
    game = parse_spec("wythoff")
    spec = game.moves_spec
    assert isinstance(spec, HeapsRelation) and spec.heap_count() == 2
    for p in product(range(7), repeat=2):
        listed = set(game.moves(p))
        for q in product(range(7), repeat=2):
            assert (q in listed) == spec.holds(p, q) == is_move(game, p, q), (p, q)


def test_p_positions_of_the_table_are_the_published_pairs() -> None:
    game = parse_spec("wythoff")
    top = 100
    table = multi_table(game, 2, top)
    expected = {(0, 0)}
    for a, b in published_pairs():
        if b <= top:
            expected |= {(a, b), (b, a)}
    found = {(int(i), int(j)) for i, j in np.argwhere(table.p_positions)}
    assert found == expected


def test_the_grundy_table_agrees_with_the_reference() -> None:
    game = parse_spec("wythoff")
    table = multi_table(game, 2, 20)
    assert table.values is not None
    cache: dict[object, int] = {}
    for p in product(range(21), repeat=2):
        assert int(table.values[p]) == reference.value(game, p, cache), p


def test_value_names_the_winning_moves() -> None:
    game = parse_spec("wythoff")
    pairs = {(0, 0)} | {q for a, b in published_pairs() for q in ((a, b), (b, a))}
    for p in product(range(16), repeat=2):
        moves = winning_moves(game, p)
        if p in pairs:
            assert position_value(game, p) == 0 and moves == []
        else:
            assert position_value(game, p) > 0 and moves
            assert all(m.target in pairs and is_move(game, p, m.target) for m in moves)


def test_bad_positions_and_arguments_are_refused() -> None:
    game = parse_spec("wythoff")
    with pytest.raises(UsageError):
        list(game.moves((1, 2, 3)))
    with pytest.raises(SpecError):
        parse_spec("wythoff:3")
