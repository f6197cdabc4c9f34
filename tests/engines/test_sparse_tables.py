"""The sparse-space engine against the plain reference, the dense kernels and published values."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nimproof.engines import grundy_table, reference
from nimproof.engines import heap_kernels as hk
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, SplitRule, check_points, period_check, split_rule
from nimproof.errors import UsageError
from nimproof.games import parse_spec

# Every three-digit code whose digits split somewhere (the sparse engine's domain).
THREE_DIGIT = [
    f"0.{a}{b}{c}"
    for a, b, c in itertools.product(range(8), repeat=3)
    if (a | b | c) & 4 and c != 0
]
TWO_DIGIT = [f"0.{a}{b}" for a, b in itertools.product(range(8), repeat=2) if (a | b) & 4 and b]
FOUR_POINT = [f"4.{a}{b}" for a, b in itertools.product(range(8), repeat=2)][::3]


def _sparse(spec: str, n: int, **kw: float) -> np.ndarray:
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    table = SparseTable(rule, n + 1, **kw)  # type: ignore[arg-type]
    table.extend(n + 1)
    return table.values


@pytest.mark.parametrize("chunk", range(4))
def test_every_three_digit_code_matches_the_reference(chunk: int) -> None:
    # warmup 8 and no dense fallback: the rare-value method runs from heap 8 on.
    for code in THREE_DIGIT[chunk::4]:
        game = parse_spec(f"octal:{code}")
        want = reference.heap_table(game, 90)
        got = _sparse(f"octal:{code}", 90, warmup=8, dense_share=2.0)
        assert got.tolist() == want, code


@pytest.mark.parametrize("code", TWO_DIGIT + FOUR_POINT)
def test_two_digit_and_split_without_removal_codes_match_the_reference(code: str) -> None:
    game = parse_spec(f"octal:{code}")
    want = reference.heap_table(game, 150)
    assert _sparse(f"octal:{code}", 150, warmup=8, dense_share=2.0).tolist() == want
    assert _sparse(f"octal:{code}", 150).tolist() == want


def test_grundys_game_matches_the_reference_in_both_methods() -> None:
    game = parse_spec("grundys-game")
    want = reference.heap_table(game, 1500)
    assert _sparse("grundys-game", 1500, warmup=16, dense_share=2.0).tolist() == want
    assert _sparse("grundys-game", 1500, warmup=10**9).tolist() == want


@pytest.mark.parametrize(
    "spec", ["octal:0.106", "octal:0.16", "officers", "octal:0.354", "octal:0.56", "kayles"]
)
def test_long_tables_match_the_independent_dense_kernel(spec: str) -> None:
    # heap_kernels.octal_kernel looks at every split; it shares no code with the sparse engine.
    game = parse_spec(spec)
    n = 12_000
    dense = np.zeros(n + 1, dtype=np.int64)
    hk.octal_kernel(dense, 0, n + 1, np.array(game.moves_spec.digits, dtype=np.int64), 0, 0)  # type: ignore[union-attr]
    got = _sparse(spec, n, warmup=64)
    assert np.array_equal(got.astype(np.int64), dense)


def test_grundys_game_against_the_independent_kernel_and_published_rare_values() -> None:
    n = 1 << 16
    dense = np.zeros(n + 1, dtype=np.int64)
    hk.grundys_game_kernel(dense, 0, n + 1, 0)
    rule = split_rule(parse_spec("grundys-game"))
    assert rule is not None
    table = SparseTable(rule, n + 1)
    table.extend(n + 1)
    assert np.array_equal(table.values.astype(np.int64), dense)
    # Flammenkamp's page on Grundy's game: the sparse values are those whose bits above
    # the lowest have an even count, and it lists among them G(87) = 7, G(146) = 6,
    # G(158) = 11, G(181) = 12, G(196) = 10, G(231) = 10.
    for n_, v in [(87, 7), (146, 6), (158, 11), (181, 12), (196, 10), (231, 10)]:
        assert int(table.values[n_]) == v
    stats = table.stats()
    assert stats["rare_mask"] == 0b11111110  # every bit but the lowest, as published
    assert stats["rare_by_position"] is False
    mask, parity = stats["rare_mask"], stats["rare_parity"]
    rare = [m for m in range(1, n + 1) if bin(int(table.values[m]) & mask).count("1") % 2 == parity]
    assert len(rare) == stats["rare_heaps"] and rare[-1] == stats["last_rare"]
    assert {87, 146, 158, 181, 196, 231} <= set(rare)


def test_figures_describe_the_table() -> None:
    rule = split_rule(parse_spec("octal:0.106"))
    assert rule is not None
    table = SparseTable(rule, 1 << 15)
    table.extend(1 << 15)
    s = table.stats()
    g = table.values
    assert s["largest_value"] == int(g.max()) and int(g[s["largest_at"]]) == s["largest_value"]
    assert int(np.argmax(g == g.max())) == s["largest_at"]
    # 0.106 splits only after removing 3 tokens: its classes alternate with the heap's parity.
    assert s["rare_by_position"] is True and s["rare_heaps"] < 100
    assert s["sparse_heaps"] > s["dense_heaps"]


def test_split_rule_reads_the_digits() -> None:
    assert split_rule(parse_spec("octal:0.106")) == SplitRule((0, 1, 0, 6))
    assert split_rule(parse_spec("grundys-game")) == SplitRule((4,), unequal=True)
    assert split_rule(parse_spec("octal:0.8")) is None  # three-way splits
    assert split_rule(parse_spec("octal:0.33")) is None  # never splits
    assert split_rule(parse_spec("misere:kayles")) is None
    assert split_rule(parse_spec("nim")) is None
    assert SplitRule((0, 1, 0, 6)).same_parity and not SplitRule((0, 4, 4)).same_parity


def test_prefix_extension_gives_the_same_values() -> None:
    game = parse_spec("officers")
    full = _sparse("officers", 6000)
    rule = split_rule(game)
    assert rule is not None
    table = SparseTable(rule, 6001, prefix=full[:3500].astype(np.int64))
    table.extend(6001)
    assert np.array_equal(table.values, full)
    assert grundy_table(game, 6000, prefix=full[:2000]).tolist() == full.tolist()


def test_walsh_hadamard_counts_every_mask() -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(0, 16, size=500)
    hist = np.bincount(values, minlength=16).astype(np.int64)
    w = sk.walsh_hadamard(hist)
    for mask in range(16):
        even = sum(1 for v in values if bin(int(v) & mask).count("1") % 2 == 0)
        assert (len(values) + int(w[mask])) // 2 == even


def test_period_check_finds_and_proves_dawsons_kayles() -> None:
    # OEIS A002187 (Dawson's chess, 0.137): period 34, last exception at n = 51.
    game = parse_spec("dawsons-chess")
    values = grundy_table(game, 600)
    found = period_check(game, values, len(values))
    assert found is not None and found.period == 34 and found.preperiod == 52
    assert found.proved and "Guy" in found.theorem
    short = period_check(game, values, 140)
    assert short is None or not short.proved


def test_period_check_is_not_fooled_by_a_short_table() -> None:
    game = parse_spec("kayles")  # period 12 from n = 71 (preperiod 71)
    values = grundy_table(game, 1000)
    found = period_check(game, values, 150)
    assert found is None or not found.proved
    found = period_check(game, values, 1001)
    assert found is not None and (found.period, found.preperiod, found.proved) == (12, 71, True)


def test_grundys_game_period_is_never_proved() -> None:
    game = parse_spec("grundys-game")
    values = np.array([0, 0, 0] + [1, 2] * 400)  # periodic, but no theorem covers the game
    found = period_check(game, values, len(values))
    assert found is not None and not found.proved and found.theorem == ""


def test_check_points_cover_each_doubling_four_times() -> None:
    pts = check_points(0, 1 << 14)
    assert pts[-1] == 1 << 14
    assert [p for p in pts if (1 << 12) <= p < (1 << 13)] == [4096, 5120, 6144, 7168]


def test_too_large_a_table_is_refused_with_the_memory_it_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from nimproof.engines import sparse

    monkeypatch.setattr(sparse, "available_memory", lambda: 1 << 20)
    with pytest.raises(UsageError, match=r"needs about .* GB of memory"):
        grundy_table(parse_spec("octal:0.106"), 10_000_000)


@pytest.mark.parametrize(
    ("spec", "figures"),
    [
        # Published sparse-space figures (the rare list there counts heap 0 as well):
        # 0.56: mask 0x5b, 46 rare, last rare heap 1795, largest value 64 first at 22778;
        # 0.106: mask 0xd with the heap's parity, 15 rare, last rare heap 1103, 27 at 52692.
        (
            "octal:0.56",
            {
                "rare_mask": 0x5B,
                "rare_by_position": False,
                "rare_heaps": 45,
                "last_rare": 1795,
                "largest_value": 64,
                "largest_at": 22778,
            },
        ),
        (
            "octal:0.106",
            {
                "rare_mask": 0xD,
                "rare_by_position": True,
                "rare_heaps": 15,
                "last_rare": 1103,
                "largest_value": 27,
                "largest_at": 52692,
            },
        ),
    ],
)
def test_published_rare_figures(spec: str, figures: dict[str, object]) -> None:
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    table = SparseTable(rule, 1 << 16)
    table.extend(1 << 16)
    stats = table.stats()
    assert {k: stats[k] for k in figures} == figures
    # The whole run stayed in the sparse method after the warm-up (no quadratic fallback).
    assert stats["dense_heaps"] <= 2048
