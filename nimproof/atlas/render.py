"""The atlas as a static HTML page (sortable table, a small plot per game) and as Markdown.

The page needs no server and loads nothing from elsewhere: the plots are
inline SVG drawn here from each row's first values, and the table is sorted
by a few lines of inline JavaScript (click a column heading).
"""

from __future__ import annotations

import html
import os
from collections import Counter
from pathlib import Path
from typing import Any

from nimproof.atlas.analyse import status_text

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th { cursor: pointer; background: #f4f4f4; position: sticky; top: 0; }
td.l, th.l { text-align: left; }
tr.proved td.s { color: #176117; } tr.unsolved td.s { color: #8a4b00; }
tr.error td.s, tr.timeout td.s { color: #a00; }
svg { display: block; }
"""

_SCRIPT = """
document.querySelectorAll('th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.dataset.asc !== '1'; th.dataset.asc = asc ? '1' : '0';
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : String(x).localeCompare(String(y));
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""

#: Columns of the HTML table: heading, row key (None: computed), left-aligned.
_HEAD = [
    ("game", "code", True),
    ("result", None, True),
    ("max n", "max_n", False),
    ("preperiod", "preperiod", False),
    ("period", "period", False),
    ("largest value", "largest_value", False),
    ("first at", "largest_at", False),
    ("rare mask", "rare_mask", False),
    ("rare heaps", "rare_heaps", False),
    ("last rare", "last_rare", False),
    ("seconds", "seconds", False),
    ("first values", None, True),
]


def sparkline(values: list[int], width: int = 240, height: int = 36) -> str:
    """An inline SVG plot of ``values`` (one dot per heap)."""
    if not values:
        return ""
    top = max(*values, 1)
    step = width / max(len(values), 1)
    # One path of short horizontal strokes: a dot per heap, a few bytes each.
    ticks = "".join(
        f"M{i * step:.1f} {height - 2 - v * (height - 4) / top:.1f}h{max(step, 1):.1f}"
        for i, v in enumerate(values)
    )
    return (
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="values 0..{len(values) - 1}">'
        f'<path d="{ticks}" stroke="#3060a0" stroke-width="1.6" fill="none"/></svg>'
    )


def _cell(row: dict[str, Any], key: str | None, left: bool, heading: str) -> str:
    cls = ' class="l"' if left else ""
    if heading == "result":
        text = status_text(row)
        return f'<td class="l s" data-v="{html.escape(str(row.get("status")))}">{html.escape(text)}</td>'
    if heading == "first values":
        return f'<td class="l" data-v="">{sparkline(list(row.get("first_values") or []))}</td>'
    value = row.get(key) if key else None
    shown = "" if value is None else (f"{value:#x}" if key == "rare_mask" else str(value))
    if key == "rare_mask" and value is not None and row.get("rare_by_position"):
        shown += " +pos"
    sort = "" if value is None else str(value)
    return f'<td{cls} data-v="{html.escape(sort)}">{html.escape(shown)}</td>'


def write_html(rows: list[dict[str, Any]], path: str | os.PathLike[str], title: str) -> Path:
    """Write the static page; returns its path."""
    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba)

    counts = Counter(str(r.get("status")) for r in rows)
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    head = "".join(f"<th{' class=l' if left else ''}>{html.escape(h)}</th>" for h, _, left in _HEAD)
    body = "\n".join(
        f'<tr class="{html.escape(str(r.get("status")))}">'
        + "".join(_cell(r, key, left, h) for h, key, left in _HEAD)
        + "</tr>"
        for r in rows
    )
    page = (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{len(rows)} games: {html.escape(summary)}. "
        "Click a heading to sort. Periods marked proved hold for all n by the theorem "
        "named in atlas.parquet; the others are what the table shows up to max n.</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
    out = Path(path)
    atomic_write(out, lambda f: f.write(page.encode("utf-8")))
    return out


def write_markdown(rows: list[dict[str, Any]], path: str | os.PathLike[str], title: str) -> Path:
    """Write the Markdown summary; returns its path."""
    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba)

    counts = Counter(str(r.get("status")) for r in rows)
    lines = [
        f"# {title}",
        "",
        f"{len(rows)} games: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())),
        "",
    ]
    lines += [
        "| game | result | largest value (first at) | rare mask | rare heaps | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        mask = "" if r.get("rare_mask") is None else f"{r['rare_mask']:#x}"
        rare = "" if r.get("rare_heaps") is None else str(r["rare_heaps"])
        lines.append(
            f"| {r.get('code')} | {status_text(r)} | {r.get('largest_value')} ({r.get('largest_at')}) "
            f"| {mask} | {rare} | {r.get('seconds')} |"
        )
    out = Path(path)
    atomic_write(out, lambda f: f.write(("\n".join(lines) + "\n").encode("utf-8")))
    return out
