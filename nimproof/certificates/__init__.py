"""Certificates: what a reader needs to re-check a ``proved`` verdict without trusting nimproof.

Proof methods attach a part to their ``proved`` result
(``MethodResult.certificate``, built with :mod:`.parts`); :mod:`.build`
turns a verdict into a certificate file (``docs/certificates.md``) and has
it checked by the independent checker :mod:`nimproof_check`, which imports
nothing from nimproof. :func:`describe_game` writes a game in the checker's
plain description.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch
from typing import Any

from nimproof.certificates import parts
from nimproof.games.base import (
    FiniteTakes,
    Game,
    HeapsRelation,
    IntervalTakes,
    LoopyRelation,
    OneHeapOfEach,
    PartMoves,
    SetTakes,
    SplitUnequal,
    StairToStair,
    TakeAndBreak,
    UpToKHeaps,
)


@singledispatch
def _rule_of(spec: object) -> dict[str, Any] | None:
    """A one-heap rule in the checker's description; None where it has no form for it."""
    return None


@_rule_of.register
def _(spec: FiniteTakes) -> dict[str, Any] | None:
    return {"rule": "takes", "takes": sorted(spec.takes)}


@_rule_of.register
def _(spec: IntervalTakes) -> dict[str, Any] | None:
    return {"rule": "interval", "p": spec.p, "q": spec.q}


@_rule_of.register
def _(spec: SetTakes) -> dict[str, Any] | None:
    if spec.kind == "multiples-of":
        return {"rule": "multiples-of", "k": spec.modulus}
    if spec.kind == "all-but":
        return {"rule": "all-but", "excluded": sorted(spec.excluded)}
    if spec.kind in ("primes", "squares", "triangular"):
        return {"rule": spec.kind}
    return None


@_rule_of.register
def _(spec: TakeAndBreak) -> dict[str, Any] | None:
    return {"rule": "code", "digits": list(spec.digits)}


@_rule_of.register
def _(spec: SplitUnequal) -> dict[str, Any] | None:
    return {"rule": "split-unequal"}


#: Rules described by PartMoves that the checker knows by their kernel's name (the kernel
#: names exactly these moves; the checker enumerates them with its own code).
PART_RULES = ("lasker", "ruler", "mock-turtles")


@_rule_of.register
def _(spec: PartMoves) -> dict[str, Any] | None:
    return {"rule": spec.kernel} if spec.kernel in PART_RULES else None


def _rule(game: Game) -> dict[str, Any] | None:
    return _rule_of(game.moves_spec)


@singledispatch
def _shape(spec: object, game: Game) -> dict[str, Any] | None:
    """The game's kind in the checker's description; by default a heap game with its rule."""
    rule = _rule(game)
    return None if rule is None else {"kind": "heap", "rule": rule}


@_shape.register
def _(spec: UpToKHeaps, game: Game) -> dict[str, Any] | None:
    return {"kind": "moore", "k": spec.k}


@_shape.register
def _(spec: StairToStair, game: Game) -> dict[str, Any] | None:
    return {"kind": "staircase"}


@_shape.register
def _(spec: OneHeapOfEach, game: Game) -> dict[str, Any] | None:
    rules = [_rule(c) for c in spec.components]
    return None if None in rules else {"kind": "sum", "rules": rules}


#: Families whose moves nimproof gives as a relation between heaps and which the checker
#: knows by name (it enumerates their moves with its own code).
NAMED_RELATIONS = ("wythoff", "fibonacci-nim")


@_shape.register
def _(spec: HeapsRelation, game: Game) -> dict[str, Any] | None:
    name = str(getattr(getattr(game, "normal", game), "spec", ""))  # misère: the normal game's
    if name in NAMED_RELATIONS:
        return {"kind": name}
    family, _, coins = name.partition(":")
    if family == "welter" and coins.isdigit() and int(coins) == spec.heaps:
        return {"kind": "welter", "coins": spec.heaps}
    return None  # a relation given by a formula (``rule:``): no plain form


@_shape.register
def _(spec: LoopyRelation, game: Game) -> dict[str, Any] | None:
    family, _, rows = str(getattr(game, "spec", "")).partition(":")
    if family == "northcott" and rows.isdigit() and 3 * int(rows) == spec.heaps:
        return {"kind": "northcott", "rows": int(rows)}
    return None  # a loopy game the checker does not know


def describe_game(game: Game | None) -> dict[str, Any] | None:
    """``game`` in the checker's plain description (:mod:`nimproof_check.games`), or None when
    the checker has no form for it (relations given by formulas, plugins, ...).

    The description's record chooses the form (dispatch on its type, as ARCHITECTURE.md
    describes); a record with no form registered here gives None ("cannot check").
    """
    if game is None:
        return None
    out = _shape(game.moves_spec, game)
    if out is not None:
        out["misere"] = bool(game.misere)
    return out


def periodic_table(
    found: dict[str, Any], queries: Sequence[dict[str, str]]
) -> dict[str, Any] | None:
    """The periodic-table method's part: a one-heap reduction (``fact``, ``L``, ``S``, ``M``,
    ``claimed``) or a Sprague–Grundy sum (``sum``: components and their facts)."""
    if "sum" in found:
        comps = []
        for comp, fact in found["sum"]:
            comps.append({"game": describe_game(comp), "periodicity": _fact(fact)})
        return {"kind": "composition", "rule": "sprague-grundy-sum", "parts": comps}
    fact = found["fact"]
    claimed = [int(v) for v in found["claimed"]]
    return {
        "kind": "composition",
        "rule": "periodic-table",
        "claim_kind": found["kind"],
        "game": describe_game(found["game"]),
        "fact": _fact(fact),
        "formula": parts.smt("periodic-formula", queries),
        "L": int(found["L"]),
        "S": int(found["S"]),
        "M": int(found["M"]),
        "claimed": "claimed.json",
        "texts": {"claimed.json": "[" + ",".join(map(str, claimed)) + "]"},
    }


def _fact(fact: Any) -> dict[str, Any] | None:
    if fact is None:
        return None
    return parts.periodicity(
        fact.theorem, fact.period, fact.preperiod, fact.saltus, fact.base, least=False
    )


__all__ = ["describe_game", "parts", "periodic_table"]
