"""The multi-heap guesser: P-position rules of the source texts, found from tables alone."""

from __future__ import annotations

import itertools

import pytest
from miner_known import predicate_holds

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.miner.guessers.multiheap import MultiHeap, library
from nimproof.miner.pipeline import Request, mine
from nimproof.tables import reference_p_positions


def _best(
    spec: str, heaps: tuple[int, ...], max_heap: int | None = None
) -> tuple[str | None, str | None, tuple[int, ...]]:
    result = mine(Request(spec, heaps=heaps, max_heap=max_heap))
    rules = [g for g in result.guesses if g.kind == "p_positions"]
    assert rules, f"no rule for {spec}"
    return rules[0].formula, rules[0].witness, rules[0].heaps


def test_nim_with_two_to_four_heaps_gives_boutons_rule():
    assert _best("nim", (2, 3, 4)) == ("xor(h) == 0", "nim", (2, 3, 4))


def test_moore_nim_2_gives_the_column_rule_modulo_3():
    # Seeds 001/002: P iff every binary column sums to 0 modulo k + 1.
    assert _best("moore:2", (3, 4)) == ("all(colsum(h, b) % 3 == 0 for b in bits)", "moore", (3, 4))


def test_moore_nim_3_gives_the_column_rule_modulo_4():
    assert _best("moore:3", (3, 4)) == ("all(colsum(h, b) % 4 == 0 for b in bits)", "moore", (3, 4))


def test_staircase_gives_the_odd_stair_rule():
    # Seed 004, Theorem 3: xor of the piles on odd stairs (stair 1 = index 0).
    assert _best("staircase", (2, 3, 4, 5)) == ("xor(h[::2]) == 0", "staircase", (2, 3, 4, 5))


def test_the_golden_ratio_games_give_their_theorems():
    from nimproof.miner.guessers.multiheap import GOLDEN_RULES

    assert _best("wythoff", (2,), 30) == (GOLDEN_RULES[0], None, (2,))
    assert _best("fibonacci-nim", (2,), 30) == (GOLDEN_RULES[1], None, (2,))


def test_misere_nim_gives_the_exception_rule():
    formula, witness, heaps = _best("misere:nim", (2, 3, 4))
    assert formula == "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0"
    assert witness == "misere-nim" and heaps == (2, 3, 4)


@pytest.mark.parametrize(
    ("spec", "rule"),
    [
        ("nim", "xor(h) == 0"),
        ("moore:2", "all(colsum(h, b) % 3 == 0 for b in bits)"),
        ("staircase", "xor(h[::2]) == 0"),
        (
            "misere:nim",
            "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0",
        ),
    ],
)
def test_the_mined_rules_agree_with_the_reference_position_by_position(spec, rule):
    game = parse_spec(spec)
    cache: dict = {}
    for heaps in itertools.product(range(5), repeat=3):
        assert predicate_holds(rule, heaps) == (reference.value(game, heaps, cache) == 0), heaps


def test_every_library_rule_parses_as_a_predicate():
    from nimproof.miner.formula import parse_predicate

    for heaps in range(1, 7):
        for rule in library(heaps):
            parse_predicate(rule)


def test_a_rule_that_fits_only_the_small_box_is_not_proposed():
    # Subtract exactly 2 from one heap: P iff xor of floor(h/2) ... is 0 -- nothing in the library.
    game = parse_spec("subtraction:2")
    from nimproof.miner.model import PTable

    p = reference_p_positions(game, 2, 9)
    table = PTable(spec="subtraction:2", game=game, heaps=2, max_heap=9, p=p)
    for g in MultiHeap().guess_point(table):
        assert g.formula is not None
        for heaps in itertools.product(range(10), repeat=2):
            assert predicate_holds(g.formula, heaps) == bool(p[heaps])


def test_multi_heap_rules_are_witnessed_only_for_their_own_family():
    from nimproof.miner.guessers.multiheap import witness_for

    assert witness_for(parse_spec("nim"), "xor(h) == 0") == "nim"
    assert witness_for(parse_spec("moore:2"), "all(colsum(h, b) % 4 == 0 for b in bits)") is None
    assert witness_for(parse_spec("knim:3"), "xor(h) == 0") is None
