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

import importlib
from typing import TYPE_CHECKING, Any

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

_STANDARD = ("STANDARD", "Standard", "build", "spot_check")


def __getattr__(name: str) -> Any:
    # Imported on first use, so that pandas and pyarrow load only when a table is read or written.
    if name in ("ENV_VAR", "data_directory"):
        return getattr(importlib.import_module("nimproof.datasets.paths"), name)
    if name in _STANDARD:
        return getattr(importlib.import_module("nimproof.datasets.standard"), name)
    if name in __all__:
        return getattr(importlib.import_module("nimproof.datasets.store"), name)
    raise AttributeError(f"module 'nimproof.datasets' has no attribute {name!r}")


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
