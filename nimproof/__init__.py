"""nimproof: machine-checked results about impartial games.

Layout: :mod:`nimproof.games` (families and their registry),
:mod:`nimproof.engines` (Grundy tables: fast kernels and the reference),
:mod:`nimproof.datasets` (parquet tables in ``data/``), :mod:`nimproof.expr`
(the formula language), :mod:`nimproof.claims` (conjecture files),
:mod:`nimproof.provers` (proof methods), :mod:`nimproof.verdict` (the verdict
type), :mod:`nimproof.miner` (pattern guessing), :mod:`nimproof.reports`
(Markdown reports) and :mod:`nimproof.cli` (the command line).
"""

__version__ = "0.1.0"
