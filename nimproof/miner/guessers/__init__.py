"""The guessers, one module each, registered in :data:`GUESSERS` (the order they run in).

A new guesser is a new module with a :class:`~nimproof.miner.guessers.base.Guesser`
subclass, added to this list. Grid-level guessers (``param_fit``) run after
every point guesser, on what those found.
"""

from nimproof.miner.guessers.base import Grid, Guesser
from nimproof.miner.guessers.fallback import Fallback
from nimproof.miner.guessers.multiheap import MultiHeap
from nimproof.miner.guessers.param_fit import ParamFit
from nimproof.miner.guessers.parity import PopcountParity
from nimproof.miner.guessers.periodic import Periodic
from nimproof.miner.guessers.recurrence import Recurrence
from nimproof.miner.guessers.regular import Regular
from nimproof.miner.guessers.shift import Shift

GUESSERS: tuple[Guesser, ...] = (
    Periodic(),
    Regular(),
    PopcountParity(),
    Recurrence(),
    Shift(),
    MultiHeap(),
    Fallback(),
    ParamFit(),
)


__all__ = ["GUESSERS", "Grid", "Guesser"]
