"""The periodicity theory on its own: what :func:`check` establishes and what it refuses.

The tables come from the plain reference implementation; the known periods
(Kayles: 12 from 71) are checked against the published sequences elsewhere.
"""

from __future__ import annotations

import numpy as np
import pytest

from nimproof.engines import reference
from nimproof.games import HeapGame, parse_spec
from nimproof.theory.periodicity import (
    Established,
    Relation,
    Unproved,
    all_but_window,
    check,
    extend,
    find_periodicity,
    least_period,
    least_unused,
    prove,
    theorem_for,
    value_at,
)


def _game(spec: str) -> HeapGame:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    return game


def _table(spec: str, n: int) -> list[int]:
    return reference.heap_table(_game(spec), n)


def test_kayles_is_established_by_guy_smith_with_cgsuite_window() -> None:
    table = _table("kayles", 400)
    found = prove(_game("kayles"), table, 12, 71, 0)
    assert isinstance(found, Established)
    assert found.relation == Relation(12, 71, 0)
    assert found.window_end == 2 * 71 + 2 * 12 + 2 + 2 and found.bound == found.window_end - 1 + 12
    assert "Guy–Smith theorem" in found.theorem


def test_a_short_table_is_not_enough() -> None:
    table = _table("kayles", 150)
    found = prove(_game("kayles"), table, 12, 71, 0)
    assert isinstance(found, Unproved) and "needs" in found.reason and found.breaks_at is None


def test_a_wrong_preperiod_breaks_inside_the_window() -> None:
    table = _table("kayles", 400)
    found = prove(_game("kayles"), table, 12, 60, 0)
    assert isinstance(found, Unproved) and found.breaks_at is not None
    n = found.breaks_at
    assert 60 <= n < 71 and table[n + 12] != table[n]


def test_the_all_but_side_condition_is_checked() -> None:
    # Nim: g(n) = n. The relation (1, 0, 0) fails u(1) = u(0) + 0 (u(1) = 1, u(0) = 0).
    table = list(range(20))
    theorem = all_but_window((), 1, 0, 0)
    found = check(theorem, table, 1, 0, 0)
    assert isinstance(found, Unproved) and "side condition" in found.reason
    assert isinstance(check(all_but_window((), 1, 0, 1), table, 1, 0, 1), Established)


def test_no_theorem_for_games_outside_the_hypotheses() -> None:
    found = prove(_game("subtraction:squares"), _table("subtraction:squares", 100), 2, 0, 0)
    assert isinstance(found, Unproved) and found.theorem is None
    assert theorem_for(_game("octal:0.07"), 2, 0, 1) is None  # octal codes: saltus 0 only


@pytest.mark.parametrize("spec", ["subtraction:all-but:1,2", "subtraction:all-but:2,5", "kayles"])
def test_extend_gives_the_reference_values_past_the_window(spec: str) -> None:
    table = _table(spec, 600)
    rel = find_periodicity(table)
    assert rel is not None
    assert isinstance(prove(_game(spec), table, *rel), Established)
    base = table[: rel.preperiod + rel.period]
    assert extend(base, rel, 601).tolist() == table
    assert [value_at(base, rel, n) for n in range(0, 601, 37)] == table[::37]


def test_least_unused_is_the_mex_of_the_prefix() -> None:
    assert least_unused([0, 1, 3, 1], 4) == 2
    assert least_unused([0, 1, 3, 1], 2) == 2
    assert least_unused([1, 2], 2) == 0
    assert least_unused([], 0) == 0


def test_find_periodicity_options() -> None:
    nim = np.arange(100)
    assert find_periodicity(nim) == (1, 0, 1)
    assert find_periodicity(nim, saltus=False) is None
    short = [5, 0, 1, 0, 1, 0, 1]  # period 2 from 1: three periods seen
    assert find_periodicity(short, min_periods=2) == (2, 1, 0)
    assert find_periodicity(short, min_periods=2, min_relations=6) is None


def test_least_period_divides_the_claimed_one() -> None:
    table = _table("kayles", 400)
    assert least_period(table, 24, 80, 0) == (12, 71)
