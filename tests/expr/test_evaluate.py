"""Numeric semantics: exact scalar evaluation, and the vectorised evaluation that must agree with it."""

from __future__ import annotations

import time

import numpy as np
import pytest
from expr_strategies import SCALARS, SEQUENCES, formulas
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from nimproof.errors import EvalError
from nimproof.expr import evaluate, evaluate_array, parse


def ev(text: str, **env: object) -> int | bool:
    scalars = [k for k, v in env.items() if not isinstance(v, tuple)]
    sequences = [k for k, v in env.items() if isinstance(v, tuple)]
    return evaluate(parse(text, scalars, sequences), env)


# -- known answers (Python's own integer semantics is the reference) --------------


@pytest.mark.parametrize(("a", "b"), [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (6, 3)])
def test_floor_division_and_modulo_follow_python(a: int, b: int) -> None:
    assert ev("a // b", a=a, b=b) == a // b
    assert ev("a % b", a=a, b=b) == a % b
    assert ev("floor_div(a, b)", a=a, b=b) == a // b
    assert ev("ceil_div(a, b)", a=a, b=b) == -(-a // b)


def test_reductions_over_heaps_match_python() -> None:
    h = (3, 5, 6, 0, 9)
    assert ev("xor(h)", h=h) == 3 ^ 5 ^ 6 ^ 0 ^ 9
    assert ev("xor(h[::2])", h=h) == 3 ^ 6 ^ 9
    assert ev("sum(h[1::2])", h=h) == 5 + 0
    assert ev("max(h) - min(h)", h=h) == 9
    assert ev("count(x > 4 for x in h)", h=h) == 3
    assert ev("colsum(h, 0)", h=h) == sum((x >> 0) & 1 for x in h)
    assert ev("colsum(h, 2)", h=h) == sum((x >> 2) & 1 for x in h)
    assert ev("xor(h[i] for i in range(0, len(h), 2))", h=h) == 3 ^ 6 ^ 9
    assert ev("len(h[1:])", h=h) == 4


def test_empty_max_and_min_are_zero_and_empty_all_is_true() -> None:
    assert ev("max(h)", h=()) == 0
    assert ev("min(h)", h=()) == 0
    assert ev("all(x > 100 for x in h)", h=()) is True
    assert ev("any(x > 100 for x in h)", h=()) is False


def test_bit_functions_match_independent_definitions() -> None:
    for x in range(300):
        ones = 0
        while (x >> ones) & 1:
            ones += 1
        zeros = 0
        while x and not (x >> zeros) & 1:
            zeros += 1
        assert ev("popcount(x)", x=x) == bin(x).count("1")
        assert ev("trailing_ones(x)", x=x) == ones
        assert ev("trailing_zeros(x)", x=x) == zeros
        assert ev("bit_length(x)", x=x) == len(bin(x)) - 2 if x else ev("bit_length(x)", x=x) == 0


def test_bits_ranges_over_every_position_of_the_values() -> None:
    assert ev("all(colsum(h, b) % 2 == 0 for b in bits)", h=(5, 3, 6)) is True
    assert ev("all(colsum(h, b) % 2 == 0 for b in bits)", h=(5, 3, 7)) is False
    assert ev("any(x >> b == 1 for b in bits)", x=1 << 63) is True
    # Beyond 2^64 too: a heap of 2^70 alone has an odd column, whatever its size.
    assert ev("any(x >> b == 1 for b in bits)", x=1 << 64) is True
    assert ev("all(colsum(h, b) % 2 == 0 for b in bits)", h=(1 << 70, 0)) is False
    assert ev("all(colsum(h, b) % 2 == 0 for b in bits)", h=(1 << 70, 1 << 70)) is True


@pytest.mark.parametrize(
    "text",
    [
        "n // 0",
        "n % (m - m)",
        "ceil_div(n, 0)",
        "(-1) & n",
        "n >> -1",
        "popcount(-n - 1)",
        "h[3]",
        "h[-4]",
        "xor(x - 5 for x in h)",
        "n << 5000",
    ],
)
def test_undefined_points_raise_eval_error(text: str) -> None:
    with pytest.raises(EvalError):
        ev(text, n=4, m=2, h=(1, 2, 3))


def test_only_the_evaluated_branch_needs_to_be_defined() -> None:
    assert ev("m > 0 and n // m == 2", n=4, m=0) is False
    assert ev("m == 0 or n // m == 2", n=4, m=0) is True
    assert ev("0 if m == 0 else n // m", n=4, m=0) == 0
    assert ev("m > 0 > n // m", n=4, m=0) is False
    assert ev("all(x > 0 and 12 // x > 1 for x in h)", h=(0, 0)) is False
    assert ev("len(h) > 5 and h[5] > 0", h=(1, 2)) is False


def test_absurd_powers_and_ranges_are_refused_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(EvalError):
        ev("(((((n ** 64) ** 64) ** 64) ** 64) ** 64) > 0", n=3)
    with pytest.raises(EvalError):
        ev("all(i >= 0 for i in range(1000000000000))")
    with pytest.raises(EvalError):
        ev(f"sum(i for i in range({2**200}))")
    assert time.perf_counter() - start < 5


def test_vectorised_constant_index_out_of_range_is_undefined_not_an_error() -> None:
    node = parse("len(h) > 2 and h[2] > 0", [], ["h"])
    values, undefined = evaluate_array(node, {"h": [np.arange(3), np.arange(3)]})
    assert not undefined.any()
    assert not values.any()


# -- the vectorised evaluation agrees with the scalar one ----------------------------

_OVERFLOW = ("int64 range", "shift too large for vectorised")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=formulas(),
    length=st.integers(0, 3),
    data=st.data(),
)
def test_vectorised_evaluation_agrees_with_scalar_evaluation(
    text: str, length: int, data: st.DataObject
) -> None:
    node = parse(text, SCALARS, SEQUENCES)
    points = 12
    small = st.integers(-3, 12)
    columns = {
        name: np.array(data.draw(st.lists(small, min_size=points, max_size=points)))
        for name in SCALARS
    }
    heaps = [
        np.array(data.draw(st.lists(small, min_size=points, max_size=points)))
        for _ in range(length)
    ]
    try:
        values, undefined = evaluate_array(node, {**columns, "h": heaps})
    except EvalError as exc:
        if any(s in str(exc) for s in _OVERFLOW):
            reject()  # documented: int64 overflow is refused, not wrapped
        raise
    for i in range(points):
        env = {name: int(col[i]) for name, col in columns.items()} | {
            "h": tuple(int(x[i]) for x in heaps)
        }
        try:
            expected = evaluate(node, env)
        except EvalError:
            assert undefined[i], (text, env)
            continue
        assert not undefined[i], (text, env)
        assert values[i] == expected, (text, env, values[i], expected)


def test_evaluate_each_is_evaluate_at_each_position() -> None:
    """The batch entry point gives what one evaluation per position gives, errors included."""
    from nimproof.expr.evaluate import evaluate_each  # the module's batch entry point

    node = parse("12 // (n - 3) + (n >> 1)", scalars=("n",))
    envs = [{"n": n} for n in range(8)]
    out = evaluate_each(node, envs)
    for env, got in zip(envs, out, strict=True):
        try:
            assert got == evaluate(node, env)
        except EvalError:
            assert isinstance(got, EvalError)
    assert isinstance(out[3], EvalError) and out[4] == 14
