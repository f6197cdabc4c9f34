"""Compile expression trees to z3 terms, with the side conditions that make them exact.

Two modes:

* :func:`compile_bv` - unsigned ``BitVec`` terms of a fixed width. Every value
  of the formula is an unsigned ``width``-bit number; an operation whose exact
  integer result would leave ``[0, 2**width)`` (an overflowing ``+``, ``*``,
  ``**`` or ``<<``, a subtraction that would go negative, a unary minus of a
  non-zero value) gets a *guard* that rules it out.
* :func:`compile_int` - unbounded z3 ``Int`` terms for formulas without
  bitwise operations; ``//`` and ``%`` follow Python's floor semantics exactly.

The contract (checked by property tests against
:func:`nimproof.expr.evaluate.evaluate`): wherever every guard holds, the
formula is defined and the compiled term equals its exact integer (or truth)
value. Guards are collected with the path that needs them: a guard found in
the taken branch of ``a if c else b``, in a later operand of ``and``/``or``
or of a comparison chain, or in the body of ``all``/``any`` after the result
is decided, is ``Implies(path, guard)``. A prover checks ``Not(And(guards))``
next to its own formula; see :attr:`Compiled.condition`.

Sub-formulas whose inputs are all plain Python integers (claim parameters,
``len(h)``, ``range`` loop variables, constants) are evaluated exactly with
:func:`~nimproof.expr.evaluate.evaluate` and enter the term as constants, so
``n % (k + 1)`` with ``k = 3`` compiles to ``n % 4`` without any guard.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import z3

from nimproof.errors import EvalError, NimproofError
from nimproof.expr import nodes
from nimproof.expr.evaluate import MAX_SHIFT, domain_values, evaluate
from nimproof.expr.nodes import children
from nimproof.expr.walk import (
    BITWISE,
    COMPARISONS,
    ZECKENDORF_CALLS,
    UnknownNode,
    Walker,
    uses_bitwise,
)

MAX_TERMS = 200_000
"""Most tree nodes one compilation may visit (reductions are unrolled); more is Unsupported."""

__all__ = ["MAX_TERMS", "Compiled", "Unsupported", "compile_bv", "compile_int"]


class Unsupported(NimproofError):
    """The formula cannot be compiled in the requested mode; the message says why."""


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: ``term`` is exact wherever every guard in ``guards`` holds."""

    term: z3.ExprRef
    guards: tuple[z3.BoolRef, ...]

    @property
    def condition(self) -> z3.BoolRef:
        """``And(guards)`` (``True`` when there are none)."""
        return z3.And(*self.guards) if self.guards else z3.BoolVal(True)


def compile_bv(
    node: nodes.Node,
    env: Mapping[str, object],
    width: int,
    folded: Mapping[int, tuple[nodes.Node, int | bool | None]] | None = None,
) -> Compiled:
    """Compile ``node`` to unsigned ``width``-bit ``BitVec`` terms.

    ``env`` maps each scalar name to a ``BitVec`` term of exactly ``width``
    bits or a Python int, and each sequence name to a list or tuple of such.
    ``bits`` is unrolled over positions ``0..width``, which gives the same
    value as the numeric meaning (positions ``0..63`` and up to the highest
    bit of the values): at
    every position from ``width`` on, each ``x >> b`` is 0. Raises
    :class:`Unsupported` when a constant does not fit in ``width`` unsigned
    bits, a variable has no value, or the unrolled formula is too large.
    ``folded``: constant subtrees of ``node`` already evaluated, by id
    (:func:`nimproof.expr.evaluate.constant_values`), read instead of evaluated again.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be a positive integer, not {width!r}")
    compiler = _Compiler(width)
    if folded:
        compiler.folded = folded
    term = compiler.compile(node, env, None)
    return Compiled(term, tuple(compiler.guards))


def compile_int(node: nodes.Node, env: Mapping[str, object]) -> Compiled:
    """Compile ``node`` to unbounded z3 ``Int`` terms.

    ``env`` maps each scalar name to an ``Int`` term or a Python int, and each
    sequence name to a list or tuple of such. Guards only exclude division by
    zero, indices out of range and undefined ``range`` bounds, so they hold
    exactly where the formula is defined (a power too large for the numeric
    evaluation to build is not excluded: the term is its mathematical value).
    Raises :class:`Unsupported` for formulas with bitwise operations
    (including ``xor``, ``popcount`` & co. and ``bits``).
    """
    if uses_bitwise(node):
        raise Unsupported("uses bitwise operations; use z3_bitvec")
    compiler = _Compiler(None)
    term = compiler.compile(node, env, None)
    return Compiled(term, tuple(compiler.guards))


# ---------------------------------------------------------------------------

Path: TypeAlias = "z3.BoolRef | None"  # the condition under which a sub-formula is evaluated


def _and(path: Path, cond: z3.BoolRef) -> z3.BoolRef:
    return cond if path is None else z3.And(path, cond)


def _python_int(value: object) -> int | None:
    if isinstance(value, z3.ExprRef):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


#: Comparisons of bit-vectors, which hold unsigned numbers (on Int terms, :data:`COMPARISONS`).
_BV_COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    **COMPARISONS,
    **dict(zip(("<", "<=", ">", ">="), (z3.ULT, z3.ULE, z3.UGT, z3.UGE), strict=True)),
}


class _Compiler(Walker[Any]):
    """One compilation: the mode (``width`` or ``None`` for Int) and the guards found."""

    def __init__(self, width: int | None) -> None:
        self.width = width
        self.guards: list[z3.BoolRef] = []
        self._seen: set[int] = set()
        self._deps: dict[int, frozenset[str]] = {}
        self._visited = 0
        self.folded: Mapping[int, tuple[nodes.Node, int | bool | None]] = {}

    # -- values and guards ---------------------------------------------------
    @property
    def bv(self) -> bool:
        return self.width is not None

    def const(self, value: int, node: nodes.Node | None = None) -> z3.ExprRef:
        if self.width is None:
            return z3.IntVal(value)
        if not 0 <= value < (1 << self.width):
            where = f" (at column {node.pos + 1})" if node is not None else ""
            raise Unsupported(
                f"the value {value}{where} does not fit in {self.width} unsigned bits"
            )
        return z3.BitVecVal(value, self.width)

    def term(self, value: object, name: str) -> z3.ExprRef:
        """An env entry (z3 term or Python int) as a term of this mode's sort."""
        if isinstance(value, z3.ExprRef):
            if self.width is not None:
                if not (z3.is_bv(value) and value.size() == self.width):
                    raise TypeError(
                        f"{name} must be a {self.width}-bit BitVec term, got {value.sort()}"
                    )
            elif not z3.is_int(value):
                raise TypeError(f"{name} must be an Int term, got {value.sort()}")
            return value
        number = _python_int(value)
        if number is None:
            raise TypeError(f"{name} must be a z3 term or an int, not {type(value).__name__}")
        return self.const(number)

    def sequence(self, name: str, env: Mapping[str, object]) -> Sequence[object]:
        seq = env.get(name)
        if seq is None:
            raise Unsupported(f"the sequence {name!r} has no value")
        if not isinstance(seq, (list, tuple)):
            raise TypeError(f"{name} must be a list or tuple of terms, not {type(seq).__name__}")
        return seq

    def guard(self, cond: z3.BoolRef, path: Path) -> None:
        """Record that ``cond`` must hold wherever ``path`` holds."""
        cond = z3.simplify(cond)
        if z3.is_true(cond):
            return
        if z3.is_false(cond):
            g = z3.BoolVal(False) if path is None else z3.Not(path)
        else:
            g = cond if path is None else z3.Implies(path, cond)
        key = g.get_id()
        if key not in self._seen:
            self._seen.add(key)
            self.guards.append(g)

    def zero(self) -> z3.ExprRef:
        return self.const(0)

    # -- constant folding ------------------------------------------------------
    def deps(self, node: nodes.Node) -> frozenset[str]:
        """Names whose *values* (not just lengths) ``node`` reads."""
        key = id(node)
        hit = self._deps.get(key)
        if hit is not None:
            return hit
        out: frozenset[str]
        if isinstance(node, nodes.Var):
            out = frozenset({node.name})
        elif isinstance(node, nodes.Len):
            out = frozenset()
        elif isinstance(node, nodes.Index):
            out = frozenset({node.seq}) | self.deps(node.index)
        elif isinstance(node, nodes.Reduce):
            out = self.deps(node.body) - {node.var}
            if isinstance(node.domain, nodes.SeqDomain):
                out |= {node.domain.name}
            for child in children(node)[1:]:
                out |= self.deps(child)
        else:
            out = frozenset()
            for child in children(node):
                out |= self.deps(child)
        self._deps[key] = out
        return out

    def fold(self, node: nodes.Node, env: Mapping[str, object]) -> int | bool | None:
        """The exact value of ``node`` when everything it reads is a Python int, else None."""
        if isinstance(node, nodes.Const):
            return node.value  # a literal is its own exact value
        known = self.folded.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        for name in self.deps(node):
            if name not in env:
                return None
            value = env[name]
            if isinstance(value, (list, tuple)):
                if any(_python_int(v) is None for v in value):
                    return None
            elif _python_int(value) is None:
                return None
        try:
            return evaluate(node, env)
        except (EvalError, LookupError, TypeError):
            return None  # undefined here (or malformed env): compile it and let guards decide

    # -- compilation -------------------------------------------------------------
    def compile(self, node: nodes.Node, env: Mapping[str, object], path: Path) -> Any:
        self._visited += 1
        if self._visited > MAX_TERMS:
            raise Unsupported(f"the formula unrolls to more than {MAX_TERMS} terms")
        folded = self.fold(node, env)
        if folded is not None:
            if node.type == "bool":
                return z3.BoolVal(bool(folded))
            value = int(folded)
            if self.width is None or 0 <= value < (1 << self.width):
                return self.const(value)
        return self.walk(node, env, path)

    def walk_const(self, node: nodes.Const, env: Mapping[str, object], path: Path) -> Any:
        if node.type == "bool":
            return z3.BoolVal(bool(node.value))
        return self.const(int(node.value), node)

    def walk_var(self, node: nodes.Var, env: Mapping[str, object], path: Path) -> Any:
        if node.name not in env:
            raise Unsupported(f"the variable {node.name!r} has no value")
        return self.term(env[node.name], node.name)

    def walk_len(self, node: nodes.Len, env: Mapping[str, object], path: Path) -> Any:
        return self.const(len(node.domain.indices(len(self.sequence(node.domain.name, env)))), node)

    def walk_unary(self, node: nodes.Unary, env: Mapping[str, object], path: Path) -> Any:
        operand = self.compile(node.operand, env, path)
        if node.op == "not":
            return z3.Not(operand)
        if self.bv:
            self.guard(operand == 0, path)  # no negative numbers exist in this mode
        return -operand

    def walk_binary(self, node: nodes.Binary, env: Mapping[str, object], path: Path) -> Any:
        left = self.compile(node.left, env, path)
        if node.op == "**":
            exponent = self.fold(node.right, {})
            if exponent is None:  # the parser only allows constant exponents
                raise Unsupported(f"the exponent at column {node.right.pos + 1} is not a constant")
            return self.power(left, int(exponent), path)
        right = self.compile(node.right, env, path)
        return self.binary(node.op, left, right, path)

    def walk_boolop(self, node: nodes.BoolOp, env: Mapping[str, object], path: Path) -> Any:
        values = []
        current = path
        for value_node in node.values:
            value = self.compile(value_node, env, current)
            values.append(value)
            current = _and(current, value if node.op == "and" else z3.Not(value))
        return z3.And(*values) if node.op == "and" else z3.Or(*values)

    def walk_ifelse(self, node: nodes.IfElse, env: Mapping[str, object], path: Path) -> Any:
        test = self.compile(node.test, env, path)
        body = self.compile(node.body, env, _and(path, test))
        orelse = self.compile(node.orelse, env, _and(path, z3.Not(test)))
        return z3.If(test, body, orelse)

    def walk_call(self, node: nodes.Call, env: Mapping[str, object], path: Path) -> Any:
        if node.func in ZECKENDORF_CALLS:
            raise Unsupported(f"{node.func} reads Zeckendorf digits (only the automata method)")
        args = [self.compile(a, env, path) for a in node.args]
        return self.call(node, args, path)

    def walk_index(self, node: nodes.Index, env: Mapping[str, object], path: Path) -> Any:
        seq = self.sequence(node.seq, env)
        where = f"{node.seq}[...]"
        fixed = self.fold(node.index, env)
        if fixed is not None:
            i = int(fixed)
            if -len(seq) <= i < len(seq):  # Python's rule: h[-1] is the last heap
                return self.term(seq[i], f"{node.seq}[{i % len(seq)}]")
            self.guard(z3.BoolVal(False), path)  # out of range: undefined wherever evaluated
            return self.zero()
        i_term = self.compile(node.index, env, path)
        reachable = len(seq)
        if self.width is not None:
            reachable = min(reachable, 1 << self.width)
            if len(seq) < (1 << self.width):
                self.guard(z3.ULT(i_term, len(seq)), path)
        else:
            self.guard(z3.And(i_term >= -len(seq), i_term < len(seq)), path)
        if reachable == 0:
            return self.zero()
        out = self.term(seq[reachable - 1], where)
        for j in reversed(range(reachable - 1)):
            out = z3.If(i_term == j, self.term(seq[j], where), out)
        if self.width is None:  # unbounded integers: negative indexes count from the end
            for j in range(len(seq)):
                out = z3.If(i_term == j - len(seq), self.term(seq[j], where), out)
        return out

    def walk_compare(self, node: nodes.Compare, env: Mapping[str, object], path: Path) -> Any:
        # Python evaluates the third operand of a < b < c only where a < b holds.
        cmp = _BV_COMPARISONS if self.bv else COMPARISONS
        left = self.compile(node.operands[0], env, path)
        results = []
        current = path
        for op, right_node in zip(node.ops, node.operands[1:], strict=True):
            right = self.compile(right_node, env, current)
            if right_node.type == "bool":
                result = left == right if op == "==" else left != right
            else:
                result = cmp[op](left, right)
            results.append(result)
            current = _and(current, result)
            left = right
        return results[0] if len(results) == 1 else z3.And(*results)

    # -- arithmetic ----------------------------------------------------------------
    def mul(self, a: Any, b: Any, path: Path) -> Any:
        if self.bv:
            self.guard(z3.BVMulNoOverflow(a, b, False), path)
        return a * b

    def power(self, base: Any, exponent: int, path: Path) -> Any:
        # Square and multiply; every intermediate value is at most base ** exponent,
        # so the overflow guards hold exactly when the result fits.
        if exponent == 0:
            return self.const(1)
        result = None
        while True:
            if exponent & 1:
                result = base if result is None else self.mul(result, base, path)
            exponent >>= 1
            if not exponent:
                return result
            base = self.mul(base, base, path)

    def floordiv_int(self, a: Any, b: Any, path: Path) -> Any:
        """Python's ``a // b`` on Int: z3's div is Euclidean, equal to floor for b > 0."""
        return self.by_divisor_sign(a, b, path, lambda x, y: x / y, lambda x, y: (-x) / (-y))

    def mod_int(self, a: Any, b: Any, path: Path) -> Any:
        """Python's ``a % b`` on Int (sign of the divisor)."""
        return self.by_divisor_sign(a, b, path, lambda x, y: x % y, lambda x, y: -((-x) % (-y)))

    def by_divisor_sign(
        self,
        a: Any,
        b: Any,
        path: Path,
        positive: Callable[[Any, Any], Any],
        negative: Callable[[Any, Any], Any],
    ) -> Any:
        """``positive(a, b)`` where ``b > 0``, ``negative(a, b)`` where ``b < 0``; guarded by
        ``b != 0`` (a constant divisor picks its case, and a zero one fails the guard)."""
        if z3.is_int_value(b):
            d = b.as_long()
            if d == 0:
                self.guard(z3.BoolVal(False), path)
                return z3.IntVal(0)
            return positive(a, b) if d > 0 else negative(a, b)
        self.guard(b != 0, path)
        return z3.If(b > 0, positive(a, b), negative(a, b))

    def binary(self, op: str, a: Any, b: Any, path: Path) -> Any:
        if op == "*":
            return self.mul(a, b, path)
        if self.width is None:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "//":
                return self.floordiv_int(a, b, path)
            if op == "%":
                return self.mod_int(a, b, path)
            raise Unsupported("uses bitwise operations; use z3_bitvec")
        w = self.width
        if op == "+":
            self.guard(z3.BVAddNoOverflow(a, b, False), path)
            return a + b
        if op == "-":
            self.guard(z3.UGE(a, b), path)
            return a - b
        if op in ("//", "%"):
            self.guard(b != 0, path)
            return z3.UDiv(a, b) if op == "//" else z3.URem(a, b)
        if op in BITWISE:
            return BITWISE[op](a, b)
        if op == ">>":
            return z3.LShR(a, b)  # exact: every value is below 2**width
        if op == "<<":
            shifted = a << b
            # Exact when shifting back restores a: no bit was lost. (From b >= width on,
            # shifted is 0, so this asks for a == 0, and 0 << b is 0 for every b.)
            self.guard(z3.LShR(shifted, b) == a, path)
            if (1 << w) - 1 > MAX_SHIFT:
                self.guard(z3.ULE(b, MAX_SHIFT), path)  # the numeric meaning refuses longer shifts
            return shifted
        raise UnknownNode(f"unknown operator {op!r}")

    def call(self, node: nodes.Call, args: list[Any], path: Path) -> Any:
        f = node.func
        if f in ("max", "min"):
            out = args[0]
            for x in args[1:]:
                if self.bv:
                    better = z3.UGT(x, out) if f == "max" else z3.ULT(x, out)
                else:
                    better = x > out if f == "max" else x < out
                out = z3.If(better, x, out)
            return out
        if f == "abs":
            return args[0] if self.bv else z3.If(args[0] >= 0, args[0], -args[0])
        if f == "ceil_div":
            a, b = args
            if self.width is None:
                return -self.floordiv_int(-a, b, path)
            self.guard(b != 0, path)
            # No overflow: a non-zero remainder means b >= 2, so the quotient is below the maximum.
            return z3.UDiv(a, b) + z3.If(z3.URem(a, b) != 0, self.const(1), self.const(0))
        if self.width is None:
            raise Unsupported("uses bitwise operations; use z3_bitvec")
        x = args[0]
        w = self.width

        def bit(i: int) -> z3.BoolRef:
            return z3.Extract(i, i, x) == 1

        if f == "popcount":
            return z3.Sum([z3.ZeroExt(w - 1, z3.Extract(i, i, x)) for i in range(w)])
        if f == "trailing_ones":
            out = self.const(w)
            for i in reversed(range(w)):
                out = z3.If(bit(i), out, self.const(i))
            return out
        if f == "trailing_zeros":
            out = self.const(0)  # 0 for x == 0 by convention
            for i in reversed(range(w)):
                out = z3.If(bit(i), self.const(i), out)
            return out
        if f == "bit_length":
            out = self.const(0)
            for i in range(w):
                out = z3.If(bit(i), self.const(i + 1), out)
            return out
        raise UnknownNode(f"unknown function {f!r}")

    # -- reductions --------------------------------------------------------------
    def walk_reduce(self, node: nodes.Reduce, env: Mapping[str, object], path: Path) -> Any:
        dom = node.domain
        f = node.func
        items: Sequence[object]
        if isinstance(dom, nodes.SeqDomain):
            seq = self.sequence(dom.name, env)
            items = [seq[i] for i in dom.indices(len(seq))]
        elif isinstance(dom, nodes.BitsDomain):
            if self.width is None:
                raise Unsupported("uses bitwise operations; use z3_bitvec")
            # Positions from the width on all give the body's value at the width (every x >> b is 0).
            items = list(range(self.width + 1))
        else:
            try:
                items = domain_values(dom, env)
            except EvalError:
                self.guard(z3.BoolVal(False), path)  # the range itself is undefined
                return z3.BoolVal(f == "all") if node.type == "bool" else self.zero()
        local = dict(env)
        bodies = []
        current = path
        for item in items:
            local[node.var] = item
            body = self.compile(node.body, local, current if f in ("all", "any") else path)
            bodies.append(body)
            if f == "all":
                current = _and(current, body)
            elif f == "any":
                current = _and(current, z3.Not(body))
        if f == "all":
            return z3.And(*bodies)
        if f == "any":
            return z3.Or(*bodies)
        if f == "count":
            ones = [z3.If(b, self.const(1), self.const(0)) for b in bodies]
            return self.total(ones, path, 1)
        if f == "sum":
            return self.total(bodies, path, self.upper(node.body) if self.bv else None)
        if not bodies:
            return self.zero()
        out = bodies[0]
        for b in bodies[1:]:
            if f == "xor":
                out = out ^ b
            elif self.bv:
                out = z3.If((z3.UGT if f == "max" else z3.ULT)(b, out), b, out)
            else:
                out = z3.If(b > out if f == "max" else b < out, b, out)
        return out

    def upper(self, node: nodes.Node) -> int:
        """A bound on every BitVec value ``node`` can compile to (loose: 2**width - 1 by default)."""
        assert self.width is not None
        top = (1 << self.width) - 1
        if isinstance(node, nodes.Const):
            return min(top, max(int(node.value), 0))
        if isinstance(node, nodes.Binary) and node.op == "&":
            return min(self.upper(node.left), self.upper(node.right))
        if isinstance(node, nodes.Binary) and node.op == ">>":
            return self.upper(node.left)
        if isinstance(node, nodes.Call) and node.func in (
            "popcount",
            "trailing_ones",
            "trailing_zeros",
            "bit_length",
        ):
            return min(top, self.width)
        if isinstance(node, nodes.IfElse):
            return max(self.upper(node.body), self.upper(node.orelse))
        return top

    def total(self, values: list[Any], path: Path, bound: int | None = None) -> Any:
        """Exact sum; in BitVec mode added in a wider vector and guarded to fit.

        ``bound`` is an upper bound on each value: when the sum of the bounds fits,
        the plain ``width``-bit sum cannot wrap and needs no guard.
        """
        if not values:
            return self.zero()
        if self.width is None:
            return z3.Sum(values) if len(values) > 1 else values[0]
        if len(values) == 1:
            return values[0]
        if bound is not None and bound * len(values) < (1 << self.width):
            return z3.Sum(values)
        extra = len(values).bit_length()
        wide = z3.Sum([z3.ZeroExt(extra, v) for v in values])
        w = self.width
        self.guard(z3.Extract(w + extra - 1, w, wide) == 0, path)
        return z3.Extract(w - 1, 0, wide)
