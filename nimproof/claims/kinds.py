"""The claim kinds: one frozen class per kind, held in one registry.

A conjecture file names a claim's kind with a tag (``kind = "grundy"``);
everything the project decides from that tag is declared here, once, by the
kind's class:

* its **fields**: which keys a claim table of this kind must have
  (``required``), may have (``optional``); every other key is refused at load
  with a one-line error (:meth:`ClaimKindSpec.check_keys`);
* its **domain**: what a proof must cover for the verdict ``proved``
  (:meth:`ClaimKindSpec.domain`);
* its **checks**, the one check-selection policy: the methods a claim gets
  when its file names none (:meth:`ClaimKindSpec.checks`;
  :func:`nimproof.provers.checks_for` adds the all-positions methods whose
  ``applies`` says yes), and the bounded checks code chooses for a claim of a
  given :class:`Shape` within a :class:`Budget` (:meth:`ClaimKindSpec.bounded_checks`:
  ``nimproof check`` and the miner);
* its **report wording**: the title reports and the command line show, and
  the words that introduce its formula;
* what the provers need to know of its shape: whether it is about a game,
  whether its formula is a value (``int``), a predicate on positions or an
  identity over free variables, whether it lists worked examples.

Code outside :mod:`nimproof.claims` asks the kind object
(``claim.kind_spec``, ``ctx.spec``, :func:`spec_of`) instead of comparing
tag strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from nimproof.errors import ClaimError
from nimproof.verdict import ALL_POSITIONS, Domain

if TYPE_CHECKING:
    from nimproof.claims.model import Claim

#: Keys every claim table may have, whatever its kind.
COMMON_KEYS: frozenset[str] = frozenset(
    {"id", "statement", "kind", "game", "expect", "params", "source", "checks", "tags", "heaps",
     "require"}
)  # fmt: skip

#: What a kind's formula states: a value of each position (``value``), which
#: positions are P-positions (``predicate``), or a fact about free variables
#: (``identity``); ``None`` for a kind without a formula.
FormulaRole = Literal["value", "predicate", "identity"]


@dataclass(frozen=True, slots=True)
class Shape:
    """What a caller knows about a claim's form when it chooses bounded checks for it.

    ``one_heap``: a formula in ``n`` (else in ``h``, over several heaps);
    ``symbolic``: the game's moves have a symbolic description (the z3 methods
    read it); ``bitwise``: the formula uses bitwise operators; ``recursive``: it
    reads earlier values (``g[...]``); ``witness``: the claim names a winning-move
    witness; ``plugin``: a plugin game (sizes, not heaps); ``lowers_heaps``: no
    move raises a heap (else a box of heaps is not closed under moves);
    ``grid``: the claim has parameters.
    """

    one_heap: bool = True
    symbolic: bool = True
    bitwise: bool = False
    recursive: bool = False
    witness: bool = False
    plugin: bool = False
    lowers_heaps: bool = True
    grid: bool = False


@dataclass(frozen=True, slots=True)
class Budget:
    """How far the bounded checks may go, as a caller can afford (``None``: the method's
    default). ``width`` is a z3 bit width asked for explicitly; ``default_width`` the one
    used when the formula's form needs bit-vectors. ``timeout`` goes to the z3 methods.
    ``periodic_table`` and ``hunt`` ask for those methods. ``multi_bitvec`` says which
    multi-heap claims get z3 over bit-vectors without an explicit width: those that name
    a winning-move witness (``"witness"``) or every one of a built-in family
    (``"built-in"``: the verifier adds the family's witness, :func:`nimproof.provers.auto_witness`)."""

    max_n: int | None = None
    max_heap: int | None = None
    max_size: int | None = None
    max_total: int | None = None
    max_value: int | None = None
    recursion_n: int | None = None
    width: int | None = None
    default_width: int = 16
    timeout: float | None = None
    periodic_table: bool = False
    hunt: bool = False
    multi_bitvec: Literal["witness", "built-in"] = "witness"


def _bound(**limits: int | float | None) -> dict[str, Any]:
    """The options that are set (a ``None`` limit is left to the method's default)."""
    return {k: v for k, v in limits.items() if v is not None}


@dataclass(frozen=True)
class ClaimKindSpec:
    """One claim kind (subclasses set the class attributes; one instance each in :data:`REGISTRY`)."""

    #: The tag written in claim files (``kind = "..."``).
    name: ClassVar[str]
    #: What a claim of this kind states, in a few words (reports, ``--help``).
    title: ClassVar[str]
    #: The words that introduce the claim's formula on a page (``g =``).
    phrase: ClassVar[str] = "Formula:"
    #: Keys a claim table of this kind must have (besides ``id``, ``kind``, ``statement``).
    required: ClassVar[tuple[str, ...]] = ()
    #: Keys it may have besides :data:`COMMON_KEYS` and :attr:`required`.
    optional: ClassVar[tuple[str, ...]] = ()
    #: True when the claim is about one game (``game`` must be a non-empty spec).
    needs_game: ClassVar[bool] = True
    #: What its formula states (``None``: no formula).
    formula_role: ClassVar[FormulaRole | None] = None
    #: Worked examples: ``"positions"`` (listed positions and their values) or
    #: ``"sequence"`` (a listed run of one-heap values); ``None`` for a general statement.
    listed: ClassVar[Literal["positions", "sequence"] | None] = None
    #: True when the claim states that the value of a sum of ``components`` is the xor of theirs.
    states_sum: ClassVar[bool] = False
    #: True when the claim states a period (and saltus) of a one-heap Grundy sequence.
    states_period: ClassVar[bool] = False
    #: True when the claim states the order of a misère quotient.
    states_quotient: ClassVar[bool] = False
    #: The checks a claim of this kind gets when its file names none (method -> options).
    default_checks: ClassVar[Mapping[str, Mapping[str, Any]]] = MappingProxyType({})

    # -- fields --------------------------------------------------------------------------

    @property
    def allowed_keys(self) -> frozenset[str]:
        """Every key a claim table of this kind may have (``checks_<profile>`` tables aside)."""
        return COMMON_KEYS | frozenset(self.required) | frozenset(self.optional)

    def check_keys(self, table: Mapping[str, Any], where: str) -> None:
        """Refuse a key this kind forbids or a missing required one, in one line."""
        allowed = self.allowed_keys
        extra = {k for k in table if k not in allowed and not k.startswith("checks_")}
        if extra:
            raise ClaimError(
                f"{where}: unknown key(s) {sorted(extra)} for a {self.name} claim "
                f"(it takes {', '.join(sorted(set(self.required) | set(self.optional)))})"
            )
        for key in self.required:
            if key not in table:
                raise ClaimError(f"{where}: a {self.name} claim needs {key!r}")

    # -- meaning -------------------------------------------------------------------------

    def domain(self, claim: Claim) -> Domain:
        """The claim's whole domain: what a proof must cover for the verdict ``proved``.

        Every position unless the kind says otherwise, so a bounded check is ``checked``.
        """
        return ALL_POSITIONS

    @property
    def states_values(self) -> bool:
        """True when the formula gives each position's Grundy value (result type ``int``)."""
        return self.formula_role == "value"

    @property
    def states_p_positions(self) -> bool:
        """True when the formula is a predicate saying which positions are P-positions."""
        return self.formula_role == "predicate"

    @property
    def is_identity(self) -> bool:
        """True when the formula is a predicate over free variables (no game)."""
        return self.formula_role == "identity"

    @property
    def lists_positions(self) -> bool:
        """True for listed positions with their values (domain: those positions)."""
        return self.listed == "positions"

    @property
    def lists_sequence(self) -> bool:
        """True for a listed run of one-heap values (domain: heaps up to its last term)."""
        return self.listed == "sequence"

    @property
    def about_positions(self) -> bool:
        """True when the formula is about the positions of a game (a value or a P-rule)."""
        return self.formula_role in ("value", "predicate")

    # -- checks --------------------------------------------------------------------------

    def checks(self, named: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
        """The checks of a claim whose file names ``named`` (the kind's defaults when none)."""
        out = {m: dict(o) for m, o in (named or self.default_checks).items()}
        if self.listed:
            out.setdefault("reference", {})  # worked examples are always computed
        return out

    def bounded_checks(self, shape: Shape, budget: Budget) -> dict[str, dict[str, Any]]:
        """The checks (and their bounds) a caller names for a claim of this ``shape``.

        The one check-selection policy for claims whose checks are chosen in code
        (``nimproof check``, mined claims); the kind's defaults unless it overrides this.
        """
        return {m: dict(o) for m, o in self.default_checks.items()}

    def to_json(self) -> dict[str, Any]:
        """What the kind declares, by name (the claim-format reference is generated from it)."""
        return {
            "kind": self.name,
            "title": self.title,
            "required": list(self.required),
            "optional": list(self.optional),
            "needs_game": self.needs_game,
            "formula": self.formula_role,
            "default_checks": {m: dict(o) for m, o in self.default_checks.items()},
        }


def _checks(**methods: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({m: MappingProxyType(dict(o)) for m, o in methods.items()})


def _position_checks(shape: Shape, budget: Budget) -> dict[str, dict[str, Any]]:
    """Bounded checks of a Grundy formula or a P-position rule (see :class:`Shape`).

    The exhaustive method always (to ``max_n``, or ``max_size``/``max_heap``/``max_total``
    for several heaps); a recursive formula gets nothing else (only the exhaustive method
    decides it). One heap: the periodic-table reduction when asked (not for a grid), and
    for symbolic moves z3 over the integers for an arithmetic formula and over
    bit-vectors for a bitwise one (or when a width is asked). Several heaps: z3 over
    bit-vectors when a width is asked, else as ``multi_bitvec`` says. The hunt last,
    when asked.
    """
    if shape.recursive:
        return {"exhaustive": _bound(max_n=budget.recursion_n or budget.max_n)}
    z3 = _bound(timeout=budget.timeout)
    width = budget.width or budget.default_width
    checks: dict[str, dict[str, Any]]
    if shape.one_heap:
        checks = {"exhaustive": _bound(max_n=budget.max_n)}
        if budget.periodic_table and not shape.grid:
            checks["periodic_table"] = {}
        if shape.symbolic and not shape.bitwise:
            checks["z3_int"] = dict(z3)
        if shape.symbolic and (shape.bitwise or budget.width):
            checks["z3_bitvec"] = {"width": width, **z3}
    else:
        if shape.plugin:
            box = _bound(max_size=budget.max_size)
        elif not shape.lowers_heaps and budget.max_total is not None:
            box = _bound(max_total=budget.max_total)
        else:
            box = _bound(max_heap=budget.max_heap)
        checks = {"exhaustive": box}
        wanted = shape.witness if budget.multi_bitvec == "witness" else not shape.plugin
        if budget.width or wanted:
            checks["z3_bitvec"] = {"width": width, **z3}
    if budget.hunt:
        checks["hunt"] = {}  # last: the rest of the time goes to looking for a counterexample
    return checks


@dataclass(frozen=True)
class _AboutPositions(ClaimKindSpec):
    """A formula about the positions of a game: an optional witness, the exhaustive check
    by default, bounded checks by :func:`_position_checks`."""

    optional = ("witness",)
    default_checks = _checks(exhaustive={})

    def bounded_checks(self, shape: Shape, budget: Budget) -> dict[str, dict[str, Any]]:
        """See :func:`_position_checks`."""
        return _position_checks(shape, budget)


@dataclass(frozen=True)
class Grundy(_AboutPositions):
    """``g = formula`` in ``n`` (one heap) or in ``h`` (``heaps`` heaps); optional ``witness``."""

    name = "grundy"
    title = "Grundy function"
    phrase = "g ="
    required = ("game", "formula")
    formula_role = "value"


@dataclass(frozen=True)
class PPositions(_AboutPositions):
    """The P-positions of ``heaps`` heaps are those where ``predicate`` (in ``h``) holds."""

    name = "p_positions"
    title = "set of P-positions"
    phrase = "P-positions:"
    required = ("game", "predicate")
    formula_role = "predicate"


@dataclass(frozen=True)
class Identity(ClaimKindSpec):
    """``predicate`` holds for all non-negative values of ``variables`` (no game)."""

    name = "identity"
    title = "identity"
    phrase = "For all values:"
    required = ("predicate", "variables")
    needs_game = False
    formula_role = "identity"
    default_checks = _checks(exhaustive={}, z3_bitvec={"width": 16})

    def bounded_checks(self, shape: Shape, budget: Budget) -> dict[str, dict[str, Any]]:
        """z3 over the integers, and every value up to ``max_value``."""
        return {"z3_int": {}, "exhaustive": _bound(max_value=budget.max_value)}


@dataclass(frozen=True)
class SumRule(ClaimKindSpec):
    """The value of a sum of the heap games ``components`` is the xor of theirs."""

    name = "sum_rule"
    title = "value of a sum (Sprague–Grundy)"
    required = ("components",)
    needs_game = False
    states_sum = True
    default_checks = _checks(exhaustive={})


@dataclass(frozen=True)
class Periodic(ClaimKindSpec):
    """``g(n + period) = g(n) + saltus`` for all ``n >= preperiod``; ``least`` asks both least."""

    name = "periodic"
    title = "periodicity"
    required = ("game", "period", "preperiod")
    optional = ("saltus", "least")
    states_period = True
    default_checks = _checks(periodicity={})

    def bounded_checks(self, shape: Shape, budget: Budget) -> dict[str, dict[str, Any]]:
        """The periodicity theorem, from a table of ``max_n`` values."""
        return {"periodicity": _bound(max_n=budget.max_n)}


@dataclass(frozen=True)
class Value(ClaimKindSpec):
    """The values of listed ``positions`` (and optionally their ``winning_moves``)."""

    name = "value"
    title = "values of listed positions"
    required = ("game", "positions", "values")
    optional = ("winning_moves",)
    listed = "positions"
    default_checks = _checks(reference={})

    def domain(self, claim: Claim) -> Domain:
        """The listed positions."""
        return Domain("listed", size=len(claim.positions))


@dataclass(frozen=True)
class ValueSequence(ClaimKindSpec):
    """The values of one heap from ``offset`` on are ``values``."""

    name = "sequence"
    title = "listed sequence of values"
    required = ("game", "values")
    optional = ("offset",)
    listed = "sequence"
    default_checks = _checks(reference={})

    def domain(self, claim: Claim) -> Domain:
        """The heaps up to the last listed term."""
        return Domain("bound", bound=claim.offset + len(claim.values) - 1)


@dataclass(frozen=True)
class MisereQuotientOrder(ClaimKindSpec):
    """The misère quotient of a take-and-break code has ``order`` elements (issue 20).

    Optionally its P-portion has ``p_portion`` elements and its heap map has
    period ``period`` from heap ``preperiod``. About every heap size: proved when
    the periodicity theorem for quotients carries the quotient to every heap.
    """

    name = "misere_quotient"
    title = "order of a misère quotient"
    phrase = "Quotient:"
    required = ("game", "order")
    optional = ("p_portion", "period", "preperiod")
    states_quotient = True
    default_checks = _checks(misere_quotient={})


#: Every claim kind, in the order reports list them.
REGISTRY: Mapping[str, ClaimKindSpec] = MappingProxyType(
    {
        k.name: k
        for k in (
            Grundy(),
            PPositions(),
            Identity(),
            SumRule(),
            Periodic(),
            Value(),
            ValueSequence(),
            MisereQuotientOrder(),
        )
    }
)
#: The kind tags, in registry order.
NAMES: tuple[str, ...] = tuple(REGISTRY)


@dataclass(frozen=True)
class Unknown(ClaimKindSpec):
    """What readers of old or foreign results files get for a tag no kind has (never loaded)."""

    name = "unknown"
    title = "claim"


UNKNOWN = Unknown()


def spec_of(name: object) -> ClaimKindSpec:
    """The kind named ``name`` (a tag from a results file), or :data:`UNKNOWN` (every
    property false) for a tag no kind has: for readers of results, never for loading."""
    return REGISTRY.get(name, UNKNOWN) if isinstance(name, str) else UNKNOWN


def kind_named(name: str, where: str = "claim") -> ClaimKindSpec:
    """The kind named ``name``; a one-line :class:`ClaimError` for an unknown one."""
    spec = REGISTRY.get(name)
    if spec is None:
        raise ClaimError(f"{where}: unknown kind {name!r} (kinds: {', '.join(NAMES)})")
    return spec


def with_role(role: FormulaRole) -> tuple[str, ...]:
    """The tags of the kinds whose formula has ``role`` (for messages and docs)."""
    return tuple(n for n, k in REGISTRY.items() if k.formula_role == role)


def titles(names: Iterable[str]) -> list[str]:
    """The report titles of ``names`` (unknown tags as given)."""
    return [REGISTRY[n].title if n in REGISTRY else n for n in names]
