"""The loopy method (Northcott's game): exact outcomes on small boards, the strategy proof for all."""

from __future__ import annotations

import pytest

from nimproof.provers import method_plan, prepare, run_method, verify_claim
from nimproof.provers.mona import available
from tests.conftest import assert_refutation_holds, claim

needs_mona = pytest.mark.skipif(not available(), reason="mona is not installed")


def _xor(rows: int) -> str:
    return "(" + " ^ ".join(f"h[{3 * i}]" for i in range(rows)) + ") == 0"


def _rank(rows: int, levels: tuple[int, ...] = (0, 1)) -> list[list[str]]:
    return [[f"h[{3 * i + part}]" for i in range(rows)] for part in levels]


@needs_mona
def test_two_rows_proved_for_every_position() -> None:
    c = claim("p_positions", "northcott:2", _xor(2), {"loopy": {"rank": _rank(2)}}, heaps=6)
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "proved", verdict
    (row,) = verdict.methods
    assert row.method == "loopy" and row.scope.kind == "all"
    assert row.stats["obligations"] == ["win", "answer"]


@needs_mona
def test_the_familys_own_rank_is_used_when_the_claim_names_none() -> None:
    c = claim("p_positions", "northcott:2", _xor(2), {"loopy": {"max_total": 4}}, heaps=6)
    assert verify_claim(c, timeout=120).status == "proved"


@pytest.mark.slow
@needs_mona
def test_three_rows_proved_for_every_position() -> None:
    c = claim(
        "p_positions",
        "northcott:3",
        _xor(3),
        {"loopy": {"rank": _rank(3), "max_total": 4}},
        heaps=9,
    )
    assert verify_claim(c, timeout=300).status == "proved"


@needs_mona
def test_a_rank_that_the_strategy_does_not_lower_proves_nothing_beyond_the_boards() -> None:
    # the gaps alone: an answer to a retreat restores the gaps, so they do not go down
    c = claim(
        "p_positions",
        "northcott:2",
        _xor(2),
        {"loopy": {"rank": _rank(2, (0,)), "max_total": 5}},
        heaps=6,
    )
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "checked", verdict
    assert verdict.scope.kind == "bound" and verdict.scope.bound == 5
    assert "obligation answer" in verdict.methods[0].detail


@needs_mona
def test_a_mutant_wrong_only_far_away_is_not_proved() -> None:
    far = 2**40
    formula = f"{_xor(2)} and h[0] != {far}"
    c = claim("p_positions", "northcott:2", formula, {"loopy": {"rank": _rank(2)}}, heaps=6)
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "checked", verdict
    assert verdict.scope.bound is not None and verdict.scope.bound < far


@pytest.mark.parametrize(
    ("rows", "formula"),
    [
        (2, "(h[0] + h[3]) % 2 == 0"),
        (2, "(h[0] ^ h[3]) == 0 and h[1] + h[4] == 0"),
        (3, "(h[0] ^ h[3] ^ h[6]) == 0 or h[7] == 3"),
    ],
)
def test_false_claims_are_refuted_with_a_rechecked_position(rows: int, formula: str) -> None:
    c = claim(
        "p_positions", f"northcott:{rows}", formula, {"loopy": {"max_total": 6}}, heaps=3 * rows
    )
    verdict = verify_claim(c, timeout=120)
    assert_refutation_holds(c, verdict)
    assert verdict.counterexample is not None and verdict.counterexample.condition == "outcome"


def test_only_loopy_methods_decide_a_loopy_claim() -> None:
    c = claim("p_positions", "northcott:2", _xor(2), {"exhaustive": {}, "loopy": {}}, heaps=6)
    ctx = prepare(c)
    assert [name for name, _ in method_plan(ctx)] == ["loopy"]
    for name in ("exhaustive", "automata", "hypothesis"):
        result = run_method(name, ctx, {})
        assert result.status == "unknown" and "loopy" in result.detail


def test_the_loopy_method_leaves_other_games_alone() -> None:
    c = claim("p_positions", "nim", "(h[0] ^ h[1]) == 0", {"loopy": {}}, heaps=2)
    assert run_method("loopy", prepare(c), {}).status == "unknown"


@needs_mona
def test_a_wrong_answer_hint_proves_nothing_beyond_the_boards() -> None:
    # "answer by doing nothing": Z = Y is not a move, so the answer obligation fails
    hint = [f"h[{i}]" for i in range(6)]
    options = {"rank": _rank(2), "answer": hint, "max_total": 5}
    c = claim("p_positions", "northcott:2", _xor(2), {"loopy": options}, heaps=6)
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "checked", verdict
    assert "obligation answer" in verdict.methods[0].detail


@needs_mona
def test_without_the_answer_hint_the_search_still_proves_two_rows() -> None:
    c = claim(
        "p_positions",
        "northcott:2",
        _xor(2),
        {"loopy": {"rank": _rank(2), "answer": [], "max_total": 4}},
        heaps=6,
    )
    assert verify_claim(c, timeout=120).status == "proved"


@pytest.mark.slow
@needs_mona
def test_four_rows_proved_for_every_position() -> None:
    options = {"rank": _rank(4), "max_total": 3, "timeout": 300}
    c = claim("p_positions", "northcott:4", _xor(4), {"loopy": options}, heaps=12)
    assert verify_claim(c, timeout=600).status == "proved"
