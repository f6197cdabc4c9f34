"""Residue tables of mined formulas: what is shown agrees with the formula, value by value."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from nimproof.engines import reference
from nimproof.games import HeapGame, parse_spec
from nimproof.miner.formula import heap_formula_values
from nimproof.miner.readable import residue_table

TAKE_A_THIRD = "(n // 3) if n % 3 == 0 else g[n - n // 3 - 1]"
ALL_BUT_2_5 = "2 * (n // 4) + (n % 4) % 2"
TWO_FIFTHS = (
    "2 * (n // 5) if n % 5 == 0 else (2 * (n // 5) + 1 if n % 5 == 3 else g[n - 2 * n // 5 - 1])"
)


def test_take_a_third_reads_as_published() -> None:
    table = residue_table(TAKE_A_THIRD)
    assert table is not None
    assert table.modulus == 3 and table.cells == ("m", "g(2m)", "g(2m + 1)")
    assert table.text().splitlines()[:2] == [
        "n mod 3 | 0 | 1     | 2",
        "g       | m | g(2m) | g(2m + 1)",
    ]
    assert "| n mod 3 | 0 | 1 | 2 |" in table.markdown()


def test_initial_values_are_listed_apart() -> None:
    table = residue_table("0 if n == 0 else (5 if n == 2 else (n // 2 if n % 2 == 0 else 1))")
    assert table is not None
    assert table.initial == ((0, "0"), (2, "5")) and table.cells == ("m", "1")
    assert "initial values: g(0) = 0, g(2) = 5" in table.text()


@pytest.mark.parametrize(
    "formula", ["n // 3", "n >> (trailing_ones(n) + 1)", "popcount(n) % 3", "n % 13", "k * n"]
)
def test_formulas_without_a_simple_residue_form_get_no_table(formula: str) -> None:
    assert residue_table(formula) is None


@pytest.mark.parametrize("formula", [ALL_BUT_2_5, "n % 4", "3 * (n // 6) + (n % 6) // 2 - n % 2"])
def test_each_cell_gives_the_formula_s_values(formula: str) -> None:
    table = residue_table(formula)
    assert table is not None
    a = table.modulus
    expected = heap_formula_values(formula, 40 * a, {})
    assert expected is not None
    m = sympy.Symbol("m")
    for r, cell in enumerate(table.cells):
        expr = sympy.sympify(_product(cell))
        for k in range(40):
            assert int(expr.subs(m, k)) == int(expected[a * k + r]), (formula, r, k)


@pytest.mark.parametrize(
    "spec,formula", [("take-fraction:1/3", TAKE_A_THIRD), ("take-fraction:2/5", TWO_FIFTHS)]
)
def test_recursive_cells_read_the_table_where_the_rule_says(spec: str, formula: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    values = np.asarray(reference.heap_table(game, 600), dtype=np.int64)
    table = residue_table(formula)
    assert table is not None
    m = sympy.Symbol("m")
    g = sympy.Function("g")
    for r, cell in enumerate(table.cells):
        expr = sympy.sympify(_product(cell), locals={"g": g, "m": m})
        for k in range(1, 600 // table.modulus):
            here = expr.subs(m, k).replace(g, lambda i: sympy.Integer(int(values[int(i)])))
            assert int(here) == int(values[table.modulus * k + r]), (spec, r, k)


def _product(cell: str) -> str:
    """``2m + 1`` -> ``2*m + 1`` for sympy's parser."""
    out = []
    for i, ch in enumerate(cell):
        if ch == "m" and i and cell[i - 1].isdigit():
            out.append("*")
        out.append(ch)
    return "".join(out)
