"""The four-digit atlas against published periods (tests/data/published_octal_periods.csv).

The data file holds, with its sources, every code 0.d..0.ddd as tczajka/octal-games
classes it (through its lookup table: trivial, solved or unsolved, with the period)
and the four-digit codes the OEIS names. A sample of codes is analysed at the
atlas's bound and each row must agree with its published row or be out of the
table's reach (docs/frontier.md gives the whole sweep's comparison).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nimproof.atlas import analyse
from nimproof.atlas.families import octal_codes
from nimproof.atlas.published import AGREE, DIFFERS, OUT_OF_REACH, compare, read_published

DATA = Path(__file__).resolve().parents[1] / "data" / "published_octal_periods.csv"
BOUND = 1 << 16
SAMPLE = [
    "octal:0.4",  # trivial, listed itself: period 34 from 54
    "octal:0.07",  # Dawson's Kayles: equivalent to 0.4
    "octal:0.137",  # trivial through the lookup table
    "octal:0.156",  # solved: period 349 from 3479
    "octal:0.16",  # solved, period 149,459: out of reach
    "octal:0.6",  # unsolved
    "octal:0.164",  # unsolved
    "octal:0.1377",  # OEIS A071434: period 24
    "octal:0.0177",  # OEIS A071452: period 32
    "octal:0.1271",  # OEIS A071464: period 4 from 46,578, out of reach at 2^16
    "octal:0.4541",  # OEIS A071509: period 60,620,715, out of reach
]


def test_every_code_of_three_digits_is_classed_once() -> None:
    pub = read_published(DATA)
    three = set(octal_codes("0", 3))
    assert three <= set(pub) and len(three) == 511
    classes = [pub[c]["status"] for c in three]
    assert (classes.count("trivial"), classes.count("solved"), classes.count("unsolved")) == (
        282,
        36,
        193,
    )
    assert set(pub) <= set(octal_codes("0", 4))  # every row is a code of the atlas


@pytest.mark.parametrize("spec", SAMPLE)
def test_atlas_rows_agree_with_the_published_periods(spec: str) -> None:
    pub = read_published(DATA)
    row = analyse(spec, BOUND)
    verdict, why = compare(row, pub[spec], BOUND, pub)
    assert verdict in (AGREE, OUT_OF_REACH), (spec, why)
    if spec in ("octal:0.16", "octal:0.1271", "octal:0.4541"):
        assert verdict == OUT_OF_REACH, why
    else:
        assert verdict == AGREE, why


def test_a_wrong_row_differs() -> None:
    pub = read_published(DATA)
    row = analyse("octal:0.4", BOUND)
    assert compare(row, pub["octal:0.4"], BOUND, pub)[0] == AGREE
    wrong = dict(row, period=17)
    assert compare(wrong, pub["octal:0.4"], BOUND, pub)[0] == DIFFERS
    late = dict(row, preperiod=55)
    assert compare(late, pub["octal:0.4"], BOUND, pub)[0] == DIFFERS
    none = dict(row, status="unsolved", period=None, preperiod=None)
    assert compare(none, pub["octal:0.4"], BOUND, pub)[0] == DIFFERS
    proved_open = dict(row, status="proved")
    assert compare(proved_open, pub["octal:0.6"], BOUND, pub)[0] == DIFFERS
