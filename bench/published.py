"""Long tables against published value counts, doubling by doubling.

``python -m bench.published --code 0.167 --depth 32 --folder DIR [--start 16] [--seconds S]``
grows the game's table in a memory-mapped file in ``DIR`` (checkpointed; a
run started again goes on from its last finished stretch and keeps its
finished doublings), records after every doubling the campaign's figures
(largest value and its first heap, rare mask, rare heaps counting heap 0,
last rare heap) and the value counts of heaps ``1..2^k``, and compares the
counts with the ones Rogalski's solver published
(``tests/data/published_value_counts.csv``, with its source). The period
search is left out (:func:`nimproof.atlas.campaign.campaign_game` with
``period=False``): it would hold 2 bytes a heap in memory. Prints one
Markdown table; exit code 1 when a published count differs.

Not part of ``make bench``: 2^28 heaps take about a minute, 2^32 about ten
on an idle machine. A test runs the comparison at small depth
(``tests/cli/test_published_counts.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from nimproof.atlas.campaign import campaign_game, parse_counts

#: The published value counts (see the file's header for the source).
PUBLISHED = Path(__file__).resolve().parents[1] / "tests" / "data" / "published_value_counts.csv"


def published_counts(path: Path = PUBLISHED) -> dict[tuple[str, int], dict[int, int]]:
    """``(code, heaps) -> {value: count}`` from the data file."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("code,"):
                continue
            code, heaps, counts = line.rstrip("\n").split(",")
            out[(code, int(heaps))] = parse_counts(counts)
    return out


def compare(ours: dict[int, int], theirs: dict[int, int] | None) -> str:
    """``agree``, ``not published``, or the first value whose count differs."""
    if theirs is None:
        return "not published"
    if ours == theirs:
        return "agree"
    v = min(k for k in set(ours) | set(theirs) if ours.get(k, 0) != theirs.get(k, 0))
    return f"differ at value {v}: {ours.get(v, 0)} against {theirs.get(v, 0)}"


def main(argv: list[str] | None = None) -> int:
    """Run one game to ``2^depth`` and print its doublings against the published counts."""
    p = argparse.ArgumentParser(prog="python -m bench.published", description=__doc__)
    p.add_argument("--code", required=True, help="octal code, e.g. 0.167")
    p.add_argument("--depth", type=int, required=True, help="log2 of the last table")
    p.add_argument("--start", type=int, default=16, help="first doubling recorded (log2)")
    p.add_argument("--folder", required=True, help="where the value file and its state live")
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="start no doubling after this many seconds (the last one may take as long "
        "as all before it); a run started again goes on from its checkpoint",
    )
    args = p.parse_args(argv)
    code = args.code.removeprefix("octal:")
    spec = f"octal:{code}"
    rows = campaign_game(spec, args.depth, args.start, args.seconds, args.folder, period=False)
    pub = published_counts()
    load = os.getloadavg()
    print(f"octal:{code}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    print()
    print("heaps | seconds | largest | first at | rare mask | rare heaps | last rare | counts")
    print("---: | ---: | ---: | ---: | ---: | ---: | ---: | :---")
    bad = 0
    for r in rows:
        verdict = compare(parse_counts(r["value_counts"]), pub.get((code, r["n"])))
        bad += verdict.startswith("differ")
        mask = r["rare_mask"] + ("+pos" if r["rare_by_position"] else "")
        print(
            f"2^{r['log2_n']} | {r['seconds']:.1f} | {r['largest']} | {r['largest_at']:,} | "
            f"{mask} | {r['num_rare']} | {r['last_rare']:,} | {verdict}"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
