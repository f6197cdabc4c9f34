"""Multi-heap games declared by a formula: ``moves:H:EXPR``.

A position is ``H`` heaps; a move from the heaps before (``h``) to the heaps
after (``k``) is legal when the expression holds, e.g. Wythoff's game::

    moves:2:(k[0] < h[0] and k[1] == h[1]) or (k[0] == h[0] and k[1] < h[1])
            or (k[0] < h[0] and h[0] - k[0] == h[1] - k[1])

The expression is parsed by :mod:`nimproof.expr`, never evaluated by Python;
where it is undefined the move is illegal. A game must end, so every move
must lower the total of the heaps: a move that does not (``sum(k) >=
sum(h)``) is searched on a small grid, then by z3 over all integers, and the
declaration is refused when one is found or when neither z3 nor MONA can show
that there is none. The moves of a position are then found among the
positions of smaller total. The automata method compiles the relation itself
(:class:`~nimproof.games.base.HeapsRelation`), so a declared game is proved
for every position without Python.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from itertools import product
from typing import TYPE_CHECKING, cast

from nimproof.errors import EvalError, ExprError, SpecError, UsageError
from nimproof.games.args import parse_int
from nimproof.games.base import HeapsRelation, MultiHeapGame, Position
from nimproof.games.registry import family

if TYPE_CHECKING:
    from nimproof.expr.nodes import Node

MAX_HEAPS = 6
#: The grid searched for a move that does not lower the total: every heap below this.
GRID = 8
#: Milliseconds z3 may spend on the search beyond the grid.
SEARCH_MS = 3000
_DECIDED: dict[tuple[int, str], tuple[int, ...] | None] = {}


class Declared(MultiHeapGame):
    """A game on ``heaps`` heaps whose moves are the formula ``text`` in ``h`` and ``k``."""

    lowers_heaps = False  # the formula may raise a heap (the total still falls)

    def __init__(self, heaps: int, text: str) -> None:
        from nimproof.expr import parse  # lazy: start-up time (numpy)

        self.heaps = heaps
        self.text = text.strip()
        try:
            self.predicate: Node = parse(self.text, sequences=("h", "k"), result="bool")
        except ExprError as exc:
            raise SpecError(f"moves:{heaps}: {exc}") from None
        self.spec = f"moves:{heaps}:{self.text}"
        _refuse_endless(self.predicate, heaps, self.text)

    @cached_property
    def moves_spec(self) -> HeapsRelation:
        return HeapsRelation(self.heaps, self.predicate, self.text, raises=True)

    def moves(self, position: Position) -> Iterator[Position]:
        import numpy as np

        from nimproof.expr import evaluate_array  # lazy: start-up time (numpy)

        h = cast(tuple[int, ...], position)
        if len(h) != self.heaps:
            raise UsageError(f"{self.spec} positions have {self.heaps} heaps, got {len(h)}")
        total = sum(h)
        if total == 0:
            return
        grid = np.meshgrid(*[np.arange(total) for _ in range(self.heaps)], indexing="ij")
        below = sum(grid) < total
        cand = [g[below] for g in grid]
        ok, undefined = evaluate_array(self.predicate, {"h": h, "k": cand})
        hit = np.nonzero(np.asarray(ok, dtype=bool) & ~np.asarray(undefined, dtype=bool))[0]
        for i in hit:
            yield tuple(int(c[i]) for c in cand)


def _refuse_endless(predicate: Node, heaps: int, text: str) -> None:
    """Refuse a relation with a move that does not lower the total (or none shown absent)."""
    key = (heaps, text)
    if key not in _DECIDED:
        _DECIDED[key] = _grid_move(predicate, heaps) or _search(predicate, heaps, text)
    found = _DECIDED[key]
    if found == ():
        raise SpecError(
            f"moves:{heaps}: could not show that every move lowers the total of the heaps "
            "(z3 and MONA gave no answer), so the game might not end"
        )
    if found is not None:
        before, after = found[:heaps], found[heaps:]
        raise SpecError(
            f"moves:{heaps}: the move {before} -> {after} does not lower the total of the heaps, "
            "so the game need not end"
        )


def _holds(predicate: Node, h: tuple[int, ...], k: tuple[int, ...]) -> bool:
    from nimproof.expr import evaluate  # lazy: start-up time (numpy)

    try:
        return bool(evaluate(predicate, {"h": h, "k": k}))
    except EvalError:
        return False


def _grid_move(predicate: Node, heaps: int) -> tuple[int, ...] | None:
    size = GRID if heaps <= 3 else 3
    for h in product(range(size), repeat=heaps):
        for k in product(range(size), repeat=heaps):
            if sum(k) >= sum(h) and _holds(predicate, h, k):
                return h + k
    return None


def _search(predicate: Node, heaps: int, text: str) -> tuple[int, ...] | None:
    """A move that does not lower the total, beyond the grid (z3); ``()`` when undecided."""
    import z3

    from nimproof.expr.to_z3 import Unsupported, compile_int  # lazy: start-up time (z3, numpy)

    h = [z3.Int(f"h{i}") for i in range(heaps)]
    k = [z3.Int(f"k{i}") for i in range(heaps)]
    try:
        c = compile_int(predicate, {"h": tuple(h), "k": tuple(k)})
    except Unsupported:
        return None if _mona_lowers(heaps, text) else ()
    s = z3.Solver()
    s.set("timeout", SEARCH_MS)
    s.add(*[x >= 0 for x in h + k], z3.Sum(k) >= z3.Sum(h), c.term, *c.guards)
    answer = s.check()
    if answer == z3.unsat:
        return None
    if answer == z3.sat:
        m = s.model()
        found = tuple(m.eval(v, model_completion=True).as_long() for v in h + k)
        if _holds(predicate, found[:heaps], found[heaps:]):
            return found
    return None if _mona_lowers(heaps, text) else ()


def _mona_lowers(heaps: int, text: str) -> bool:
    """True when MONA proves that every move lowers the total (binary, then Zeckendorf)."""
    # lazy: start-up time (numpy, z3, numba)
    from nimproof.expr import parse
    from nimproof.expr.to_ws1s import NotExpressible, SetVar, compile_bool
    from nimproof.provers import automata, mona

    if not mona.available():
        return False
    claim = f"not ({text}) or sum(k) < sum(h)"
    env = {
        "h": tuple(SetVar(f"X{i}") for i in range(heaps)),
        "k": tuple(SetVar(f"Y{i}") for i in range(heaps)),
    }
    names = [f"{p}{i}" for i in range(heaps) for p in "XY"]
    for num in automata.NUMERATIONS.values():
        try:
            c = compile_bool(parse(claim, sequences=("h", "k")), env, num.compiler)
        except NotExpressible:
            continue
        valid = " & ".join(f"valid({n})" for n in names) if num.valid else "true"
        body = f"var2 {', '.join(names)};\n({valid} & {c.guard}) => {c.formula};\n"
        if mona.run_text("ws1s;\n" + num.prelude + body, 30.0).outcome == "valid":
            return True
    return False


@family(
    "moves",
    "your own game on H heaps: a move from heaps h to heaps k is legal when your expression in "
    "h and k holds (every move must lower the total)",
    "moves:2:(k[0] < h[0] and k[1] == h[1]) or (k[0] == h[0] and k[1] < h[1])",
    multi_heap=True,
    needs="a heap count and an expression in h and k",
)
def _moves(args: str | None) -> Declared:
    assert args  # the registry refuses a spec without it (``needs``)
    text = args
    count, sep, expr = text.partition(":")
    if not sep or not expr.strip():
        raise SpecError("moves needs H:EXPR, e.g. 'moves:2:k[0] < h[0] and k[1] == h[1]'")
    return Declared(parse_int(count, "the heap count of moves", low=1, high=MAX_HEAPS), expr)
