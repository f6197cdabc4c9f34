"""The atlas: a sweep over a family of games, one row per game, run in parallel on Dask.

* :mod:`.families` - which games a sweep covers (three-digit octal codes, the
  ``4.`` codes, subtraction sets inside {1..8}, or a given list);
* :mod:`.analyse` - one game: its table, period and proof, figures; never raises;
* :mod:`.sweep` - the parallel, resumable sweep (a Dask ``LocalCluster`` by
  default, or an existing scheduler), writing ``atlas.parquet``;
* :mod:`.render` - the static HTML page and the Markdown summary.
"""

from nimproof.atlas.analyse import COLUMNS, analyse
from nimproof.atlas.families import FAMILIES, family_specs
from nimproof.atlas.sweep import SweepResult, run_sweep

__all__ = ["COLUMNS", "FAMILIES", "SweepResult", "analyse", "family_specs", "run_sweep"]
