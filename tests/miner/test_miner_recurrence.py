"""Index recurrences, recursive definitions, rule games with solved moves, ranking, the report."""

from __future__ import annotations

import numpy as np
import pytest

from nimproof.engines import reference
from nimproof.expr import parse
from nimproof.games import HeapGame, parse_spec
from nimproof.miner.defaults import TAKE_ONE_OR_HALF
from nimproof.miner.guessers.periodic import Periodicity, period_notation
from nimproof.miner.model import Evidence, Guess
from nimproof.miner.pipeline import Request, mine
from nimproof.miner.run import proof_rank
from nimproof.provers import verify_claim
from nimproof.provers.rule_targets import rule_targets, solved_targets
from tests.miner.miner_known import scalar_values
from tests.provers.helpers import claim


@pytest.mark.parametrize(
    "spec,relations",
    [
        ("take-fraction:1/3", ["g(3m) = m", "g(3m+1) = g(2m)", "g(3m+2) = g(2m+1)"]),
        ("take-fraction:2/3", ["g(3m) = 2m", "g(3m+1) = g(m)"]),
        (TAKE_ONE_OR_HALF, ["g(4m) = -g(2m) + 3 for m >= 2"]),
    ],
)
def test_recurrence_guesser_finds_the_published_rules(spec: str, relations: list[str]) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    found = [g for g in mine(Request(spec, max_n=200)).guesses if g.guesser == "recurrence"]
    assert found, spec
    for rel in relations:
        assert rel in found[0].statement, (rel, found[0].statement)
    # The recursive definition reproduces the reference well beyond the mined table.
    assert scalar_values(found[0].formula or "", 600) == reference.heap_table(game, 600)


def test_no_recurrence_is_offered_where_a_period_explains_the_table() -> None:
    for spec in ("knim:3", "subtraction:all-but:1,2", "kayles"):
        assert not any(g.guesser == "recurrence" for g in mine(Request(spec, max_n=200)).guesses)


THIRD = "n // 3 if n % 3 == 0 else g[2 * (n // 3) + n % 3 - 1]"


def test_a_recursive_definition_is_proved_to_its_bound_and_only_exhaustively() -> None:
    c = claim("grundy", "take-fraction:1/3", THIRD, {"exhaustive": {"max_n": 3000}, "z3_int": {}})
    verdict = verify_claim(c)
    assert verdict.status == "checked"
    assert verdict.scope.kind == "bound" and verdict.scope.bound == 3000
    z3 = next(m for m in verdict.methods if m.method == "z3_int")
    assert z3.status == "unknown" and "recursive" in z3.detail


@pytest.mark.parametrize(
    "formula,first",
    [
        (THIRD + " + (1 if n == 1501 else 0)", 1501),
        ("n // 3 if n % 3 == 0 else g[2 * (n // 3)]", 5),
        ("n // 3 if n % 3 == 0 else g[n]", 1),  # reads itself: undefined, never a function
        ("n // 3 if n % 3 == 0 else g[n + 1]", 1),
    ],
)
def test_false_recursive_definitions_are_refuted_at_the_first_wrong_heap(
    formula: str, first: int
) -> None:
    c = claim("grundy", "take-fraction:1/3", formula, {"exhaustive": {"max_n": 3000}})
    verdict = verify_claim(c)
    assert verdict.status == "refuted"
    cx = verdict.counterexample
    assert cx is not None and cx.rechecked and cx.position == first


RULES = [
    TAKE_ONE_OR_HALF.removeprefix("rule:"),
    "m == n - 2 or 0 < m and m == n // 3",
    "m == n - 1 or 0 < m and 3 * m == n or m == n - 4",
    "n % 2 == 0 and 0 < m and m == n // 2 or m == n - 3",
]


@pytest.mark.parametrize("rule", RULES)
def test_solved_rule_targets_are_exactly_the_legal_moves(rule: str) -> None:
    game = parse_spec(f"rule:{rule}")
    predicate = parse(rule, scalars=("n", "m"), result="bool")
    solved = rule_targets(predicate, 300)
    assert solved is not None
    starts, targets = solved
    for n in range(300):
        want = sorted({parts[0] if parts else 0 for parts in game.options(n)})
        assert list(targets[starts[n] : starts[n + 1]]) == want, n


def test_rules_not_solved_for_m_are_left_to_the_scan() -> None:
    for rule in ("m < n", "(n + 1) // 2 <= m < n", "m == n - 1 or m < n // 3"):
        assert solved_targets(parse(rule, scalars=("n", "m"), result="bool")) is None


def test_period_notation_marks_the_preperiod_block_and_saltus() -> None:
    values = np.array([0, 1, 2, 2, 3, 2, 3, 2, 3])
    assert period_notation(values, Periodicity(2, 3, 0)) == "0 1 2 | 2 3 [period 2]"
    arith = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    assert period_notation(arith, Periodicity(3, 0, 1)) == "| 0 0 0 [period 3, saltus +1]"


def _guess(cost: float) -> Guess:
    return Guess(kind="grundy", game="nim", guesser="t", evidence=Evidence(10, 5, 15), cost=cost)


def test_ranking_puts_all_positions_first_then_width_then_bound_then_simplicity() -> None:
    verdicts = [
        {"status": "checked", "scope": {"kind": "bound", "bound": 600}},
        {"status": "checked", "scope": {"kind": "width", "width": 32}},
        {"status": "proved", "scope": {"kind": "all"}},
        {"status": "refuted", "scope": {"kind": "none"}},
        {"status": "checked", "scope": {"kind": "width", "width": 16}},
    ]
    costs = [1.0, 5.0, 9.0, 0.5, 2.0]
    order = sorted(range(5), key=lambda i: proof_rank(verdicts[i], _guess(costs[i])))
    assert order == [2, 1, 4, 0, 3]
    # Between equal scopes the simpler guess first.
    same = {"status": "proved", "scope": {"kind": "all"}}
    assert proof_rank(same, _guess(1.0)) < proof_rank(same, _guess(2.0))


def test_mined_report_lists_rules_scopes_and_alternatives(tmp_path) -> None:
    from nimproof.miner.report import mined_markdown
    from nimproof.miner.run import run

    requests = [
        Request("subtraction:all-but:2,5", max_n=120),
        Request("subtraction:squares", max_n=60),
    ]
    result = run(requests, write_dir=tmp_path, verify=True, timeout=60)
    text = mined_markdown(result)
    assert "arithmetic-periodic with saltus 2" in text
    assert "| 0 1 0 1 [period 4, saltus +2]" in text
    assert "proved: all positions" in text
    assert "No closed form found up to n = 60" in text
    first = next(c for c in result.conjectures if c.family == "subtraction:all-but:2,5")
    assert first.role == "conjecture" and first.status == "proved"
