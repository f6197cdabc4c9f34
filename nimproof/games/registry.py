"""The one registry of game families and the spec-string parser.

A spec string names a family and its arguments, ``family[:arguments]``, and
means the same thing in the command line, in Python and in conjecture files::

    nim  subtraction:1,3,4  knim:3  half-heap  take-fraction:2/3  octal:0.77
    kayles  rule:(n+1)//2 <= m < n  misere:nim  moore:2  staircase
    sum:knim:3+half-heap+kayles  plugin:chocolate

A family module registers itself with :func:`family`; :func:`parse_spec` looks
the name up (aliases included) and hands the argument text to the family's
parser. Unknown names and malformed arguments raise :class:`SpecError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nimproof.errors import SpecError
from nimproof.games.base import FamilyInfo, Game

Parser = Callable[[str | None], Game]

MAX_SPEC_LENGTH = 2000


@dataclass(frozen=True, slots=True)
class Family:
    """A registered family: how it is described and how its arguments are parsed."""

    info: FamilyInfo
    parse: Parser
    aliases: tuple[str, ...] = ()


FAMILIES: dict[str, Family] = {}
_ALIASES: dict[str, str] = {}


def family(
    name: str,
    summary: str,
    example: str,
    *,
    aliases: tuple[str, ...] = (),
    multi_heap: bool = False,
) -> Callable[[Parser], Parser]:
    """Register ``parse`` as the parser of family ``name`` (a decorator)."""

    def register(parse: Parser) -> Parser:
        if name in FAMILIES or name in _ALIASES:
            raise ValueError(f"family {name!r} registered twice")
        FAMILIES[name] = Family(FamilyInfo(name, summary, example, multi_heap), parse, aliases)
        for alias in aliases:
            _ALIASES[alias] = name
        return parse

    return register


def lookup(name: str) -> Family:
    """The family registered under ``name`` or one of its aliases."""
    _load_families()
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FAMILIES:
        import difflib

        known = ", ".join(sorted(FAMILIES))
        near = difflib.get_close_matches(key, [*FAMILIES, *_ALIASES], n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise SpecError(f"unknown game family {name!r}{hint} (known: {known})")
    return FAMILIES[key]


def parse_spec(spec: str) -> Game:
    """Turn a spec string into a game, or raise :class:`SpecError` with a one-line reason."""
    if not isinstance(spec, str):
        raise SpecError(f"a game spec must be a string, not {type(spec).__name__}")
    text = spec.strip()
    if not text:
        raise SpecError("empty game spec")
    if len(text) > MAX_SPEC_LENGTH:
        raise SpecError(f"game spec longer than {MAX_SPEC_LENGTH} characters")
    name, sep, args = text.partition(":")
    fam = lookup(name)
    return fam.parse(args.strip() if sep else None)


def all_families() -> list[Family]:
    """Every registered family, in registration order."""
    _load_families()
    return list(FAMILIES.values())


def _load_families() -> None:
    # The family modules register themselves on import; importing them here
    # (not at module import time) keeps this module free of import cycles.
    # lazy: import cycle with nimproof.games
    from nimproof.games import (  # noqa: F401
        cgsuite,
        coin_turning,
        declared,
        euclid,
        fibonacci_nim,
        heap,
        lasker,
        misere,
        multi,
        northcott,
        octal,
        plugins,
        rule,
        sums,
        welter,
        wythoff,
    )


def no_args(name: str, args: str | None) -> None:
    """Reject arguments for a family that takes none."""
    if args:
        raise SpecError(f"family {name!r} takes no arguments (got {args!r})")


def need_args(name: str, args: str | None, what: str) -> str:
    """Return the argument text of a family that requires one, or raise."""
    if not args:
        raise SpecError(f"family {name!r} needs {what}, e.g. {FAMILIES[name].info.example!r}")
    return args


def parse_int(text: str, what: str, *, low: int = 0, high: int = 10**9) -> int:
    """Parse a decimal integer in ``[low, high]`` or raise :class:`SpecError`."""
    t = text.strip()
    if not t.isdigit() or len(t) > 12:
        raise SpecError(f"{what} must be a whole number, got {text!r}")
    value = int(t)
    if not low <= value <= high:
        raise SpecError(f"{what} must be between {low} and {high}, got {value}")
    return value
