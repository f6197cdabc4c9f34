"""Candidate quotients built without playing sums out: products with cyclic monoids.

When heap ``n`` enlarges the quotient, a candidate is the old quotient (on the
heaps kept) times one cyclic monoid ``<x | x^(i+q) = x^i>`` for heap ``n`` and
for each heap *freed* from the old quotient (a heap that a failing sum
involves). Its P-portion is marked from least words (:func:`mark_p_portion`),
it is reduced, and it is kept only when
:func:`nimproof.misere.monoid.find_failure` proves it. This is the strategy of
Siegel's MisereSolver (trial products, recalibration on the least failing
sum), written here from its description; nothing is accepted unproved.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Sequence

from nimproof.misere.monoid import Monoid, Word, find_failure, least_failure, least_words

#: Largest candidate (elements reachable from the identity) a trial may build.
MAX_TRIAL = 20_000


class TrialTooLarge(Exception):
    """A recalibrated candidate passed the order the caller allows."""


def _cyclic(index: int, period: int) -> list[int]:
    """``next[e]``: the exponent after multiplying ``x^e`` by ``x``."""
    size = index + period
    return [e + 1 if e + 1 < size else index for e in range(size)]


def trial_action(
    old: Monoid, phi: Sequence[int], n: int, freed: dict[int, tuple[int, int]]
) -> list[list[int]] | None:
    """``act[e][h]``: the candidate's element ``e`` times heap ``h`` (``0..n``), elements numbered
    as met from the identity; ``None`` past :data:`MAX_TRIAL` elements.

    ``freed`` maps each heap with a cyclic factor of its own (heap ``n`` among
    them) to ``(index, period)``; the other heaps act through ``old``.
    """
    order = sorted(freed)
    nexts = [_cyclic(*freed[h]) for h in order]
    slot = {h: i for i, h in enumerate(order)}
    start = (0, *([0] * len(order)))
    ids: dict[tuple[int, ...], int] = {start: 0}
    states = [start]
    act: list[list[int]] = []
    queue = deque([0])
    while queue:
        e = queue.popleft()
        s = states[e]
        row = [e]
        for h in range(1, n + 1):
            if h in slot:
                i = slot[h] + 1
                t = (*s[:i], nexts[i - 1][s[i]], *s[i + 1 :])
            else:
                t = (old.mul[s[0]][phi[h]], *s[1:])
            k = ids.get(t)
            if k is None:
                k = ids[t] = len(states)
                states.append(t)
                queue.append(k)
                if len(states) > MAX_TRIAL:
                    return None
            row.append(k)
        act.append(row)
    return act


def mark_p_portion(
    act: Sequence[Sequence[int]], options: Sequence[Sequence[Word]]
) -> frozenset[int] | None:
    """The P-portion a candidate implies: each element takes the outcome of its least word.

    Words are met in order of their number of tokens (then lexicographically),
    each element at its least word; every option of that word has fewer tokens,
    so its element was met before and its mark is known (``None`` when a move
    keeps every token and this order fails). The marks are a guess until
    :func:`nimproof.misere.monoid.find_failure` proves them.
    """
    n = len(act[0]) - 1
    letters = [h for h in range(1, n + 1) if options[h]]
    marked: dict[int, bool] = {}
    queue: list[tuple[int, Word, int]] = [(0, (), 0)]
    while queue:
        tokens, w, e = heapq.heappop(queue)
        if e in marked:
            continue
        verdict = _least_word_is_p(act, options, w, marked)
        if verdict is None:
            return None
        marked[e] = verdict
        for g in letters:
            f = act[e][g]
            if f not in marked:
                heapq.heappush(queue, (tokens + g, tuple(sorted((*w, g))), f))
    return frozenset(x for x, v in marked.items() if v)


def mark_p_portion_lex(
    act: Sequence[Sequence[int]], options: Sequence[Sequence[Word]]
) -> frozenset[int] | None:
    """Like :func:`mark_p_portion`, with each element's least word in the lexicographic order.

    The order is :func:`nimproof.misere.monoid.lex_key` (largest heap counts
    most); every option of a word is smaller, so its element is marked first.
    """
    n = len(act[0]) - 1
    letters = [h for h in range(1, n + 1) if options[h]]
    marked: dict[int, bool] = {}
    for e, w in least_words(lambda x, h: act[x][h], letters).items():
        verdict = _least_word_is_p(act, options, w, marked)
        if verdict is None:
            return None
        marked[e] = verdict
    return frozenset(x for x, v in marked.items() if v)


def _least_word_is_p(
    act: Sequence[Sequence[int]],
    options: Sequence[Sequence[Word]],
    w: Word,
    marked: dict[int, bool],
) -> bool | None:
    if not w:
        return False
    for i, h in enumerate(w):
        if i and w[i - 1] == h:
            continue
        base = 0
        for j, g in enumerate(w):
            if j != i:
                base = act[base][g]
        for parts in options[h]:
            x = base
            for g in parts:
                x = act[x][g]
            seen = marked.get(x)
            if seen is None:
                return None
            if seen:
                return False
    return True


def reduce_action(act: Sequence[Sequence[int]], p: frozenset[int]) -> tuple[Monoid, list[int]]:
    """The reduced monoid of a candidate given by its action: merge what no heap tells apart."""
    n = len(act[0]) - 1
    block = [int(x in p) for x in range(len(act))]
    count = len(set(block))
    while True:
        names: dict[tuple[int, ...], int] = {}
        block = [
            names.setdefault((block[x], *(block[a] for a in act[x][1:])), len(names))
            for x in range(len(act))
        ]
        if len(names) == count:
            break
        count = len(names)
    order: dict[int, int] = {}
    rep: list[int] = []
    for x in range(len(act)):  # element order: as met from the identity
        if block[x] not in order:
            order[block[x]] = len(rep)
            rep.append(x)
    word: list[Word] = [()] * len(rep)
    seen = {0}
    queue = deque([0])
    while queue:
        x = queue.popleft()
        for h in range(1, n + 1):
            y = order[block[act[rep[x]][h]]]
            if y not in seen:
                seen.add(y)
                word[y] = (*word[x], h)
                queue.append(y)
    mul = []
    for x in range(len(rep)):
        row = []
        for y in range(len(rep)):
            e = rep[x]
            for h in word[y]:
                e = act[e][h]
            row.append(order[block[e]])
        mul.append(tuple(row))
    monoid = Monoid(tuple(mul), frozenset(order[block[x]] for x in range(len(act)) if x in p))
    return monoid, [order[block[act[0][h]]] for h in range(n + 1)]


def extend(
    old: Monoid, phi: Sequence[int], options: Sequence[Sequence[Word]], n: int, max_trials: int = 40
) -> tuple[Monoid, list[int]] | None:
    """A proved quotient of the heaps ``<= n`` built from ``old`` (heaps ``< n``), or ``None``.

    The first trial gives heap ``n`` a cyclic factor of its own. Each failing
    sum the proof search returns then recalibrates the trial: its heaps get
    factors of their own, and a heap that already has one gets a longer one
    (an index above the heap's count in the failing sum, then period 4).
    """
    freed: dict[int, tuple[int, int]] = {n: (2, 2)}
    for _ in range(max_trials):
        act = trial_action(old, phi, n, freed)
        if act is None:
            return None
        p = mark_p_portion(act, options)
        if p is None:
            return None
        monoid, new_phi = reduce_action(act, p)
        failure = find_failure(monoid, new_phi, options)
        if failure is None:
            return monoid, new_phi
        new = [h for h in set(failure) if h not in freed]
        if new:
            for h in new:
                freed[h] = (2, 2)
            continue
        for h in set(failure):
            index, period = freed[h]
            if failure.count(h) >= index:
                freed[h] = (failure.count(h) + 1, period)
            else:
                freed[h] = (index + 1, 4 if index >= 4 else period)
    return None


def _cyclic_shape(monoid: Monoid, x: int) -> tuple[int, int]:
    """``(index, period)`` of the powers of ``x``: ``x^(index + period) = x^index``, least such."""
    seen: dict[int, int] = {}
    y, k = 0, 0
    while y not in seen:
        seen[y] = k
        y, k = monoid.mul[y][x], k + 1
    return seen[y], k - seen[y]


def _subsets(items: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """Subsets of ``items`` by increasing size (then in order), at most ``limit`` of them."""
    from itertools import combinations

    out: list[tuple[int, ...]] = []
    for size in range(1, len(items) + 1):
        for combo in combinations(items, size):
            out.append(combo)
            if len(out) >= limit:
                return out
    return out


def recalibrate(
    trial: Monoid,
    phi: Sequence[int],
    options: Sequence[Sequence[Word]],
    n: int,
    failure: Word,
    max_subsets: int = 64,
) -> tuple[Monoid, list[int]] | None:
    """A new candidate that predicts the sum ``failure`` the other way, or ``None``.

    ``failure`` breaks the misère rule under ``(trial, phi)``, so its outcome
    must flip. Subsets of the heaps it involves are *freed*, fewest first:
    the other heaps keep their elements of ``trial``; each freed heap ``h``
    gets a cyclic factor ``<x | x^(i+q) = x^i>`` of its own, with ``i`` at
    least the index of ``phi[h]``'s powers in ``trial`` and at least the
    count of ``h`` in ``failure`` minus one, and ``q = 2`` (``2 floor((i -
    4) / 2)`` for long indices). The P-portion is marked from least words and
    the candidate reduced; the first one that flips ``failure`` is returned.
    This is the recalibration step of Siegel's MisereSolver, written from its
    description; the result is a candidate only, proved (or not) by the caller.
    """
    should_be_p = trial.product([phi[h] for h in failure]) not in trial.p
    involved = sorted(set(failure))
    for heaps in _subsets(involved, max_subsets):
        freed: dict[int, tuple[int, int]] = {}
        for h in heaps:
            index, _ = _cyclic_shape(trial, phi[h])
            index = max(index, failure.count(h) - 1)
            freed[h] = (index, max(2, 2 * ((index - 4) // 2)))
        got = _candidate(trial, phi, options, n, freed)
        if got is not None and (got[0].product([got[1][h] for h in failure]) in got[0].p) == (
            should_be_p
        ):
            return got
    return None


def _candidate(
    base: Monoid,
    phi: Sequence[int],
    options: Sequence[Sequence[Word]],
    n: int,
    freed: dict[int, tuple[int, int]],
) -> tuple[Monoid, list[int]] | None:
    """``base`` with the ``freed`` heaps given cyclic factors, P-portion marked (lexicographic), reduced."""
    act = trial_action(base, phi, n, freed)
    if act is None:
        return None
    p = mark_p_portion_lex(act, options)
    if p is None:
        return None
    return reduce_action(act, p)


def extend_by_recalibration(
    old: Monoid,
    phi: Sequence[int],
    options: Sequence[Sequence[Word]],
    n: int,
    max_rounds: int = 400,
    max_order: int = MAX_TRIAL,
) -> tuple[Monoid, list[int]] | None:
    """A proved quotient of the heaps ``<= n`` grown from ``old`` by recalibration, or ``None``.

    The first candidate is ``old`` times a cyclic factor ``x^4 = x^2`` for
    heap ``n``. While :func:`nimproof.misere.monoid.find_failure` returns a
    failing sum, :func:`recalibrate` changes the candidate so that the sum
    flips; each new candidate starts from the last one (not from ``old``), so
    what earlier rounds learned is kept. ``None`` after ``max_rounds`` rounds,
    when no subset flips a failure, or when a candidate passes
    :data:`MAX_TRIAL` elements; raises :class:`TrialTooLarge` when a reduced
    candidate has more than ``max_order`` elements. A returned quotient has
    passed the proof.
    """
    first = _candidate(old, phi, options, n, {n: (2, 2)})
    if first is None:
        return None
    trial, new_phi = first
    for _ in range(max_rounds):
        failure = least_failure(trial, new_phi, options[: n + 1])
        if failure is None:
            if find_failure(trial, new_phi, options[: n + 1]) is None:
                return trial, new_phi
            return None
        got = recalibrate(trial, new_phi, options, n, failure)
        if got is None:
            return None
        trial, new_phi = got
        if trial.order > max_order:
            raise TrialTooLarge(f"a candidate passed {max_order} elements")
    return None
