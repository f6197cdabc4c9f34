"""Formula helpers for the miner: description length, templates, checks against tables.

* :func:`cost` is the description length used for ranking: every node of
  the expression tree costs 1, an integer constant ``c`` costs
  ``1 + log2(|c| + 1)`` (bigger numbers say more), and a slice bound 1;
  :func:`formula_cost` adds a small tie-breaker against bitwise formulas.
* :func:`template` abstracts a formula's integer literals, so that guesses
  made at different grid points (``n % 2``, ``n % 3``, ...) can be compared
  and their constants fitted as functions of the parameters.
* :func:`reproduces_heap_table` and :func:`reproduces_p_table` are the gate
  every mined formula passes before it is emitted: it parses, it is defined
  everywhere, and it gives exactly the table it came from.
"""

from __future__ import annotations

import io
import math
import re
import tokenize
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import sympy

from nimproof.claims.kinds import spec_of
from nimproof.errors import EvalError, ExprError
from nimproof.expr import evaluate_array, parse, uses_bitwise
from nimproof.expr.nodes import Const, Node, Reduce, SeqDomain, walk_tree
from nimproof.miner.model import HeapTable, PTable
from nimproof.provers.recursion import is_recursive, recursive_values

HEAP_SCALARS = ("n",)
SEQUENCES = ("h",)


def cost(node: Node) -> float:
    """Description length of a parsed formula (see the module docstring)."""
    total = 0.0
    for sub in walk_tree(node):
        if isinstance(sub, Const):
            total += 1.0 + (math.log2(abs(int(sub.value)) + 1) if sub.type == "int" else 0.0)
        else:
            total += 1.0
        if isinstance(sub, Reduce) and isinstance(sub.domain, SeqDomain):
            d = sub.domain
            total += sum(1.0 for x in (d.start, d.stop, d.step) if x is not None)
    return total


def parse_heap_formula(text: str, params: Iterable[str] = ()) -> Node:
    """Parse a formula in ``n`` (and the parameters) that must be a number.

    A recursive definition may read earlier values as ``g[i]``.
    """
    return parse(text, scalars=(*HEAP_SCALARS, *params), sequences=("g",), result="int")


def parse_predicate(text: str, params: Iterable[str] = ()) -> Node:
    """Parse a predicate in the heaps ``h`` (and the parameters)."""
    return parse(text, scalars=tuple(params), sequences=SEQUENCES, result="bool")


#: Added to the cost of a formula with bitwise operations: such a formula can only be
#: proved up to a bit width, so between near-equals the arithmetic one ranks first.
BITWISE_PENALTY = 0.5


def formula_cost(text: str, *, predicate: bool = False, params: Iterable[str] = ()) -> float:
    """Description length of a formula given as text (plus :data:`BITWISE_PENALTY` if bitwise)."""
    node = parse_predicate(text, params) if predicate else parse_heap_formula(text, params)
    return cost(node) + (BITWISE_PENALTY if uses_bitwise(node) else 0.0)


_INT = re.compile(r"^\d+$")


def template(text: str) -> tuple[str, tuple[int, ...]]:
    """The formula with its integer literals replaced by ``{0}``, ``{1}``, ... and the literals.

    ``"n % (3 + 1)"`` gives ``("n % ({0} + {1})", (3, 1))``. Braces do not
    occur in formulas, so :meth:`str.format` fills a template back in.
    """
    constants: list[int] = []

    def literal(tok: tokenize.TokenInfo) -> str:
        if tok.type == tokenize.NUMBER and _INT.match(tok.string):
            constants.append(int(tok.string))
            return "{" + str(len(constants) - 1) + "}"
        return tok.string

    return _map_tokens(text, literal), tuple(constants)


def substitute_name(text: str, name: str, replacement: str) -> str:
    """Replace every occurrence of the variable ``name`` by ``(replacement)``."""
    return _map_tokens(
        text,
        lambda tok: (
            f"({replacement})" if tok.type == tokenize.NAME and tok.string == name else tok.string
        ),
    )


def _map_tokens(text: str, rewrite: Callable[[tokenize.TokenInfo], str]) -> str:
    """``text`` with each Python token replaced by ``rewrite(token)``, spacing kept (on one line)."""
    out: list[str] = []
    prev_end = (1, 0)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.NL):
            continue
        if tok.start > prev_end:
            out.append(" " * (tok.start[1] - prev_end[1]) if tok.start[0] == prev_end[0] else " ")
        out.append(rewrite(tok))
        prev_end = tok.end
    return "".join(out)


def heap_formula_values(text: str, n_max: int, params: Mapping[str, int]) -> np.ndarray | None:
    """Values of a heap formula at ``n = 0..n_max``, or None when it fails to parse or is undefined."""
    try:
        node = parse_heap_formula(text, params)
        if is_recursive(node):
            values, bad = recursive_values(node, n_max, params)
            return None if bad is not None else values
        n = np.arange(n_max + 1, dtype=np.int64)
        values, undefined = evaluate_array(node, {"n": n, **params})
    except (ExprError, EvalError):
        return None
    if undefined.any():
        return None
    return np.asarray(values, dtype=np.int64)


def reproduces_heap_table(text: str, table: HeapTable) -> bool:
    """True when the formula parses, is defined at every heap, and equals the table."""
    values = heap_formula_values(text, table.n_max, table.params)
    return values is not None and bool(np.array_equal(values, table.values))


def predicate_values(
    text: str, heaps: int, max_heap: int, params: Mapping[str, int]
) -> np.ndarray | None:
    """A predicate on every position of the box, or None when it fails to parse or is undefined."""
    try:
        node = parse_predicate(text, params)
        grids = np.indices((max_heap + 1,) * heaps, dtype=np.int64)
        values, undefined = evaluate_array(node, {"h": list(grids), **params})
    except (ExprError, EvalError):
        return None
    if undefined.any():
        return None
    return np.asarray(values, dtype=bool)


def reproduces_p_table(text: str, table: PTable) -> bool:
    """True when the predicate parses, is defined on the box, and holds exactly on the P-positions."""
    values = predicate_values(text, table.heaps, table.max_heap, table.params)
    return values is not None and bool(np.array_equal(values, table.p))


def reproduces(kind: str, text: str, table: HeapTable | PTable) -> bool:
    """Dispatch to the heap or P-position check."""
    spec = spec_of(kind)
    if isinstance(table, PTable):
        return spec.states_p_positions and reproduces_p_table(text, table)
    return spec.states_values and reproduces_heap_table(text, table)


def periodic_holds(values: np.ndarray, period: int, preperiod: int, saltus: int) -> bool:
    """True when ``g(n + period) == g(n) + saltus`` for every ``n >= preperiod`` in the table."""
    if period < 1 or preperiod < 0 or preperiod + period >= len(values):
        return False
    d = values[preperiod + period :] - values[preperiod : len(values) - period]
    return bool(np.all(d == saltus))


def polynomial_text(expr: sympy.Expr, symbol: sympy.Symbol, name: str) -> str | None:
    """A polynomial in ``symbol`` with rational coefficients, written in the formula language.

    The variable is written as ``name`` (``n``, ``k``, ``len(h)``); rational
    coefficients are brought to a common denominator ``D`` and written
    ``(...) // D``. Returns None when ``expr`` is not such a polynomial.
    """
    expr = sympy.expand(expr)
    if expr.free_symbols - {symbol} or not expr.is_polynomial(symbol):
        return None
    coeffs = sympy.Poly(expr, symbol).all_coeffs()
    if not all(c.is_rational for c in coeffs):
        return None
    denom = math.lcm(*(int(sympy.Rational(c).q) for c in coeffs))
    ints = [int(sympy.Rational(c) * denom) for c in coeffs]
    degree = len(ints) - 1
    terms: list[str] = []
    for power, c in zip(range(degree, -1, -1), ints, strict=True):
        if c == 0:
            continue
        mono = "" if power == 0 else name if power == 1 else f"{name} ** {power}"
        if not mono:
            body = str(abs(c))
        elif abs(c) == 1:
            body = mono
        else:
            body = f"{abs(c)} * {mono}"
        if not terms:
            terms.append(body if c > 0 else f"-{body}")
        else:
            terms.append(f"+ {body}" if c > 0 else f"- {body}")
    text = " ".join(terms) or "0"
    if denom != 1:
        text = f"({text}) // {denom}"
    return text
