"""Sparse-space tables of two-way take-and-break games and Grundy's game.

:class:`SparseTable` grows the table of one game heap by heap with the kernels
of :mod:`.sparse_kernels` and :mod:`.block_kernels`, in a compact array (for
long tables ``uint8`` while the values fit, then ``uint16``, then ``uint32``),
choosing the method as it goes:

* **sparse** (the rare-value method of Gangolli–Plambeck and Flammenkamp):
  the bit mask ``M`` that makes the fewest heaps rare is read off the
  Walsh–Hadamard transform of the histogram of values, and chosen again when
  a value appears for the first time or the value range doubles (the rare
  list is rebuilt only when the new mask is clearly better);
* **dense** (every split, option values packed in a machine word below 64):
  when more than :data:`DENSE_SHARE` of the heaps are rare under the best
  mask (Dawson's Kayles, Treblecross), where the sparse method cannot pay.

Both methods give the exact values; the choice only changes the speed. The
figures researchers read (rare mask, rare heaps and values, last rare heap,
largest value and where it first occurs) are in :meth:`SparseTable.stats`.

:func:`period_check` looks for the period of a table and asks the periodicity
theory (:mod:`nimproof.theory.periodicity`) which theorem proves it for all
heaps and how much of the table that theorem needs.

Which games: :func:`split_rule` reads the game's move description
(``moves_spec``), never its class.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from nimproof.engines import block_kernels as bk
from nimproof.engines import block_pipeline as bp
from nimproof.engines import sparse_kernels as sk
from nimproof.errors import UsageError
from nimproof.theory.periodicity import Unproved, check, theorem_for

if TYPE_CHECKING:
    from nimproof.games.base import Game, HeapGame

Progress = Callable[[int, int], None]

#: Above this share of rare heaps the dense method is used.
DENSE_SHARE = 1 / 12
#: A new mask replaces the current one only when it makes at most this share as many heaps rare.
RECHOOSE_GAIN = 0.75
#: Heaps below this are always computed densely (the mask needs a histogram first).
WARMUP = 1 << 11
#: Values computed per kernel call (progress and time checks happen in between).
SPARSE_CHUNK = 1 << 18
#: Pair visits per dense kernel call.
DENSE_WORK = 1 << 27
#: Tables with more heaps than this keep their values in uint8, then uint16 (while they fit).
COMPACT_FROM = 1 << 22
#: Heaps per block of the parallel sparse kernel (:mod:`.block_kernels`); 0 turns it off.
BLOCK = 256
#: Rare heaps from which the block kernel pays (Officers: about 1,600; 0.106: 15).
BLOCK_RARE = 256
#: The block kernel is used while every value lies below this (Officers' values stay
#: below 512 and Grundy's game's below 256 to 2^22; 0.04, whose values pass 1,024 and
#: whose rows of marks fill the cache, is faster with the one-heap kernel).
BLOCK_VALUES = 1024
#: On two threads or more the block kernel's steps are shared in one parallel region a
#: stretch (:func:`.block_pipeline.pipelined_kernel`); False: one region a step of a block
#: (:func:`.block_kernels.block_kernel`'s own parallel steps, kept for comparison).
PIPELINE = True
#: Heaps whose common-pair scans rank the common prefix (:func:`.sparse_kernels.ranked_prefix`).
RANK_SAMPLE = 256
#: The first heap from which the common prefix can be ranked.
RANK_FROM = 4 * sk.COMMON_PREFIX + RANK_SAMPLE
#: Largest table whose rare list is int32 (heaps below 2^31 - 1); longer tables use int64.
RARE32_MAX_N = (1 << 31) - 2
#: Largest heap the sparse engine accepts (2^40: the compact values of larger tables
#: would not fit a disk of today; the rare list is int64 above :data:`RARE32_MAX_N`).
SPARSE_MAX_N = 1 << 40


@dataclass(frozen=True, slots=True)
class SplitRule:
    """The moves of a two-way take-and-break game.

    ``digits[k]`` (bits 1, 2, 4) says what removing ``k`` tokens may leave:
    nothing, one heap, two non-empty heaps; ``digits[0]`` may only be 0 or 4
    (split without removing). ``unequal``: the two heaps must differ in size
    (Grundy's game is ``digits = (4,)``, ``unequal = True``).
    """

    digits: tuple[int, ...]
    unequal: bool = False

    @property
    def same_parity(self) -> bool:
        """True when every removal that splits has the same parity (classes may use it)."""
        return len({k % 2 for k, d in enumerate(self.digits) if d & 4}) == 1

    @property
    def split_parity(self) -> int:
        """The parity of the splitting removals (meaningful when :attr:`same_parity`)."""
        return next(k % 2 for k, d in enumerate(self.digits) if d & 4)

    @property
    def last_index(self) -> int:
        """Index of the last non-zero digit."""
        return max(k for k, d in enumerate(self.digits) if d)


def split_rule(game: Game) -> SplitRule | None:
    """The :class:`SplitRule` of ``game`` when the sparse engine applies, else None.

    Applies to normal-play games whose move description
    (:attr:`nimproof.games.base.Game.moves_spec`) is a take-and-break code
    with digits that use only the bits 1, 2, 4 and split somewhere, and to
    codes whose every split leaves two unequal heaps (Grundy's game,
    :class:`~nimproof.games.base.SplitUnequal`; CGSuite codes such as ``4!.3``,
    :class:`~nimproof.games.base.UnequalSplits`).
    """
    if game.misere:
        return None
    spec = game.moves_spec
    unequal = spec.unequal_split_digits()
    if unequal is not None:
        return SplitRule(tuple(int(d) for d in unequal), unequal=True)
    digits = spec.octal_digits()
    if digits is None:
        return None
    if any(d >= 8 for d in digits) or digits[0] not in (0, 4) or not any(d & 4 for d in digits):
        return None
    return SplitRule(tuple(int(d) for d in digits))


def use_threads(count: int | None) -> int:
    """Run the sparse engine's parallel kernels on ``count`` threads (None: every core).

    Returns the number of threads in use. More threads than numba started (one per
    core, or ``NUMBA_NUM_THREADS``) are refused with a one-line error.
    """
    top = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    if count is None:
        count = top
    if not 1 <= count <= top:
        raise UsageError(f"--threads must be between 1 and {top} on this machine, got {count}")
    numba.set_num_threads(count)
    return count


def table_bytes(n_max: int) -> int:
    """Memory the sparse engine needs for heaps ``0..n_max`` in the worst common case.

    Two bytes per value (``uint16``; ``uint8`` tables need one, but widening to
    ``uint16`` holds both arrays for a moment), the rare list (int32, at most
    :data:`DENSE_SHARE` of the heaps before the dense method takes over) and
    the period check's failure function over half the table (int32).
    """
    n = n_max + 1
    return 2 * n + int(4 * DENSE_SHARE * n) + 4 * (n // 2) + (64 << 20)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux ``MemAvailable``), None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_memory(spec: str, needed: int, n_max: int) -> None:
    """Refuse, with one line saying how much memory it needs, a table the machine cannot hold."""
    free = available_memory()
    if free is not None and needed > free:
        raise UsageError(
            f"{spec}: a table of heaps 0..{n_max:,} needs about {needed / 2**30:.1f} GB of memory; "
            f"{free / 2**30:.1f} GB is available"
        )


class SparseTable:
    """The growing table of one game (see the module docstring).

    ``values[:n]`` are the values of heaps ``0..n-1``; :meth:`extend` fills
    more. ``capacity`` is the number of heaps the array holds.
    """

    def __init__(
        self,
        rule: SplitRule,
        capacity: int,
        prefix: np.ndarray | None = None,
        *,
        warmup: int = WARMUP,
        dense_share: float = DENSE_SHARE,
        block: int = BLOCK,
        parallel: bool | None = None,
    ) -> None:
        if capacity < 1:
            raise UsageError("a table needs at least one heap")
        self.rule = rule
        self.warmup = warmup
        self.dense_share = dense_share
        self.block = block
        self.parallel = parallel
        self.digits = np.array(rule.digits, dtype=np.int64)
        # uint32 below COMPACT_FROM heaps (the packed loops run faster on it); above, the
        # narrowest type that holds the values: uint8, widened as values grow (_widen).
        dtype = np.uint8 if capacity > COMPACT_FROM else np.uint32
        # Heaps in the rare list: int32 while every heap fits (half the memory traffic).
        self.rare_dtype = np.int32 if capacity - 1 <= RARE32_MAX_N else np.int64
        self.values = self._allocate(capacity, dtype)
        self.n = 0
        self.P = 1
        self.mask = 0
        self.posbit = 0
        self.cbit = 0
        self.mode = "dense"
        self.nrare = 0
        self.rare = np.zeros(1024, dtype=self.rare_dtype)
        self.hist = np.zeros((2, 2), dtype=np.int64)
        self.seen = np.full(2, -1, dtype=np.int64)
        self.parity = np.zeros(1, dtype=np.uint8)
        self.counts = {"sparse": 0, "dense": 0, "masks": 0, "rebuilds": 0}
        # The one-heap kernel's common prefix, the class it is for and the heap it was ranked at.
        self.prefix: tuple[np.ndarray, np.ndarray, int] | None = None
        self.prefix_key: tuple[int, int, int, int] = (0, 0, 0, 0)
        if prefix is not None and len(prefix):
            self._load_prefix(np.asarray(prefix)[:capacity])

    # -- state ---------------------------------------------------------------

    def _allocate(self, capacity: int, dtype: type) -> np.ndarray:
        """The array of values (in memory here; :mod:`.mapped` keeps it in a file)."""
        return np.zeros(capacity, dtype=dtype)

    def _load_prefix(self, prefix: np.ndarray) -> None:
        top = int(prefix.max())
        if top > (1 << 32) - 1:
            raise UsageError("stored values are too large for the sparse engine")
        while top > self._vmax():
            self._widen()
        self.values[: len(prefix)] = prefix
        self.n = len(prefix)
        self._grow_range(top)
        for r in (0, 1):
            self.hist[r, : top + 1] += np.bincount(self.values[r : self.n : 2], minlength=top + 1)

    def _grow_range(self, top: int) -> None:
        P = _pow2_above(top)
        if P <= self.P and len(self.seen) == self.P + 1:
            return
        P = max(P, self.P)
        hist = np.zeros((2, P + 1), dtype=np.int64)
        hist[:, : self.hist.shape[1]] = self.hist
        self.hist = hist
        seen = np.full(P + 1, -1, dtype=np.int64)
        seen[: len(self.seen)] = self.seen
        self.seen = seen
        self.P = P
        self.parity = sk.parity_table(self.mask, P)

    def _best_mask(self) -> tuple[tuple[int, int, int], int]:
        """The class ``(mask, posbit, cbit)`` with the fewest rare heaps in ``1..n-1``, and that count.

        A heap ``m`` is rare when ``popcount(g(m) & mask) ^ (posbit & m) ^ cbit`` is even.
        The Walsh–Hadamard transform of the histogram gives every mask's count at once;
        ``posbit = 1`` (classes that alternate with the heap's parity) is allowed only
        when every splitting removal has the same parity.
        """
        even = self.hist[0, : self.P]
        odd = self.hist[1, : self.P]
        total = self.n
        # (posbit, cbit, transform): common heaps must have values of the parity that the
        # rare-common splits produce, so cbit is fixed by posbit (0, or the parity of the
        # splitting removals: Flammenkamp's "popcount(G(n) & m) & 1 == (n - t) & 1").
        options = [(0, 0, sk.walsh_hadamard(even + odd))]
        if self.rule.same_parity:
            options.append((1, self.rule.split_parity, sk.walsh_hadamard(even - odd)))
        best: tuple[tuple[int, int, int], int] = ((0, 0, 0), total + 1)
        heap0 = int(self.values[0]) if self.n else 0
        for posbit, cbit, w in options:
            sign = 1 if cbit == 0 else -1
            counts = (total + sign * w) // 2
            if posbit == 0:
                counts[0] = total + 1  # mask 0: every value is rare
            m = int(np.argmin(counts))
            c = int(counts[m])
            # Heap 0 is counted in the histogram but never in the rare list.
            if self.n and (bin(heap0 & m).count("1") % 2) ^ cbit == 0:
                c -= 1
            if c < best[1]:
                best = ((m, posbit, cbit), c)
        return best

    def _use_mask(self, cls: tuple[int, int, int], rare_heaps: int) -> None:
        self.mask, self.posbit, self.cbit = cls
        self.parity = sk.parity_table(self.mask, self.P)
        # Room for twice as many rare heaps: when it fills up, the mask is chosen again.
        size = max(64, 2 * rare_heaps + 16)
        if len(self.rare) != size:
            self.rare = np.zeros(size, dtype=self.rare_dtype)
        self.nrare = sk.collect_rare(
            self.values, self.n, self.parity, self.posbit, self.cbit, self.rare
        )
        self.counts["rebuilds"] += 1

    def _choose(self) -> None:
        """Choose the method and the mask for the heaps from ``n`` on."""
        if self.n < self.warmup:
            self.mode = "dense"
            return
        best, count = self._best_mask()
        self.counts["masks"] += 1
        if count > self.dense_share * self.n / 2:
            self.mode = "dense"
            return
        current = self.nrare if self.mode == "sparse" else None
        here = (self.mask, self.posbit, self.cbit)
        if current is None or (best != here and count < RECHOOSE_GAIN * current):
            self._use_mask(best, count)
        self.mode = "sparse"

    def _vmax(self) -> int:
        """The largest value the array's type holds."""
        return int(np.iinfo(self.values.dtype.type).max)

    def _widen(self) -> None:
        """Move the values to the next wider type (uint8, uint16, uint32)."""
        wider = {np.dtype(np.uint8): np.uint16, np.dtype(np.uint16): np.uint32}
        if self.values.dtype not in wider:
            raise UsageError(
                f"a value above {(1 << 32) - 1:,} at heap {self.n:,}: "
                "beyond the sparse engine's value type"
            )
        self.values = self.values.astype(wider[self.values.dtype])

    # -- computing -----------------------------------------------------------

    def extend(self, stop: int, progress: Progress | None = None) -> None:
        """Fill heaps up to ``stop - 1`` (at most ``capacity - 1``)."""
        stop = min(stop, len(self.values))
        if self.n == 0 and stop > 0:
            self._grow_range(0)
        self._choose()
        while self.n < stop:
            start = self.n
            if self.mode == "sparse":
                end = min(stop, start + SPARSE_CHUNK)
                if start < RANK_FROM < end:
                    end = RANK_FROM  # the common prefix is ranked from there on
                n, self.nrare, reason = self._sparse_step(start, end)
            else:
                end = min(stop, start + max(64, DENSE_WORK // max(1, start)))
                if start < self.warmup:
                    end = min(end, self.warmup)
                n, reason = sk.dense_kernel(
                    self.values,
                    start,
                    end,
                    self.digits,
                    self.rule.unequal,
                    self.seen,
                    self.hist,
                    self._vmax(),
                )
            self.counts[self.mode] += n - start
            self.n = n
            self._react(reason, end)
            if progress is not None:
                progress(self.n, stop)

    def _sparse_step(self, start: int, end: int) -> tuple[int, int, int]:
        """One call of the block kernel or of the one-heap kernel (see :meth:`_blocks`)."""
        args: list[Any] = [self.values, start, end, self.digits, self.rule.unequal, self.parity]
        args += [self.posbit, self.cbit, self.rare, self.nrare]
        blocks, threads = self._blocks(start)
        if blocks:
            prefix = self._prefix(start)
            if len(prefix[0]) == 0:
                prefix = self._plain_prefix(start)
            args += [self.hist, self._vmax(), self.dense_share, self.block, prefix, threads]
            kernel = bp.pipelined_kernel if threads > 1 and PIPELINE else bk.block_kernel
            return tuple(kernel(*args))  # type: ignore[return-value]
        args += [self.seen, self.hist, self._vmax(), self.dense_share, self._prefix(start)]
        return tuple(sk.sparse_kernel(*args))  # type: ignore[return-value]

    def _prefix(self, start: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The common prefix of the one-heap kernel for the current class (see
        :func:`.sparse_kernels.ranked_prefix`), ranked again from :data:`RANK_FROM` and
        whenever the table has doubled."""
        key = (self.mask, self.posbit, self.cbit)
        at = self.prefix_key[3]
        if (
            self.prefix is None
            or self.prefix_key[:3] != key
            or start >= 2 * at
            or at < RANK_FROM <= start
        ):
            rule = (self.digits, self.rule.unequal)
            cls = (self.parity, self.posbit, self.cbit)
            self.prefix = sk.ranked_prefix(
                self.values, start, rule, cls, self.rare, self.nrare, RANK_SAMPLE
            )
            self.prefix_key = (*key, max(start, 1))
        return self.prefix

    def _plain_prefix(self, start: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The block kernel's list when no ranked one is in use: the common heaps below a
        bound, increasing (the heaps of a tile read them together; the rare heaps the
        one-heap kernel's plain scan also reads give no wanted value). The bound lies
        below half of ``start``, so every heap of the list is a split of every heap."""
        bound = max(1, min(sk.COMMON_PREFIX, start // 2 - len(self.digits) - 1))
        return (*sk.common_prefix(self.values, bound, self.parity, self.posbit, self.cbit), bound)

    def _blocks(self, start: int) -> tuple[bool, int]:
        """Whether the block kernel computes heaps from ``start``, and on how many threads.

        It needs ``start >= 4 * block``; it is used when ``parallel`` says so, or (``None``)
        when at least :data:`BLOCK_RARE` heaps are rare (with fewer, the rare sweep is
        short and the one-heap kernel is as fast) and every value lies below
        :data:`BLOCK_VALUES` (a heap's row of marks stays small). It runs on every core
        numba started only from the main thread: numba's workqueue layer runs one
        parallel region at a time (a Dask worker's tasks run on other threads).
        """
        pays = self.nrare >= BLOCK_RARE and self.P <= BLOCK_VALUES
        wanted = pays if self.parallel is None else self.parallel
        usable = self.block > 0 and start >= 4 * self.block and start > len(self.digits)
        main = threading.current_thread() is threading.main_thread()
        return wanted and usable, numba.get_num_threads() if main else 1

    def _react(self, reason: int, end: int) -> None:
        if reason == sk.OVERFLOW:
            self._widen()
        elif reason == sk.RANGE:
            self._grow_range(int(self.values[self.n - 1]))
            if self.mode == "sparse":
                self._use_mask((self.mask, self.posbit, self.cbit), self.nrare)
            self._choose()
        elif reason == sk.NEW_VALUE:
            self._choose()
        elif reason == sk.RARE_FULL:
            grown = np.zeros(2 * len(self.rare), dtype=self.rare_dtype)
            grown[: self.nrare] = self.rare[: self.nrare]
            self.rare = grown
            m = self.n - 1
            if self.parity[int(self.values[m])] ^ (self.posbit & m) ^ self.cbit == 0:
                self.rare[self.nrare] = self.n - 1
                self.nrare += 1
            self._choose()
        elif reason == sk.DENSE:
            self.mode = "dense"
            self._choose()
        elif self.n == end and self.mode == "dense" and self.n >= self.warmup:
            self._choose()

    # -- figures -------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Rare mask and counts, last rare heap, largest value and its first heap, methods used.

        The rare figures are for the mask that is best over the whole table
        (heaps ``1..n-1``; heap 0 is not counted).
        """
        top, at = self._largest()
        (mask, posbit, cbit), rare_heaps = self._best_mask() if self.n else ((0, 0, 0), 0)
        parity = sk.parity_table(mask, self.P)
        seen_values = (self.hist[0, : self.P] + self.hist[1, : self.P]) > 0
        return {
            "values": self.n,
            "rare_mask": mask,
            "rare_by_position": bool(posbit),
            "rare_parity": cbit,
            "rare_heaps": rare_heaps,
            "rare_values": int(np.count_nonzero((parity ^ cbit == 0) & seen_values)),
            "last_rare": self._last_rare(parity, posbit, cbit) if rare_heaps else 0,
            "largest_value": top,
            "largest_at": at,
            "dtype": self._dtype_name(),
            "sparse_heaps": self.counts["sparse"],
            "dense_heaps": self.counts["dense"],
        }

    def _largest(self) -> tuple[int, int]:
        """The largest value and the first heap that has it."""
        g = self.values[: self.n]
        return (int(g.max()), int(np.argmax(g))) if self.n else (0, 0)

    def _last_rare(self, parity: np.ndarray, posbit: int, cbit: int) -> int:
        """The last heap in the rare class given by ``parity``, ``posbit`` and ``cbit`` (0: none)."""
        return int(sk.last_rare_heap(self.values[: self.n], self.n, parity, posbit, cbit))

    def _dtype_name(self) -> str:
        return str(self.values.dtype)


def _pow2_above(x: int) -> int:
    p = 1
    while p <= x:
        p *= 2
    return p


@dataclass(frozen=True, slots=True)
class PeriodCheck:
    """A period seen in a table and, when a theorem covers it, its proof for all heaps.

    ``proved`` is True only when ``theorem`` applies and the table reaches
    every heap its window needs; ``window_end`` is that window's end
    (exclusive, in heaps ``n`` with ``g(n + period) == g(n)`` checked).
    """

    period: int
    preperiod: int
    values: int
    theorem: str
    window_end: int
    proved: bool


def period_check(game: HeapGame, values: np.ndarray, count: int) -> PeriodCheck | None:
    """Look for the period of ``values[:count]`` and whether a theorem proves it.

    The least period of the second half of the table is found in linear time;
    the preperiod is the least ``n0`` from which it holds through the table.
    Returns None when the second half holds fewer than two periods. A period
    is reported as proved only when :func:`nimproof.theory.periodicity.prove`
    names a theorem for ``game`` and the table covers its window (and meets
    its side condition).
    """
    lo = count // 2
    if count - lo < 4:
        return None
    p = int(sk.least_period_tail(values, lo, count))
    if 2 * p > count - lo:
        return None
    n0 = int(sk.periodic_from(values, p, lo, count))
    theorem = theorem_for(game, p, n0, 0)
    if theorem is None:
        return PeriodCheck(p, n0, count, "", 0, False)
    proved = not isinstance(check(theorem, values[:count], p, n0, 0), Unproved)
    return PeriodCheck(p, n0, count, theorem.name, theorem.end, proved)


def check_points(start: int, stop: int) -> list[int]:
    """Where to look for a period between ``start`` and ``stop``: every quarter of each doubling."""
    out = []
    k = 1 << 10
    while k < stop:
        step = max(1, k // 4)
        for m in range(k, 2 * k, step):
            if start < m < stop:
                out.append(m)
        k *= 2
    out.append(stop)
    return sorted(set(out))


def elapsed(t0: float) -> float:
    """Seconds since ``t0`` (``time.monotonic``)."""
    return time.monotonic() - t0
