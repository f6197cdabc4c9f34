"""Shared command-line plumbing: consoles, progress bars, argument types."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from nimproof.errors import UsageError

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

#: Largest heap bound any command accepts; larger asks are refused with a clear error.
MAX_N = 10**8


def bounded_int(low: int, high: int, what: str) -> Any:
    """An argparse type: a whole number in ``[low, high]``; the error names ``what``."""

    def convert(text: str) -> int:
        t = text.strip()
        if not t.lstrip("-").isdigit() or len(t) > 15:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
        v = int(t)
        if v < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low}, got {v}")
        if v > high:
            raise argparse.ArgumentTypeError(
                f"{what} must be at most {high}, got {v} (absurd bound)"
            )
        return v

    return convert


def print_json(obj: Any) -> None:
    """Print one JSON object on stdout (machine-readable output; nothing else is printed)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


@contextlib.contextmanager
def progress(enabled: bool = True) -> Iterator[Progress]:
    """A rich progress display on stderr (hidden when ``enabled`` is False or stderr is no terminal)."""
    prog = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=not enabled,
    )
    with prog:
        yield prog


def require(condition: bool, message: str) -> None:
    """Raise a :class:`UsageError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise UsageError(message)
