"""The block kernel's swept rare list, tentative values and common-pair chunks.

``nimproof.engines.block_kernels.block_kernel`` marks the rare pairs of a whole
block at once, gives every heap of the block its tentative value and checks them
in parallel, going back when a heap turns out rare. Its values are compared here
with the plain reference implementation (which shares no code with it) over random
codes, block sizes, thread counts and prefix lists, with the one-heap kernel on
long tables where the ranked list is in use, and with the published figures of
Officers and Grundy's game at 2^21 heaps.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimproof.engines import block_pipeline as bp
from nimproof.engines import reference, sparse
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, split_rule, use_threads
from nimproof.games import parse_spec

N = 400
#: Codes with many rare heaps (Officers, Grundy's game, 0.16), few (0.106, 0.167), 4.x codes
#: and codes whose every split leaves two unequal heaps.
NAMED = [
    "octal:0.6",
    "grundys-game",
    "octal:0.16",
    "octal:0.106",
    "octal:0.167",
    "octal:4.6",
    "octal:4.07",
    "cgsuite:4!.3",
    "cgsuite:0.6!",
    "cgsuite:4!.34!",
]
DIGIT = st.integers(min_value=0, max_value=7)
CODES = st.one_of(
    st.sampled_from(NAMED),
    st.tuples(st.sampled_from(["0", "4"]), st.lists(DIGIT, min_size=1, max_size=4))
    .filter(lambda c: c[0] == "4" or any(d & 4 for d in c[1]))
    .map(lambda c: f"octal:{c[0]}." + "".join(map(str, c[1])) + "1"),  # a last digit not 0
)
#: A table of _Listed: the code, the block size, the list's bound and its order's seed.
TABLES = {
    "spec": CODES,
    "block": st.sampled_from([4, 8, 16, 32]),
    "bound": st.integers(min_value=1, max_value=180),
    "seed": st.integers(min_value=0, max_value=2**32 - 1),
}
PUBLISHED = Path(__file__).parents[2] / "nimproof" / "atlas" / "data" / "unsolved_games.csv"


@functools.cache
def _reference(spec: str, n: int) -> tuple[int, ...]:
    return tuple(reference.heap_table(parse_spec(spec), n))


class _Listed(SparseTable):
    """A table whose kernels read the common heaps below ``bound`` in a random order."""

    def __init__(self, spec: str, bound: int, seed: int, block: int) -> None:
        rule = split_rule(parse_spec(spec))
        assert rule is not None
        super().__init__(rule, N + 1, warmup=16, dense_share=2.0, block=block, parallel=True)
        self.bound = bound
        self.rng = np.random.default_rng(seed)
        self.workers = 0  # 0: the engine's thread count; else the pipelined kernel's workers
        self.retire: tuple[int, float] = bp.RETIRE

    def _blocks(self, start: int) -> tuple[bool, int]:
        use, threads = super()._blocks(start)
        return use, self.workers or threads

    def _sparse_step(self, start: int, end: int) -> tuple[int, int, int]:
        use, workers = self._blocks(start)
        if not (use and self.workers > 1):
            return super()._sparse_step(start, end)
        args = [self.values, start, end, self.digits, self.rule.unequal, self.parity]
        args += [self.posbit, self.cbit, self.rare, self.nrare, self.hist, self._vmax()]
        args += [self.dense_share, self.block, self._prefix(start), workers, self.retire]
        return tuple(bp.pipelined_kernel(*args))  # type: ignore[return-value]

    def _prefix(self, start: int) -> tuple[np.ndarray, np.ndarray, int]:
        bound = max(1, min(start, self.bound))
        heaps, values = sk.common_prefix(self.values, bound, self.parity, self.posbit, self.cbit)
        order = self.rng.permutation(len(heaps))
        return heaps[order], values[order], bound


@settings(max_examples=60, deadline=None)
@given(
    **TABLES,
    threads=st.sampled_from([1, 2]),
    pipeline=st.booleans(),
)
def test_block_kernel_gives_the_reference_values(
    spec: str, block: int, bound: int, seed: int, threads: int, pipeline: bool
) -> None:
    # Small blocks from heap 4 * block on, no dense fallback (every code takes the sparse
    # method however many heaps are rare), a random prefix list (long enough, for bounds
    # above about 100, for the heaps of a tile to read it together in chunks). Two threads
    # run the pipelined kernel, or (pipeline False) the block kernel's own parallel steps.
    if threads > use_threads(None):
        threads = 1
    use_threads(threads)
    sparse.PIPELINE = pipeline
    try:
        table = _Listed(spec, bound, seed, block)
        table.extend(N + 1)
    finally:
        use_threads(None)
        sparse.PIPELINE = True
    assert table.values.tolist() == list(_reference(spec, N)), spec


@settings(max_examples=40, deadline=None)
@given(
    **TABLES,
    workers=st.sampled_from([2, 3, 5]),
    retire=st.booleans(),
)
def test_pipelined_kernel_gives_the_reference_values(
    spec: str, block: int, bound: int, seed: int, workers: int, retire: bool
) -> None:
    # More workers than numba's threads (a thread runs a second worker after the first, which
    # takes every task in order), and (retire) every worker but one leaving the stretch after
    # its first task: the tasks are the same, only who runs them changes.
    table = _Listed(spec, bound, seed, block)
    table.workers = workers
    if retire:
        table.retire = (0, -1.0)
    table.extend(N + 1)
    assert table.values.tolist() == list(_reference(spec, N)), spec


@pytest.mark.parametrize("spec", ["octal:0.6", "grundys-game"])
def test_block_kernel_with_the_ranked_list_matches_the_one_heap_kernel(spec: str) -> None:
    # Past 4 x 2^15 heaps the common prefix is ranked and the heaps of a tile read it in
    # chunks; the one-heap kernel (tested against the reference elsewhere) must agree, with
    # the block kernel on one thread and the pipelined kernel on two workers.
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    n = 300_000
    one = SparseTable(rule, n, parallel=False)
    one.extend(n)
    for threads in (1, 2):
        blocks = _Workers(rule, n, threads)  # the block kernel: more than 256 rare heaps
        blocks.extend(n)
        assert blocks.nrare >= 256 and blocks.prefix is not None and len(blocks.prefix[0]) > 0
        assert np.array_equal(one.values, blocks.values), threads


class _Workers(SparseTable):
    """The engine's choice of kernel, on ``workers`` workers (numba's threads or not)."""

    def __init__(self, rule: sparse.SplitRule, n: int, workers: int, **kw: float) -> None:
        super().__init__(rule, n, **kw)  # type: ignore[arg-type]
        self.workers = workers

    def _blocks(self, start: int) -> tuple[bool, int]:
        return super()._blocks(start)[0], self.workers


def test_pipelined_kernel_widens_compact_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # A table in uint8 from the first heap: Officers passes 255 at heap 10,344, where the
    # pipelined kernel stops its stretch (the value does not fit), the engine widens the
    # array and a new stretch goes on; no dense fallback, so the block kernels run from 256.
    rule = split_rule(parse_spec("octal:0.6"))
    assert rule is not None
    n = 12_000
    want = reference.heap_table(parse_spec("octal:0.6"), n - 1)
    monkeypatch.setattr(sparse, "COMPACT_FROM", 100)
    for workers in (1, 2):
        table = _Workers(rule, n, workers, dense_share=2.0)
        table.extend(n)
        assert table.values.dtype == np.uint16
        assert table.counts["sparse"] > n // 2
        assert table.values.tolist() == want, workers


@pytest.mark.parametrize(("spec", "code"), [("octal:0.6", "0.6"), ("grundys-game", "grundys-game")])
def test_published_figures_at_two_to_the_21(spec: str, code: str) -> None:
    # tczajka/octal-games' list of unsolved games (nimproof/atlas/data/unsolved_games.csv):
    # the largest value and its first heap, the rare mask, the rare heaps (counting heap 0)
    # and the last rare heap, for heaps below 2^21.
    with PUBLISHED.open(encoding="utf-8") as f:
        rows = {r["code"]: r for r in csv.DictReader(line for line in f if line[0] != "#")}
    row = rows[code]
    rule = split_rule(parse_spec(spec))
    assert rule is not None and row["published_log2_n"] == "21"
    table = SparseTable(rule, 1 << 21)
    table.extend(1 << 21)
    stats = table.stats()
    assert (stats["largest_value"], stats["largest_at"]) == (
        int(row["largest"]),
        int(row["largest_at"]),
    )
    assert stats["rare_mask"] == int(row["rare_mask"], 16)
    assert stats["rare_heaps"] + 1 == int(row["num_rare"])
    assert stats["last_rare"] == int(row["last_rare"])
