"""Game families: the model (:mod:`.base`), the registry (:mod:`.registry`) and one
module per kind of family. Use :func:`parse_spec` to get a game from its spec."""

from nimproof.games.base import (
    FamilyInfo,
    Game,
    HeapGame,
    Heaps,
    MultiHeapGame,
    PluginGame,
    Position,
    canonical_heaps,
    mex,
)
from nimproof.games.registry import all_families, lookup, parse_spec

__all__ = [
    "FamilyInfo",
    "Game",
    "HeapGame",
    "Heaps",
    "MultiHeapGame",
    "PluginGame",
    "Position",
    "all_families",
    "canonical_heaps",
    "lookup",
    "mex",
    "parse_spec",
]
