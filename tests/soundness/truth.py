"""An independent truth reference for the soundness suite: plain Python, no nimproof code.

Nothing here imports nimproof. Values come from two sources that the tests
check against each other:

* brute force: the mex rule over each family's moves, written out again here
  from the definitions (:func:`heap_table`, :func:`p_positions_box`);
* theorems, for positions far beyond brute force: Bouton (Nim and misère
  Nim), Moore's Nim_k, staircase Nim, the closed forms and periods of the
  one-heap families used by the suite (each is compared with brute force on
  a long prefix in ``test_truth_reference.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from functools import cache

Options = Callable[[int], Iterator[tuple[int, ...]]]


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``."""
    m = 0
    while m in values:
        m += 1
    return m


# ---------------------------------------------------------------------------
# one-heap families, from their definitions
# ---------------------------------------------------------------------------


def nim_options(n: int) -> Iterator[tuple[int, ...]]:
    for m in range(n):
        yield (m,) if m else ()


def subtraction_options(takes: Sequence[int]) -> Options:
    def options(n: int) -> Iterator[tuple[int, ...]]:
        for t in takes:
            if t <= n:
                yield (n - t,) if n - t else ()

    return options


def half_heap_options(n: int) -> Iterator[tuple[int, ...]]:
    """Take 1 .. floor(n/2) tokens."""
    for t in range(1, n // 2 + 1):
        yield (n - t,)


def octal_options(code: str) -> Options:
    """An octal game ``0.d1d2...``: digit ``d_i`` says what taking ``i`` tokens may leave
    (bit 1: nothing, bit 2: one heap, bit 4: two heaps)."""
    digits = [int(c, 16) for c in code.split(".", 1)[1]]

    def options(n: int) -> Iterator[tuple[int, ...]]:
        for i, d in enumerate(digits, start=1):
            rest = n - i
            if rest < 0:
                break
            if d & 1 and rest == 0:
                yield ()
            if d & 2 and rest >= 1:
                yield (rest,)
            if d & 4 and rest >= 2:
                for a in range(1, rest // 2 + 1):
                    yield (a, rest - a)

    return options


FAMILIES: dict[str, Options] = {
    "nim": nim_options,
    "half-heap": half_heap_options,
    "rule:(n+1)//2 <= m < n": half_heap_options,
    "subtraction:1,3,4": subtraction_options((1, 3, 4)),
    "kayles": octal_options("0.77"),
    "dawsons-kayles": octal_options("0.07"),
    **{f"knim:{k}": subtraction_options(tuple(range(1, k + 1))) for k in range(1, 11)},
}


def legal_heap_move(spec: str, n: int, m: int) -> bool:
    """Whether one heap of ``n`` may become one heap of ``m`` (families that never split)."""
    if not 0 <= m < n:
        return False
    base = spec.removeprefix("misere:")
    if base == "nim":
        return True
    if base.startswith("knim:"):
        return n - m <= int(base[5:])
    if base == "subtraction:1,3,4":
        return n - m in (1, 3, 4)
    if base in ("half-heap", "rule:(n+1)//2 <= m < n"):
        return n - m <= n // 2
    raise KeyError(spec)


def heap_table(options: Options, n_max: int) -> list[int]:
    """Grundy values of heaps 0..n_max (a split leaves a sum: xor of the parts)."""
    g: list[int] = []
    for n in range(n_max + 1):
        seen = set()
        for parts in options(n):
            v = 0
            for a in parts:
                v ^= g[a]
            seen.add(v)
        g.append(mex(seen))
    return g


def misere_heap_table(options: Options, n_max: int) -> list[int]:
    """Misère nim-values of single heaps of a game that never splits (terminal: 1)."""
    g: list[int] = []
    for n in range(n_max + 1):
        opts = [parts[0] if parts else 0 for parts in options(n)]
        g.append(1 if not opts else mex({g[m] for m in opts}))
    return g


# ---------------------------------------------------------------------------
# closed forms (theorems), checked against brute force by the tests
# ---------------------------------------------------------------------------

KAYLES_PREFIX = 71
DAWSON_PREFIX = 53


@cache
def _prefix(spec: str, n: int) -> tuple[int, ...]:
    return tuple(heap_table(FAMILIES[spec], n))


def heap_value(spec: str, n: int) -> int:
    """The Grundy value of one heap of ``spec`` (normal play), for any ``n``."""
    if spec == "nim":
        return n
    if spec.startswith("knim:"):
        return n % (int(spec[5:]) + 1)
    if spec == "subtraction:1,3,4":
        return (0, 1, 0, 1, 2, 3, 2)[n % 7]
    if spec in ("half-heap", "rule:(n+1)//2 <= m < n"):
        while n % 2:  # g(2m + 1) = g(m), g(2m) = m
            n //= 2
        return n // 2
    if spec == "kayles":  # period 12 from heap 71 (Guy and Smith)
        if n >= KAYLES_PREFIX:
            n = KAYLES_PREFIX + (n - KAYLES_PREFIX) % 12
        return _prefix("kayles", KAYLES_PREFIX + 12)[n]
    if spec == "dawsons-kayles":  # period 34 from heap 53
        if n >= DAWSON_PREFIX:
            n = DAWSON_PREFIX + (n - DAWSON_PREFIX) % 34
        return _prefix("dawsons-kayles", DAWSON_PREFIX + 34)[n]
    raise KeyError(spec)


def misere_nim_heap(n: int) -> int:
    """Misère nim-value of one Nim heap: 1, 0, then n."""
    return 1 if n == 0 else 0 if n == 1 else n


def xor_all(h: Sequence[int]) -> int:
    out = 0
    for x in h:
        out ^= x
    return out


def is_p(spec: str, h: Sequence[int]) -> bool:
    """Whether ``h`` is a P-position of ``spec`` (several heaps), for any heap sizes."""
    if spec == "nim":
        return xor_all(h) == 0
    if spec == "misere:nim":  # Bouton's misère rule
        return xor_all(h) == 1 if max(h, default=0) <= 1 else xor_all(h) == 0
    if spec.startswith("moore:"):  # Moore: every binary column sums to 0 mod k + 1
        k = int(spec[6:])
        top = max(h, default=0).bit_length()
        return all(sum((x >> b) & 1 for x in h) % (k + 1) == 0 for b in range(top))
    if spec == "staircase":  # steps 1, 3, 5, ... (indexes 0, 2, 4, ...) form a Nim position
        return xor_all(h[::2]) == 0
    if spec in FAMILIES:  # a sum of heaps of one family: Sprague–Grundy
        v = 0
        for x in h:
            v ^= heap_value(spec, x)
        return v == 0
    raise KeyError(spec)


def winning_moves(spec: str, h: Sequence[int]) -> list[tuple[int, ...]] | None:
    """Every move from ``h`` to a P-position, for any heap sizes (None: no theorem here).

    Nim: heap ``i`` to ``h[i] ^ xor(h)`` where that is smaller (Bouton).
    Misère Nim: such a move or one to a heap of 0 or 1 (the only P-positions
    are those of Nim and those whose heaps are all at most 1). Staircase: the
    steps at indexes 0, 2, ... are a Nim position; a move lowers one of them
    (its coins go one step down) or raises one with coins from the step above.
    Subtraction rules (k-Nim): the few moves themselves. Every move listed is
    checked with :func:`is_p` and :func:`legal_multi_move`.
    """
    h = tuple(h)
    targets: set[tuple[int, ...]] = set()
    if spec in ("nim", "misere:nim"):
        s = xor_all(h)
        for i, x in enumerate(h):
            for t in {x ^ s, 0, 1} if spec == "misere:nim" else {x ^ s}:
                targets.add((*h[:i], t, *h[i + 1 :]))
    elif spec == "staircase":
        s = xor_all(h[::2])
        for i in range(0, len(h), 2):
            x, t = h[i], h[i] ^ s
            q = list(h)
            q[i] = t
            if t < x and i > 0:
                q[i - 1] += x - t  # the coins taken go one step down
            elif t > x and i + 1 < len(h):
                q[i + 1] -= t - x  # the coins added come from the step above
            targets.add(tuple(q))
    elif spec.startswith("knim:") or spec == "subtraction:1,3,4":
        targets = set(multi_moves(spec, h))
    else:
        return None
    return sorted(q for q in targets if legal_multi_move(spec, h, q) and is_p(spec, q))


# ---------------------------------------------------------------------------
# brute force for several heaps (to check the theorems above)
# ---------------------------------------------------------------------------


def multi_moves(spec: str, h: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Moves of a multi-heap position, heap ``i`` staying at index ``i``."""
    if spec.startswith("moore:"):
        k = int(spec[6:])
        nonzero = [i for i, x in enumerate(h) if x]
        for size in range(1, k + 1):
            for chosen in itertools.combinations(nonzero, size):
                for lowered in itertools.product(*(range(h[i]) for i in chosen)):
                    q = list(h)
                    for i, v in zip(chosen, lowered, strict=True):
                        q[i] = v
                    yield tuple(q)
        return
    if spec == "staircase":
        for i, x in enumerate(h):
            for c in range(1, x + 1):
                q = list(h)
                q[i] -= c
                if i:
                    q[i - 1] += c
                yield tuple(q)
        return
    base = spec.removeprefix("misere:")
    options = FAMILIES[base]
    for i, x in enumerate(h):
        for parts in options(x):
            yield (*h[:i], parts[0] if parts else 0, *h[i + 1 :])


def legal_multi_move(spec: str, p: Sequence[int], q: Sequence[int]) -> bool:
    """Whether ``p -> q`` is one move of ``spec`` on several heaps (heap ``i`` at index ``i``)."""
    if len(p) != len(q) or min(q, default=0) < 0:
        return False
    changed = [i for i in range(len(p)) if p[i] != q[i]]
    if spec.startswith("moore:"):
        return 1 <= len(changed) <= int(spec[6:]) and all(q[i] < p[i] for i in changed)
    if spec == "staircase":  # coins move from step i down to step i - 1 (or off the stairs)
        if len(changed) == 1:
            return changed == [0] and q[0] < p[0]
        if len(changed) != 2 or changed[1] != changed[0] + 1:
            return False
        i = changed[1]
        c = p[i] - q[i]
        return c > 0 and q[i - 1] - p[i - 1] == c
    return len(changed) == 1 and legal_heap_move(spec, p[changed[0]], q[changed[0]])


def p_positions_box(spec: str, heaps: int, bound: int) -> dict[tuple[int, ...], bool]:
    """P-status of every position with ``heaps`` heaps (staircase: coins) up to ``bound``."""
    misere = spec.startswith("misere:")

    @cache
    def p(pos: tuple[int, ...]) -> bool:
        moves = list(multi_moves(spec, pos))
        if not moves:
            return not misere
        return not any(p(q) for q in moves)

    if spec == "staircase":
        box = [q for q in itertools.product(range(bound + 1), repeat=heaps) if sum(q) <= bound]
    else:
        box = list(itertools.product(range(bound + 1), repeat=heaps))
    return {q: p(q) for q in box}
