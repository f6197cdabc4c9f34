"""The pattern miner: guess closed forms from tables and hand every guess to the verifier.

* :mod:`.tables` - where tables come from (fast engines, or the reference);
* :mod:`.guessers` - one module per guesser, registered in ``GUESSERS``;
* :mod:`.pipeline` - tables -> guesses -> re-checked, ranked conjectures;
* :mod:`.writer` - conjecture files (TOML) for the verifier;
* :mod:`.run` - mining, writing and verifying one or several families;
* :mod:`.defaults` - the standard families of ``nimproof mine --defaults``.

A mined conjecture is never reported as true unless the verifier proved it.
"""

from nimproof.miner.defaults import DEFAULT_REQUESTS, default_requests
from nimproof.miner.guessers import GUESSERS, Grid, Guesser
from nimproof.miner.model import Evidence, Guess, HeapTable, PTable
from nimproof.miner.pipeline import FamilyResult, Request, build_grid, mine
from nimproof.miner.run import Mined, RunResult
from nimproof.miner.writer import FULL, QUICK, CheckBounds

__all__ = [
    "DEFAULT_REQUESTS",
    "FULL",
    "GUESSERS",
    "QUICK",
    "CheckBounds",
    "Evidence",
    "FamilyResult",
    "Grid",
    "Guess",
    "Guesser",
    "HeapTable",
    "Mined",
    "PTable",
    "Request",
    "RunResult",
    "build_grid",
    "default_requests",
    "mine",
]
