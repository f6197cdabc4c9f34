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
from nimproof.games.args import MissingArgs
from nimproof.games.base import FamilyInfo, Game, GameDescription

Parser = Callable[[str | None], Game]
#: Parser of a family built from other games (``misere:SPEC``, ``sum:A+B``): the games
#: the registry parsed from the component specs.
GamesParser = Callable[[list[Game]], Game]
#: Splits such a family's argument text into its component specs.
Splitter = Callable[[str], list[str]]

MAX_SPEC_LENGTH = 2000


@dataclass(frozen=True, slots=True)
class Family:
    """A registered family: how it is described and how its arguments are parsed."""

    info: FamilyInfo
    parse: Parser
    aliases: tuple[str, ...] = ()
    #: For a family of other games: how its argument text splits into component specs
    #: (the registry parses each, so a family's parser never calls back into the registry).
    split: Splitter | None = None
    of_games: GamesParser | None = None
    #: What the argument text is, when the family needs one (the message when it is missing).
    what: str = ""


FAMILIES: dict[str, Family] = {}
_ALIASES: dict[str, str] = {}


def family(
    name: str,
    summary: str,
    example: str,
    *,
    aliases: tuple[str, ...] = (),
    multi_heap: bool = False,
    needs: str = "",
) -> Callable[[Parser], Parser]:
    """Register ``parse`` as the parser of family ``name`` (a decorator). ``needs``: what its
    argument text is, when it must have one (:func:`parse_spec` then refuses a spec without
    one, and ``parse`` always receives the text)."""

    def register(parse: Parser) -> Parser:
        info = FamilyInfo(name, summary, example, multi_heap)
        _register(Family(info, parse, aliases, what=needs))
        return parse

    return register


def _register(fam: Family) -> None:
    """Enter ``fam`` and its aliases in the registry (refusing a name taken twice)."""
    name = fam.info.name
    if name in FAMILIES or name in _ALIASES:
        raise ValueError(f"family {name!r} registered twice")
    FAMILIES[name] = fam
    for alias in fam.aliases:
        _ALIASES[alias] = name


def of_games(
    name: str,
    summary: str,
    example: str,
    *,
    what: str,
    split: Splitter | None = None,
    aliases: tuple[str, ...] = (),
    multi_heap: bool = False,
) -> Callable[[GamesParser], GamesParser]:
    """Register ``parse`` as the parser of family ``name`` built from other games (a
    decorator): :func:`parse_spec` splits the argument text with ``split`` (None: the whole
    text is one component spec), parses each component spec itself and hands ``parse`` the
    games."""

    def register(parse: GamesParser) -> GamesParser:
        def refuse(args: str | None) -> Game:
            raise SpecError(f"family {name!r} is parsed by the registry")

        info = FamilyInfo(name, summary, example, multi_heap)
        _register(Family(info, refuse, aliases, split, parse, what))
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
    given = args.strip() if sep else None
    try:
        if fam.what and not given:
            raise MissingArgs(fam.info.name, fam.what)
        if fam.of_games is not None:
            parts = [given or ""] if fam.split is None else fam.split(given or "")
            return fam.of_games([parse_spec(part) for part in parts])
        return fam.parse(given)
    except MissingArgs as exc:
        example = FAMILIES[exc.name].info.example
        raise SpecError(f"family {exc.name!r} needs {exc.what}, e.g. {example!r}") from None


def describe_spec(spec: str, heaps: int | None = None) -> GameDescription:
    """The game ``spec`` names, with its :class:`~nimproof.games.base.GameDescription` for
    claims over ``heaps`` heaps (:meth:`~nimproof.games.base.Game.described`), in one call:
    what a claim's methods ask of its game. Raises :class:`SpecError` as :func:`parse_spec`."""
    return parse_spec(spec).described(heaps)


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
