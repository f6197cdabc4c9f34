"""The one-heap sparse kernel on several threads (``nimproof.engines.lockstep``).

Workers take heaps in turn and commit them in order; a heap whose record would make
the engine act (a rare heap, a new value, a value out of range or too wide for the
array) ends the stretch and is recorded after the workers leave. The values are
compared with the plain reference implementation (which shares no code with the
kernels) over random codes, worker counts, prefix lists and dense fallbacks, with the
one-thread kernel on long tables, and in a ``uint8`` table whose values stop fitting.
"""

from __future__ import annotations

import functools
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimproof.engines import lockstep, reference, sparse, turns
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec
from tests.engines.test_block_sweep import RANDOM_CODES

N = 500
NAMED = [
    "octal:0.167",
    "octal:0.106",
    "octal:0.104",
    "octal:0.054",
    "octal:0.454",
    "octal:0.04",
    "octal:4.07",
    "octal:0.6",
    "grundys-game",
    "cgsuite:4!.3",
]
CODES = st.one_of(st.sampled_from(NAMED), RANDOM_CODES)


@functools.cache
def _reference(spec: str, n: int) -> tuple[int, ...]:
    return tuple(reference.heap_table(parse_spec(spec), n))


class _Lockstep(SparseTable):
    """A table whose sparse steps all run :func:`lockstep.lockstep_kernel` on ``workers``
    workers (more than numba's threads: a thread runs a second worker after the first),
    reading the common heaps below ``bound`` in a random order."""

    def __init__(self, spec: str, n: int, workers: int, **kw: object) -> None:
        rule = split_rule(parse_spec(spec))
        assert rule is not None
        super().__init__(rule, n, **kw)  # type: ignore[arg-type]
        self.workers = workers
        self.retire: tuple[int, float] = turns.RETIRE
        self.bound = 0
        self.rng = np.random.default_rng(0)
        self.calls = 0
        self.memo[2] = -1  # every call on the workers (no measuring)

    def _sparse_step(self, start: int, end: int) -> tuple[int, int, int]:
        args = [self.values, start, end, self.digits, self.rule.unequal, self.parity]
        args += [self.posbit, self.cbit, self.rare, self.nrare, self.seen, self.hist]
        args += [self._vmax(), self.dense_share, self._prefix(start), self.workers, self.memo]
        args += [self.retire]
        self.calls += 1
        return tuple(lockstep.lockstep_kernel(*args))  # type: ignore[return-value]

    def _prefix(self, start: int) -> tuple[np.ndarray, np.ndarray, int]:
        if not self.bound:
            return super()._prefix(start)
        bound = max(1, min(start, self.bound))
        heaps, values = sk.common_prefix(self.values, bound, self.parity, self.posbit, self.cbit)
        order = self.rng.permutation(len(heaps))
        return heaps[order], values[order], bound


@settings(max_examples=30, deadline=None)
@given(spec=CODES, n=st.integers(min_value=20, max_value=60))
def test_reach_is_the_least_distance_an_option_reads(spec: str, n: int) -> None:
    # From the game's own list of options (not from its digits): heap n's options read no
    # heap above n - reach, and for some heap one reads n - reach exactly.
    game = parse_spec(spec)
    rule = split_rule(game)
    assert rule is not None
    d = int(sk.reach(np.array(rule.digits, dtype=np.int64)))
    gaps = [m - max(parts) for m in range(n, n + 8) for parts in game.options(m) if parts]
    assert min(gaps) == d, spec


def test_reach_of_the_named_games() -> None:
    def reach(spec: str) -> int:
        rule = split_rule(parse_spec(spec))
        assert rule is not None
        return int(sk.reach(np.array(rule.digits, dtype=np.int64)))

    assert [reach(s) for s in ("octal:0.167", "octal:0.106", "octal:0.6", "grundys-game")] == [
        2,
        3,
        1,
        1,
    ]


@settings(max_examples=60, deadline=None)
@given(
    spec=CODES,
    workers=st.sampled_from([1, 2, 3, 5]),
    retire=st.booleans(),
    bound=st.integers(min_value=0, max_value=120),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    dense=st.booleans(),
)
def test_lockstep_kernel_gives_the_reference_values(
    spec: str, workers: int, retire: bool, bound: int, seed: int, dense: bool
) -> None:
    # The sparse method from heap 16 on, with a random prefix list (bound > 0), with or
    # without the dense fallback (dense: the engine's share, so codes with many rare heaps
    # stop with DENSE and go on densely), and (retire) every worker but one leaving each
    # stretch after its first heap.
    share = sparse.DENSE_SHARE if dense else 2.0
    table = _Lockstep(spec, N + 1, workers, warmup=16, dense_share=share)
    table.bound, table.rng = bound, np.random.default_rng(seed)
    if retire:
        table.retire = (0, -1.0)
    table.extend(N + 1)
    assert table.values.tolist() == list(_reference(spec, N)), spec
    assert (table.calls > 0) == (table.counts["sparse"] > 0)


class _Narrow(_Lockstep):
    """A uint8 table that holds values up to 31 only (the kernels' ``vmax``)."""

    def _vmax(self) -> int:
        return 31 if self.values.dtype == np.uint8 else super()._vmax()


@pytest.mark.parametrize("spec", ["octal:0.04", "octal:0.167"])
def test_lockstep_kernel_widens_compact_values(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A uint8 table from the first heap whose values may not pass 31: the first larger value
    # ends the stretch unrecorded (OVERFLOW), the engine widens the array and a new stretch
    # goes on.
    n = 1_500
    want = _reference(spec, n - 1)
    assert max(want) > 31
    monkeypatch.setattr(sparse, "COMPACT_FROM", 100)
    table = _Narrow(spec, n, 2, warmup=64, dense_share=2.0)
    assert table.values.dtype == np.uint8
    table.extend(n)
    assert table.values.dtype == np.uint16
    assert table.counts["sparse"] > n // 2
    assert table.values.tolist() == list(want)


@pytest.mark.parametrize("spec", ["octal:0.167", "octal:0.106"])
def test_lockstep_kernel_on_a_long_table_matches_one_thread(spec: str) -> None:
    # 2^20 heaps (past the ranking of the common prefix at 4 x 2^15 heaps), the engine's
    # own choices; only the kernel of the sparse steps differs.
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    n = 1 << 20
    one = SparseTable(rule, n)
    sparse.use_threads(1)
    try:
        one.extend(n)
    finally:
        sparse.use_threads(None)
    two = _Lockstep(spec, n, 2)
    two.extend(n)
    assert np.array_equal(one.values, two.values)
    assert one.nrare == two.nrare and np.array_equal(one.hist, two.hist)
    assert one.counts == two.counts and one.mask == two.mask  # the same early returns
    assert two.calls > 0


class _Spy:
    """Counts the calls of the lockstep kernel, and runs it."""

    def __init__(self) -> None:
        self.calls = 0
        self.kernel = lockstep.lockstep_kernel

    def __call__(self, *args: object) -> tuple[int, int, int]:
        self.calls += 1
        return self.kernel(*args)  # type: ignore[no-any-return]


def test_the_engine_picks_the_lockstep_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every core from the main thread when the game's reach is 2 or more and few heaps are
    # rare; one thread from another thread (a Dask worker's), for Officers (reach 1), and
    # with --threads 1.
    spy = _Spy()
    monkeypatch.setattr(lockstep, "lockstep_kernel", spy)
    cores = sparse.use_threads(None)

    def run(spec: str, n: int = 20_000) -> list[int]:
        rule = split_rule(parse_spec(spec))
        assert rule is not None
        table = SparseTable(rule, n)
        table.extend(n)
        return table.values.tolist()

    want = run("octal:0.167")
    assert (spy.calls > 0) == (cores > 1)
    spy.calls = 0
    sparse.use_threads(1)
    try:
        assert run("octal:0.167") == want
    finally:
        sparse.use_threads(None)
    result: list[list[int]] = []
    worker = threading.Thread(target=lambda: result.append(run("octal:0.167")))
    worker.start()
    worker.join()
    assert result == [want]
    run("octal:0.6", 8_000)
    assert spy.calls == 0


@pytest.mark.parametrize(
    ("memo", "after"),
    [
        # No one-thread figure yet: this call runs on one thread and measures it.
        ([0, 0, 0, 0], lambda m: m[2] > 0 and m[3] == 0),
        # One thread at 1 cycle a heap: two threads do not pay, the next call runs on one.
        ([0, 0, 1, 0], lambda m: m[:2] == [1, 1] and m[3] == 1),
        # One thread at 10^9 cycles a heap: two threads pay, no backoff.
        ([0, 4, 10**9, 0], lambda m: m[:2] == [0, 0] and m[3] == 1),
        # Calls left to run on one thread: one is used, and the figure is measured again.
        ([2, 2, 10**9, 5], lambda m: m[:2] == [1, 2] and 0 < m[2] < 10**9 and m[3] == 0),
        # A one-thread call every BACKOFF calls keeps the figure current.
        ([0, 0, 10**9, lockstep.BACKOFF], lambda m: m[2] < 10**9 and m[3] == 0),
    ],
)
def test_two_threads_only_where_they_pay(memo: list[int], after: object) -> None:
    # One call of 40,000 heaps of 0.167 on two threads, from a table computed to 40,000 heaps
    # on one (no value appears for the first time after heap 32,673 before 400,000: the call
    # ends at its stop); the values are the one-thread kernel's whatever the rule decides.
    rule = split_rule(parse_spec("octal:0.167"))
    assert rule is not None
    n, start = 80_000, 40_000
    want = SparseTable(rule, n)
    sparse.use_threads(1)
    try:
        want.extend(n)
        table = SparseTable(rule, n)
        table.extend(start)
    finally:
        sparse.use_threads(None)
    table.memo[:] = memo
    t = table
    args = [t.values, start, n, t.digits, t.rule.unequal, t.parity, t.posbit, t.cbit, t.rare]
    args += [t.nrare, t.seen, t.hist, t._vmax(), t.dense_share, t._prefix(start), 2, t.memo]
    never = (1 << 62, 2.0)  # no worker leaves (on a busy machine one may): only the figures
    stop, _, reason = lockstep.lockstep_kernel(*args, never)
    assert (stop, reason) == (n, sk.DONE)
    assert t.values[:n].tolist() == want.values.tolist()
    assert after(t.memo.tolist()), t.memo.tolist()  # type: ignore[operator]
