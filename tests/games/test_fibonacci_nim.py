"""Fibonacci Nim: its moves, its table against the reference, the published losing heaps."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np

from nimproof.engines import reference
from nimproof.engines.multi import multi_table
from nimproof.engines.positions import position_value, winning_moves
from nimproof.expr.zeckendorf import zlow
from nimproof.games import HeapsRelation, parse_spec
from nimproof.provers.moves import is_move

DATA = Path(__file__).resolve().parents[1] / "data" / "fibonacci_numbers.txt"


def fibonacci() -> set[int]:
    lines = [x for x in DATA.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    return {int(v) for v in lines[0].split(",")}


def test_the_moves_are_the_relation_of_the_description() -> None:
    game = parse_spec("fibonacci-nim")
    spec = game.moves_spec
    assert isinstance(spec, HeapsRelation) and not spec.lowers_heaps
    for p in product(range(8), repeat=2):
        listed = set(game.moves(p))
        for q in product(range(16), repeat=2):
            assert (q in listed) == is_move(game, p, q), (p, q)
        # every move lowers the measure of the description
        assert all(2 * q[0] + q[1] < 2 * p[0] + p[1] for q in listed)


def test_the_losing_starting_heaps_are_the_fibonacci_numbers() -> None:
    game = parse_spec("fibonacci-nim")
    fib = fibonacci()
    cache: dict[object, int] = {}
    for n in range(1, 300):
        lost = reference.value(game, (n, n - 1), cache) == 0
        assert lost == (n in fib), n


def test_the_table_agrees_with_the_reference_and_the_theorem() -> None:
    game = parse_spec("fibonacci-nim")
    table = multi_table(game, 2, 30)
    assert table.values is not None
    cache: dict[object, int] = {}
    for n, t in product(range(31), repeat=2):
        assert int(table.values[n, t]) == reference.value(game, (n, t), cache), (n, t)
    theorem = np.array([[n == 0 or t < zlow(n) for t in range(31)] for n in range(31)])
    assert (table.p_positions == theorem).all()


def test_the_winning_move_takes_the_smallest_zeckendorf_term() -> None:
    game = parse_spec("fibonacci-nim")
    for n, t in product(range(1, 40), range(1, 40)):
        moves = winning_moves(game, (n, t))
        if t < zlow(n):
            assert moves == [] and position_value(game, (n, t)) == 0
        else:
            assert (n - zlow(n), 2 * zlow(n)) in {m.target for m in moves}, (n, t)
