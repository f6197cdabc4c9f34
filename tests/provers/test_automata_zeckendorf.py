"""The automata method in Zeckendorf numeration: golden-ratio theorems for every position."""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.claims import Claim
from nimproof.provers import mona, prepare, run_method
from tests.conftest import assert_refutation_holds, claim
from tests.provers.false_claims import WYTHOFF_P

pytestmark = pytest.mark.skipif(not mona.available(), reason="mona is not installed")


def run(c: Claim, **options: Any) -> Any:
    return run_method("automata", prepare(c), options)


def test_wythoffs_p_positions_are_proved_for_every_position() -> None:
    r = run(claim("p_positions", "wythoff", WYTHOFF_P, {}, heaps=2))
    assert r.status == "proved", r
    assert r.scope.kind == "all" and r.scope.heaps == 2
    assert "Zeckendorf" in r.detail
    # the obligations: the measure drops, the claim is defined, (a) and (b)
    assert r.stats["obligations"] == ["w", "guard", "a", "b"]


def test_the_fraenkel_form_is_proved_too() -> None:
    # (a, b) is P when a's lowest Zeckendorf position is even and b is a shifted by one
    # position; written with the functions: b == zshift(a) and phi_floor(a) != zshift(a).
    rule = (
        "(h[1] == zshift(h[0]) and phi_floor(h[0]) != zshift(h[0]))"
        " or (h[0] == zshift(h[1]) and phi_floor(h[1]) != zshift(h[1]))"
        " or (h[0] == 0 and h[1] == 0)"
    )
    r = run(claim("p_positions", "wythoff", rule, {}, heaps=2))
    assert r.status == "proved", r


def test_binary_numeration_says_why_not() -> None:
    r = run(claim("p_positions", "wythoff", WYTHOFF_P, {}, heaps=2), numeration="binary")
    assert r.status == "unknown" and "phi_floor" in r.detail
    r = run(claim("p_positions", "wythoff", WYTHOFF_P, {}, heaps=2), numeration="ternary")
    assert r.status == "unknown" and "numeration" in r.detail


def test_binary_claims_stay_binary_and_xor_is_not_zeckendorf() -> None:
    r = run(claim("p_positions", "nim", "xor(h) == 0", {}, heaps=2), numeration="zeckendorf")
    assert r.status == "unknown" and "binary digits" in r.detail
    r = run(claim("p_positions", "nim", "xor(h) == 0", {}, heaps=2))
    assert r.status == "proved" and "Zeckendorf" not in r.detail


def test_a_pair_left_out_is_refuted_at_that_pair() -> None:
    c = claim("p_positions", "wythoff", f"({WYTHOFF_P}) and h[1] != 54", {}, heaps=2)
    r = run(c)
    assert r.status == "refuted", r
    assert r.counterexample.position == (33, 54)
    assert_refutation_holds(c, r)


def test_grundy_claims_in_zeckendorf_are_refuted_when_false() -> None:
    # Wythoff's Grundy values are not the sum of the heaps (nor any of these simple forms)
    for formula in ("h[0] + h[1]", "max(h[0], h[1])"):
        c = claim("grundy", "wythoff", formula, {}, heaps=2)
        r = run(c, numeration="zeckendorf")
        assert r.status == "refuted", (formula, r)
        assert_refutation_holds(c, r)


def test_a_measure_that_does_not_fall_is_caught_by_obligation_w(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from nimproof.expr import parse
    from nimproof.games import HeapsRelation
    from nimproof.games.fibonacci_nim import MOVES, FibonacciNim

    # With the plain total as its measure, Fibonacci Nim's move (n, t) -> (n - t, 2t) keeps it.
    wrong = HeapsRelation(2, parse(MOVES, sequences=("h", "k")), MOVES, weight=(1, 1), raises=True)
    monkeypatch.setattr(FibonacciNim, "moves_spec", property(lambda self: wrong))
    r = run(claim("p_positions", "fibonacci-nim", "h[0] == 0 or h[1] < zlow(h[0])", {}, heaps=2))
    assert r.status == "unknown" and "obligation w" in r.detail, r
