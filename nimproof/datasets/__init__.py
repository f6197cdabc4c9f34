"""Stored tables: parquet datasets in the data directory, their catalog and integrity checks.

* :func:`get_or_compute`, :func:`get_or_compute_multi` - a table, reused from
  the data directory when stored (sliced, or extended incrementally);
* :func:`save`, :func:`load`, :func:`read` - one table, written atomically and
  read with every check (metadata, columns, content hash);
* :func:`catalog` - every stored table and whether it is sound;
* :data:`STANDARD`, :func:`build`, :func:`spot_check` - ``nimproof data build``
  and a comparison of stored values with the reference implementation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimproof._lazy import lazy_exports

if TYPE_CHECKING:
    from nimproof.datasets.standard import STANDARD, Standard, build, spot_check
    from nimproof.datasets.store import (
        ENV_VAR,
        CatalogEntry,
        Fetched,
        Table,
        box_table,
        catalog,
        content_hash,
        data_directory,
        fetch_heap,
        fetch_multi,
        get_or_compute,
        get_or_compute_multi,
        heap_table,
        load,
        read,
        save,
        table_path,
    )

__all__ = [
    "ENV_VAR",
    "STANDARD",
    "CatalogEntry",
    "Fetched",
    "Standard",
    "Table",
    "box_table",
    "build",
    "catalog",
    "content_hash",
    "data_directory",
    "fetch_heap",
    "fetch_multi",
    "get_or_compute",
    "get_or_compute_multi",
    "heap_table",
    "load",
    "read",
    "save",
    "spot_check",
    "table_path",
]

# Imported on first use, so that pandas and pyarrow load only when a table is read or written.
_WHERE = {
    **dict.fromkeys(__all__, ".store"),
    **dict.fromkeys(("ENV_VAR", "data_directory"), ".paths"),
    **dict.fromkeys(("STANDARD", "Standard", "build", "spot_check"), ".standard"),
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
