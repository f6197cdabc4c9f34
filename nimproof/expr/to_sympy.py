"""sympy rendering of expression trees: :func:`to_sympy`.

An unevaluated sympy expression (for ``sympy.pretty`` and other sympy
printers); bitwise operations and reductions are named functions, a ``sum``
over a ``range`` of step 1 is ``sympy.Sum``. For display only; nothing here
takes part in a proof. The LaTeX and text printers live in :mod:`.latex` and
:mod:`.text` (re-exported here: :func:`to_latex`, :func:`to_text`).
"""

from __future__ import annotations

import sympy

from nimproof.expr import nodes
from nimproof.expr.latex import to_latex
from nimproof.expr.text import to_text
from nimproof.expr.walk import Walker

__all__ = ["to_latex", "to_sympy", "to_text"]


def to_sympy(node: nodes.Node) -> sympy.Basic:
    """An unevaluated sympy expression with the structure of ``node`` (for printing only).

    Integers are ``Symbol(name, integer=True)``; ``h[i]`` is ``IndexedBase("h")[i]``;
    ``//`` and ``ceil_div`` are ``floor``/``ceiling`` of a quotient, ``%`` is
    ``Mod``; bitwise operations (``xor``, ``bitand``, ``bitor``, ``lshift``,
    ``rshift``, ``popcount``, ...) and reductions are named functions, a
    generator body is a ``Lambda`` (``all(Lambda(x, x > 1), h)``), and a ``sum``
    over ``range(a, b)`` is ``Sum(body, (i, a, b - 1))``.
    """
    return _Sympy().convert(node, {})


_BOOL_FUNCTIONS: dict[str, type] = {}


def _bool_function(name: str) -> type:
    """A named, never-evaluated sympy function whose value is true or false."""
    cls = _BOOL_FUNCTIONS.get(name)
    if cls is None:
        cls = type(name, (sympy.logic.boolalg.BooleanFunction,), {})
        _BOOL_FUNCTIONS[name] = cls
    return cls


class _Sympy(Walker[sympy.Basic]):
    def convert(self, node: nodes.Node, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        return self.walk(node, bound)

    def walk_const(self, node: nodes.Const, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        if isinstance(node.value, bool):
            return sympy.true if node.value else sympy.false
        return sympy.Integer(node.value)

    def walk_var(self, node: nodes.Var, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        return bound.get(node.name) or sympy.Symbol(node.name, integer=True)

    def walk_index(self, node: nodes.Index, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        return sympy.IndexedBase(node.seq)[self.convert(node.index, bound)]

    def walk_len(self, node: nodes.Len, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        return sympy.Function("len")(self.domain(node.domain, bound))

    def walk_unary(self, node: nodes.Unary, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        operand = self.convert(node.operand, bound)
        if node.op == "not":
            return sympy.Not(operand, evaluate=False)
        return sympy.Mul(sympy.Integer(-1), operand, evaluate=False)

    def walk_binary(self, node: nodes.Binary, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        return self.binary(node.op, self.convert(node.left, bound), self.convert(node.right, bound))

    def walk_compare(self, node: nodes.Compare, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        rel = []
        for op, a, b in zip(node.ops, node.operands, node.operands[1:], strict=False):
            x, y = self.convert(a, bound), self.convert(b, bound)
            if a.type == "bool":
                eq = sympy.Equivalent(x, y, evaluate=False)
                rel.append(eq if op == "==" else sympy.Not(eq, evaluate=False))
            else:
                cls = {
                    "<": sympy.Lt,
                    "<=": sympy.Le,
                    ">": sympy.Gt,
                    ">=": sympy.Ge,
                    "==": sympy.Eq,
                    "!=": sympy.Ne,
                }[op]
                rel.append(cls(x, y, evaluate=False))
        return rel[0] if len(rel) == 1 else sympy.And(*rel, evaluate=False)

    def walk_boolop(self, node: nodes.BoolOp, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        values = [self.convert(v, bound) for v in node.values]
        cls = sympy.And if node.op == "and" else sympy.Or
        return cls(*values, evaluate=False)

    def walk_ifelse(self, node: nodes.IfElse, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        test = self.convert(node.test, bound)
        body = self.convert(node.body, bound)
        orelse = self.convert(node.orelse, bound)
        if node.type == "bool":
            return sympy.ITE(test, body, orelse, evaluate=False)
        try:
            return sympy.Piecewise((body, test), (orelse, True), evaluate=False)
        except (TypeError, ValueError):
            # sympy folds the condition even unevaluated and can fail on it (a comparison
            # with 0**0 or zoo); a named function keeps the structure for printing.
            return sympy.Function("ifelse")(test, body, orelse)

    def walk_call(self, node: nodes.Call, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        args = [self.convert(a, bound) for a in node.args]
        if node.func == "max":
            return sympy.Max(*args, evaluate=False)
        if node.func == "min":
            return sympy.Min(*args, evaluate=False)
        if node.func == "abs":
            return sympy.Abs(args[0], evaluate=False)
        if node.func == "ceil_div":
            return sympy.ceiling(self.quotient(args[0], args[1]), evaluate=False)
        return sympy.Function(node.func)(*args)

    @staticmethod
    def power(base: sympy.Basic, exponent: sympy.Basic) -> sympy.Basic:
        if isinstance(base, sympy.Piecewise):  # sympy's LaTeX printer fails on a bare one
            base = sympy.UnevaluatedExpr(base)
        return sympy.Pow(base, exponent, evaluate=False)

    def quotient(self, a: sympy.Basic, b: sympy.Basic) -> sympy.Basic:
        return sympy.Mul(a, self.power(b, sympy.Integer(-1)), evaluate=False)

    def binary(self, op: str, a: sympy.Basic, b: sympy.Basic) -> sympy.Basic:
        if op == "+":
            return sympy.Add(a, b, evaluate=False)
        if op == "-":
            negated = (
                -b
                if isinstance(b, sympy.Integer)
                else sympy.Mul(sympy.Integer(-1), b, evaluate=False)
            )
            return sympy.Add(a, negated, evaluate=False)
        if op == "*":
            return sympy.Mul(a, b, evaluate=False)
        if op == "//":
            return sympy.floor(self.quotient(a, b), evaluate=False)
        if op == "%":
            return sympy.Mod(a, b, evaluate=False)
        if op == "**":
            return self.power(a, b)
        name = {"&": "bitand", "|": "bitor", "^": "xor", "<<": "lshift", ">>": "rshift"}[op]
        return sympy.Function(name)(a, b)

    def domain(self, d: nodes.Domain, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        if isinstance(d, nodes.SeqDomain):
            base = sympy.Symbol(d.name)
            if d.start is None and d.stop is None and d.step is None:
                return base
            none = sympy.Symbol("None")
            parts = [none if v is None else sympy.Integer(v) for v in (d.start, d.stop, d.step)]
            return sympy.Function("slice")(base, *parts)
        if isinstance(d, nodes.BitsDomain):
            return sympy.Symbol("bits")
        return sympy.Function("range")(*(self.convert(x, bound) for x in (d.start, d.stop, d.step)))

    def walk_reduce(self, node: nodes.Reduce, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        d = node.domain
        if (
            isinstance(node.body, nodes.Var)
            and node.body.name == node.var
            and isinstance(d, nodes.SeqDomain)
        ):
            return sympy.Function(node.func)(self.domain(d, bound))
        var = sympy.Symbol(node.var.lstrip("_") or "x", integer=True)
        inner = {**bound, node.var: var}
        body = self.convert(node.body, inner)
        if (
            node.func == "sum"
            and isinstance(d, nodes.RangeDomain)
            and isinstance(d.step, nodes.Const)
            and d.step.value == 1
        ):
            start = self.convert(d.start, bound)
            stop = self.convert(d.stop, bound)
            return sympy.Sum(body, (var, start, stop - 1))
        func = _bool_function(node.func) if node.type == "bool" else sympy.Function(node.func)
        # sympy turns Lambda(x, x) into IdentityFunction, which has no arguments and
        # breaks sympy's own evaluation of assumptions (an IndexError): keep the body as is.
        body = sympy.UnevaluatedExpr(body) if body == var else body
        return func(sympy.Lambda(var, body), self.domain(d, bound))
