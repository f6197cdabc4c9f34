"""Northcott's game (loopy): its moves, the exact outcome solvers, and the reduction to Nim."""

from __future__ import annotations

from itertools import product

import pytest

from nimproof.engines import reference
from nimproof.engines.loopy import closure, fixpoint, outcome, retrograde
from nimproof.errors import SpecError, UsageError
from nimproof.games import parse_spec
from nimproof.games.northcott import Northcott


def _northcott(rows: int) -> Northcott:
    game = parse_spec(f"northcott:{rows}")
    assert isinstance(game, Northcott)
    return game


def _board(rows: int, width: int) -> list[tuple[int, ...]]:
    """Every position of a board ``width`` squares wide: g + m + o = width - 2 in every row."""
    rows_of = [(g, m, width - 2 - g - m) for g in range(width - 1) for m in range(width - 1 - g)]
    return [tuple(x for row in choice for x in row) for choice in product(rows_of, repeat=rows)]


def test_moves_follow_the_rules_from_the_movers_side() -> None:
    game = _northcott(2)
    # row 0: gap 2, my room 1, their room 0; row 1: gap 0, my room 1, their room 1
    got = sorted(game.moves((2, 1, 0, 0, 1, 1)))
    # advance 1 or 2, retreat 1 in row 0; retreat 1 in row 1; then the roles swap everywhere
    assert got == sorted(
        [(1, 0, 2, 0, 1, 1), (0, 0, 3, 0, 1, 1), (3, 0, 0, 0, 1, 1), (2, 0, 1, 1, 1, 0)]
    )
    assert list(game.moves((0, 0, 5, 0, 0, 2))) == []


@pytest.mark.parametrize("rows", [1, 2])
def test_the_move_relation_formula_is_exactly_the_moves(rows: int) -> None:
    game = _northcott(rows)
    spec = game.moves_spec
    assert spec.loopy and spec.heap_count() == 3 * rows
    for p in _board(rows, 5):
        moves = set(game.moves(p))
        targets = _board(rows, 5)
        assert {q for q in targets if spec.is_move(game, p, q)} == moves


def test_row_totals_never_change() -> None:
    game = _northcott(3)
    for p in _board(3, 4):
        for q in game.moves(p):
            assert all(sum(q[3 * i : 3 * i + 3]) == sum(p[3 * i : 3 * i + 3]) for i in range(3))


def test_spec_errors() -> None:
    for bad in ("northcott", "northcott:0", "northcott:x", "northcott:99"):
        with pytest.raises(SpecError):
            parse_spec(bad)
    with pytest.raises(UsageError):
        list(_northcott(2).moves((1, 2, 3)))


def test_the_reference_refuses_a_loopy_game_instead_of_looping() -> None:
    with pytest.raises(UsageError, match="go on forever"):
        reference.value(_northcott(1), (1, 1, 0))


def test_the_generic_table_engine_refuses_it() -> None:
    with pytest.raises(UsageError, match="loopy"):
        _northcott(2).moves_spec.weights(6)


# ---------------------------------------------------------------------------
# the solvers, on graphs whose outcomes are known by hand


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": ["b"], "b": []}, {"a": "win", "b": "loss"}),
        ({"a": ["b"], "b": ["a"]}, {"a": "draw", "b": "draw"}),
        ({"a": ["a"]}, {"a": "draw"}),
        ({"a": ["a", "b"], "b": []}, {"a": "win", "b": "loss"}),
        # c can escape to the draw cycle instead of moving to the win d
        (
            {"c": ["d", "e"], "d": ["f"], "e": ["c"], "f": []},
            {"c": "draw", "d": "win", "e": "draw", "f": "loss"},
        ),
        # every option of x is a win for the opponent: x is a loss
        (
            {"x": ["y", "z"], "y": ["w"], "z": ["w"], "w": []},
            {"x": "loss", "y": "win", "z": "win", "w": "loss"},
        ),
    ],
)
def test_retrograde_and_fixpoint_on_small_graphs(graph: dict, expected: dict) -> None:
    assert retrograde(graph) == expected
    assert fixpoint(graph) == expected


@pytest.mark.parametrize(("rows", "width"), [(1, 9), (2, 6), (3, 4)])
def test_two_solvers_agree_on_whole_boards(rows: int, width: int) -> None:
    graph = closure(_northcott(rows), _board(rows, width))
    assert retrograde(graph) == fixpoint(graph)


# ---------------------------------------------------------------------------
# the classic reduction, exhaustively on small boards (independent of the proof method)


@pytest.mark.parametrize(("rows", "width"), [(1, 12), (2, 8), (3, 5), (4, 4)])
def test_northcott_is_nim_on_the_gaps_with_no_draws(rows: int, width: int) -> None:
    game = _northcott(rows)
    positions = _board(rows, width)
    labels = fixpoint(closure(game, positions))
    for p in positions:
        xor = 0
        for i in range(rows):
            xor ^= p[3 * i]
        assert labels[p] == ("loss" if xor == 0 else "win"), p


def test_outcome_of_one_position_and_its_closure() -> None:
    got, labels = outcome(_northcott(2), (3, 0, 0, 1, 2, 2))
    assert got == "win"
    assert all(sum(p) == 8 for p in labels)


@pytest.mark.parametrize(("rows", "width"), [(2, 6), (3, 4)])
def test_the_answer_hint_is_the_classic_strategy_on_whole_boards(rows: int, width: int) -> None:
    from nimproof.expr import evaluate, parse
    from nimproof.games.northcott import answer

    game = _northcott(rows)
    formulas = [parse(f, sequences=("x", "h")) for f in answer(rows)]
    for x in _board(rows, width):
        if _gap_xor(x, rows):
            continue
        for y in game.moves(x):
            z = tuple(int(evaluate(f, {"x": x, "h": y})) for f in formulas)
            assert z in set(game.moves(y)) and _gap_xor(z, rows) == 0, (x, y, z)
            gaps = [(z[3 * i], x[3 * i]) for i in range(rows)]
            rooms = [(z[3 * i + 1], x[3 * i + 1]) for i in range(rows)]
            lower_gaps = all(a <= b for a, b in gaps) and any(a < b for a, b in gaps)
            same_gaps = all(a == b for a, b in gaps)
            lower_rooms = all(a <= b for a, b in rooms) and any(a < b for a, b in rooms)
            assert lower_gaps or (same_gaps and lower_rooms), (x, y, z)


def _gap_xor(p: tuple[int, ...], rows: int) -> int:
    out = 0
    for i in range(rows):
        out ^= p[3 * i]
    return out


def test_games_lists_the_classic_families_in_plain_words() -> None:
    from nimproof.cli.games import listing

    families = {f["name"]: f for f in listing()["families"]}
    for name in ("northcott", "welter", "mock-turtles", "ruler", "lasker", "cgsuite", "wythoff"):
        assert name in families, name
    northcott = families["northcott"]
    assert "forever" in northcott["summary"] and "loopy" not in northcott["summary"]
    assert northcott["command"].startswith("nimproof check --game northcott:2")
