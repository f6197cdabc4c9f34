"""CGSuite codes whose every split is ``!`` (two unequal heaps) on the sparse-space engine."""

from __future__ import annotations

import pytest

from nimproof.engines import grundy_table, reference
from nimproof.engines.heap import heap_engine
from nimproof.engines.sparse import SparseTable, SplitRule, split_rule
from nimproof.games import HeapGame, parse_spec

#: Two-way codes with ``!`` on every digit that splits (``?`` on two heaps is the same).
UNEQUAL = ["4!.3", "0.4!", "0.14!", "0.6!", "4!.34!", "4!.4!4!", "0.7!", "4?.1", "0.37!"]


def _game(code: str) -> HeapGame:
    game = parse_spec(f"cgsuite:{code}")
    assert isinstance(game, HeapGame)
    return game


def _sparse(code: str, n: int, **kw: float) -> list[int]:
    rule = split_rule(_game(code))
    assert rule is not None and rule.unequal
    table = SparseTable(rule, n + 1, **kw)  # type: ignore[arg-type]
    table.extend(n + 1)
    return [int(v) for v in table.values]


@pytest.mark.parametrize("code", UNEQUAL)
def test_unequal_codes_take_the_sparse_engine_and_match_the_reference(code: str) -> None:
    game = _game(code)
    assert heap_engine(game) == "sparse-space"
    want = reference.heap_table(game, 300)
    # the rare-value method from heap 16 on, and the dense method throughout
    assert _sparse(code, 300, warmup=16, dense_share=2.0) == want
    assert _sparse(code, 300, warmup=10**9) == want
    assert grundy_table(game, 300).tolist() == want


@pytest.mark.parametrize("code", ["0.37!", pytest.param("4!.3", marks=pytest.mark.slow)])
def test_a_few_thousand_heaps_agree_with_the_plain_engine(code: str) -> None:
    game = _game(code)
    want = reference.heap_table(game, 3000)
    assert _sparse(code, 3000, warmup=16, dense_share=2.0) == want
    assert grundy_table(game, 3000).tolist() == want


def test_the_split_rule_reads_the_digits() -> None:
    assert split_rule(_game("4!.34!")) == SplitRule((4, 3, 4), unequal=True)
    assert split_rule(_game("0.6!")) == SplitRule((0, 6), unequal=True)


@pytest.mark.parametrize("code", ["4!.4", "0.4=", "0.8!", "4!.0!8", "0.4?4"])
def test_codes_with_other_splits_stay_on_the_generic_engine(code: str) -> None:
    # a plain split beside an unequal one, equal heaps, three-heap splits: not the sparse rule
    game = _game(code)
    assert split_rule(game) is None
    assert heap_engine(game) != "sparse-space"
