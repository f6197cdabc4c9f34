"""Small text helpers for the Markdown reports: escaping, formulas, counterexamples in words."""

from __future__ import annotations

import json
from typing import Any

from nimproof.claims.kinds import spec_of

#: Method statistics that measure time or memory: they vary between runs, so they are
#: shown only in the timings file, never on the deterministic pages.
VOLATILE_STATS = ("time", "seconds", "memory", "rlimit")

CONDITIONS = {
    "value": "the claimed value differs from the true value",
    "condition-1": (
        "a move joins two positions the claim gives the same value (or two claimed P-positions)"
    ),
    "condition-2": "the claim gives a value (or a P-position) that no move reaches where it should",
    "terminal": "misère play: a terminal position is claimed to be a P-position",
    "identity": "the identity is false at these values",
    "sum": "the value of the sum differs from the xor of its parts",
    "period": "a table value breaks the claimed period",
    "least-period": "the claimed period holds but a shorter one does too (least = true)",
    "quotient": "a stated figure of the misère quotient differs from the true one",
    "least-preperiod": "the claimed period holds from an earlier heap too (least = true)",
    "undefined": "the formula is undefined here",
    "winning-moves": "the listed winning moves differ from the true ones",
}


def cell(text: Any) -> str:
    """Text that is safe inside one Markdown table cell (no line breaks, pipes escaped)."""
    s = " ".join(str(text).split())
    return s.replace("|", "\\|")


def code(text: Any) -> str:
    """Inline code that survives any backticks inside ``text``."""
    s = " ".join(str(text).split())
    fence = "``" if "`" in s else "`"
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def show(value: Any) -> str:
    """A value as compact text: tuples and lists as (1, 2), dicts as a = 1, None as -."""
    if isinstance(value, dict):
        return ", ".join(f"{k} = {show(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "(" + ", ".join(show(v) for v in value) + ")"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "-"
    return str(value)


def formula_latex(claim: dict[str, Any], text: str | None = None) -> str | None:
    """LaTeX for the claim's formula (or ``text``, e.g. its witness); None if not renderable.

    Uses :func:`nimproof.expr.latex.to_latex` when it is available; the
    caller shows the plain text when this returns None.
    """
    source = text if text is not None else claim.get("formula")
    if not source:
        return None
    try:
        # lazy: start-up time (numpy)
        from nimproof.expr import parse
        from nimproof.expr.latex import to_latex
    except ImportError:
        return None
    scalars = {
        "n",
        "v",
        "j",
        *map(str, claim.get("variables") or []),
        *map(str, claim.get("params") or {}),
    }
    try:
        node = parse(str(source), scalars=sorted(scalars - {"h"}), sequences=("h",))
        latex = to_latex(node)
    except Exception:  # a formula the renderer cannot handle is shown as plain text
        return None
    return latex if latex.strip() else None


def stats_text(stats: Any) -> str:
    """The stable statistics of a method (counts, widths, bounds) as ``key = value`` pairs."""
    if not isinstance(stats, dict):
        return ""
    parts = []
    for key in sorted(stats):
        if any(word in str(key).lower() for word in VOLATILE_STATS):
            continue
        if isinstance(stats[key], dict):
            continue  # a structure with a section of its own (the misère quotient)
        parts.append(f"{key} = {json.dumps(stats[key], ensure_ascii=False, sort_keys=True)}")
    return ", ".join(parts)


def counterexample_facts(cx: dict[str, Any], kind: str) -> list[tuple[str, str]]:
    """A counterexample as (label, plain words) pairs: where, what fails, claimed, true, move.

    The one wording of a counterexample, shared by ``nimproof check``,
    ``nimproof verify`` and the Markdown and HTML reports.
    """
    facts: list[tuple[str, str]] = []
    spec = spec_of(kind)
    p_rule = spec.states_p_positions
    condition = str(cx.get("condition") or "")
    if cx.get("position") is not None:
        facts.append(("values" if spec.is_identity else "position", show(cx.get("position"))))
    if condition:
        words = CONDITIONS.get(condition, condition)
        if p_rule and condition == "value":
            words = "the claim gets this position's status (P-position or not) wrong"
        facts.append(("what fails", words))
    claimed, actual = cx.get("claimed"), cx.get("actual")
    if p_rule and isinstance(claimed, bool):
        facts.append(("the claim says", "a P-position" if claimed else "not a P-position"))
    elif claimed is not None:
        facts.append(("claimed", show(claimed)))
    if actual is not None:
        if p_rule and isinstance(actual, int) and not isinstance(actual, bool):
            status = (
                "a P-position (the player to move loses)"
                if actual == 0
                else "an N-position (the player to move wins)"
            )
            facts.append(("true", f"value {actual}, {status}"))
        else:
            facts.append(("true", show(actual)))
    move = cx.get("move")
    if move is not None:
        text = show(move)
        facts.append(("the move", text if isinstance(move, str) else f"to {text}"))
    recheck = cx.get("recheck") or ""
    if cx.get("rechecked"):
        facts.append(("re-checked by", recheck or "an independent computation"))
    else:
        facts.append(("not re-checked", "this counterexample did not refute the claim on its own"))
    return facts


def counterexample_words(cx: dict[str, Any], kind: str) -> list[str]:
    """Markdown list lines about a counterexample (see :func:`counterexample_facts`)."""
    return [f"- **{label}:** {text}" for label, text in counterexample_facts(cx, kind)]
