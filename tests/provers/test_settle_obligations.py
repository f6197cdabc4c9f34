"""A failed WS1S obligation is a candidate that settle alone confirms, in one pass (issue 21).

The automata method turns MONA's counterexample into an unconfirmed candidate
(``obligation:NAME``); :func:`nimproof.provers.settle.settle` re-checks it with
exact evaluation, the family's own moves and the reference implementation, and
names a position where the claim is wrong. A candidate that does not re-check
gives ``unknown`` with no counterexample (it must neither refute nor keep a
true claim from its other methods' verdicts).
"""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.api import check_claim
from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.provers import prepare, settle
from nimproof.provers.automata_recheck import candidate
from nimproof.verdict import Counterexample, MethodResult


def _settled(
    game: str, obligation: str, position: Any, move: Any = None, value: int = 0, **claim: Any
) -> MethodResult:
    ctx = prepare(check_claim(game, **claim))
    cx = Counterexample(position, settle.OBLIGATION + obligation, "MONA's", None, value, move)
    found = MethodResult(
        "automata", "refuted", detail=f"obligation {obligation} fails", counterexample=cx
    )
    return settle.settle(ctx, found)


@pytest.mark.parametrize(
    ("obligation", "position", "move", "value"),
    [("g2", 5, None, 2), ("g1", 5, 3, 0), ("g2", 5, None, 7), ("guard", 4, None, 0)],
)
def test_a_candidate_that_does_not_recheck_is_unknown_without_a_counterexample(
    obligation: str, position: int, move: int | None, value: int
) -> None:
    """Nim's values are n: no MONA point against ``grundy = n`` can re-check."""
    r = _settled("nim", obligation, position, move, value, grundy="n")
    assert r.status == "unknown" and r.counterexample is None
    assert r.detail.startswith(f"obligation {obligation}: ")


def test_a_p_position_candidate_that_does_not_recheck_is_unknown() -> None:
    r = _settled("nim", "b", (3, 1), heaps=2, p_positions="xor(h) == 0")
    assert r.status == "unknown" and r.counterexample is None
    r = _settled("nim", "a", (2, 2), (1, 2), heaps=2, p_positions="xor(h) == 0")
    assert r.status == "unknown" and r.counterexample is None


def _true_value(spec: str, n: int) -> int:
    return reference.heap_table(parse_spec(spec), n)[n]


def test_a_confirmed_candidate_names_a_position_where_the_claim_is_wrong() -> None:
    """subtraction:1,2 has values n % 3: ``n % 4`` is wrong at 3, where no move reaches 0."""
    r = _settled("subtraction:1,2", "g2", 3, None, 0, grundy="n % 4")
    cx = r.counterexample
    assert r.status == "refuted" and cx is not None and cx.rechecked
    assert cx.position == 3 and cx.condition == "value"
    assert cx.claimed == 3 and cx.actual == _true_value("subtraction:1,2", 3) == 0
    assert r.detail == "obligation g2 fails; re-checked by the reference implementation"


def test_a_move_between_equal_values_is_named_at_its_wrong_end() -> None:
    """``n % 3`` except 0 at 4: the move 6 -> 4 joins two zeros; 6 is right, 4 is wrong."""
    r = _settled("subtraction:1,2", "g1", 6, 4, grundy="0 if n == 4 else n % 3")
    cx = r.counterexample
    assert r.status == "refuted" and cx is not None and cx.rechecked
    assert cx.position == 4 and cx.claimed == 0 and cx.actual == _true_value("subtraction:1,2", 4)


def test_an_undefined_formula_is_confirmed_where_it_is_undefined() -> None:
    r = _settled("subtraction:1,2", "g2", 3, None, 0, grundy="6 // (n - 3)")
    cx = r.counterexample
    assert r.status == "refuted" and cx is not None and cx.rechecked
    assert cx.condition == "undefined" and cx.position == 3


def test_an_obligation_about_the_rule_is_no_candidate() -> None:
    ctx = prepare(check_claim("nim", grundy="n"))

    class Plan:
        heaps = 1

    for name in ("w", "rule-guard"):
        assert isinstance(candidate(ctx, Plan(), name, {}), str)  # type: ignore[arg-type]
    found = candidate(ctx, Plan(), "g1", {"X0": 5, "Y0": 3, "V": 1})  # type: ignore[arg-type]
    assert isinstance(found, Counterexample) and not found.rechecked
    assert (found.position, found.move, found.actual) == (5, 3, 1)
