"""An atlas row against a published period: agrees, out of the table's reach, or differs.

The published rows (a CSV with ``code, source, equivalent, status, prefix, period``;
the project keeps tczajka/octal-games' and the OEIS's in
``tests/data/published_octal_periods.csv``) are read by :func:`read_published`;
:func:`compare` says how one atlas row stands against one published row.
A table of ``bound`` heaps shows a period of length ``p`` from heap ``q`` when
``q + 2p < bound / 2`` (the period search reads the second half of the table and
needs two periods in it); a published period that needs more is *out of reach*
at that bound, and the row then says nothing against it.
"""

from __future__ import annotations

import csv
import os
from typing import Any

#: Verdicts of :func:`compare`.
AGREE, OUT_OF_REACH, DIFFERS = "agree", "out of reach", "differs"
#: Heaps a lookup-table equivalent may be shifted by (the offset is not published).
MAX_OFFSET = 4


def read_published(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """``code -> {source, equivalent, status, prefix, period}`` (numbers as int or None)."""
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out = {}
    for row in rows:
        for key in ("prefix", "period"):
            row[key] = int(row[key]) if row[key] else None
        out[f"octal:{row['code']}"] = row
    return out


def compare(
    row: dict[str, Any], pub: dict[str, Any], bound: int, known: dict[str, dict[str, Any]]
) -> tuple[str, str]:
    """How ``row`` (an atlas row to ``bound`` heaps) stands against ``pub``, and why.

    ``known`` is every published row, to find the prefix of an equivalent game.
    A published unsolved game agrees with a row that proves no period (a row
    that proves one differs). A published period agrees with a row that shows
    the same period (and the same first heap, when the code is listed itself);
    a row that shows none is out of reach when the published period needs more
    heaps than the table has (see the module), and differs otherwise.
    """
    status = row.get("status")
    seen = status in ("proved", "periodic")
    if pub["status"] == "unsolved":
        if status == "proved":
            return DIFFERS, f"period {row['period']} proved here; the list calls the game unsolved"
        if status == "periodic":
            return AGREE, f"period {row['period']} to {bound} heaps, not proved; listed unsolved"
        return AGREE, f"no period to {bound} heaps; listed unsolved"
    p, q = pub["period"], pub["prefix"]
    if seen:
        if row["period"] != p:
            return DIFFERS, f"period {row['period']} here, {p} published"
        if q is not None and row["preperiod"] != q:
            return DIFFERS, f"period from {row['preperiod']} here, from {q} published"
        return AGREE, f"period {p} ({status})"
    if q is None:
        eq = known.get(f"octal:{pub['equivalent']}")
        q = None if eq is None or eq["prefix"] is None else eq["prefix"] + MAX_OFFSET
    if q is not None and q + 2 * p < bound // 2:
        return DIFFERS, f"no period to {bound} heaps; period {p} from {q} published"
    if q is None and 2 * p < bound // 4:
        return DIFFERS, f"no period to {bound} heaps; period {p} published"
    start = "" if q is None else f" from {q}"
    return OUT_OF_REACH, f"period {p}{start} needs more heaps"
