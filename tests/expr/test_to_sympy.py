"""Rendering formulas for reports: LaTeX, plain text and sympy."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
import sympy
from expr_strategies import SCALARS, SEQUENCES, formulas
from hypothesis import HealthCheck, given, settings

from nimproof.expr import parse
from nimproof.expr.nodes import Binary, Const, Node, Reduce, Var
from nimproof.expr.to_sympy import to_latex, to_sympy, to_text


def latex(text: str, scalars: tuple[str, ...] = ("n", "m", "k")) -> str:
    return to_latex(parse(text, scalars, ["h"]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("n % (k+1)", r"n \bmod (k + 1)"),
        ("xor(h) == 0", r"h_{0} \oplus h_{1} \oplus \dots = 0"),
        ("n >> (trailing_ones(n) + 1)", r"n \gg (\operatorname{trailing\_ones}(n) + 1)"),
        (
            "all(colsum(h, b) % (k+1) == 0 for b in bits)",
            r"\forall b \ge 0 \colon \operatorname{colsum}(h, b) \bmod (k + 1) = 0",
        ),
        ("xor(h[::2]) == 0", r"h_{0} \oplus h_{2} \oplus h_{4} \oplus \dots = 0"),
        ("xor(h[1::2]) == 0", r"h_{1} \oplus h_{3} \oplus h_{5} \oplus \dots = 0"),
        ("n // 2 + 3 * n - (m - 1)", r"\left\lfloor \frac{n}{2} \right\rfloor + 3 n - (m - 1)"),
        ("ceil_div(n, k)", r"\left\lceil \frac{n}{k} \right\rceil"),
        ("implies(n > 1, m > 1)", r"n > 1 \Rightarrow m > 1"),
        ("(n + 1) ** 2 <= m", r"(n + 1)^{2} \le m"),
        ("count(x == 1 for x in h) % 2 == 1", r"\#\{x \in h : x = 1\} \bmod 2 = 1"),
        ("sum(h) + 1", r"(h_{0} + h_{1} + \dots) + 1"),
        ("(n < 1) == (m < 1)", r"(n < 1) \Leftrightarrow (m < 1)"),
        ("all(x <= 1 for x in h) and n > 0", r"(\forall x \in h \colon x \le 1) \land n > 0"),
    ],
)
def test_common_claim_formulas_render_as_expected(text: str, expected: str) -> None:
    assert latex(text) == expected


def test_a_xor_comparison_claim_brackets_the_xor() -> None:
    assert (
        latex("(k ^ y) < x or (k ^ x) < y", ("k", "x", "y"))
        == r"(k \oplus y) < x \lor (k \oplus x) < y"
    )


def test_misere_predicate_renders_as_cases() -> None:
    text = "xor(h) != 0 if any(x > 1 for x in h) else count(x == 1 for x in h) % 2 == 0"
    assert latex(text) == (
        r"\begin{cases} h_{0} \oplus h_{1} \oplus \dots \ne 0 & \text{if } \exists x \in h \colon x > 1"
        r" \\ \#\{x \in h : x = 1\} \bmod 2 = 0 & \text{otherwise} \end{cases}"
    )


def test_a_tree_the_renderer_does_not_know_falls_back_to_plain_text() -> None:
    odd: Node = Binary(0, "int", "@@", Const(0, "int", 1), Const(0, "int", 2))
    assert to_latex(odd).startswith(r"\texttt{")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=formulas())
def test_latex_never_raises_and_is_deterministic(text: str) -> None:
    node = parse(text, SCALARS, SEQUENCES)
    first = to_latex(node)
    assert isinstance(first, str) and first
    assert r"\texttt" not in first  # every parseable formula has a proper rendering
    assert to_latex(parse(text, SCALARS, SEQUENCES)) == first
    assert first.count("{") - first.count(r"\{") == first.count("}") - first.count(r"\}")


def canonical(node: Node, names: dict[str, str] | None = None) -> Node:
    """``node`` with every loop variable renamed by its nesting depth (``sum(h)`` binds ``_x``,
    ``sum(v for v in h)`` binds ``v``: the same formula)."""
    names = names or {}
    if isinstance(node, Var):
        return replace(node, name=names.get(node.name, node.name))
    if isinstance(node, Reduce):
        fresh = f"#{len(names)}"
        return replace(node, var=fresh, body=canonical(node.body, {**names, node.var: fresh}))
    changes: dict[str, object] = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, Node):
            changes[f.name] = canonical(value, names)
        elif isinstance(value, tuple) and value and isinstance(value[0], Node):
            changes[f.name] = tuple(canonical(v, names) for v in value)
    return replace(node, **changes)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=formulas())
def test_plain_text_parses_back_to_the_same_tree(text: str) -> None:
    node = parse(text, SCALARS, SEQUENCES)
    assert canonical(parse(to_text(node), SCALARS, SEQUENCES)) == canonical(node)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=formulas())
def test_sympy_conversion_never_raises(text: str) -> None:
    expr = to_sympy(parse(text, SCALARS, SEQUENCES))
    assert isinstance(expr, sympy.Basic)
    assert isinstance(sympy.latex(expr), str)


def test_sympy_form_keeps_arithmetic_and_names_bitwise_operations() -> None:
    n, k = sympy.Symbol("n", integer=True), sympy.Symbol("k", integer=True)
    assert to_sympy(parse("n % (k + 1)", ["n", "k"])).doit() == sympy.Mod(n, k + 1)
    xor = to_sympy(parse("xor(h) == 0", [], ["h"]))
    assert isinstance(xor, sympy.Eq)
    assert str(xor.lhs) == "xor(h)"
    i = sympy.Symbol("i", integer=True)
    summed = to_sympy(parse("sum(h[i] for i in range(3))", [], ["h"]))
    assert isinstance(summed, sympy.Sum)
    assert summed.doit() == sum(sympy.IndexedBase("h")[j] for j in range(3))
    assert list(summed.variables) == [i]
