"""The regular guesser: binary relations, the closed forms derived from them, bit-level formulas."""

from __future__ import annotations

import numpy as np
from miner_known import known_sequence, scalar_values

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.games.base import HeapGame
from nimproof.miner.guessers.regular import Regular, find_relation
from nimproof.miner.model import HeapTable
from nimproof.miner.relations import IndexRelation


def _table(spec: str, values: list[int]) -> HeapTable:
    return HeapTable(spec=spec, game=parse_spec("nim"), values=np.asarray(values, dtype=np.int64))


def _half_heap(n_max: int) -> HeapTable:
    game = parse_spec("half-heap")
    assert isinstance(game, HeapGame)
    values = np.asarray(reference.heap_table(game, n_max), dtype=np.int64)
    return HeapTable(spec="half-heap", game=game, values=values)


def test_half_heap_relations_are_those_of_seed_000():
    # Seed 000 / OEIS A025480: g(2n) = n, g(2n+1) = g(n).
    values = _half_heap(300).values
    assert find_relation(values, 2, 0, 220) == IndexRelation(2, 0, alpha=0, c=1, d=0, beta=1, e=0)
    assert find_relation(values, 2, 1, 220) == IndexRelation(2, 1, alpha=1, c=1, d=0, beta=0, e=0)


def test_half_heap_closed_form_is_derived_from_the_relations_and_matches_oeis_a025480():
    guesses = [g for g in Regular().guess_point(_half_heap(300)) if g.kind == "grundy"]
    derived = [
        g for g in guesses if any("derived from the relations" in d for d in g.evidence.details)
    ]
    assert [g.formula for g in derived] == ["n >> (trailing_ones(n) + 1)"]
    known = known_sequence("take at most half")["values"]
    assert scalar_values("n >> (trailing_ones(n) + 1)", len(known) - 1) == known
    text = " ".join(derived[0].evidence.details)
    assert "g(2n) = n" in text and "g(2n+1) = g(n)" in text


def test_trailing_zero_relations_give_a_closed_form_too():
    # g(2n) = g(n), g(2n+1) = n: the odd part of n, halved (computed here with Python integers).
    def odd_half(n: int) -> int:
        if n == 0:
            return 0
        while n % 2 == 0:
            n //= 2
        return n // 2

    values = [odd_half(n) for n in range(257)]
    formulas = [
        g.formula for g in Regular().guess_point(_table("odd-part", values)) if g.kind == "grundy"
    ]
    assert formulas, "no closed form for the trailing-zeros relations"
    for f in formulas:
        assert f is not None and scalar_values(f, 256) == values


def test_digit_sum_relations_give_popcount():
    values = [bin(n).count("1") for n in range(300)]
    formulas = [
        g.formula for g in Regular().guess_point(_table("digits", values)) if g.kind == "grundy"
    ]
    assert "popcount(n)" in formulas


def test_bit_level_search_finds_a_formula_that_predicts_beyond_its_sample():
    values = [n ^ (n >> 1) for n in range(400)]  # Gray code, computed independently
    guesses = [g for g in Regular().guess_point(_table("gray", values)) if g.kind == "grundy"]
    assert guesses
    for g in guesses:
        assert g.formula is not None and scalar_values(g.formula, 399) == values
        assert g.evidence.held_out > 0


def test_a_table_without_structure_gives_no_formula():
    rng = np.random.default_rng(7)
    values = [int(x) for x in rng.integers(0, 9, size=200)]
    assert [g for g in Regular().guess_point(_table("noise", values)) if g.kind == "grundy"] == []
