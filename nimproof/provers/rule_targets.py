"""Rule games whose moves are solved for ``m``: the targets without scanning every smaller heap.

A ``rule:`` game lists its moves as a predicate in ``n`` and ``m``. When the
predicate is a disjunction whose every disjunct contains a conjunct
``m == E(n)`` or ``c * m == E(n)`` (``E`` free of ``m``, ``c`` a positive
constant), every legal move is one of the candidates ``E(n)`` (or
``E(n) // c``): the candidates are a superset of the moves. Each candidate
is then kept only where the full predicate holds and ``0 <= m < n``, so the
result is exactly the set of moves, in time linear in ``n``.
"""

from __future__ import annotations

import numpy as np

from nimproof.expr import evaluate_array
from nimproof.expr.nodes import Binary, BoolOp, Compare, Const, Node, Var, free_names


def _disjuncts(node: Node) -> list[Node]:
    if isinstance(node, BoolOp) and node.op == "or":
        return [d for v in node.values for d in _disjuncts(v)]
    return [node]


def _conjuncts(node: Node) -> list[Node]:
    if isinstance(node, BoolOp) and node.op == "and":
        return [c for v in node.values for c in _conjuncts(v)]
    return [node]


def _coefficient(node: Node) -> int | None:
    """``c`` when ``node`` is ``m`` (1) or ``c * m`` / ``m * c`` with a positive constant ``c``."""
    if isinstance(node, Var) and node.name == "m":
        return 1
    if isinstance(node, Binary) and node.op == "*":
        for a, b in ((node.left, node.right), (node.right, node.left)):
            if (
                isinstance(a, Const)
                and isinstance(a.value, int)
                and not isinstance(a.value, bool)
                and a.value > 0
                and isinstance(b, Var)
                and b.name == "m"
            ):
                return a.value
    return None


def _solve(conjunct: Node) -> tuple[Node, int] | None:
    """``(E, c)`` when ``conjunct`` is ``c * m == E`` (either side) with ``E`` free of ``m``."""
    if not (isinstance(conjunct, Compare) and conjunct.ops == ("==",)):
        return None
    left, right = conjunct.operands
    for a, b in ((left, right), (right, left)):
        c = _coefficient(a)
        if c is not None and "m" not in free_names(b):
            return b, c
    return None


def solved_targets(predicate: Node) -> list[tuple[Node, int]] | None:
    """One ``(E, c)`` per disjunct (the move ``m = E(n) / c``), or None when some disjunct has none."""
    out: list[tuple[Node, int]] = []
    for d in _disjuncts(predicate):
        found = next((s for c in _conjuncts(d) if (s := _solve(c)) is not None), None)
        if found is None:
            return None
        out.append(found)
    return out


def rule_targets(predicate: Node, n_all: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(starts, targets)`` of every heap ``0 .. n_all - 1`` (CSR layout), or None if not solved."""
    solved = solved_targets(predicate)
    if solved is None:
        return None
    n = np.arange(n_all, dtype=np.int64)
    columns: list[np.ndarray] = []
    for expr, c in solved:
        values, undefined = evaluate_array(expr, {"n": n})
        values = np.broadcast_to(np.asarray(values, dtype=np.int64), n.shape)
        undefined = np.broadcast_to(undefined, n.shape)
        cand = np.where(undefined, -1, values // c)
        ok, bad = evaluate_array(predicate, {"n": n, "m": np.maximum(cand, 0)})
        legal = np.broadcast_to(ok & ~bad, n.shape) & (cand >= 0) & (cand < n)
        columns.append(np.where(legal, cand, -1))
    table = np.stack(columns, axis=1)
    table.sort(axis=1)
    rows: list[np.ndarray] = [np.unique(r[r >= 0]) for r in table]
    starts = np.zeros(n_all + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(r) for r in rows])
    targets = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    return starts, targets.astype(np.int64)
