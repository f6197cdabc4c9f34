"""Numeric back ends: exact scalar evaluation and vectorised numpy evaluation.

Both follow the same semantics, which every other back end must match:

* integers are unbounded; ``//`` and ``%`` are Python's floor division;
* a formula is *undefined* at a point where it divides by zero, shifts by a
  negative amount, applies a bitwise operation (or ``popcount`` & co.) to a
  negative number, or indexes ``h`` out of range; ``and``/``or``/``if`` (and a
  comparison chain, and ``all``/``any`` once decided) only need the part they
  evaluate to be defined;
* ``bits`` ranges over bit positions 0..63, and further, up to the highest bit
  of any number in the environment (one position past it): every bit
  position that can matter for the heaps, so that a claim about ``bits``
  means the same for heaps of every size;
* so that no formula can exhaust time or memory, a shift by more than
  ``MAX_SHIFT`` bits, a power certain to exceed ``MAX_POWER_BITS`` bits and a
  ``range`` of more than ``MAX_RANGE`` elements are refused like undefined
  points (the z3 ``Int`` back end, which never builds such numbers, does not
  exclude huge powers: its term is the mathematical value there).

:func:`evaluate` raises :class:`EvalError` where the formula is undefined.
:func:`evaluate_array` returns values and a mask of the points where it is
undefined; it raises :class:`EvalError` when int64 arithmetic would overflow
(use smaller bounds, or the exact scalar evaluation).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from nimproof.errors import EvalError
from nimproof.expr import nodes
from nimproof.expr.walk import BITWISE, COMPARISONS, ZECKENDORF_CALLS, UnknownNode, Walker, builtin

BITS = 64
MAX_SHIFT = 4096
MAX_POWER_BITS = 1 << 16
MAX_RANGE = 1 << 16
_LIMIT = 1 << 62

Scalar = int | bool
Env = Mapping[str, Any]


def domain_values(
    domain: nodes.Domain, env: Env, bits: int = BITS
) -> list[int] | list[tuple[int, Any]]:
    """Indices of a range/bits domain (ints), or for a sequence the selected indices."""
    if isinstance(domain, nodes.BitsDomain):
        return list(range(max(bits, _env_bits(env) + 1)))
    if isinstance(domain, nodes.RangeDomain):
        start, stop, step = (
            int(evaluate(x, env)) for x in (domain.start, domain.stop, domain.step)
        )
        if step == 0:
            raise EvalError("range step is zero")
        indices = range(start, stop, step)
        try:
            too_long = len(indices) > MAX_RANGE
        except OverflowError:  # more elements than a machine word counts
            too_long = True
        if too_long:
            raise EvalError(f"range of more than {MAX_RANGE} elements")
        return list(indices)
    seq = env[domain.name]
    return list(domain.indices(len(seq)))


def _env_bits(env: Env) -> int:
    """The largest bit length of a non-negative int in ``env`` (sequences included)."""
    top = 0
    for v in env.values():
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            top = max(top, v.bit_length())
        elif isinstance(v, tuple | list):
            for x in v:
                if isinstance(x, int) and not isinstance(x, bool) and x > 0:
                    top = max(top, x.bit_length())
    return top


def evaluate(node: nodes.Node, env: Env) -> Scalar:
    """Exact value of ``node`` with Python integers.

    ``env`` maps scalar names to ints and sequence names to tuples of ints.
    Raises :class:`EvalError` where the formula is undefined.
    """
    return _EXACT.walk(node, env)


def evaluate_each(node: nodes.Node, envs: Sequence[Env]) -> list[Scalar | EvalError]:
    """:func:`evaluate` at each of ``envs``, in one call (a re-check's batch of positions):
    each exact value, or the :class:`EvalError` where the formula is undefined there."""
    out: list[Scalar | EvalError] = []
    for env in envs:
        try:
            out.append(_EXACT.walk(node, env))
        except EvalError as exc:
            out.append(exc)
    return out


def constant_values(
    subtrees: Sequence[nodes.Node], params: Mapping[str, int]
) -> dict[int, tuple[nodes.Node, Scalar | None]]:
    """The exact value of each of ``subtrees`` (:func:`nimproof.expr.nodes.constant_subtrees`:
    they read only the parameters ``params``), in one call, keyed by the subtree's ``id``
    with the subtree itself (so that an id names no other node while the entry is kept: a
    reader checks the node is the one it folds); None where it is undefined. What a compiler
    would fold one at a time (``2**50 + 1``), folded once when a claim is prepared."""
    out: dict[int, tuple[nodes.Node, Scalar | None]] = {}
    env = dict(params)
    for n in subtrees:
        try:
            out[id(n)] = (n, _EXACT.walk(n, env))
        except EvalError:
            out[id(n)] = (n, None)
    return out


class _Exact(Walker[Scalar]):
    """Exact evaluation: every handler takes ``(node, env)``.

    The hot path of the verifier's re-checks and of rule games: :meth:`walk` is
    the walker's dispatch without the general extra-argument packing, and
    operators are looked up in tables rather than tested one by one.
    """

    def walk(self, node: nodes.Node | nodes.Domain, env: Env) -> Scalar:
        """The exact value of ``node`` in ``env`` (the walker's dispatch, for one argument)."""
        handler = self._table.get(type(node))
        if handler is None:
            raise UnknownNode(f"{type(self).__name__} has no handler for {type(node).__name__}")
        result: Scalar = handler(self, node, env)
        return result

    def walk_const(self, node: nodes.Const, env: Env) -> Scalar:
        return node.value

    def walk_var(self, node: nodes.Var, env: Env) -> Scalar:
        try:
            return int(env[node.name])
        except KeyError:
            raise EvalError(f"variable {node.name!r} has no value") from None

    def walk_index(self, node: nodes.Index, env: Env) -> Scalar:
        seq = env[node.seq]
        i = int(self.walk(node.index, env))
        if not -len(seq) <= i < len(seq):  # Python's rule: h[-1] is the last heap
            raise EvalError(f"index {i} out of range for {node.seq} of length {len(seq)}")
        return int(seq[i])

    def walk_len(self, node: nodes.Len, env: Env) -> Scalar:
        return len(node.domain.indices(len(env[node.domain.name])))

    def walk_unary(self, node: nodes.Unary, env: Env) -> Scalar:
        v = self.walk(node.operand, env)
        return (not v) if node.op == "not" else -int(v)

    def walk_binary(self, node: nodes.Binary, env: Env) -> Scalar:
        a, b = int(self.walk(node.left, env)), int(self.walk(node.right, env))
        fn = _EXACT_OPS.get(node.op)
        if fn is None:
            raise UnknownNode(f"unknown operator {node.op!r}")
        return fn(a, b)

    def walk_compare(self, node: nodes.Compare, env: Env) -> Scalar:
        operands = node.operands
        left = self.walk(operands[0], env)
        for i, op in enumerate(node.ops, 1):
            right = self.walk(operands[i], env)
            if not COMPARISONS[op](left, right):
                return False
            left = right
        return True

    def walk_boolop(self, node: nodes.BoolOp, env: Env) -> Scalar:
        # Python's all/any: a later operand is evaluated only if the earlier ones did not decide.
        decides = node.op == "or"
        for v in node.values:
            if bool(self.walk(v, env)) is decides:
                return decides
        return not decides

    def walk_ifelse(self, node: nodes.IfElse, env: Env) -> Scalar:
        return self.walk(node.body if self.walk(node.test, env) else node.orelse, env)

    def walk_call(self, node: nodes.Call, env: Env) -> Scalar:
        return builtin(node).apply([int(self.walk(a, env)) for a in node.args])

    def walk_reduce(self, node: nodes.Reduce, env: Env) -> Scalar:
        return _reduce_scalar(node, env)


_EXACT = _Exact()


def _divisor(b: int) -> int:
    if b == 0:
        raise EvalError("division by zero")
    return b


def _power(a: int, b: int) -> int:
    if abs(a) > 1 and (abs(a).bit_length() - 1) * b > MAX_POWER_BITS:
        raise EvalError(f"power with more than {MAX_POWER_BITS} bits")
    result: int = a**b
    return result


def _bitwise(op: str, fn: Callable[[int, int], int]) -> Callable[[int, int], int]:
    """``fn`` refused on negative operands (bitwise operations read binary digits)."""

    def apply(a: int, b: int) -> int:
        if a < 0 or b < 0:
            raise EvalError(f"bitwise '{op}' of a negative number")
        return fn(a, b)

    return apply


def _shift_left(a: int, b: int) -> int:
    if b > MAX_SHIFT:
        raise EvalError(f"shift by {b} is too large")
    return a << b


#: The exact meaning of each binary operator on Python integers.
_EXACT_OPS: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": lambda a, b: a // _divisor(b),
    "%": lambda a, b: a % _divisor(b),
    "**": _power,
    **{op: _bitwise(op, fn) for op, fn in BITWISE.items()},
    "<<": _bitwise("<<", _shift_left),
    ">>": _bitwise(">>", operator.rshift),
}


def _reduce_scalar(node: nodes.Reduce, env: Env) -> Scalar:
    dom = node.domain
    if isinstance(dom, nodes.SeqDomain):
        seq = env[dom.name]
        items = [int(seq[i]) for i in dom.indices(len(seq))]
    else:
        items = [int(v) for v in domain_values(dom, env)]  # type: ignore[arg-type]
    local = dict(env)
    walk, body, var = _EXACT.walk, node.body, node.var
    if node.func in ("all", "any"):
        # Decided by the first item that makes the body false (all) or true (any).
        decides = node.func == "any"
        for item in items:
            local[var] = item
            if bool(walk(body, local)) is decides:
                return decides
        return not decides
    values: list[Scalar]
    if isinstance(body, nodes.Var) and body.name == var:
        values = list(items)  # xor(h), sum(x for x in h): the items themselves
    else:
        values = []
        for item in items:
            local[var] = item
            values.append(walk(body, local))
    if node.func == "count":
        return sum(1 for v in values if v)
    ints = [int(v) for v in values]
    if node.func == "sum":
        return sum(ints)
    if node.func == "xor":
        out = 0
        for v in ints:
            if v < 0:
                raise EvalError("xor of a negative number")
            out ^= v
        return out
    if node.func == "max":
        return max(ints, default=0)
    if node.func == "min":
        return min(ints, default=0)
    raise UnknownNode(f"unknown reduction {node.func!r}")


# ---------------------------------------------------------------------------
# Vectorised evaluation
# ---------------------------------------------------------------------------

Vec = tuple[np.ndarray, np.ndarray | None]  # values, undefined-mask (None: defined everywhere)


def _or(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    return a | b


def _check(values: np.ndarray) -> np.ndarray:
    if values.size and values.dtype != np.bool_ and int(np.max(np.abs(values))) >= _LIMIT:
        raise EvalError(
            "values exceed the int64 range of vectorised evaluation; use smaller bounds"
        )
    return values


def evaluate_array(node: nodes.Node, env: Env) -> tuple[np.ndarray, np.ndarray]:
    """Evaluate ``node`` at many points at once.

    ``env`` maps scalar names to int arrays (or ints) and sequence names to
    sequences of int arrays; all arrays broadcast together. Returns
    ``(values, undefined)``, both of the broadcast shape.
    """
    values, bad = _vec(node, env)
    shape = np.broadcast_shapes(
        np.shape(values),
        *[np.shape(v) for v in env.values() if isinstance(v, np.ndarray)],
        *[np.shape(x) for v in env.values() if isinstance(v, (list, tuple)) for x in v],
    )
    values = np.broadcast_to(values, shape)
    undefined = np.zeros(shape, dtype=bool) if bad is None else np.broadcast_to(bad, shape)
    return values, undefined


class _Vector(Walker[Vec]):
    """Vectorised evaluation: handlers take ``(node, env)`` and return ``(values, undefined)``."""

    def walk_const(self, node: nodes.Const, env: Env) -> Vec:
        return np.asarray(node.value, dtype=np.bool_ if node.type == "bool" else np.int64), None

    def walk_var(self, node: nodes.Var, env: Env) -> Vec:
        return np.asarray(env[node.name], dtype=np.int64), None

    def walk_len(self, node: nodes.Len, env: Env) -> Vec:
        length = len(node.domain.indices(len(env[node.domain.name])))
        return np.asarray(length, dtype=np.int64), None

    def walk_index(self, node: nodes.Index, env: Env) -> Vec:
        seq = env[node.seq]
        idx, bad = self.walk(node.index, env)
        if idx.ndim == 0:
            i = int(idx)
            if not -len(seq) <= i < len(seq):  # undefined wherever evaluated (maybe nowhere)
                return np.asarray(0, dtype=np.int64), np.asarray(True)
            return np.asarray(seq[i], dtype=np.int64), bad
        out = np.zeros(np.broadcast_shapes(idx.shape, *[np.shape(s) for s in seq]), dtype=np.int64)
        oob = (idx < -len(seq)) | (idx >= len(seq))
        for i, s in enumerate(seq):
            out = np.where((idx == i) | (idx == i - len(seq)), s, out)
        return out, _or(bad, oob)

    def walk_unary(self, node: nodes.Unary, env: Env) -> Vec:
        v, bad = self.walk(node.operand, env)
        return (~v if node.op == "not" else -v), bad

    def walk_binary(self, node: nodes.Binary, env: Env) -> Vec:
        a, bad_a = self.walk(node.left, env)
        b, bad_b = self.walk(node.right, env)
        return _binary_vec(node.op, a, b, _or(bad_a, bad_b))

    def walk_compare(self, node: nodes.Compare, env: Env) -> Vec:
        result: np.ndarray | None = None
        left, bad = self.walk(node.operands[0], env)
        for op, right_node in zip(node.ops, node.operands[1:], strict=True):
            right, bad_r = self.walk(right_node, env)
            # A later comparison only matters (and only needs to be defined) where the chain still holds.
            bad = _or(bad, bad_r if (result is None or bad_r is None) else (bad_r & result))
            r = COMPARISONS[op](left, right)
            result = r if result is None else (result & r)
            left = right
        assert result is not None
        return result, bad

    def walk_boolop(self, node: nodes.BoolOp, env: Env) -> Vec:
        acc, bad = self.walk(node.values[0], env)
        for v_node in node.values[1:]:
            v, bad_v = self.walk(v_node, env)
            undecided = acc if node.op == "and" else ~acc
            if bad is not None:
                undecided = undecided & ~bad
            bad = _or(bad, None if bad_v is None else (bad_v & undecided))
            acc = (acc & v) if node.op == "and" else (acc | v)
        return acc, bad

    def walk_ifelse(self, node: nodes.IfElse, env: Env) -> Vec:
        t, bad_t = self.walk(node.test, env)
        x, bad_x = self.walk(node.body, env)
        y, bad_y = self.walk(node.orelse, env)
        bad = bad_t
        if bad_x is not None:
            bad = _or(bad, bad_x & t)
        if bad_y is not None:
            bad = _or(bad, bad_y & ~t)
        return np.where(t, x, y), bad

    def walk_call(self, node: nodes.Call, env: Env) -> Vec:
        return _call_vec(node, env)

    def walk_reduce(self, node: nodes.Reduce, env: Env) -> Vec:
        return _reduce_vec(node, env)


_VECTOR = _Vector()


def _vec(node: nodes.Node, env: Env) -> Vec:
    return _VECTOR.walk(node, env)


def _binary_vec(op: str, a: np.ndarray, b: np.ndarray, bad: np.ndarray | None) -> Vec:
    if op == "+":
        return _check(a + b), bad
    if op == "-":
        return _check(a - b), bad
    if op == "*":
        if a.size and b.size and (int(np.max(np.abs(a))) * int(np.max(np.abs(b)))) >= _LIMIT:
            raise EvalError(
                "values exceed the int64 range of vectorised evaluation; use smaller bounds"
            )
        return a * b, bad
    if op in ("//", "%"):
        zero = b == 0
        safe = np.where(zero, 1, b)
        out = a // safe if op == "//" else a % safe
        return out, _or(bad, zero if zero.any() else None)
    if op == "**":
        e = int(b)
        if a.size and e > 0 and int(np.max(np.abs(a))) ** e >= _LIMIT:
            raise EvalError(
                "values exceed the int64 range of vectorised evaluation; use smaller bounds"
            )
        return a**e, bad
    neg = (a < 0) | (b < 0)
    bad = _or(bad, neg if neg.any() else None)
    a = np.where(a < 0, 0, a)
    b = np.where(b < 0, 0, b)
    if op in BITWISE:
        return BITWISE[op](a, b), bad
    if op == "<<":
        if b.size and int(np.max(b)) > 62:
            raise EvalError("shift too large for vectorised evaluation")
        return _check(a << b), bad
    if op == ">>":
        return np.where(b >= 63, 0, a >> np.minimum(b, 62)), bad
    raise UnknownNode(f"unknown operator {op!r}")


def _popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x.astype(np.uint64)).astype(np.int64)


def _call_vec(node: nodes.Call, env: Env) -> Vec:
    parts = [_vec(a, env) for a in node.args]
    bad: np.ndarray | None = None
    for _, b in parts:
        bad = _or(bad, b)
    args = [v for v, _ in parts]
    f = node.func
    if f in ("max", "min"):
        out = args[0]
        for x in args[1:]:
            out = np.maximum(out, x) if f == "max" else np.minimum(out, x)
        return out, bad
    if f == "abs":
        return np.abs(args[0]), bad
    if f == "ceil_div":
        zero = args[1] == 0
        safe = np.where(zero, 1, args[1])
        return -((-args[0]) // safe), _or(bad, zero if zero.any() else None)
    x = args[0]
    neg = x < 0
    bad = _or(bad, neg if neg.any() else None)
    x = np.where(neg, 0, x)
    if f in ZECKENDORF_CALLS:
        exact = builtin(node).exact
        flat = [exact(int(v)) for v in np.ravel(x)]
        return np.array(flat, dtype=np.int64).reshape(np.shape(x)), bad
    if f == "popcount":
        return _popcount(x), bad
    if f == "trailing_ones":
        y = x + 1
        return (_popcount((y & -y) - 1)), bad
    if f == "trailing_zeros":
        low = x & -x
        return np.where(x == 0, 0, _popcount(low - 1)), bad
    if f == "bit_length":
        out = np.zeros(np.shape(x), dtype=np.int64)
        for i in range(63):
            out = np.where((x >> i) > 0, i + 1, out)
        return out, bad
    raise UnknownNode(f"unknown function {f!r}")


def _reduce_vec(node: nodes.Reduce, env: Env) -> Vec:
    dom = node.domain
    local = dict(env)
    items: list[Any]
    if isinstance(dom, nodes.SeqDomain):
        seq = env[dom.name]
        items = [seq[i] for i in dom.indices(len(seq))]
    else:
        try:
            items = list(domain_values(dom, env))
        except EvalError:  # an undefined range: undefined wherever the reduction is evaluated
            dummy = np.asarray(False) if node.type == "bool" else np.asarray(0, dtype=np.int64)
            return dummy, np.asarray(True)
    f = node.func
    acc: np.ndarray | None = None
    bad: np.ndarray | None = None
    decided: np.ndarray | None = None  # for all/any: points already decided
    for item in items:
        local[node.var] = np.asarray(item, dtype=np.int64)
        v, bad_v = _vec(node.body, local)
        if f in ("all", "any"):
            if bad_v is not None:
                bad = _or(bad, bad_v if decided is None else (bad_v & ~decided))
            acc = v if acc is None else ((acc & v) if f == "all" else (acc | v))
            decided = ~acc if f == "all" else acc
            continue
        bad = _or(bad, bad_v)
        if f == "count":
            v = v.astype(np.int64)
        if acc is None:
            acc = v
        elif f in ("sum", "count"):
            acc = _check(acc + v)
        elif f == "xor":
            negv = (v < 0) | (acc < 0)
            bad = _or(bad, negv if negv.any() else None)
            acc = acc ^ v
        elif f == "max":
            acc = np.maximum(acc, v)
        elif f == "min":
            acc = np.minimum(acc, v)
    if acc is None:
        empty = {"all": True, "any": False}
        return np.asarray(empty.get(f, 0), dtype=np.bool_ if f in empty else np.int64), None
    if f == "xor" and len(items) == 1:
        neg = acc < 0
        bad = _or(bad, neg if neg.any() else None)
    return acc, bad
