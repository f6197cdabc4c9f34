"""The four statuses: ``proved`` only for the claim's whole domain, ``checked`` for less.

Units of :mod:`nimproof.verdict` (``Domain``, ``Verdict.combine``, the
required scope) and of :meth:`nimproof.claims.Claim.domain`, plus the
settling step that makes a move-based refutation name the wrong position.
"""

from __future__ import annotations

import pytest

from nimproof.engines import grundy_table
from nimproof.engines.heap import misere_split_limit, plan_heap
from nimproof.errors import UsageError
from nimproof.games import parse_spec
from nimproof.provers import prepare, verify_claim
from nimproof.provers.settle import name_wrong_position, settle
from nimproof.verdict import (
    ALL_POSITIONS,
    Counterexample,
    Domain,
    MethodResult,
    Requirement,
    Scope,
    Verdict,
)
from tests.conftest import claim

BOUNDED = MethodResult("exhaustive", "proved", Scope("bound", bound=7, heaps=3), "512 positions")
WIDE = MethodResult("z3_bitvec", "proved", Scope("width", width=16, heaps=3))
ALL = MethodResult("automata", "proved", Scope("all", heaps=3))
LISTED = MethodResult("reference", "proved", Scope("all", measure="listed"))
GAVE_UP = MethodResult("automata", "unknown", detail="not expressible in WS1S")


def test_a_bounded_proof_of_a_claim_about_every_position_is_checked_not_proved() -> None:
    v = Verdict.combine("c", [GAVE_UP, BOUNDED])
    assert v.status == "checked" and v.scope == BOUNDED.scope
    assert [m.status for m in v.methods] == ["unknown", "checked"]
    assert v.methods_used() == ["exhaustive"]
    assert "proved" not in v.reached()


def test_the_widest_checked_region_is_the_verdicts_scope() -> None:
    v = Verdict.combine("c", [BOUNDED, WIDE])
    assert v.status == "checked" and v.scope == WIDE.scope


def test_a_proof_for_all_positions_is_proved_and_the_bounded_rows_read_checked() -> None:
    v = Verdict.combine("c", [ALL, BOUNDED])
    assert v.status == "proved" and v.scope.kind == "all"
    assert [m.status for m in v.methods] == ["proved", "checked"]
    assert v.to_json()["methods"][1]["status"] == "checked"


def test_a_refutation_or_an_unconfirmed_candidate_outweighs_every_region() -> None:
    cx = Counterexample(3, "value", "wrong at 3", 1, 0, None, True, "reference")
    refuting = MethodResult("hypothesis", "refuted", counterexample=cx)
    assert Verdict.combine("c", [BOUNDED, refuting]).status == "refuted"
    candidate = MethodResult("z3_bitvec", "unknown", counterexample=Counterexample(3, "value", ""))
    assert Verdict.combine("c", [BOUNDED, candidate]).status == "unknown"


@pytest.mark.parametrize(
    ("domain", "scope", "covered"),
    [
        (ALL_POSITIONS, Scope("all"), True),
        (ALL_POSITIONS, Scope("width", width=512), False),
        (ALL_POSITIONS, Scope("all", measure="listed"), True),
        (Domain("listed", size=3), Scope("all", measure="listed"), True),
        (Domain("listed", size=3), Scope("bound", bound=10**6), False),
        (Domain("bound", bound=40), Scope("bound", bound=40), True),
        (Domain("bound", bound=40), Scope("bound", bound=39), False),
        (Domain("bound", bound=40), Scope("width", width=6), True),
        (Domain("bound", bound=40), Scope("bound", bound=40, measure="size"), False),
    ],
)
def test_a_domain_is_covered_only_by_a_scope_that_contains_it(
    domain: Domain, scope: Scope, covered: bool
) -> None:
    assert domain.covered_by(scope) is covered


def test_each_claim_kind_states_its_domain_in_one_place() -> None:
    assert claim("grundy", "knim:3", "n % 4", {}).domain() == ALL_POSITIONS
    assert claim("p_positions", "nim", "xor(h) == 0", {}, heaps=3).domain() == ALL_POSITIONS
    value = claim("value", "nim", None, {}, positions=((1, 2), (3,)), values=(3, 3))
    assert value.domain() == Domain("listed", size=2)
    sequence = claim("sequence", "kayles", None, {}, values=(1, 2, 3), offset=1)
    assert sequence.domain() == Domain("bound", bound=3)


def test_without_a_pinned_requirement_only_proved_meets_the_claims_domain() -> None:
    checked = Verdict.combine("c", [BOUNDED])
    assert not checked.scope_met and not checked.meets_expectation
    assert checked.shortfall().startswith("requires all positions, reached checked for")
    assert Verdict.combine("c", [ALL]).meets_expectation
    assert not Verdict.combine("c", [GAVE_UP]).scope_met


def test_a_pinned_bounded_requirement_is_met_by_a_checked_verdict_that_reaches_it() -> None:
    enough = Verdict.combine("c", [BOUNDED], require=Requirement("bound", 7))
    assert enough.status == "checked" and enough.scope_met and enough.meets_expectation
    short = Verdict.combine("c", [BOUNDED], require=Requirement("bound", 8))
    assert not short.scope_met and "requires bound 8" in short.shortfall()
    assert not Verdict.combine("c", [BOUNDED], require=Requirement("all")).scope_met


def test_a_claim_expected_refuted_meets_its_expectation_only_when_refuted() -> None:
    assert not Verdict.combine("c", [BOUNDED], expect="refuted").meets_expectation


def test_a_value_claim_is_proved_by_its_listed_positions() -> None:
    c = claim("value", "nim", None, {}, positions=((1, 2), (3, 3)), values=(3, 0))
    v = verify_claim(c, timeout=60)
    assert v.status == "proved" and v.scope_met, v


def test_a_move_based_refutation_is_moved_to_the_position_where_the_claim_is_wrong() -> None:
    """The known case: the claim is wrong only at heap 50; a condition-1 finding at the move
    52 -> 50 (both claimed 26, and 26 is right at 52) must be reported at 50."""
    c = claim("grundy", "half-heap", "(n >> (trailing_ones(n) + 1)) if n != 50 else 26", {})
    ctx = prepare(c)
    found = Counterexample(
        52, "condition-1", "The move 52 -> 50 joins two heaps the claim values 26.", 26, 26, 50,
        True, "exact evaluation and the move rule",
    )  # fmt: skip
    named = name_wrong_position(ctx, found)
    assert named.position == 50 and named.condition == "value"
    assert (named.claimed, named.actual) == (26, 25) and named.rechecked
    assert "Found because the move 52 -> 50" in named.explanation
    result = settle(ctx, MethodResult("z3_bitvec", "refuted", counterexample=found))
    assert result.counterexample is not None and result.counterexample.position == 50


def test_a_refutation_already_at_a_wrong_position_is_kept() -> None:
    c = claim("grundy", "knim:3", "n % 5", {})
    found = Counterexample(4, "value", "At heap 4 ...", 4, 0, None, True, "reference")
    assert name_wrong_position(prepare(c), found) is found


def test_the_misere_take_and_break_limit_is_stated_as_the_engine_has_it() -> None:
    c = claim("grundy", "misere:kayles", "n % 3", {"exhaustive": {"max_n": 1000}})
    v = verify_claim(c, timeout=60, only_named=True)
    (row,) = v.methods
    game = parse_spec("misere:kayles")
    limit = misere_split_limit(game.normal)
    assert f"up to n = {limit} " in row.detail, row
    assert plan_heap(game).limit == limit
    with pytest.raises(UsageError, match="beyond its practical limit"):
        grundy_table(game, limit + 1)
