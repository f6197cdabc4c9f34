"""What the z3 bit-vector method's proofs share: the found violation, shrinking, bounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from nimproof.expr.nodes import Node
from nimproof.expr.to_z3 import Unsupported, compile_bv
from nimproof.provers.moves import HeapMoves
from nimproof.provers.solving import Solver, all_of, shrink
from nimproof.verdict import Counterexample

NAME = "z3_bitvec"

QUANTIFIER_MAX_WIDTH = 10
SHRINK_ROUNDS = 40


@dataclass
class Found:
    """A re-checked violation."""

    counterexample: Counterexample


def note(notes: list[str], text: str) -> None:
    """Add ``text`` to ``notes`` once."""
    if text not in notes:
        notes.append(text)


def shrink_heap(
    solver: Solver, query: list[z3.BoolRef], n: z3.BitVecRef, width: int, quantified: bool = False
) -> int:
    """The smallest ``n`` satisfying ``query`` that a bounded binary search finds."""
    return shrink(
        solver, query, n, lambda k: z3.ULE(n, z3.BitVecVal(k, width)), SHRINK_ROUNDS, quantified
    )


def require_quantifier_width(w: int, options: Mapping[str, Any], what: str) -> None:
    """Refuse (:class:`Unsupported`) a quantified condition 2 above the width it may use."""
    limit = options.get("quantifier_max_width", QUANTIFIER_MAX_WIDTH)
    if w > int(limit):
        raise Unsupported(f"no witness: condition 2 needs {what}; tried only up to width {limit}")


def relation_move(relation: Node, a: z3.ExprRef, b: z3.ExprRef, width: int) -> z3.BoolRef:
    """``a -> b`` is a move of the rule ``relation`` (in ``n``, ``m``): ``b < a``, the relation
    holds, and its terms are exact at this width."""
    c = compile_bv(relation, {"n": a, "m": b}, width)
    return z3.And(z3.ULT(b, a), c.term, all_of(list(c.guards)))


def heap_moves_each(
    views: Sequence[HeapMoves], a: Sequence[z3.ExprRef], b: Sequence[z3.ExprRef], width: int
) -> list[z3.BoolRef]:
    """``a[i] -> b[i]`` is a move of the rule ``views[i]``, for every heap ``i``, in one call:
    each distinct relation is compiled once, on fresh variables, and instantiated for each
    heap by substitution (the same terms :func:`heap_move` builds heap by heap)."""
    compiled: dict[int, tuple[z3.ExprRef, z3.ExprRef, z3.BoolRef]] = {}
    out = []
    for hm, x, y in zip(views, a, b, strict=True):
        if hm.relation is None or hm.takes is not None:
            out.append(heap_move(hm, x, y, width))
            continue
        key = id(hm.relation)
        if key not in compiled:
            n, m = z3.BitVecs(f"rel{len(compiled)}_n rel{len(compiled)}_m", width)
            compiled[key] = (n, m, relation_move(hm.relation, n, m, width))
        n, m, move = compiled[key]
        out.append(z3.substitute(move, (n, x), (m, y)))
    return out


def heap_move(hm: HeapMoves, a: z3.ExprRef, b: z3.ExprRef, width: int) -> z3.BoolRef:
    """``a -> b`` is a move of the one-heap rule ``hm`` (finite takes or a relation)."""
    if hm.takes is not None:
        return z3.Or(*[z3.And(z3.UGE(a, t), b == a - t) for t in hm.takes])
    assert hm.relation is not None
    return relation_move(hm.relation, a, b, width)
