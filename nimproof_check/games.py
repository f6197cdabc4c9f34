"""The games a certificate may name, interpreted from their plain description (no nimproof code).

A certificate's ``game`` object is one of (``misere``: true for misère play, default false)::

    {"kind": "heap", "rule": RULE}            one heap, or several heaps of one rule
    {"kind": "sum", "rules": [RULE, ...]}     one heap of each rule, in this order
    {"kind": "moore", "k": K}                 lower 1..K heaps at once, each by any amount
    {"kind": "staircase"}                     move coins from stair i to stair i - 1;
                                              coins on stair 0 leave the game
    {"kind": "wythoff"}                       two heaps: lower one heap, or both by the
                                              same amount
    {"kind": "welter", "coins": K}            K coins on squares 0, 1, ...: slide one coin
                                              down to a square no other coin is on; a
                                              tuple with two coins on one square is not
                                              a position and has no move
    {"kind": "fibonacci-nim"}                 (n, t): take 1 .. min(n, t) tokens, and the
                                              next player may take at most twice as many
    {"kind": "northcott", "rows": R}          Northcott's game, loopy (see .loopy): per row
                                              gap, mover's room, opponent's room
    {"kind": "graph", "starts": [KEY, ...], "edges": {KEY: [KEY, ...]}}
                                              an explicit finite game: each position (its
                                              JSON text) with its options (plugin games)

and a one-heap ``RULE`` is one of::

    {"rule": "takes", "takes": [t, ...]}      take t tokens, t in a finite set
    {"rule": "interval", "p": P, "q": Q}      take 1 .. floor(P n / Q) tokens (Nim: 1/1)
    {"rule": "multiples-of", "k": K}          take a positive multiple of K
    {"rule": "all-but", "excluded": [e, ...]} take any positive number except the listed ones
    {"rule": "primes"}, {"rule": "squares"},  take a prime, a positive square, or a positive
    {"rule": "triangular"}                    triangular number of tokens
    {"rule": "code", "digits": [d0, d1, ...]} take-and-break code: removing j tokens may
                                              leave 0 heaps (bit 1 of dj), 1 heap (bit 2),
                                              2 heaps (bit 4) or 3 heaps (bit 8), all non-empty
    {"rule": "split-unequal"}                 split a heap into two unequal non-empty heaps
    {"rule": "lasker"}                        Lasker's Nim: take any number, or split into
                                              two non-empty heaps
    {"rule": "ruler"}, {"rule": "mock-turtles"}
                                              coin turning (heap n: a heads coin at n,
                                              coins 1, 2, ...): Ruler turns the coins j+1..n
                                              (j < n), Mock Turtles coin n and at most two
                                              smaller coins; the option is the other coins
                                              turned (their values xor, as for heaps)

Anything else raises :class:`CannotCheck`: the checker answers "cannot check", never guesses.
Values are computed by plain recursion and mex, nothing more.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from itertools import combinations
from typing import Any


class CannotCheck(Exception):
    """The certificate names something this checker does not interpret."""


class Rejected(Exception):
    """The certificate is wrong (a value, a hash, an answer): the reason is the message."""


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``."""
    v = 0
    while v in values:
        v += 1
    return v


RULES = (
    "takes",
    "interval",
    "multiples-of",
    "all-but",
    "primes",
    "squares",
    "triangular",
    "code",
    "split-unequal",
    "lasker",
    "ruler",
    "mock-turtles",
)


def check_rule(rule: Any) -> dict[str, Any]:
    """``rule`` when it is a rule this checker knows with well-formed fields; CannotCheck otherwise."""
    if not isinstance(rule, dict) or rule.get("rule") not in RULES:
        raise CannotCheck(f"a heap rule this checker does not know: {rule!r}")
    name = rule["rule"]

    def ints(key: str, low: int) -> list[int]:
        xs = rule.get(key)
        if not isinstance(xs, list) or not all(isinstance(x, int) and x >= low for x in xs):
            raise CannotCheck(f"rule {name}: {key} must be a list of whole numbers >= {low}")
        return xs

    if name == "takes" and not ints("takes", 1):
        raise CannotCheck("rule takes: an empty set")
    if name == "all-but":
        ints("excluded", 1)
    if name == "code":
        digits = ints("digits", 0)
        if not digits or any(d > 15 for d in digits) or not any(digits):
            raise CannotCheck("rule code: digits must be 0..15, some non-zero")
    for key in {"interval": ("p", "q"), "multiples-of": ("k",)}.get(name, ()):
        if not isinstance(rule.get(key), int) or rule[key] < 1:
            raise CannotCheck(f"rule {name}: {key} must be a positive whole number")
    if name == "interval" and rule["p"] > rule["q"]:
        raise CannotCheck("rule interval: p must be at most q")
    return rule


def splits(rule: dict[str, Any]) -> bool:
    """True when a move of ``rule`` may leave two or more heaps."""
    if rule["rule"] in ("split-unequal", "lasker", "ruler", "mock-turtles"):
        return True
    return rule["rule"] == "code" and any(d & 12 for d in rule["digits"])


def heap_options(rule: dict[str, Any], n: int) -> Iterator[tuple[int, ...]]:
    """Every option of one heap of ``n``: the (non-empty) heaps it leaves, sorted."""
    name = rule["rule"]
    if name == "split-unequal":
        for a in range(1, (n + 1) // 2):
            yield (a, n - a)
        return
    if name == "code":
        yield from _code_options(rule["digits"], n)
        return
    if name in PART_OPTIONS:
        yield from PART_OPTIONS[name](n)
        return
    for t in range(1, n + 1):
        if _takes(rule, n, t):
            yield (n - t,) if n - t else ()


def _lasker_options(n: int) -> Iterator[tuple[int, ...]]:
    for m in range(n):
        yield (m,) if m else ()
    for a in range(1, n // 2 + 1):
        yield (a, n - a)


def _ruler_options(n: int) -> Iterator[tuple[int, ...]]:
    for j in range(n):
        yield tuple(range(j + 1, n))


def _mock_turtles_options(n: int) -> Iterator[tuple[int, ...]]:
    if n >= 1:
        yield ()
    for b in range(1, n):
        yield (b,)
        for a in range(1, b):
            yield (a, b)


PART_OPTIONS = {
    "lasker": _lasker_options,
    "ruler": _ruler_options,
    "mock-turtles": _mock_turtles_options,
}


def _takes(rule: dict[str, Any], n: int, t: int) -> bool:
    name = rule["rule"]
    if name == "takes":
        return t in rule["takes"]
    if name == "interval":
        return t <= rule["p"] * n // rule["q"]
    if name == "multiples-of":
        return t % rule["k"] == 0
    if name == "primes":
        return t >= 2 and all(t % d for d in range(2, math.isqrt(t) + 1))
    if name == "squares":
        return math.isqrt(t) ** 2 == t
    if name == "triangular":
        return math.isqrt(8 * t + 1) ** 2 == 8 * t + 1
    return t not in rule["excluded"]  # all-but


def _code_options(digits: list[int], n: int) -> Iterator[tuple[int, ...]]:
    for j, d in enumerate(digits):
        left = n - j
        if left < 0:
            break
        if d & 1 and left == 0:
            yield ()
        if d & 2 and left >= 1:
            yield (left,)
        if d & 4:
            for a in range(1, left // 2 + 1):
                yield (a, left - a)
        if d & 8:
            for a in range(1, left // 3 + 1):
                for b in range(a, (left - a) // 2 + 1):
                    yield (a, b, left - a - b)


def heap_values(rule: dict[str, Any], last: int) -> list[int]:
    """Normal-play values of one heap of ``0 .. last`` (an option's value: xor of its heaps)."""
    g: list[int] = []
    for n in range(last + 1):
        seen = set()
        for option in heap_options(rule, n):
            x = 0
            for h in option:
                x ^= g[h]
            seen.add(x)
        g.append(mex(seen))
    return g


def check_game(game: Any) -> dict[str, Any]:
    """``game`` when this checker interprets it; CannotCheck otherwise."""
    if not isinstance(game, dict):
        raise CannotCheck("the certificate describes no game this checker knows")
    kind = game.get("kind")
    if kind == "heap":
        check_rule(game.get("rule"))
    elif kind == "sum":
        rules = game.get("rules")
        if not isinstance(rules, list) or not rules:
            raise CannotCheck("a sum needs a list of rules")
        for r in rules:
            check_rule(r)
    elif kind == "moore":
        if not isinstance(game.get("k"), int) or game["k"] < 1:
            raise CannotCheck("moore: k must be a positive whole number")
    elif kind == "graph":
        edges, starts = game.get("edges"), game.get("starts")
        if not isinstance(edges, dict) or not isinstance(starts, list):
            raise CannotCheck("a game graph needs starts and edges")
        for key, options in edges.items():
            if not isinstance(options, list) or any(q not in edges for q in options):
                raise Rejected(f"the game graph is not closed: an option of {key} is not listed")
    elif kind == "welter":
        if not isinstance(game.get("coins"), int) or game["coins"] < 1:
            raise CannotCheck("welter: coins must be a positive whole number")
    elif kind == "northcott":
        if not isinstance(game.get("rows"), int) or game["rows"] < 1:
            raise CannotCheck("northcott: rows must be a positive whole number")
    elif kind not in ("staircase", "wythoff", "fibonacci-nim"):
        raise CannotCheck(f"a game kind this checker does not know: {kind!r}")
    return game


def graph_values(game: dict[str, Any]) -> dict[str, int]:
    """The value of every position of an explicit game graph (misère: a terminal position
    has value 1); Rejected when the graph has a cycle (a play that never ends)."""
    edges: dict[str, list[str]] = game["edges"]
    misere = bool(game.get("misere", False))
    value: dict[str, int] = {}
    for root in edges:
        stack, on_path = [root], {root}
        while stack:
            top = stack[-1]
            if top in value:
                stack.pop()
                on_path.discard(top)
                continue
            todo = [q for q in edges[top] if q not in value]
            if any(q in on_path for q in todo):
                raise Rejected(f"the game graph has a cycle through {top}")
            if todo:
                stack.append(todo[0])
                on_path.add(todo[0])
                continue
            stack.pop()
            on_path.discard(top)
            options = edges[top]
            value[top] = 1 if misere and not options else mex({value[q] for q in options})
    return value


def slot_rules(game: dict[str, Any], heaps: int) -> list[dict[str, Any]] | None:
    """The rule of each heap slot (None for moore and staircase); CannotCheck for splits."""
    if game["kind"] == "heap":
        rules = [game["rule"]] * heaps
    elif game["kind"] == "sum":
        rules = list(game["rules"])
        if len(rules) != heaps:
            raise CannotCheck(f"a sum of {len(rules)} rules on {heaps} heaps")
    else:
        return None
    if any(splits(r) for r in rules):
        raise CannotCheck("positions with a fixed number of heaps, but the rule splits heaps")
    return rules


def moves(game: dict[str, Any], pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every position one move from ``pos`` (a fixed number of heap slots)."""
    h = len(pos)
    out: list[tuple[int, ...]] = []
    if game["kind"] == "graph":
        return _graph_moves(game, pos)
    if game["kind"] == "northcott":  # loopy: outcomes, not values (see .loopy)
        raise CannotCheck("Northcott's game is loopy: only a loopy part proves its claims")
    rules = slot_rules(game, h)
    if rules is not None:
        for i, rule in enumerate(rules):
            for option in heap_options(rule, pos[i]):
                m = option[0] if option else 0
                out.append((*pos[:i], m, *pos[i + 1 :]))
        return out
    if game["kind"] in PAIR_GAMES:
        return PAIR_GAMES[game["kind"]](pos)
    if game["kind"] == "welter":
        return _welter_moves(game, pos)
    if game["kind"] == "moore":
        for size in range(1, min(game["k"], h) + 1):
            for chosen in combinations(range(h), size):
                out.extend(_lower(pos, chosen))
        return out
    for i in range(h):  # staircase
        for c in range(1, pos[i] + 1):
            q = list(pos)
            q[i] -= c
            if i > 0:
                q[i - 1] += c
            out.append(tuple(q))
    return out


def _wythoff_moves(pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    if len(pos) != 2:
        raise CannotCheck(f"Wythoff's game has two heaps, not {len(pos)}")
    a, b = pos
    out: list[tuple[int, ...]] = [(m, b) for m in range(a)]
    out += [(a, m) for m in range(b)]
    out += [(a - t, b - t) for t in range(1, min(a, b) + 1)]
    return out


def _fibonacci_nim_moves(pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    if len(pos) != 2:
        raise CannotCheck(f"a position of Fibonacci Nim is (heap, limit), not {len(pos)} numbers")
    n, t = pos
    return [(n - s, 2 * s) for s in range(1, min(n, t) + 1)]


PAIR_GAMES = {"wythoff": _wythoff_moves, "fibonacci-nim": _fibonacci_nim_moves}


def _welter_moves(game: dict[str, Any], pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    if len(pos) != game["coins"]:
        raise CannotCheck(f"Welter's game with {game['coins']} coins on {len(pos)} heaps")
    if len(set(pos)) != len(pos):
        return []
    return [
        (*pos[:i], m, *pos[i + 1 :]) for i, a in enumerate(pos) for m in range(a) if m not in pos
    ]


def lex_order(game: dict[str, Any], heaps: int) -> list[int]:
    """The heap slots, most significant first, of a lexicographic order every move lowers:
    the last heap first (a move lowers one heap and may raise only earlier ones, as on a
    staircase), except Fibonacci Nim, whose moves lower the heap (slot 0) and may raise
    the limit (slot 1)."""
    if game.get("kind") == "fibonacci-nim":
        return list(range(heaps))
    return list(reversed(range(heaps)))


def _graph_moves(game: dict[str, Any], pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    """One heap's moves read from a game graph over heaps (``"heaps": true``)."""
    if not game.get("heaps") or len(pos) != 1:
        raise CannotCheck("a game graph gives moves of one heap only")
    key = json.dumps([pos[0]] if pos[0] else [])
    if key not in game["edges"]:
        raise CannotCheck(f"the game graph does not list heap {pos[0]}")
    out: list[tuple[int, ...]] = []
    for option in game["edges"][key]:
        heaps = json.loads(option)
        if not isinstance(heaps, list) or len(heaps) > 1:
            raise CannotCheck("the game graph splits heaps")
        out.append((int(heaps[0]) if heaps else 0,))
    return out


def _lower(pos: tuple[int, ...], chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way of lowering each chosen heap by a positive amount."""
    if not chosen:
        yield pos
        return
    i, rest = chosen[0], chosen[1:]
    for m in range(pos[i]):
        yield from _lower((*pos[:i], m, *pos[i + 1 :]), rest)


class Values:
    """Values of fixed-slot positions by direct recursion: normal play, or misère
    (a terminal position has value 1, any other the mex of its options' values)."""

    def __init__(self, game: dict[str, Any]) -> None:
        self.game = game
        self.misere = bool(game.get("misere", False))
        self.memo: dict[tuple[int, ...], int] = {}

    def value(self, pos: tuple[int, ...]) -> int:
        """The value of ``pos`` (iterative, so deep games do not exhaust the stack)."""
        stack = [pos]
        while stack:
            top = stack[-1]
            if top in self.memo:
                stack.pop()
                continue
            options = moves(self.game, top)
            todo = [q for q in options if q not in self.memo]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            if not options and self.misere:
                self.memo[top] = 1
            else:
                self.memo[top] = mex({self.memo[q] for q in options})
        return self.memo[pos]
