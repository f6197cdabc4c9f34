"""User-defined one-heap rules: ``rule:EXPR``.

A move from a heap of ``n`` to a heap of ``m`` is legal when ``0 <= m < n``
and the expression (in the variables ``n`` and ``m``) is true, e.g.
``rule:(n+1)//2 <= m < n`` (the half-heap game). The expression is parsed by
:mod:`nimproof.expr`, never evaluated by Python. A rule that would allow a
move with ``m >= n`` is rejected, because the game would not end: checked for
every ``n, m < 64`` and then by z3 for all ``n``, ``m`` (the error names the
move, confirmed by exact evaluation), whether the rule is one comparison or
has an ``or``; where the rule is undefined (division by zero) the
move is illegal.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from nimproof.errors import EvalError, SpecError
from nimproof.games.base import HeapGame, Heaps, RelationMoves
from nimproof.games.registry import family

if TYPE_CHECKING:
    from nimproof.expr.nodes import Node

CHECK_UP_TO = 64
#: Milliseconds z3 may spend looking for a move to a larger heap beyond the grid.
RAISING_SEARCH_MS = 2000
#: The search's answer by rule text (a spec is parsed many times in one run).
_RAISING: dict[str, tuple[int, int] | None] = {}


class Rule(HeapGame):
    """A one-heap game whose moves ``n -> m`` are given by a predicate."""

    def __init__(self, text: str) -> None:
        # lazy: start-up time (numpy)
        from nimproof.expr import parse  # the expression language (and numpy) load on first use

        self.text = text.strip()
        if len(self.text) >= 2 and self.text[0] == self.text[-1] and self.text[0] in "\"'":
            self.text = self.text[1:-1].strip()
        self.predicate: Node = parse(self.text, scalars=("n", "m"), result="bool")
        self.spec = f"rule:{self.text}"
        self._reject_raising_moves()

    def _reject_raising_moves(self) -> None:
        import numpy as np

        from nimproof.expr import evaluate_array  # lazy: start-up time (numpy)

        n, m = np.meshgrid(np.arange(CHECK_UP_TO), np.arange(CHECK_UP_TO), indexing="ij")
        try:
            ok, undefined = evaluate_array(self.predicate, {"n": n, "m": m})
        except EvalError:
            return
        bad = ok & ~undefined & (m >= n)
        if bad.any():
            i, j = (int(x[0]) for x in np.nonzero(bad))
            self._refuse(i, j)
        if self.text not in _RAISING:
            _RAISING[self.text] = _raising_move(self.predicate)
        found = _RAISING[self.text]
        if found is not None:
            self._refuse(*found)

    def _refuse(self, n: int, m: int) -> None:
        raise SpecError(
            f"rule {self.text!r} allows the move n={n} -> m={m} (to a heap at least as large), "
            "so the game need not end; a move must lower the heap (m < n)"
        )

    @cached_property
    def moves_spec(self) -> RelationMoves:
        return RelationMoves(self.predicate, self.text)

    def legal(self, n: int, m: int) -> bool:
        """True when the move ``n -> m`` is legal (an undefined rule value means illegal)."""
        return self.moves_spec.legal(n, m)

    def options(self, n: int) -> Iterator[Heaps]:
        for m in range(n):
            if self.legal(n, m):
                yield (m,)


def _holds(predicate: Node, n: int, m: int) -> bool:
    from nimproof.expr import evaluate  # lazy: start-up time (numpy)

    try:
        return bool(evaluate(predicate, {"n": n, "m": m}))
    except EvalError:
        return False


def _raising_move(predicate: Node) -> tuple[int, int] | None:
    """A move ``n -> m`` with ``m >= n`` that the rule allows beyond the small grid, if z3 finds one.

    Searched over unbounded integers (or 64-bit words for bitwise rules) and
    confirmed by exact evaluation; the smallest ``n`` the search meets is
    returned, None when z3 proves there is none or cannot decide in time.
    """
    import z3

    # lazy: start-up time (z3, numpy)
    from nimproof.expr.to_z3 import Unsupported, compile_bv, compile_int

    try:
        n, m = z3.Ints("n m")
        c = compile_int(predicate, {"n": n, "m": m})
        domain = [n >= 0, m >= n]
    except Unsupported:
        try:
            n, m = z3.BitVecs("n m", 66)
            c = compile_bv(predicate, {"n": n, "m": m}, 66)
            top = z3.BitVecVal(1 << 64, 66)
            domain = [z3.ULT(n, top), z3.ULT(m, top), z3.UGE(m, n)]
        except Unsupported:
            return None
    s = z3.Solver()
    s.set("timeout", RAISING_SEARCH_MS)
    s.add(*domain, c.term, *c.guards)
    for equal in (True, False):  # n -> n first: the plainest witness
        s.push()
        if equal:
            s.add(m == n)
        if s.check() == z3.sat:
            model = s.model()
            a = model.eval(n, model_completion=True).as_long()
            b = model.eval(m, model_completion=True).as_long()
            s.pop()
            if b >= a and _holds(predicate, a, b):
                return a, b
            continue
        s.pop()
    return None


@family(
    "rule",
    "one heap; a move from n to m tokens is legal when your expression in n and m holds",
    "rule:(n+1)//2 <= m < n",
    needs="an expression in n and m",
)
def _rule(args: str | None) -> Rule:
    assert args  # the registry refuses a spec without it (``needs``)
    return Rule(args)
