"""Take-and-break games: octal and hexadecimal codes, and Grundy's game.

Code ``d0.d1d2d3...`` in CGSuite's convention: digit ``dk`` says what removing
``k`` tokens from one heap may leave. Bit 1: nothing (the heap was exactly
``k``); bit 2: one non-empty heap; bit 4: two non-empty heaps; bit 8 (hex
digits only): three non-empty heaps. ``d0`` (before the point) may only use
the splitting bits 4 and 8: split a heap without removing anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

from nimproof.errors import SpecError
from nimproof.games.args import no_args
from nimproof.games.base import HeapGame, Heaps, SplitUnequal, TakeAndBreak
from nimproof.games.registry import family

MAX_DIGITS = 64


class Octal(HeapGame):
    """A take-and-break game given by its code; ``digits[k]`` is the digit for removing ``k``."""

    splits = True

    def __init__(self, code: str, spec: str | None = None) -> None:
        self.code = code
        self.digits = parse_code(code)
        self.spec = spec or f"octal:{code}"
        # A game whose digits never use the splitting bits is a subtraction game.
        self.splits = any(d & 0b1100 for d in self.digits)  # type: ignore[misc]

    @cached_property
    def moves_spec(self) -> TakeAndBreak:
        return TakeAndBreak(self.digits)

    @property
    def last_index(self) -> int:
        """Index ``t`` of the last non-zero digit (the Guy–Smith theorem needs it)."""
        return max(k for k, d in enumerate(self.digits) if d)

    def options(self, n: int) -> Iterator[Heaps]:
        for k, d in enumerate(self.digits):
            if k > n:
                break
            rest = n - k
            if d & 1 and k > 0 and rest == 0:
                yield ()
            if d & 2 and k > 0 and rest > 0:
                yield (rest,)
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    yield (a, rest - a)
            if d & 8:
                for a in range(1, rest // 3 + 1):
                    for b in range(a, (rest - a) // 2 + 1):
                        c = rest - a - b
                        if c >= b:
                            yield (a, b, c)


def parse_code(code: str) -> tuple[int, ...]:
    """Digits of an octal/hex code ``d0.d1d2...``; raises :class:`SpecError` when malformed."""
    text = code.strip().lower()
    if "." not in text:
        raise SpecError(f"an octal code needs a point, e.g. '0.77'; got {code!r}")
    head, _, tail = text.partition(".")
    if head == "":
        head = "0"
    if len(head) != 1 or len(tail) > MAX_DIGITS or not tail:
        raise SpecError(f"malformed octal code {code!r}: one digit before the point, 1..64 after")
    try:
        digits = [int(ch, 16) for ch in head + tail]
    except ValueError:
        raise SpecError(f"malformed octal code {code!r}: digits must be 0-9 or a-f") from None
    if digits[0] & 0b0011:
        raise SpecError(
            f"octal code {code!r}: the digit before the point may only use bits 4 and 8"
        )
    if not any(digits[1:]) and not digits[0]:
        raise SpecError(f"octal code {code!r} allows no move")
    return tuple(digits)


class GrundysGame(HeapGame):
    """Split one heap into two non-empty heaps of different sizes (CGSuite's ``4!.0``)."""

    spec = "grundys-game"
    splits = True

    @cached_property
    def moves_spec(self) -> SplitUnequal:
        return SplitUnequal()

    def options(self, n: int) -> Iterator[Heaps]:
        for a in range(1, (n + 1) // 2):
            yield (a, n - a)


_NAMED = {"kayles": "0.77", "dawsons-kayles": "0.07", "dawsons-chess": "0.137", "officers": "0.6"}
_NAMED_WORDS = {
    "kayles": "a row of pins; a move knocks down one pin or two neighbouring pins",
    "dawsons-kayles": "a row of pins; a move knocks down two neighbouring pins",
    "dawsons-chess": "Dawson's chess: pawns facing each other on a 3 x n board, captures forced",
    "officers": "a row of tokens; a move removes one token and leaves one or two nonempty rows",
}


@family(
    "octal",
    "a row of tokens; a move removes some and may split what is left into two rows, "
    "as the octal code says (CGSuite's convention; hex digits allowed)",
    "octal:0.77",
    aliases=("hex", "take-and-break"),
    needs="a code",
)
def _octal(args: str | None) -> HeapGame:
    assert args  # the registry refuses a spec without it (``needs``)
    code = args.strip()
    if code in ("4!.0", "4!"):
        return GrundysGame()
    return Octal(code)


def _named(name: str, code: str) -> None:
    @family(name, f"{_NAMED_WORDS[name]} (octal:{code})", name)
    def parse(args: str | None) -> Octal:
        no_args(name, args)
        return Octal(code, spec=name)


for _name, _code in _NAMED.items():
    _named(_name, _code)


@family(
    "grundys-game",
    "heaps of tokens; a move splits one heap into two unequal nonempty heaps",
    "grundys-game",
    aliases=("grundy",),
)
def _grundy(args: str | None) -> GrundysGame:
    no_args("grundys-game", args)
    return GrundysGame()
