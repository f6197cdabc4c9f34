"""The exact misère evaluation of splitting games (reduced whole positions) against the plain reference."""

from __future__ import annotations

import itertools

import pytest

from nimproof.engines import reference
from nimproof.engines.heap import (
    MISERE_MAX_POSITIONS,
    MISERE_SPLIT_MAX_N,
    MisereBudget,
    MisereHeaps,
    grundy_table,
    misere_split_limit,
    plan_heap,
)
from nimproof.errors import UsageError
from nimproof.games.base import HeapGame
from nimproof.games.registry import parse_spec

SEEDS = ["kayles", "octal:0.07", "octal:0.137"]


def _base(spec: str) -> HeapGame:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    return game


@pytest.mark.parametrize("spec", [*SEEDS, "grundys-game", "octal:0.6"])
def test_single_heaps_agree_with_the_reference_played_out(spec: str) -> None:
    misere = parse_spec(f"misere:{spec}")
    evaluator = MisereHeaps(_base(spec))
    cache: dict = {}
    for n in range(26):
        assert evaluator.value((n,)) == reference.value(misere, n, cache), n


@pytest.mark.parametrize("spec", SEEDS)
def test_sums_of_heaps_agree_with_the_reference_played_out(spec: str) -> None:
    misere = parse_spec(f"misere:{spec}")
    evaluator = MisereHeaps(_base(spec))
    cache: dict = {}
    for k in (2, 3):
        for heaps in itertools.combinations_with_replacement(range(1, 12), k):
            if sum(heaps) <= 18:
                assert evaluator.value(heaps) == reference.value(misere, heaps, cache), heaps


def test_heaps_equal_to_star_one_cancel_in_pairs() -> None:
    # Dawson's Kayles: heaps 2 and 3 are both *1 (their only options are dead heaps).
    evaluator = MisereHeaps(_base("octal:0.07"))
    assert evaluator.value((2, 3)) == evaluator.value(()) == 1
    assert evaluator.value((2, 3, 7)) == evaluator.value((7,))
    assert evaluator._reduce((3, 2, 2)) == (2,)


def test_the_budget_names_the_heap_where_it_is_passed() -> None:
    evaluator = MisereHeaps(_base("kayles"), max_positions=2000)
    values = []
    with pytest.raises(MisereBudget, match="passed 2,000 positions at heap") as info:
        for n in range(100):
            values.append(evaluator.value((n,)))
    assert info.value.heap == len(values)  # every heap below it was evaluated
    fresh = MisereHeaps(_base("kayles"))
    assert values == [fresh.value((n,)) for n in range(len(values))]


def test_the_seed_codes_have_measured_limits_and_the_others_the_default() -> None:
    for spec in SEEDS:
        limit = misere_split_limit(_base(spec))
        assert limit > MISERE_SPLIT_MAX_N
        assert plan_heap(parse_spec(f"misere:{spec}")).limit == limit
        with pytest.raises(UsageError, match=f"handles heaps up to {limit}"):
            grundy_table(parse_spec(f"misere:{spec}"), limit + 1)
    assert misere_split_limit(_base("grundys-game")) == MISERE_SPLIT_MAX_N


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["octal:0.137"])
def test_a_measured_limit_is_where_the_budget_is_passed(spec: str) -> None:
    evaluator = MisereHeaps(_base(spec), MISERE_MAX_POSITIONS)
    limit = misere_split_limit(_base(spec))
    for n in range(limit + 1):
        evaluator.value((n,))
    with pytest.raises(MisereBudget):
        evaluator.value((limit + 1,))
