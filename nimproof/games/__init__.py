"""Game families: the model (:mod:`.base`), the registry (:mod:`.registry`) and one
module per kind of family. Use :func:`parse_spec` to get a game from its spec."""

from nimproof.games import base
from nimproof.games.base import *  # noqa: F403 (the model: the names of base.__all__)
from nimproof.games.registry import all_families, describe_spec, lookup, parse_spec
from nimproof.games.sums import sum_of

__all__ = ["all_families", "describe_spec", "lookup", "parse_spec", "sum_of"]
__all__ += base.__all__
