"""The mining report: residue tables, alternatives, and why a family got no rule (Markdown, HTML, CLI)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from nimproof.cli.main import main
from nimproof.games import parse_spec
from nimproof.miner.guessers import GUESSERS
from nimproof.miner.model import HeapTable, PTable
from nimproof.miner.pipeline import Request, mine
from nimproof.miner.report import mined_markdown
from nimproof.miner.report_html import mined_html
from nimproof.miner.run import RunResult, run
from nimproof.miner.writer import QUICK


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    requests = [Request("take-fraction:1/3", max_n=150), Request("grundys-game", max_n=120)]
    folder = tmp_path_factory.mktemp("mined")
    return run(requests, write_dir=folder, verify=True, timeout=30, bounds=QUICK)


def test_every_guesser_that_looked_says_why_it_found_nothing() -> None:
    family = mine(Request("grundys-game", max_n=120))
    assert family.guesses == ()
    named = {reason.split(":")[0] for reason in family.reasons}
    assert named == {"periodic", "regular", "parity", "recurrence", "shift", "fallback"}
    periodic = next(r for r in family.reasons if r.startswith("periodic:"))
    assert "period" in periodic and "heaps 0..90" in periodic  # 121 values, 30 held out


def test_a_period_broken_in_the_held_out_part_is_named_with_its_heap() -> None:
    periodic = next(g for g in GUESSERS if g.name == "periodic")
    values = np.tile(np.arange(3, dtype=np.int64), 40)
    values[100] = 7  # held out: the table has 120 values, 90 are fitted
    table = HeapTable(spec="nim", game=parse_spec("nim"), values=values)
    assert periodic.guess_point(table) == []
    assert periodic.why_not(table) == "period 3 (preperiod 0) on heaps 0..89, broken at heap 100"


def test_guessers_that_do_not_read_a_kind_of_table_are_not_listed() -> None:
    box = PTable(spec="nim", game=parse_spec("nim"), heaps=2, max_heap=3, p=np.eye(4, dtype=bool))
    heap = HeapTable(spec="nim", game=parse_spec("nim"), values=np.arange(40, dtype=np.int64))
    by_name = {g.name: g for g in GUESSERS}
    assert by_name["periodic"].why_not(box) is None
    assert by_name["multiheap"].why_not(heap) is None
    assert "library rules for 2 heaps" in (by_name["multiheap"].why_not(box) or "")
    assert by_name["param_fit"].why_not(heap) is None


def test_markdown_report_has_residue_tables_and_reasons(result: RunResult) -> None:
    text = mined_markdown(result)
    assert "| n mod 3 | 0 | 1 | 2 |" in text
    assert "`g(2m)`" in text and "`g(2m + 1)`" in text
    assert "No closed form found up to n = 120" in text
    assert "- periodic: " in text and "- shift: " in text
    assert "1 with no rule found" in text


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [v or "" for k, v in attrs if k == "href"]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_report_has_the_same_sections(result: RunResult) -> None:
    page = _Collect()
    page.feed(mined_html(result))
    text = " ".join(page.text)
    assert page.tags.count("section") == 2
    assert "g(2m + 1)" in text and "n mod 3" in text
    assert "No closed form found up to n = 120" in text and "shift:" in text
    claim_links = [link for link in page.links if link.startswith("claims/")]
    assert claim_links and all(link.endswith(".html") for link in claim_links)
    assert "<script" not in mined_html(result)


def test_cli_prints_the_reasons_and_residue_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mine", "grundys-game", "--max-n", "100", "--no-verify"]) == 0
    out = capsys.readouterr().out
    assert "no closed form found up to n = 100" in out
    assert "why: periodic:" in out and "why: shift:" in out
    assert main(["mine", "take-fraction:1/3", "--max-n", "150", "--no-verify"]) == 0
    out = capsys.readouterr().out
    assert "by residue:" in out and "g(2m + 1)" in out


def test_write_reports_puts_the_html_beside_the_markdown(result: RunResult, tmp_path: Path) -> None:
    from nimproof.cli.mine import _write_reports

    _write_reports(str(tmp_path / "out" / "mined.md"), result)
    assert (tmp_path / "out" / "mined.md").read_text(encoding="utf-8").startswith("# Mined")
    assert "<!DOCTYPE html>" in (tmp_path / "out" / "mined.html").read_text(encoding="utf-8")
