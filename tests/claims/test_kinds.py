"""The claim-kind registry (nimproof/claims/kinds.py): one class per kind, its fields,
domain, checks and wording, and the one check-selection policy for checks chosen in code."""

from __future__ import annotations

from pathlib import Path

import pytest

from nimproof.claims import KINDS, Claim, parse_document
from nimproof.claims.kinds import NAMES, REGISTRY, UNKNOWN, Budget, Shape, kind_named, spec_of
from nimproof.errors import ClaimError
from nimproof.methods import ORDER


def test_the_registry_holds_one_frozen_instance_per_kind_in_the_schema_order() -> None:
    assert NAMES == KINDS
    assert len({type(k) for k in REGISTRY.values()}) == len(REGISTRY)
    for name, spec in REGISTRY.items():
        assert spec.name == name and spec.title
        with pytest.raises(AttributeError):
            spec.name = "other"  # type: ignore[misc]
        assert set(spec.default_checks) <= set(ORDER), name


def test_unknown_tags_are_refused_at_load_and_read_as_unknown_elsewhere() -> None:
    with pytest.raises(ClaimError, match="unknown kind 'theorem'"):
        kind_named("theorem", "file.toml: claim 'x'")
    assert spec_of("theorem") is UNKNOWN and spec_of(None) is UNKNOWN
    assert not (UNKNOWN.about_positions or UNKNOWN.listed or UNKNOWN.states_period)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"kind": "grundy", "game": "nim"}, "a grundy claim needs 'formula'"),
        ({"kind": "sum_rule", "components": ["nim", "nim"], "period": 2}, "unknown key(s)"),
        ({"kind": "periodic", "game": "nim", "period": 1}, "a periodic claim needs 'preperiod'"),
        ({"kind": "value", "game": "nim", "values": [1]}, "a value claim needs 'positions'"),
    ],
)
def test_each_kind_declares_its_required_and_forbidden_fields(
    table: dict[str, object], message: str
) -> None:
    with pytest.raises(ClaimError) as err:
        list(parse_document({"claim": [{"id": "x", "statement": "x", **table}]}))
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_domain_is_the_kinds() -> None:
    listed = Claim(id="v", kind="value", statement="", game="nim", positions=(1, 2), values=(1, 2))
    run = Claim(id="s", kind="sequence", statement="", game="nim", values=(0, 1, 2), offset=3)
    rule = Claim(id="g", kind="grundy", statement="", game="nim", formula="n")
    assert (listed.domain().kind, listed.domain().size) == ("listed", 2)
    assert (run.domain().kind, run.domain().bound) == ("bound", 5)
    assert rule.domain().kind == "all"


def test_named_checks_replace_the_defaults_but_worked_examples_are_always_computed() -> None:
    assert kind_named("grundy").checks({}) == {"exhaustive": {}}
    assert kind_named("grundy").checks({"z3_int": {}}) == {"z3_int": {}}
    assert kind_named("value").checks({"exhaustive": {}}) == {"exhaustive": {}, "reference": {}}


def test_one_heap_policy_picks_z3_by_the_formulas_form() -> None:
    grundy = kind_named("grundy")
    plain = grundy.bounded_checks(Shape(), Budget(max_n=50))
    bitwise = grundy.bounded_checks(Shape(bitwise=True), Budget(max_n=50, default_width=24))
    opaque = grundy.bounded_checks(Shape(symbolic=False), Budget(max_n=50))
    recursive = grundy.bounded_checks(Shape(recursive=True), Budget(max_n=50, recursion_n=9))
    assert plain == {"exhaustive": {"max_n": 50}, "z3_int": {}}
    assert bitwise == {"exhaustive": {"max_n": 50}, "z3_bitvec": {"width": 24}}
    assert opaque == {"exhaustive": {"max_n": 50}}
    assert recursive == {"exhaustive": {"max_n": 9}}


def test_multi_heap_policy_bounds_the_box_by_what_moves_keep_closed() -> None:
    rule = kind_named("p_positions")
    budget = Budget(max_heap=7, max_size=5, max_total=12)
    assert rule.bounded_checks(Shape(one_heap=False), budget) == {"exhaustive": {"max_heap": 7}}
    stairs = Shape(one_heap=False, lowers_heaps=False)
    assert rule.bounded_checks(stairs, budget) == {"exhaustive": {"max_total": 12}}
    plugin = Shape(one_heap=False, plugin=True)
    assert rule.bounded_checks(plugin, budget) == {"exhaustive": {"max_size": 5}}
    built_in = Budget(max_heap=7, multi_bitvec="built-in", hunt=True, timeout=9)
    assert list(rule.bounded_checks(Shape(one_heap=False), built_in)) == [
        "exhaustive",
        "z3_bitvec",
        "hunt",
    ]
    assert "z3_bitvec" not in rule.bounded_checks(plugin, built_in)
    witnessed = Shape(one_heap=False, witness=True)
    assert rule.bounded_checks(witnessed, Budget(default_width=32))["z3_bitvec"] == {"width": 32}


def test_the_claim_kinds_page_lists_every_kind_as_the_registry_declares_it() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "claim-kinds.md").read_text()
    rows = {
        cells[0].strip("`"): cells
        for line in page.splitlines()
        if line.startswith("| `")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    assert set(rows) == set(REGISTRY)

    def names(cell: str) -> list[str]:
        return [x.strip().strip("`") for x in cell.split(",") if x.strip()]

    for name, spec in REGISTRY.items():
        _kind, title, required, optional, checks = rows[name]
        assert title == spec.title
        assert names(required) == list(spec.required)
        assert names(optional) == list(spec.optional)
        assert names(checks) == list(spec.default_checks)
