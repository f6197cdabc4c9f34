"""Value counts per doubling against the counts Rogalski's solver published.

``tests/data/published_value_counts.csv`` holds the published counts (source in
its header) of 0.014, 0.034, 0.161, 0.167 and 0.172 at every power of two up to
the depth the solver reached (2^36 to 2^40). Here the campaign's rows are
compared with them at small depth; ``python -m bench.published`` compares the
long tables (2^28, 2^32: docs/frontier.md).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from nimproof.atlas.campaign import campaign_game, parse_counts, value_counts
from nimproof.engines import reference
from nimproof.games import parse_spec

DATA = Path(__file__).resolve().parents[1] / "data" / "published_value_counts.csv"
CODES = ("0.014", "0.034", "0.161", "0.167", "0.172")


def _published() -> dict[tuple[str, int], dict[int, int]]:
    out = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("code,"):
            continue
        code, heaps, counts = line.split(",")
        out[(code, int(heaps))] = parse_counts(counts)
    return out


def test_the_data_file_is_whole_and_names_its_source() -> None:
    head = DATA.read_text(encoding="utf-8").splitlines()[:3]
    assert "rogalski-wmii-uni-lodz-pl/octal" in " ".join(head)
    pub = _published()
    deepest = {c: max(h for (code, h) in pub if code == c) for c in CODES}
    assert deepest == {
        "0.014": 1 << 36,
        "0.034": 1 << 37,
        "0.161": 1 << 38,
        "0.167": 1 << 40,
        "0.172": 1 << 36,
    }
    for (code, heaps), counts in pub.items():
        assert sum(counts.values()) == heaps, (code, heaps)  # heaps 1..N
        assert (code, heaps // 2) in pub or heaps == 2  # every power of two from 2


def test_value_counts_are_those_of_the_plain_reference() -> None:
    # The published convention (heaps 1..N) checked on the plain implementation.
    pub = _published()
    for code in CODES:
        table = reference.heap_table(parse_spec(f"octal:{code}"), 257)
        for heaps in (16, 64, 256):
            counts = Counter(int(v) for v in table[1 : heaps + 1])
            assert counts == pub[(code, heaps)], (code, heaps)


@pytest.mark.parametrize("code", CODES)
def test_campaign_rows_agree_with_the_published_counts(code: str) -> None:
    pub = _published()
    rows = campaign_game(f"octal:{code}", 15, start=10, period=False)
    assert [r["log2_n"] for r in rows] == list(range(10, 16))
    for r in rows:
        assert parse_counts(r["value_counts"]) == pub[(code, r["n"])], (code, r["n"])
        assert r["largest"] == max(pub[(code, r["n"])])
        assert r["period"] is None and not r["proved"]  # the search was left out


def test_value_counts_leave_out_heap_0() -> None:
    import numpy as np

    hist = np.array([[3, 0, 2], [0, 4, 0]])  # heaps 0, 2, 4 have 0, 0, 2; odd heaps 1
    assert value_counts(hist) == "0:2 1:4 2:2"
    assert parse_counts("0:2 1:4 2:2") == {0: 2, 1: 4, 2: 2}


def test_the_long_run_command_compares_each_doubling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import published

    folder = tmp_path / "t"
    assert (
        published.main(
            ["--code", "0.167", "--depth", "13", "--start", "11", "--folder", str(folder)]
        )
        == 0
    )
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("2^")]
    assert [x.split(" | ")[0] for x in lines] == ["2^11", "2^12", "2^13"]
    assert all(x.endswith("| agree") for x in lines)
    assert published.compare({1: 2}, {1: 3}) == "differ at value 1: 2 against 3"
    assert published.compare({1: 2}, None) == "not published"
