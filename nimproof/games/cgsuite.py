"""Take-and-break codes in CGSuite's notation: base-32 digits and the ``!``, ``?``, ``=`` modifiers.

A code ``d0.d1d2...`` lists one digit per number of tokens removed: digit
``dk`` says how many non-empty heaps may remain after removing ``k`` tokens
from one heap. Read as a number, bit ``2**j`` of the digit allows ``j`` heaps:
bit 1 nothing at all (the heap was exactly ``k``), bit 2 one heap, bit 4 two,
bit 8 three, bit 16 four, and so on. CGSuite writes digits with the 32
characters ``0-9`` and ``A-V`` (upper or lower case: up to four remaining
heaps), and a larger mask between ``&`` and ``;`` (``&32;`` allows exactly
five heaps). A digit may carry one modifier, which restricts the heaps left
when there are two or more of them:

* ``!`` - the heaps are pairwise unequal (Grundy's game is ``4!.0``);
* ``?`` - not all the heaps are equal;
* ``=`` - all the heaps are equal.

Octal and hexadecimal codes without modifiers are the same games as the
``octal:`` family (``cgsuite:0.137`` is ``octal:0.137``, and ``4!.0`` is
Grundy's game), and this module returns exactly those games, so their fast
engines and proofs apply. Every other code is a :class:`TakeBreakCode`, whose
moves are enumerated from the code; its single-heap table comes from the
generic engine over those moves, which handles any number of remaining heaps.

Not supported (refused with a message): several digits before the point
(CGSuite's moves that add tokens), periodic digit blocks ``[...]`` and the
``*`` and ``{...}`` digit lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from nimproof.errors import SpecError
from nimproof.games.base import HeapGame, Heaps, MoveSpec, PythonMoves, UnequalSplits
from nimproof.games.octal import MAX_DIGITS, GrundysGame, Octal
from nimproof.games.registry import family

#: CGSuite's digit characters, in order of value.
DIGIT_CHARS = "0123456789abcdefghijklmnopqrstuv"
#: The modifiers and what they require of two or more remaining heaps.
MODIFIERS = {"!": "unequal", "?": "not-all-equal", "=": "all-equal"}
#: Largest number of heaps one digit may leave (a mask below 2**(MAX_PARTS + 1)).
MAX_PARTS = 8


@dataclass(frozen=True, slots=True)
class Digit:
    """One digit of a code: the allowed numbers of remaining heaps, and the modifier."""

    mask: int
    rule: str = ""  # "", "unequal", "not-all-equal" or "all-equal"

    def allows(self, parts: int) -> bool:
        """True when ``parts`` non-empty heaps may remain."""
        return bool(self.mask >> parts & 1)

    @property
    def most(self) -> int:
        """The largest number of heaps this digit may leave (-1 for the zero digit)."""
        return self.mask.bit_length() - 1

    def text(self) -> str:
        """The digit as CGSuite writes it."""
        base = DIGIT_CHARS[self.mask] if self.mask < 32 else f"&{self.mask};"
        mark = {v: k for k, v in MODIFIERS.items()}.get(self.rule, "")
        return base + mark


def parse_cgsuite(code: str) -> tuple[Digit, ...]:
    """The digits of a CGSuite take-and-break code; :class:`SpecError` when malformed.

    Digit 0 (before the point) says what a heap may split into without losing
    a token, so it may not allow zero or one heap (that would not be a move).
    A modifier on a digit that leaves at most one heap changes nothing and is
    dropped; ``?`` on a digit that leaves at most two heaps is ``!``.
    """
    text = code.strip()
    if text.count(".") != 1:
        raise SpecError(f"a take-and-break code needs exactly one point, e.g. '4!.0'; got {code!r}")
    if "[" in text or "*" in text or "{" in text:
        raise SpecError(
            f"take-and-break code {code!r}: periodic blocks [..], '*' and '{{..}}' digit lists "
            "are not supported"
        )
    head, _, tail = text.partition(".")
    before = _digits(head or "0", code)
    if len(before) != 1:
        raise SpecError(
            f"take-and-break code {code!r}: one digit before the point "
            "(CGSuite's token-adding digits are not supported)"
        )
    after = _digits(tail, code)
    if not after or len(after) > MAX_DIGITS:
        raise SpecError(f"take-and-break code {code!r}: 1 to {MAX_DIGITS} digits after the point")
    digits = tuple(_normal(d) for d in before + after)
    if digits[0].mask & 0b11:
        raise SpecError(
            f"take-and-break code {code!r}: the digit before the point may not allow "
            "zero or one heap (removing nothing must split)"
        )
    if not any(d.mask for d in digits):
        raise SpecError(f"take-and-break code {code!r} allows no move")
    return digits


def _digits(text: str, code: str) -> list[Digit]:
    out: list[Digit] = []
    i = 0
    while i < len(text):
        ch = text[i].lower()
        if ch == "&":
            end = text.find(";", i)
            body = text[i + 1 : end] if end > 0 else ""
            if not body.isascii() or not body.isdigit() or len(body) > 4:
                raise SpecError(
                    f"take-and-break code {code!r}: write a large digit as &N; "
                    f"(N below 2^{MAX_PARTS + 1})"
                )
            mask = int(body)
            i = end + 1
        elif ch in DIGIT_CHARS:
            mask = DIGIT_CHARS.index(ch)
            i += 1
        else:
            raise SpecError(
                f"take-and-break code {code!r}: {text[i]!r} is not a digit (0-9, A-V, &N;) "
                "or a modifier after one"
            )
        if mask >= 1 << (MAX_PARTS + 1):
            raise SpecError(
                f"take-and-break code {code!r}: a digit may leave at most {MAX_PARTS} heaps"
            )
        rule = ""
        if i < len(text) and text[i] in MODIFIERS:
            rule = MODIFIERS[text[i]]
            i += 1
        out.append(Digit(mask, rule))
    return out


def _normal(d: Digit) -> Digit:
    if d.most <= 1:
        return Digit(d.mask)
    if d.rule == "not-all-equal" and d.most == 2:
        return Digit(d.mask, "unequal")
    return d


def _fits(parts: tuple[int, ...], rule: str) -> bool:
    if len(parts) < 2 or not rule:
        return True
    distinct = len(set(parts))
    if rule == "unequal":
        return distinct == len(parts)
    if rule == "not-all-equal":
        return distinct > 1
    return distinct == 1


def partitions(total: int, parts: int, least: int = 1) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` ascending numbers, each at least ``least``."""
    if parts == 1:
        if total >= least:
            yield (total,)
        return
    for a in range(least, total // parts + 1):
        for rest in partitions(total - a, parts - 1, a):
            yield (a, *rest)


class TakeBreakCode(HeapGame):
    """A take-and-break game given by a CGSuite code that no octal code describes."""

    splits = True

    def __init__(self, code: str, digits: tuple[Digit, ...]) -> None:
        self.digits = digits
        self.code = code
        self.spec = f"cgsuite:{code}"

    @cached_property
    def moves_spec(self) -> MoveSpec:
        """A two-way code whose every split is ``!`` (unequal heaps) is :class:`UnequalSplits`
        (the sparse-space engine takes it); any other code only has its Python moves (the
        generic engines enumerate :meth:`options`)."""
        masks = [d.mask for d in self.digits]
        two_way = all(m < 8 for m in masks) and self.digits[0].mask in (0, 4)
        splits = [d for d in self.digits if d.mask & 4]
        if two_way and splits and all(d.rule == "unequal" for d in splits):
            return UnequalSplits(tuple(masks))
        return PythonMoves()

    def options(self, n: int) -> Iterator[Heaps]:
        for k, d in enumerate(self.digits):
            if k > n:
                break
            rest = n - k
            if d.allows(0) and k > 0 and rest == 0:
                yield ()
            if d.allows(1) and k > 0 and rest > 0:
                yield (rest,)
            for j in range(2, min(d.most, rest) + 1):
                if d.allows(j):
                    for parts in partitions(rest, j):
                        if _fits(parts, d.rule):
                            yield parts


def canonical_code(digits: tuple[Digit, ...]) -> str:
    """The code as CGSuite prints it (lower-case letters, no trailing zero digits)."""
    last = max(k for k, d in enumerate(digits) if d.mask)
    tail = "".join(d.text() for d in digits[1 : max(last, 1) + 1])
    return f"{digits[0].text()}.{tail}"


def game_of_code(code: str) -> HeapGame:
    """The game of a CGSuite code: an octal game or Grundy's game when the code is one."""
    digits = parse_cgsuite(code)
    plain = all(d.mask < 16 and not d.rule for d in digits)
    if plain:
        last = max(k for k, d in enumerate(digits) if d.mask)
        octal = "".join(DIGIT_CHARS[d.mask] for d in digits[: max(last, 1) + 1])
        return Octal(f"{octal[0]}.{octal[1:]}")
    if [d.mask for d in digits if d.mask] == [4] and digits[0] == Digit(4, "unequal"):
        return GrundysGame()
    return TakeBreakCode(canonical_code(digits), digits)


@family(
    "cgsuite",
    "a row of tokens; a move removes some and may split what is left into several rows, "
    "as a take-and-break code in CGSuite's notation says (digits 0-9, A-V; '!' unequal rows)",
    "cgsuite:4!.0",
    aliases=("tb",),
    needs="a take-and-break code",
)
def _cgsuite(args: str | None) -> HeapGame:
    assert args  # the registry refuses a spec without it (``needs``)
    return game_of_code(args)
