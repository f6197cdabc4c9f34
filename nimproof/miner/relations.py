"""Index relations ``g(a m + r) = alpha g(c m + d) + beta m + e``, shared by the guessers.

The regular guesser uses the case ``c = 1, d = 0`` (``g(2n+1) = g(n)``); the
recurrence guesser any ``c m + d`` below ``a m + r``. A relation is true for
every ``m >= start``. :func:`linear_text` writes ``c x + d`` the way a person
would (``x``, ``2 * x``, ``x + 1``, ``1 - x``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from nimproof.expr import parse
from nimproof.provers.recursion import recursive_values


def _atomic(text: str) -> bool:
    """True when ``text`` needs no parentheses as an operand.

    A name, a number, or one bracketed group ``(...)``, ``f(...)``, ``g[...]``.
    """
    if text.isidentifier() or text.isdigit():
        return True
    start = min((i for i in (text.find("("), text.find("[")) if i >= 0), default=-1)
    if start < 0 or not (start == 0 or text[:start].isidentifier()):
        return False
    depth = 0
    for i, ch in enumerate(text[start:], start):
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        if depth == 0:
            return i == len(text) - 1
    return False


def linear_text(c: int, x: str, d: int = 0) -> str:
    """``c * x + d`` as a formula: ``x``, ``2 * x``, ``x + 1``, ``1 - x``, ``-x``, ``3``.

    ``x`` is wrapped in parentheses where precedence needs it.
    """
    if c == 0:
        return str(d)
    operand = x if _atomic(x) else f"({x})"
    if c == -1 and d > 0:
        return f"{d} - {operand}"
    head = x if c == 1 else f"-{operand}" if c == -1 else f"{c} * {operand}"
    if d == 0:
        return head
    return f"{head} + {d}" if d > 0 else f"{head} - {-d}"


@dataclass(frozen=True, slots=True)
class IndexRelation:
    """``g(a m + r) = alpha g(c m + d) + beta m + e`` for every ``m >= start``."""

    a: int
    r: int
    alpha: int
    c: int
    d: int
    beta: int
    e: int
    start: int = 0

    @property
    def cost(self) -> int:
        """Simplicity order: fewer and smaller coefficients first."""
        return abs(self.alpha) + abs(self.beta) + abs(self.e) + abs(self.d) + (self.c != 1)

    def describe(self, var: str = "m") -> str:
        """``g(3m+1) = g(2m)`` in the usual notation (``var`` names the index variable)."""

        def short(c: int, d: int) -> str:
            return linear_text(c, var, d).replace(f" * {var}", var).replace(" ", "")

        terms: list[str] = []
        if self.alpha:
            ref = f"g({short(self.c, self.d)})"
            terms.append(
                ref if self.alpha == 1 else "-" + ref if self.alpha == -1 else f"{self.alpha}{ref}"
            )
        if self.beta:
            terms.append(short(self.beta, 0))
        if self.e or not terms:
            terms.append(str(self.e))
        right = " + ".join(terms).replace("+ -", "- ")
        when = f" for {var} >= {self.start}" if self.start else ""
        return f"g({short(self.a, self.r)}) = {right}{when}"

    @property
    def first(self) -> int:
        """The first heap the relation speaks about."""
        return self.a * self.start + self.r

    def expression(self) -> str:
        """The right side as a formula in ``n`` (``m`` is ``n // a``)."""
        m = f"(n // {self.a})"
        parts: list[str] = []
        if self.alpha:
            ref = f"g[{linear_text(self.c, m, self.d)}]"
            parts.append(linear_text(self.alpha, ref))
        if self.beta:
            parts.append(linear_text(self.beta, m))
        if self.e or not parts:
            parts.append(str(self.e))
        return " + ".join(parts).replace("+ -", "- ")


class Piece(Protocol):
    """One residue's rule of a recursive definition: ``g(n)`` for ``n % a == r``, ``n >= first``."""

    @property
    def a(self) -> int: ...

    @property
    def r(self) -> int: ...

    @property
    def first(self) -> int: ...

    def expression(self) -> str:
        """The rule as a formula in ``n`` that may read ``g[i]`` for ``i < n``."""
        ...


def recursive_formula(pieces: Sequence[Piece], values: np.ndarray) -> str | None:
    """One rule per residue as one formula in ``n`` and ``g``, with the initial values that differ.

    The rules are chained by ``n % a == r``; heaps below the first heap some
    rule speaks about, where the chain gives another value than the table,
    are written out as exceptions (``0 if n == 2 else ...``). None when that
    does not reproduce ``values`` up to there.
    """
    a = pieces[0].a
    # A rule several residues share goes last, as the ``else`` of the chain.
    texts = [piece.expression() for piece in pieces]
    common = max(reversed(texts), key=texts.count)
    body = common
    for piece, text in reversed(list(zip(pieces, texts, strict=True))):
        if text != common:
            body = f"{text} if n % {a} == {piece.r} else {_operand(body)}"
    first = max(piece.first for piece in pieces)
    exceptions: list[int] = []
    for _ in range(first + 2):
        text = _with_exceptions(body, exceptions, values)
        node = parse(text, scalars=("n",), sequences=("g",), result="int")
        got, bad = recursive_values(node, first)
        wrong = next(
            (n for n in range(first + 1) if n == bad or int(got[n]) != int(values[n])), None
        )
        if wrong is None:
            return text
        exceptions.append(wrong)
    return None


def initial_words(formula: str) -> str:
    """`` (with the initial values written out)`` when ``formula`` lists some, else empty."""
    return " (with the initial values written out)" if " if n == " in f" {formula}" else ""


def _with_exceptions(body: str, exceptions: list[int], values: np.ndarray) -> str:
    text = body
    for n in sorted(exceptions, reverse=True):
        text = f"{int(values[n])} if n == {n} else {_operand(text)}"
    return text


def _operand(text: str) -> str:
    return text if _atomic(text) else f"({text})"
