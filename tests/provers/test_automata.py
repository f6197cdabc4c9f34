"""The automata method (MONA): proofs for every position, re-checked refutations, honest unknowns.

Every refutation is re-checked here without the verifier
(:func:`assert_refutation_holds`); counterexamples far beyond 2^32 and 2^64
are checked by exact evaluation of the claim and the move rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.claims import Claim
from nimproof.expr import evaluate, parse
from nimproof.provers import mona, prepare, run_method
from nimproof.provers.moves import is_move
from tests.conftest import assert_refutation_holds, claim

pytestmark = pytest.mark.skipif(not mona.available(), reason="mona is not installed")


def run(c: Claim, **options: Any) -> Any:
    return run_method("automata", prepare(c), options)


TRUE_P: list[tuple[str, str, int]] = [
    *[("nim", "xor(h) == 0", h) for h in (1, 2, 3, 5, 8)],
    *[("nim", "all(colsum(h, b) % 2 == 0 for b in bits)", h) for h in (2, 4)],
    *[
        (
            "misere:nim",
            "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0",
            h,
        )
        for h in (2, 3, 5)
    ],
    ("moore:1", "all(colsum(h, b) % 2 == 0 for b in bits)", 3),
    *[("moore:2", "all(colsum(h, b) % 3 == 0 for b in bits)", h) for h in (2, 3, 4)],
    ("moore:3", "all(colsum(h, b) % 4 == 0 for b in bits)", 4),
    *[("staircase", "xor(h[::2]) == 0", h) for h in (2, 3, 4, 11)],
    ("knim:3", "h[0] % 4 == 0", 1),
    ("subtraction:1,3,4", "h[0] % 7 == 0 or h[0] % 7 == 2", 1),
    ("half-heap", "(h[0] + 1) & h[0] == 0", 1),
    ("rule:(n + 1)//2 <= m < n", "(h[0] + 1) & h[0] == 0", 1),
    ("sum:nim+knim:2", "h[0] == h[1] % 3", 2),
]


@pytest.mark.parametrize(("game", "predicate", "heaps"), TRUE_P)
def test_true_p_position_rule_is_proved_for_every_position(
    game: str, predicate: str, heaps: int
) -> None:
    r = run(claim("p_positions", game, predicate, {}, heaps=heaps))
    assert r.status == "proved", r
    assert r.scope.kind == "all"


TRUE_G: list[tuple[str, str, int | None]] = [
    ("nim", "xor(h)", 3),
    ("nim", "n", None),
    ("knim:3", "n % 4", None),
    ("knim:7", "n % 8", None),
    ("knim:12", "n % 13", None),
    ("misere:nim", "1 - n if n <= 1 else n", None),
    ("subtraction:1,2", "n % 3", None),
]


@pytest.mark.parametrize(("game", "formula", "heaps"), TRUE_G)
def test_true_grundy_formula_is_proved_for_every_position(
    game: str, formula: str, heaps: int | None
) -> None:
    r = run(claim("grundy", game, formula, {}, heaps=heaps))
    assert r.status == "proved", r
    assert r.scope.kind == "all"


def test_xor_lemma_and_identities_are_proved() -> None:
    lemma = "implies(k < (x ^ y), (k ^ y) < x or (k ^ x) < y)"
    r = run(claim("identity", None, lemma, {}, variables=("k", "x", "y")))
    assert r.status == "proved" and r.scope.kind == "all" and r.scope.measure == "value"
    r = run(claim("identity", None, "x - 1 - k >= 0 or x <= k", {}, variables=("x", "k")))
    assert r.status == "proved"


FALSE_P: list[tuple[str, str, int]] = [
    ("nim", "sum(h) % 2 == 0", 3),
    ("nim", "xor(h) == 1", 2),
    ("nim", "xor(h[1:]) == 0", 3),
    ("misere:nim", "xor(h) == 0", 3),
    ("moore:2", "all(colsum(h, b) % 2 == 0 for b in bits)", 4),
    ("moore:2", "all(colsum(h, b) % 4 == 0 for b in bits)", 3),
    ("staircase", "xor(h[1::2]) == 0", 4),
    ("staircase", "xor(h) == 0", 3),
    ("knim:3", "h[0] % 3 == 0", 1),
    ("subtraction:1,3,4", "h[0] % 7 == 0", 1),
    ("half-heap", "h[0] % 2 == 0", 1),
]


@pytest.mark.parametrize(("game", "predicate", "heaps"), FALSE_P)
def test_false_p_position_rule_is_refuted_and_rechecked(
    game: str, predicate: str, heaps: int
) -> None:
    c = claim("p_positions", game, predicate, {}, heaps=heaps)
    r = run(c)
    assert r.status == "refuted", r
    from nimproof.verdict import Verdict

    assert_refutation_holds(c, Verdict.combine(c.id, [r]))


# Mutants whose only counterexamples are far beyond what a 32- or 64-bit check sees.
FAR: list[tuple[str, str, int, int]] = [
    ("nim", "xor(h) == 0 and h[0] != 2**45 + 2**44", 3, 45),
    ("nim", "xor(h) == 0 and h[0] < 2**40", 2, 40),
    ("nim", "xor(h) == 0 or h[1] == 2**33 + 5", 3, 33),
    ("nim", f"xor(h) == 0 and h[2] != {2**70}", 3, 70),
    ("nim", "xor(h) == 0 or h[0] == 2**64 + 1", 2, 64),
    (
        "misere:nim",
        f"(xor(h) != 0 if all(x <= 1 for x in h) else xor(h) == 0) and h[0] < {2**66}",
        2,
        66,
    ),
    ("staircase", "xor(h[::2]) == 0 and h[1] != 2**50", 3, 50),
    ("moore:2", "all(colsum(h, b) % 3 == 0 for b in bits) and h[0] < 2**36", 3, 36),
]


@pytest.mark.parametrize(("game", "predicate", "heaps", "bits"), FAR)
def test_mutant_failing_only_far_away_is_refuted_there(
    game: str, predicate: str, heaps: int, bits: int
) -> None:
    c = claim("p_positions", game, predicate, {}, heaps=heaps)
    r = run(c)
    assert r.status == "refuted", r
    cx = r.counterexample
    assert cx is not None and cx.rechecked
    assert max(cx.position) >= 2**bits - 2**bits // 2
    # Independent check: the claim's local conditions really fail there.
    node = parse(predicate, sequences=("h",), result="bool")
    here = bool(evaluate(node, {"h": tuple(cx.position)}))
    if cx.condition == "condition-1":
        assert here and is_move(prepare(c).game, cx.position, cx.move)
        assert evaluate(node, {"h": tuple(cx.move)})
    else:
        assert cx.condition in ("condition-2", "value")


def test_grundy_mutants_are_refuted() -> None:
    for game, formula in [
        ("knim:3", "n % 3"),
        ("nim", "n + 1"),
        ("knim:5", "n % 6 if n < 2**50 else 0"),
    ]:
        c = claim("grundy", game, formula, {})
        r = run(c)
        assert r.status == "refuted", (formula, r)
        assert r.counterexample is not None and r.counterexample.rechecked


def test_false_identity_is_refuted_with_exact_values() -> None:
    c = claim("identity", None, "(x ^ y) < x + y or x + y == 2**40", {}, variables=("x", "y"))
    r = run(c)
    assert r.status == "refuted" and r.counterexample is not None
    pos = r.counterexample.position
    assert (pos["x"] ^ pos["y"]) >= pos["x"] + pos["y"] != 2**40


NOT_WS1S: list[tuple[str, str, str, int | None]] = [
    ("p_positions", "nim", "popcount(xor(h)) == 0", 2),
    ("p_positions", "nim", "h[0] * h[1] == 0", 2),
    ("p_positions", "nim", "(h[0] >> h[1]) == 0", 2),
    ("grundy", "half-heap", "n >> (trailing_ones(n) + 1)", None),
    ("grundy", "subtraction:squares", "n % 2", None),
    ("grundy", "kayles", "n % 3", None),
    ("p_positions", "plugin:chocolate", "h[0] == h[1]", None),
]


@pytest.mark.parametrize(("kind", "game", "formula", "heaps"), NOT_WS1S)
def test_outside_the_fragment_is_unknown_and_says_why(
    kind: str, game: str, formula: str, heaps: int | None
) -> None:
    c = claim(kind, game, formula, {}, heaps=heaps)
    try:
        ctx = prepare(c)
    except Exception:
        pytest.skip("not a valid claim for this game")
    r = run_method("automata", ctx, {})
    assert r.status == "unknown"
    assert "not expressible in WS1S" in r.detail


def test_missing_mona_is_unknown_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mona.shutil, "which", lambda name: None)
    r = run(claim("p_positions", "nim", "xor(h) == 0", {}, heaps=2))
    assert r.status == "unknown"
    assert r.detail == "mona is not installed (apt-get install mona)"


def test_timeout_is_unknown_never_a_narrower_proof() -> None:
    # Moore's Nim_3 on 7 heaps is far beyond MONA's tables within a fraction of a second.
    c = claim("p_positions", "moore:3", "all(colsum(h, b) % 4 == 0 for b in bits)", {}, heaps=7)
    r = run(c, timeout=0.3)
    assert r.status == "unknown"
    assert "timeout" in r.detail or "abort" in r.detail or "out of time" in r.detail
