"""Soundness: false claims derived from true ones are refuted, never proved.

Each false claim is run through each proof method on its own, so that every
method is fed false statements. A method may answer ``unknown`` (it is not
complete everywhere) but never ``proved``; the complete ones must refute, and
every refutation is re-checked here without the verifier.
"""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.provers import verify_claim
from tests.provers.helpers import assert_refutation_holds, claim

# (game, formula, methods that must refute it)
ONE_HEAP_FALSE: list[tuple[str, str, tuple[str, ...]]] = []
for k in range(1, 11):
    spec = f"knim:{k}"
    ONE_HEAP_FALSE += [
        (spec, f"n % {k + 2}", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"(n + 1) % {k + 1}", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"n % {k + 1} + 1", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"(n % {k + 1}) ^ 1", ("exhaustive", "z3_bitvec")),
    ]
    if k > 1:
        ONE_HEAP_FALSE.append((spec, f"n % {k}", ("exhaustive", "z3_int", "z3_bitvec")))
ONE_HEAP_FALSE += [
    ("half-heap", "n >> trailing_ones(n)", ("exhaustive", "z3_bitvec")),
    ("half-heap", "(n >> (trailing_ones(n) + 1)) + 1", ("exhaustive", "z3_bitvec")),
    ("half-heap", "n // 2", ("exhaustive", "z3_bitvec")),
    ("half-heap", "n >> (trailing_zeros(n) + 1)", ("exhaustive", "z3_bitvec")),
    ("nim", "n + 1", ("exhaustive", "z3_int", "z3_bitvec")),
    ("nim", "n - 1 if n > 0 else 0", ("exhaustive", "z3_int", "z3_bitvec")),
    ("nim", "n // 1 if n != 7 else 6", ("exhaustive", "z3_int", "z3_bitvec")),
    ("subtraction:1,3,4", "n % 7", ("exhaustive", "z3_int", "z3_bitvec")),
    ("subtraction:1,3,4", "n % 2", ("exhaustive", "z3_int", "z3_bitvec")),
    ("kayles", "n % 4", ("exhaustive",)),
    ("dawsons-kayles", "n % 2", ("exhaustive",)),
    ("misere:nim", "n", ("exhaustive", "z3_int", "z3_bitvec")),
    ("misere:nim", "1 if n == 0 else n + 1", ("exhaustive", "z3_int", "z3_bitvec")),
    ("misere:knim:3", "n % 4", ("exhaustive", "z3_int")),
    ("rule:(n+1)//2 <= m < n", "n // 2", ("exhaustive",)),
]

MULTI_FALSE: list[tuple[str, str, int, str | None, tuple[str, ...]]] = []
for h in (2, 3, 4):
    MULTI_FALSE += [
        ("nim", "xor(h) == 1", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "sum(h) % 2 == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "xor(h[1:]) == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "(xor(h) & 1) == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "xor(h) == 0 and h[0] != 3", h, "nim", ("exhaustive", "z3_bitvec")),
    ]
for h in (2, 3, 4, 5, 6):
    MULTI_FALSE += [
        # misère Nim without its exception
        ("misere:nim", "xor(h) == 0", h, "misere-nim", ("exhaustive", "z3_bitvec")),
        # the exception with the wrong parity
        (
            "misere:nim",
            "count(x == 1 for x in h) % 2 == 0 if all(x <= 1 for x in h) else xor(h) == 0",
            h,
            "misere-nim",
            ("exhaustive", "z3_bitvec"),
        ),
        # staircase Nim with the wrong stairs
        ("staircase", "xor(h[1::2]) == 0", h, "staircase", ("exhaustive", "z3_bitvec")),
        ("staircase", "xor(h) == 0", h, "staircase", ("exhaustive", "z3_bitvec")),
    ]
for k in (1, 2, 3):
    for h in (2, 3, 4):
        if k >= h:
            continue
        MULTI_FALSE += [
            (
                f"moore:{k}",
                f"all(colsum(h, b) % {k + 2} == 0 for b in bits)",
                h,
                "moore",
                ("exhaustive", "z3_bitvec"),
            ),
            (
                f"moore:{k}",
                "xor(h) == 0" if k > 1 else "xor(h) == 1",
                h,
                "moore",
                ("exhaustive", "z3_bitvec"),
            ),
        ]
        if k > 1:
            MULTI_FALSE.append(
                (
                    f"moore:{k}",
                    f"all(colsum(h, b) % {k} == 0 for b in bits)",
                    h,
                    "moore",
                    ("exhaustive", "z3_bitvec"),
                )
            )

OPTIONS: dict[str, dict[str, Any]] = {
    "exhaustive": {"max_n": 300, "max_heap": 7},
    "z3_int": {"timeout": 30},
    "z3_bitvec": {"width": 8, "timeout": 60},
    "hypothesis": {"examples": 60},
}


def _options(method: str, multi: bool) -> dict[str, Any]:
    opts = dict(OPTIONS[method])
    if method == "exhaustive":
        opts.pop("max_n" if multi else "max_heap")
    return opts


@pytest.mark.parametrize(("game", "formula", "methods"), ONE_HEAP_FALSE)
def test_false_one_heap_formula_is_refuted_by_every_complete_method(
    game: str, formula: str, methods: tuple[str, ...]
) -> None:
    for method in (*methods, "hypothesis"):
        c = claim("grundy", game, formula, {method: _options(method, False)})
        if method == "z3_bitvec" and "half-heap" in game:
            c = claim(
                "grundy",
                game,
                formula,
                {method: _options(method, False)},
                witness="(v << (j + 1)) | ((1 << j) - 1)",
            )
        verdict = verify_claim(c, timeout=120)
        assert verdict.status != "proved", (method, verdict)
        if method in methods:
            assert_refutation_holds(c, verdict)


@pytest.mark.parametrize(("game", "formula", "heaps", "witness", "methods"), MULTI_FALSE)
def test_false_p_position_rule_is_refuted_by_every_complete_method(
    game: str, formula: str, heaps: int, witness: str | None, methods: tuple[str, ...]
) -> None:
    for method in (*methods, "hypothesis"):
        c = claim(
            "p_positions",
            game,
            formula,
            {method: _options(method, True)},
            heaps=heaps,
            witness=witness,
        )
        verdict = verify_claim(c, timeout=120)
        assert verdict.status != "proved", (method, verdict)
        if method in methods:
            assert_refutation_holds(c, verdict)


IDENTITIES_FALSE = [
    "implies(k < (x ^ y), (k ^ y) < x and (k ^ x) < y)",
    "implies(k <= (x ^ y), (k ^ y) < x or (k ^ x) < y)",
    "implies(k < (x ^ y), (k ^ y) <= x and (k ^ x) <= y)",
    "(x ^ y) <= x + y - 1",
    "(x ^ y) == (x | y)",
    "(x + y) % 2 == (x ^ y) % 3",
]


@pytest.mark.parametrize("formula", IDENTITIES_FALSE)
@pytest.mark.parametrize("method", ["exhaustive", "z3_bitvec", "hypothesis"])
def test_false_identity_is_refuted(formula: str, method: str) -> None:
    opts = {
        "exhaustive": {"max_value": 15},
        "z3_bitvec": {"widths": [8, 16]},
        "hypothesis": {"examples": 300},
    }
    c = claim("identity", None, formula, {method: opts[method]}, variables=("k", "x", "y"))
    verdict = verify_claim(c, timeout=60)
    assert verdict.status == "refuted", verdict
    assert_refutation_holds(c, verdict)


@pytest.mark.parametrize(
    ("period", "preperiod", "least"),
    [
        (11, 71, False),
        (13, 71, False),
        (12, 70, False),
        (6, 71, False),
        (12, 0, False),
        # Valid but not least: wrong only when the claim asks for the least ones.
        (24, 71, True),
        (12, 72, True),
    ],
)
def test_wrong_kayles_period_is_refuted(period: int, preperiod: int, least: bool) -> None:
    c = claim(
        "periodic",
        "kayles",
        None,
        {"periodicity": {}},
        period=period,
        preperiod=preperiod,
        least=least,
        id=f"kayles-{period}-{preperiod}",
    )
    verdict = verify_claim(c, timeout=60)
    assert verdict.status == "refuted", verdict
    assert_refutation_holds(c, verdict)


def test_false_claim_count_is_at_least_two_hundred() -> None:
    per_one = sum(len(m) + 1 for _, _, m in ONE_HEAP_FALSE)
    per_multi = sum(len(m) + 1 for *_, m in MULTI_FALSE)
    total = per_one + per_multi + 3 * len(IDENTITIES_FALSE) + 7
    assert total >= 200, total
