"""Claims of the kind ``misere_quotient`` (issue 20): a quotient's order, decided by the
misère-quotient method and cross-checked by brute-force misère outcomes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from nimproof.claims import Claim, load_file, parse_document
from nimproof.errors import ClaimError
from nimproof.provers import verify_claim
from nimproof.reports.pages import KIND_WORDS, formula_label, kind_facts

FILE = Path(__file__).resolve().parents[2] / "conjectures/theory/misere_quotient_orders.toml"


def _quotient_claim(**fields: object) -> Claim:
    base = Claim(id="q", kind="misere_quotient", statement="q", game="misere:octal:0.75", order=8)
    return replace(base, **fields)  # type: ignore[arg-type]


def test_the_order_of_0_75_is_proved_for_every_heap() -> None:
    v = verify_claim(_quotient_claim(p_portion=2, period=2, preperiod=8), timeout=120)
    assert v.status == "proved" and v.scope.kind == "all"
    (row,) = [r for r in v.methods if r.method == "misere_quotient"]
    assert "periodicity theorem" in row.detail and "brute-force outcomes agree" in row.detail


@pytest.mark.parametrize(
    ("fields", "claimed", "actual"),
    [
        ({"order": 9}, 9, 8),
        ({"p_portion": 1}, 1, 2),
        ({"period": 4, "preperiod": 3}, (4, 3), (2, 8)),
        ({"period": 2, "preperiod": 7}, (2, 7), (2, 8)),
    ],
)
def test_a_wrong_figure_is_refuted_with_the_true_one(
    fields: dict[str, int], claimed: object, actual: object
) -> None:
    v = verify_claim(_quotient_claim(**fields), timeout=120)
    assert v.status == "refuted"
    cx = v.counterexample
    assert cx is not None and cx.rechecked and cx.condition == "quotient"
    assert (cx.claimed, cx.actual) == (claimed, actual)
    assert "brute-force" in cx.recheck


def test_a_multiple_of_the_least_period_from_a_later_heap_is_a_period() -> None:
    v = verify_claim(_quotient_claim(period=6, preperiod=11), timeout=120)
    assert v.status == "proved"


def _kayles(order: int, max_heap: int) -> Claim:
    """A quotient-order claim of misère Kayles, its quotient computed to ``max_heap`` only."""
    return Claim(
        id="k",
        kind="misere_quotient",
        statement="k",
        game="misere:kayles",
        order=order,
        checks={"misere_quotient": {"max_heap": max_heap}},
    )


@pytest.mark.parametrize(("max_heap", "order"), [(40, 40), (20, 24)])
def test_a_partial_quotient_checks_a_matching_order_up_to_its_bound(
    max_heap: int, order: int
) -> None:
    # Kayles' heap map is periodic only from heap 71: below it the quotient is partial
    # (order 24 at heaps <= 20, 40 from heap 27 on).
    v = verify_claim(_kayles(order, max_heap), timeout=120, only_named=True)
    assert v.status == "checked" and v.scope.kind == "bound" and v.scope.bound == max_heap


def test_a_partial_quotient_of_another_order_refutes_nothing() -> None:
    # At heaps <= 20 the partial quotient has order 24; the whole one has 40.
    v = verify_claim(_kayles(40, 20), timeout=120, only_named=True)
    (row,) = v.methods
    assert v.status == "unknown" and "heaps <= 20 only" in row.detail


def test_the_corpus_file_verifies_as_expected() -> None:
    claims = {c.id: c for c in load_file(FILE)}
    for c in claims.values():
        v = verify_claim(c, timeout=300)
        assert v.status == c.expect, (c.id, v)
        assert c.domain().kind == "all"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"formula": "n"}, "unknown key(s) ['formula'] for a misere_quotient claim"),
        ({"order": None}, "a misere_quotient claim needs 'order'"),
        ({"order": 0}, "'order' must be a whole number >= 1"),
    ],
)
def test_bad_quotient_claims_are_refused_in_one_line(
    extra: dict[str, object], message: str
) -> None:
    table: dict[str, object] = {
        "id": "q",
        "statement": "q",
        "kind": "misere_quotient",
        "game": "kayles",
        "order": 40,
    }
    table.update(extra)
    table = {k: v for k, v in table.items() if v is not None}
    with pytest.raises(ClaimError) as err:
        list(parse_document({"claim": [table]}))
    assert message in str(err.value) and "\n" not in str(err.value)


def test_reports_use_the_kinds_wording() -> None:
    c = load_file(FILE)[0].to_json()
    assert KIND_WORDS["misere_quotient"] == "order of a misère quotient"
    assert formula_label(c) == "Quotient:"
    facts = dict(kind_facts(c))
    assert facts["quotient order"] == "8"
    assert facts["P-portion size"] == "2"
    assert facts["heap-map period"] == "2 from heap 8"
