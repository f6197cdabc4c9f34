"""The parser: a whitelist that refuses anything outside the language, pointing at the column."""

from __future__ import annotations

import pytest

from nimproof.errors import ExprError, UsageError
from nimproof.expr import evaluate, free_names, parse, uses_bitwise
from nimproof.expr.nodes import BitsDomain, Reduce

SCALARS = ["n", "m", "k"]
SEQUENCES = ["h"]


def refused(text: str) -> ExprError:
    with pytest.raises(ExprError) as info:
        parse(text, SCALARS, SEQUENCES)
    return info.value


# (text, 0-based column of the offending part or None for the whole text, part of the message)
HOSTILE = [
    ("__import__('os').system('x')", 0, "only built-in functions"),
    ("n + __import__('os')", 4, "unknown function '__import__'"),
    ("h.__class__", 0, "Attribute is not allowed"),
    ("n + h.__class__.__bases__", 4, "Attribute is not allowed"),
    ("(lambda: 1)()", 0, "only built-in functions"),
    ("n + (lambda: 1)", 5, "Lambda is not allowed"),
    ("all(x > 0 for x in h if x > 1)", 24, "'if' inside a generator"),
    ("[x for x in h]", 0, "ListComp is not allowed"),
    ("n + 'os'", 4, "constant 'os' is not allowed"),
    ("n + 1.5", 4, "constant 1.5 is not allowed"),
    ("n + 2j", 4, "is not allowed"),
    ("n + b'x'", 4, "is not allowed"),
    ("n + ~m", 4, "'~' is not allowed"),
    ("n / m", 0, "'/' is not allowed"),
    ("n @ m", 0, "MatMult is not allowed"),
    ("2 ** n", 5, "exponent of '**' must be a constant"),
    ("10 ** 10 ** 10", 6, "exponent of '**' must be a constant"),
    ("n ** 65", 5, "exponent of '**' must be a constant"),
    ("n + " + "9" * 100, 4, "wider than 256 bits"),
    ("q + 1", 0, "unknown name 'q'"),
    ("n + __builtins__", 4, "unknown name '__builtins__'"),
    ("foo(n)", 0, "unknown function 'foo'"),
    ("n + eval('1')", 4, "unknown function 'eval'"),
    ("open('f')", 0, "unknown function 'open'"),
    ("n + (m < 3)", 5, "the right side of '+' must be a number"),
    ("(m < 3) * 2", 1, "the left side of '*' must be a number"),
    ("not n", 4, "the operand of 'not' must be a true/false condition"),
    ("n and m > 1", 0, "each side of 'and'"),
    ("1 if n else 2", 5, "the condition of 'if'"),
    ("(n < 1) < m", 1, "'<' compares numbers"),
    ("(y := 3)", 1, "NamedExpr is not allowed"),
    ("max(*h)", 4, "'*' arguments are not allowed"),
    ("max(n, m, key=n)", 10, "keyword arguments are not allowed"),
    ("sum(b for b in bits)", 3, "sum(... for b in bits) is not allowed"),
    ("all(b > 0 for b in bits)", 4, "may only be used as a shift amount"),
    ("all(n >> (b + 1) > 0 for b in bits)", 4, "may only be used as a shift amount"),
    ("bits + 1", 0, "unknown name 'bits'"),
    ("len(bits)", 0, "len takes a sequence"),
    ("h", 0, "'h' is a sequence"),
    ("h[1:2]", 0, "a slice of h is only allowed inside"),
    ("h[n][0]", 0, "only a sequence variable"),
    ("n[0]", 0, "only a sequence variable"),
    ("h[n < 1]", 2, "an index must be a number"),
    ("sum(x for x in range(n))", 21, "range bounds may only use constants and len"),
    ("all(n > 0 for n in h)", 14, "loop variable 'n' hides another name"),
    ("all(x > 0 for x in h for y in h)", 3, "only one 'for'"),
    ("n in h", 0, "comparison In is not allowed"),
    ("n is m", 0, "comparison Is is not allowed"),
    ("(n, m)", 0, "Tuple is not allowed"),
    ("{n}", 0, "Set is not allowed"),
    ("f'{n}'", 0, "JoinedStr is not allowed"),
    ("n +", 3, "syntax error"),
    ("n + 1 +", 7, "syntax error"),
    ("n + (1", 4, "syntax error: '(' was never closed"),
    ("n = 1", 2, "syntax error"),
    ("count(x for x in h)", 6, "the body of count must be a true/false condition"),
    ("all(h)", 0, "needs a condition"),
    ("popcount(n, m)", 0, "popcount takes 1 argument"),
    ("h[::0]", 0, "a slice of h is only allowed inside"),
    ("xor(h[::0])", 4, "slice step cannot be zero"),
    ("xor(h[:10000000])", 7, "slice bounds must be small constants"),
    ("n\x00", None, "NUL"),
    ("", None, "empty formula"),
    ("   ", None, "empty formula"),
]


@pytest.mark.parametrize(("text", "column", "message"), HOSTILE)
def test_hostile_or_malformed_text_is_refused_at_the_right_column(
    text: str, column: int | None, message: str
) -> None:
    error = refused(text)
    assert isinstance(error, UsageError)
    assert message in error.bare_message
    assert error.position == column
    assert "\n" not in str(error)


def test_a_formula_of_ten_thousand_characters_is_refused() -> None:
    error = refused("n + " * 2500 + "n")
    assert "longer than" in error.bare_message
    assert error.position is None


def test_a_thousand_nested_parentheses_are_refused() -> None:
    text = "(" * 1000 + "n" + ")" * 1000
    error = refused(text)
    assert "nested" in error.bare_message
    assert error.position is not None and 0 <= error.position < len(text)


@pytest.mark.parametrize("text", ["not " * 100 + "n > 0", "-" * 500 + "n", "n" + " + n" * 100])
def test_deep_trees_without_parentheses_are_refused(text: str) -> None:
    assert "nested too deeply" in refused(text).bare_message


def test_non_text_input_is_refused() -> None:
    with pytest.raises(ExprError):
        parse(42, SCALARS)  # type: ignore[arg-type]


def test_reserved_words_cannot_be_declared_as_variables() -> None:
    for name in ("bits", "xor", "len", "range", "1x"):
        with pytest.raises(ExprError):
            parse("1", [name])


def test_the_result_type_can_be_required() -> None:
    with pytest.raises(ExprError, match="expected a true/false condition"):
        parse("n + 1", ["n"], result="bool")
    with pytest.raises(ExprError, match="expected a number"):
        parse("n > 1", ["n"], result="int")


def test_columns_count_characters_not_bytes() -> None:
    with pytest.raises(ExprError) as info:
        parse("é + q", ["é"])
    assert info.value.position == 4


# -- what the language accepts ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "env", "expected"),
    [
        ("n % (k + 1)", {"n": 10, "k": 2}, 10 % 3),
        ("xor(h) == 0", {"h": (1, 2, 3)}, True),
        ("n >> (trailing_ones(n) + 1)", {"n": 0b10111}, 0b10111 >> 4),
        ("all(colsum(h, b) % (k + 1) == 0 for b in bits)", {"h": (5, 5, 5), "k": 2}, True),
        ("xor(h[::2]) == 0", {"h": (4, 9, 4)}, True),
        ("(k ^ m) < n or (k ^ n) < m", {"k": 3, "m": 5, "n": 6}, (3 ^ 5) < 6 or (3 ^ 6) < 5),
        (
            "xor(h) != 0 if any(x > 1 for x in h) else count(x == 1 for x in h) % 2 == 0",
            {"h": (1, 1, 0)},
            True,
        ),
        ("implies(n > 1, m > 1)", {"n": 2, "m": 0}, False),
        ("floor_div(n, 2) + ceil_div(n, 2) == n", {"n": 7}, True),
        ("bit(n, 2) + bit(n, 0)", {"n": 0b101}, 2),
        ("min(n, m, k) + max(n, m, k)", {"n": 4, "m": 1, "k": 9}, 10),
        ("xor(n, m, k)", {"n": 4, "m": 1, "k": 9}, 4 ^ 1 ^ 9),
        ("sum(h[i] * i for i in range(len(h)))", {"h": (5, 6, 7)}, 6 + 14),
        ("max(x for x in h[::-1]) + len(h[1:])", {"h": (5, 6, 7)}, 7 + 2),
        ("0 <= n < m <= k", {"n": 0, "m": 3, "k": 3}, True),
        ("-n + +m", {"n": 4, "m": 9}, 5),
        ("abs(n - m) ** 2", {"n": 4, "m": 9}, 25),
        ("(n < 1) == (m < 1)", {"n": 0, "m": 5}, False),
    ],
)
def test_documented_constructs_parse_and_mean_what_python_means(
    text: str, env: dict[str, object], expected: object
) -> None:
    node = parse(text, SCALARS, SEQUENCES)
    assert evaluate(node, env) == expected


def test_free_names_and_bitwise_detection() -> None:
    node = parse("all(colsum(h, b) % (k + 1) == 0 for b in bits)", SCALARS, SEQUENCES)
    assert free_names(node) == {"h", "k"}
    assert uses_bitwise(node)
    assert isinstance(node, Reduce) and isinstance(node.domain, BitsDomain)
    plain = parse("n % (k + 1) == 0 and sum(h) > m", SCALARS, SEQUENCES)
    assert free_names(plain) == {"n", "k", "h", "m"}
    assert not uses_bitwise(plain)
