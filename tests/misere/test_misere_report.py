"""A claim page shows the misère quotient its method used; the methods table does not repeat it."""

from __future__ import annotations

from nimproof.misere.quotient import misere_quotient
from nimproof.provers.misere_quotient import quotient_summary
from nimproof.reports.pages import _quotient_section
from nimproof.reports.text import stats_text


def test_quotient_section_and_stats() -> None:
    summary = quotient_summary(misere_quotient("octal:0.75"))
    verdict = {"methods": [{"method": "misere_quotient", "stats": {"quotient": summary}}]}
    text = "\n".join(_quotient_section(verdict))
    assert "## Misère quotient" in text and "Order 8; P-portion {a, b²}." in text
    assert "from heap 8 repeating b ab² (proved for every heap by the periodicity theorem)" in text
    assert stats_text({"quotient": summary, "positions": 3}) == "positions = 3"
    assert _quotient_section({"methods": [{"stats": {}}]}) == []
