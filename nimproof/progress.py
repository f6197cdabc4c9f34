"""The consoles and progress bars of the library, re-used by the command line.

Nothing heavy is imported here: the rich consoles are made on first use, so
``nimproof --help`` and ``import nimproof`` start without loading rich.

Output that is not a terminal (a pipe, a file) is never wrapped: a claim id
or a spec longer than 80 columns stays on one line, so that ``grep`` and
scripts see whole lines.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress


#: The width given to a console that writes to a pipe or a file (no terminal to fit).
PIPE_WIDTH = 10_000


class _LazyConsole:
    """A rich console made on first use (rich costs a tenth of a second to import)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def real(self) -> Console:
        """The rich console itself (for code that checks its type)."""
        if self._console is None:
            from rich.console import Console  # lazy: start-up time (rich)

            class _Console(Console):
                # rich ends the program with exit code 1 on a closed pipe; nimproof's
                # main turns the error into a quiet exit 0 (``nimproof games | head``).
                def on_broken_pipe(self) -> None:
                    self.quiet = True
                    raise BrokenPipeError

            made = _Console(**self._options)
            if not made.is_terminal:
                # A pipe or a file: whole lines, never wrapped or folded at rich's default 80
                # columns (tables take their natural width), unless COLUMNS says otherwise.
                made.soft_wrap = True
                if "COLUMNS" not in os.environ:
                    made.width = PIPE_WIDTH
            self._console = made
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console = cast("Console", _LazyConsole(highlight=False))
err_console = cast("Console", _LazyConsole(stderr=True, highlight=False))


def real_console(c: Console) -> Console:
    """The rich console behind ``c`` (``c`` itself when it is not lazy)."""
    return c.real if isinstance(c, _LazyConsole) else c


@contextlib.contextmanager
def progress(enabled: bool = True) -> Iterator[Progress]:
    """A rich progress display on stderr (hidden when ``enabled`` is False or stderr is no terminal)."""
    from rich.progress import (  # lazy: start-up time (rich)
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


@contextlib.contextmanager
def progress_callback(description: str) -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` callback drawing a rich bar on stderr (when it is a terminal)."""
    with progress(enabled=err_console.is_terminal) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
