"""Grundy tables: fast numba engines, and the plain reference they are tested against.

* :func:`grundy_table` - Grundy values (or misère nim-values) of single heaps;
* :func:`multi_table` - values or P-positions of every position of a box of heaps;
* :func:`position_value`, :func:`winning_moves`, :func:`value_and_moves` - one position
  at a time (:func:`parse_position` reads one from words, as typed on a command line).

Where a table comes from (stored, reference, engine) is decided by
:mod:`nimproof.tables`, not here.

The kernels live in :mod:`.heap_kernels` and :mod:`.multi_kernels`, the
choice of kernel per family in :mod:`.heap` and :mod:`.multi`; the plain
definitions in :mod:`.reference` never call any of them.

The names below are imported on first use, so that ``import
nimproof.engines.reference`` (or a command that needs no kernel) does not
start numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimproof._lazy import lazy_exports

if TYPE_CHECKING:
    from nimproof.engines.heap import grundy_table, heap_engine, heap_targets_csr, plan_heap
    from nimproof.engines.move import Move
    from nimproof.engines.multi import METHODS, MultiTable, box_table, multi_table
    from nimproof.engines.positions import position_value, winning_moves
    from nimproof.engines.words import is_plain_nim, nim_value, parse_position, value_and_moves

_WHERE = {
    "grundy_table": ".heap",
    "heap_engine": ".heap",
    "heap_targets_csr": ".heap",
    "plan_heap": ".heap",
    "METHODS": ".multi",
    "MultiTable": ".multi",
    "box_table": ".multi",
    "multi_table": ".multi",
    "Move": ".move",
    "is_plain_nim": ".words",
    "nim_value": ".words",
    "parse_position": ".words",
    "value_and_moves": ".words",
    "position_value": ".positions",
    "winning_moves": ".positions",
}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)


__all__ = [
    "METHODS",
    "Move",
    "MultiTable",
    "box_table",
    "grundy_table",
    "heap_engine",
    "heap_targets_csr",
    "is_plain_nim",
    "multi_table",
    "nim_value",
    "parse_position",
    "plan_heap",
    "position_value",
    "value_and_moves",
    "winning_moves",
]
