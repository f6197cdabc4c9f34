"""A progress bar for long tables: heaps done, rate and time left (on stderr, terminals only)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from nimproof.cli.common import err_console


class RateColumn(ProgressColumn):
    """Heaps per second, with a k/M suffix."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text("-/s", style="progress.data.speed")
        for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
            if speed >= scale:
                return Text(f"{speed / scale:.2f}{unit}/s", style="progress.data.speed")
        return Text(f"{speed:.0f}/s", style="progress.data.speed")


@contextlib.contextmanager
def rate_progress(
    description: str, enabled: bool | None = None
) -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` callback drawing a bar with rate and ETA on stderr.

    Drawn only when stderr is a terminal (or ``enabled`` says so); the callback
    is cheap enough to call after every chunk of a kernel.
    """
    show = err_console.is_terminal if enabled is None else enabled
    prog = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not show,
    )
    with prog:
        task = prog.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            prog.update(task, completed=done, total=total)

        yield update
