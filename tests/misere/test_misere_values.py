"""Misère nim-values of heaps read from a quotient joined with nim heaps, against the plain evaluation."""

from __future__ import annotations

import pytest

from nimproof.engines.heap import MisereHeaps
from nimproof.errors import UsageError
from nimproof.games.registry import parse_spec
from nimproof.misere.values import MisereValues, misere_values


def _plain(spec: str, n_max: int) -> list[int]:
    game = parse_spec(spec)
    evaluator = MisereHeaps(game.normal if game.misere else game)
    return [evaluator.value((n,)) for n in range(n_max + 1)]


@pytest.mark.parametrize(("spec", "nim"), [("octal:0.52", 3), ("octal:0.71", 2), ("octal:0.31", 3)])
def test_values_agree_with_the_plain_evaluation_and_reach_every_heap(spec: str, nim: int) -> None:
    v = misere_values(spec, nim)
    assert v.proved_all and v.period is not None
    assert v.values(40) == _plain(spec, 40)
    n0, p = v.period
    # Far heaps take the value of their residue (the period is proved for every heap).
    assert v.value(10**6) == v.value(n0 + (10**6 - n0) % p)
    assert len(v.values(10_000)) == 10_001


def test_a_value_above_the_joined_nim_heaps_is_reported_not_guessed() -> None:
    v = misere_values("octal:0.71", 1)
    plain = _plain("octal:0.71", 30)
    for n in range(31):
        if plain[n] <= 1:
            assert v.value(n) == plain[n]
        else:
            with pytest.raises(UsageError, match=f"heap {n} of octal:0.71 is above 1"):
                v.value(n)


def test_kayles_stops_where_the_joined_quotient_passes_its_budget() -> None:
    v = misere_values("kayles", 8, max_order=200)
    assert not v.proved_all and v.heaps < 40
    assert v.stopped.startswith(f"budget reached at heap {v.heaps + 1}: a candidate passed 200")
    assert v.values(v.heaps) == _plain("kayles", v.heaps)
    with pytest.raises(UsageError, match=f"known only for heaps <= {v.heaps}"):
        v.value(v.heaps + 1)


@pytest.mark.parametrize("bad", [0, 17])
def test_absurd_nim_heap_counts_are_refused(bad: int) -> None:
    with pytest.raises(UsageError):
        misere_values("kayles", bad)


def test_kayles_values_up_to_3_are_decided_for_every_heap_and_agree_with_the_exact_evaluation() -> (
    None
):
    v = misere_values("kayles", 3)
    assert v.proved_all and v.monoid.order == 40
    plain = _plain("kayles", 45)
    for n, exact in enumerate(plain):
        if exact <= 3:
            assert v.value(n) == exact, n
        else:  # the lemma proves g >= 4: no *k with k <= 3 makes a P-position
            with pytest.raises(UsageError, match="above 3"):
                v.value(n)
    # Far heaps: decided or not as their residue is (the period is proved for every heap).
    assert v.period is not None
    n0, p = v.period
    for n in (10_000, 10**9 + 7):
        assert _decided(v, n) == _decided(v, n0 + (n - n0) % p)


def _decided(v: MisereValues, n: int) -> int | None:
    try:
        return v.value(n)
    except UsageError:
        return None
