"""Recursive definitions: a one-heap Grundy formula that reads earlier values as ``g[i]``.

A claim such as ``n // 3 if n % 3 == 0 else g[2 * (n // 3) + n % 3 - 1]``
(take-a-third) defines ``F(n)`` from ``F`` at smaller heaps. It is evaluated
heap by heap from 0; a reference to ``g[i]`` with ``i`` not below ``n`` (or
negative) is undefined, so a definition that does not terminate is never
taken for a function. Only the exhaustive method decides such claims (the
one-step mex over the values computed here, up to a bound); every other
method answers ``unknown``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from nimproof.errors import EvalError
from nimproof.expr import evaluate
from nimproof.expr.nodes import Index, Node, walk_tree

#: The name under which a recursive formula reads earlier values.
NAME = "g"


def is_recursive(node: Node) -> bool:
    """True when ``node`` reads ``g[...]``."""
    return any(isinstance(sub, Index) and sub.seq == NAME for sub in walk_tree(node))


#: Values computed so far per (definition, parameters): a longer table extends a shorter one.
_CACHE: dict[tuple[Node, tuple[tuple[str, int], ...]], tuple[list[int], int | None]] = {}


def recursive_values(
    node: Node, n_max: int, params: Mapping[str, int] | None = None
) -> tuple[np.ndarray, int | None]:
    """``F(0..n_max)`` and the first heap where ``F`` is undefined (None if nowhere).

    From the first undefined heap on, the values are 0 (and meaningless).
    """
    key = (node, tuple(sorted((params or {}).items())))
    values, first_bad = _CACHE.get(key, ([], None))
    if first_bad is None and len(values) <= n_max:
        env: dict[str, object] = dict(params or {})
        env[NAME] = values
        for n in range(len(values), n_max + 1):
            env["n"] = n
            try:
                values.append(int(evaluate(node, env)))
            except EvalError:
                first_bad = n
                break
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = (values, first_bad)
    out = np.zeros(n_max + 1, dtype=np.int64)
    upto = min(len(values), n_max + 1)
    out[:upto] = values[:upto]
    return out, (first_bad if first_bad is not None and first_bad <= n_max else None)


def value_at(node: Node, n: int, params: Mapping[str, int] | None = None) -> int:
    """``F(n)``; raises :class:`EvalError` where the definition is undefined at or below ``n``."""
    values, bad = recursive_values(node, n, params)
    if bad is not None:
        raise EvalError(f"the recursive definition is undefined at n = {bad}")
    return int(values[n])
