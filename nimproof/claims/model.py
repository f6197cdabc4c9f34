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

from nimproof.methods import ORDER
from nimproof.verdict import ALL_POSITIONS, Domain, Requirement

ClaimKind = Literal[
    "grundy", "p_positions", "identity", "sum_rule", "periodic", "value", "sequence"
]
KINDS: tuple[ClaimKind, ...] = get_args(ClaimKind)
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
    * ``sequence``: ``game``, ``values`` from heap ``offset``.
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
    params: dict[str, int] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    expect: str = "proved"
    require: Requirement | None = None
    source: Source = field(default_factory=Source)
    tags: tuple[str, ...] = ()
    group: str = ""
    path: Path | None = None

    def domain(self) -> Domain:
        """The claim's whole domain: what a proof must cover for the verdict ``proved``.

        The one place that decides it. A ``value`` claim speaks about its listed
        positions, a ``sequence`` claim about the heaps up to its last listed term;
        every other kind (Grundy formulas, P-position rules, identities, sum rules,
        periods) about every position, so a bounded check of it is ``checked``.
        """
        if self.kind == "value":
            return Domain("listed", size=len(self.positions))
        if self.kind == "sequence":
            return Domain("bound", bound=self.offset + len(self.values) - 1)
        return ALL_POSITIONS

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
        if self.kind == "periodic":
            out.update(period=self.period, preperiod=self.preperiod, saltus=self.saltus)
            if self.least:
                out["least"] = True
        if self.kind in ("value", "sequence"):
            out.update(positions=list(self.positions), values=list(self.values), offset=self.offset)
            if self.winning_moves:
                out["winning_moves"] = list(self.winning_moves)
        return out
