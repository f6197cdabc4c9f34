"""The prefix list of the one-heap sparse kernel: any order of it gives the same values.

The common-pair scan of ``nimproof.engines.sparse_kernels.sparse_kernel`` reads the
common heaps below a bound from a list, in the order :func:`ranked_prefix` chose.
Here the list is replaced by random orders (hypothesis) and the values are compared
with the plain reference implementation, and a long Officers table (where the ranked
list is in use) is compared with the block kernel, which has no list.
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nimproof.engines import reference
from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, split_rule
from nimproof.games import parse_spec

N = 700
SPECS = ["octal:0.6", "grundys-game", "octal:0.106", "octal:0.167", "octal:0.16", "octal:4.6"]


@functools.cache
def _reference(spec: str) -> tuple[int, ...]:
    return tuple(reference.heap_table(parse_spec(spec), N))


class _Shuffled(SparseTable):
    """A table whose kernel reads the common heaps below ``bound`` in a random order."""

    def __init__(self, spec: str, bound: int, seed: int) -> None:
        rule = split_rule(parse_spec(spec))
        assert rule is not None
        super().__init__(rule, N + 1, warmup=64, dense_share=2.0, parallel=False)
        self.bound = bound
        self.rng = np.random.default_rng(seed)
        self.lists = 0

    def _prefix(self, start: int) -> tuple[np.ndarray, np.ndarray, int]:
        bound = max(1, min(start, self.bound))
        heaps, values = sk.common_prefix(self.values, bound, self.parity, self.posbit, self.cbit)
        order = self.rng.permutation(len(heaps))
        self.lists += len(heaps) > 0
        return heaps[order], values[order], bound


@settings(max_examples=40, deadline=None)
@given(
    spec=st.sampled_from(SPECS),
    bound=st.integers(min_value=1, max_value=N),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
@example(spec="octal:0.6", bound=2, seed=0)  # every heap below the bound is rare
def test_any_order_of_the_prefix_list_gives_the_reference_values(
    spec: str, bound: int, seed: int
) -> None:
    table = _Shuffled(spec, bound, seed)
    table.extend(N + 1)
    assert table.counts["sparse"] > N // 2
    assert table.values.tolist() == list(_reference(spec))
    # The list path ran whenever some heap below the bound is common (for a small
    # bound every heap below it may be rare, and the list is then empty).
    common, _ = sk.common_prefix(table.values, bound, table.parity, table.posbit, table.cbit)
    assert table.lists > 0 or len(common) == 0


def test_ranked_list_is_a_permutation_of_the_common_heaps() -> None:
    rule = split_rule(parse_spec("octal:0.6"))
    assert rule is not None
    n = 1 << 18
    table = SparseTable(rule, n + 1, parallel=False)
    table.extend(n + 1)
    assert table.prefix is not None
    heaps, values, bound = table.prefix
    # Officers needs thousands of pairs a heap in increasing order: the ranked list is used.
    assert bound == sk.COMMON_PREFIX and len(heaps) > 0
    plain, _ = sk.common_prefix(table.values, bound, table.parity, table.posbit, table.cbit)
    assert sorted(heaps.tolist()) == plain.tolist()
    assert not np.array_equal(heaps, plain)
    assert np.array_equal(values, table.values[heaps])
    # The block kernel (no list) gives the same table.
    blocks = SparseTable(rule, n + 1, parallel=True)
    blocks.extend(n + 1)
    assert np.array_equal(blocks.values, table.values)


def test_no_list_when_the_plain_scan_is_short() -> None:
    # 0.106: a few pairs a heap find every wanted value in increasing order.
    rule = split_rule(parse_spec("octal:0.106"))
    assert rule is not None
    n = 1 << 18
    table = SparseTable(rule, n + 1, parallel=False)
    table.extend(n + 1)
    assert table.prefix is not None
    assert len(table.prefix[0]) == 0 and table.prefix[2] == 1
