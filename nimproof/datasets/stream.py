"""Long one-heap tables streamed to parquet in parts: bounded memory, resumable.

``stream_table(game, n_max, out)`` computes heaps ``0..n_max`` and writes
them to ``out`` (a parquet file in the format of :mod:`.store`: columns ``n``
and ``grundy``, the same metadata and content hash, so ``nimproof data
verify`` checks it). While it runs, finished chunks are kept as atomic part
files in ``OUT.parts/`` with a manifest; an interrupted run started again
with ``resume=True`` continues after the last finished part, and a run that
dies leaves no damaged file (every write is a temporary file renamed into
place). At the end the parts are merged into ``out`` (one row group per
part) and removed.

Memory: games whose value at ``n`` depends only on a bounded window of the
heaps below it (finite subtraction sets) keep one chunk and that window.
The sparse engine's games hold the whole table in memory (compact) when it
fits the memory budget (``memory`` bytes; by default what the machine has
available), else keep it in a memory-mapped file in ``OUT.parts/``
(:class:`nimproof.engines.mapped.MappedTable`: stretches sized from the budget,
each checkpointed, so a resumed run goes on from the last finished stretch
even when its part was not written yet). Every other family holds the whole
table and writes it out chunk by chunk as it grows.
"""

from __future__ import annotations

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
from nimproof.datasets.store import META_KEY, atomic_write
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
    file, computed in stretches that fit it. Refuses (one-line :class:`UsageError`) an ``out`` that cannot be written (before
    any work), unfinished parts without
    ``resume``, parts of another game or bound with ``resume``, and a bound
    the engine cannot reach.
    """
    t0 = time.monotonic()
    if output_file(str(out), "parquet file").is_stdout:
        raise UsageError("a streamed table is a parquet file: give --out FILE, not standard output")
    path = Path(out)
    folder = parts_dir(path)
    engine, window = _engine(game)
    rule = split_rule(game) if window is None else None
    mapped = rule is not None and _needs_file(n_max, memory)
    manifest = {"spec": game.spec, "n_max": n_max, "engine": engine, "part_rows": part_rows}
    if mapped:
        manifest["mapped"] = True
    done = _open_parts(folder, manifest, resume)
    start = done * part_rows
    parts = _Parts(folder, n_max, done, part_rows, progress)
    writer = _Writer(parts, game, engine)
    try:
        if window is not None:
            values = None
            top = _run_window(parts, window, writer)
        elif mapped and rule is not None:
            values = None
            top = _run_mapped(parts, rule, writer, memory)
        else:
            values = _run_whole(parts, game, writer)
            top = int(values.max())
        hashed = writer.finish(path)
    except BaseException:
        writer.abandon()
        raise
    if not writer.complete:
        _merge(game, (n_max, engine, part_rows), folder, path, hashed, values)
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
    return f"part-{i:06d}.parquet"


def _write_part(folder: Path, i: int, values: np.ndarray) -> None:
    arrow = pa.table({"grundy": _compact(values)})
    atomic_write(folder / _part_name(i), lambda f: pq.write_table(arrow, f))


def _read_part(folder: Path, i: int) -> np.ndarray:
    return pq.read_table(folder / _part_name(i)).column("grundy").to_numpy()


def _compact(values: np.ndarray) -> np.ndarray:
    top = int(values.max()) if len(values) else 0
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return values.astype(dtype, copy=False)
    return values.astype(np.int64, copy=False)


@dataclass(frozen=True, slots=True)
class _Parts:
    """A run in progress: heaps ``0..n_max`` in parts of ``part_rows``, ``done`` already written."""

    folder: Path
    n_max: int
    done: int
    part_rows: int
    progress: Progress | None

    @property
    def count(self) -> int:
        """The number of parts of the whole table."""
        return -(-(self.n_max + 1) // self.part_rows)


class _Writer:
    """Writes finished parts, the final file and the hash, in order, on a thread of its own.

    The kernels release the GIL (numba ``nogil``), so on a machine with a free
    core the output is written while the next stretch is computed. Each part
    goes to its part file (the checkpoint a resumed run starts from) and, as a
    row group, to the final file (``OUT.parts/final.tmp``); the content hash
    (:func:`nimproof.datasets.store.content_hash`: the column ``n``, then
    ``grundy``, as little-endian int64) grows with it. Parts already on disk (a
    resumed run) go first. The final file's metadata, which holds the hash, is
    added when it is closed; if a part needs a wider value type than the final
    file's column (the first part's), the final file is dropped and
    :func:`_merge` writes it at the end.
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
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nimproof-parts")
        self.pending: list[Future[None]] = [self.pool.submit(self._start)]

    @property
    def final_path(self) -> Path:
        """The final file while it is written."""
        return self.parts.folder / "final.tmp"

    def _start(self) -> None:
        h = self.hash
        h.update(b"n\0")
        step = 1 << 20
        buf = np.arange(step, dtype="<i8")
        for a in range(0, self.parts.n_max + 1, step):
            h.update(buf[: min(step, self.parts.n_max + 1 - a)].tobytes())
            buf += step
        h.update(b"grundy\0")
        for i in range(self.parts.done):
            self._add(i, _read_part(self.parts.folder, i))

    def _add(self, i: int, values: np.ndarray) -> None:
        compact = _compact(values)
        self.widths.add(str(compact.dtype))
        step = 1 << 20
        buf = np.empty(step, dtype="<i8")
        for a in range(0, len(values), step):
            m = min(step, len(values) - a)
            np.copyto(buf[:m], values[a : a + m])
            self.hash.update(buf[:m].tobytes())
        if not self.final_ok:
            return
        if self.final is None:
            schema = _schema(pa.from_numpy_dtype(compact.dtype), {})
            self.final = _final_writer(self.final_path, schema)
        wide = self.final.schema.field("grundy").type
        if _width(str(compact.dtype)) > _width(str(wide)):
            self.final.close()
            self.final_ok = False
            return
        first = i * self.parts.part_rows
        n = np.arange(first, first + len(values), dtype=np.int64)
        grundy = compact.astype(wide.to_pandas_dtype())
        self.final.write_table(pa.table({"n": n, "grundy": grundy}, schema=self.final.schema))

    def _part(self, i: int, values: np.ndarray) -> None:
        if self.failed:
            return  # a part before this one failed: the run stops at that part
        try:
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

    def finish(self, path: Path) -> tuple[str, str]:
        """Wait for every part and close the final file into ``path`` when it is whole.

        Returns the content hash and the widest value type; ``path`` is written
        only when the final file holds every part (else :func:`_merge` must).
        """
        try:
            self._raise(wait=True)
        finally:
            self.pool.shutdown(wait=True)
        digest = self.hash.hexdigest()
        width = max(self.widths, key=_width) if self.widths else "uint8"
        if self.final is not None and self.final_ok:
            meta = _meta(self.game, self.parts.n_max, self.engine, digest)
            self.final.add_key_value_metadata({META_KEY.decode(): json.dumps(meta)})
            self.final.close()
            with open(self.final_path, "rb+") as f:
                os.fsync(f.fileno())
            path.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.final_path, path)
        return digest, width

    @property
    def complete(self) -> bool:
        """True when :meth:`finish` wrote the final file."""
        return self.final is not None and self.final_ok

    def abandon(self) -> None:
        """Stop after the parts already handed over (an interrupted run keeps them)."""
        self.pool.shutdown(wait=True)
        if self.final is not None and self.final_ok:
            self.final.close()


def _schema(wide: pa.DataType, meta: dict[str, Any]) -> pa.Schema:
    schema = pa.schema([("n", pa.int64()), ("grundy", wide)])
    return schema.with_metadata({META_KEY: json.dumps(meta).encode()}) if meta else schema


def _final_writer(where: Any, schema: pa.Schema) -> pq.ParquetWriter:
    return pq.ParquetWriter(
        where, schema, use_dictionary=["grundy"], column_encoding={"n": "DELTA_BINARY_PACKED"}
    )


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


def _run_mapped(parts: _Parts, rule: SplitRule, writer: _Writer, memory: int | None) -> int:
    """The sparse engine's table in a memory-mapped file (``OUT.parts/values.bin``).

    Stretches divide the parts (so a part ends where a stretch ends) and fit the
    budget; each finished part is read back from the file and handed to the writer.
    A resumed run first hands over the parts its state covers but that were not
    written, then goes on from the state's heap.
    """
    stop = parts.n_max + 1
    path = parts.folder / "values.bin"
    if parts.done and not (parts.folder / "values.bin.state.npz").exists():
        raise UsageError(f"{parts.folder}: the table's state is missing; delete the folder")
    free = shutil.disk_usage(parts.folder).free
    if not path.exists() and free < 2 * stop:
        raise UsageError(
            f"{parts.folder}: heaps 0..{parts.n_max:,} need about {2 * stop / 2**30:.1f} GB of "
            f"disk (the value file and the parquet parts); {free / 2**30:.1f} GB is free"
        )
    table = MappedTable(rule, stop, path)
    rows = parts.part_rows
    stretch = _divisor_at_most(rows, stretch_for(memory or available_memory()))
    for i in range(parts.done, min(table.n, stop) // rows):
        writer.submit(i, table.values[i * rows : (i + 1) * rows])  # submit copies
        table.release()

    def finished(t: MappedTable, a: int, b: int) -> None:
        if b % rows == 0 or b == stop:
            i = (b - 1) // rows
            writer.submit(i, t.values[i * rows : b])

    table.run(stop, stretch, finished, parts.progress)
    return table.largest()


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
    folder: Path,
    path: Path,
    hashed: tuple[str, str],
    values: np.ndarray | None,
) -> None:
    """Write ``path`` when the writer could not: the store's columns, metadata and hash.

    ``run`` is ``(n_max, engine, part_rows)``; ``hashed`` the content hash and the
    widest value type of the parts (from :class:`_Writer`). The values come from
    ``values`` when the whole table is in memory, else from the parts.
    """
    n_max, engine, part_rows = run
    count = -(-(n_max + 1) // part_rows)
    wide = pa.from_numpy_dtype(np.dtype(hashed[1]))
    schema = _schema(wide, _meta(game, n_max, engine, hashed[0]))

    def part(i: int) -> np.ndarray:
        if values is None:
            return _read_part(folder, i)
        return values[i * part_rows : min(n_max + 1, (i + 1) * part_rows)]

    def write(f: Any) -> None:
        with _final_writer(f, schema) as writer:
            n = np.arange(part_rows, dtype=np.int64)
            for i in range(count):
                chunk = part(i)
                columns = {"n": n[: len(chunk)], "grundy": chunk.astype(wide.to_pandas_dtype())}
                writer.write_table(pa.table(columns, schema=schema))
                n += part_rows

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, write)


def _width(name: str) -> int:
    return {"uint8": 1, "uint16": 2, "uint32": 4}.get(name, 8)
