"""Grundy tables: fast numba engines, and the plain reference they are tested against.

* :func:`grundy_table` - Grundy values (or misère nim-values) of single heaps;
* :func:`multi_table` - values or P-positions of every position of a box of heaps;
* :func:`position_value`, :func:`winning_moves` - one position at a time.

The kernels live in :mod:`.heap_kernels` and :mod:`.multi_kernels`, the
choice of kernel per family in :mod:`.heap` and :mod:`.multi`; the plain
definitions in :mod:`.reference` never call any of them.
"""

from nimproof.engines.heap import grundy_table, heap_engine, heap_targets_csr, plan_heap
from nimproof.engines.multi import METHODS, MultiTable, box_table, multi_table
from nimproof.engines.positions import Move, heap_values, position_value, winning_moves

__all__ = [
    "METHODS",
    "Move",
    "MultiTable",
    "box_table",
    "grundy_table",
    "heap_engine",
    "heap_targets_csr",
    "heap_values",
    "multi_table",
    "plan_heap",
    "position_value",
    "winning_moves",
]
