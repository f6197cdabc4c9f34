"""nimproof: machine-checked results about impartial games.

The Python API (see :mod:`nimproof.api`; the names load on first use, so
``import nimproof`` is instant)::

    import nimproof
    nimproof.table("kayles", max_n=100)        # pandas DataFrame
    nimproof.value("nim", 3, 4, 5)             # value and winning moves
    nimproof.check("knim:3", grundy="n % 4")   # a Verdict with its scope
    nimproof.period("kayles")                  # preperiod, period, saltus, theorem
    nimproof.mine("knim:{k}", params={"k": range(1, 5)})
    nimproof.verify("conjectures")             # {claim id: Verdict}

and the types :class:`Claim`, :class:`Verdict`, :class:`Scope`,
:class:`Counterexample`, :class:`MethodResult`, :class:`Value`, :class:`Period`.

Layout: :mod:`nimproof.games` (families and their registry),
:mod:`nimproof.engines` (Grundy tables: fast kernels and the reference),
:mod:`nimproof.datasets` (parquet tables in ``data/``), :mod:`nimproof.expr`
(the formula language), :mod:`nimproof.claims` (conjecture files),
:mod:`nimproof.provers` (proof methods), :mod:`nimproof.verdict` (the verdict
type), :mod:`nimproof.miner` (pattern guessing), :mod:`nimproof.reports`
(Markdown and HTML reports), :mod:`nimproof.output` (where output files go)
and :mod:`nimproof.cli` (the command line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimproof._lazy import lazy_exports

__version__ = "0.1.0"

if TYPE_CHECKING:
    from nimproof.api import (
        Period,
        Value,
        check,
        mine,
        misere_check,
        misere_quotient,
        period,
        table,
        value,
        verify,
    )
    from nimproof.claims import Claim
    from nimproof.verdict import Counterexample, MethodResult, Scope, Verdict

_WHERE = {
    **dict.fromkeys(
        (
            "table",
            "value",
            "check",
            "period",
            "mine",
            "verify",
            "misere_quotient",
            "misere_check",
            "Value",
            "Period",
        ),
        ".api",
    ),
    "Claim": ".claims",
    **dict.fromkeys(("Verdict", "Scope", "Counterexample", "MethodResult"), ".verdict"),
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "Claim",
    "Counterexample",
    "MethodResult",
    "Period",
    "Scope",
    "Value",
    "Verdict",
    "__version__",
    "check",
    "mine",
    "misere_check",
    "misere_quotient",
    "period",
    "table",
    "value",
    "verify",
]
