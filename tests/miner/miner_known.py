"""Shared helpers for the miner tests: published sequences and independent checks."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from nimproof.expr import evaluate, parse

KNOWN = Path("/work/shared/reference/known_sequences.json")


@cache
def known_sequence(name_prefix: str) -> dict[str, Any]:
    """The entry of ``known_sequences.json`` whose name starts with ``name_prefix``."""
    data = json.loads(KNOWN.read_text(encoding="utf-8"))
    for entry in data["sequences"]:
        if entry["name"].startswith(name_prefix):
            return dict(entry)
    raise KeyError(name_prefix)


def scalar_values(formula: str, n_max: int, **params: int) -> list[int]:
    """A heap formula evaluated with exact Python integers (not the vectorised path the miner uses)."""
    node = parse(formula, scalars=("n", *params), sequences=("g",))
    values: list[int] = []  # a recursive definition reads the earlier values as g[i]
    for n in range(n_max + 1):
        values.append(int(evaluate(node, {"n": n, "g": tuple(values), **params})))
    return values


def predicate_holds(predicate: str, heaps: tuple[int, ...], **params: int) -> bool:
    """A P-position predicate at one position, evaluated exactly."""
    node = parse(predicate, scalars=tuple(params), sequences=("h",))
    return bool(evaluate(node, {"h": heaps, **params}))


def as_list(values: np.ndarray) -> list[int]:
    return [int(v) for v in values]
