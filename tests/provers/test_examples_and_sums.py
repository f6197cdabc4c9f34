"""Worked-example claims and the sum rule: false statements are refuted with re-checked evidence."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import nimproof.engines
import nimproof.tables
from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.provers import verify_claim as _verify_claim
from tests.conftest import claim

# These tests are about one method at a time: run exactly the checks each claim names.
verify_claim = partial(_verify_claim, only_named=True)


def test_listed_nim_values_from_seed_000_are_proved() -> None:
    c = claim(
        "value",
        "nim",
        None,
        {"reference": {}},
        positions=((3, 2, 1), (2, 2), (1, 1), (3, 2), (3, 1), (2,)),
        values=(0, 0, 0, 1, 2, 2),
        id="seed000",
    )
    assert verify_claim(c).status == "proved"


@pytest.mark.parametrize(
    ("position", "value"), [((3, 2, 1), 1), ((3, 2), 0), ((17, 24, 7, 11), 4), ((2,), 3)]
)
def test_a_wrong_listed_value_is_refuted_with_the_true_value(
    position: tuple[int, ...], value: int
) -> None:
    c = claim(
        "value", "nim", None, {"reference": {}}, positions=(position,), values=(value,), id="wrong"
    )
    v = verify_claim(c)
    assert v.status == "refuted" and v.counterexample is not None
    true = 0
    for x in position:
        true ^= x
    assert v.counterexample.actual == true != value


def test_a_wrong_or_incomplete_list_of_winning_moves_is_refuted() -> None:
    # Seed 003, example 2: heaps 3, 5, 7 have three winning moves (to 2, 4 or 6 in one heap).
    right = ((2, 5, 7), (3, 4, 7), (3, 5, 6))
    ok = claim(
        "value",
        "nim",
        None,
        {"reference": {}},
        positions=((3, 5, 7),),
        values=(1,),
        winning_moves=(right,),
        id="ok",
    )
    assert verify_claim(ok).status == "proved"
    for moves in (right[:2], (*right, (3, 5, 5)), ((1, 5, 7),)):
        bad = claim(
            "value",
            "nim",
            None,
            {"reference": {}},
            positions=((3, 5, 7),),
            values=(1,),
            winning_moves=(moves,),
            id="bad",
        )
        v = verify_claim(bad)
        assert v.status == "refuted" and v.counterexample is not None
        assert v.counterexample.condition == "winning-moves"


def test_a_wrong_sequence_is_refuted_at_its_first_wrong_term() -> None:
    values = reference.heap_table(parse_spec("kayles"), 40)
    values[33] += 1
    c = claim("sequence", "kayles", None, {"reference": {}}, values=tuple(values), id="seq")
    v = verify_claim(c)
    assert v.status == "refuted" and v.counterexample is not None
    assert v.counterexample.position == 33


def test_large_heap_game_positions_are_valued_by_sprague_grundy_and_say_so() -> None:
    c = claim(
        "value",
        "octal:0.007",
        None,
        {"reference": {}},
        positions=((1001,), (499, 499)),
        values=(18, 0),
        id="tromino",
    )
    v = verify_claim(c)
    assert v.status == "proved" and "Sprague" in v.methods[0].detail


def test_a_wrong_engine_table_never_turns_into_a_verdict_on_the_sum_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = nimproof.tables.heap_values

    def broken(game: object, n: int) -> np.ndarray:
        table = real(game, n)  # type: ignore[arg-type]
        if getattr(game, "spec", "") == "half-heap" and n >= 5:
            table = table.copy()
            table[5] ^= 2
        return table

    # The provers take engine tables from the table service.
    monkeypatch.setattr(nimproof.tables, "heap_values", broken)
    c = claim(
        "sum_rule",
        None,
        None,
        {"exhaustive": {"max_heap": 6}},
        components=("knim:3", "half-heap"),
        id="sg",
    )
    v = verify_claim(c)
    assert v.status == "unknown"
    assert "engine table of half-heap disagrees with the reference at n = 5" in v.methods[0].detail
