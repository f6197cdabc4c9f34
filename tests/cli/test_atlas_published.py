"""The atlas against tczajka/octal-games' table of solved games (tests/data/solved_octal_games.csv).

Where the published period fits in 2^16 heaps, the atlas row proves it with the
published preperiod and period, largest value and rare figures; where it does
not (0.16, 0.56, 0.127, 0.376, 0.354: periods found past 10^5 heaps), the row does
not call the game proved at 2^16, and its rare figures agree where the last rare
heap lies below 2^16.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nimproof.atlas import analyse

DATA = Path(__file__).resolve().parents[1] / "data" / "solved_octal_games.csv"
BOUND = 1 << 16


def _published() -> list[dict[str, str]]:
    with open(DATA, encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


@pytest.mark.parametrize("pub", _published(), ids=lambda p: p["code"])
def test_atlas_row_agrees_with_the_published_table(pub: dict[str, str]) -> None:
    row = analyse(f"octal:{pub['code']}", BOUND)
    prefix, period = int(pub["prefix"]), int(pub["period"])
    if prefix + 2 * period < BOUND // 2:
        assert row["status"] == "proved", row
        assert (row["preperiod"], row["period"]) == (prefix, period)
        assert (row["largest_value"], row["largest_at"]) == (
            int(pub["largest"]),
            int(pub["largest_at"]),
        )
    else:
        assert row["status"] != "proved", row
    if pub["rare_mask"] and int(pub["last_rare"]) < BOUND:
        mask = f"{row['rare_mask']:x}" + ("+pos" if row["rare_by_position"] else "")
        assert mask == pub["rare_mask"]
        # The published count includes heap 0 (value 0, rare under every mask without +pos).
        assert row["rare_heaps"] + (0 if row["rare_by_position"] else 1) == int(pub["num_rare"])
        assert row["last_rare"] == int(pub["last_rare"])
