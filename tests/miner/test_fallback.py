"""The sympy fallback: useful when it works, silent when it fails, never a crash."""

from __future__ import annotations

import time

import numpy as np
import pytest
import sympy
from miner_known import scalar_values

from nimproof.games import parse_spec
from nimproof.miner.guessers.fallback import Fallback, polynomial_formula, sympy_guesses, time_limit
from nimproof.miner.model import HeapTable


def _table(values: list[int]) -> HeapTable:
    return HeapTable(spec="test", game=parse_spec("nim"), values=np.asarray(values, dtype=np.int64))


def test_triangular_numbers_are_guessed_as_a_polynomial_that_predicts_the_rest():
    values = [n * (n + 1) // 2 for n in range(100)]
    guesses = Fallback().guess_point(_table(values))
    assert guesses
    for g in guesses:
        assert g.formula is not None and scalar_values(g.formula, 99) == values
        assert g.evidence.held_out == 100 - g.evidence.fitted


@pytest.mark.parametrize(
    "values",
    [
        [0] * 40,  # sympy raises on sequences of zeros
        [0, 1, 0, 2, 0, 1, 0, 3] * 5,
        [int(x) for x in np.random.default_rng(3).integers(0, 50, size=40)],
        [],
    ],
)
def test_sympy_failures_give_no_guess_and_no_exception(values):
    out = sympy_guesses(values)
    assert isinstance(out, list)


def test_a_zero_table_is_still_explained_or_ignored_without_error():
    for g in Fallback().guess_point(_table([0] * 50)):
        assert g.formula is not None and scalar_values(g.formula, 49) == [0] * 50


def test_time_limit_interrupts_long_python_code():
    start = time.monotonic()
    with pytest.raises(TimeoutError), time_limit(0.2):
        while True:
            sum(range(1000))
    assert time.monotonic() - start < 2


def test_polynomials_with_rational_coefficients_are_written_with_floor_division():
    n = sympy.Symbol("n")
    text = polynomial_formula(n**2 / 2 + n / 2, n)
    assert text == "(n ** 2 + n) // 2"
    assert polynomial_formula(sympy.sqrt(n), n) is None
    assert polynomial_formula(2**n, n) is None


def test_time_limit_never_fires_inside_a_garbage_collector_callback():
    import gc

    calls = []

    def gc_callback(phase, info):
        calls.append(phase)
        end = time.monotonic() + 0.05
        while time.monotonic() < end:  # the alarm falls due while this callback runs
            pass

    gc.callbacks.append(gc_callback)
    start = time.monotonic()
    try:
        with pytest.raises(TimeoutError), time_limit(0.01):
            gc.collect()  # runs the callback; the limit must still interrupt afterwards
            while time.monotonic() - start < 3:  # a lost limit ends here, without TimeoutError
                sum(range(1000))
    finally:
        gc.callbacks.remove(gc_callback)
    assert calls
