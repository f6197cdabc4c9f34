"""Game families: the model (:mod:`.base`), the registry (:mod:`.registry`) and one
module per kind of family. Use :func:`parse_spec` to get a game from its spec."""

from nimproof.games.base import (
    FamilyInfo,
    FiniteTakes,
    Game,
    HeapGame,
    Heaps,
    IntervalTakes,
    MoveSpec,
    MultiHeapGame,
    OneHeapOfEach,
    PluginGame,
    Position,
    PythonMoves,
    RelationMoves,
    SetTakes,
    SplitUnequal,
    StairToStair,
    TakeAndBreak,
    UpToKHeaps,
    canonical_heaps,
    mex,
)
from nimproof.games.registry import all_families, lookup, parse_spec
from nimproof.games.sums import sum_of

__all__ = [
    "FamilyInfo",
    "FiniteTakes",
    "Game",
    "HeapGame",
    "Heaps",
    "IntervalTakes",
    "MoveSpec",
    "MultiHeapGame",
    "OneHeapOfEach",
    "PluginGame",
    "Position",
    "PythonMoves",
    "RelationMoves",
    "SetTakes",
    "SplitUnequal",
    "StairToStair",
    "TakeAndBreak",
    "UpToKHeaps",
    "all_families",
    "canonical_heaps",
    "lookup",
    "mex",
    "parse_spec",
    "sum_of",
]
