"""Where stored tables live: the data directory and the file name of each table.

Kept apart from :mod:`.store` (which needs pandas and pyarrow) so that a
command can ask "is this table stored?" without loading them.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from nimproof.output import output_dir

ENV_VAR = "NIMPROOF_DATA"
SUFFIX = ".parquet"


def data_directory(path: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``path`` if given, else ``$NIMPROOF_DATA``, else ``./data``."""
    if path is not None:
        return Path(path)
    env = os.environ.get(ENV_VAR)
    return Path(env) if env else Path.cwd() / "data"


def writable_data_directory(path: str | os.PathLike[str] | None = None) -> Path:
    """:func:`data_directory`, checked before any work: it is (or can be made) a folder
    that accepts files; otherwise a one-line :class:`~nimproof.errors.UsageError`."""
    return output_dir(str(data_directory(path)), "data folder")


def file_name(spec: str, layout: str = "heap", heaps: int = 1, method: str = "") -> str:
    """The file name of a table: a readable slug of the spec and a hash of it."""
    slug = re.sub(r"[^a-z0-9.]+", "-", spec.lower()).strip("-.")[:40] or "table"
    digest = hashlib.sha256(spec.encode()).hexdigest()[:10]
    tail = f".h{heaps}.{method}" if layout == "box" else ""
    return f"{slug}-{digest}{tail}{SUFFIX}"
