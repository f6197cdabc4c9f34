"""The periodicity windows and the periodic-table reduction on true claims.

The windows of :mod:`nimproof.theory.periodicity` are tested against
long reference tables: whenever a window's finite check passes for some
``(p, n0, s)``, the relation must hold on the whole table (a window that is
too short would pass a relation that fails later). The false claims are in
the shared suite (``false_claims.py``), run through every method.
"""

from __future__ import annotations

import numpy as np
import pytest

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.provers import verify_claim
from nimproof.provers.periodic_table import proved_periodicity
from nimproof.theory.periodicity import find_periodicity, theorem_for
from tests.provers.false_claims import DAWSON_P
from tests.provers.helpers import assert_refutation_holds, claim


def _window_passes(table: np.ndarray, game: object, p: int, n0: int, s: int) -> bool | None:
    theorem = theorem_for(game, p, n0, s)  # type: ignore[arg-type]
    if theorem is None or theorem.needs > len(table):
        return None
    if any(table[n + p] != table[n] + s for n in range(n0, theorem.end)):
        return False
    return theorem.side is None or theorem.side(table) is None


@pytest.mark.parametrize(
    "excluded", ["1", "2", "1,2", "1,3", "2,5", "1,2,3,4", "3,4", "2,3,6,8", "1,4,5"]
)
def test_all_but_window_never_passes_a_relation_that_fails_later(excluded: str) -> None:
    game = parse_spec(f"subtraction:all-but:{excluded}")
    table = np.array(reference.heap_table(game, 500))
    passed = 0
    for p in range(1, 13):
        for n0 in range(0, 46, 3):
            for s in range(0, 6):
                if _window_passes(table, game, p, n0, s):
                    passed += 1
                    assert all(table[n + p] == table[n] + s for n in range(n0, len(table) - p))
    assert passed > 0  # the true periodicity itself passes


@pytest.mark.parametrize("code", ["4.7", "4.07", "4.37", "4.007", "0.f", "0.48", "8.1", "0.c"])
def test_splitting_window_never_passes_a_relation_that_fails_later(code: str) -> None:
    game = parse_spec(f"octal:{code}")
    table = np.array(reference.heap_table(game, 260))
    for p in range(1, 13):
        for n0 in range(0, 15):
            if _window_passes(table, game, p, n0, 0):
                assert all(table[n + p] == table[n] for n in range(n0, len(table) - p))


def test_theorems_apply_only_where_their_hypotheses_hold() -> None:
    assert theorem_for(parse_spec("half-heap"), 1, 0, 0) is None  # type: ignore[arg-type]
    assert theorem_for(parse_spec("subtraction:squares"), 2, 0, 0) is None  # type: ignore[arg-type]
    assert theorem_for(parse_spec("knim:3"), 4, 0, 1) is None  # type: ignore[arg-type]
    assert theorem_for(parse_spec("octal:4.7"), 2, 1, 1) is None  # type: ignore[arg-type]
    assert isinstance(proved_periodicity(parse_spec("octal:0.007")), str)  # type: ignore[arg-type]


def test_find_periodicity_sees_kayles_and_all_but() -> None:
    kayles = np.array(reference.heap_table(parse_spec("kayles"), 400))
    assert find_periodicity(kayles) == (12, 71, 0)
    all_but = np.array(reference.heap_table(parse_spec("subtraction:all-but:2,5"), 200))
    assert find_periodicity(all_but) == (4, 0, 2)


TRUE_ONE_HEAP = [
    ("p_positions", "kayles", "h[0] == 0", 1),
    ("p_positions", "dawsons-kayles", DAWSON_P, 1),
    ("grundy", "subtraction:all-but:1,2", "n // 3", None),
    ("grundy", "subtraction:all-but:1,3", "n // 2", None),
    ("grundy", "subtraction:all-but:2,5", "2 * (n // 4) + n % 2", None),
    ("grundy", "nim", "n", None),
    ("grundy", "knim:3", "n % 4", None),
    ("grundy", "octal:4.7", "0 if n == 0 else 2 - n % 2", None),
    ("p_positions", "sum:knim:3+knim:5", "h[0] % 4 == h[1] % 6", 2),
    ("p_positions", "knim:2", "h[0] % 3 == h[1] % 3", 2),
    ("p_positions", "sum:octal:4.7+knim:2", "h[1] % 3 == (0 if h[0] == 0 else 2 - h[0] % 2)", 2),
]


@pytest.mark.parametrize("kind,game,formula,heaps", TRUE_ONE_HEAP)
def test_reduction_proves_true_claims_for_all_positions(
    kind: str, game: str, formula: str, heaps: int | None
) -> None:
    c = claim(kind, game, formula, {"periodic_table": {}}, heaps=heaps)
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "proved", verdict
    assert verdict.scope.kind == "all"
    # Strongest first: the automata method may prove it before the reduction runs.
    ours = [m for m in verdict.methods if m.method == "periodic_table"]
    assert all(m.status == "proved" and "periodic-table reduction" in m.detail for m in ours)


def test_sum_rule_by_composition_needs_every_splitting_part_periodic() -> None:
    ok = claim("sum_rule", None, None, {"periodic_table": {}}, components=("knim:3", "kayles"))
    assert verify_claim(ok).scope.kind == "all"
    bad = claim(
        "sum_rule", None, None, {"periodic_table": {}}, components=("octal:0.007", "octal:0.007")
    )
    verdict = verify_claim(bad)
    assert verdict.status == "unknown"
    assert any("no proved period" in m.detail for m in verdict.methods)


def test_misere_claims_are_left_to_other_methods() -> None:
    c = claim("p_positions", "misere:kayles", "h[0] == 1", {"periodic_table": {}}, heaps=1)
    # Only the periodic-table method runs here (the misère-quotient method would decide it).
    assert verify_claim(c, only_named=True).status == "unknown"


#: False claims whose first counterexample lies beyond what a bounded check looks at:
#: (kind, game, formula, heaps, the counterexample's first heap).
FAR_FALSE = [
    ("grundy", "subtraction:all-but:1,2", "n // 3 + (1 if n == 500 else 0)", None, 500),
    ("grundy", "subtraction:all-but:1,3", "n // 2 if n < 700 else n // 2 + 1", None, 700),
    ("grundy", "nim", "n if n < 400 else n + 1", None, 400),
    ("p_positions", "kayles", "h[0] == 0 or h[0] == 150", 1, 150),
    ("p_positions", "dawsons-kayles", DAWSON_P.replace(" or h[0] == 35", ""), 1, 35),
    ("p_positions", "dawsons-kayles", DAWSON_P + " or h[0] == 137", 1, 137),
    ("p_positions", "sum:knim:3+knim:5", "h[0] % 4 == h[1] % 6 or h[0] == 300", 2, 300),
]


@pytest.mark.parametrize("kind,game,formula,heaps,first", FAR_FALSE)
def test_reduction_refutes_far_counterexamples_with_a_recheck(
    kind: str, game: str, formula: str, heaps: int | None, first: int
) -> None:
    c = claim(kind, game, formula, {"periodic_table": {}}, heaps=heaps)
    verdict = verify_claim(c, timeout=120)
    assert verdict.status == "refuted", verdict
    cx = verdict.counterexample
    assert cx is not None and cx.rechecked
    position = cx.position if isinstance(cx.position, int) else cx.position[0]
    assert position >= first - 6
    if isinstance(cx.position, int) or heaps == 1:
        assert_refutation_holds(c, verdict)
