"""The parallel block kernel of the sparse engine against the plain reference and other kernels.

The block kernel (``nimproof.engines.block_kernels``) reorders the sparse-space
method's work; its values are checked here against code that shares nothing with
it: the plain reference implementation and the dense every-split kernel, and
against the one-heap sparse kernel.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nimproof.engines import heap_kernels as hk
from nimproof.engines import reference
from nimproof.engines.sparse import SparseTable, split_rule, use_threads
from nimproof.errors import UsageError
from nimproof.games import parse_spec

THREE_DIGIT = [
    f"0.{a}{b}{c}"
    for a, b, c in itertools.product(range(8), repeat=3)
    if (a | b | c) & 4 and c != 0
]
SPLIT_WITHOUT_REMOVAL = [f"4.{a}{b}" for a, b in itertools.product(range(8), repeat=2)][::5]


def _table(spec: str, n: int, **kw: object) -> SparseTable:
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    table = SparseTable(rule, n + 1, **kw)  # type: ignore[arg-type]
    table.extend(n + 1)
    return table


@pytest.mark.parametrize("chunk", range(3))
def test_every_three_digit_code_matches_the_reference_in_blocks(chunk: int) -> None:
    # warmup 8, blocks of 4 heaps (the block kernel runs from heap 16), no dense fallback.
    for code in THREE_DIGIT[chunk::3]:
        want = reference.heap_table(parse_spec(f"octal:{code}"), 90)
        table = _table(f"octal:{code}", 90, warmup=8, dense_share=2.0, block=4, parallel=True)
        assert table.values.tolist() == want, code
        assert table.counts["sparse"] > 60


@pytest.mark.parametrize("code", [*SPLIT_WITHOUT_REMOVAL, "0.44", "0.77", "0.447", "4.4"])
def test_several_splitting_digits_match_the_reference_in_blocks(code: str) -> None:
    want = reference.heap_table(parse_spec(f"octal:{code}"), 160)
    table = _table(f"octal:{code}", 160, warmup=8, dense_share=2.0, block=8, parallel=True)
    assert table.values.tolist() == want


def test_grundys_game_in_blocks_matches_the_reference() -> None:
    want = reference.heap_table(parse_spec("grundys-game"), 1200)
    table = _table("grundys-game", 1200, warmup=16, dense_share=2.0, block=16, parallel=True)
    assert table.values.tolist() == want


@pytest.mark.parametrize(
    ("spec", "block"),
    [("officers", 64), ("officers", 256), ("grundys-game", 64), ("octal:0.106", 32)],
)
def test_long_tables_in_blocks_match_the_one_heap_kernel_and_the_dense_kernel(
    spec: str, block: int
) -> None:
    n = 20_000
    # No dense fallback: the sparse method from heap 2048 on, where these games still have
    # many rare heaps (the hard case for the block kernel's phase B).
    one = _table(spec, n, dense_share=2.0, parallel=False).values.astype(np.int64)
    blocks = _table(spec, n, dense_share=2.0, block=block, parallel=True)
    assert blocks.counts["sparse"] > n // 2  # the block kernel did most of the work
    assert np.array_equal(blocks.values.astype(np.int64), one)
    dense = np.zeros(n + 1, dtype=np.int64)
    game = parse_spec(spec)
    if spec == "grundys-game":
        hk.grundys_game_kernel(dense, 0, n + 1, 0)
    else:
        digits = np.array(game.moves_spec.digits, dtype=np.int64)  # type: ignore[union-attr]
        hk.octal_kernel(dense, 0, n + 1, digits, 0, 0)
    assert np.array_equal(one, dense)


def test_thread_count_is_checked() -> None:
    with pytest.raises(UsageError, match="--threads must be between 1 and"):
        use_threads(0)
    with pytest.raises(UsageError, match="--threads must be between 1 and"):
        use_threads(10_000)
    assert use_threads(1) == 1
    use_threads(None)


@pytest.mark.parametrize("spec", ["officers", "octal:0.007", "octal:0.106"])
def test_compact_tables_widen_as_values_grow(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Long tables start in uint8; Officers and 0.007 pass 255 near heap 10,000 (sparse and
    # dense kernels), 0.106 stays below 32. Values equal the uint32 table's.
    from nimproof.engines import sparse

    n = 12_000
    wide = _table(spec, n, parallel=False).values
    assert wide.dtype == np.uint32
    monkeypatch.setattr(sparse, "COMPACT_FROM", 100)
    compact = _table(spec, n)
    assert compact.values.dtype == (np.uint8 if spec == "octal:0.106" else np.uint16)
    assert np.array_equal(compact.values.astype(np.uint32), wide)
    prefix = _table(spec, n, prefix=wide[:5000])
    assert np.array_equal(prefix.values.astype(np.uint32), wide)


def test_cli_threads_option(capsys: pytest.CaptureFixture[str]) -> None:
    from nimproof.cli.main import main

    assert main(["table", "officers", "--max-n", "5000", "--threads", "1", "--json"]) == 0
    one = capsys.readouterr().out
    assert main(["table", "officers", "--max-n", "5000", "--threads", "2", "--json"]) in (0, 2)
    assert main(["table", "officers", "--max-n", "5", "--threads", "100000"]) == 2
    assert "--threads" in capsys.readouterr().err
    use_threads(None)
    assert '"grundy": [0, 0, 1, 2, 0, 1' in one
