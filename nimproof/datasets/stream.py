"""Long one-heap tables streamed to parquet in parts: bounded memory, resumable.

``stream_table(game, n_max, out)`` computes heaps ``0..n_max`` and writes
them to ``out`` (a parquet file in the format of :mod:`.store`: columns ``n``
and ``grundy``, the same metadata and content hash, so ``nimproof data
verify`` checks it). Each finished chunk of heaps (a part) is encoded once, as
a row group of ``out``, on a thread beside the computation. The checkpoint a
resumed run starts from is kept in ``OUT.parts/`` with a manifest: each part's
values as they are (``part-NNNNNN.npy``, no encoding), or, when the table is
in a memory-mapped file, that file and its state. An interrupted run started
again with ``resume=True`` continues after its checkpoint, and a run that dies
leaves no damaged file (every write is a temporary file renamed into place).
The final file is written as ``OUT.parts/final.tmp`` and renamed to ``out``
when it is whole; then ``OUT.parts/`` is removed.

Memory: games whose value at ``n`` depends only on a bounded window of the
heaps below it (finite subtraction sets) keep one chunk and that window.
The sparse engine's games hold the whole table in memory (compact) when it
fits the memory budget (``memory`` bytes; by default what the machine has
available), else keep it in a memory-mapped file in ``OUT.parts/``
(:class:`nimproof.engines.mapped.MappedTable`: stretches sized from the budget,
each checkpointed, so a resumed run goes on from the last finished stretch).
Every other family holds the whole table and writes it out chunk by chunk as
it grows.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import nimproof
from nimproof.datasets.store import HASH_STORED, META_KEY, atomic_write, hash_column, hash_values
from nimproof.engines import grundy_table, heap_engine
from nimproof.engines import stream_kernels as stk
from nimproof.engines.mapped import MappedTable, stretch_for
from nimproof.engines.sparse import (
    SparseTable,
    SplitRule,
    available_memory,
    check_memory,
    split_rule,
    table_bytes,
)
from nimproof.errors import UsageError
from nimproof.games.base import Game
from nimproof.output import output_file

Progress = Callable[[int, int], None]

#: Heaps per part file (and per kernel call of the window engine).
PART_ROWS = 1 << 24
#: Parts handed to the writer and not yet written, at most.
PENDING = 2
#: Largest bound accepted for window engines (the memory stays bounded).
STREAM_MAX_N = 10**10
#: How the parts of a run are kept (the manifest says it; older runs kept parquet parts).
PARTS_FORMAT = "npy"
#: Rows per row group of the final file (pyarrow's default size: a part is written as several).
ROW_GROUP = 1 << 20


@dataclass(frozen=True, slots=True)
class StreamResult:
    """What :func:`stream_table` wrote: the file, its bound, engine, and whether it resumed."""

    path: Path
    bound: int
    engine: str
    resumed_from: int
    seconds: float
    largest_value: int
    mapped: bool = False


def parts_dir(out: Path) -> Path:
    """Where the parts of ``out`` are kept while it is computed."""
    return out.with_name(out.name + ".parts")


def stream_table(
    game: Game,
    n_max: int,
    out: str | os.PathLike[str],
    *,
    resume: bool = False,
    progress: Progress | None = None,
    part_rows: int = PART_ROWS,
    memory: int | None = None,
) -> StreamResult:
    """Compute heaps ``0..n_max`` of ``game`` into the parquet file ``out`` (see the module).

    ``memory``: the memory budget in bytes for the sparse engine's table (None: the
    memory available now); a table that does not fit it is kept in a memory-mapped
    file, computed in stretches that fit it. Refuses (one-line :class:`UsageError`)
    an ``out`` that cannot be written (before any work), unfinished parts without
    ``resume``, parts of another game or bound (or of an older nimproof) with
    ``resume``, and a bound the engine cannot reach.
    """
    t0 = time.monotonic()
    if output_file(str(out), "parquet file").is_stdout:
        raise UsageError("a streamed table is a parquet file: give --out FILE, not standard output")
    path = Path(out)
    folder = parts_dir(path)
    engine, window = _engine(game)
    rule = split_rule(game) if window is None else None
    mapped = rule is not None and _needs_file(n_max, memory)
    manifest = {
        "spec": game.spec,
        "n_max": n_max,
        "engine": engine,
        "part_rows": part_rows,
        "parts": PARTS_FORMAT,
    }
    if mapped:
        manifest["mapped"] = True
    done = _open_parts(folder, manifest, resume)
    parts = _Parts(folder, n_max, done, part_rows, progress, checkpoint=not mapped)
    writer = _Writer(parts, game, engine)
    start = done * part_rows
    try:
        if window is not None:
            top = _run_window(parts, window, writer)
            source = functools.partial(_read_part, folder)
        elif mapped and rule is not None:
            table, start = _run_mapped(parts, rule, writer, memory)
            top = table.largest()
            source = functools.partial(_slice, table.values, part_rows)
        else:
            values = _run_whole(parts, game, writer)
            top = int(values.max())
            source = functools.partial(_slice, values, part_rows)
        width = writer.finish(path)
        if not writer.complete:
            _merge(game, (n_max, engine, part_rows), path, width, source)
    except BaseException:
        writer.abandon()
        raise
    shutil.rmtree(folder, ignore_errors=True)
    resumed = min(start, n_max + 1)
    return StreamResult(path, n_max, engine, resumed, time.monotonic() - t0, top, mapped)


def _needs_file(n_max: int, memory: int | None) -> bool:
    """True when the sparse engine's table of heaps ``0..n_max`` does not fit the budget."""
    budget = available_memory() if memory is None else memory
    return budget is not None and table_bytes(n_max) > budget


def _engine(game: Game) -> tuple[str, np.ndarray | None]:
    spec = getattr(game, "moves_spec", None)
    takes = spec.finite_takes() if spec is not None else None
    if takes is not None and not game.misere:
        return "subtraction-stream", np.array(sorted(takes), dtype=np.int64)

    return heap_engine(game), None


def _open_parts(folder: Path, manifest: dict[str, Any], resume: bool) -> int:
    """Create or reopen the parts folder; the number of finished parts."""
    mfile = folder / "manifest.json"
    if folder.exists() and mfile.exists():
        if not resume:
            raise UsageError(
                f"{folder} holds an unfinished run; add --resume to continue it "
                "or delete the folder to start again"
            )
        old = json.loads(mfile.read_text(encoding="utf-8"))
        if old.get("parts") != manifest["parts"]:
            raise UsageError(
                f"{folder} holds parts written by an older nimproof (parquet parts), "
                "which this version does not resume; delete it and start again"
            )
        if old != manifest:
            raise UsageError(
                f"{folder} belongs to another run ({old.get('spec')}, n <= {old.get('n_max')}); "
                "delete it or choose another --out"
            )
        count = 0
        while (folder / _part_name(count)).exists():
            count += 1
        return count
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(mfile, lambda f: f.write(json.dumps(manifest).encode()))
    return 0


def _part_name(i: int) -> str:
    return f"part-{i:06d}.npy"


def _write_part(folder: Path, i: int, values: np.ndarray) -> None:
    """The checkpoint of part ``i``: its values as they are (compact), no encoding."""
    compact = _compact(values)
    atomic_write(folder / _part_name(i), lambda f: np.save(f, compact, allow_pickle=False))


def _read_part(folder: Path, i: int) -> np.ndarray:
    return np.load(folder / _part_name(i), allow_pickle=False)


def _compact(values: np.ndarray) -> np.ndarray:
    top = int(values.max()) if len(values) else 0
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return values.astype(dtype, copy=False)
    return values.astype(np.int64, copy=False)


@dataclass(frozen=True, slots=True)
class _Parts:
    """A run in progress: heaps ``0..n_max`` in parts of ``part_rows``, ``done`` already written.

    ``checkpoint``: each part is also kept as a part file (False when the
    memory-mapped value file is the checkpoint)."""

    folder: Path
    n_max: int
    done: int
    part_rows: int
    progress: Progress | None
    checkpoint: bool = True

    @property
    def count(self) -> int:
        """The number of parts of the whole table."""
        return -(-(self.n_max + 1) // self.part_rows)


class _Writer:
    """Writes finished parts, the final file and the hash, in order, on a thread of its own.

    The kernels release the GIL (numba ``nogil``), and so do pyarrow's encoder
    and hashlib on large buffers: on a machine with a free core the output is
    written while the next stretch is computed. Each part is encoded once, as a
    row group of the final file (``OUT.parts/final.tmp``); before that its raw
    values are saved as its checkpoint (unless the value file is the checkpoint).
    The content hash (:func:`nimproof.datasets.store.hash_column`, at the stored
    width; column ``n`` is 0..bound and checked as such, not hashed) grows with
    the file. Parts already on disk (a resumed run) go first. The final file's
    metadata, which holds the hash, is added when it is closed; if a part needs
    a wider value type than the final file's column (the first part's), the
    final file is dropped and :func:`_merge` writes it at the end.
    """

    def __init__(self, parts: _Parts, game: Game, engine: str) -> None:
        self.parts = parts
        self.game = game
        self.engine = engine
        self.hash = hashlib.sha256()
        self.widths: set[str] = set()
        self.failed = False
        self.final: pq.ParquetWriter | None = None
        self.final_ok = True
        self.n = np.zeros(0, dtype=np.int64)  # made on the writer's thread, at the first part
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nimproof-parts")
        self.pending: list[Future[None]] = [self.pool.submit(self._start)]

    @property
    def final_path(self) -> Path:
        """The final file while it is written."""
        return self.parts.folder / "final.tmp"

    def _start(self) -> None:
        for i in range(self.parts.done):
            self._add(i, _read_part(self.parts.folder, i))

    def _add(self, i: int, values: np.ndarray) -> None:
        compact = _compact(values)
        self.widths.add(compact.dtype.name)
        if not self.final_ok:
            return
        if self.final is None:
            self.final = _final_writer(self.final_path, _schema(compact.dtype))
            hash_column(self.hash, "grundy", compact[:0])
        wide = self.final.schema.field("grundy").type.to_pandas_dtype()
        if _width(compact.dtype.name) > _width(np.dtype(wide).name):
            self.final.close()
            self.final_ok = False
            return
        grundy = compact.astype(wide, copy=False)
        hash_values(self.hash, grundy)
        first = i * self.parts.part_rows
        for a in range(0, len(grundy), ROW_GROUP):
            self.final.write_table(self._rows(first + a, grundy[a : a + ROW_GROUP]))

    def _rows(self, first: int, grundy: np.ndarray) -> pa.Table:
        """Heaps ``first ..`` as one row group of the final file.

        ``n`` comes from one buffer of :data:`ROW_GROUP` numbers, shifted from row
        group to row group (8 MB stay in use, not 8 bytes a heap of the part).
        """
        if len(self.n) < len(grundy):
            self.n = np.arange(first, first + len(grundy), dtype=np.int64)
        else:
            self.n += first - int(self.n[0])
        n = self.n[: len(grundy)]
        return pa.table({"n": n, "grundy": grundy}, schema=self.final_schema)

    @property
    def final_schema(self) -> pa.Schema:
        """The final file's schema (only once the file is open)."""
        assert self.final is not None
        return self.final.schema

    def _part(self, i: int, values: np.ndarray) -> None:
        if self.failed:
            return  # a part before this one failed: the run stops at that part
        try:
            if self.parts.checkpoint:
                _write_part(self.parts.folder, i, values)
            self._add(i, values)
        except BaseException:
            self.failed = True
            raise

    def submit(self, i: int, values: np.ndarray) -> None:
        """Write part ``i`` (a copy of ``values`` is kept: the caller may reuse its buffer).

        At most :data:`PENDING` parts wait to be written (memory stays bounded when
        writing is slower than computing): beyond, this waits for the oldest.
        """
        self.pending.append(self.pool.submit(self._part, i, values.copy()))
        while len(self.pending) > PENDING:
            self.pending.pop(0).result()
        self._raise(wait=False)

    def _raise(self, wait: bool) -> None:
        keep = []
        for f in self.pending:
            if wait or f.done():
                f.result()  # a failed write raises here, in the computing thread
            else:
                keep.append(f)
        self.pending = keep

    def finish(self, path: Path) -> str:
        """Wait for every part and close the final file into ``path`` when it is whole.

        Returns the widest value type of the parts; ``path`` is written only when
        the final file holds every part (else :func:`_merge` must).
        """
        try:
            self._raise(wait=True)
        finally:
            self.pool.shutdown(wait=True)
        width = max(self.widths, key=_width) if self.widths else "uint8"
        if self.final is not None and self.final_ok:
            meta = _meta(self.game, self.parts.n_max, self.engine, self.hash.hexdigest())
            _close(self.final, meta)
            with open(self.final_path, "rb+") as f:
                os.fsync(f.fileno())
            path.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.final_path, path)
        return width

    @property
    def complete(self) -> bool:
        """True when :meth:`finish` wrote the final file."""
        return self.final is not None and self.final_ok

    def abandon(self) -> None:
        """Stop after the parts already handed over (an interrupted run keeps them)."""
        self.pool.shutdown(wait=True)
        if self.final is not None and self.final_ok:
            self.final.close()


def _schema(grundy: np.dtype[Any]) -> pa.Schema:
    return pa.schema([("n", pa.int64()), ("grundy", pa.from_numpy_dtype(grundy))])


def _final_writer(where: Any, schema: pa.Schema) -> pq.ParquetWriter:
    return pq.ParquetWriter(
        where, schema, use_dictionary=["grundy"], column_encoding={"n": "DELTA_BINARY_PACKED"}
    )


def _close(writer: pq.ParquetWriter, meta: dict[str, Any]) -> None:
    """Add the store's metadata (known only now: it holds the hash) and close the file."""
    writer.add_key_value_metadata({META_KEY.decode(): json.dumps(meta)})
    writer.close()


def _meta(game: Game, n_max: int, engine: str, digest: str) -> dict[str, Any]:
    """The store's metadata of a streamed table (see :mod:`.store`)."""
    return {
        "spec": game.spec,
        "layout": "heap",
        "kind": "grundy",
        "heaps": 1,
        "bound": n_max,
        "method": "",
        "engine": engine,
        "misere": game.misere,
        "version": nimproof.__version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "rows": n_max + 1,
        "sha256": digest,
        "hash": HASH_STORED,
    }


def _run_window(parts: _Parts, takes: np.ndarray, writer: _Writer) -> int:
    """Finite subtraction sets: each chunk needs only the last ``max(takes)`` values."""
    folder, done, part_rows = parts.folder, parts.done, parts.part_rows
    w = int(takes[-1])
    stop = parts.n_max + 1
    buf = np.zeros(w + part_rows, dtype=np.uint8 if len(takes) < 255 else np.uint16)
    start = done * part_rows
    if done:
        tail = np.concatenate([_read_part(folder, i) for i in range(max(0, done - 1), done)])
        k = min(w, start)
        buf[w - k : w] = tail[len(tail) - k :]
    top = 0
    i = done
    while start < stop:
        end = min(stop, start + part_rows)
        stk.window_subtraction_kernel(buf, w, start, end - start, takes)
        chunk = buf[w : w + end - start]
        top = max(top, int(chunk.max()))
        writer.submit(i, chunk)
        k = min(w, end)
        buf[w - k : w] = buf[w + end - start - k : w + end - start]
        i += 1
        start = end
        if parts.progress is not None:
            parts.progress(start, stop)
    return top


def _run_whole(parts: _Parts, game: Game, writer: _Writer) -> np.ndarray:
    """Every other game: the whole table in memory, written out part by part as it grows."""
    folder, done, part_rows, n_max = parts.folder, parts.done, parts.part_rows, parts.n_max
    stop = n_max + 1
    prefix = np.concatenate([_read_part(folder, i) for i in range(done)]) if done else None
    rule = split_rule(game)
    if rule is None:
        values = grundy_table(game, n_max, prefix=prefix, progress=parts.progress)
        for i in range(done, parts.count):
            writer.submit(i, values[i * part_rows : (i + 1) * part_rows])
        return values
    check_memory(game.spec, table_bytes(n_max), n_max)
    table = SparseTable(rule, stop, prefix=prefix)
    for i in range(done, parts.count):
        end = min(stop, (i + 1) * part_rows)
        table.extend(end, parts.progress)
        writer.submit(i, table.values[i * part_rows : end])
    return table.values


def _run_mapped(
    parts: _Parts, rule: SplitRule, writer: _Writer, memory: int | None
) -> tuple[MappedTable, int]:
    """The sparse engine's table in a memory-mapped file (``OUT.parts/values.bin``).

    Stretches divide the parts (so a part ends where a stretch ends) and fit the
    budget; each finished part is read back from the file and handed to the writer.
    The file and its state are the checkpoint (no part files): a resumed run first
    hands over the parts its state covers, then computes from the state's heap.
    Returns the table and the heap the computation started from.
    """
    stop = parts.n_max + 1
    path = parts.folder / "values.bin"
    free = shutil.disk_usage(parts.folder).free
    if not path.exists() and free < 2 * stop:
        raise UsageError(
            f"{parts.folder}: heaps 0..{parts.n_max:,} need about {2 * stop / 2**30:.1f} GB of "
            f"disk (the value file and the parquet file); {free / 2**30:.1f} GB is free"
        )
    table = MappedTable(rule, stop, path)
    start = table.n
    rows = parts.part_rows
    stretch = _divisor_at_most(rows, stretch_for(memory or available_memory()))
    for i in range(min(table.n, stop) // rows):
        writer.submit(i, table.values[i * rows : (i + 1) * rows])  # submit copies
        table.release()

    def finished(t: MappedTable, a: int, b: int) -> None:
        if b % rows == 0 or b == stop:
            i = (b - 1) // rows
            writer.submit(i, t.values[i * rows : b])

    table.run(stop, stretch, finished, parts.progress)
    return table, start


def _divisor_at_most(rows: int, most: int) -> int:
    """The largest divisor of ``rows`` that is at most ``most`` (at least 1)."""
    if rows <= most:
        return rows
    for d in range(-(-rows // most), rows + 1):
        if rows % d == 0:
            return rows // d
    return 1


def _merge(
    game: Game,
    run: tuple[int, str, int],
    path: Path,
    width: str,
    part: Callable[[int], np.ndarray],
) -> None:
    """Write ``path`` when the writer could not: the store's columns, metadata and hash.

    ``run`` is ``(n_max, engine, part_rows)``; ``width`` the widest value type of
    the parts (from :class:`_Writer`), the type of the file's column; ``part(i)``
    gives the values of part ``i``. Every part is encoded and hashed again.
    """
    n_max, engine, part_rows = run
    count = -(-(n_max + 1) // part_rows)
    wide = np.dtype(width)
    schema = _schema(wide)
    h = hashlib.sha256()
    hash_column(h, "grundy", np.empty(0, dtype=wide))

    def write(f: Any) -> None:
        writer = _final_writer(f, schema)
        n = np.arange(part_rows, dtype=np.int64)
        for i in range(count):
            grundy = part(i).astype(wide, copy=False)
            hash_values(h, grundy)
            writer.write_table(pa.table({"n": n[: len(grundy)], "grundy": grundy}, schema=schema))
            n += part_rows
        _close(writer, _meta(game, n_max, engine, h.hexdigest()))

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, write)


def _slice(values: np.ndarray, rows: int, i: int) -> np.ndarray:
    """Part ``i`` of a table held whole (in memory or in a memory-mapped file)."""
    return np.asarray(values[i * rows : (i + 1) * rows])


def _width(name: str) -> int:
    return {"uint8": 1, "uint16": 2, "uint32": 4}.get(name, 8)
