"""Sparse-space tables larger than memory: values in a memory-mapped file, stretch by stretch.

:class:`MappedTable` is a :class:`~nimproof.engines.sparse.SparseTable` whose
compact values (``uint8``, widened to ``uint16`` and ``uint32`` as values grow)
live in a file on disk, mapped with :class:`numpy.memmap`. The same kernels
run on the mapping, so the values are those of the in-memory engine (the tests
compare them value by value). What a step of the sparse method reads is known
in advance: the rare heaps (a short list, mostly small heaps), the common
heaps at fixed offsets below the heap being computed, and the first heaps
(the common pairs ``g(a) xor g(n - k - a)`` for small ``a``). So the pages a
stretch touches are the stretch itself, a window below it and the table's
start; the other pages of the file are never read.

:meth:`MappedTable.run` computes the table in stretches. After each stretch
the mapping is flushed to the file, the state the kernels need to go on (heaps
done, method and rare mask, rare list, histogram of values, value type) is
written beside it (``FILE.state.npz``, written to a temporary file and renamed),
and the mapping is dropped and made again, so the pages of finished stretches
leave the process's resident memory (they stay in the operating system's page
cache, which gives them back under pressure). Peak resident memory is then
about one stretch plus the window, whatever the table's length: the stretch
is chosen from a memory budget (:func:`stretch_for`). A run killed at any
point restarts from the last state written: finished stretches are not
computed again (values past the state's heap count are ignored and written
over). A run may also stop itself after any stretch (``until``), and a table
opened with ``grow=True`` takes a larger bound than the one it was made for
(the file is lengthened; the campaign uses both to go on across runs).
:meth:`MappedTable.check_values` counts the file's values against the state's
histogram, so a damaged file is refused before a run builds on it.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from nimproof.engines import sparse_kernels as sk
from nimproof.engines.sparse import SparseTable, SplitRule
from nimproof.errors import UsageError

#: Heaps per stretch when no memory budget is given (16 MB of uint8 values).
STRETCH = 1 << 24
#: Smallest stretch (heaps).
MIN_STRETCH = 1 << 12
#: Share of the memory budget given to one stretch's values (the rest: window, start, arrays).
BUDGET_SHARE = 4
#: Heaps read per slice when figures are gathered from the file.
SCAN = 1 << 22

Stretched = Callable[["MappedTable", int, int], None]
#: The next wider value type of the file.
_WIDER: dict[np.dtype[Any], np.dtype[Any]] = {
    np.dtype(np.uint8): np.dtype(np.uint16),
    np.dtype(np.uint16): np.dtype(np.uint32),
}


def stretch_for(budget: int | None, itemsize: int = 1) -> int:
    """Heaps per stretch for a memory budget in bytes (None: :data:`STRETCH`).

    A stretch's values take at most a quarter of the budget (a power of two,
    at least :data:`MIN_STRETCH` heaps).
    """
    if budget is None:
        return STRETCH
    heaps = max(MIN_STRETCH, budget // (BUDGET_SHARE * itemsize))
    return 1 << (heaps.bit_length() - 1)


def state_path(path: Path) -> Path:
    """Where the state of the table in ``path`` is checkpointed."""
    return path.with_name(path.name + ".state.npz")


class MappedTable(SparseTable):
    """A sparse-space table whose values live in the file ``path`` (see the module).

    Opens the file and its state when both exist (a resumed run: the rule must
    match, and the capacity too unless ``grow``), else creates them. With
    ``grow`` a saved table of fewer heaps is lengthened to ``capacity`` (the
    file is sparse: the new heaps take no disk until computed) and one of more
    heaps keeps its length, so a run may go on to a larger bound.
    """

    def __init__(
        self, rule: SplitRule, capacity: int, path: str | os.PathLike[str], grow: bool = False
    ) -> None:
        self.path = Path(path)
        self.state_file = state_path(self.path)
        saved = _load_state(self.state_file, rule, None if grow else capacity)
        if saved and not self.path.exists():
            raise UsageError(f"{self.path}: the value file of this state is missing; delete both")
        if saved and grow:
            capacity = self._lengthen(saved, capacity)
        self._dtype: np.dtype[Any] = np.dtype(saved["dtype"]) if saved else np.dtype(np.uint8)
        super().__init__(rule, capacity)
        if saved:
            self._restore(saved)

    # -- the file --------------------------------------------------------------

    def _allocate(self, capacity: int, dtype: type) -> np.ndarray:
        # Values are compact from the first heap (uint8), whatever the capacity.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        size = capacity * self._dtype.itemsize
        if not self.state_file.exists() or not self.path.exists():
            with open(self.path, "wb") as f:
                f.truncate(size)  # a sparse file: blocks are allocated as heaps are written
        elif self.path.stat().st_size != size:
            # A kill between a widening's rename and its checkpoint leaves the wider file.
            wide = _WIDER.get(self._dtype)
            if wide is None or self.path.stat().st_size != capacity * wide.itemsize:
                raise UsageError(f"{self.path}: the value file does not match its state; delete it")
            self._dtype = wide
        return self._map()

    def _lengthen(self, saved: dict[str, Any], capacity: int) -> int:
        """Make the saved table hold ``capacity`` heaps (or keep it longer); returns its length.

        The state is written first, then the file lengthened: a kill in between leaves a
        file shorter than its state, which the next opening lengthens the same way.
        """
        size = self.path.stat().st_size
        dtype, old = np.dtype(saved["dtype"]), int(saved["capacity"])
        wide = _WIDER.get(dtype)
        if wide is not None and size == old * wide.itemsize:
            dtype = wide  # a kill between a widening's rename and its checkpoint
            saved["dtype"] = dtype.name
        if size % dtype.itemsize or size < int(saved["n"]) * dtype.itemsize:
            raise UsageError(f"{self.path}: the value file does not match its state; delete it")
        capacity = max(capacity, old)
        if capacity != old or size != old * dtype.itemsize:
            saved["capacity"] = capacity
            _write_state(self.state_file, saved)
            with open(self.path, "rb+") as f:
                f.truncate(capacity * dtype.itemsize)  # sparse: no blocks until written
        return capacity

    def _map(self) -> np.ndarray:
        mm = np.memmap(self.path, dtype=self._dtype, mode="r+", shape=(self.capacity,))
        return mm.view(np.ndarray)

    @property
    def capacity(self) -> int:
        """The number of heaps the file holds."""
        return int(self.path.stat().st_size // self._dtype.itemsize)

    def release(self) -> None:
        """Write the mapped pages to the file and drop them from this process's memory."""
        self._flush()
        self.values = np.empty(0, dtype=self._dtype)  # the last reference to the old mapping
        self.values = self._map()

    def _flush(self) -> None:
        base = self.values.base
        if isinstance(base, np.memmap):
            base.flush()

    def _widen(self) -> None:
        """Copy the file into the next wider type, slice by slice, and map it again."""
        if self._dtype not in _WIDER:
            super()._widen()  # refuses, one line
        new = _WIDER[self._dtype]
        count = len(self.values)
        tmp = self.path.with_name(self.path.name + ".wide")
        with open(tmp, "wb") as f:
            f.truncate(count * new.itemsize)
        out = np.memmap(tmp, dtype=new, mode="r+", shape=(count,))
        for a in range(0, self.n, SCAN):
            out[a : min(self.n, a + SCAN)] = self.values[a : min(self.n, a + SCAN)]
        out.flush()
        del out
        self.values = np.empty(0, dtype=self._dtype)
        self._dtype = new
        os.replace(tmp, self.path)
        self.values = self._map()
        self.checkpoint()

    # -- checkpoints -----------------------------------------------------------

    def checkpoint(self) -> None:
        """Flush the values, then write the state (atomically): a kill after this resumes here."""
        self._flush()
        meta = {
            "digits": list(self.rule.digits),
            "unequal": self.rule.unequal,
            "capacity": len(self.values),
            "dtype": self._dtype.name,
            "n": self.n,
            "P": self.P,
            "mask": [self.mask, self.posbit, self.cbit],
            "mode": self.mode,
            "counts": self.counts,
        }
        meta.update(rare=self.rare[: self.nrare], size=len(self.rare), hist=self.hist)
        _write_state(self.state_file, meta)

    def _restore(self, saved: dict[str, Any]) -> None:
        self.n = int(saved["n"])
        self.hist = saved["hist"].copy()
        self.P = int(saved["P"])
        self.seen = np.full(self.P + 1, -1, dtype=np.int64)
        self.parity = sk.parity_table(int(saved["mask"][0]), self.P)
        self.mask, self.posbit, self.cbit = (int(x) for x in saved["mask"])
        self.mode = str(saved["mode"])
        self.counts = dict(saved["counts"])
        self.rare = np.zeros(int(saved["size"]), dtype=self.rare_dtype)
        self.nrare = len(saved["rare"])
        self.rare[: self.nrare] = saved["rare"]

    # -- computing -------------------------------------------------------------

    def run(
        self,
        stop: int,
        stretch: int = STRETCH,
        on_stretch: Stretched | None = None,
        progress: Callable[[int, int], None] | None = None,
        until: Callable[[], bool] | None = None,
    ) -> None:
        """Fill heaps up to ``stop - 1`` in stretches of ``stretch`` heaps (aligned to it).

        After each stretch ``[a, b)``: checkpoint, ``on_stretch(self, a, b)`` (the
        stretch's pages are still mapped), then :meth:`release`; the run stops there,
        short of ``stop``, when ``until()`` is true (a later run goes on from it).
        """
        stop = min(stop, len(self.values))
        while self.n < stop:
            a = self.n
            b = min(stop, (a // stretch + 1) * stretch)
            self.extend(b, progress)
            self.checkpoint()
            if on_stretch is not None:
                on_stretch(self, a, b)
            self.release()
            if until is not None and self.n < stop and until():
                return

    def check_values(self) -> None:
        """Count the file's values of heaps ``0..n-1`` (slice by slice) against the
        checkpoint's histogram; a difference (a damaged or replaced file) raises
        :class:`UsageError`. Reads the whole computed part of the file once."""
        counted = np.zeros_like(self.hist)
        width = counted.shape[1]
        damaged = UsageError(
            f"{self.path}: its values do not match its checkpoint (a damaged file); delete "
            f"{self.path.name} and {self.state_file.name} to start this table again"
        )
        for a in range(0, self.n, SCAN):  # a is even: index r of a slice has the heap's parity
            chunk = self.read(a, min(self.n, a + SCAN))
            self.release()
            for r in (0, 1):
                got = np.bincount(chunk[r::2], minlength=width)
                if len(got) > width:
                    raise damaged
                counted[r] += got
        if not np.array_equal(counted, self.hist):
            raise damaged

    def read(self, a: int, b: int) -> np.ndarray:
        """A copy of the values of heaps ``a..b-1`` (only their pages are read)."""
        return np.array(self.values[a:b])

    # -- figures, read slice by slice -------------------------------------------

    def largest(self) -> int:
        """The largest value in the table (from the histogram: no read of the file)."""
        present = np.flatnonzero(self.hist[0] + self.hist[1])
        return int(present[-1]) if len(present) else 0

    def _largest(self) -> tuple[int, int]:
        """:meth:`SparseTable._largest`, reading the file slice by slice (memory stays bounded)."""
        top = self.largest()
        for a in range(0, self.n, SCAN):
            chunk = self.read(a, min(self.n, a + SCAN))
            hit = np.flatnonzero(chunk == top)
            self.release()
            if len(hit):
                return top, a + int(hit[0])
        return top, 0

    def _dtype_name(self) -> str:
        return self._dtype.name

    def _last_rare(self, parity: np.ndarray, posbit: int, cbit: int) -> int:
        # Slices from the end; each starts at an even heap (a heap's class may depend on its
        # parity) and the next one ends just after it (index 0 of a slice is never tested).
        b = self.n
        while b > 1:
            a = max(0, b - SCAN) & ~1
            found = int(sk.last_rare_heap(self.read(a, b), b - a, parity, posbit, cbit))
            self.release()
            if found:
                return a + found
            b = a + 1
        return 0

    def remove(self) -> None:
        """Delete the value file and its state."""
        self.values = np.empty(0, dtype=self._dtype)
        for p in (self.path, self.state_file):
            p.unlink(missing_ok=True)


def _write_state(path: Path, state: dict[str, Any]) -> None:
    """Write a table's state (:meth:`MappedTable.checkpoint`'s fields) atomically: a
    temporary file, fsync, rename."""
    arrays = ("rare", "size", "hist")
    meta = {k: v for k, v in state.items() if k not in arrays}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(
        tmp,
        meta=np.array(json.dumps(meta)),
        rare=state["rare"],
        size=np.array(state["size"]),
        hist=state["hist"],
    )
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _load_state(path: Path, rule: SplitRule, capacity: int | None) -> dict[str, Any] | None:
    """The saved state of a table (None when there is none); refuses another game's, and
    (unless ``capacity`` is None) another length."""
    if not path.exists():
        return None
    try:
        with open(path, "rb") as fh, np.load(fh) as f:
            meta = json.loads(str(f["meta"]))
            meta.update(rare=f["rare"], size=int(f["size"]), hist=f["hist"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise UsageError(f"{path}: unreadable table state ({exc}); delete it") from None
    if meta["digits"] != list(rule.digits) or meta["unequal"] != rule.unequal:
        raise UsageError(f"{path}: the state of another game; delete it or choose another folder")
    if capacity is not None and meta["capacity"] != capacity:
        raise UsageError(f"{path}: a table of {meta['capacity']:,} heaps, not {capacity:,}")
    return meta
