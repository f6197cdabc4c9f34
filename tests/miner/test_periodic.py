"""The periodic guesser: smallest (arithmetic) periods, with held-out data, and no false periods."""

from __future__ import annotations

import numpy as np
from miner_known import as_list, known_sequence, scalar_values

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.games.base import HeapGame
from nimproof.miner.guessers.periodic import Periodic, closed_form, smallest_periodicity
from nimproof.miner.model import HeapTable


def _table(spec: str, values: list[int] | np.ndarray) -> HeapTable:
    return HeapTable(spec=spec, game=parse_spec("nim"), values=np.asarray(values, dtype=np.int64))


def _reference_table(spec: str, n_max: int) -> HeapTable:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    return HeapTable(
        spec=spec, game=game, values=np.asarray(reference.heap_table(game, n_max), dtype=np.int64)
    )


def test_kayles_has_period_12_after_preperiod_71_as_published():
    known = known_sequence("Kayles")
    table = _reference_table("kayles", 300)
    assert as_list(table.values[: len(known["values"])]) == known["values"]
    guesses = Periodic().guess_point(table)
    periodic = [g for g in guesses if g.kind == "periodic"]
    assert len(periodic) == 1
    assert (periodic[0].period, periodic[0].preperiod, periodic[0].saltus) == (
        known["period"],
        known["preperiod"],
        0,
    )
    assert periodic[0].evidence.held_out > 0
    assert periodic[0].evidence.repetitions is not None and periodic[0].evidence.repetitions >= 4


def test_kayles_gets_no_closed_formula_because_of_its_preperiod():
    guesses = Periodic().guess_point(_reference_table("kayles", 300))
    assert [g.kind for g in guesses] == ["periodic"]


def test_subtract_one_to_three_gives_n_mod_4_by_the_textbook_formula():
    # Seed 004, formula (2): g(n) = n mod (k + 1) for k-Nim.
    guesses = Periodic().guess_point(_reference_table("knim:3", 200))
    formulas = [g.formula for g in guesses if g.kind == "grundy"]
    assert formulas == ["n % 4"]
    assert scalar_values("n % 4", 200) == [n % 4 for n in range(201)]


def test_saltus_is_found_for_an_arithmetic_periodic_sequence():
    values = [2 * (n // 3) + (0, 1, 1)[n % 3] for n in range(120)]
    per = smallest_periodicity(np.asarray(values[:90]))
    assert per is not None and (per.period, per.preperiod, per.saltus) == (3, 0, 2)
    formula = closed_form(np.asarray(values), per)
    assert formula is not None
    assert scalar_values(formula, 119) == values


def test_plain_nim_is_arithmetic_periodic_with_closed_form_n():
    guesses = Periodic().guess_point(_reference_table("nim", 100))
    assert {(g.kind, g.formula) for g in guesses} >= {("grundy", "n")}
    [per] = [g for g in guesses if g.kind == "periodic"]
    assert (per.period, per.saltus) == (1, 1)


def test_a_short_table_does_not_produce_a_false_period():
    # Two and a half repetitions of a pattern are not enough evidence.
    values = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]
    assert smallest_periodicity(np.asarray(values)) is None
    assert Periodic().guess_point(_table("short", values)) == []


def test_a_non_periodic_table_gives_no_period():
    values = known_sequence("take at most half")["values"]
    assert Periodic().guess_point(_table("half-heap", values)) == []


def test_a_period_that_breaks_in_the_held_out_part_is_rejected():
    values = [n % 5 for n in range(200)]
    values[180] = 7  # the pattern fits the first three quarters only
    assert Periodic().guess_point(_table("broken", values)) == []


def test_the_relation_must_hold_to_the_end_of_the_table():
    values = [n % 3 for n in range(150)] + [9, 9]
    per = smallest_periodicity(np.asarray(values))
    assert per is None or all(
        values[n + per.period] == values[n] + per.saltus
        for n in range(per.preperiod, len(values) - per.period)
    )
