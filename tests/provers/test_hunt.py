"""The hunt method: counterexamples far away, and the region covered when there is none.

The examples are issue 18's (``bench/hunt.py``, where ``make bench`` times
them with the default timeout); here the hunt runs alone with small time
limits, and every refutation is re-checked without the verifier.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.hunt import EXAMPLES, GRUNDY_P, Example, one_of, run_example
from nimproof.api import check_claim
from nimproof.provers import method_plan, prepare, settle, verify_claim
from nimproof.provers.hunt import boxes, common, far
from tests.conftest import assert_refutation_holds, claim

_BY_LABEL = {e.label: e for e in EXAMPLES}
_FALSE = [e for e in EXAMPLES if e.label.startswith(("Nim", "misère", "Grundy's game P", "Officers",
                                                      "Moore", "half"))]  # fmt: skip


@pytest.mark.parametrize("example", _FALSE, ids=[e.label for e in _FALSE])
def test_hunt_alone_refutes_each_example_at_the_wrong_position(example: Example) -> None:
    verdict = run_example(example, timeout=60, only_hunt=True)
    assert verdict.status == "refuted", verdict
    cx = verdict.counterexample
    assert cx is not None and cx.rechecked
    if example.wrong_at is not None:
        assert cx.position == example.wrong_at, cx
    else:  # Moore's example: a position with h[1] = 2^40 that the claim calls N
        assert cx.position[1] == 2**40, cx
    position = cx.position if isinstance(cx.position, tuple) else (cx.position,)
    if max(position) < 10_000:  # the plain re-check enumerates every smaller position
        c = check_claim(example.game, **example.options)
        assert_refutation_holds(replace(c, checks={"hunt": {}}), verdict)


def test_a_true_claim_ends_with_the_region_covered_and_no_proof() -> None:
    """A verdict row reads checked: the region covered is never called proved."""
    c = check_claim("grundy", heaps=1, p_positions=one_of(GRUNDY_P))
    verdict = verify_claim(replace(c, checks={"hunt": {"timeout": 4}}), timeout=30, only_named=True)
    (hunt,) = verdict.methods
    assert hunt.status == "checked" and hunt.scope.kind == "bound", hunt
    assert hunt.scope.bound is not None and hunt.scope.bound >= 4095, hunt
    assert "no counterexample among heaps" in hunt.detail and "proved" not in hunt.detail


@pytest.mark.slow
def test_the_true_grundy_claim_covers_a_million_heaps_in_the_default_timeout() -> None:
    verdict = run_example(_BY_LABEL["Grundy's game, its 42 P-positions below 2^20 (true there)"])
    hunt = next(m for m in verdict.methods if m.method == "hunt")
    assert hunt.status == "checked" and hunt.scope.kind == "bound", hunt
    assert hunt.scope.bound is not None and hunt.scope.bound >= 10**6, hunt
    assert verdict.scope.kind != "all" and verdict.status != "refuted"


@pytest.mark.slow
@pytest.mark.parametrize("example", _FALSE, ids=[e.label for e in _FALSE])
def test_each_example_is_refuted_with_default_options(example: Example) -> None:
    verdict = run_example(example)
    assert verdict.status == "refuted", verdict
    assert verdict.counterexample is not None and verdict.counterexample.rechecked


def test_check_and_claims_without_methods_run_the_hunt_last() -> None:
    c = check_claim("nim", heaps=2, p_positions="xor(h) == 0")
    assert list(c.checks)[-1] == "hunt"
    bare = claim("p_positions", "knim:2", "h[0] % 3 == h[1] % 3", {}, heaps=2)
    assert [name for name, _ in method_plan(prepare(bare))][-1] == "hunt"
    named = claim("p_positions", "knim:2", "h[0] % 3 == h[1] % 3", {"exhaustive": {}}, heaps=2)
    assert "hunt" not in [name for name, _ in method_plan(prepare(named))]


def test_constants_include_constant_subexpressions_and_far_values_their_neighbours() -> None:
    c = check_claim("nim", heaps=3, p_positions="xor(h) == 0 or h[0] == 2**45 + 3")
    consts = common.constants(prepare(c))
    assert {2**45, 2**45 + 3, 45, 3} <= set(consts)
    near, remote = far.values(consts)
    assert 2**45 + 3 in near and {2**45 + 2, 2**45 + 4, 2**64, 2**64 - 1} <= set(remote)
    first = next(far.positions(3, near, remote))
    assert len(set(first)) == 1  # the fewest distinct values first


def test_z3_widths_start_where_the_constants_fit_and_reach_the_wrong_width() -> None:
    """A claim wrong only where a heap is 2^45 + 2^44: z3 at width 47 finds it (width 16 cannot)."""
    formula = f"xor(h) == 0 or h[0] == {2**45 + 2**44}"
    c = claim("p_positions", "nim", formula, {}, heaps=3, witness="nim")
    ctx = prepare(c, deadline=0.0)
    done = boxes.Progress()
    budget = common.Budget.of(ctx, 30)
    found = boxes._widths(ctx, budget, 256, done)
    assert found is not None, done.notes
    out = settle.settle(ctx, found)  # as run_method does with a candidate
    assert out.status == "refuted", out
    assert out.counterexample is not None and out.counterexample.rechecked
    assert "width 47" in out.detail


def test_the_hunt_grows_a_plugin_games_size_and_refutes_a_wrong_formula() -> None:
    true = "h[2] ^ (h[0] - 1 - h[2]) ^ h[3] ^ (h[1] - 1 - h[3])"
    c = claim("grundy", "plugin:chocolate", true, {"hunt": {"timeout": 15}}, heaps=4)
    (hunt,) = verify_claim(c, timeout=30, only_named=True).methods
    assert hunt.status == "checked" and hunt.scope.measure == "size", hunt
    assert (hunt.scope.bound or 0) >= 15, hunt  # grown past the first box (7)
    wrong = claim(
        "grundy", "plugin:chocolate", true + " + (1 if h[0] == 5 else 0)", {"hunt": {}}, heaps=4
    )
    verdict = verify_claim(wrong, timeout=30, only_named=True)
    assert verdict.status == "refuted", verdict
