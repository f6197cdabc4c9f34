"""Sparse-space tables in a memory-mapped file: the in-memory engine's values, bounded memory."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from nimproof.engines import heap_kernels as hk
from nimproof.engines.mapped import MappedTable, state_path, stretch_for
from nimproof.engines.sparse import RARE32_MAX_N, SparseTable, split_rule
from nimproof.errors import UsageError
from nimproof.games import parse_spec


def _rule(spec: str):  # type: ignore[no-untyped-def]
    rule = split_rule(parse_spec(spec))
    assert rule is not None
    return rule


def _in_memory(spec: str, n: int) -> SparseTable:
    table = SparseTable(_rule(spec), n)
    table.extend(n)
    return table


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("octal:0.106", 200_000),
        ("octal:0.167", 100_000),
        ("officers", 30_000),
        ("grundys-game", 20_000),
    ],
)
def test_values_and_figures_equal_the_in_memory_engine_across_a_reopening(
    tmp_path: Path, spec: str, n: int
) -> None:
    # A third of the table, the file reopened from its checkpoint (as after a kill), the rest.
    # Officers passes 255 at heap 10,344: the file is widened to uint16 on the way.
    want = _in_memory(spec, n)
    first = MappedTable(_rule(spec), n, tmp_path / "v.bin")
    first.run(n // 3, stretch=4096)
    del first
    table = MappedTable(_rule(spec), n, tmp_path / "v.bin")
    assert table.n == n // 3
    table.run(n, stretch=4096)
    assert np.array_equal(table.values, want.values)
    mine, theirs = table.stats(), want.stats()
    assert {k: v for k, v in mine.items() if k != "dtype"} == {
        k: v for k, v in theirs.items() if k != "dtype"
    }
    assert mine["dtype"] == ("uint16" if spec == "officers" else "uint8")


def test_past_two_to_the_31_heaps_the_rare_list_is_64_bit(tmp_path: Path) -> None:
    # A table of 2^31 + 2 heaps (a sparse file: only the pages written take disk) computed to
    # 100,000 heaps with int64 rare heaps: the same values as the every-split kernel.
    capacity = RARE32_MAX_N + 4
    table = MappedTable(_rule("octal:0.106"), capacity, tmp_path / "big.bin")
    assert table.rare_dtype == np.int64 and len(table.values) == capacity
    table.run(100_000, stretch=1 << 15)
    assert table.rare.dtype == np.int64 and table.mode == "sparse"
    dense = np.zeros(100_000, dtype=np.int64)
    hk.octal_kernel(dense, 0, len(dense), np.array([0, 1, 0, 6], dtype=np.int64), 0, 0)
    assert np.array_equal(table.values[:100_000], dense)
    assert MappedTable(_rule("octal:0.106"), 1 << 20, tmp_path / "s.bin").rare_dtype == np.int32


def _mapped_resident(path: Path) -> int:
    """Bytes of ``path``'s mappings resident in this process (/proc/self/smaps)."""
    total, inside = 0, False
    with open("/proc/self/smaps", encoding="utf-8") as f:
        for line in f:
            head = line.split()
            if len(head) >= 5 and "-" in head[0] and ":" in head[3]:
                inside = line.rstrip("\n").endswith(str(path))
            elif inside and line.startswith("Rss:"):
                total += int(head[1]) * 1024
    return total


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_a_memory_budget_bounds_the_resident_table(tmp_path: Path) -> None:
    # A 256 KB budget at 2^20 heaps (1 MB of values): stretches of 64 K heaps; at the end of
    # every stretch the file's resident pages stay within the budget, and after the stretch
    # is released they are gone from the process.
    budget = 1 << 18
    stretch = stretch_for(budget)
    assert stretch == 1 << 16
    n = 1 << 20
    table = MappedTable(_rule("octal:0.106"), n, tmp_path / "v.bin")
    resident: list[int] = []

    def measure(t: MappedTable, a: int, b: int) -> None:
        assert b - a <= stretch
        resident.append(_mapped_resident(t.path))

    table.run(n, stretch, measure)
    assert len(resident) == n // stretch
    assert resident[-1] > 0 and max(resident) <= budget
    assert _mapped_resident(table.path) == 0
    assert np.array_equal(table.values, _in_memory("octal:0.106", n).values)


def test_a_state_of_another_table_is_refused(tmp_path: Path) -> None:
    table = MappedTable(_rule("octal:0.106"), 5000, tmp_path / "v.bin")
    table.run(5000, stretch=1024)
    assert state_path(tmp_path / "v.bin").exists()
    with pytest.raises(UsageError, match="another game"):
        MappedTable(_rule("octal:0.167"), 5000, tmp_path / "v.bin")
    with pytest.raises(UsageError, match="not 6,000"):
        MappedTable(_rule("octal:0.106"), 6000, tmp_path / "v.bin")


def test_a_kill_between_a_widening_and_its_checkpoint_reopens_the_wider_file(
    tmp_path: Path,
) -> None:
    # Officers passes 255 at heap 10,344. The state of the last stretch before the widening
    # is put back (as if the process died after renaming the uint16 file, before its
    # checkpoint): the table reopens the wider file and gives the same values.
    n = 16_384
    table = MappedTable(_rule("officers"), n, tmp_path / "v.bin")
    table.run(8192, stretch=4096)
    before = state_path(tmp_path / "v.bin").read_bytes()
    table.run(n, stretch=4096)
    assert table.values.dtype == np.uint16
    del table
    state_path(tmp_path / "v.bin").write_bytes(before)
    again = MappedTable(_rule("officers"), n, tmp_path / "v.bin")
    assert again.n == 8192 and again.values.dtype == np.uint16
    again.run(n, stretch=4096)
    assert np.array_equal(again.values, _in_memory("officers", n).values)
    (tmp_path / "v.bin").unlink()
    with pytest.raises(UsageError, match="missing"):
        MappedTable(_rule("officers"), n, tmp_path / "v.bin")


def test_grow_lengthens_a_saved_table_even_after_a_kill_between_state_and_file(
    tmp_path: Path,
) -> None:
    # 0.167 to 5,000 heaps, then the same file opened for 12,000 (grow): it goes on from
    # heap 5,000. A kill after the longer state is written but before the file is
    # lengthened is put back by hand: the next opening lengthens the file itself.
    path = tmp_path / "v.bin"
    table = MappedTable(_rule("octal:0.167"), 5000, path)
    table.run(5000, stretch=1024)
    del table
    saved = state_path(path).read_bytes()
    longer = MappedTable(_rule("octal:0.167"), 12_000, path, grow=True)
    assert longer.n == 5000 and len(longer.values) == 12_000 and path.stat().st_size == 12_000
    del longer
    with open(path, "rb+") as f:
        f.truncate(5000)  # the file as it was before its lengthening
    again = MappedTable(_rule("octal:0.167"), 12_000, path, grow=True)
    assert again.n == 5000 and path.stat().st_size == 12_000
    again.check_values()
    again.run(12_000, stretch=1024)
    assert np.array_equal(again.values, _in_memory("octal:0.167", 12_000).values)
    # A shorter bound keeps the longer table; without grow another length is refused.
    assert len(MappedTable(_rule("octal:0.167"), 9000, path, grow=True).values) == 12_000
    with pytest.raises(UsageError, match="not 9,000"):
        MappedTable(_rule("octal:0.167"), 9000, path)
    state_path(path).write_bytes(saved)  # the 5,000-heap state beside the 12,000-heap file
    with pytest.raises(UsageError, match="does not match its state"):
        MappedTable(_rule("octal:0.167"), 5000, path)


def test_check_values_finds_a_changed_value(tmp_path: Path) -> None:
    table = MappedTable(_rule("officers"), 12_000, tmp_path / "v.bin")
    table.run(12_000, stretch=4096)
    table.check_values()  # uint16 after the widening at heap 10,344
    table.values[7000] ^= 2
    table.release()
    with pytest.raises(UsageError, match="do not match its checkpoint"):
        MappedTable(_rule("officers"), 12_000, tmp_path / "v.bin").check_values()
