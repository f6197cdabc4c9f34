"""Evidence is never discarded: each method's candidate counterexample decides the verdict.

Each method is run alone (``only_named``) on a claim that is wrong at one far
position only, so that the candidate comes from that method and no other.
"""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.claims import Claim
from nimproof.provers import prepare, settle, verify_claim
from nimproof.verdict import Counterexample, MethodResult, Scope

HALF_HEAP = "n >> (trailing_ones(n) + 1)"
HALF_HEAP_WITNESS = (
    "(v << (bit_length(n) - bit_length(v) + j - 2)) | "
    "((1 << (bit_length(n) - bit_length(v) + j - 3)) - 1)"
)

FAR: list[tuple[str, dict[str, Any], Any]] = [
    # (claim fields, checks, the position the refutation must name)
    (
        "grundy",
        {
            "game": "half-heap",
            "formula": f"({HALF_HEAP}) + (1 if n == 10000 else 0)",
            "witness": HALF_HEAP_WITNESS,
            "checks": {"exhaustive": {"max_n": 20000}},
        },
        10000,
    ),
    (
        "grundy",
        {
            "game": "half-heap",
            "formula": f"({HALF_HEAP}) + (1 if n == 10000 else 0)",
            "witness": HALF_HEAP_WITNESS,
            "checks": {"z3_bitvec": {"width": 16, "witness_candidates": 5}},
        },
        None,
    ),
    (
        "p_positions",
        {
            "game": "nim",
            "heaps": 2,
            "formula": "xor(h) == 0 and h[0] != 1000",
            "witness": "nim",
            "checks": {"z3_bitvec": {"width": 16}},
        },
        (1000, 1000),
    ),
    (
        "p_positions",
        {
            "game": "nim",
            "heaps": 2,
            "formula": "xor(h) == 0 and h[0] != 255",
            "witness": "nim",
            "checks": {"z3_bitvec": {"width": 8}},
        },
        (255, 255),
    ),
    (
        "grundy",
        {"game": "nim", "formula": "n + (1 if n == 2 ** 40 else 0)", "checks": {"z3_int": {}}},
        None,
    ),
    (
        "identity",
        {
            "variables": ("x",),
            "formula": "x != 8589934592",
            "checks": {"z3_bitvec": {"widths": [8, 48]}},
        },
        {"x": 8589934592},
    ),
    (
        "grundy",
        {
            "game": "nim",
            "formula": "n << 100000",
            "checks": {"exhaustive": {"max_n": 100}},
        },
        0,
    ),
]


@pytest.mark.parametrize(("kind", "fields", "where"), FAR)
def test_each_method_alone_refutes_a_claim_wrong_far_away(
    kind: str, fields: dict[str, Any], where: Any
) -> None:
    c = Claim(id=f"far-{kind}", kind=kind, statement="wrong far away", **fields)
    verdict = verify_claim(c, timeout=120, only_named=True)
    assert verdict.status == "refuted", verdict
    cx = verdict.counterexample
    assert cx is not None and cx.rechecked
    if where is not None:
        got = tuple(cx.position) if isinstance(cx.position, list | tuple) else cx.position
        assert got == where


def _claim() -> Claim:
    return Claim(
        id="c",
        kind="p_positions",
        statement="s",
        game="nim",
        heaps=2,
        formula="xor(h) == 0",
        witness="nim",
    )


def test_a_spurious_candidate_is_dismissed_and_the_proof_stands() -> None:
    ctx = prepare(_claim())
    fake = settle.candidate((3, 3), "condition-2", "a solver said so")
    result = MethodResult("z3_bitvec", "refuted", Scope("width", width=8), counterexample=fake)
    settled = settle.settle(ctx, result)
    assert settled.status == "proved" and settled.counterexample is None
    assert "dismissed" in settled.detail


def test_a_candidate_nothing_can_reach_keeps_the_claim_unproved() -> None:
    from nimproof.verdict import Verdict

    ctx = prepare(Claim(id="c", kind="grundy", statement="s", game="kayles", formula="n % 3"))
    far = 10**12
    fake = settle.candidate(far, "condition-2", "a solver said so")
    result = settle.settle(ctx, MethodResult("x", "refuted", counterexample=fake))
    assert result.status == "unknown" and result.counterexample is not None
    assert (
        not result.counterexample.rechecked and "Not confirmed" in result.counterexample.explanation
    )
    proof = MethodResult("exhaustive", "proved", Scope("bound", bound=1000))
    verdict = Verdict.combine("c", [proof, result])
    assert verdict.status == "unknown" and verdict.counterexample == result.counterexample


def test_a_confirmed_candidate_names_the_wrong_position() -> None:
    ctx = prepare(
        Claim(
            id="c",
            kind="p_positions",
            statement="s",
            game="nim",
            heaps=2,
            formula="xor(h) == 0 and h[0] != 1000",
        )
    )
    fake = settle.candidate((1000, 1000), "condition-2", "found")
    settled = settle.settle(ctx, MethodResult("z3_bitvec", "refuted", counterexample=fake))
    cx = settled.counterexample
    assert isinstance(cx, Counterexample) and cx.rechecked and cx.condition == "value"
    assert cx.position == (1000, 1000) and cx.actual == 0
