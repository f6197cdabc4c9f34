"""Bottom-up enumeration of small formulas that match a target vector.

Formulas are built by size (number of nodes) from leaves (variables, small
constants) with unary built-ins and binary operators. Two formulas with the
same values on the sample points are the same for the search
(*observational equivalence*), so only the first (smallest, in a fixed
order) is kept; that keeps each size level small. All the values of a level
are computed at once with numpy broadcasting.

The search is exact over the sample: a returned formula reproduces the
target at every sample point, and is undefined nowhere (no division by
zero, no bitwise operation on a negative number, no overflow).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

_LIMIT = 1 << 40

ARITH = ("+", "-", "*", "//", "%")
BITWISE = ("&", "|", "^", ">>", "<<")
UNARY_BITWISE = ("popcount", "trailing_ones", "trailing_zeros", "bit_length")
_COMMUTATIVE = frozenset({"+", "*", "&", "|", "^"})


@dataclass(frozen=True, slots=True)
class _Level:
    texts: list[str]
    atomic: list[bool]
    values: np.ndarray  # (count, points) int64
    calls: list[bool]  # the formula is a unary built-in applied to something


def _wrap(text: str, atomic: bool) -> str:
    return text if atomic else f"({text})"


def _unary(name: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.all(x >= 0, axis=-1)
    y = np.where(x < 0, 0, x).astype(np.uint64)
    if name == "popcount":
        out = np.bitwise_count(y).astype(np.int64)
    elif name == "trailing_ones":
        z = y + np.uint64(1)
        out = np.bitwise_count((z & (~z + np.uint64(1))) - np.uint64(1)).astype(np.int64)
    elif name == "trailing_zeros":
        low = y & (~y + np.uint64(1))
        out = np.where(y == 0, 0, np.bitwise_count(low - np.uint64(1)).astype(np.int64))
    elif name == "bit_length":
        out = np.zeros(y.shape, dtype=np.int64)
        for i in range(41):
            out = np.where((y >> np.uint64(i)) > 0, i + 1, out)
    else:  # pragma: no cover - the operator lists are fixed above
        raise ValueError(name)
    return out.astype(np.int64), ok


def _binary(op: str, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values of ``a op b`` (broadcast) and which rows are defined everywhere."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if op == "+":
            out = a + b
        elif op == "-":
            out = a - b
        elif op == "*":
            out = a * b
        elif op in ("//", "%"):
            zero = b == 0
            safe = np.where(zero, 1, b)
            out = a // safe if op == "//" else a % safe
            ok = ~np.any(np.broadcast_to(zero, out.shape), axis=-1)
            return out, ok & np.all(np.abs(out) < _LIMIT, axis=-1)
        else:
            neg = (a < 0) | (b < 0)
            aa, bb = np.where(a < 0, 0, a), np.where(b < 0, 0, b)
            if op == "&":
                out = aa & bb
            elif op == "|":
                out = aa | bb
            elif op == "^":
                out = aa ^ bb
            elif op == ">>":
                out = np.where(bb >= 62, 0, aa >> np.minimum(bb, 62))
            else:  # "<<"
                big = bb > 40
                out = aa << np.minimum(bb, 40)
                neg = neg | big
            ok = ~np.any(np.broadcast_to(neg, out.shape), axis=-1)
            return out, ok & np.all(np.abs(out) < _LIMIT, axis=-1)
    return out, np.all(np.abs(out) < _LIMIT, axis=-1)


def find_formula(
    variables: Mapping[str, np.ndarray],
    target: np.ndarray,
    *,
    constants: Sequence[int] = (0, 1, 2, 3),
    binary: Sequence[str] = ARITH + BITWISE,
    unary: Sequence[str] = (),
    max_size: int = 5,
    max_level: int = 60_000,
) -> str | None:
    """The smallest formula over ``variables`` whose values equal ``target``, or None.

    ``variables`` maps names to int64 vectors of the same length as
    ``target``. Sizes count nodes (a leaf is 1, ``f(x)`` is 1 + size of ``x``,
    ``a op b`` is 1 + both sizes). Within a size the order of ``variables``,
    ``constants``, ``unary`` and ``binary`` decides, so the answer is
    deterministic. ``max_level`` caps the number of distinct value vectors
    kept per size (the search stops growing beyond it).
    """
    target = np.asarray(target, dtype=np.int64)
    search = _Search(target, len(variables), max_level)
    leaf_t = list(variables) + [str(c) for c in constants]
    leaf_v = [np.asarray(v, dtype=np.int64) for v in variables.values()]
    leaf_v += [np.full(len(target), c, dtype=np.int64) for c in constants]
    search.levels[1] = search.add(
        leaf_t, [True] * len(leaf_t), np.stack(leaf_v), [False] * len(leaf_t)
    )
    found = search.hit(search.levels[1])
    if found is not None:
        return found
    for size in range(2, max_size + 1):
        cand = _Candidates()
        search.extend_unary(cand, size, unary)
        search.extend_binary(cand, size, binary)
        if not cand.texts:
            continue
        search.levels[size] = search.add(
            cand.texts, cand.atomic, np.concatenate(cand.chunks), cand.calls
        )
        found = search.hit(search.levels[size])
        if found is not None:
            return found
    return None


@dataclass
class _Candidates:
    """Formulas of one size before duplicates are removed: text, atomicity, values, call-ness."""

    texts: list[str] = field(default_factory=list)
    atomic: list[bool] = field(default_factory=list)
    calls: list[bool] = field(default_factory=list)
    chunks: list[np.ndarray] = field(default_factory=list)


class _Search:
    """The levels of a bottom-up search by size, keeping one formula per value vector."""

    def __init__(self, target: np.ndarray, n_vars: int, max_level: int) -> None:
        self.target, self.n_vars, self.max_level = target, n_vars, max_level
        self.seen: set[bytes] = set()
        self.levels: dict[int, _Level] = {}

    def add(
        self, texts: list[str], atomic: list[bool], values: np.ndarray, calls: list[bool]
    ) -> _Level:
        """A level of the formulas whose value vectors were not seen before (at most max_level)."""
        keep_t: list[str] = []
        keep_a: list[bool] = []
        keep_c: list[bool] = []
        rows: list[np.ndarray] = []
        for text, at, row, call in zip(texts, atomic, values, calls, strict=True):
            key = row.tobytes()
            if key in self.seen or len(rows) >= self.max_level:
                continue
            self.seen.add(key)
            keep_t.append(text)
            keep_a.append(at)
            keep_c.append(call)
            rows.append(row)
        arr = np.stack(rows) if rows else np.zeros((0, len(self.target)), dtype=np.int64)
        return _Level(keep_t, keep_a, arr, keep_c)

    def hit(self, level: _Level) -> str | None:
        """The first formula of ``level`` whose values equal the target."""
        if not len(level.texts):
            return None
        match = np.nonzero(np.all(level.values == self.target, axis=1))[0]
        return level.texts[int(match[0])] if len(match) else None

    def extend_unary(self, cand: _Candidates, size: int, unary: Sequence[str]) -> None:
        """Add ``f(x)`` for each unary built-in ``f`` and each ``x`` of size ``size - 1``."""
        inner = self.levels.get(size - 1)
        if inner is None or not len(inner.texts):
            return
        # Unary built-ins of constants are constants, and built-ins of built-ins
        # (popcount(popcount(n))) fit small tables by accident: neither is searched.
        usable = np.asarray([not c for c in inner.calls], dtype=bool)
        if size == 2:
            usable[self.n_vars :] = False
        rows = inner.values[usable]
        src = [t for t, u in zip(inner.texts, usable, strict=True) if u]
        for name in unary:
            out, ok = _unary(name, rows)
            cand.texts += [f"{name}({t})" for t, good in zip(src, ok, strict=True) if good]
            cand.atomic += [True] * int(ok.sum())
            cand.calls += [True] * int(ok.sum())
            cand.chunks.append(out[ok])

    def extend_binary(self, cand: _Candidates, size: int, binary: Sequence[str]) -> None:
        """Add ``a op b`` for every split of ``size - 1`` nodes between ``a`` and ``b``."""
        n_vars = self.n_vars
        for left_size in range(1, size - 1):
            right_size = size - 1 - left_size
            a, b = self.levels.get(left_size), self.levels.get(right_size)
            if a is None or b is None or not len(a.texts) or not len(b.texts):
                continue
            for op in binary:
                if op in _COMMUTATIVE and left_size > right_size:
                    continue
                out, ok = _binary(op, a.values[:, None, :], b.values[None, :, :])
                if left_size == 1 and right_size == 1:
                    # constant op constant is a constant: not worth a node.
                    const = np.zeros(ok.shape, dtype=bool)
                    const[n_vars:, n_vars:] = True
                    ok = ok & ~const
                ii, jj = np.nonzero(ok)
                cand.texts += [
                    f"{_wrap(a.texts[i], a.atomic[i])} {op} {_wrap(b.texts[j], b.atomic[j])}"
                    for i, j in zip(ii.tolist(), jj.tolist(), strict=True)
                ]
                cand.atomic += [False] * len(ii)
                cand.calls += [False] * len(ii)
                cand.chunks.append(out[ii, jj])
