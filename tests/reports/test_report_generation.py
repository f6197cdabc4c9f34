"""Reports made from constructed claims and verdicts: index, pages, pictures, determinism."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib.image
import pytest

from nimproof.claims.model import Claim, Source
from nimproof.cli.main import main
from nimproof.reports import write_reports
from nimproof.reports.results import page_names
from nimproof.verdict import Counterexample, MethodResult, Requirement, Scope, Verdict

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _entry(claim: Claim, methods: list[MethodResult], seconds: float = 1.0) -> dict[str, Any]:
    verdict = Verdict.combine(
        claim.id, methods, claim.expect, seconds, claim.require, domain=claim.domain()
    )
    return {"claim": claim.to_json(), "verdict": verdict.to_json()}


def _results(seconds: float = 1.0) -> list[dict[str, Any]]:
    """A small corpus: proved, a typo and its twin, unknown, periodic, mined, and a sourceless
    claim checked below 2^64 (its pinned requirement)."""
    seed003 = Source(
        seed="003_265543a1474a87c2.txt",
        section="Утверждение 4",
        wording="Функция Шпрага-Гранди ... имеет вид: g(m) = m.",
        note="One-heap Nim.",
    )
    seed000 = Source(
        seed="000_1ba4b50d5d65141e.txt",
        section="Модифицированная игра Ним",
        wording="def moves(n) (n+1/2...n).to_a end",
    )
    proved = Claim(
        id="one-heap-nim",
        kind="grundy",
        statement="g(m) = m for one Nim heap.",
        game="nim",
        formula="n",
        source=seed003,
        tags=("one-heap-nim",),
    )
    typo = Claim(
        id="typo.range",
        kind="sequence",
        statement="As printed, the values are 0, 1, 0.",
        game="rule:n + 1//2 <= m < n",
        values=(0, 1, 0),
        offset=1,
        expect="refuted",
        source=seed000,
        tags=("typo",),
    )
    fixed = Claim(
        id="typo.range.corrected",
        kind="sequence",
        statement="Corrected: the values are 0, 1, 0.",
        game="half-heap",
        values=(0, 1, 0),
        offset=1,
        source=seed000,
        tags=("corrects:typo.range",),
    )
    unknown = Claim(
        id="bouton[heaps=2]",
        kind="p_positions",
        statement="P iff the xor is 0.",
        game="nim",
        formula="xor(h) == 0",
        heaps=2,
        source=seed003,
        group="bouton",
        witness="nim",
    )
    periodic = Claim(
        id="kayles.period",
        kind="periodic",
        statement="Kayles has period 12 from 71.",
        game="kayles",
        period=12,
        preperiod=71,
        source=seed000,
    )
    mined = Claim(
        id="mined.knim",
        kind="grundy",
        statement="g(n) = n mod 3.",
        game="knim:2",
        formula="n % 3",
        tags=("mined",),
    )
    other = Claim(
        id="lonely",
        kind="identity",
        require=Requirement("width", 64),
        statement="x xor x = 0.",
        variables=("x",),
        formula="(x ^ x) == 0",
    )
    cx = Counterexample(
        position=2,
        condition="value",
        explanation="At heap 2 the value is 0, not 1.",
        claimed=1,
        actual=0,
        rechecked=True,
        recheck="reference implementation",
    )
    return [
        _entry(
            proved,
            [
                MethodResult(
                    "exhaustive",
                    "proved",
                    Scope("bound", bound=10000),
                    "heaps 0..10000",
                    seconds,
                    stats={"positions": 10001},
                ),
                MethodResult(
                    "z3_int",
                    "proved",
                    Scope("all"),
                    "local conditions for all n",
                    seconds,
                    stats={"time": seconds, "conflicts": 3},
                ),
            ],
            seconds,
        ),
        _entry(
            unknown,
            [MethodResult("z3_bitvec", "unknown", detail="timeout", seconds=seconds)],
            seconds,
        ),
        _entry(
            typo,
            [
                MethodResult(
                    "reference", "refuted", detail="At heap 2", seconds=seconds, counterexample=cx
                )
            ],
            seconds,
        ),
        _entry(
            fixed,
            [
                MethodResult(
                    "reference", "proved", Scope("all", measure="listed"), "3 values", seconds
                )
            ],
            seconds,
        ),
        _entry(
            periodic,
            [MethodResult("periodicity", "proved", Scope("all"), "Guy-Smith", seconds)],
            seconds,
        ),
        _entry(mined, [MethodResult("z3_int", "proved", Scope("all"), "", seconds)], seconds),
        _entry(
            other,
            [
                MethodResult(
                    "z3_bitvec", "proved", Scope("width", width=64, measure="value"), "", seconds
                )
            ],
            seconds,
        ),
    ]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    write_reports(_results(), out)
    return out


def _page(report: Path, claim_id: str) -> str:
    return (report / "claims" / page_names([claim_id])[claim_id]).read_text(encoding="utf-8")


def test_index_lists_every_claim_grouped_by_seed_then_mined_then_others(report: Path) -> None:
    index = (report / "README.md").read_text(encoding="utf-8")
    for r in _results():
        assert f"[{r['claim']['id']}](claims/" in index
    order = [
        index.index(h) for h in ("## Seed 000", "## Seed 003", "## Mined claims", "## Other claims")
    ]
    assert order == sorted(order)
    assert (
        "**Overall:** 7 claims: 4 proved, 1 checked, 1 refuted, 1 unknown; **1 not as expected**."
        in index
    )
    assert "3 claims: 2 proved, 0 checked, 1 refuted, 0 unknown; all as expected." in index
    assert "## Claims checked only on a bounded scope (not proved)" in index
    assert "| [lonely](claims/lonely.md) | each variable < 2^64 |" in index
    assert "| **unknown** (expected proved) |" in index


def test_the_typo_row_is_directly_followed_by_its_corrected_claim(report: Path) -> None:
    lines = (report / "README.md").read_text(encoding="utf-8").splitlines()
    typo = next(i for i, line in enumerate(lines) if line.startswith("| [typo.range](claims/"))
    assert "(typo)" in lines[typo] and "refuted (typo, as expected)" in lines[typo]
    assert lines[typo + 1].startswith("| ↳ [typo.range.corrected](claims/")
    assert "(corrected)" in lines[typo + 1]


def test_a_proved_page_shows_statement_formula_source_verdict_and_method_figures(
    report: Path,
) -> None:
    page = _page(report, "one-heap-nim")
    assert "g(m) = m for one Nim heap." in page
    assert "$$\n" in page and "```python\nn\n```" in page
    assert "Seed text `003_265543a1474a87c2.txt`, section «Утверждение 4»." in page
    assert "> Функция Шпрага-Гранди ... имеет вид: g(m) = m." in page
    assert "**proved** — for all positions (as the file expects)." in page
    assert (
        "| exhaustive | checked | each heap <= 10000 | heaps 0..10000 (positions = 10001) |" in page
    )
    assert "conflicts = 3" in page
    assert "time = " not in page  # time figures live in timings.md only


def test_a_refuted_page_explains_the_counterexample_in_plain_words(report: Path) -> None:
    page = _page(report, "typo.range")
    assert "## Counterexample" in page
    assert "At heap 2 the value is 0, not 1." in page
    assert "- **position:** 2" in page
    assert "- **claimed:** 1" in page and "- **true:** 0" in page
    assert "re-checked by:** reference implementation" in page
    assert "typo and is expected to be refuted" in page
    assert "[typo.range.corrected](typo.range.corrected.md)" in page
    assert "[typo.range](typo.range.md)" in _page(report, "typo.range.corrected")


def test_an_unknown_page_says_so_and_names_the_expectation(report: Path) -> None:
    page = _page(report, "bouton[heaps=2]")
    assert "**unknown** — nothing was established (the file expects **proved**)." in page
    assert "| z3_bitvec | unknown | - | timeout |" in page
    assert "## Counterexample" not in page


def test_pictures_are_valid_pngs_linked_from_their_pages(report: Path) -> None:
    for claim_id in ("one-heap-nim", "kayles.period", "bouton[heaps=2]", "typo.range.corrected"):
        page = _page(report, claim_id)
        name = page_names([claim_id])[claim_id][: -len(".md")] + ".png"
        assert f"](img/{name})" in page
        path = report / "claims" / "img" / name
        assert path.read_bytes()[:8] == PNG_SIGNATURE
        pixels = matplotlib.image.imread(path)
        assert pixels.shape[0] > 200 and pixels.shape[1] > 300
    assert "## Picture" not in _page(report, "lonely")  # an identity has no picture


def test_html_pages_share_one_stylesheet_instead_of_repeating_it(report: Path) -> None:
    from nimproof.reports.html import STYLE

    css = report / "report.css"
    assert css.read_text(encoding="utf-8").strip() == STYLE.strip()
    index = (report / "index.html").read_text(encoding="utf-8")
    assert '<link rel="stylesheet" href="report.css">' in index and "<style>" not in index
    pages = list((report / "claims").glob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert '<link rel="stylesheet" href="../report.css">' in text and "<style>" not in text


def test_a_checked_claim_reads_checked_in_its_own_colour_never_proved(report: Path) -> None:
    index = (report / "index.html").read_text(encoding="utf-8")
    row = next(line for line in index.splitlines() if 'data-id="lonely"' in line)
    assert 'data-status="checked"' in row and '<span class="checked">checked</span>' in row
    assert "proved" not in row
    assert '<span class="checked">1 checked</span>' in index
    assert '<option value="checked">checked</option>' in index
    assert ".checked{" in (report / "report.css").read_text(encoding="utf-8")
    page = _page(report, "lonely")
    assert "**checked** — no counterexample for each variable < 2^64; not a proof for all " in page
    html = (report / "claims" / "lonely.html").read_text(encoding="utf-8")
    assert '<p class="verdict checked">' in html


def test_the_index_links_the_mined_page_only_when_it_is_there(tmp_path: Path) -> None:
    link = '<a href="mined.html">'
    write_reports(_results(), tmp_path)
    assert link not in (tmp_path / "index.html").read_text(encoding="utf-8")
    (tmp_path / "mined.html").write_text("<!DOCTYPE html><title>mined</title>", encoding="utf-8")
    write_reports(_results(), tmp_path)
    assert link in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_reports_are_identical_across_runs_except_the_timings_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    write_reports(_results(seconds=1.25), a)
    write_reports(_results(seconds=7.5), b)
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    differing = [p for p in files_a if (a / p).read_bytes() != (b / p).read_bytes()]
    assert differing == [Path("timings.js"), Path("timings.md")]
    # docs/reports.md names exactly these (and results.json) as the files that change.
    guide = Path(__file__).resolve().parents[2] / "docs" / "reports.md"
    sentence = next(
        line for line in guide.read_text(encoding="utf-8").splitlines() if "run to run" in line
    )
    for name in ("reports/results.json", "reports/timings.md", "reports/timings.js"):
        assert name in sentence
    assert "7.50" in (b / "timings.md").read_text(encoding="utf-8")


def test_pages_of_claims_no_longer_in_the_results_are_removed(tmp_path: Path) -> None:
    results = _results()
    write_reports(results, tmp_path)
    written = write_reports(results[:2], tmp_path, timings=False)
    pages = sorted(p.name for p in (tmp_path / "claims").glob("*.md"))
    assert pages == sorted(page_names([r["claim"]["id"] for r in results[:2]]).values())
    assert not (tmp_path / "timings.md").exists()
    assert all(p.exists() for p in written)


def test_page_names_are_file_name_safe_and_distinct() -> None:
    names = page_names(["a[b=1]", "a_b_1", "A_B_1", "x/../y"])
    assert len(set(names.values())) == 4
    assert all(n.endswith(".md") and "/" not in n and "[" not in n for n in names.values())


def test_report_command_writes_the_reports_from_a_results_file(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"results": _results()}, ensure_ascii=False), encoding="utf-8")
    assert main(["report", "--json", str(results), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "README.md").is_file()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        ("{not json", "is not valid JSON"),
        ('{"results": 3}', "must be an object with a list 'results'"),
        (
            '{"results": [{"claim": {"id": "x"}, "verdict": {"status": "maybe"}}]}',
            "has no verdict status",
        ),
        (
            '{"results": [{"claim": {}, "verdict": {"status": "proved"}}]}',
            "has no claim with an id",
        ),
    ],
)
def test_a_missing_or_malformed_results_file_is_a_one_line_error_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["report", "--json", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
