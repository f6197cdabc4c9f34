"""The first engine table of a process: no dataset library is loaded when none is read or written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_RUN = """
import sys
from nimproof.cli.main import main
assert main(["table", "kayles", "--max-n", "70000", "--json"]) == 0
print(sorted(m for m in ("pandas", "pyarrow") if m in sys.modules))
"""


def test_an_engine_table_without_a_data_file_loads_neither_pandas_nor_pyarrow(
    tmp_path: Path,
) -> None:
    # 70,000 heaps of Kayles are past the reference implementation's budget: the numba
    # engine computes them. With no stored table of Kayles and no --save, the stored-table
    # code (pandas, pyarrow: a tenth to half a second to import) has nothing to do.
    env = {**os.environ, "NIMPROOF_DATA": str(tmp_path / "data")}
    out = subprocess.run(
        [sys.executable, "-c", _RUN], capture_output=True, text=True, env=env, check=True
    )
    assert '"engine": "sparse-space"' in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]"
