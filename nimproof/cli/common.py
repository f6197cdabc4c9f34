"""Shared command-line plumbing: consoles, progress bars, argument types.

The consoles and progress bars live in :mod:`nimproof.progress` (the library
uses them too) and are re-exported here. Nothing heavy is imported: the rich
consoles are made on first use, so ``nimproof --help`` starts without rich.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from nimproof.progress import console, err_console, progress, progress_callback, real_console

__all__ = [
    "MAX_N",
    "STATUS_STYLE",
    "add_command",
    "add_whole_number",
    "bounded_int",
    "console",
    "err_console",
    "print_json",
    "progress",
    "progress_callback",
    "real_console",
]


#: Largest heap bound any command accepts; larger asks are refused with a clear error.
MAX_N = 10**8

#: The colour of each verdict status (``checked`` is never green: it is not a proof).
STATUS_STYLE = {"proved": "green", "checked": "cyan", "refuted": "red", "unknown": "yellow"}


#: Digits of the largest number a bound may be written with (more is refused unread).
_MAX_DIGITS = 40
_POWER = re.compile(r"(\d{1,4})(\*\*|\^|e)(\d{1,3})")


def whole_number(text: str) -> int | None:
    """``text`` read as a whole number: digits (a leading ``-`` allowed), or a power
    written ``10**15``, ``10^15`` or ``1e15``; None when it is none of these.

    Nothing else is evaluated. A number beyond 40 digits (or a power that large)
    reads as ``10**40``, larger than every bound, so it is answered "too large"
    without being computed."""
    t = text.strip()
    sign = -1 if t.startswith("-") else 1
    body = t[1:] if sign < 0 else t
    if body.isascii() and body.isdigit():
        if len(body.lstrip("0")) > _MAX_DIGITS:
            return sign * 10**_MAX_DIGITS  # stands for "more than any bound"
        return sign * int(body)
    m = _POWER.fullmatch(body)
    if m is None:
        return None
    base, op, exp = int(m[1]), m[2], int(m[3])
    if op == "e":
        return sign * base * 10 ** min(exp, _MAX_DIGITS)
    if base > 1 and exp * len(str(base)) > _MAX_DIGITS + 4:
        return sign * 10**_MAX_DIGITS
    return sign * base**exp


def bounded_int(low: int, high: int, what: str) -> Any:
    """An argparse type: a whole number in ``[low, high]`` (see :func:`whole_number`); the
    error names ``what`` and, for a number out of range, the allowed range."""

    def convert(text: str) -> int:
        v = whole_number(text)
        if v is None:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
        if v < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low:,}, got {text.strip()}")
        if v > high:
            shown = f"{v:,}" if v < 10**_MAX_DIGITS else f"{text.strip()[:20]}..."
            raise argparse.ArgumentTypeError(
                f"{what} is too large: at most {high:,} is allowed, got {shown}"
            )
        return v

    return convert


def add_command(
    subparsers: Any, name: str, run: Callable[[argparse.Namespace], int], description: str = ""
) -> argparse.ArgumentParser:
    """Add the sub-command ``name``, carried out by ``run``; its one-line help is the one
    ``nimproof --help`` lists (:data:`nimproof.cli.main.COMMANDS`)."""
    from nimproof.cli.main import COMMANDS  # lazy: import cycle with nimproof.cli.main

    p: argparse.ArgumentParser = subparsers.add_parser(
        name, help=COMMANDS[name], description=description or None
    )
    p.set_defaults(func=run)
    return p


def add_whole_number(
    parser: Any, flag: str, low: int, high: int, help: str, default: int | None = None
) -> None:
    """Add the option ``flag``: a whole number in ``[low, high]`` (see :func:`bounded_int`)."""
    parser.add_argument(flag, type=bounded_int(low, high, flag), default=default, help=help)


def print_json(obj: Any) -> None:
    """Print one JSON object on stdout (machine-readable output; nothing else is printed)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
