"""User-defined one-heap rules: ``rule:EXPR``.

A move from a heap of ``n`` to a heap of ``m`` is legal when ``0 <= m < n``
and the expression (in the variables ``n`` and ``m``) is true, e.g.
``rule:(n+1)//2 <= m < n`` (the half-heap game). The expression is parsed by
:mod:`nimproof.expr`, never evaluated by Python. A rule that would allow a
move with ``m >= n`` (checked for every ``n, m < 64``) is rejected, because
the game would not end; where the rule is undefined (division by zero) the
move is illegal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from nimproof.errors import EvalError, SpecError
from nimproof.games.base import HeapGame, Heaps, RelationMoves
from nimproof.games.registry import family, need_args

if TYPE_CHECKING:
    from nimproof.expr.nodes import Node

CHECK_UP_TO = 64


class Rule(HeapGame):
    """A one-heap game whose moves ``n -> m`` are given by a predicate."""

    def __init__(self, text: str) -> None:
        from nimproof.expr import parse  # the expression language (and numpy) load on first use

        self.text = text.strip()
        if len(self.text) >= 2 and self.text[0] == self.text[-1] and self.text[0] in "\"'":
            self.text = self.text[1:-1].strip()
        self.predicate: Node = parse(self.text, scalars=("n", "m"), result="bool")
        self.spec = f"rule:{self.text}"
        self._reject_raising_moves()

    def _reject_raising_moves(self) -> None:
        import numpy as np

        from nimproof.expr import evaluate_array

        n, m = np.meshgrid(np.arange(CHECK_UP_TO), np.arange(CHECK_UP_TO), indexing="ij")
        try:
            ok, undefined = evaluate_array(self.predicate, {"n": n, "m": m})
        except EvalError:
            return
        bad = ok & ~undefined & (m >= n)
        if bad.any():
            i, j = (int(x[0]) for x in np.nonzero(bad))
            raise SpecError(
                f"rule {self.text!r} allows the move n={i} -> m={j}; a move must lower the heap (m < n)"
            )

    @property
    def moves_spec(self) -> RelationMoves:
        return RelationMoves(self.predicate, self.text)

    def legal(self, n: int, m: int) -> bool:
        """True when the move ``n -> m`` is legal (an undefined rule value means illegal)."""
        return self.moves_spec.legal(n, m)

    def options(self, n: int) -> Iterator[Heaps]:
        for m in range(n):
            if self.legal(n, m):
                yield (m,)


@family(
    "rule",
    "one heap; a move from n to m tokens is legal when your expression in n and m holds",
    "rule:(n+1)//2 <= m < n",
)
def _rule(args: str | None) -> Rule:
    return Rule(need_args("rule", args, "an expression in n and m"))
