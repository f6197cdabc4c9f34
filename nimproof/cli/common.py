"""Shared command-line plumbing: consoles, progress bars, argument types.

Nothing heavy is imported here: the rich consoles are made on first use, so
``nimproof --help`` and ``--version`` start without loading rich.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress


class _LazyConsole:
    """A rich console made on first use (rich costs a tenth of a second to import)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def real(self) -> Console:
        """The rich console itself (for code that checks its type)."""
        if self._console is None:
            from rich.console import Console

            class _Console(Console):
                # rich ends the program with exit code 1 on a closed pipe; nimproof's
                # main turns the error into a quiet exit 0 (``nimproof games | head``).
                def on_broken_pipe(self) -> None:
                    self.quiet = True
                    raise BrokenPipeError

            self._console = _Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console = cast("Console", _LazyConsole(highlight=False))
err_console = cast("Console", _LazyConsole(stderr=True, highlight=False))

#: Largest heap bound any command accepts; larger asks are refused with a clear error.
MAX_N = 10**8

#: The colour of each verdict status (``checked`` is never green: it is not a proof).
STATUS_STYLE = {"proved": "green", "checked": "cyan", "refuted": "red", "unknown": "yellow"}


def real_console(c: Console) -> Console:
    """The rich console behind ``c`` (``c`` itself when it is not lazy)."""
    return c.real if isinstance(c, _LazyConsole) else c


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


def add_command(
    subparsers: Any, name: str, run: Callable[[argparse.Namespace], int], description: str = ""
) -> argparse.ArgumentParser:
    """Add the sub-command ``name``, carried out by ``run``; its one-line help is the one
    ``nimproof --help`` lists (:data:`nimproof.cli.main.COMMANDS`)."""
    from nimproof.cli.main import COMMANDS

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


@contextlib.contextmanager
def progress(enabled: bool = True) -> Iterator[Progress]:
    """A rich progress display on stderr (hidden when ``enabled`` is False or stderr is no terminal)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    prog = Progress(
        # Descriptions are claim ids and specs such as "bouton[heaps=2]": never markup.
        TextColumn("{task.description}", markup=False, style="bold"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=real_console(err_console),
        transient=True,
        disable=not enabled,
    )
    with prog:
        yield prog
