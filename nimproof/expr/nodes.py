"""The expression tree: one representation, compiled by several back ends.

Every node records ``pos``, the character offset in the source text, so that
errors raised by any back end can point at the place in the formula. Nodes
are immutable; values are of two types, ``int`` (unbounded integers) and
``bool``. Sequences (the heaps ``h`` and slices of it, ``bits``, ``range``)
only appear as the domain of a reduction such as ``xor(h)`` or
``all(x <= 1 for x in h)``, or indexed as ``h[i]``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

Type = Literal["int", "bool"]

ARITH_OPS = ("+", "-", "*", "//", "%", "**")
BIT_OPS = ("&", "|", "^", "<<", ">>")
CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every node; ``type`` is filled in by the parser's type check."""

    pos: int = field(compare=False)
    type: Type = field(compare=False)


@dataclass(frozen=True, slots=True)
class Const(Node):
    value: int | bool


@dataclass(frozen=True, slots=True)
class Var(Node):
    """A scalar variable (``n``, ``m``, ``k``, a bound loop variable, ...)."""

    name: str


@dataclass(frozen=True, slots=True)
class Index(Node):
    """``h[i]``: one element of a sequence variable."""

    seq: str
    index: Node


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: Literal["-", "not"]
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """A chain ``a < b <= c``: true when every adjacent pair compares true."""

    ops: tuple[str, ...]
    operands: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    """``and`` / ``or`` with Python's short-circuit meaning (a later operand is only
    evaluated, and only has to be defined, where the earlier ones did not decide)."""

    op: Literal["and", "or"]
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class IfElse(Node):
    test: Node
    body: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    """A scalar built-in: ``popcount(x)``, ``min(a, b)``, ``colsum(h, b)``, ..."""

    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class SeqDomain:
    """A sequence variable, optionally sliced with constant bounds: ``h``, ``h[::2]``."""

    name: str
    start: int | None = None
    stop: int | None = None
    step: int | None = None

    def indices(self, length: int) -> range:
        """The indices of the underlying sequence that the slice selects."""
        return range(length)[slice(self.start, self.stop, self.step)]


@dataclass(frozen=True, slots=True)
class BitsDomain:
    """``bits``: the bit positions 0, 1, ..., up to the width in use."""


@dataclass(frozen=True, slots=True)
class RangeDomain:
    """``range(a, b, c)`` whose bounds are constants or ``len(h)`` arithmetic."""

    start: Node
    stop: Node
    step: Node


Domain = SeqDomain | BitsDomain | RangeDomain


@dataclass(frozen=True, slots=True)
class Reduce(Node):
    """``func(body for var in domain)``; ``xor(h)`` is ``xor(x for x in h)``.

    ``func`` is one of xor, sum, all, any, max, min, count. ``max`` and ``min``
    of an empty domain are 0; ``count`` counts the true bodies.
    """

    func: str
    body: Node
    var: str
    domain: Domain


@dataclass(frozen=True, slots=True)
class Len(Node):
    """``len(h)`` or the length of a slice of it."""

    domain: SeqDomain


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-nodes of ``node`` (domains' bound expressions included)."""
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Compare):
        return node.operands
    if isinstance(node, BoolOp):
        return node.values
    if isinstance(node, IfElse):
        return (node.test, node.body, node.orelse)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Index):
        return (node.index,)
    if isinstance(node, Reduce):
        extra: tuple[Node, ...] = ()
        if isinstance(node.domain, RangeDomain):
            extra = (node.domain.start, node.domain.stop, node.domain.step)
        return (node.body, *extra)
    return ()


def walk_tree(node: Node) -> list[Node]:
    """Every node of the tree, parents before children."""
    out = [node]
    stack = [node]
    while stack:
        for child in children(stack.pop()):
            out.append(child)
            stack.append(child)
    return out


def free_names(node: Node) -> set[str]:
    """Scalar and sequence variable names used but not bound inside ``node``."""
    names: set[str] = set()

    def visit(n: Node, bound: frozenset[str]) -> None:
        if isinstance(n, Var):
            if n.name not in bound:
                names.add(n.name)
        elif isinstance(n, Index):
            names.add(n.seq)
            visit(n.index, bound)
        elif isinstance(n, Len):
            names.add(n.domain.name)
        elif isinstance(n, Reduce):
            if isinstance(n.domain, SeqDomain):
                names.add(n.domain.name)
            elif isinstance(n.domain, RangeDomain):
                for b in (n.domain.start, n.domain.stop, n.domain.step):
                    visit(b, bound)
            visit(n.body, bound | {n.var})
        else:
            for c in children(n):
                visit(c, bound)

    visit(node, frozenset())
    return names


def constant_subtrees(node: Node, params: Collection[str]) -> list[Node]:
    """The largest subtrees of ``node`` (literals aside) that read no name but ``params`` and
    bind none: the constants a compiler would fold (``2**50 + 1``), in tree order."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Const | Reduce):
            continue  # a literal is its own value; a bound variable is left to the compilers
        if _params_only(n, params):
            out.append(n)
        else:
            stack.extend(reversed(children(n)))
    return out


def _params_only(node: Node, params: Collection[str]) -> bool:
    """True when ``node`` reads no name but ``params`` (and binds none)."""
    if isinstance(node, Var):
        return node.name in params
    if isinstance(node, Index | Len | Reduce):
        return False
    return all(_params_only(c, params) for c in children(node))
