"""The parity guesser (odious and evil numbers) and Welter's rule in the multi-heap library."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from miner_known import scalar_values

from nimproof.engines import grundy_table
from nimproof.games import parse_spec
from nimproof.miner.guessers.multiheap import welter_rule
from nimproof.miner.guessers.parity import PopcountParity
from nimproof.miner.model import HeapTable
from nimproof.miner.pipeline import Request, mine

DATA = Path(__file__).resolve().parents[1] / "data" / "grundy_sequences.txt"


def _odious() -> list[int]:
    """OEIS A000069 as the data file lists it (the Mock Turtles entry)."""
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("mock-turtles ;"):
            return [int(x) for x in line.split(";")[2].split()]
    raise KeyError("mock-turtles")


def _table(spec: str, values: list[int]) -> HeapTable:
    return HeapTable(spec=spec, game=parse_spec("nim"), values=np.asarray(values, dtype=np.int64))


def test_mock_turtles_values_give_the_odious_numbers_unprompted() -> None:
    game = parse_spec("mock-turtles")
    values = np.asarray(grundy_table(game, 300), dtype=np.int64)
    (guess,) = PopcountParity().guess_point(
        HeapTable(spec="mock-turtles", game=game, values=values)
    )
    assert guess.formula == "0 if n == 0 else 2 * n - 1 - popcount(n - 1) % 2"
    odious = _odious()
    assert scalar_values(guess.formula, len(odious))[1:] == odious


def test_evil_numbers_are_found_with_the_other_sign() -> None:
    # A001969, the evil numbers: 2n + (popcount(n) % 2)
    evil = [2 * n + bin(n).count("1") % 2 for n in range(200)]
    (guess,) = PopcountParity().guess_point(_table("evil", evil))
    assert scalar_values(guess.formula or "", 199) == evil
    assert "popcount(n) % 2" in (guess.formula or "")


def test_tables_without_a_parity_term_get_no_parity_guess() -> None:
    assert PopcountParity().guess_point(_table("nim", list(range(200)))) == []
    wobble = [n + (1 if n % 3 == 0 else 0) for n in range(200)]
    assert PopcountParity().guess_point(_table("wobble", wobble)) == []


def test_mining_mock_turtles_proves_the_rule_for_every_coin() -> None:
    result = mine(Request("mock-turtles", max_n=200))
    rules = [g for g in result.guesses if g.kind == "grundy"]
    assert [g.formula for g in rules] == ["0 if n == 0 else 2 * n - 1 - popcount(n - 1) % 2"]


def test_welter_p_positions_give_welters_rule() -> None:
    for coins in (2, 3):
        result = mine(Request(f"welter:{coins}", heaps=(coins,), max_heap=7))
        rules = [g.formula for g in result.guesses if g.kind == "p_positions"]
        assert rules and rules[0] == welter_rule(coins), rules
