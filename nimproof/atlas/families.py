"""The families an atlas sweeps, as lists of spec strings."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from nimproof.errors import UsageError
from nimproof.games import parse_spec


def octal_codes(head: str, digits: int = 3) -> list[str]:
    """Every code ``head.d1..dk`` with ``1 <= k <= digits`` and a non-zero last digit.

    (A trailing zero digit allows no move, so ``0.160`` is the game ``0.16``.)
    For ``head = "4"`` the code ``4.0`` (split without removing only) comes first.
    """
    out = ["octal:4.0"] if head == "4" else []
    for k in range(1, digits + 1):
        for ds in itertools.product(range(8), repeat=k):
            if ds[-1] != 0:
                out.append(f"octal:{head}." + "".join(map(str, ds)))
    return out


def subtraction_sets(top: int = 8) -> list[str]:
    """Every non-empty subtraction set inside ``{1..top}``, smallest sets first."""
    out = []
    for size in range(1, top + 1):
        for subset in itertools.combinations(range(1, top + 1), size):
            out.append("subtraction:" + ",".join(map(str, subset)))
    return out


#: Family name -> (what it is, the specs it sweeps).
FAMILIES: dict[str, tuple[str, Callable[[], list[str]]]] = {
    "octal": ("every octal code 0.d, 0.dd, 0.ddd (511 games)", lambda: octal_codes("0")),
    "octal4": ("every code 4., 4.d, 4.dd, 4.ddd (512 games)", lambda: octal_codes("4")),
    "octal-4digit": (
        "every octal code 0.d to 0.dddd, four digits after the point (4,095 games)",
        lambda: octal_codes("0", 4),
    ),
    "subtraction": ("every subtraction set inside {1..8} (255 games)", subtraction_sets),
}


def family_specs(family: str | None, codes: str | None) -> list[str]:
    """The specs of a sweep: ``--codes`` (comma or whitespace separated) or a family name.

    Bare octal codes (``0.16``) are read as ``octal:0.16``. Every spec is
    parsed, so a malformed one is a one-line :class:`UsageError` before any work.
    """
    if codes:
        raw = [c for c in codes.replace(";", " ").replace("\n", " ").split(" ") if c]
        specs = []
        for item in raw:
            for part in _split_codes(item):
                spec = f"octal:{part}" if part[:1].isdigit() and "." in part else part
                specs.append(parse_spec(spec).spec)
        if not specs:
            raise UsageError("--codes names no game")
        return list(dict.fromkeys(specs))
    name = family or "octal"
    if name not in FAMILIES:
        raise UsageError(f"unknown atlas family {name!r}; choose one of {', '.join(FAMILIES)}")
    return FAMILIES[name][1]()


def _split_codes(item: str) -> list[str]:
    # "0.16,0.56" is two codes; "subtraction:1,3,4" is one spec with commas of its own.
    if ":" in item:
        return [item]
    return [p for p in item.split(",") if p]
