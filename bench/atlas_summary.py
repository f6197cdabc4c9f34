"""The summary of a four-digit atlas sweep, compared with the published periods.

``python -m bench.atlas_summary OUT [--write FILE]`` reads ``OUT/atlas.parquet``
(a sweep of ``nimproof atlas --family octal-4digit``), compares every row that a
published table covers with it (:func:`nimproof.atlas.published.compare`, rows
of ``tests/data/published_octal_periods.csv``), prints the counts (proved,
periodic, open; agree, out of reach, differ) and every difference, and with
``--write`` writes one compact CSV line per code (the committed copy is
``nimproof/atlas/data/atlas4_summary.csv``). Exit code 1 when a row differs
from its published row.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from nimproof.atlas.families import octal_codes
from nimproof.atlas.published import DIFFERS, compare, read_published
from nimproof.atlas.sweep import load_rows

#: The published periods (sources in the file's header).
PUBLISHED = Path(__file__).resolve().parents[1] / "tests" / "data" / "published_octal_periods.csv"
#: Columns of the summary file.
FIELDS = (
    "code",
    "status",
    "preperiod",
    "period",
    "largest_value",
    "largest_at",
    "rare_mask",
    "rare_heaps",
    "last_rare",
    "published",
)


def _cell(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    if key == "code":
        return str(value).removeprefix("octal:")
    if key == "rare_mask" and value is not None:
        return f"{value:x}" + ("+pos" if row.get("rare_by_position") else "")
    return "" if value is None else str(value)


def summary(rows: list[dict[str, Any]], bound: int) -> tuple[list[str], Counter[str], list[str]]:
    """CSV lines (with the ``published`` verdict), the counts, and the differences in words."""
    pub = read_published(PUBLISHED)
    lines, counts, differences = [], Counter[str](), []
    for row in rows:
        counts[str(row["status"])] += 1
        verdict = ""
        if row["code"] in pub:
            verdict, why = compare(row, pub[row["code"]], bound, pub)
            counts[f"published: {verdict}"] += 1
            if verdict == DIFFERS:
                differences.append(f"{row['code']}: {why}")
        lines.append(",".join(_cell(dict(row, published=verdict), k) for k in FIELDS))
    return lines, counts, differences


def main(argv: list[str] | None = None) -> int:
    """Print the sweep's counts and differences; write the summary file when asked."""
    p = argparse.ArgumentParser(prog="python -m bench.atlas_summary", description=__doc__)
    p.add_argument("out", help="the atlas folder (holds atlas.parquet)")
    p.add_argument("--write", metavar="FILE", help="write the summary CSV here")
    args = p.parse_args(argv)
    order = {c: i for i, c in enumerate(octal_codes("0", 4))}
    rows = sorted(
        (r for r in load_rows(args.out) if r.get("code") in order), key=lambda r: order[r["code"]]
    )
    bounds = {r.get("max_n") for r in rows if r.get("status") not in ("proved", "error")}
    bound = (max(b for b in bounds if b) if bounds else 1 << 16) + 1
    lines, counts, differences = summary(rows, bound)
    print(f"{len(rows)} of {len(order)} codes; {dict(sorted(counts.items()))}")
    for d in differences:
        print("differs:", d)
    if args.write:
        head = (
            f"# {len(rows)} of {len(order)} codes of nimproof atlas --family octal-4digit "
            f"--max-n {bound - 1}, one line per code "
            "(proved: period proved for all heaps; periodic: a period through the table, not "
            "proved; unsolved: none found).\n# `published`: the row against "
            "tests/data/published_octal_periods.csv (agree, out of reach, differs; blank: no "
            "published row).\n"
        )
        Path(args.write).write_text(head + ",".join(FIELDS) + "\n" + "\n".join(lines) + "\n")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
