"""The misère-quotient proof method: all-positions proofs, and refutations far beyond any box."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nimproof.provers import verify_claim
from tests.conftest import claim
from tests.provers.false_claims import R8_TWO_HEAPS


def _verdict(
    game: str, formula: str, heaps: int, method: str = "misere_quotient", **options: int
) -> object:
    c = claim("p_positions", game, formula, {}, heaps=heaps, id="misere-quotient-test")
    return verify_claim(replace(c, checks={method: options}), timeout=120, only_named=True)


def test_the_r8_rule_is_proved_for_all_positions() -> None:
    v = _verdict("misere:octal:0.75", R8_TWO_HEAPS, 2)
    assert v.status == "proved" and v.scope.kind == "all"  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_rule_wrong_only_at_a_large_heap_is_refuted_there_and_rechecked() -> None:
    v = _verdict("misere:octal:0.75", R8_TWO_HEAPS + " or (h[0] == 40 and h[1] == 3)", 2)
    cx = v.counterexample  # type: ignore[attr-defined]
    assert v.status == "refuted" and cx is not None and cx.rechecked  # type: ignore[attr-defined]
    assert tuple(cx.position) == (40, 3)


def test_the_exhaustive_method_alone_does_not_reach_it() -> None:
    v = _verdict(
        "misere:octal:0.75", R8_TWO_HEAPS + " or (h[0] == 40 and h[1] == 3)", 2, "exhaustive"
    )
    assert v.status != "refuted"  # type: ignore[attr-defined]


def test_kayles_one_heap_p_positions_from_the_quotient() -> None:
    v = _verdict(
        "misere:kayles", "h[0] == 1 or h[0] == 4 or h[0] == 9 or h[0] == 12 or h[0] == 20", 1
    )
    assert v.status == "proved"  # type: ignore[attr-defined]
    v = _verdict("misere:kayles", "h[0] == 1 or h[0] == 4 or h[0] == 9 or h[0] == 12", 1)
    assert v.status == "refuted"  # type: ignore[attr-defined]


def test_a_game_without_a_proved_quotient_gives_unknown() -> None:
    v = _verdict("misere:dawsons-kayles", "h[0] == 2", 1, max_positions=30_000)
    assert v.status == "unknown"  # type: ignore[attr-defined]
