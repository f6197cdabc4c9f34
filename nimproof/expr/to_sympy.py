"""Render expression trees for people: sympy objects, LaTeX and plain text.

* :func:`to_latex` - deterministic LaTeX (math-mode content, without ``$``)
  written straight from the tree, so it keeps the formula's own order and
  grouping: ``n % (k+1)`` is ``n \\bmod (k + 1)``, ``xor(h) == 0`` is
  ``h_0 \\oplus h_1 \\oplus \\dots = 0``, ``all(... for x in h)`` is a
  quantifier, ``a if c else b`` a ``cases`` block. It never raises: a tree it
  cannot render becomes ``\\texttt{...}`` of :func:`to_text`.
* :func:`to_text` - the formula back as Python-like text (re-parsable).
* :func:`to_sympy` - an unevaluated sympy expression (for ``sympy.pretty`` and
  other sympy printers); bitwise operations and reductions are named
  functions, a ``sum`` over a ``range`` of step 1 is ``sympy.Sum``.

Indices are 0-based throughout, as in the formulas: ``h[0]`` is ``h_{0}``.
These functions are for display only; nothing here takes part in a proof.
"""

from __future__ import annotations

import re

import sympy

from nimproof.expr.nodes import (
    BIT_OPS,
    Binary,
    BitsDomain,
    BoolOp,
    Call,
    Compare,
    Const,
    Domain,
    IfElse,
    Index,
    Len,
    Node,
    RangeDomain,
    Reduce,
    SeqDomain,
    Unary,
    Var,
    free_names,
)

__all__ = ["to_latex", "to_sympy", "to_text"]

# Binding strength of each rendering, loosest first. A sub-formula is put in
# parentheses when it binds more loosely than its place requires.
CASES = 0  # a cases block
QUANT = 1  # forall / exists: the scope runs to the right end
OR = 2
AND = 3
NOT = 4
CMP = 5
CHAIN = 6  # h_0 + h_1 + \dots, \sum_{x \in h} ..., anything with an open end
BITOR = 7
BITXOR = 8
BITAND = 9
SHIFT = 10
ADD = 11
MUL = 12
NEG = 13
POW = 14
ATOM = 15

_BIN_PREC = {
    "|": BITOR,
    "^": BITXOR,
    "&": BITAND,
    "<<": SHIFT,
    ">>": SHIFT,
    "+": ADD,
    "-": ADD,
    "*": MUL,
    "%": MUL,
    "//": ATOM,
    "**": POW,
}
_CMP_LATEX = {"<": "<", "<=": r"\le", ">": ">", ">=": r"\ge", "==": "=", "!=": r"\ne"}
_GREEK = frozenset(
    {
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "pi",
        "rho",
        "sigma",
        "tau",
        "phi",
        "chi",
        "psi",
        "omega",
    }
)


def to_latex(node: Node) -> str:
    """LaTeX math-mode text for ``node``; the same tree always gives the same text.

    Never raises on a tree produced by :func:`~nimproof.expr.parser.parse`:
    anything the renderer does not handle falls back to ``\\texttt{...}``.
    """
    try:
        return _Latex().render(node)[0]
    except Exception:
        return _texttt(_safe_text(node))


def to_text(node: Node) -> str:
    """The formula as Python-like text that :func:`~nimproof.expr.parser.parse` reads back."""
    return _Text().render(node)[0]


# ---------------------------------------------------------------------------
# LaTeX


def _name(name: str) -> str:
    """A variable name in LaTeX: ``n``, ``x_{1}`` for ``x1``/``x_1``, ``\\mathit{heaps}``."""
    if name.startswith("_"):
        name = name.lstrip("_") or "x"
    if len(name) == 1:
        return name if name.isascii() else rf"\text{{{name}}}"
    if name in _GREEK:
        return "\\" + name
    m = re.fullmatch(r"([A-Za-z]+)_?(\d+)", name)
    if m:
        return f"{_name(m.group(1))}_{{{m.group(2)}}}"
    return r"\mathit{" + name.replace("_", r"\_") + "}"


def _op(name: str) -> str:
    return r"\operatorname{" + name.replace("_", r"\_") + "}"


def _texttt(text: str) -> str:
    special = {
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "_": r"\_",
        "^": r"\^{}",
        "#": r"\#",
        "%": r"\%",
        "&": r"\&",
        "$": r"\$",
        "~": r"\~{}",
    }
    return r"\texttt{" + "".join(special.get(c, c) for c in text) + "}"


def _safe_text(node: Node) -> str:
    try:
        return to_text(node)
    except Exception:
        return "formula"


def _bit_pattern(node: Node) -> tuple[Node, Node] | None:
    """``(x >> b) & 1`` (what ``bit(x, b)`` parses to): returns ``(x, b)``."""
    if (
        isinstance(node, Binary)
        and node.op == "&"
        and isinstance(node.right, Const)
        and node.right.value == 1
        and not isinstance(node.right.value, bool)
        and isinstance(node.left, Binary)
        and node.left.op == ">>"
    ):
        return node.left.left, node.left.right
    return None


def _colsum_pattern(node: Reduce) -> Node | None:
    """``sum((x >> b) & 1 for x in S)`` (what ``colsum(S, b)`` parses to): returns ``b``."""
    if node.func != "sum" or not isinstance(node.domain, SeqDomain):
        return None
    bit = _bit_pattern(node.body)
    if bit is None:
        return None
    x, b = bit
    if isinstance(x, Var) and x.name == node.var and node.var not in free_names(b):
        return b
    return None


def _slice_text(d: SeqDomain) -> str:
    parts = ["" if v is None else str(v) for v in (d.start, d.stop)]
    text = ":".join(parts)
    if d.step is not None:
        text += f":{d.step}"
    return text


class _Latex:
    def render(self, node: Node) -> tuple[str, int]:
        """The LaTeX of ``node`` and how tightly it binds."""
        if isinstance(node, Const):
            if isinstance(node.value, bool):
                return (r"\mathsf{true}" if node.value else r"\mathsf{false}"), ATOM
            return str(node.value), (NEG if node.value < 0 else ATOM)
        if isinstance(node, Var):
            return _name(node.name), ATOM
        if isinstance(node, Index):
            return f"{_name(node.seq)}_{{{self.render(node.index)[0]}}}", ATOM
        if isinstance(node, Len):
            return rf"\lvert {self.domain_set(node.domain)} \rvert", ATOM
        if isinstance(node, Unary):
            if node.op == "not":
                return r"\lnot " + self.wrap(node.operand, NOT + 1), NOT
            return "-" + self.wrap(node.operand, NEG), NEG
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, BoolOp):
            return self.boolop(node)
        if isinstance(node, IfElse):
            return self.cases(node), CASES
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Reduce):
            return self.reduce(node)
        raise TypeError(f"unknown node {node!r}")

    def wrap(self, node: Node, need: int) -> str:
        """``node`` rendered, in parentheses when it binds more loosely than ``need``."""
        text, prec = self.render(node)
        if prec >= need:
            return text
        if prec == CASES:
            return rf"\left({text}\right)"
        return f"({text})"

    def binary(self, node: Binary) -> tuple[str, int]:
        op = node.op
        bit = _bit_pattern(node)
        if bit is not None:
            x, b = bit
            return rf"{_op('bit')}({self.render(x)[0]}, {self.render(b)[0]})", ATOM
        if op == "//":
            return (
                rf"\left\lfloor \frac{{{self.render(node.left)[0]}}}{{{self.render(node.right)[0]}}} \right\rfloor",
                ATOM,
            )
        if op == "**":
            return f"{self.wrap(node.left, ATOM)}^{{{self.render(node.right)[0]}}}", POW
        prec = _BIN_PREC[op]
        if op in BIT_OPS:
            # Readers do not share Python's precedence for bit operations: bracket every
            # compound operand, except the left side of a chain of the same operation.
            symbol = {
                "&": r"\mathbin{\&}",
                "|": r"\mathbin{|}",
                "^": r"\oplus",
                "<<": r"\ll",
                ">>": r"\gg",
            }[op]
            same_chain = op in "&|^" and isinstance(node.left, Binary) and node.left.op == op
            left = self.render(node.left)[0] if same_chain else self.wrap(node.left, ATOM)
            return f"{left} {symbol} {self.wrap(node.right, ATOM)}", prec
        if op in ("+", "-"):
            symbol = op
            return f"{self.wrap(node.left, ADD)} {symbol} {self.wrap(node.right, ADD + 1)}", ADD
        if op == "%":
            left_need = MUL + 1 if isinstance(node.left, Binary) and node.left.op == "%" else MUL
            return rf"{self.wrap(node.left, left_need)} \bmod {self.wrap(node.right, MUL + 1)}", MUL
        # '*': juxtapose a number and a name (2 n), otherwise a centred dot.
        left = self.wrap(
            node.left, MUL + 1 if isinstance(node.left, Binary) and node.left.op == "%" else MUL
        )
        right, right_prec = self.render(node.right)
        if right_prec <= MUL:
            right = f"({right})" if right_prec != CASES else rf"\left({right}\right)"
        if (
            isinstance(node.left, Const)
            and not isinstance(node.left.value, bool)
            and node.left.value >= 0
            and isinstance(node.right, (Var, Index))
        ):
            return f"{left} {right}", MUL
        return rf"{left} \cdot {right}", MUL

    def compare(self, node: Compare) -> tuple[str, int]:
        parts = []
        for i, operand in enumerate(node.operands):
            if i:
                op = node.ops[i - 1]
                if operand.type == "bool":
                    parts.append(r"\Leftrightarrow" if op == "==" else r"\not\Leftrightarrow")
                else:
                    parts.append(_CMP_LATEX[op])
            if (
                isinstance(operand, Binary)
                and operand.op in BIT_OPS
                and _bit_pattern(operand) is None
            ):
                parts.append(self.wrap(operand, ATOM))
            else:
                parts.append(self.wrap(operand, CMP + 1))
        return " ".join(parts), CMP

    def boolop(self, node: BoolOp) -> tuple[str, int]:
        values = node.values
        if (
            node.op == "or"
            and len(values) == 2
            and isinstance(values[0], Unary)
            and values[0].op == "not"
        ):  # implies(p, q)
            premise = self.wrap(values[0].operand, CMP)
            conclusion = self.wrap(values[1], CMP)
            return rf"{premise} \Rightarrow {conclusion}", OR
        prec = AND if node.op == "and" else OR
        symbol = r" \land " if node.op == "and" else r" \lor "
        rendered = []
        for v in values:
            text, p = self.render(v)
            # Bracket a nested and/or (clearer than relying on precedence) and open-ended quantifiers.
            if p < prec or isinstance(v, BoolOp) or p == QUANT:
                text = rf"\left({text}\right)" if p == CASES else f"({text})"
            rendered.append(text)
        return symbol.join(rendered), prec

    def cases(self, node: IfElse) -> str:
        rows = []
        current: Node = node
        while isinstance(current, IfElse):
            rows.append(rf"{self.cell(current.body)} & \text{{if }} {self.render(current.test)[0]}")
            current = current.orelse
        rows.append(rf"{self.cell(current)} & \text{{otherwise}}")
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"

    def cell(self, node: Node) -> str:
        text, prec = self.render(node)
        return rf"\left({text}\right)" if prec == CASES else text

    def call(self, node: Call) -> tuple[str, int]:
        args = [self.render(a)[0] for a in node.args]
        f = node.func
        if f in ("max", "min"):
            return rf"\{f}({', '.join(args)})", ATOM
        if f == "abs":
            return rf"\lvert {args[0]} \rvert", ATOM
        if f == "ceil_div":
            return rf"\left\lceil \frac{{{args[0]}}}{{{args[1]}}} \right\rceil", ATOM
        return f"{_op(f)}({', '.join(args)})", ATOM

    # -- reductions ----------------------------------------------------------
    def domain_set(self, d: SeqDomain) -> str:
        name = _name(d.name)
        if d.start is None and d.stop is None and d.step is None:
            return name
        return name + "[" + _slice_text(d).replace(":", "{:}") + "]"

    def binder(self, var: str, d: Domain) -> str:
        """``x \\in h``, ``b \\ge 0``, ``0 \\le i < \\lvert h \\rvert``."""
        v = _name(var)
        if isinstance(d, SeqDomain):
            return rf"{v} \in {self.domain_set(d)}"
        if isinstance(d, BitsDomain):
            return rf"{v} \ge 0"
        if isinstance(d.step, Const) and d.step.value == 1:
            return rf"{self.wrap(d.start, ADD)} \le {v} < {self.wrap(d.stop, ADD)}"
        bounds = ", ".join(self.render(x)[0] for x in (d.start, d.stop, d.step))
        return rf"{v} \in {_op('range')}({bounds})"

    def elements(self, d: SeqDomain) -> list[str] | None:
        """The first elements of a sequence domain, when the slice has an obvious pattern."""
        start = d.start if d.start is not None else 0
        step = d.step if d.step is not None else 1
        if d.stop is not None or start < 0 or step <= 0:
            return None
        name = _name(d.name)
        return [
            f"{name}_{{{start + k * step}}}" for k in range(2 if step == 1 and start == 0 else 3)
        ]

    def reduce(self, node: Reduce) -> tuple[str, int]:
        f, d = node.func, node.domain
        simple = isinstance(node.body, Var) and node.body.name == node.var
        b = _colsum_pattern(node)
        if b is not None:
            assert isinstance(d, SeqDomain)
            return rf"{_op('colsum')}({self.domain_set(d)}, {self.render(b)[0]})", ATOM
        if simple and isinstance(d, SeqDomain):
            if f in ("xor", "sum"):
                first = self.elements(d)
                if first is not None:
                    symbol = r" \oplus " if f == "xor" else " + "
                    return symbol.join([*first, r"\dots"]), CHAIN
                big = r"\bigoplus" if f == "xor" else r"\sum"
                return rf"{big} {self.domain_set(d)}", CHAIN
            if f in ("max", "min"):
                return rf"\{f}({self.domain_set(d)})", ATOM
        binder = self.binder(node.var, d)
        if f in ("all", "any"):
            quantifier = r"\forall" if f == "all" else r"\exists"
            return rf"{quantifier} {binder} \colon {self.render(node.body)[0]}", QUANT
        if f == "count":
            return rf"\#\{{{binder} : {self.render(node.body)[0]}\}}", ATOM
        big = {"sum": r"\sum", "xor": r"\bigoplus", "max": r"\max", "min": r"\min"}[f]
        return rf"{big}_{{{binder}}} {self.wrap(node.body, MUL)}", CHAIN


# ---------------------------------------------------------------------------
# Plain text (Python precedence)

_PY_BIN_PREC = {
    "|": 7,
    "^": 8,
    "&": 9,
    "<<": 10,
    ">>": 10,
    "+": 11,
    "-": 11,
    "*": 12,
    "//": 12,
    "%": 12,
}
_PY_POW, _PY_NEG, _PY_ATOM = 14, 13, 15


class _Text:
    def render(self, node: Node) -> tuple[str, int]:
        if isinstance(node, Const):
            return repr(node.value), (
                _PY_NEG if not isinstance(node.value, bool) and node.value < 0 else _PY_ATOM
            )
        if isinstance(node, Var):
            return node.name, _PY_ATOM
        if isinstance(node, Index):
            return f"{node.seq}[{self.render(node.index)[0]}]", _PY_ATOM
        if isinstance(node, Len):
            return f"len({self.domain(node.domain)})", _PY_ATOM
        if isinstance(node, Unary):
            if node.op == "not":
                return "not " + self.wrap(node.operand, NOT), NOT
            return "-" + self.wrap(node.operand, _PY_NEG), _PY_NEG
        if isinstance(node, Binary):
            bit = _bit_pattern(node)
            if bit is not None:
                return f"bit({self.render(bit[0])[0]}, {self.render(bit[1])[0]})", _PY_ATOM
            if node.op == "**":
                return f"{self.wrap(node.left, _PY_ATOM)} ** {self.render(node.right)[0]}", _PY_POW
            prec = _PY_BIN_PREC[node.op]
            return f"{self.wrap(node.left, prec)} {node.op} {self.wrap(node.right, prec + 1)}", prec
        if isinstance(node, Compare):
            parts = [self.wrap(node.operands[0], CMP + 1)]
            for op, operand in zip(node.ops, node.operands[1:], strict=True):
                parts += [op, self.wrap(operand, CMP + 1)]
            return " ".join(parts), CMP
        if isinstance(node, BoolOp):
            prec = AND if node.op == "and" else OR
            return f" {node.op} ".join(self.wrap(v, prec + 1) for v in node.values), prec
        if isinstance(node, IfElse):
            body = self.wrap(node.body, OR)
            test = self.wrap(node.test, OR)
            return f"{body} if {test} else {self.wrap(node.orelse, CASES)}", CASES
        if isinstance(node, Call):
            return f"{node.func}({', '.join(self.render(a)[0] for a in node.args)})", _PY_ATOM
        if isinstance(node, Reduce):
            column = _colsum_pattern(node)
            if column is not None and isinstance(node.domain, SeqDomain):
                return f"colsum({self.domain(node.domain)}, {self.render(column)[0]})", _PY_ATOM
            if (
                isinstance(node.body, Var)
                and node.body.name == node.var
                and isinstance(node.domain, SeqDomain)
            ):
                return f"{node.func}({self.domain(node.domain)})", _PY_ATOM
            return (
                f"{node.func}({self.render(node.body)[0]} for {node.var} in {self.domain(node.domain)})",
                _PY_ATOM,
            )
        raise TypeError(f"unknown node {node!r}")

    def wrap(self, node: Node, need: int) -> str:
        text, prec = self.render(node)
        return text if prec >= need else f"({text})"

    def domain(self, d: Domain) -> str:
        if isinstance(d, SeqDomain):
            if d.start is None and d.stop is None and d.step is None:
                return d.name
            return f"{d.name}[{_slice_text(d)}]"
        if isinstance(d, BitsDomain):
            return "bits"
        return f"range({', '.join(self.render(x)[0] for x in (d.start, d.stop, d.step))})"


# ---------------------------------------------------------------------------
# sympy


def to_sympy(node: Node) -> sympy.Basic:
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


class _Sympy:
    def convert(self, node: Node, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        if isinstance(node, Const):
            if isinstance(node.value, bool):
                return sympy.true if node.value else sympy.false
            return sympy.Integer(node.value)
        if isinstance(node, Var):
            return bound.get(node.name) or sympy.Symbol(node.name, integer=True)
        if isinstance(node, Index):
            return sympy.IndexedBase(node.seq)[self.convert(node.index, bound)]
        if isinstance(node, Len):
            return sympy.Function("len")(self.domain(node.domain, bound))
        if isinstance(node, Unary):
            operand = self.convert(node.operand, bound)
            if node.op == "not":
                return sympy.Not(operand, evaluate=False)
            return sympy.Mul(sympy.Integer(-1), operand, evaluate=False)
        if isinstance(node, Binary):
            return self.binary(
                node.op, self.convert(node.left, bound), self.convert(node.right, bound)
            )
        if isinstance(node, Compare):
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
        if isinstance(node, BoolOp):
            values = [self.convert(v, bound) for v in node.values]
            cls = sympy.And if node.op == "and" else sympy.Or
            return cls(*values, evaluate=False)
        if isinstance(node, IfElse):
            test = self.convert(node.test, bound)
            body = self.convert(node.body, bound)
            orelse = self.convert(node.orelse, bound)
            if node.type == "bool":
                return sympy.ITE(test, body, orelse, evaluate=False)
            return sympy.Piecewise((body, test), (orelse, True), evaluate=False)
        if isinstance(node, Call):
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
        if isinstance(node, Reduce):
            return self.reduce(node, bound)
        raise TypeError(f"unknown node {node!r}")

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

    def domain(self, d: Domain, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        if isinstance(d, SeqDomain):
            base = sympy.Symbol(d.name)
            if d.start is None and d.stop is None and d.step is None:
                return base
            none = sympy.Symbol("None")
            parts = [none if v is None else sympy.Integer(v) for v in (d.start, d.stop, d.step)]
            return sympy.Function("slice")(base, *parts)
        if isinstance(d, BitsDomain):
            return sympy.Symbol("bits")
        return sympy.Function("range")(*(self.convert(x, bound) for x in (d.start, d.stop, d.step)))

    def reduce(self, node: Reduce, bound: dict[str, sympy.Symbol]) -> sympy.Basic:
        d = node.domain
        if isinstance(node.body, Var) and node.body.name == node.var and isinstance(d, SeqDomain):
            return sympy.Function(node.func)(self.domain(d, bound))
        var = sympy.Symbol(node.var.lstrip("_") or "x", integer=True)
        inner = {**bound, node.var: var}
        body = self.convert(node.body, inner)
        if (
            node.func == "sum"
            and isinstance(d, RangeDomain)
            and isinstance(d.step, Const)
            and d.step.value == 1
        ):
            start = self.convert(d.start, bound)
            stop = self.convert(d.stop, bound)
            return sympy.Sum(body, (var, start, stop - 1))
        func = _bool_function(node.func) if node.type == "bool" else sympy.Function(node.func)
        return func(sympy.Lambda(var, body), self.domain(d, bound))
