"""Stored tables: parquet files with their metadata and integrity checks.

One file per table in the data directory (``data/`` under the current
directory, ``$NIMPROOF_DATA`` when set, or an explicit ``data_dir``):

* single-heap tables: columns ``n`` and ``grundy`` (misère nim-values for a
  misère spec; the metadata says ``misere``), one row per heap ``0..bound``;
* box tables: columns ``h0 .. h{H-1}``, ``grundy`` (absent when only outcomes
  were computed) and ``p_position``, one row per position of
  ``[0, bound]^H`` in row-major order (``h0`` slowest).

The parquet schema metadata holds, under the key ``nimproof``, a JSON object:
spec, layout (``heap`` or ``box``), kind (``grundy`` or ``outcome``), heaps,
bound, method, engine, misere, version, created (UTC, ISO 8601), rows,
``sha256``, the hash of every column (see :func:`content_hash`), and ``hash``,
how that hash reads the columns: ``stored-width`` (each column's values at the
width they are stored in: one byte a value for ``uint8``; the columns that
number the rows, ``n`` and ``h0``, ``h1``, ..., are left out of the hash, since
the metadata fixes them and the reader checks them value by value). Files written before
this key existed (up to 25 November 2026) have no ``hash`` key and hashed every
value as an 8-byte integer (``int64``): they are still read and checked that
way. A file naming a hash this version does not know is refused in one line.

Writes are atomic: a temporary file in the same directory is written,
flushed to disk and renamed over the old one, so a write that dies halfway
leaves the previous file intact. Reading checks the file against its
metadata and hash; any problem is a one-line :class:`DatasetError` naming
the file and the fix.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict, Unpack

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import nimproof

# The data directory and file names live in a module without pandas (see paths.py).
from nimproof.datasets.paths import (  # noqa: F401
    ENV_VAR,
    SUFFIX,
    data_directory,
    file_name,
    writable_data_directory,
)
from nimproof.engines import MultiTable, grundy_table, heap_engine, multi_table
from nimproof.engines.multi import resolve_method
from nimproof.errors import DatasetError, UsageError
from nimproof.games import Game, parse_spec

META_KEY = b"nimproof"
_FIX = "run 'nimproof data verify', or delete the file and recompute it"

Progress = Callable[[int, int], None]

#: The keys of a table's metadata (see the module), in the order they are stored.
METADATA = (
    "spec",
    "layout",
    "kind",
    "heaps",
    "bound",
    "method",
    "engine",
    "misere",
    "version",
    "created",
    "rows",
    "sha256",
    "hash",
)

#: The content hash of this version: every column at the width it is stored in.
HASH_STORED = "stored-width"
#: The content hash of files written without a ``hash`` key: every value as an 8-byte integer.
HASH_INT64 = "int64"
#: The hashes a stored file may declare (older ones are read; none is refused for its age).
HASHES = (HASH_STORED, HASH_INT64)


@dataclass(frozen=True)
class Table:
    """A table with its metadata, as stored (or about to be stored).

    ``layout`` is ``"heap"`` (single heaps ``0..bound``) or ``"box"``
    (positions of ``heaps`` heaps, each ``0..bound``). ``method`` is the
    box method (``sieve``, ``direct`` or ``xor``; empty for heap tables).
    """

    spec: str
    layout: str
    kind: str
    heaps: int
    bound: int
    engine: str
    misere: bool
    frame: pd.DataFrame = field(repr=False)
    method: str = ""
    version: str = nimproof.__version__
    created: str = ""
    sha256: str = ""
    hash: str = HASH_STORED
    path: Path | None = None

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.frame)

    @property
    def grundy(self) -> np.ndarray:
        """A heap table's values for ``n = 0..bound`` (int64)."""
        if self.layout != "heap":
            raise UsageError(f"the table of {self.spec} is a box table; use .to_multi()")
        return self.frame["grundy"].to_numpy(dtype=np.int64)

    def to_multi(self) -> MultiTable:
        """A box table as a :class:`MultiTable` (arrays of shape ``(bound+1,)*heaps``)."""
        if self.layout != "box":
            raise UsageError(f"the table of {self.spec} holds single heaps, not a box")
        shape = (self.bound + 1,) * self.heaps
        p = self.frame["p_position"].to_numpy(dtype=bool).reshape(shape)
        values = None
        if "grundy" in self.frame.columns:
            values = self.frame["grundy"].to_numpy(dtype=np.int64).reshape(shape)
        return MultiTable(values, p, self.kind, self.engine)

    def metadata(self) -> dict[str, Any]:
        """The JSON metadata stored with the table."""
        return {key: getattr(self, key) for key in METADATA}


def heap_table(game: Game, values: np.ndarray, engine: str) -> Table:
    """A :class:`Table` for single heaps ``0..len(values)-1`` of ``game``."""
    values = np.asarray(values, dtype=np.int64)
    frame = pd.DataFrame({"n": np.arange(len(values), dtype=np.int64), "grundy": values})
    return Table(game.spec, "heap", "grundy", 1, len(values) - 1, engine, game.misere, frame)


def box_frame(table: MultiTable) -> pd.DataFrame:
    """The rows of a box table: ``h0..h{H-1}``, ``grundy`` (when known) and ``p_position``."""
    shape = table.p_positions.shape
    grids = np.indices(shape, dtype=np.int32).reshape(len(shape), -1)
    columns: dict[str, np.ndarray] = {f"h{i}": grids[i] for i in range(len(shape))}
    if table.values is not None:
        columns["grundy"] = table.values.reshape(-1).astype(np.int64)
    columns["p_position"] = table.p_positions.reshape(-1).astype(bool)
    return pd.DataFrame(columns)


def box_table(game: Game, table: MultiTable, method: str) -> Table:
    """A :class:`Table` for a :class:`MultiTable` of ``game`` computed with ``method``."""
    return Table(
        game.spec,
        "box",
        table.kind,
        table.heaps,
        table.max_heap,
        table.engine,
        game.misere,
        box_frame(table),
        method=method,
    )


def content_hash(frame: pd.DataFrame, scheme: str = HASH_STORED) -> str:
    """sha256 over the columns in order (see :func:`hash_column`).

    ``stored-width`` leaves out the index columns (``n``, ``h0``, ``h1``, ...): their
    values follow from the metadata (``0..bound``, the box in row-major order) and
    the reader checks them as such. ``int64`` hashes every column.
    """
    h = hashlib.sha256()
    for name in frame.columns:
        if scheme == HASH_STORED and is_index_column(str(name)):
            continue
        hash_column(h, str(name), frame[name].to_numpy(), scheme)
    return h.hexdigest()


def is_index_column(name: str) -> bool:
    """True for ``n`` and ``h0``, ``h1``, ...: the columns that number the rows."""
    return name == "n" or (name[:1] == "h" and name[1:].isdigit())


def hash_column(h: Any, name: str, values: np.ndarray, scheme: str = HASH_STORED) -> None:
    """Add one column to the sha256 ``h``: its name and a NUL, then its values.

    ``stored-width``: the value type's name and a NUL, then the values as stored
    (little-endian, ``values.dtype``'s width: the bytes are hashed without a copy
    when the array already is). ``int64``: every value as a little-endian 8-byte
    integer (the hash of files without a ``hash`` key). A column may be given in
    pieces: :func:`hash_values` adds more values of the same column.
    """
    h.update(name.encode() + b"\0")
    if scheme == HASH_STORED:
        h.update(values.dtype.name.encode() + b"\0")
    hash_values(h, values, scheme)


def hash_values(h: Any, values: np.ndarray, scheme: str = HASH_STORED) -> None:
    """Add the values of a column (after :func:`hash_column` began it) to ``h``."""
    if scheme == HASH_STORED:
        h.update(np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<")))
        return
    step = 1 << 20  # int64 copies of at most 8 MB at a time
    for a in range(0, len(values), step):
        h.update(np.ascontiguousarray(values[a : a + step], dtype="<i8"))


def table_path(
    game: Game | str,
    *,
    heaps: int | None = None,
    method: str = "auto",
    data_dir: str | os.PathLike[str] | None = None,
) -> Path:
    """Where the table of ``game`` (a box table when ``heaps`` is given) is stored."""
    g = parse_spec(game) if isinstance(game, str) else game
    root = data_directory(data_dir)
    if heaps is None:
        return root / file_name(g.spec)
    return root / file_name(g.spec, "box", heaps, resolve_method(g, heaps, method))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def save(table: Table, data_dir: str | os.PathLike[str] | None = None) -> Table:
    """Store ``table`` atomically; returns it with its hash, time stamp and path filled in."""
    root = writable_data_directory(data_dir)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write into data folder {str(root)!r}: {exc.strerror}") from None
    stamped = replace(
        table,
        version=nimproof.__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        sha256=content_hash(table.frame),
        hash=HASH_STORED,
    )
    path = root / file_name(table.spec, table.layout, table.heaps, table.method)
    arrow = pa.Table.from_pandas(stamped.frame, preserve_index=False)
    arrow = arrow.replace_schema_metadata({META_KEY: json.dumps(stamped.metadata()).encode()})
    atomic_write(path, lambda f: pq.write_table(arrow, f))
    return replace(stamped, path=path)


def atomic_write(path: Path, write: Callable[[Any], None]) -> None:
    """Write ``path`` through a temporary file in the same directory, fsync, then rename."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the OS allows it
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ---------------------------------------------------------------------------
# Reading and checking
# ---------------------------------------------------------------------------


def read(path: str | os.PathLike[str]) -> Table:
    """Read and check one stored table; a one-line :class:`DatasetError` when it is not sound."""
    p = Path(path)
    where = str(p)
    try:
        arrow = pq.read_table(p)
    except FileNotFoundError:
        raise DatasetError(f"{where}: no such dataset") from None
    except (OSError, pa.ArrowException) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DatasetError(f"{where}: unreadable parquet file ({reason}); {_FIX}") from None
    # Streamed tables add their metadata to the file when it is closed (the hash is known
    # only then): the file's key-value metadata first, then the schema's.
    raw = (pq.read_metadata(p).metadata or {}).get(META_KEY)
    raw = raw or (arrow.schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise DatasetError(f"{where}: no nimproof metadata; {_FIX}")
    try:
        meta = json.loads(raw)
        table = Table(
            spec=str(meta["spec"]),
            layout=str(meta["layout"]),
            kind=str(meta["kind"]),
            heaps=int(meta["heaps"]),
            bound=int(meta["bound"]),
            engine=str(meta["engine"]),
            misere=bool(meta["misere"]),
            frame=arrow.to_pandas(),
            method=str(meta.get("method", "")),
            version=str(meta["version"]),
            created=str(meta["created"]),
            sha256=str(meta["sha256"]),
            hash=str(meta.get("hash", HASH_INT64)),
            path=p,
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise DatasetError(f"{where}: malformed nimproof metadata ({exc!s}); {_FIX}") from None
    problem = _problem(table)
    if problem:
        raise DatasetError(f"{where}: {problem}; {_FIX}")
    return table


def _problem(t: Table) -> str | None:
    frame = t.frame
    if t.layout not in ("heap", "box") or t.kind not in ("grundy", "outcome"):
        return f"unknown layout/kind {t.layout!r}/{t.kind!r} in the metadata"
    if t.bound < 0 or t.heaps < 1:
        return "metadata with a negative bound or no heaps"
    if t.layout == "heap":
        want = ["n", "grundy"]
        rows = t.bound + 1
    else:
        want = (
            [f"h{i}" for i in range(t.heaps)]
            + (["grundy"] if t.kind == "grundy" else [])
            + ["p_position"]
        )
        rows = (t.bound + 1) ** t.heaps
    if list(frame.columns) != want:
        return f"columns {list(frame.columns)} do not match the metadata (expected {want})"
    if len(frame) != rows:
        return f"{len(frame)} rows, but the metadata says {rows}"
    for name in want:
        if frame[name].isna().any():
            return f"missing values in column {name!r}"
    if t.hash not in HASHES:
        return f"unknown content hash {t.hash!r} (written by a newer nimproof?)"
    if content_hash(frame, t.hash) != t.sha256:
        return "content hash mismatch (the values were altered or damaged)"
    if t.layout == "heap":
        if not np.array_equal(frame["n"].to_numpy(), np.arange(rows)):
            return "column 'n' is not 0..bound"
    else:
        grids = np.indices((t.bound + 1,) * t.heaps).reshape(t.heaps, -1)
        for i in range(t.heaps):
            if not np.array_equal(frame[f"h{i}"].to_numpy(), grids[i]):
                return f"column 'h{i}' does not enumerate the box in row-major order"
        if t.kind == "grundy" and not np.array_equal(
            frame["p_position"].to_numpy(dtype=bool), frame["grundy"].to_numpy() == 0
        ):
            return "p_position disagrees with grundy == 0"
    if "grundy" in frame.columns and len(frame) and int(frame["grundy"].min()) < 0:
        return "negative values in column 'grundy'"
    return None


class Where(TypedDict, total=False):
    """Which stored table of a game: the keyword options of :func:`table_path` and :func:`load`."""

    heaps: int | None
    method: str
    data_dir: str | os.PathLike[str] | None


def load(spec: Game | str, **where: Unpack[Where]) -> Table:
    """The stored table of ``spec`` (a box table when ``heaps`` is given), checked.

    Raises :class:`DatasetError` when there is none or it is not sound.
    """
    game = parse_spec(spec) if isinstance(spec, str) else spec
    path = table_path(game, **where)
    if not path.exists():
        raise DatasetError(
            f"no stored table of {game.spec} in {path.parent}; "
            f"compute it with 'nimproof table {game.spec} ... --save' or 'nimproof data build'"
        )
    table = read(path)
    heaps = where.get("heaps")
    expected = ("box", heaps) if heaps is not None else ("heap", 1)
    if (
        table.spec != game.spec
        or (table.layout, table.heaps) != expected
        or table.misere != game.misere
    ):
        raise DatasetError(
            f"{path}: holds {table.spec} ({table.layout}, {table.heaps} heaps), "
            f"not {game.spec}; {_FIX}"
        )
    return table


# ---------------------------------------------------------------------------
# Reuse
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fetched:
    """A table handed out by :func:`fetch_heap` / :func:`fetch_multi`, and where it came from."""

    values: np.ndarray | None
    multi: MultiTable | None
    engine: str
    source: str
    """``"dataset"`` (sliced from a stored table), ``"extended"`` or ``"computed"``."""


def fetch_heap(
    game: Game,
    n_max: int,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    store: bool = True,
) -> Fetched:
    """Like :func:`get_or_compute`, also saying which engine made the values and how.

    With ``store``, an unwritable data folder is refused before any computation."""
    path = table_path(game, data_dir=data_dir)
    prefix = None
    if path.exists():
        stored = load(game, data_dir=data_dir)
        values = stored.grundy
        if stored.bound >= n_max:
            return Fetched(values[: n_max + 1].copy(), None, stored.engine, "dataset")
        prefix = values
    if store:
        writable_data_directory(data_dir)
    values = grundy_table(game, n_max, prefix=prefix, progress=progress)
    engine = heap_engine(game)
    if store:
        save(heap_table(game, values, engine), data_dir)
    return Fetched(values, None, engine, "computed" if prefix is None else "extended")


class FetchOptions(TypedDict, total=False):
    """The keyword options of :func:`get_or_compute` (those of :func:`fetch_heap`)."""

    data_dir: str | os.PathLike[str] | None
    progress: Progress | None
    store: bool


class BoxFetchOptions(FetchOptions, total=False):
    """The keyword options of :func:`get_or_compute_multi` (those of :func:`fetch_multi`)."""

    method: str


def get_or_compute(game: Game, n_max: int, **options: Unpack[FetchOptions]) -> np.ndarray:
    """The single-heap table of ``game`` for ``0..n_max``, reusing the stored one.

    A stored table with a bound of at least ``n_max`` is sliced; a shorter one
    is extended from its values (``grundy_table(prefix=...)``) and, with
    ``store``, stored again; a missing one is computed (and stored). A
    corrupted stored table raises :class:`DatasetError` rather than being
    silently replaced.
    """
    got = fetch_heap(game, n_max, **options)
    assert got.values is not None
    return got.values


def fetch_multi(
    game: Game,
    heaps: int,
    max_heap: int,
    *,
    method: str = "auto",
    data_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    store: bool = True,
) -> Fetched:
    """Like :func:`get_or_compute_multi`, also saying how the table was obtained.

    With ``store``, an unwritable data folder is refused before any computation."""
    resolved = resolve_method(game, heaps, method)
    path = table_path(game, heaps=heaps, method=resolved, data_dir=data_dir)
    if path.exists():
        stored = load(game, heaps=heaps, method=resolved, data_dir=data_dir)
        if stored.bound >= max_heap:
            mt = stored.to_multi()
            box = tuple(slice(0, max_heap + 1) for _ in range(heaps))
            values = None if mt.values is None else mt.values[box].copy()
            sliced = MultiTable(values, mt.p_positions[box].copy(), mt.kind, mt.engine)
            return Fetched(None, sliced, mt.engine, "dataset")
    if store:
        writable_data_directory(data_dir)
    mt = multi_table(game, heaps, max_heap, method=resolved, progress=progress)
    if store:
        save(box_table(game, mt, resolved), data_dir)
    return Fetched(None, mt, mt.engine, "computed")


def get_or_compute_multi(
    game: Game, heaps: int, max_heap: int, **options: Unpack[BoxFetchOptions]
) -> MultiTable:
    """The box table of ``game``: a stored one with at least this bound is sliced, else it is
    computed (and, with ``store``, stored; a box table is not extended incrementally)."""
    got = fetch_multi(game, heaps, max_heap, **options)
    assert got.multi is not None
    return got.multi


# ---------------------------------------------------------------------------
# Catalog
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One file of the data directory: its metadata and whether it passed the checks."""

    path: Path
    ok: bool
    problem: str = ""
    spec: str = ""
    layout: str = ""
    kind: str = ""
    heaps: int = 0
    bound: int = 0
    rows: int = 0
    engine: str = ""
    method: str = ""
    misere: bool = False
    version: str = ""
    created: str = ""
    sha256: str = ""
    hash: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {**asdict(self), "path": str(self.path)}


def catalog(data_dir: str | os.PathLike[str] | None = None) -> list[CatalogEntry]:
    """Every table file in the data directory, each read and checked (sorted by file name)."""
    root = data_directory(data_dir)
    if not root.is_dir():
        return []
    entries = []
    for path in sorted(root.glob(f"*{SUFFIX}")):
        try:
            t = read(path)
        except DatasetError as exc:
            entries.append(CatalogEntry(path, False, str(exc)))
            continue
        entries.append(CatalogEntry(path, True, **t.metadata()))
    return entries
