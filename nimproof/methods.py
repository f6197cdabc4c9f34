"""The one registry of proof methods.

Every proof method is registered here once, in order of strength: the
strongest scope a method can reach first (``all`` positions, then heaps
below ``2**width``, then an explicit ``bound``, then nothing). From this one
list derive

* the method names a conjecture file may use under ``[claim.checks]``
  (:data:`nimproof.claims.model.METHODS`),
* the order in which :func:`nimproof.provers.verify_claim` runs a claim's
  checks (:data:`ORDER`),
* the method choices of the command line,
* the conformance test (``tests/provers/test_soundness.py``), which feeds
  every registered method the shared suite of false claims and fails if any
  of them is proved.

A method lives in its own module under :mod:`nimproof.provers` and provides
``run(ctx, options) -> MethodResult`` and ``Options``, a ``TypedDict`` of the
options it reads from ``[claim.checks]``. Adding a method is that module
plus one :class:`ProofMethod` entry below. Entries name their module instead
of importing it, so reading the registry (the claim schema, ``--help``)
never loads z3 or numba.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from nimproof.verdict import MethodResult, ScopeKind

if TYPE_CHECKING:
    from nimproof.provers.context import ClaimContext

RunFunction = Callable[["ClaimContext", Mapping[str, Any]], MethodResult]


@dataclass(frozen=True, slots=True)
class ProofMethod:
    """One registered proof method.

    ``reaches`` is the strongest scope kind a ``proved`` from this method can
    have (``"none"`` for a method that only ever refutes); ``module`` is the
    dotted name of the module that implements it.
    """

    name: str
    module: str
    reaches: ScopeKind
    summary: str
    #: Runs after every other method whatever its scope (the hunt spends what time is left).
    runs_last: bool = False
    #: Decides claims about loopy games (a play may go on forever); the others are not run on them.
    loopy: bool = False
    #: Tried by default on every claim whose kind states a formula (P-positions, Grundy values,
    #: identities), whatever its checks name: the pipeline reads this instead of asking the
    #: module, so the method's module is entered once, to run.
    on_formulas: bool = False

    def load(self) -> ModuleType:
        """The implementing module (imported on first use)."""
        return importlib.import_module(self.module)

    @property
    def run(self) -> RunFunction:
        """``run(ctx, options) -> MethodResult``: decide one prepared claim."""
        fn: RunFunction = self.load().run
        return fn

    @property
    def options(self) -> type:
        """The ``TypedDict`` of the options this method reads from ``[claim.checks]``."""
        cls: type = self.load().Options
        return cls


#: Every proof method, strongest scope first; then those that run last (``runs_last``).
REGISTRY: tuple[ProofMethod, ...] = (
    ProofMethod(
        "reference",
        "nimproof.provers.reference",
        "all",
        "worked examples: each listed position or value computed by the reference implementation",
    ),
    ProofMethod(
        "automata",
        "nimproof.provers.automata",
        "all",
        "MONA (WS1S): claims and moves as automata over the binary digits, for every heap size",
        on_formulas=True,
    ),
    ProofMethod(
        "periodicity",
        "nimproof.provers.periodicity",
        "all",
        "periodicity theorem for take-and-break games: a finite check proves a period for all n",
    ),
    ProofMethod(
        "periodic_table",
        "nimproof.provers.periodic_table",
        "all",
        "periodic-table reduction: one-heap claims and sums of periodic families through a proved "
        "period, and Sprague–Grundy composition",
    ),
    ProofMethod(
        "misere_quotient",
        "nimproof.provers.misere_quotient",
        "all",
        "misère quotient: P-positions of sums of heaps of an octal code, through its quotient "
        "proved for every heap (periodicity theorem for quotients)",
    ),
    ProofMethod(
        "loopy",
        "nimproof.provers.loopy",
        "all",
        "loopy games (Northcott): exact win/loss/draw outcomes on small boards, and MONA "
        "obligations for a winning strategy and a ranking it lowers, for every position",
        loopy=True,
    ),
    ProofMethod(
        "z3_int",
        "nimproof.provers.z3_int",
        "all",
        "z3 over unbounded integers: arithmetic claims for all non-negative values",
    ),
    ProofMethod(
        "z3_bitvec",
        "nimproof.provers.z3_bitvec",
        "width",
        "z3 over bit-vectors: the local conditions for every position with heaps below 2^w",
    ),
    ProofMethod(
        "exhaustive",
        "nimproof.provers.exhaustive",
        "bound",
        "every position up to a bound, against one-step mex, the engine and the reference",
    ),
    ProofMethod(
        "hypothesis",
        "nimproof.provers.hypothesis",
        "none",
        "random search with shrinking: refutes, never proves",
    ),
    ProofMethod(
        "hunt",
        "nimproof.provers.hunt",
        "width",
        "the rest of the claim's time: engine tables, exhaustive boxes, z3 widths to 256 bits "
        "and structured far positions, grown until the deadline; states the region covered",
        runs_last=True,
    ),
)

#: The registered names, strongest first: the order in which a claim's checks run.
ORDER: tuple[str, ...] = tuple(m.name for m in REGISTRY)

_BY_NAME = {m.name: m for m in REGISTRY}


@dataclass(frozen=True, slots=True)
class LoadedMethod:
    """A registered method with its module imported: what the pipeline reads of it."""

    method: ProofMethod
    run: RunFunction
    #: ``applies(ctx)``: the module's own test of whether it decides a claim (None: no test).
    applies: Callable[[ClaimContext], bool] | None


def load_all(names: Iterable[str] | None = None) -> dict[str, LoadedMethod]:
    """The registered methods called ``names`` (every one when None) by name, strongest
    first, each module imported. The pipeline asks the registry this once per claim, for
    the methods the claim may run, and reads the answer as data
    (:func:`nimproof.provers.verify_claim`); a module it does not need is not imported
    (the hypothesis library alone costs a worker about 0.1 s)."""
    wanted = None if names is None else set(names)
    out = {}
    for m in REGISTRY:
        if wanted is None or m.name in wanted:
            module = m.load()
            out[m.name] = LoadedMethod(m, module.run, getattr(module, "applies", None))
    return out


def get(name: str) -> ProofMethod:
    """The registered method called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown proof method {name!r} (methods: {', '.join(ORDER)})") from None


__all__ = ["ORDER", "REGISTRY", "LoadedMethod", "ProofMethod", "RunFunction", "get", "load_all"]
