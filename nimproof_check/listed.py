"""Re-check listed values (worked examples, sequences) and compositions of parts.

``listed`` parts: every listed position's value is recomputed here (a heap
game's position is a multiset of heaps: under normal play its value is the
xor of the heaps' values, the Sprague–Grundy theorem; under misère play it is
computed directly), and listed winning moves must be exactly the moves to
positions of value 0.

``composition`` parts combine other parts by a stated rule:

* ``periodic-table``: ``g`` has a proved relation (a periodicity part with
  period ``p``, preperiod ``n0``, saltus ``s``); the claimed formula ``f``
  satisfies ``f(n + L) = f(n) + S`` for ``n >= M`` (an SMT part, role
  ``formula_start``); ``L`` is a multiple of ``p``, ``S = s L / p``, ``M`` is at
  least where ``g``'s relation starts; and ``f = g`` (P-position claims: ``f``
  holds exactly where ``g = 0``) on ``0 <= n < M + L``, recomputed here. By
  induction on ``n``, ``f = g`` everywhere.
* ``sprague-grundy-sum``: the value of a disjunctive sum of normal-play heap
  games is the xor of its parts' values; each part must be non-splitting (its
  values are its own mex) or carry a periodicity part that checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from nimproof_check import arith, smt
from nimproof_check.games import (
    CannotCheck,
    Rejected,
    Values,
    check_game,
    graph_values,
    heap_options,
    heap_values,
    mex,
    moves,
    splits,
)

MAX_VALUES = 2_000_000


class _HeapPositions:
    """Values of multisets of heaps of one rule (normal: xor; misère: direct recursion)."""

    def __init__(self, game: dict[str, Any]) -> None:
        self.rule = game["rule"]
        self.misere = bool(game.get("misere", False))
        self.table: list[int] = []
        self.memo: dict[tuple[int, ...], int] = {}

    def options(self, pos: tuple[int, ...]) -> list[tuple[int, ...]]:
        out = []
        for i, h in enumerate(pos):
            rest = pos[:i] + pos[i + 1 :]
            for option in heap_options(self.rule, h):
                out.append(tuple(sorted(rest + option)))
        return out

    def value(self, pos: tuple[int, ...]) -> int:
        pos = tuple(sorted(h for h in pos if h > 0))
        if not self.misere:
            top = max(pos, default=0)
            if len(self.table) <= top:
                if top > MAX_VALUES:
                    raise CannotCheck(f"heap {top} is beyond this checker's {MAX_VALUES}")
                self.table = heap_values(self.rule, max(top, 2 * len(self.table)))
            x = 0
            for h in pos:
                x ^= self.table[h]
            return x
        if pos not in self.memo:
            if sum(pos) > 60:
                raise CannotCheck("a misère position with more than 60 tokens")
            opts = self.options(pos)
            self.memo[pos] = 1 if not opts else mex({self.value(q) for q in opts})
        return self.memo[pos]


def _key(position: Any) -> str:
    return json.dumps(position, sort_keys=True)


def _evaluator(game: dict[str, Any]) -> tuple[Callable[[Any], int], Callable[[Any], list[Any]]]:
    """``(value, options)`` of a position as claims write it, with options in comparable form."""
    if game["kind"] == "graph":
        values = graph_values(game)

        def node(pos: Any) -> str:
            key = pos if isinstance(pos, str) else _key(pos)
            if key not in values:
                raise Rejected(f"position {pos!r} is not in the game graph")
            return key

        return (lambda pos: values[node(pos)]), (lambda pos: list(game["edges"][node(pos)]))
    if game["kind"] == "heap":
        hp = _HeapPositions(game)

        def canon(pos: Any) -> tuple[int, ...]:
            heaps = [pos] if isinstance(pos, int) else list(pos)
            if not all(isinstance(h, int) and h >= 0 for h in heaps):
                raise Rejected(f"position {pos!r} is not a list of heaps")
            return tuple(sorted(h for h in heaps if h > 0))

        return (lambda pos: hp.value(canon(pos))), (lambda pos: hp.options(canon(pos)))
    vals = Values(game)

    def slots(pos: Any) -> tuple[int, ...]:
        if not isinstance(pos, list) or not all(isinstance(h, int) and h >= 0 for h in pos):
            raise Rejected(f"position {pos!r} is not a list of heaps")
        return tuple(pos)

    return (lambda pos: vals.value(slots(pos))), (lambda pos: moves(game, slots(pos)))


def check_part(part: dict[str, Any], game: dict[str, Any], claim: dict[str, Any]) -> list[str]:
    """Re-check a ``listed`` part. Raises Rejected / CannotCheck."""
    kind = part.get("claim_kind")
    values = part.get("values")
    if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
        raise Rejected("the listed part has no list of values")
    if kind == "sequence":
        offset = part.get("offset", 0)
        if game["kind"] not in ("heap", "graph") or not isinstance(offset, int) or offset < 0:
            raise CannotCheck("sequences of games other than one-heap rules")
        if game["kind"] == "graph" and len(game["starts"]) != len(values):
            raise Rejected("the game graph names another number of listed positions")
        value, _ = _evaluator(game)
        for i, v in enumerate(values):
            at = game["starts"][i] if game["kind"] == "graph" else offset + i
            if value(at) != v:
                raise Rejected(f"g({offset + i}) = {value(at)}, not {v} as listed")
        return [f"{len(values)} values from n = {offset} recomputed by plain mex"]
    if kind != "value":
        raise CannotCheck(f"listed parts of {kind} claims")
    positions = part.get("positions")
    if not isinstance(positions, list) or len(positions) != len(values):
        raise Rejected("positions and values differ in number")
    value, options = _evaluator(game)
    wins = part.get("winning_moves")
    graph = game["kind"] == "graph"
    if graph and len(game["starts"]) != len(positions):
        raise Rejected("the game graph names another number of listed positions")
    for i, (given, v) in enumerate(zip(positions, values, strict=True)):
        pos = game["starts"][i] if graph else given
        if value(pos) != v:
            raise Rejected(f"the value of {pos} is {value(pos)}, not {v} as listed")
        if wins is not None:
            at = (lambda q: q) if graph else list
            true = {_freeze(q) for q in options(pos) if value(at(q)) == 0}
            listed_moves = {_freeze(_canon_move(game, m)) for m in wins[i]}
            if true != listed_moves:
                raise Rejected(
                    f"at {pos} the winning moves are {sorted(true)}, not {sorted(listed_moves)}"
                )
    extra = " and their winning moves" if wins is not None else ""
    return [f"{len(values)} listed position(s){extra} recomputed by plain mex"]


def _canon_move(game: dict[str, Any], move: Any) -> Any:
    if game["kind"] == "graph" and game.get("heaps"):
        heaps = [move] if isinstance(move, int) else list(move)
        return _key(sorted(h for h in heaps if h > 0))
    if game["kind"] == "graph":
        return _key(move)
    if game["kind"] == "heap":
        heaps = [move] if isinstance(move, int) else list(move)
        return tuple(sorted(h for h in heaps if h > 0))
    return tuple(move)


def _freeze(x: Any) -> Any:
    return tuple(_freeze(v) for v in x) if isinstance(x, list | tuple) else x


def check_composition(
    part: dict[str, Any],
    game: Any,
    claim: dict[str, Any],
    read: Any,
    timeout: float,
    check_part: Callable[..., list[str]],
) -> list[str]:
    """Re-check a ``composition`` part: its parts, then its rule."""
    rule = part.get("rule")
    if rule == "sprague-grundy-sum":
        done = []
        for comp in part.get("parts", []):
            g = check_game(comp.get("game"))
            if g["kind"] != "heap" or g.get("misere"):
                raise CannotCheck("Sprague–Grundy sums of parts other than normal-play heap rules")
            if comp.get("periodicity") is not None:
                done += check_part(comp["periodicity"], g, claim, read, timeout)
            elif splits(g["rule"]):
                raise Rejected(f"part {g['rule']} splits heaps and carries no periodicity part")
        if not part.get("parts"):
            raise Rejected("a sum with no parts")
        return [*done, "Sprague–Grundy: the value of the sum is the xor of the parts' values"]
    if rule != "periodic-table":
        raise CannotCheck(f"a composition rule this checker does not know: {rule!r}")
    return _periodic_table(part, check_game(game), claim, read, timeout, check_part)


def _periodic_table(
    part: dict[str, Any],
    game: dict[str, Any],
    claim: dict[str, Any],
    read: Any,
    timeout: float,
    check_part: Callable[..., list[str]],
) -> list[str]:
    fact, formula = part.get("fact"), part.get("formula")
    if not isinstance(fact, dict) or not isinstance(formula, dict):
        raise Rejected("a periodic-table part needs the game's fact and the formula's SMT part")
    done = check_part(fact, game, claim, read, timeout)
    done += check_part(formula, game, claim, read, timeout)
    if not any(
        q.get("role") == "formula_start" and q.get("answer") == "unsat"
        for q in formula.get("queries", [])
    ):
        raise Rejected("no unsat query shows the formula's own periodicity (role formula_start)")
    p, n0, s = fact["period"], fact["preperiod"], fact.get("saltus", 0)
    L, S, M = part.get("L"), part.get("S"), part.get("M")
    predicate = part.get("claim_kind") == "p_positions"
    if not isinstance(L, int) or not isinstance(S, int) or not isinstance(M, int):
        raise Rejected("a periodic-table part must state whole numbers L, S and M")
    if L < 1 or L % p:
        raise Rejected(f"the formula's period L = {L!r} is not a multiple of the game's period {p}")
    start = n0 + (p if s and predicate else 0)
    if start > M or (0 if predicate else s * L // p) != S:
        raise Rejected(f"M = {M} or S = {S} does not follow from the game's relation")
    claimed = json.loads(read(part["claimed"]))
    if not isinstance(claimed, list) or len(claimed) != M + L:
        raise Rejected(f"the claimed values must cover 0 <= n < {M + L}")
    if M + L > MAX_VALUES:
        raise CannotCheck(f"{M + L} values are beyond this checker's {MAX_VALUES}")
    g = heap_values(game["rule"], M + L - 1)
    for n, c in enumerate(claimed):
        if (bool(c) != (g[n] == 0)) if predicate else (c != g[n]):
            raise Rejected(f"at n = {n} the claim gives {c} but g({n}) = {g[n]}")
    done += _own_formula(claim, claimed, L, None if predicate else S, M, timeout)
    return [
        *done,
        f"the claim agrees with g on 0 <= n < {M + L}; periodic-table rule (L = {L}, M = {M})",
    ]


def _own_formula(
    claim: dict[str, Any], claimed: list[Any], L: int, S: int | None, M: int, timeout: float
) -> list[str]:
    """Where the claim's formula lies in the checker's integer fragment (:mod:`.arith`): cvc5
    on the checker's own query proves ``f(n + L) = f(n) + S`` for ``n >= M`` (a predicate:
    it repeats), and the claimed values are the formula's own. Nothing (trusted) outside it."""
    params = claim.get("params") or {}
    try:
        node = arith.parse(str(claim.get("formula")), params)
        query = arith.repeat_query(node, 1, 0, M, L, params, S)
    except arith.Outside:
        return []
    answer = smt.SECOND_SOLVER(query, timeout)
    if answer == "sat":
        raise Rejected(f"the claim's formula does not repeat with period {L} from n = {M}")
    if answer != "unsat":
        raise CannotCheck("cvc5 gave no answer on the formula's period (the checker's query)")
    for n, c in enumerate(claimed):
        mine = arith.value(node, (n,), params)
        if (bool(c) != bool(mine)) if S is None else (c != mine):
            raise Rejected(f"at n = {n} the certificate's value {c} is not the formula's {mine}")
    return [
        "the checker's own reading of the formula: it repeats from M (cvc5 on the checker's "
        "own query) and gives the claimed values"
    ]
