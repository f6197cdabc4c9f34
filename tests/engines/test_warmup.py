"""The install's warm-up compiles what long tables run, so their first ``extend`` compiles nothing.

Run in a fresh process (its dispatchers start empty, whatever other tests compiled): after
the warm-up's long-table part, a table past ``COMPACT_FROM`` heaps (``uint8`` values)
computed past ``RANK_FROM`` (the ranked common prefix) and its period check add no
signature to any kernel. Before the warm-up ran 0.167 in ``uint8``, this run compiled the
one-heap sparse kernel and the functions it calls (about 5 s of CPU in its first call).
"""

from __future__ import annotations

import json
import subprocess
import sys

_SCRIPT = """
import json
from nimproof.engines import block_kernels, sparse_kernels, warmup
from nimproof.engines.sparse import COMPACT_FROM, RANK_FROM, SparseTable, period_check, split_rule
from nimproof.games import parse_spec

def signatures():
    out = {}
    for module in (sparse_kernels, block_kernels):
        for name, f in vars(module).items():
            if hasattr(f, "signatures"):
                out[f"{module.__name__}.{name}"] = sorted(map(str, f.signatures))
    return out

warmup._warm_long_tables()
before = signatures()
game = parse_spec("octal:0.167")
table = SparseTable(split_rule(game), COMPACT_FROM + 2)
assert table.values.dtype.name == "uint8"
table.extend(RANK_FROM + 5000)
period_check(game, table.values, RANK_FROM + 5000)
after = signatures()
print(json.dumps({k: v for k, v in after.items() if before.get(k) != v}))
"""


def test_a_long_table_compiles_nothing_after_the_warm_up() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == {}
