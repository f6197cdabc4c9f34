"""Reading a family's argument text: the checks every family parser shares.

These sit below :mod:`nimproof.games.registry` and the family modules, so
that a family's parser, called by :func:`~nimproof.games.registry.parse_spec`,
never calls back up into the registry.
"""

from __future__ import annotations

from nimproof.errors import SpecError


class MissingArgs(SpecError):
    """A family that needs arguments got none; :func:`~nimproof.games.registry.parse_spec`
    completes the message with the family's example."""

    def __init__(self, name: str, what: str) -> None:
        super().__init__(f"family {name!r} needs {what}")
        self.name = name
        self.what = what


def no_args(name: str, args: str | None) -> None:
    """Reject arguments for a family that takes none."""
    if args:
        raise SpecError(f"family {name!r} takes no arguments (got {args!r})")


def parse_int(text: str, what: str, *, low: int = 0, high: int = 10**9) -> int:
    """Parse a decimal integer in ``[low, high]`` or raise :class:`SpecError`."""
    t = text.strip()
    if not t.isdigit() or len(t) > 12:
        raise SpecError(f"{what} must be a whole number, got {text!r}")
    value = int(t)
    if not low <= value <= high:
        raise SpecError(f"{what} must be between {low} and {high}, got {value}")
    return value


def parse_number_list(text: str, what: str, *, high: int) -> tuple[int, ...]:
    """Parse ``1,3,4`` or ``1..5`` (or a mix: ``1..3,7``) into integers in ``[1, high]``
    (at most 10,000 of them), in one call."""
    values: list[int] = []
    for raw in text.split(","):
        part = raw.strip()
        if ".." in part:
            lo_s, _, hi_s = part.partition("..")
            lo = parse_int(lo_s, what, low=1, high=high)
            hi = parse_int(hi_s, what, low=1, high=high)
            if hi < lo:
                raise SpecError(f"empty range {part!r} in {what}")
            if hi - lo > 10_000:
                raise SpecError(f"range {part!r} in {what} is too long")
            values.extend(range(lo, hi + 1))
        else:
            values.append(parse_int(part, what, low=1, high=high))
    if len(values) > 10_000:
        raise SpecError(f"{what} has more than 10000 members")
    return tuple(values)
