"""Every single-heap kernel against the plain reference implementation."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimproof.engines import grundy_table, heap_engine, heap_targets_csr, reference
from nimproof.engines import heap as heap_engine_module
from nimproof.engines.heap import (
    MISERE_SPLIT_LIMITS,
    MISERE_SPLIT_MAX_N,
    QUADRATIC_MAX_N,
    RULE_MAX_N,
    SPARSE_MAX_N,
    subtraction_members,
)
from nimproof.errors import UsageError
from nimproof.games import HeapGame, Heaps, parse_spec
from nimproof.games.heap import InfiniteSubtraction, IntervalGame

FAMILIES = [
    ("nim", 60),
    ("subtraction:1,3,4", 80),
    ("subtraction:2,5,7,11", 80),
    ("knim:3", 60),
    ("half-heap", 80),
    ("take-fraction:2/3", 80),
    ("take-fraction:1/3", 80),
    ("take-fraction:1/1", 40),
    ("subtraction:primes", 80),
    ("subtraction:squares", 80),
    ("subtraction:triangular", 80),
    ("subtraction:multiples-of:3", 80),
    ("subtraction:all-but:1,2", 80),
    ("subtraction:all-but:2,3,7", 80),
    ("kayles", 60),
    ("dawsons-kayles", 60),
    ("dawsons-chess", 60),
    ("officers", 60),
    ("octal:0.007", 60),
    ("octal:0.f", 40),
    ("octal:4.07", 40),
    ("octal:0.8", 40),
    ("octal:8.1", 30),
    ("octal:c.37f", 30),
    ("octal:0.3", 60),
    ("octal:0.13", 60),
    ("grundys-game", 80),
    ("rule:(n+1)//2 <= m < n", 60),
    ("rule:m*m < n", 60),
    ("rule:m < n and n % (n-m) == 0", 60),
    ("rule:m < n and (n ^ m) & 1 == 1", 60),
    ("rule:m < n and n // (m - 3) > 1", 40),
]

MISERE = [
    ("misere:nim", 40),
    ("misere:knim:3", 40),
    ("misere:subtraction:2,5", 40),
    ("misere:subtraction:3", 30),
    ("misere:half-heap", 40),
    ("misere:subtraction:all-but:2", 40),
    ("misere:subtraction:squares", 40),
    ("misere:octal:0.3", 40),
    ("misere:rule:m < n and (n - m) % 2 == 1", 40),
    ("misere:kayles", 18),
    ("misere:dawsons-kayles", 18),
    ("misere:grundys-game", 18),
    ("misere:octal:4.07", 14),
]


@pytest.mark.parametrize(("spec", "n"), FAMILIES)
def test_fast_table_matches_reference_for_every_family(spec: str, n: int) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    assert grundy_table(game, n).tolist() == reference.heap_table(game, n)


@pytest.mark.parametrize(("spec", "n"), MISERE)
def test_misere_table_matches_reference_values(spec: str, n: int) -> None:
    game = parse_spec(spec)
    cache: dict[object, int] = {}
    expected = [reference.value(game, i, cache) for i in range(n + 1)]
    assert grundy_table(game, n).tolist() == expected


@pytest.mark.parametrize(("spec", "n"), MISERE)
def test_reference_misere_heap_table_matches_direct_mex(spec: str, n: int) -> None:
    game = parse_spec(spec)
    base = game.normal
    assert isinstance(base, HeapGame)
    if base.splits:
        with pytest.raises(ValueError, match="splits heaps"):
            reference.misere_heap_table(base, n)
        return
    cache: dict[object, int] = {}
    assert reference.misere_heap_table(base, n) == [
        reference.value(game, i, cache) for i in range(n + 1)
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=5))
def test_random_finite_subtraction_sets_match_reference(takes: list[int]) -> None:
    game = parse_spec("subtraction:" + ",".join(map(str, takes)))
    assert isinstance(game, HeapGame)
    assert grundy_table(game, 70).tolist() == reference.heap_table(game, 70)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=0, max_size=3), st.integers(1, 9))
def test_random_all_but_and_multiples_sets_match_reference(excluded: list[int], k: int) -> None:
    for spec in (
        f"subtraction:multiples-of:{k}",
        "subtraction:all-but:" + ",".join(map(str, excluded or [k])),
    ):
        game = parse_spec(spec)
        assert isinstance(game, HeapGame)
        assert grundy_table(game, 50).tolist() == reference.heap_table(game, 50)


_HEX = "0123456789abcdef"


@st.composite
def octal_codes(draw: st.DrawFn) -> str:
    head = draw(st.sampled_from("048c"))
    tail = draw(st.lists(st.sampled_from(_HEX), min_size=1, max_size=4))
    if head == "0" and set(tail) == {"0"}:
        tail[-1] = "7"
    return f"{head}.{''.join(tail)}"


@settings(max_examples=60, deadline=None)
@given(octal_codes())
def test_random_octal_codes_match_reference(code: str) -> None:
    game = parse_spec(f"octal:{code}")
    assert isinstance(game, HeapGame)
    three_way = any(int(ch, 16) & 8 for ch in code.replace(".", ""))
    n = 22 if three_way else 45
    assert grundy_table(game, n).tolist() == reference.heap_table(game, n)


_TERMS = st.sampled_from(
    ["n", "m", "n - m", "n + m", "2*m", "n // 2", "m + 1", "3", "n*m", "n % 3"]
)
_OPS = st.sampled_from(["+", "-", "*", "//", "%", "&", "|", "^"])
_CMPS = st.sampled_from(["<", "<=", "==", "!=", ">", ">="])


@st.composite
def rule_texts(draw: st.DrawFn) -> str:
    left = f"({draw(_TERMS)}) {draw(_OPS)} ({draw(_TERMS)})"
    right = draw(_TERMS)
    clause = f"{left} {draw(_CMPS)} {right}"
    if draw(st.booleans()):
        clause = f"({clause}) {draw(st.sampled_from(['and', 'or']))} ({draw(_TERMS)}) % 2 == 0"
    return f"rule:m < n and ({clause})"


@settings(max_examples=60, deadline=None)
@given(rule_texts(), st.booleans())
def test_random_rule_expressions_match_reference(spec: str, misere: bool) -> None:
    game = parse_spec(("misere:" if misere else "") + spec)
    if misere:
        cache: dict[object, int] = {}
        expected = [reference.value(game, i, cache) for i in range(31)]
    else:
        assert isinstance(game, HeapGame)
        expected = reference.heap_table(game, 30)
    assert grundy_table(game, 30).tolist() == expected


def test_rule_whose_vectorised_values_overflow_falls_back_to_exact_evaluation() -> None:
    game = parse_spec("rule:m < n and n ** 9 - m ** 9 > 10 ** 18")
    assert isinstance(game, HeapGame)
    assert grundy_table(game, 200).tolist() == reference.heap_table(game, 200)


@pytest.mark.parametrize(
    "spec",
    [
        "subtraction:1,3,4",
        "half-heap",
        "kayles",
        "grundys-game",
        "octal:0.8",
        "subtraction:primes",
        "rule:m*m < n",
        "misere:knim:2",
        "misere:kayles",
    ],
)
def test_table_extended_from_a_prefix_equals_the_table_computed_at_once(spec: str) -> None:
    game = parse_spec(spec)
    n = 16 if spec == "misere:kayles" else 120
    whole = grundy_table(game, n)
    for cut in (0, 1, 7, n // 2, n + 1):
        assert np.array_equal(grundy_table(game, n, prefix=whole[:cut]), whole)


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("octal:0.c", 170),
        ("rule:m < n", 150),
        ("subtraction:multiples-of:1", 150),
        ("misere:nim", 150),
    ],
)
def test_values_of_64_and_more_still_match_reference_in_chunks_and_from_prefixes(
    spec: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Below 64 the kernels collect option values as bits of a word; above, in a stamp array.
    # Small chunks make the progress path call each kernel many times, across the switch.
    for name, size in (("_LINEAR_CHUNK", 16), ("_QUADRATIC_CHUNK", 16), ("_RULE_CELLS", 2000)):
        monkeypatch.setattr(heap_engine_module, name, size)
    game = parse_spec(spec)
    if game.misere:
        cache: dict[object, int] = {}
        expected = [reference.value(game, i, cache) for i in range(n + 1)]
    else:
        assert isinstance(game, HeapGame)
        expected = reference.heap_table(game, n)
    assert max(expected) >= 64
    assert grundy_table(game, n).tolist() == expected
    half = np.array(expected[: n // 2])
    chunked = grundy_table(game, n, prefix=half, progress=lambda done, total: None)
    assert chunked.tolist() == expected


def test_prefix_values_are_reused_not_recomputed() -> None:
    # subtraction:1 alternates 0, 1; a (false) prefix [1] shifts the pattern, which shows reuse.
    game = parse_spec("subtraction:1")
    assert grundy_table(game, 4, prefix=np.array([1])).tolist() == [1, 0, 1, 0, 1]


def test_longer_prefix_is_sliced_to_the_bound() -> None:
    game = parse_spec("nim")
    assert grundy_table(game, 3, prefix=np.arange(10)).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "spec", ["knim:4", "kayles", "rule:m < n", "subtraction:squares", "half-heap"]
)
def test_progress_reports_end_at_the_total(spec: str) -> None:
    calls: list[tuple[int, int]] = []
    grundy_table(parse_spec(spec), 3000, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (3001, 3001)
    assert all(a <= b for (a, _), (b, _) in itertools.pairwise(calls))


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("octal:0.8", QUADRATIC_MAX_N + 1),
        ("kayles", SPARSE_MAX_N + 1),
        ("rule:m < n", RULE_MAX_N + 1),
        ("misere:kayles", MISERE_SPLIT_LIMITS[(0, 7, 7)] + 1),
        ("misere:grundys-game", MISERE_SPLIT_MAX_N + 1),
        ("nim", 10**12),
    ],
)
def test_bounds_beyond_the_engine_limit_are_usage_errors(spec: str, n: int) -> None:
    with pytest.raises(UsageError, match="limit"):
        grundy_table(parse_spec(spec), n)


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_malformed_bounds_are_usage_errors(bad: object) -> None:
    with pytest.raises(UsageError):
        grundy_table(parse_spec("nim"), bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec", ["moore:2", "staircase", "plugin:chocolate", "sum:nim+kayles", "misere:moore:2"]
)
def test_games_without_single_heap_tables_are_usage_errors(spec: str) -> None:
    with pytest.raises(UsageError):
        grundy_table(parse_spec(spec), 10)


class _Wobbly(IntervalGame):
    """A made-up interval game with a non-monotone lower end: [n//2, n) for even n, else [0, n)."""

    spec = "test-wobbly"

    def move_interval(self, n: int) -> tuple[int, int]:
        return (n // 2 if n % 2 == 0 else 0), n


class _Splitter(HeapGame):
    """A made-up splitting game no kernel knows: take 1, or split off a heap of 1 or 2."""

    spec = "test-splitter"
    splits = True

    def options(self, n: int) -> Iterator[Heaps]:
        if n >= 1:
            yield (n - 1,)
        for a in (1, 2):
            if n - a > a:
                yield (a, n - a)


class _Plain(HeapGame):
    """A made-up non-splitting game no kernel knows: take 1, or halve an even heap."""

    spec = "test-plain"

    def options(self, n: int) -> Iterator[Heaps]:
        if n >= 1:
            yield (n - 1,)
        if n >= 2 and n % 2 == 0:
            yield (n // 2,)


@pytest.mark.parametrize("game", [_Wobbly(), _Splitter(), _Plain()], ids=lambda g: g.spec)
def test_games_without_a_kernel_still_match_the_reference(game: HeapGame) -> None:
    assert grundy_table(game, 60).tolist() == reference.heap_table(game, 60)


def test_engines_are_named_after_the_structure_they_use() -> None:
    assert heap_engine(parse_spec("knim:3")) == "subtraction-finite"
    assert heap_engine(parse_spec("half-heap")) == "interval-window"
    assert heap_engine(parse_spec("kayles")) == "sparse-space"
    assert heap_engine(parse_spec("grundys-game")) == "sparse-space"
    assert heap_engine(parse_spec("octal:0.8")) == "octal-splits"
    assert heap_engine(parse_spec("misere:kayles")) == "misere-joint-positions"
    assert heap_engine(_Splitter()) == "generic-python"


@pytest.mark.parametrize(
    "spec",
    [
        "subtraction:1,3,4",
        "half-heap",
        "nim",
        "subtraction:primes",
        "subtraction:all-but:2",
        "rule:m*m < n",
        "octal:0.3",
        "octal:0.13",
    ],
)
def test_target_lists_match_the_move_generator(spec: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    ptr, targets = heap_targets_csr(game, 50)
    for n in range(51):
        assert targets[ptr[n] : ptr[n + 1]].tolist() == sorted(set(game.heap_targets(n)))


@pytest.mark.parametrize(
    "spec", ["primes", "squares", "triangular", "multiples-of:7", "all-but:1,4,9"]
)
def test_vectorised_members_match_the_set_definition(spec: str) -> None:
    game = parse_spec(f"subtraction:{spec}")
    assert isinstance(game, InfiniteSubtraction)
    for n in (0, 1, 2, 50, 1000):
        assert subtraction_members(game, n).tolist() == game.members_up_to(n)
