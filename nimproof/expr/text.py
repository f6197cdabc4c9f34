"""Plain-text rendering of expression trees: the formula back as Python-like text.

:func:`to_text` writes text that :func:`~nimproof.expr.parser.parse` reads
back to the same tree. The binding strengths and the patterns that the LaTeX
printer (:mod:`.latex`) shares with it (``bit(x, i)`` and ``colsum(S, i)``,
which the parser expands) live here. For display only; nothing here takes
part in a proof.
"""

from __future__ import annotations

from nimproof.expr import nodes
from nimproof.expr.nodes import free_names
from nimproof.expr.walk import Walker

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


def to_text(node: nodes.Node) -> str:
    """The formula as Python-like text that :func:`~nimproof.expr.parser.parse` reads back."""
    return _Text().render(node)[0]


def bit_pattern(node: nodes.Node) -> tuple[nodes.Node, nodes.Node] | None:
    """``(x >> b) & 1`` (what ``bit(x, b)`` parses to): returns ``(x, b)``."""
    if (
        isinstance(node, nodes.Binary)
        and node.op == "&"
        and isinstance(node.right, nodes.Const)
        and node.right.value == 1
        and not isinstance(node.right.value, bool)
        and isinstance(node.left, nodes.Binary)
        and node.left.op == ">>"
    ):
        return node.left.left, node.left.right
    return None


def colsum_pattern(node: nodes.Reduce) -> nodes.Node | None:
    """``sum((x >> b) & 1 for x in S)`` (what ``colsum(S, b)`` parses to): returns ``b``."""
    if node.func != "sum" or not isinstance(node.domain, nodes.SeqDomain):
        return None
    bit = bit_pattern(node.body)
    if bit is None:
        return None
    x, b = bit
    if isinstance(x, nodes.Var) and x.name == node.var and node.var not in free_names(b):
        return b
    return None


def slice_text(d: nodes.SeqDomain) -> str:
    parts = ["" if v is None else str(v) for v in (d.start, d.stop)]
    text = ":".join(parts)
    if d.step is not None:
        text += f":{d.step}"
    return text


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


class _Text(Walker[tuple[str, int]]):
    def render(self, node: nodes.Node) -> tuple[str, int]:
        return self.walk(node)

    def walk_const(self, node: nodes.Const) -> tuple[str, int]:
        return repr(node.value), (
            _PY_NEG if not isinstance(node.value, bool) and node.value < 0 else _PY_ATOM
        )

    def walk_var(self, node: nodes.Var) -> tuple[str, int]:
        return node.name, _PY_ATOM

    def walk_index(self, node: nodes.Index) -> tuple[str, int]:
        return f"{node.seq}[{self.render(node.index)[0]}]", _PY_ATOM

    def walk_len(self, node: nodes.Len) -> tuple[str, int]:
        return f"len({self.domain(node.domain)})", _PY_ATOM

    def walk_unary(self, node: nodes.Unary) -> tuple[str, int]:
        if node.op == "not":
            return "not " + self.wrap(node.operand, NOT), NOT
        return "-" + self.wrap(node.operand, _PY_NEG), _PY_NEG

    def walk_binary(self, node: nodes.Binary) -> tuple[str, int]:
        bit = bit_pattern(node)
        if bit is not None:
            return f"bit({self.render(bit[0])[0]}, {self.render(bit[1])[0]})", _PY_ATOM
        if node.op == "**":
            return f"{self.wrap(node.left, _PY_ATOM)} ** {self.render(node.right)[0]}", _PY_POW
        prec = _PY_BIN_PREC[node.op]
        return f"{self.wrap(node.left, prec)} {node.op} {self.wrap(node.right, prec + 1)}", prec

    def walk_compare(self, node: nodes.Compare) -> tuple[str, int]:
        parts = [self.wrap(node.operands[0], CMP + 1)]
        for op, operand in zip(node.ops, node.operands[1:], strict=True):
            parts += [op, self.wrap(operand, CMP + 1)]
        return " ".join(parts), CMP

    def walk_boolop(self, node: nodes.BoolOp) -> tuple[str, int]:
        prec = AND if node.op == "and" else OR
        return f" {node.op} ".join(self.wrap(v, prec + 1) for v in node.values), prec

    def walk_ifelse(self, node: nodes.IfElse) -> tuple[str, int]:
        body = self.wrap(node.body, OR)
        test = self.wrap(node.test, OR)
        return f"{body} if {test} else {self.wrap(node.orelse, CASES)}", CASES

    def walk_call(self, node: nodes.Call) -> tuple[str, int]:
        return f"{node.func}({', '.join(self.render(a)[0] for a in node.args)})", _PY_ATOM

    def walk_reduce(self, node: nodes.Reduce) -> tuple[str, int]:
        column = colsum_pattern(node)
        if column is not None and isinstance(node.domain, nodes.SeqDomain):
            return f"colsum({self.domain(node.domain)}, {self.render(column)[0]})", _PY_ATOM
        if (
            isinstance(node.body, nodes.Var)
            and node.body.name == node.var
            and isinstance(node.domain, nodes.SeqDomain)
        ):
            return f"{node.func}({self.domain(node.domain)})", _PY_ATOM
        return (
            f"{node.func}({self.render(node.body)[0]} for {node.var} in {self.domain(node.domain)})",
            _PY_ATOM,
        )

    def wrap(self, node: nodes.Node, need: int) -> str:
        text, prec = self.render(node)
        return text if prec >= need else f"({text})"

    def domain(self, d: nodes.Domain) -> str:
        if isinstance(d, nodes.SeqDomain):
            if d.start is None and d.stop is None and d.step is None:
                return d.name
            return f"{d.name}[{slice_text(d)}]"
        if isinstance(d, nodes.BitsDomain):
            return "bits"
        return f"range({', '.join(self.render(x)[0] for x in (d.start, d.stop, d.step))})"
