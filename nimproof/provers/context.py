"""Everything a proof method needs about one claim, parsed and validated once.

:func:`prepare` turns a :class:`~nimproof.claims.Claim` into a
:class:`ClaimContext`: the game object, the parsed formula (with the right
free variables for the claim's kind), the parsed witness, the parameter
values. A claim that cannot be prepared (unknown game, malformed formula,
missing heap count) is unusable input: :class:`ClaimError`, exit code 2.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from nimproof.claims.kinds import ClaimKindSpec
from nimproof.claims.model import Claim, ClaimKind
from nimproof.errors import ClaimError, ExprError, UsageError
from nimproof.expr import parse
from nimproof.expr.evaluate import constant_values
from nimproof.expr.nodes import Node, Type, constant_subtrees
from nimproof.expr.parser import Request, parse_each
from nimproof.games import (
    Game,
    GameDescription,
    HeapGame,
    MultiHeapGame,
    PluginGame,
    describe_spec,
    parse_spec,
    sum_of,
)

#: Built-in winning-move witnesses (see :mod:`nimproof.provers.witnesses`).
BUILTIN_WITNESSES = ("nim", "misere-nim", "moore", "staircase")


@dataclass(frozen=True, slots=True)
class ClaimContext:
    """A prepared claim, built once by :func:`prepare` and never changed.

    ``formula`` is None for kinds without one. A method that needs a variant
    (another heap count, another deadline) makes one with
    :func:`dataclasses.replace`.
    """

    claim: Claim
    game: Game | None
    formula: Node | None
    params: dict[str, int]
    witness_name: str | None = None
    witness: Node | None = None
    components: tuple[HeapGame, ...] = ()
    deadline: float = field(default=0.0)
    #: True for a one-heap Grundy formula that reads earlier values as ``g[i]``.
    recursive: bool = False
    #: What the re-checks computed once for this claim (:mod:`nimproof.provers.recheck`: the
    #: formula's exact value at a position, a sum's components), keyed by what it depends on.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    #: What the methods ask of the game, answered once when the claim is prepared
    #: (:class:`~nimproof.games.GameDescription`; None without a game, or for a sum rule).
    description: GameDescription | None = field(default=None, compare=False, repr=False)
    #: The game's heap relation texts (:attr:`GameDescription.relations`), parsed in ``n`` and
    #: ``m`` when the claim was prepared (a text that does not parse is left out).
    relations: Mapping[str, Node] = field(default_factory=dict, compare=False, repr=False)
    #: The formula's constant subtrees (``2**50 + 1``), evaluated once when the claim was
    #: prepared, by id (:func:`nimproof.expr.evaluate.constant_values`): what the compilers fold.
    constants: Mapping[int, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def heaps(self) -> int | None:
        return self.claim.heaps

    @property
    def kind(self) -> ClaimKind:
        """The claim's kind tag (as written in its file)."""
        return self.claim.kind

    @property
    def spec(self) -> ClaimKindSpec:
        """The claim's kind (:mod:`nimproof.claims.kinds`): ask it rather than compare tags."""
        return self.claim.kind_spec

    @property
    def misere(self) -> bool:
        return bool(self.game is not None and self.game.misere)

    @property
    def heap_game(self) -> HeapGame | None:
        """The one-heap rule behind the claim's game (itself, or the base of a misère game)."""
        normal = self.game.normal if self.game is not None else None
        return normal if isinstance(normal, HeapGame) else None

    @property
    def staircase(self) -> bool:
        """True for staircase Nim (normal or misère): moves raise a pile, so bounds are on the total."""
        return self.game is not None and not self.game.moves_spec.lowers_heaps

    @property
    def heap_count(self) -> int | None:
        """The number of heaps of a multi-heap claim (a sum's component count when not given)."""
        if self.heaps is not None:
            return self.heaps
        if self.description is not None:
            return self.description.fixed_heaps
        return self.game.moves_spec.heap_count() if self.game is not None else None

    @property
    def one_heap(self) -> bool:
        """True for a claim about single heaps of a heap game (variable ``n``)."""
        return self.spec.states_values and self.heaps is None and self.heap_game is not None

    def describe(self, position: Any) -> str:
        """How a position of this claim is written in explanations."""
        if self.one_heap:
            return f"heap {position}"
        if self.spec.is_identity:
            return ", ".join(f"{k} = {v}" for k, v in position.items())
        return "heaps (" + ", ".join(map(str, position)) + ")"

    def contradicts(self, claimed: Any, actual: int) -> bool:
        """True when the claim's value (or P-verdict) ``claimed`` contradicts the true value
        ``actual``."""
        if self.spec.states_p_positions:
            return bool(claimed) != (actual == 0)
        return bool(claimed != actual)

    def time_left(self) -> float:
        """Seconds until this claim's deadline (infinite when none was set)."""
        return float("inf") if not self.deadline else self.deadline - time.monotonic()

    def option(self, method: str, key: str, default: Any) -> Any:
        """An option of a check from the claim file, or ``default``."""
        return self.claim.checks.get(method, {}).get(key, default)


def prepare(claim: Claim, *, deadline: float = 0.0) -> ClaimContext:
    """Parse and validate ``claim``; raises :class:`ClaimError` naming the claim.

    ``deadline`` is a :func:`time.monotonic` time after which methods should
    stop (0: none).
    """
    try:
        return replace(_prepare(claim), deadline=deadline)
    except ClaimError:
        raise
    except UsageError as exc:
        raise ClaimError(f"claim {claim.id!r}: {exc}") from None


def _prepare(claim: Claim) -> ClaimContext:
    params = dict(claim.params)
    kind = claim.kind_spec
    if kind.needs_game and not (claim.game or "").strip():
        raise ClaimError(f"claim {claim.id!r}: the game spec is empty; give one, e.g. 'nim'")
    if kind.formula_role is not None and not (claim.formula or "").strip():
        raise ClaimError(f"claim {claim.id!r}: the formula is empty")
    # the game and what every method will ask of it, in one call
    description = describe_spec(claim.game, claim.heaps) if claim.game else None
    game: Game | None = description.game if description is not None else None
    ctx = ClaimContext(claim, game, None, params, description=description)
    if kind.about_positions:
        assert game is not None
        return _prepare_formula_on_game(ctx, game)
    if kind.is_identity:
        return _prepare_identity(ctx)
    if kind.states_sum:
        return _prepare_sum_rule(ctx)
    if kind.states_period and not isinstance(game, HeapGame):
        raise ClaimError(f"claim {claim.id!r}: a {kind.name} claim needs a one-heap game")
    if kind.states_quotient and not isinstance(ctx.heap_game, HeapGame):
        raise ClaimError(f"claim {claim.id!r}: a {kind.name} claim needs a one-heap game")
    if kind.listed:
        _check_listed_values(claim)
    return ctx


def _is_multi(claim: Claim, game: Game) -> bool:
    """True when the claim's formula is in ``h`` (several heaps) rather than ``n``."""
    if claim.heaps is not None or isinstance(game, (MultiHeapGame, PluginGame)):
        return True
    return game.misere and not isinstance(game.normal, HeapGame)


def _prepare_formula_on_game(ctx: ClaimContext, game: Game) -> ClaimContext:
    claim = ctx.claim
    multi = _is_multi(claim, game)
    if (
        claim.kind_spec.states_p_positions
        and claim.heaps is None
        and not isinstance(game, PluginGame)
    ):
        raise ClaimError(f"claim {claim.id!r}: a {claim.kind} claim needs 'heaps'")
    assert ctx.description is not None
    fixed = ctx.description.fixed_heaps
    if isinstance(game, MultiHeapGame) and fixed is not None:
        if claim.heaps not in (None, fixed):
            raise ClaimError(f"claim {claim.id!r}: {game.spec} has {fixed} heaps")
    elif isinstance(game, MultiHeapGame) and claim.heaps is None:
        raise ClaimError(f"claim {claim.id!r}: {game.spec} is a multi-heap game; give 'heaps'")
    assert claim.formula is not None
    result: Type = "int" if claim.kind_spec.states_values else "bool"
    if multi:
        asked: Request = (claim.formula, tuple(ctx.params), ("h",), result)
    elif result == "int" and "g[" in claim.formula.replace(" ", ""):
        asked = (claim.formula, ("n", *ctx.params), ("g",), result)
        ctx = replace(ctx, recursive=True)
    else:
        asked = (claim.formula, ("n", *ctx.params), (), result)
    # the claim and its game's heap relations (for the methods that compile them), in one call
    texts = sorted(set(ctx.description.relations or ())) if ctx.description is not None else []
    formula, *trees = parse_each([asked, *((t, ("n", "m"), (), "bool") for t in texts)])
    if isinstance(formula, ExprError):
        raise formula
    relations = {t: tree for t, tree in zip(texts, trees, strict=True) if isinstance(tree, Node)}
    subtrees = constant_subtrees(formula, tuple(ctx.params))  # only they are evaluated
    constants = constant_values(subtrees, ctx.params) if subtrees else {}
    ctx = replace(ctx, formula=formula, relations=relations, constants=constants)
    return _prepare_witness(ctx, multi) if claim.witness else ctx


def _prepare_identity(ctx: ClaimContext) -> ClaimContext:
    claim = ctx.claim
    if not claim.variables:
        raise ClaimError(f"claim {claim.id!r}: an identity needs 'variables'")
    clash = set(claim.variables) & set(ctx.params)
    if clash:
        raise ClaimError(f"claim {claim.id!r}: {sorted(clash)} are both variables and parameters")
    assert claim.formula is not None
    formula = parse(claim.formula, scalars=(*claim.variables, *ctx.params), result="bool")
    return replace(ctx, formula=formula)


def _prepare_sum_rule(ctx: ClaimContext) -> ClaimContext:
    claim = ctx.claim
    comps: list[HeapGame] = []
    for spec in claim.components:
        g = parse_spec(spec)
        if not isinstance(g, HeapGame):
            raise ClaimError(f"claim {claim.id!r}: sum component {spec!r} is not a one-heap family")
        comps.append(g)
    if len(comps) < 2:
        raise ClaimError(f"claim {claim.id!r}: a sum_rule needs at least two components")
    return replace(ctx, components=tuple(comps), game=sum_of(comps), description=None)


def _check_listed_values(claim: Claim) -> None:
    if claim.kind_spec.lists_positions and len(claim.positions) != len(claim.values):
        raise ClaimError(f"claim {claim.id!r}: 'positions' and 'values' differ in length")
    if claim.winning_moves and len(claim.winning_moves) != len(claim.positions):
        raise ClaimError(f"claim {claim.id!r}: 'winning_moves' needs one list per position")
    for v in claim.values:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ClaimError(f"claim {claim.id!r}: values must be non-negative whole numbers")


def _prepare_witness(ctx: ClaimContext, multi: bool) -> ClaimContext:
    text = (ctx.claim.witness or "").strip()
    if text in BUILTIN_WITNESSES:
        return replace(ctx, witness_name=text)
    if multi:
        raise ClaimError(
            f"claim {ctx.claim.id!r}: a multi-heap witness must be one of {', '.join(BUILTIN_WITNESSES)}"
        )
    # A one-heap witness: a formula in n, v (the value to reach) and j (ranging over bit
    # positions) that names a heap a move from n should reach.
    witness = parse(text, scalars=("n", "v", "j", *ctx.params), result="int")
    return replace(ctx, witness=witness, witness_name="formula")
