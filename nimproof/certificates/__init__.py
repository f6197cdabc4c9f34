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
from typing import Any

from nimproof.certificates import parts
from nimproof.games.base import (
    FiniteTakes,
    Game,
    IntervalTakes,
    OneHeapOfEach,
    SetTakes,
    SplitUnequal,
    StairToStair,
    TakeAndBreak,
    UpToKHeaps,
)


def _rule(game: Game) -> dict[str, Any] | None:
    spec = game.moves_spec
    if isinstance(spec, FiniteTakes):
        return {"rule": "takes", "takes": sorted(spec.takes)}
    if isinstance(spec, IntervalTakes):
        return {"rule": "interval", "p": spec.p, "q": spec.q}
    if isinstance(spec, SetTakes) and spec.kind == "multiples-of":
        return {"rule": "multiples-of", "k": spec.modulus}
    if isinstance(spec, SetTakes) and spec.kind == "all-but":
        return {"rule": "all-but", "excluded": sorted(spec.excluded)}
    if isinstance(spec, SetTakes) and spec.kind in ("primes", "squares", "triangular"):
        return {"rule": spec.kind}
    if isinstance(spec, TakeAndBreak):
        return {"rule": "code", "digits": list(spec.digits)}
    if isinstance(spec, SplitUnequal):
        return {"rule": "split-unequal"}
    return None


def describe_game(game: Game | None) -> dict[str, Any] | None:
    """``game`` in the checker's plain description (:mod:`nimproof_check.games`), or None when
    the checker has no form for it (relations given by formulas, plugins, ...).

    This is the one place of this package that reads move descriptions by their class.
    """
    if game is None:
        return None
    spec = game.moves_spec
    out: dict[str, Any] | None
    if isinstance(spec, UpToKHeaps):
        out = {"kind": "moore", "k": spec.k}
    elif isinstance(spec, StairToStair):
        out = {"kind": "staircase"}
    elif isinstance(spec, OneHeapOfEach):
        rules = [_rule(c) for c in spec.components]
        out = None if None in rules else {"kind": "sum", "rules": rules}
    else:
        rule = _rule(game)
        out = None if rule is None else {"kind": "heap", "rule": rule}
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
