"""The one claim format.

A conjecture file (TOML, see the README's "Conjecture files") holds one or
more ``[[claim]]`` tables. Each table may name a grid of parameters; loading
expands it into one :class:`Claim` per grid point, each with its own id
(``knim-mod[k=3]``), each decided separately.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from nimproof.claims.kinds import NAMES, ClaimKindSpec, kind_named
from nimproof.methods import ORDER
from nimproof.verdict import Domain, Requirement

ClaimKind = Literal[
    "grundy",
    "p_positions",
    "identity",
    "sum_rule",
    "periodic",
    "value",
    "sequence",
    "misere_quotient",
]
KINDS: tuple[ClaimKind, ...] = get_args(ClaimKind)
assert KINDS == NAMES, "ClaimKind must list the kinds of nimproof.claims.kinds, in order"
#: Method names a claim may use under ``[claim.checks]``: the registered proof methods.
METHODS: tuple[str, ...] = ORDER


@dataclass(frozen=True, slots=True)
class Source:
    """Where a claim comes from: a seed text, its section, its own words."""

    seed: str = ""
    section: str = ""
    wording: str = ""
    note: str = ""

    def to_json(self) -> dict[str, str]:
        """Every field, by name."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Claim:
    """One decidable statement about a game family (one grid point of a file's claim).

    Fields used by each kind:

    * ``grundy``: ``game``, ``formula`` (in ``n`` for a heap game, in ``h``
      for ``heaps`` heaps), optional ``witness``;
    * ``p_positions``: ``game``, ``heaps``, ``formula`` (a predicate in ``h``),
      optional ``witness``;
    * ``identity``: ``variables`` and ``formula`` (a predicate in them);
    * ``sum_rule``: ``components`` (heap-game specs);
    * ``periodic``: ``game``, ``period``, ``preperiod``, ``saltus`` (``g(n + period) =
      g(n) + saltus`` for all ``n >= preperiod``); ``least`` also asks that both are the least;
    * ``value``: ``game``, ``positions`` and ``values`` (and optionally
      ``winning_moves``: for each position, the positions a winning move leads to);
    * ``sequence``: ``game``, ``values`` from heap ``offset``;
    * ``misere_quotient``: ``game``, ``order``, optional ``p_portion`` (its size),
      ``period`` and ``preperiod`` (of the heap map).

    What each kind means (fields, domain, checks, wording) is its class in
    :mod:`nimproof.claims.kinds`: :attr:`kind_spec`.
    """

    id: str
    kind: ClaimKind
    statement: str
    game: str | None = None
    formula: str | None = None
    heaps: int | None = None
    variables: tuple[str, ...] = ()
    witness: str | None = None
    components: tuple[str, ...] = ()
    period: int | None = None
    preperiod: int | None = None
    saltus: int = 0
    least: bool = False
    positions: tuple[Any, ...] = ()
    values: tuple[Any, ...] = ()
    winning_moves: tuple[Any, ...] = ()
    offset: int = 0
    order: int | None = None
    p_portion: int | None = None
    params: dict[str, int] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    expect: str = "proved"
    require: Requirement | None = None
    source: Source = field(default_factory=Source)
    tags: tuple[str, ...] = ()
    group: str = ""
    path: Path | None = None

    @property
    def kind_spec(self) -> ClaimKindSpec:
        """The claim's kind: its fields, domain, default checks and wording."""
        return kind_named(self.kind, f"claim {self.id!r}")

    def domain(self) -> Domain:
        """The claim's whole domain: what a proof must cover for the verdict ``proved``.

        Decided by the kind (:meth:`ClaimKindSpec.domain`): a ``value`` claim speaks
        about its listed positions, a ``sequence`` claim about the heaps up to its
        last listed term; every other kind about every position, so a bounded check
        of it is ``checked``.
        """
        return self.kind_spec.domain(self)

    def to_json(self) -> dict[str, Any]:
        """The claim as it is written in results and reports (no file-system paths)."""
        out: dict[str, Any] = {
            "id": self.id,
            "group": self.group or self.id,
            "kind": self.kind,
            "statement": self.statement,
            "game": self.game,
            "formula": self.formula,
            "heaps": self.heaps,
            "params": dict(self.params),
            "expect": self.expect,
            "require": self.require.to_json() if self.require else None,
            "source": self.source.to_json(),
            "tags": list(self.tags),
            "file": self.path.as_posix() if self.path else None,
        }
        for key in ("variables", "components"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        if self.witness:
            out["witness"] = self.witness
        fields = self.kind_spec.allowed_keys
        if "period" in fields:
            out.update(period=self.period, preperiod=self.preperiod)
        if "saltus" in fields:
            out["saltus"] = self.saltus
            if self.least:
                out["least"] = True
        if "order" in fields:
            out.update(order=self.order, p_portion=self.p_portion)
        if self.kind_spec.listed:
            out.update(positions=list(self.positions), values=list(self.values), offset=self.offset)
            if self.winning_moves:
                out["winning_moves"] = list(self.winning_moves)
        return out
