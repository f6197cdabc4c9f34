"""The checker's own reading of a claim's predicate, for a small integer fragment.

A predicate such as ``h[0] % 2 == h[1] % 2 and min(h[0], h[1]) <= 3`` is read
with Python's :mod:`ast` parser (never evaluated by Python): integer
constants, the heaps ``h[i]`` (``i`` a constant) and the claim's integer
parameters by name, ``+ - *``, ``//`` and ``%`` by a positive constant,
``min``/``max``/``abs``, comparisons (chained), ``and``/``or``/``not`` and
``x if c else y``; the one-heap variable ``n`` is ``h[0]``. Anything else raises :class:`Outside`, and the caller
falls back to what the certificate states.

:func:`value` evaluates a predicate on whole numbers; :func:`smt` writes it as
an SMT-LIB 2 term over integer constants ``h0, h1, ...`` (Python's ``//`` and
``%`` by a positive constant are SMT-LIB's ``div`` and ``mod``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any


class Outside(Exception):
    """The predicate uses something outside the checker's integer fragment."""


_FUNCS = ("min", "max", "abs")


def parse(text: str, params: dict[str, Any]) -> ast.expr:
    """The predicate's syntax tree, after checking every node is in the fragment."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise Outside(f"cannot parse the predicate: {exc.msg}") from None
    _check(tree, params)
    return tree


def _check(node: ast.AST, params: dict[str, Any]) -> None:
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, int):
            raise Outside(f"a constant {node.value!r}")
        return
    if isinstance(node, ast.Name):
        if node.id == "n" and "n" not in params:
            return
        if not isinstance(params.get(node.id), int) or isinstance(params.get(node.id), bool):
            raise Outside(f"the name {node.id!r}")
        return
    if isinstance(node, ast.Subscript):
        if not (isinstance(node.value, ast.Name) and node.value.id == "h"):
            raise Outside("a subscript of something other than h")
        if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)):
            raise Outside("h[...] with an index that is not a constant")
        return
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.FloorDiv | ast.Mod):
            r = node.right
            if not (isinstance(r, ast.Constant) and isinstance(r.value, int) and r.value > 0):
                raise Outside("// or % by something other than a positive constant")
        elif not isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
            raise Outside(f"the operator {type(node.op).__name__}")
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.Not | ast.USub):
            raise Outside(f"the operator {type(node.op).__name__}")
    elif isinstance(node, ast.Call):
        if not (isinstance(node.func, ast.Name) and node.func.id in _FUNCS) or node.keywords:
            raise Outside("a call other than min, max, abs")
        for arg in node.args:
            _check(arg, params)
        return
    elif isinstance(node, ast.Compare):
        ok = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
        if not all(isinstance(op, ok) for op in node.ops):
            raise Outside("a comparison other than == != < <= > >=")
    elif not isinstance(node, ast.BoolOp | ast.IfExp):
        raise Outside(f"the construct {type(node).__name__}")
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.operator | ast.unaryop | ast.cmpop | ast.boolop):
            _check(child, params)


_CMP: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}


def value(node: ast.expr, h: Sequence[int], params: dict[str, Any]) -> Any:
    """The predicate (or a term) at heaps ``h`` (whole numbers; booleans as Python's)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return h[0] if node.id == "n" and "n" not in params else params[node.id]
    if isinstance(node, ast.Subscript):
        return h[node.slice.value]  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp):
        a, b = value(node.left, h, params), value(node.right, h, params)
        ops = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}
        if isinstance(node.op, ast.FloorDiv):
            return a // b
        if isinstance(node.op, ast.Mod):
            return a % b
        return ops[type(node.op)]
    if isinstance(node, ast.UnaryOp):
        x = value(node.operand, h, params)
        return (not x) if isinstance(node.op, ast.Not) else -x
    if isinstance(node, ast.Call):
        args = [value(a, h, params) for a in node.args]
        fn: Any = {"min": min, "max": max, "abs": abs}[node.func.id]  # type: ignore[attr-defined]
        return fn(*args)
    if isinstance(node, ast.Compare):
        left = value(node.left, h, params)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = value(right_node, h, params)
            if not _CMP[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BoolOp):
        parts = (bool(value(v, h, params)) for v in node.values)
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    assert isinstance(node, ast.IfExp)
    test = value(node.test, h, params)
    return value(node.body if test else node.orelse, h, params)


_SMT_CMP = {ast.Eq: "=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def smt(node: ast.expr, h: Sequence[str], params: dict[str, Any]) -> str:
    """The predicate (or a term) in SMT-LIB 2, heap ``i`` written as the term ``h[i]``."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return "true" if node.value else "false"
        v = int(node.value)  # type: ignore[arg-type]
        return str(v) if v >= 0 else f"(- {-v})"
    if isinstance(node, ast.Name):
        if node.id == "n" and "n" not in params:
            return h[0]
        v = int(params[node.id])
        return str(v) if v >= 0 else f"(- {-v})"
    if isinstance(node, ast.Subscript):
        return h[node.slice.value]  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp):
        a, b = smt(node.left, h, params), smt(node.right, h, params)
        names = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "div", ast.Mod: "mod"}
        return f"({names[type(node.op)]} {a} {b})"
    if isinstance(node, ast.UnaryOp):
        x = smt(node.operand, h, params)
        return f"(not {x})" if isinstance(node.op, ast.Not) else f"(- {x})"
    if isinstance(node, ast.Call):
        args = [smt(a, h, params) for a in node.args]
        name = node.func.id  # type: ignore[attr-defined]
        if name == "abs" and len(args) == 1:
            return f"(abs {args[0]})"
        if name not in ("min", "max") or not args:
            raise Outside(f"{name} with {len(args)} arguments")
        out = args[0]
        for x in args[1:]:
            out = f"(ite ({'<=' if name == 'min' else '>='} {out} {x}) {out} {x})"
        return out
    if isinstance(node, ast.Compare):
        terms = [smt(node.left, h, params), *(smt(c, h, params) for c in node.comparators)]
        parts = []
        for op, a, b in zip(node.ops, terms, terms[1:], strict=False):
            parts.append(
                f"(not (= {a} {b}))"
                if isinstance(op, ast.NotEq)
                else f"({_SMT_CMP[type(op)]} {a} {b})"
            )
        return parts[0] if len(parts) == 1 else f"(and {' '.join(parts)})"
    if isinstance(node, ast.BoolOp):
        parts = [smt(v, h, params) for v in node.values]
        return f"({'and' if isinstance(node.op, ast.And) else 'or'} {' '.join(parts)})"
    assert isinstance(node, ast.IfExp)
    test, a, b = (smt(x, h, params) for x in (node.test, node.body, node.orelse))
    return f"(ite {test} {a} {b})"


def repeat_query(
    node: ast.expr,
    k: int,
    i: int,
    start: int,
    period: int,
    params: dict[str, Any],
    saltus: int | None = None,
) -> str:
    """SMT-LIB 2: some heaps ``h >= 0`` with ``h[i] >= start`` where the predicate differs
    from the predicate with heap ``i`` raised by ``period`` (unsat: it repeats from ``start``).
    With ``saltus``, ``node`` is a value: where the value at ``h[i] + period`` is not the value
    at ``h`` plus ``saltus``."""
    hs = [f"h{j}" for j in range(k)]
    moved = [f"(+ h{j} {period})" if j == i else f"h{j}" for j in range(k)]
    lines = [f"(declare-const h{j} Int)" for j in range(k)]
    lines += [f"(assert (>= h{j} 0))" for j in range(k)]
    lines.append(f"(assert (>= h{i} {start}))")
    here, there = smt(node, hs, params), smt(node, moved, params)
    if saltus is not None:
        here = f"(+ {here} {saltus})" if saltus >= 0 else f"(- {here} {-saltus})"
    lines.append(f"(assert (not (= {here} {there})))")
    return "(set-logic ALL)\n" + "\n".join(lines) + "\n(check-sat)\n"
