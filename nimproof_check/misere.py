"""Re-check a ``misere-quotient`` certificate part: misère P-positions of sums of heaps.

The part states a commutative monoid ``Q`` (``mul``, identity 0), a P-portion
``P``, and a heap map ``phi`` on heaps ``0 .. N``, periodic with period ``p``
from ``n0``. Its prediction: a sum of heaps is a misère P-position exactly when
the product of its heaps' elements lies in ``P``. The checker, with its own
option enumeration of the octal code (:mod:`.games`):

1. checks that ``mul`` is a commutative monoid with identity 0 and ``phi(0) = 0``;
2. proves the prediction for **every** sum of heaps ``<= N`` by its local rule
   (a sum is P exactly when it has a move and every move leads to a sum
   predicted N): on a sum with the fewest tokens where the prediction were
   wrong, its options would be predicted right, so the rule would fail at the
   sum itself. The rule is checked on every reachable pair (element of the
   sum, set of elements of its options): adding heap ``g`` maps ``(e, T)`` to
   ``(e phi(g), T phi(g) ∪ e S(g))``, ``S(g)`` the elements of ``g``'s
   options. "Predicted P, some option predicted P" is checked directly on every
   element and heap; "predicted N, a move, and no option predicted P" on the
   pairs, keeping for each element only the least sets (a smaller set reaches
   such a failure whenever a larger one does);
3. checks the hypotheses of the periodicity theorem for misère quotients
   (octal code: digits below 8, none before the point, last non-zero digit at
   ``t``; ``N >= 2 n0 + 2 p + t - 1``; ``phi(n + p) = phi(n)`` for ``n0 <= n <= N - p``),
   which carries the prediction, with the period, to every heap; and
   compares, as a spot check, the options' elements of heaps ``N + 1 ..
   N + 2p`` with those ``p`` heaps lower;
4. plays out every sum of at most 3 heaps of total at most ``BRUTE_TOTAL`` with
   its own misère recursion and compares with the prediction;
5. for a quotient-order claim (kind ``misere_quotient``): that the monoid is the
   quotient itself (every element reached by a sum of heaps, any two elements
   told apart) and has the claim's figures (:mod:`.quotient`); for a
   P-position claim on ``k`` heaps: the predicate repeats with period ``L`` in
   each heap from ``starts[i]`` (cvc5 re-checks z3's ``repeat_start`` queries,
   one ``unsat`` per heap), ``L`` is a multiple of ``p`` and every start is at
   least ``n0``, so both sides repeat and agree everywhere when they agree on
   the box ``0 <= h_i < starts[i] + L``; the predicate's values on the box (as
   nimproof evaluated it, the file ``claimed``) are compared with the
   prediction there. When the predicate lies in the checker's integer fragment
   (:mod:`.arith`), the checker also writes its own period queries (cvc5 must
   answer unsat) and evaluates the predicate on the box itself.

*Trusted:* the periodicity theorem (a published theorem, docs/misere.md
gives its proof); for a predicate outside the fragment, the meaning of the SMT
queries (nimproof's translation) and the predicate's evaluation on the box.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement, product
from typing import Any

from nimproof_check import arith, quotient, smt
from nimproof_check.games import CannotCheck, Rejected, check_game, heap_options, mex

#: Sums of at most 3 heaps with at most this many tokens are played out.
BRUTE_TOTAL = 18
#: Most (element, option set) pairs the search keeps.
MAX_PAIRS = 2_000_000


def _monoid(part: dict[str, Any]) -> tuple[list[list[int]], int, set[int], list[int]]:
    mul, p_portion, phi = part.get("mul"), part.get("p_portion"), part.get("phi")
    if not isinstance(mul, list) or not mul:
        raise Rejected("the quotient has no multiplication table")
    m = len(mul)
    ok = all(
        isinstance(row, list)
        and len(row) == m
        and all(isinstance(x, int) and 0 <= x < m for x in row)
        for row in mul
    )
    if not ok:
        raise Rejected(f"the multiplication table is not a {m} x {m} table of elements")
    if not isinstance(p_portion, list) or not all(
        isinstance(x, int) and 0 <= x < m for x in p_portion
    ):
        raise Rejected("the P-portion is not a list of elements")
    if (
        not isinstance(phi, list)
        or not phi
        or not all(isinstance(x, int) and 0 <= x < m for x in phi)
    ):
        raise Rejected("the heap map is not a list of elements")
    for x in range(m):
        if mul[0][x] != x or mul[x][0] != x:
            raise Rejected(f"0 is not the identity of the table (0 * {x})")
        for y in range(x):
            if mul[x][y] != mul[y][x]:
                raise Rejected(f"the table is not commutative ({x} * {y})")
    for x, y, z in product(range(m), repeat=3):
        if mul[mul[x][y]][z] != mul[x][mul[y][z]]:
            raise Rejected(f"the table is not associative ({x} * {y} * {z})")
    if phi[0] != 0:
        raise Rejected("the empty heap's element is not the identity")
    return mul, m, set(p_portion), phi


def _octal(game: Any) -> tuple[dict[str, Any], int]:
    """The game's rule and ``t`` (index of its last non-zero digit) when the theorem applies."""
    check_game(game)
    rule = game.get("rule") if game.get("kind") == "heap" else None
    if not game.get("misere") or not isinstance(rule, dict) or rule.get("rule") != "code":
        raise CannotCheck("a misère quotient of a game other than a misère octal code")
    digits = rule["digits"]
    if digits[0] != 0 or any(d > 7 for d in digits):
        raise CannotCheck("the periodicity theorem for misère quotients needs an octal code")
    return rule, max(j for j, d in enumerate(digits) if d)


def _option_elements(
    rule: dict[str, Any], mul: list[list[int]], phi: Callable[[int], int], n: int
) -> frozenset[int]:
    out = set()
    for option in heap_options(rule, n):
        x = 0
        for h in option:
            x = mul[x][phi(h)]
        out.add(x)
    return frozenset(out)


def _local_rule(mul: list[list[int]], ps: set[int], heaps: list[tuple[int, frozenset[int]]]) -> int:
    """Check the misère rule on every sum of these heaps (pairs ``(phi(g), S(g))``); the number
    of (element, option set) pairs kept. Rejected with a failure."""
    elements = {0}
    todo = [0]
    while todo:
        d = todo.pop()
        for x, _ in heaps:
            e = mul[d][x]
            if e not in elements:
                elements.add(e)
                todo.append(e)
    for d in sorted(elements):
        for x, opts in heaps:
            if mul[d][x] in ps and any(mul[d][s] in ps for s in opts):
                raise Rejected(
                    f"the local rule fails: element {d} times heap element {x} is in the "
                    "P-portion, and so is one of its options"
                )
    still = {0}  # elements of sums with no move (heaps without options)
    todo = [0]
    while todo:
        d = todo.pop()
        for x, opts in heaps:
            e = mul[d][x]
            if not opts and e not in still:
                still.add(e)
                todo.append(e)
    if still & ps:
        raise Rejected("a sum with no move (a misère N-position) is predicted P")
    pmask = _mask(ps)
    kept: dict[int, list[int]] = {}
    queue: list[tuple[int, int]] = []

    def add(e: int, t: int) -> None:
        sets = kept.setdefault(e, [])
        if any(s & ~t == 0 for s in sets):
            return
        if e not in ps and not t & pmask:
            raise Rejected(
                f"the local rule fails: a sum with element {e} (not in the P-portion) has moves, "
                "none to a sum predicted P"
            )
        sets[:] = [s for s in sets if t & ~s != 0]
        sets.append(t)
        queue.append((e, t))
        if len(queue) > MAX_PAIRS:
            raise CannotCheck(f"more than {MAX_PAIRS} (element, option set) pairs")

    for d in sorted(still):
        for x, opts in heaps:
            if opts:
                add(mul[d][x], _mask(mul[d][s] for s in opts))
    done = 0
    while queue:
        e, t = queue.pop()
        if t not in kept.get(e, []):
            continue
        done += 1
        members = [y for y in range(len(mul)) if t >> y & 1]
        for x, opts in heaps:
            add(mul[e][x], _mask(mul[y][x] for y in members) | _mask(mul[e][s] for s in opts))
    return done


def _mask(xs: Any) -> int:
    out = 0
    for x in xs:
        out |= 1 << x
    return out


def _brute(rule: dict[str, Any], predicted: Callable[[tuple[int, ...]], bool]) -> int:
    """Compare the prediction with misère play on every sum of <= 3 heaps, total <= BRUTE_TOTAL."""
    memo: dict[tuple[int, ...], int] = {}

    def value(pos: tuple[int, ...]) -> int:
        pos = tuple(sorted(h for h in pos if h))
        if pos not in memo:
            options = []
            for i, h in enumerate(pos):
                for o in heap_options(rule, h):
                    options.append(pos[:i] + pos[i + 1 :] + o)
            memo[pos] = mex({value(q) for q in options}) if options else 1
        return memo[pos]

    count = 0
    for size in range(1, 4):
        for pos in combinations_with_replacement(range(1, BRUTE_TOTAL + 1), size):
            if sum(pos) <= BRUTE_TOTAL:
                count += 1
                if (value(pos) == 0) != predicted(pos):
                    raise Rejected(f"misère play of heaps {list(pos)} disagrees with the quotient")
    return count


def check_part(
    part: dict[str, Any], game: Any, claim: dict[str, Any], read: Any, timeout: float
) -> list[str]:
    """Re-check one ``misere-quotient`` part; the lines of what was checked."""
    if part.get("claim_kind") == "misere_quotient" and isinstance(game, dict):
        game = {**game, "misere": True}  # the kind states the code's misère quotient
    rule, t = _octal(game)
    mul, m, ps, phi = _monoid(part)
    n0, p = part.get("period_from"), part.get("period")
    if not isinstance(n0, int) or not isinstance(p, int) or n0 < 0 or p < 1:
        raise Rejected("the heap map's period must be whole numbers n0 >= 0, p >= 1")
    top = len(phi) - 1
    window = 2 * n0 + 2 * p + t - 1
    if top < window:
        raise Rejected(f"the heap map stops at heap {top}; the theorem needs heaps to {window}")
    for n in range(n0, window - p + 1):
        if phi[n + p] != phi[n]:
            raise Rejected(f"the heap map is not periodic: heaps {n} and {n + p} differ")

    def element(h: int) -> int:
        return phi[h] if h <= window else phi[n0 + (h - n0) % p]

    heaps = {(phi[g], _option_elements(rule, mul, element, g)) for g in range(1, window + 1)}
    pairs = _local_rule(mul, ps, sorted(heaps, key=lambda x: (x[0], sorted(x[1]))))
    for n in range(window + 1, window + 2 * p + 1):
        if _option_elements(rule, mul, element, n) != _option_elements(rule, mul, element, n - p):
            raise Rejected(f"heap {n}'s options differ from heap {n - p}'s (periodicity theorem)")

    def predicted(pos: tuple[int, ...]) -> bool:
        x = 0
        for h in pos:
            x = mul[x][element(h)]
        return x in ps

    played = _brute(rule, predicted)
    done = [
        f"quotient of order {m}: a commutative monoid; the misère rule holds on every sum of "
        f"heaps <= {window} ({pairs} element/option-set pairs)",
        f"periodicity theorem: heap map period {p} from heap {n0}, octal code with t = {t}, "
        f"heaps to {window}",
        f"{played} sums of <= 3 heaps (total <= {BRUTE_TOTAL}) played out: all agree",
    ]
    if part.get("claim_kind") == "misere_quotient":
        return done + quotient.check_order(part, claim, mul, ps, element, (n0, p))
    return done + _claim(part, claim, predicted, p, n0, read, timeout)


def _own_reading(
    claim: dict[str, Any], k: int, starts: list[int], L: int, timeout: float
) -> Callable[[tuple[int, ...]], Any] | None:
    """The predicate as the checker reads it, after cvc5 proved on the checker's own queries
    that it repeats with period ``L`` in each heap from its start; None when the predicate is
    outside the checker's integer fragment (then the certificate's queries and box are
    trusted for their meaning). Rejected when it does not repeat."""
    params = claim.get("params") or {}
    try:
        node = arith.parse(str(claim.get("formula")), params)
        queries = [arith.repeat_query(node, k, i, starts[i], L, params) for i in range(k)]
    except arith.Outside:
        return None
    for i, query in enumerate(queries):
        answer = smt.SECOND_SOLVER(query, timeout)
        if answer == "sat":
            raise Rejected(
                f"the predicate does not repeat with period {L} in heap {i} from {starts[i]}"
            )
        if answer != "unsat":
            raise CannotCheck(f"cvc5 gave no answer on the predicate's period in heap {i}")
    return lambda pos: arith.value(node, pos, params)


def _claim(
    part: dict[str, Any],
    claim: dict[str, Any],
    predicted: Callable[[tuple[int, ...]], bool],
    p: int,
    n0: int,
    read: Any,
    timeout: float,
) -> list[str]:
    k, L, starts = part.get("heaps"), part.get("L"), part.get("starts")
    if not isinstance(k, int) or k < 1 or claim.get("heaps") != k:
        raise Rejected(f"the part is about {k!r} heaps, the claim about {claim.get('heaps')!r}")
    if not isinstance(L, int) or L < 1 or L % p:
        raise Rejected(f"L = {L!r} is not a multiple of the heap map's period {p}")
    if (
        not isinstance(starts, list)
        or len(starts) != k
        or not all(isinstance(s, int) for s in starts)
    ):
        raise Rejected("the part needs one start per heap")
    if min(starts) < n0:
        raise Rejected(f"a start {min(starts)} is below the heap map's period start {n0}")
    formula = part.get("formula")
    if not isinstance(formula, dict) or formula.get("claim_kind") != "misere-repeat":
        raise Rejected("the part needs the SMT part of the predicate's period")
    done = smt.check_part(formula, read, timeout)
    unsat = [
        q
        for q in formula.get("queries", [])
        if q.get("role") == "repeat_start" and q.get("answer") == "unsat"
    ]
    if len(unsat) < k:
        raise Rejected(f"{len(unsat)} unsat repeat_start queries for {k} heaps")
    sizes = [s + L for s in starts]
    text = read(part["claimed"]).strip()
    count = 1
    for s in sizes:
        count *= s
    if len(text) != count or set(text) - {"0", "1"}:
        raise Rejected(f"the predicate's box must be {count} characters 0/1")
    own = _own_reading(claim, k, starts, L, timeout)
    for i, pos in enumerate(product(*(range(s) for s in sizes))):
        if (text[i] == "1") != predicted(pos):
            raise Rejected(f"at heaps {list(pos)} the predicate and the quotient differ")
        if own is not None and bool(own(pos)) != (text[i] == "1"):
            raise Rejected(
                f"at heaps {list(pos)} the certificate's box is not the predicate's value"
            )
    if own is not None:
        done.append(
            f"the checker's own reading of the predicate: it repeats with period {L} in each heap "
            "from its start (cvc5 on the checker's own queries) and gives the box's values"
        )
    box = " x ".join(map(str, sizes))
    return [*done, f"the predicate agrees with the quotient on the box {box}, period {L}"]
