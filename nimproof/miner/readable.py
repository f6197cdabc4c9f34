"""Mined formulas as a person would write them: residue tables, simplified with sympy.

A formula that depends on ``n % a`` (a chain ``X if n % 3 == 0 else ...``, or
arithmetic in ``n // a`` and ``n % a``) is shown as one column per residue:
``n`` is written ``a m + r`` and each column's formula is simplified by sympy
for that ``r`` (``2 * (n // 4) + (n % 4) % 2`` becomes ``2m``, ``2m + 1``,
``2m``, ``2m + 1``; ``g[n - n // 3 - 1]`` becomes ``g(2m)`` and ``g(2m + 1)``).
Leading exceptions (``0 if n == 0 else ...``) are listed as initial values.
For display only: what is verified is always the formula as written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import sympy

from nimproof.errors import ExprError
from nimproof.expr import nodes
from nimproof.expr.text import to_text
from nimproof.miner.formula import parse_heap_formula

#: Largest modulus shown as a residue table.
MAX_MODULUS = 12

_M = sympy.Symbol("m", integer=True, nonnegative=True)
_G = sympy.Function("g")


@dataclass(frozen=True, slots=True)
class ResidueTable:
    """``g(a m + r)`` for each residue ``r``, and the initial values written out separately."""

    modulus: int
    cells: tuple[str, ...]
    initial: tuple[tuple[int, str], ...]

    def rows(self) -> tuple[list[str], list[str]]:
        """The header row (``n mod a``, residues) and the value row (``g(n)``, cells)."""
        return [f"n mod {self.modulus}", *map(str, range(self.modulus))], ["g", *self.cells]

    def text(self) -> str:
        """Two aligned lines, ``n mod 3 | 0 | 1 | 2`` over ``g | m | g(2m) | g(2m + 1)``."""
        head, body = self.rows()
        widths = [max(len(a), len(b)) for a, b in zip(head, body, strict=True)]
        lines = [
            " | ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)) for row in (head, body)
        ]
        out = "\n".join(line.rstrip() for line in lines)
        if self.initial:
            out += "\n" + self.initial_text()
        return out + f"\n(n = {self.modulus}m + r)"

    def initial_text(self) -> str:
        """``initial values: g(0) = 0, g(1) = 1``."""
        return "initial values: " + ", ".join(f"g({n}) = {v}" for n, v in self.initial)

    def markdown(self) -> str:
        """The table as Markdown, with ``n = a m + r`` and the initial values under it."""
        head, body = self.rows()
        lines = [
            "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head),
            "| " + " | ".join(f"`{c}`" if i else c for i, c in enumerate(body)) + " |",
        ]
        note = f"with n = {self.modulus}m + r"
        if self.initial:
            note += "; " + self.initial_text()
        return "\n".join(lines) + f"\n\n{note}"


def _is_n_equals(test: nodes.Node) -> int | None:
    if (
        isinstance(test, nodes.Compare)
        and test.ops == ("==",)
        and isinstance(test.operands[0], nodes.Var)
        and test.operands[0].name == "n"
        and isinstance(test.operands[1], nodes.Const)
    ):
        return int(test.operands[1].value)
    return None


def _moduli(node: nodes.Node) -> set[int]:
    """The constants ``a`` of every ``n // a`` and ``n % a`` in ``node``."""
    out: set[int] = set()
    for sub in nodes.walk_tree(node):
        if (
            isinstance(sub, nodes.Binary)
            and sub.op in ("//", "%")
            and isinstance(sub.right, nodes.Const)
            and not isinstance(sub.right.value, bool)
            and int(sub.right.value) > 1
        ):
            out.add(int(sub.right.value))
    return out


def _uses_residue(node: nodes.Node) -> bool:
    return any(isinstance(sub, nodes.Binary) and sub.op == "%" for sub in nodes.walk_tree(node))


class _NotArithmetic(Exception):
    pass


def _sympy(node: nodes.Node, n: sympy.Expr) -> sympy.Expr:
    """``node`` with ``n`` replaced, as an evaluated sympy expression (arithmetic only)."""
    if isinstance(node, nodes.Const) and not isinstance(node.value, bool):
        return sympy.Integer(int(node.value))
    if isinstance(node, nodes.Var) and node.name == "n":
        return n
    if isinstance(node, nodes.Index) and node.seq == "g":
        return _G(_sympy(node.index, n))
    if isinstance(node, nodes.Unary) and node.op == "-":
        return -_sympy(node.operand, n)
    if isinstance(node, nodes.IfElse):
        test = _truth(node.test, n)
        return _sympy(node.body if test else node.orelse, n)
    if isinstance(node, nodes.Binary) and node.op in ("+", "-", "*", "//", "%"):
        a, b = _sympy(node.left, n), _sympy(node.right, n)
        if node.op == "+":
            return a + b
        if node.op == "-":
            return a - b
        if node.op == "*":
            return a * b
        if not b.is_Integer or int(b) <= 0:
            raise _NotArithmetic
        return sympy.floor(a / b) if node.op == "//" else a - b * sympy.floor(a / b)
    raise _NotArithmetic


def _truth(test: nodes.Node, n: sympy.Expr) -> bool:
    """A residue test ``n % a == r`` (or ``!=``) decided for ``n = a m + r``; else not arithmetic."""
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0] in ("==", "!="):
        left, right = (_sympy(x, n) for x in test.operands)
        diff = sympy.simplify(left - right)
        if diff.is_Integer:
            return (diff == 0) == (test.ops[0] == "==")
    raise _NotArithmetic


def _show(expr: sympy.Expr) -> str:
    text = str(expr)
    text = re.sub(r"(\d)\*m\b", r"\1m", text)
    return text.replace("*", " * ")


def residue_table(formula: str) -> ResidueTable | None:
    """The residue table of ``formula``, or None when it does not depend on ``n % a`` simply.

    None also when some column is not arithmetic (bitwise operations, calls):
    those formulas are shown as written.
    """
    try:
        node = parse_heap_formula(formula)
    except ExprError:
        return None
    initial: list[tuple[int, str]] = []
    while isinstance(node, nodes.IfElse) and (k := _is_n_equals(node.test)) is not None:
        initial.append((k, to_text(node.body)))
        node = node.orelse
    moduli = _moduli(node)
    if not moduli or not _uses_residue(node):
        return None
    a = math.lcm(*moduli)
    if a > MAX_MODULUS:
        return None
    cells: list[str] = []
    for r in range(a):
        try:
            expr = _sympy(node, a * _M + r)
        except (_NotArithmetic, TypeError, ValueError):
            return None
        cells.append(_show(sympy.simplify(expr)))
    return ResidueTable(a, tuple(cells), tuple(initial))
