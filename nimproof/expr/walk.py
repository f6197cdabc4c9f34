"""One walker over formulas, one table of built-in functions.

Every back end of the expression language (exact and vectorised evaluation
in :mod:`.evaluate`, z3 bit-vector and integer terms in :mod:`.to_z3`, sympy
in :mod:`.to_sympy`, LaTeX in :mod:`.latex`, text in :mod:`.text`) is a
subclass of :class:`Walker`. The walker dispatches on the node's type to one
handler method per node type; a tree node with no handler is refused in one
place, :meth:`Walker.walk`, with :class:`UnknownNode`.

How a back end plugs in::

    class Depth(Walker[int]):
        '''Height of a tree (a toy back end).'''

        def walk_const(self, node: Const) -> int:
            return 1

        def walk_var(self, node: Var) -> int:
            return 1

        def walk_binary(self, node: Binary) -> int:
            return 1 + max(self.walk(node.left), self.walk(node.right))

        ...  # one walk_<name> per node type in HANDLERS

    Depth().walk(parse("n + 1", scalars=("n",)))   # 2

* Handlers are named after the node types in :data:`HANDLERS`
  (``walk_const``, ``walk_var``, ``walk_index``, ``walk_len``,
  ``walk_unary``, ``walk_binary``, ``walk_compare``, ``walk_boolop``,
  ``walk_ifelse``, ``walk_call``, ``walk_reduce``, and for the domains of a
  reduction ``walk_seq_domain``, ``walk_bits_domain``,
  ``walk_range_domain``).
* Extra positional arguments of :meth:`Walker.walk` (an environment, a path
  condition, a set of bound names) are passed to the handler unchanged; a
  handler recurses by calling ``self.walk(child, ...)``.
* A back end that leaves out a handler refuses that node type with
  :class:`UnknownNode` (which names the back end and the node); a back end
  that supports only part of the language should raise its own error (for
  instance :class:`~nimproof.expr.to_z3.Unsupported`) from the handler, with
  a reason a user can act on.
* Calls of built-in functions (``popcount(x)``, ``ceil_div(a, b)``, ...) are
  described once in :data:`BUILTINS`: arity, whether the function is
  bit-level (undefined on negative numbers; z3 ``Int`` cannot express it) and
  its exact meaning on Python integers, which every back end must match.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from nimproof.errors import EvalError
from nimproof.expr import nodes, zeckendorf

R = TypeVar("R")

#: Node type -> name of the handler method a back end defines for it.
HANDLERS: dict[type, str] = {
    nodes.Const: "walk_const",
    nodes.Var: "walk_var",
    nodes.Index: "walk_index",
    nodes.Len: "walk_len",
    nodes.Unary: "walk_unary",
    nodes.Binary: "walk_binary",
    nodes.Compare: "walk_compare",
    nodes.BoolOp: "walk_boolop",
    nodes.IfElse: "walk_ifelse",
    nodes.Call: "walk_call",
    nodes.Reduce: "walk_reduce",
    nodes.SeqDomain: "walk_seq_domain",
    nodes.BitsDomain: "walk_bits_domain",
    nodes.RangeDomain: "walk_range_domain",
}


class UnknownNode(TypeError):
    """A tree node that the back end in use has no handler for."""


class Walker(Generic[R]):
    """Base of every back end: dispatch on node type to ``walk_<name>`` handlers."""

    _table: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._table = {
            node_type: getattr(cls, name)
            for node_type, name in HANDLERS.items()
            if callable(getattr(cls, name, None))
        }

    def walk(self, node: nodes.Node | nodes.Domain, *args: Any) -> R:
        """The back end's result for ``node`` (extra arguments go to the handler)."""
        handler = self._table.get(type(node))
        if handler is None:
            raise UnknownNode(f"{type(self).__name__} has no handler for {type(node).__name__}")
        result: R = handler(self, node, *args)
        return result


#: The comparison operators of the language; Python's operators, so one entry serves
#: Python integers, numpy arrays and z3 integers alike.
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}

#: The bitwise operators whose meaning on non-negative operands is Python's operator for
#: Python integers, numpy arrays and z3 bit-vectors alike (shifts need care in each back end).
BITWISE: dict[str, Callable[[Any, Any], Any]] = {
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}


# ---------------------------------------------------------------------------
# Built-in functions


def trailing_ones(x: int) -> int:
    """Number of trailing 1 bits of ``x >= 0``."""
    return ((x + 1) & -(x + 1)).bit_length() - 1 if x >= 0 else 0


def trailing_zeros(x: int) -> int:
    """Number of trailing 0 bits of ``x > 0``; 0 for ``x == 0`` by convention."""
    return (x & -x).bit_length() - 1 if x > 0 else 0


def _ceil_div(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("division by zero")
    return -((-a) // b)


def _natural(fn: Callable[[int], int]) -> Callable[[int], int]:
    """``fn`` refused (EvalError) on negative numbers."""

    def exact(x: int) -> int:
        if x < 0:
            raise EvalError(f"{fn.__name__} of a negative number")
        return fn(x)

    exact.__name__ = fn.__name__
    return exact


#: The built-ins that read Zeckendorf digits: only the automata method's Zeckendorf
#: numeration compiles them (every other back end but exact evaluation refuses them).
ZECKENDORF_CALLS = frozenset(("zlow", "zshift", "phi_floor"))


@dataclass(frozen=True, slots=True)
class Builtin:
    """A scalar built-in function of the formula language.

    ``arity`` is the number of arguments (``None``: two or more); ``bitwise``
    says the function reads binary digits, so it is undefined on negative
    numbers and the z3 ``Int`` back end cannot express it; ``exact`` is the
    meaning on Python integers, raising :class:`EvalError` where undefined.
    """

    name: str
    arity: int | None
    bitwise: bool
    exact: Callable[..., int]

    def apply(self, args: Sequence[int]) -> int:
        """The exact value at ``args`` (:class:`EvalError` where undefined)."""
        if self.bitwise and args[0] < 0:
            raise EvalError(f"{self.name} of a negative number")
        return self.exact(*args)


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in (
        Builtin("popcount", 1, True, int.bit_count),
        Builtin("trailing_ones", 1, True, trailing_ones),
        Builtin("trailing_zeros", 1, True, trailing_zeros),
        Builtin("bit_length", 1, True, int.bit_length),
        Builtin("abs", 1, False, abs),
        Builtin("ceil_div", 2, False, _ceil_div),
        Builtin("max", None, False, max),
        Builtin("min", None, False, min),
        Builtin("zlow", 1, False, _natural(zeckendorf.zlow)),
        Builtin("zshift", 1, False, _natural(zeckendorf.zshift)),
        Builtin("phi_floor", 1, False, _natural(zeckendorf.phi_floor)),
    )
}

#: The built-ins that read binary digits.
BITWISE_CALLS = frozenset(name for name, b in BUILTINS.items() if b.bitwise)


def builtin(node: nodes.Call) -> Builtin:
    """The table entry of a call's function (:class:`UnknownNode` if it has none)."""
    try:
        return BUILTINS[node.func]
    except KeyError:
        raise UnknownNode(f"unknown function {node.func!r}") from None


def uses_bitwise(node: nodes.Node) -> bool:
    """True when the formula needs bit-level operations (so z3 ``Int`` cannot take it)."""
    for n in nodes.walk_tree(node):
        if isinstance(n, nodes.Binary) and n.op in nodes.BIT_OPS:
            return True
        if isinstance(n, nodes.Reduce) and (
            n.func == "xor" or isinstance(n.domain, nodes.BitsDomain)
        ):
            return True
        if isinstance(n, nodes.Call) and n.func in BITWISE_CALLS:
            return True
    return False


__all__ = [
    "BITWISE",
    "BITWISE_CALLS",
    "BUILTINS",
    "COMPARISONS",
    "HANDLERS",
    "Builtin",
    "UnknownNode",
    "Walker",
    "builtin",
    "trailing_ones",
    "trailing_zeros",
    "uses_bitwise",
]
