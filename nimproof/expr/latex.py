"""LaTeX rendering of expression trees, for reports.

:func:`to_latex` writes deterministic LaTeX (math-mode content, without ``$``)
straight from the tree, so it keeps the formula's own order and grouping:
``n % (k+1)`` is ``n \\bmod (k + 1)``, ``xor(h) == 0`` is
``h_0 \\oplus h_1 \\oplus \\dots = 0``, ``all(... for x in h)`` is a
quantifier, ``a if c else b`` a ``cases`` block. It never raises: a tree it
cannot render becomes ``\\texttt{...}`` of :func:`~nimproof.expr.text.to_text`.
Indices are 0-based, as in the formulas: ``h[0]`` is ``h_{0}``. For display
only; nothing here takes part in a proof.
"""

from __future__ import annotations

import re

from nimproof.expr import nodes
from nimproof.expr.nodes import BIT_OPS
from nimproof.expr.text import (
    ADD,
    AND,
    ATOM,
    BITAND,
    BITOR,
    BITXOR,
    CASES,
    CHAIN,
    CMP,
    MUL,
    NEG,
    NOT,
    OR,
    POW,
    QUANT,
    SHIFT,
    bit_pattern,
    colsum_pattern,
    slice_text,
    to_text,
)
from nimproof.expr.walk import Walker

__all__ = ["to_latex"]

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


def to_latex(node: nodes.Node) -> str:
    """LaTeX math-mode text for ``node``; the same tree always gives the same text.

    Never raises on a tree produced by :func:`~nimproof.expr.parser.parse`:
    anything the renderer does not handle falls back to ``\\texttt{...}``.
    """
    try:
        return _Latex().render(node)[0]
    except Exception:
        return _texttt(_safe_text(node))


# ---------------------------------------------------------------------------


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


def _safe_text(node: nodes.Node) -> str:
    try:
        return to_text(node)
    except Exception:
        return "formula"


class _Latex(Walker[tuple[str, int]]):
    def render(self, node: nodes.Node) -> tuple[str, int]:
        """The LaTeX of ``node`` and how tightly it binds."""
        return self.walk(node)

    def walk_const(self, node: nodes.Const) -> tuple[str, int]:
        if isinstance(node.value, bool):
            return (r"\mathsf{true}" if node.value else r"\mathsf{false}"), ATOM
        return str(node.value), (NEG if node.value < 0 else ATOM)

    def walk_var(self, node: nodes.Var) -> tuple[str, int]:
        return _name(node.name), ATOM

    def walk_index(self, node: nodes.Index) -> tuple[str, int]:
        return f"{_name(node.seq)}_{{{self.render(node.index)[0]}}}", ATOM

    def walk_len(self, node: nodes.Len) -> tuple[str, int]:
        return rf"\lvert {self.domain_set(node.domain)} \rvert", ATOM

    def walk_unary(self, node: nodes.Unary) -> tuple[str, int]:
        if node.op == "not":
            return r"\lnot " + self.wrap(node.operand, NOT + 1), NOT
        return "-" + self.wrap(node.operand, NEG), NEG

    def walk_ifelse(self, node: nodes.IfElse) -> tuple[str, int]:
        return self.cases(node), CASES

    def wrap(self, node: nodes.Node, need: int) -> str:
        """``node`` rendered, in parentheses when it binds more loosely than ``need``."""
        text, prec = self.render(node)
        if prec >= need:
            return text
        if prec == CASES:
            return rf"\left({text}\right)"
        return f"({text})"

    def walk_binary(self, node: nodes.Binary) -> tuple[str, int]:
        op = node.op
        bit = bit_pattern(node)
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
            same_chain = op in "&|^" and isinstance(node.left, nodes.Binary) and node.left.op == op
            left = self.render(node.left)[0] if same_chain else self.wrap(node.left, ATOM)
            return f"{left} {symbol} {self.wrap(node.right, ATOM)}", prec
        if op in ("+", "-"):
            symbol = op
            return f"{self.wrap(node.left, ADD)} {symbol} {self.wrap(node.right, ADD + 1)}", ADD
        if op == "%":
            left_need = (
                MUL + 1 if isinstance(node.left, nodes.Binary) and node.left.op == "%" else MUL
            )
            return rf"{self.wrap(node.left, left_need)} \bmod {self.wrap(node.right, MUL + 1)}", MUL
        # '*': juxtapose a number and a name (2 n), otherwise a centred dot.
        left = self.wrap(
            node.left,
            MUL + 1 if isinstance(node.left, nodes.Binary) and node.left.op == "%" else MUL,
        )
        right, right_prec = self.render(node.right)
        if right_prec <= MUL:
            right = f"({right})" if right_prec != CASES else rf"\left({right}\right)"
        if (
            isinstance(node.left, nodes.Const)
            and not isinstance(node.left.value, bool)
            and node.left.value >= 0
            and isinstance(node.right, (nodes.Var, nodes.Index))
        ):
            return f"{left} {right}", MUL
        return rf"{left} \cdot {right}", MUL

    def walk_compare(self, node: nodes.Compare) -> tuple[str, int]:
        parts = []
        for i, operand in enumerate(node.operands):
            if i:
                op = node.ops[i - 1]
                if operand.type == "bool":
                    parts.append(r"\Leftrightarrow" if op == "==" else r"\not\Leftrightarrow")
                else:
                    parts.append(_CMP_LATEX[op])
            if (
                isinstance(operand, nodes.Binary)
                and operand.op in BIT_OPS
                and bit_pattern(operand) is None
            ):
                parts.append(self.wrap(operand, ATOM))
            else:
                parts.append(self.wrap(operand, CMP + 1))
        return " ".join(parts), CMP

    def walk_boolop(self, node: nodes.BoolOp) -> tuple[str, int]:
        values = node.values
        if (
            node.op == "or"
            and len(values) == 2
            and isinstance(values[0], nodes.Unary)
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
            if p < prec or isinstance(v, nodes.BoolOp) or p == QUANT:
                text = rf"\left({text}\right)" if p == CASES else f"({text})"
            rendered.append(text)
        return symbol.join(rendered), prec

    def cases(self, node: nodes.IfElse) -> str:
        rows = []
        current: nodes.Node = node
        while isinstance(current, nodes.IfElse):
            rows.append(rf"{self.cell(current.body)} & \text{{if }} {self.render(current.test)[0]}")
            current = current.orelse
        rows.append(rf"{self.cell(current)} & \text{{otherwise}}")
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"

    def cell(self, node: nodes.Node) -> str:
        text, prec = self.render(node)
        return rf"\left({text}\right)" if prec == CASES else text

    def walk_call(self, node: nodes.Call) -> tuple[str, int]:
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
    def domain_set(self, d: nodes.SeqDomain) -> str:
        name = _name(d.name)
        if d.start is None and d.stop is None and d.step is None:
            return name
        return name + "[" + slice_text(d).replace(":", "{:}") + "]"

    def binder(self, var: str, d: nodes.Domain) -> str:
        """``x \\in h``, ``b \\ge 0``, ``0 \\le i < \\lvert h \\rvert``."""
        v = _name(var)
        if isinstance(d, nodes.SeqDomain):
            return rf"{v} \in {self.domain_set(d)}"
        if isinstance(d, nodes.BitsDomain):
            return rf"{v} \ge 0"
        if isinstance(d.step, nodes.Const) and d.step.value == 1:
            return rf"{self.wrap(d.start, ADD)} \le {v} < {self.wrap(d.stop, ADD)}"
        bounds = ", ".join(self.render(x)[0] for x in (d.start, d.stop, d.step))
        return rf"{v} \in {_op('range')}({bounds})"

    def elements(self, d: nodes.SeqDomain) -> list[str] | None:
        """The first elements of a sequence domain, when the slice has an obvious pattern."""
        start = d.start if d.start is not None else 0
        step = d.step if d.step is not None else 1
        if d.stop is not None or start < 0 or step <= 0:
            return None
        name = _name(d.name)
        return [
            f"{name}_{{{start + k * step}}}" for k in range(2 if step == 1 and start == 0 else 3)
        ]

    def walk_reduce(self, node: nodes.Reduce) -> tuple[str, int]:
        f, d = node.func, node.domain
        simple = isinstance(node.body, nodes.Var) and node.body.name == node.var
        b = colsum_pattern(node)
        if b is not None:
            assert isinstance(d, nodes.SeqDomain)
            return rf"{_op('colsum')}({self.domain_set(d)}, {self.render(b)[0]})", ATOM
        if simple and isinstance(d, nodes.SeqDomain):
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
