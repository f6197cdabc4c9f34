"""True statements from MATH.md are proved, at the scope each method can reach."""

from __future__ import annotations

from functools import partial

import pytest

from nimproof.provers import verify_claim as _verify_claim
from tests.conftest import claim

# These tests are about one method at a time: run exactly the checks each claim names.
verify_claim = partial(_verify_claim, only_named=True)


def test_knim_formula_is_proved_for_all_n_over_the_integers() -> None:
    c = claim("grundy", "knim:5", "n % (k + 1)", {"z3_int": {}}, params={"k": 5})
    v = verify_claim(c)
    assert v.status == "proved" and v.scope.kind == "all"


def test_knim_formula_is_proved_exhaustively_with_the_bound_as_scope() -> None:
    v = verify_claim(claim("grundy", "knim:3", "n % 4", {"exhaustive": {"max_n": 5000}}))
    assert v.status == "checked" and v.scope.kind == "bound" and v.scope.bound == 5000


@pytest.mark.parametrize("heaps", [2, 3, 4])
def test_bouton_is_proved_at_width_32_with_the_nim_witness(heaps: int) -> None:
    c = claim(
        "p_positions",
        "nim",
        "xor(h) == 0",
        {"z3_bitvec": {"width": 32}},
        heaps=heaps,
        witness="nim",
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.kind == "width" and v.scope.width == 32


def test_bouton_without_a_witness_uses_a_quantifier_only_at_small_widths() -> None:
    small = verify_claim(
        claim("p_positions", "nim", "xor(h) == 0", {"z3_bitvec": {"width": 4}}, heaps=2)
    )
    assert small.status == "checked"
    big = verify_claim(
        claim("p_positions", "nim", "xor(h) == 0", {"z3_bitvec": {"width": 32}}, heaps=2)
    )
    assert big.status == "unknown"


def test_xor_lemma_is_proved_at_several_widths() -> None:
    c = claim(
        "identity",
        None,
        "implies(k < (x ^ y), (k ^ y) < x or (k ^ x) < y)",
        {"z3_bitvec": {"widths": [8, 16, 64]}},
        variables=("k", "x", "y"),
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.width == 64


def test_misere_nim_rule_is_proved_with_its_witness() -> None:
    rule = "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0"
    c = claim(
        "p_positions",
        "misere:nim",
        rule,
        {"exhaustive": {"max_heap": 7}, "z3_bitvec": {"width": 16}},
        heaps=3,
        witness="misere-nim",
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.width == 16
    assert [m.status for m in v.methods] == ["checked", "checked"]


def test_staircase_rule_is_proved_on_total_coins() -> None:
    c = claim(
        "p_positions",
        "staircase",
        "xor(h[::2]) == 0",
        {"exhaustive": {"max_total": 12}, "z3_bitvec": {"width": 12}},
        heaps=4,
        witness="staircase",
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.measure == "total"


def test_moore_rule_is_proved_with_the_greedy_witness() -> None:
    c = claim(
        "p_positions",
        "moore:2",
        "all(colsum(h, b) % 3 == 0 for b in bits)",
        {"exhaustive": {"max_heap": 7}, "z3_bitvec": {"width": 12}},
        heaps=4,
        witness="moore",
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.width == 12


def test_half_heap_rule_is_proved_with_a_targeted_witness() -> None:
    witness = "(v << (bit_length(n) - bit_length(v) + j - 2)) | ((1 << (bit_length(n) - bit_length(v) + j - 3)) - 1)"
    c = claim(
        "grundy",
        "half-heap",
        "n >> (trailing_ones(n) + 1)",
        {"z3_bitvec": {"width": 12, "witness_candidates": 5}},
        witness=witness,
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.width == 12


def test_kayles_period_is_proved_for_all_n_by_guy_smith() -> None:
    c = claim(
        "periodic", "kayles", None, {"periodicity": {}}, period=12, preperiod=71, id="kayles-period"
    )
    v = verify_claim(c)
    assert v.status == "proved" and v.scope.kind == "all"
    assert "Guy" in v.methods[0].detail


def test_sprague_grundy_sum_is_checked_by_direct_mex() -> None:
    c = claim(
        "sum_rule",
        None,
        None,
        {"exhaustive": {"max_heap": 6}},
        components=("knim:3", "half-heap", "kayles"),
        id="sg-sum",
    )
    v = verify_claim(c)
    assert v.status == "checked" and v.scope.bound == 6


def test_a_witness_that_names_illegal_moves_cannot_prove_anything() -> None:
    # The witness moves to heap n itself (not a legal move): condition 2 must not pass.
    c = claim("grundy", "nim", "n", {"z3_bitvec": {"width": 8}}, witness="n + j")
    v = verify_claim(c)
    assert v.status not in ("proved", "checked")
