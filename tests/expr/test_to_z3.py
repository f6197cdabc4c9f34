"""z3 back ends: wherever the guards hold, the compiled term is the formula's exact value."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
import z3
from expr_strategies import SCALARS, SEQUENCES, formulas
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from nimproof.errors import EvalError
from nimproof.expr import evaluate, free_names, parse, to_z3
from nimproof.expr.nodes import Node
from nimproof.expr.to_z3 import Compiled, Unsupported, compile_bv, compile_int

# the module, not the function that nimproof.expr re-exports under the same name
evaluate_module: Any = importlib.import_module("nimproof.expr.evaluate")

# -- helpers ---------------------------------------------------------------------------


def bv_env(width: int, length: int) -> dict[str, Any]:
    env: dict[str, Any] = {name: z3.BitVec(name, width) for name in SCALARS}
    env["h"] = [z3.BitVec(f"h{i}", width) for i in range(length)]
    return env


def int_env(length: int) -> dict[str, Any]:
    env: dict[str, Any] = {name: z3.Int(name) for name in SCALARS}
    env["h"] = [z3.Int(f"h{i}") for i in range(length)]
    return env


def at(expr: Any, symbols: Mapping[str, Any], values: Mapping[str, Any]) -> Any:
    """``expr`` with the symbols replaced by the values, simplified to a literal."""
    pairs = []
    for name, sym in symbols.items():
        if isinstance(sym, list):
            pairs += [(s, _literal(s, v)) for s, v in zip(sym, values[name], strict=True)]
        else:
            pairs.append((sym, _literal(sym, values[name])))
    out = z3.simplify(z3.substitute(expr, *pairs)) if pairs else z3.simplify(expr)
    if z3.is_true(out):
        return True
    if z3.is_false(out):
        return False
    if z3.is_bv_value(out) or z3.is_int_value(out):
        return out.as_long()
    raise AssertionError(f"did not simplify to a literal: {out}")


def _literal(sym: Any, value: int) -> Any:
    return z3.BitVecVal(value, sym.size()) if z3.is_bv(sym) else z3.IntVal(value)


def guards_hold(compiled: Compiled, symbols: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    return all(at(g, symbols, values) is True for g in compiled.guards)


def model_where_guards_hold(
    compiled: Compiled, symbols: Mapping[str, Any], hints: Mapping[str, Any]
) -> dict[str, Any] | None:
    """Values (near ``hints`` when possible) at which every guard holds, found by z3."""
    solver = z3.Solver()
    solver.set(timeout=2_000)
    solver.add(compiled.condition)
    flat = [
        (name, sym, hint)
        for name, sym in symbols.items()
        if not isinstance(sym, list)
        for hint in [hints[name]]
    ]
    for name, seq in symbols.items():
        if isinstance(seq, list):
            flat += [(name, s, v) for s, v in zip(seq, hints[name], strict=True)]
    # Prefer the hinted values for half of the variables, so that models vary between examples.
    preferred = [sym == _literal(sym, v) for i, (_, sym, v) in enumerate(flat) if i % 2 == 0]
    result = solver.check(*preferred)
    if result != z3.sat:
        result = solver.check()
    if result != z3.sat:
        return None
    model = solver.model()
    out: dict[str, Any] = {}
    for name, sym in symbols.items():
        if isinstance(sym, list):
            out[name] = tuple(model.eval(s, model_completion=True).as_long() for s in sym)
        else:
            out[name] = model.eval(sym, model_completion=True).as_long()
    return out


def valid(claim: Any) -> bool:
    """True when z3 proves ``claim`` for every value of its variables."""
    solver = z3.Solver()
    solver.set(timeout=10_000)
    solver.add(z3.Not(claim))
    return solver.check() == z3.unsat


@contextmanager
def traced_ints() -> Iterator[list[int]]:
    """Record every integer value the scalar evaluation computes (all recursion goes
    through the exact back end's ``walk``)."""
    seen: list[int] = []
    exact = evaluate_module._Exact
    original = exact.walk

    def tracing(self: Any, node: Any, env: Any) -> Any:
        value = original(self, node, env)
        if getattr(node, "type", None) == "int":
            seen.append(int(value))
        return value

    exact.walk = tracing  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        exact.walk = original  # type: ignore[method-assign]


def compile_text(text: str, width: int | None, **env: Any) -> Compiled:
    scalars = [k for k, v in env.items() if not isinstance(v, list)]
    sequences = [k for k, v in env.items() if isinstance(v, list)]
    node = parse(text, scalars, sequences)
    return compile_int(node, env) if width is None else compile_bv(node, env, width)


def bv_value(text: str, width: int, **values: int) -> tuple[Any, bool]:
    """Compile over fresh BitVec variables, then return (value, guards hold) at ``values``."""
    symbols = {name: z3.BitVec(name, width) for name in values}
    compiled = compile_text(text, width, **symbols)
    return at(compiled.term, symbols, values), guards_hold(compiled, symbols, values)


# -- property tests --------------------------------------------------------------------


def check_bv(
    text: str, width: int, length: int, data: st.DataObject, points: int = 6, models: int = 2
) -> None:
    """The BitVec contract for ``text`` at random points and at z3-found points."""
    node = parse(text, SCALARS, SEQUENCES)
    symbols = bv_env(width, length)
    try:
        compiled = compile_bv(node, symbols, width)
    except Unsupported:
        reject()  # only constants too wide for the width
    top = (1 << width) - 1
    value = st.one_of(st.integers(0, 6), st.integers(top // 2, top), st.integers(0, top))
    for i in range(points):
        values: dict[str, Any] = {name: data.draw(value) for name in SCALARS}
        values["h"] = tuple(data.draw(value) for _ in range(length))
        with traced_ints() as seen:
            try:
                expected: Any = evaluate_module.evaluate(node, values)
            except EvalError:
                expected = None
        hold = guards_hold(compiled, symbols, values)
        if hold:
            assert expected is not None, (
                text,
                values,
                "guards hold where the formula is undefined",
            )
            assert at(compiled.term, symbols, values) == expected, (text, values)
        if expected is not None and all(0 <= v < (1 << width) for v in seen):
            assert hold, (text, values, "a guard fails though every value fits")
        # Random values often break some guard; z3 finds values near them where all hold.
        if i < models:
            found = model_where_guards_hold(compiled, symbols, values)
            if found is not None:
                assert at(compiled.term, symbols, found) == evaluate(node, found), (text, found)


def check_int(
    text: str, length: int, data: st.DataObject, points: int = 6, models: int = 2
) -> None:
    """The Int contract for ``text``: guards hold exactly where it is defined, and it is exact there."""
    node = parse(text, SCALARS, SEQUENCES)
    symbols = int_env(length)
    compiled = compile_int(node, symbols)
    for i in range(points):
        values: dict[str, Any] = {name: data.draw(st.integers(-6, 12)) for name in SCALARS}
        values["h"] = tuple(data.draw(st.integers(-6, 12)) for _ in range(length))
        try:
            expected: Any = evaluate(node, values)
        except EvalError:
            expected = None
        assert guards_hold(compiled, symbols, values) == (expected is not None), (text, values)
        if expected is not None:
            assert at(compiled.term, symbols, values) == expected, (text, values)
        if i < models:
            found = model_where_guards_hold(compiled, symbols, values)
            if found is not None:
                assert at(compiled.term, symbols, found) == evaluate(node, found), (text, found)


# One operation at a time, on small random operands: every operation gets tested often.
# (Operands bind their own loop variables v0, v1, ...; the templates use t.)
OPERATIONS = [
    "({a} + {b})",
    "({a} - {b})",
    "({a} * {b})",
    "({a} // {b})",
    "({a} % {b})",
    "({a} ** 2)",
    "({a} ** 3)",
    "(-{a})",
    "abs({a})",
    "ceil_div({a}, {b})",
    "min({a}, {b})",
    "max({a}, {b})",
    "h[{a}]",
    "sum({a} for t in h)",
    "count({a} < {b} for t in h)",
    "max(h)",
    "min({a} for t in h)",
    "({a} < {b} <= {c})",
    "({a} < {b} and {b} // {c} > 0)",
    "({a} == 0 or {b} % {a} == 1)",
    "({a} if {b} > {c} else {b} - {c})",
    "all({a} // t > 0 for t in h)",
    "any(t - {a} > 0 for t in h)",
    "sum(h[t] for t in range({k}))",
    "len(h[1:]) - {a}",
]
BIT_OPERATIONS = [
    "({a} & {b})",
    "({a} | {b})",
    "({a} ^ {b})",
    "({a} << {b})",
    "({a} << {k})",
    "({a} >> {b})",
    "popcount({a})",
    "trailing_ones({a})",
    "trailing_zeros({a})",
    "bit_length({a})",
    "bit({a}, {b})",
    "colsum(h, {a})",
    "sum(t & {k} for t in h)",
    "sum((t >> {a}) & 3 for t in h)",
    "sum(popcount(t) for t in h)",
    "sum(({a} & 1 if t > {a} else t) for t in h)",
    "xor(h)",
    "xor({a} for t in h[::2])",
    "any(({a} >> t) == 0 for t in bits)",
    "all(({a} >> t) < {b} for t in bits)",
    "max(({a} >> t) & {b} for t in bits)",
    "min(({a} >> t) ^ 1 for t in bits)",
]


def exhaustive_points(node: Node, values: range) -> Iterator[dict[str, Any]]:
    """Every assignment of ``values`` to the scalars the formula uses and to two heaps."""
    names = sorted(free_names(node) - {"h"})
    length = 2 if "h" in free_names(node) else 0
    for combo in itertools.product(values, repeat=len(names) + length):
        point: dict[str, Any] = dict(zip(names, combo, strict=False))
        point["h"] = tuple(combo[len(names) :])
        yield point


def operation(template: str) -> Node:
    return parse(template.format(a="n", b="m", c="k", k=2), ["n", "m", "k"], SEQUENCES)


@pytest.mark.parametrize("template", OPERATIONS + BIT_OPERATIONS)
def test_each_operation_is_exact_at_small_widths_for_every_value(template: str) -> None:
    node = operation(template)
    # width 2 (values 0..3), and width 3 (values 0..7) when few variables are involved
    widths = [2, 3] if len(free_names(node)) <= 2 else [2]
    for width in widths:
        symbols: dict[str, Any] = {name: z3.BitVec(name, width) for name in ("n", "m", "k")}
        symbols["h"] = [z3.BitVec(f"h{i}", width) for i in range(2)]
        compiled = compile_bv(node, symbols, width)
        for values in exhaustive_points(node, range(1 << width)):
            point = {name: values.get(name, 0) for name in ("n", "m", "k")} | {
                "h": values["h"] or (0, 0)
            }
            with traced_ints() as seen:
                try:
                    expected: Any = evaluate_module.evaluate(node, point)
                except EvalError:
                    expected = None
            hold = at(compiled.condition, symbols, point)
            if hold:
                assert expected is not None, (template, width, point)
                assert at(compiled.term, symbols, point) == expected, (template, width, point)
            if expected is not None and all(0 <= v < (1 << width) for v in seen):
                assert hold, (template, width, point)


@pytest.mark.parametrize("template", OPERATIONS)
def test_each_operation_is_exact_in_int_mode_for_every_small_value(template: str) -> None:
    node = operation(template)
    symbols: dict[str, Any] = {name: z3.Int(name) for name in ("n", "m", "k")}
    symbols["h"] = [z3.Int(f"h{i}") for i in range(2)]
    compiled = compile_int(node, symbols)
    values = range(-3, 4) if len(free_names(node)) <= 2 else range(-2, 3)
    for assignment in exhaustive_points(node, values):
        point = {name: assignment.get(name, 0) for name in ("n", "m", "k")}
        point["h"] = assignment["h"] or (0, 0)
        try:
            expected: Any = evaluate(node, point)
        except EvalError:
            expected = None
        assert at(compiled.condition, symbols, point) == (expected is not None), (template, point)
        if expected is not None:
            assert at(compiled.term, symbols, point) == expected, (template, point)


@st.composite
def single_operations(draw: st.DrawFn, templates: list[str], bitwise: bool) -> str:
    operand = formulas(bitwise=bitwise, negative_consts=not bitwise, result="int", depth=1)
    template = draw(st.sampled_from(templates))
    return template.format(
        a=draw(operand), b=draw(operand), c=draw(operand), k=draw(st.integers(0, 9))
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=single_operations(OPERATIONS + BIT_OPERATIONS, bitwise=True),
    width=st.sampled_from([8, 16]),
    length=st.integers(0, 3),
    data=st.data(),
)
def test_bitvec_operations_are_exact_where_the_guards_hold(
    text: str, width: int, length: int, data: st.DataObject
) -> None:
    check_bv(text, width, length, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.integers(2, 5).flatmap(lambda depth: formulas(negative_consts=False, depth=depth)),
    width=st.sampled_from([8, 16]),
    length=st.integers(0, 3),
    data=st.data(),
)
def test_bitvec_formulas_are_exact_where_the_guards_hold(
    text: str, width: int, length: int, data: st.DataObject
) -> None:
    check_bv(text, width, length, data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=single_operations(OPERATIONS, bitwise=False), length=st.integers(0, 3), data=st.data())
def test_int_operations_are_exact_and_guarded_exactly_where_defined(
    text: str, length: int, data: st.DataObject
) -> None:
    check_int(text, length, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.integers(2, 5).flatmap(lambda depth: formulas(bitwise=False, depth=depth)),
    length=st.integers(0, 3),
    data=st.data(),
)
def test_int_formulas_are_exact_and_guarded_exactly_where_defined(
    text: str, length: int, data: st.DataObject
) -> None:
    check_int(text, length, data)


# -- BitVec pitfalls ---------------------------------------------------------------------


def test_comparison_is_unsigned_at_the_sign_bit() -> None:
    assert bv_value("n < m", 8, n=200, m=100) == (False, True)
    assert bv_value("n > m", 8, n=200, m=100) == (True, True)
    assert bv_value("n >= 128", 8, n=255) == (True, True)


def test_division_and_modulo_are_unsigned_and_guarded() -> None:
    assert bv_value("n // m", 8, n=200, m=7) == (200 // 7, True)
    assert bv_value("n % m", 8, n=200, m=7) == (200 % 7, True)
    assert bv_value("ceil_div(n, m)", 8, n=200, m=7) == (-(-200 // 7), True)
    assert bv_value("n // m", 8, n=200, m=0)[1] is False
    assert bv_value("n % m", 8, n=200, m=0)[1] is False


@pytest.mark.parametrize("shift", [7, 8, 9, 200, 255])
def test_right_shift_by_the_width_or_more_is_zero_without_a_guard(shift: int) -> None:
    compiled = compile_text("n >> m", 8, n=z3.BitVec("n", 8), m=z3.BitVec("m", 8))
    assert compiled.guards == ()
    assert bv_value("n >> m", 8, n=255, m=shift) == (255 >> shift, True)


def test_left_shift_that_loses_bits_is_flagged_by_a_guard() -> None:
    assert bv_value("n << m", 8, n=1, m=7) == (128, True)
    assert bv_value("n << m", 8, n=0x81, m=1)[1] is False
    assert bv_value("n << m", 8, n=1, m=8)[1] is False
    assert bv_value("n << m", 8, n=0, m=200) == (0, True)


def test_subtraction_below_zero_is_flagged_by_a_guard() -> None:
    assert bv_value("n - m", 8, n=5, m=3) == (2, True)
    assert bv_value("n - m", 8, n=3, m=5)[1] is False
    assert bv_value("-n", 8, n=0) == (0, True)
    assert bv_value("-n", 8, n=1)[1] is False


def test_overflowing_addition_multiplication_and_power_are_flagged() -> None:
    assert bv_value("n + m", 8, n=200, m=55) == (255, True)
    assert bv_value("n + m", 8, n=200, m=56)[1] is False
    assert bv_value("n * m", 8, n=15, m=17) == (255, True)
    assert bv_value("n * m", 8, n=16, m=16)[1] is False
    assert bv_value("n ** 2", 8, n=15) == (225, True)
    assert bv_value("n ** 2", 8, n=16)[1] is False
    assert bv_value("n ** 5", 16, n=9) == (9**5, True)
    assert bv_value("n ** 0", 8, n=0) == (1, True)


def test_sum_and_count_are_exact_or_flagged_when_they_overflow() -> None:
    h = [z3.BitVec(f"h{i}", 8) for i in range(3)]
    compiled = compile_bv(parse("sum(h)", [], ["h"]), {"h": h}, 8)
    assert at(compiled.term, {"h": h}, {"h": (100, 100, 55)}) == 255
    assert guards_hold(compiled, {"h": h}, {"h": (100, 100, 55)})
    assert not guards_hold(compiled, {"h": h}, {"h": (100, 100, 56)})
    # four heaps at width 2: the count 4 does not fit
    h2 = [z3.BitVec(f"g{i}", 2) for i in range(4)]
    counted = compile_bv(parse("count(x == 0 for x in h)", [], ["h"]), {"h": h2}, 2)
    assert at(counted.term, {"h": h2}, {"h": (0, 0, 0, 1)}) == 3
    assert guards_hold(counted, {"h": h2}, {"h": (0, 0, 0, 1)})
    assert not guards_hold(counted, {"h": h2}, {"h": (0, 0, 0, 0)})


def test_short_circuit_guards_only_apply_where_the_operand_is_evaluated() -> None:
    for text in (
        "m > 0 and n // m == 2",
        "m == 0 or n // m == 2",
        "(n // m == 2) if m != 0 else True",
        "m > 0 > n // m",
        "m > 0 and n % m > 0",
    ):
        compiled = compile_text(text, 8, n=z3.BitVec("n", 8), m=z3.BitVec("m", 8))
        assert compiled.guards, text  # there is a division guard ...
        assert valid(compiled.condition), text  # ... and it always holds


def test_all_and_any_bodies_after_the_decision_are_not_guarded() -> None:
    h = [z3.BitVec(f"h{i}", 8) for i in range(3)]
    node = parse("all(x > 0 and 12 // x > 1 for x in h)", [], ["h"])
    compiled = compile_bv(node, {"h": h}, 8)
    assert valid(compiled.condition)
    node = parse("any(x == 0 or 12 // x > 1 for x in h)", [], ["h"])
    assert valid(compile_bv(node, {"h": h}, 8).condition)
    node = parse("all(12 // x > 1 for x in h)", [], ["h"])
    assert not valid(compile_bv(node, {"h": h}, 8).condition)


def test_bits_includes_the_position_at_the_width() -> None:
    # 255 >> b is never 0 for b < 8, but the numeric meaning ranges over b = 0..63.
    assert evaluate(parse("any(n >> b == 0 for b in bits)", ["n"]), {"n": 255}) is True
    assert bv_value("any(n >> b == 0 for b in bits)", 8, n=255) == (True, True)
    assert bv_value("min(n >> b for b in bits)", 8, n=255) == (0, True)


def test_colsum_claim_holds_exactly_for_zero_xor_in_bitvec() -> None:
    # Independent fact: the column sums are all even exactly when the xor is 0.
    h = [z3.BitVec(f"h{i}", 6) for i in range(3)]
    columns = compile_bv(parse("all(colsum(h, b) % 2 == 0 for b in bits)", [], ["h"]), {"h": h}, 6)
    xor = compile_bv(parse("xor(h) == 0", [], ["h"]), {"h": h}, 6)
    assert valid(z3.Implies(z3.And(columns.condition, xor.condition), columns.term == xor.term))


@pytest.mark.parametrize("width", [1, 3, 8])
def test_bit_functions_agree_with_independent_definitions_at_every_value(width: int) -> None:
    x = z3.BitVec("x", width)
    compiled = {
        f: compile_bv(parse(f"{f}(x)", ["x"]), {"x": x}, width).term
        for f in ("popcount", "trailing_ones", "trailing_zeros", "bit_length")
    }
    for value in range(1 << width):
        bits = format(value, f"0{width}b")
        expect = {
            "popcount": bits.count("1"),
            "trailing_ones": len(bits) - len(bits.rstrip("1")),
            "trailing_zeros": (len(bits) - len(bits.rstrip("0"))) if value else 0,
            "bit_length": len(bits.lstrip("0")),
        }
        for f, term in compiled.items():
            assert at(term, {"x": x}, {"x": value}) == expect[f], (f, value)


def test_index_with_a_symbolic_position_is_guarded_by_the_length() -> None:
    h = [z3.BitVec(f"h{i}", 8) for i in range(3)]
    i = z3.BitVec("i", 8)
    compiled = compile_bv(parse("h[i]", ["i"], ["h"]), {"i": i, "h": h}, 8)
    symbols = {"i": i, "h": h}
    assert at(compiled.term, symbols, {"i": 2, "h": (4, 5, 6)}) == 6
    assert guards_hold(compiled, symbols, {"i": 2, "h": (4, 5, 6)})
    assert not guards_hold(compiled, symbols, {"i": 3, "h": (4, 5, 6)})


def test_python_int_parameters_are_folded_into_constants() -> None:
    n = z3.BitVec("n", 8)
    compiled = compile_text("n % (k + 1) == 0", 8, n=n, k=3)
    assert compiled.guards == ()
    assert valid(compiled.term == (z3.URem(n, 4) == 0))
    h = [z3.BitVec(f"h{i}", 8) for i in range(4)]
    stepped = compile_bv(parse("xor(h[i] for i in range(0, len(h), 2))", [], ["h"]), {"h": h}, 8)
    assert stepped.guards == ()
    assert valid(stepped.term == h[0] ^ h[2])


def test_constants_that_do_not_fit_the_width_are_unsupported() -> None:
    with pytest.raises(Unsupported, match="does not fit"):
        compile_text("n + 300", 8, n=z3.BitVec("n", 8))
    with pytest.raises(Unsupported, match="does not fit"):
        compile_text("n + k", 8, n=z3.BitVec("n", 8), k=-1)


def test_env_terms_of_the_wrong_sort_are_rejected() -> None:
    with pytest.raises(TypeError):
        compile_text("n + 1", 8, n=z3.BitVec("n", 16))
    with pytest.raises(TypeError):
        compile_text("n + 1", None, n=z3.BitVec("n", 8))


# -- Int mode --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "xor(h) == 0",
        "n & m",
        "n ^ m",
        "n << 1",
        "popcount(n)",
        "bit(n, 2)",
        "colsum(h, 0)",
        "all(n >> b == 0 for b in bits)",
        "trailing_ones(n)",
    ],
)
def test_int_mode_refuses_bitwise_formulas(text: str) -> None:
    with pytest.raises(Unsupported, match="uses bitwise operations; use z3_bitvec"):
        compile_text(text, None, n=z3.Int("n"), m=z3.Int("m"), h=[z3.Int("h0")])


@pytest.mark.parametrize(("a", "b"), [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, -3)])
def test_int_mode_division_and_modulo_follow_python_floor_semantics(a: int, b: int) -> None:
    symbols = {"a": z3.Int("a"), "b": z3.Int("b")}
    for text, expected in (("a // b", a // b), ("a % b", a % b), ("ceil_div(a, b)", -(-a // b))):
        compiled = compile_text(text, None, **symbols)
        assert guards_hold(compiled, symbols, {"a": a, "b": b})
        assert at(compiled.term, symbols, {"a": a, "b": b}) == expected, text
    for text in ("a // b", "a % b"):
        compiled = compile_text(text, None, **symbols)
        assert not guards_hold(compiled, symbols, {"a": a, "b": 0})


@pytest.mark.parametrize("k", [5, -3])
def test_int_mode_proves_the_floor_division_identity_for_all_integers(k: int) -> None:
    # Python guarantees n == (n // k) * k + n % k, with n % k between 0 and k (language reference).
    n = z3.Int("n")
    compiled = compile_text("n == (n // k) * k + n % k and 0 <= n % k * k < k * k", None, n=n, k=k)
    assert compiled.guards == ()
    assert valid(compiled.term)
    ceil = compile_text(
        "ceil_div(n, k) * k >= n if k > 0 else ceil_div(n, k) * k <= n", None, n=n, k=k
    )
    assert valid(ceil.term)


def test_too_large_unrolling_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(to_z3, "MAX_TERMS", 2_000)
    node = parse("all(all(n + i + j >= 0 for j in range(40)) for i in range(40))", ["n"])
    with pytest.raises(Unsupported, match="unrolls"):
        compile_int(node, {"n": z3.Int("n")})
