"""Shift rules ``g(n) = alpha g(n - f(n)) + gamma g(f(n)) + e``: found, held out, written recursively."""

from __future__ import annotations

import numpy as np
import pytest

from nimproof import tables
from nimproof.engines import reference
from nimproof.games import HeapGame, parse_spec
from nimproof.miner.guessers.shift import OFFSETS, Shift, find_shift
from nimproof.miner.model import HeapTable
from nimproof.miner.pipeline import Request, mine
from nimproof.provers import verify_claim
from tests.miner.miner_known import scalar_values
from tests.provers.helpers import claim

POPCOUNT_GAME = "rule:m < n and popcount(m) < popcount(n)"


def _table(spec: str, n_max: int = 300) -> HeapTable:
    game = parse_spec(spec)
    return HeapTable(
        spec=spec, game=game, values=tables.heap_table(game, n_max, stored=False).as_array()
    )


@pytest.mark.parametrize(
    "spec,words",
    [
        # Two new values per five heaps, every other heap repeats one floor(2n/5) + 1 back.
        (
            "take-fraction:2/5",
            ["g(n) = g(n - f(n)) for n % 5 in {1, 2, 4}", "floor(2n/5) + 1", "g(5m) = 2m"],
        ),
        ("take-fraction:1/3", ["g(n) = g(n - f(n)) for n % 3 in {1, 2}", "floor(n/3) + 1"]),
        # Moving to fewer binary ones: the value is the number of ones, one per power of 2.
        (POPCOUNT_GAME, ["g(n) = g(n - f(n)) + 1", "the highest power of 2 in n"]),
    ],
)
def test_shift_rules_are_found_and_predict_beyond_the_table(spec: str, words: list[str]) -> None:
    found = Shift().guess_point(_table(spec))
    assert len(found) == 1
    guess = found[0]
    for text in words:
        assert text in guess.statement, (text, guess.statement)
    assert guess.evidence.held_out > 0 and guess.formula is not None
    # The definition reproduces the reference implementation far beyond the mined heaps.
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    assert scalar_values(guess.formula, 900) == reference.heap_table(game, 900)


def test_a_rule_that_breaks_in_the_held_out_part_is_not_offered() -> None:
    table = _table("take-fraction:2/5")
    values = table.values.copy()
    values[291] += 1  # a held-out heap (291 = 5 * 58 + 1) breaks the rule found below 226
    broken = HeapTable(spec=table.spec, game=table.game, values=values)
    assert Shift().guess_point(broken) == []
    offset = next(o for o in OFFSETS if o.words == "floor(2n/5) + 1")
    assert find_shift(table.values, 5, 1, offset, 226) is not None
    assert find_shift(values, 5, 1, offset, 226) is None


@pytest.mark.parametrize(
    "spec", ["knim:3", "subtraction:all-but:1,2", "kayles", "misere:take-fraction:2/5"]
)
def test_no_shift_rule_where_a_period_explains_the_table_or_in_misere_play(spec: str) -> None:
    assert Shift().guess_point(_table(spec, 200)) == []


def test_random_values_get_no_shift_rule() -> None:
    rng = np.random.default_rng(13)
    values = rng.integers(0, 6, 300).astype(np.int64)
    table = HeapTable(spec="nim", game=parse_spec("nim"), values=values)
    assert Shift().guess_point(table) == []


def test_the_mined_shift_definition_is_proved_exhaustively_and_a_wrong_one_refuted() -> None:
    result = mine(Request("take-fraction:2/5", max_n=300))
    shift = next(g for g in result.guesses if g.guesser == "shift")
    assert shift.formula is not None
    proved = verify_claim(
        claim("grundy", "take-fraction:2/5", shift.formula, {"exhaustive": {"max_n": 3000}})
    )
    assert proved.status == "checked" and proved.scope.bound == 3000
    wrong = shift.formula.replace("2 * (n // 5) + 1", "2 * (n // 5) + 2")
    refuted = verify_claim(
        claim("grundy", "take-fraction:2/5", wrong, {"exhaustive": {"max_n": 3000}})
    )
    assert refuted.status == "refuted"


def test_a_linear_combination_of_two_earlier_values_is_found() -> None:
    # g(n) = g(n // 2) - g(n - n // 2) + 3: a rule with two earlier values, and
    # not periodic; the guesser must name both terms and predict the held-out part.
    values = [0, 1]
    for n in range(2, 301):
        values.append(3 + values[n // 2] - values[n - n // 2])
    table = HeapTable(spec="nim", game=parse_spec("nim"), values=np.asarray(values))
    found = Shift().guess_point(table)
    assert len(found) == 1 and found[0].formula is not None
    assert "g(n) = -g(n - f(n)) + g(f(n)) + 3" in found[0].statement
    assert "floor(n/2)" in found[0].statement
    longer = [0, 1]
    for n in range(2, 2001):
        longer.append(3 + longer[n // 2] - longer[n - n // 2])
    assert scalar_values(found[0].formula, 2000) == longer
