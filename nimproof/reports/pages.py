"""Markdown pages: one per claim, the index (``README.md``) and the timings file.

Pages and index hold no time figures, so they are the same on every run of
an unchanged corpus; every time figure is in ``timings.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from nimproof.claims.kinds import REGISTRY as KIND_REGISTRY
from nimproof.claims.kinds import spec_of
from nimproof.reports.results import SCOPED, Entry, scope_text
from nimproof.reports.text import cell, code, counterexample_words, formula_latex, show, stats_text
from nimproof.verdict import STATUSES, Domain, DomainKind

#: Each kind's report title (declared by the kind, :mod:`nimproof.claims.kinds`).
KIND_WORDS = {name: spec.title for name, spec in KIND_REGISTRY.items()}


def verdict_cell(e: Entry) -> str:
    """The verdict as shown in tables: status, and how it compares with what the file expects."""
    if e.met:
        return f"{e.status} (typo, as expected)" if e.is_typo else e.status
    return f"**{e.status}** (expected {e.expect})"


def source_label(e: Entry) -> str:
    """``seed 003, «Теорема Бутона»`` or what is known of the source."""
    src = e.source
    seed = src["seed"]
    num = seed[:3] if seed[:3].isdigit() else seed
    parts = [f"seed {num}"] if num else []
    if src["section"]:
        parts.append(f"«{src['section']}»")
    return ", ".join(parts) or "-"


def established(e: Entry) -> str:
    """What the verdict established, in words: the scope of a proof, a refutation, or nothing."""
    return {
        "proved": f"for {scope_text(e.verdict.get('scope'))}",
        "checked": f"no counterexample for {scope_text(e.verdict.get('scope'))}; not a proof for "
        f"{_domain_text(e)}",
        "refuted": "by a re-checked counterexample",
        "unknown": "nothing was established",
    }.get(e.status, "")


def _domain_text(e: Entry) -> str:
    """The claim's whole domain in words (:meth:`Domain.describe` of the verdict's ``domain``)."""
    raw = e.verdict.get("domain") or {}
    kinds: dict[Any, DomainKind] = {"listed": "listed", "bound": "bound"}
    return Domain(kinds.get(raw.get("kind"), "all"), raw.get("bound"), raw.get("size")).describe()


def formula_label(c: dict[str, Any]) -> str:
    """The words that introduce a claim's formula (``g =``, ``P-positions:``, ...)."""
    return spec_of(c.get("kind")).phrase


def method_rows(v: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Each method of a verdict as ``(method, result, scope, details)``: the scope only when
    the method proved or checked the claim, the details followed by its figures (``stats``)."""
    rows = []
    for m in v.get("methods") or []:
        if not isinstance(m, dict):
            continue
        details = str(m.get("detail") or "")
        figures = stats_text(m.get("stats"))
        if figures:
            details = f"{details} ({figures})" if details else figures
        scope = scope_text(m.get("scope")) if m.get("status") in SCOPED else "-"
        rows.append((str(m.get("method")), str(m.get("status")), scope, details))
    return rows


def provenance_parts(
    meta: dict[str, str] | None, code: Any, strong: Any, made_by: str = "made by"
) -> list[str]:
    """The command, nimproof version and profile that made a report, each formatted for the
    page (``code`` and ``strong`` mark up a command and a profile)."""
    meta = meta or {}
    parts = []
    if meta.get("command"):
        parts.append(f"{made_by} {code(meta['command'])}")
    if meta.get("nimproof"):
        parts.append(f"nimproof {meta['nimproof']}")
    if meta.get("profile"):
        parts.append(f"profile {strong(meta['profile'])}")
    return parts


# ---------------------------------------------------------------------------
# claim pages
# ---------------------------------------------------------------------------


def provenance(meta: dict[str, str] | None) -> str:
    """One sentence naming the command, nimproof version and profile that made a report."""
    parts = provenance_parts(meta, code, code, "Made by")
    return (", ".join(parts) + ".") if parts else ""


def claim_page(
    e: Entry,
    *,
    image: str | None,
    caption: str | None,
    related: list[Entry],
    meta: dict[str, str] | None = None,
) -> str:
    """The Markdown page of one claim; ``related`` (all entries) gives the typo links."""
    c, v = e.claim, e.verdict
    out = [f"# {e.id}", "", str(c.get("statement") or "").strip(), ""]
    out += _formula_block(c)
    out += [
        "| | |",
        "|---|---|",
        f"| kind | {KIND_WORDS.get(str(c.get('kind')), cell(c.get('kind')))} |",
    ]
    for label, value in _facts(c):
        out.append(f"| {label} | {value} |")
    out.append("")

    out += ["## Source", ""]
    src = e.source
    if src["seed"] or src["section"]:
        where = f"Seed text `{src['seed']}`" if src["seed"] else "Source"
        out.append(f"{where}, section «{src['section']}»." if src["section"] else f"{where}.")
        out.append("")
    if src["wording"]:
        out += [f"> {line}" if line else ">" for line in src["wording"].strip().splitlines()]
        out.append("")
    if src["note"]:
        out += [src["note"].strip(), ""]

    out += ["## Verdict", ""]
    expectation = "as the file expects" if e.met else f"the file expects **{e.expect}**"
    out.append(f"**{e.status}** — {established(e)} ({expectation}).")
    out.append("")
    if e.is_typo:
        out.append(
            "This claim states what the source text prints; it is a typo and is expected "
            "to be refuted."
        )
        twins = [t for t in related if t.corrects == e.group]
        for t in twins:
            out.append(f"The corrected claim: [{t.id}]({t.page}) ({t.status}).")
        out.append("")
    if e.corrects:
        typo = next((t for t in related if t.group == e.corrects), None)
        target = f"[{typo.id}]({typo.page})" if typo else code(e.corrects)
        out += [f"This claim corrects the typo {target}.", ""]

    out += _methods(v)
    out += _quotient_section(v)

    cx = v.get("counterexample")
    if e.status == "refuted" and isinstance(cx, dict):
        out += ["## Counterexample", ""]
        explanation = str(cx.get("explanation") or "").strip()
        if explanation:
            out += [explanation, ""]
        out += counterexample_words(cx, str(c.get("kind")))
        out.append("")

    if image:
        out += ["## Picture", "", f"![{cell(caption or e.id)}](img/{image})", ""]
        if caption:
            out += [f"*{caption}*", ""]
    out += ["---", "[All claims](../README.md)", ""]
    if provenance(meta):
        out += [provenance(meta), ""]
    return "\n".join(out)


def _formula_block(c: dict[str, Any]) -> list[str]:
    out: list[str] = []
    formula = c.get("formula")
    if formula:
        latex = formula_latex(c)
        out.append(formula_label(c))
        out.append("")
        if latex:
            out += ["$$", latex, "$$", ""]
        out += ["```python", str(formula).strip(), "```", ""]
    witness = c.get("witness")
    if witness and witness not in _BUILTIN:
        # A witness formula names, for value v, a move target for each bit position j.
        latex = formula_latex(c, str(witness))
        out += ["Winning-move witness (a move target for value v, bit position j):", ""]
        if latex:
            out += ["$$", latex, "$$", ""]
        out += ["```python", str(witness).strip(), "```", ""]
    return out


def _facts(c: dict[str, Any]) -> list[tuple[str, str]]:
    facts: list[tuple[str, str]] = []
    if c.get("game"):
        facts.append(("game", code(c["game"])))
    if c.get("heaps"):
        facts.append(("heaps", str(c["heaps"])))
    if c.get("variables"):
        facts.append(("variables", ", ".join(code(x) for x in c["variables"])))
    if c.get("components"):
        facts.append(("components", " + ".join(code(x) for x in c["components"])))
    if c.get("params"):
        facts.append(("parameters", ", ".join(f"{k} = {v}" for k, v in c["params"].items())))
    if c.get("witness") in _BUILTIN:
        facts.append(("winning-move witness", f"{code(c['witness'])} (built in)"))
    facts += kind_facts(c)
    if spec_of(c.get("kind")).listed:
        facts += _listed(c)
    facts.append(("expected", str(c.get("expect") or "proved")))
    if c.get("tags"):
        facts.append(("tags", ", ".join(code(t) for t in c["tags"])))
    if c.get("file"):
        facts.append(("file", code(c["file"])))
    return facts


_BUILTIN = ("nim", "misere-nim", "moore", "staircase")


def kind_facts(c: dict[str, Any]) -> list[tuple[str, str]]:
    """What a claim of a kind with its own fields states (period, quotient order), as
    (label, words) pairs shared by the Markdown and HTML pages."""
    spec = spec_of(c.get("kind"))
    facts: list[tuple[str, str]] = []
    if spec.states_period:
        saltus = f", saltus {c.get('saltus')}" if c.get("saltus") else ""
        facts.append(("period", f"{c.get('period')} from n = {c.get('preperiod')}{saltus}"))
    if spec.states_quotient:
        facts.append(("quotient order", str(c.get("order"))))
        if c.get("p_portion") is not None:
            facts.append(("P-portion size", str(c.get("p_portion"))))
        if c.get("period") is not None:
            start = c.get("preperiod")
            since = f" from heap {start}" if start is not None else ""
            facts.append(("heap-map period", f"{c.get('period')}{since}"))
    return facts


def _listed(c: dict[str, Any]) -> list[tuple[str, str]]:
    values = list(c.get("values") or [])
    if spec_of(c.get("kind")).lists_sequence:
        offset = int(c.get("offset") or 0)
        shown = ", ".join(map(str, values[:40])) + (", …" if len(values) > 40 else "")
        return [("values", f"{len(values)} from heap {offset}: {shown}")]
    rows = []
    moves = list(c.get("winning_moves") or [])
    for i, (p, val) in enumerate(zip(c.get("positions") or [], values, strict=False)):
        text = f"{show(p)} → {val}"
        if i < len(moves):
            listed = moves[i]
            text += "; winning moves: " + (", ".join(show(m) for m in listed) if listed else "none")
        rows.append(text)
    if len(rows) > 30:
        rows = [*rows[:30], f"… ({len(rows) - 30} more)"]
    joiner = "<br>" if moves else ", "
    return [("positions → values", joiner.join(cell(r) for r in rows))]


def _quotient_section(v: dict[str, Any]) -> list[str]:
    """The misère quotient a method decided the claim with (presentation, P-portion, heap map)."""
    for m in v.get("methods") or []:
        q = (m.get("stats") or {}).get("quotient")
        if not isinstance(q, dict):
            continue
        out = [
            "## Misère quotient",
            "",
            f"Quotient of {code(q['game'])}: {cell(q['presentation'])}.",
        ]
        out.append(f"Order {q['order']}; P-portion {{{', '.join(q['p_portion'])}}}.")
        gens = ", ".join(f"{k} = {val}" for k, val in q["generators"].items())
        out.append(f"Generators: {gens}.")
        heap_map = " ".join(q["preperiod"])
        if q.get("period_from") is not None:
            where = (
                "proved for every heap by the periodicity theorem"
                if q["proved_every_heap"]
                else "seen so far, not proved"
            )
            heap_map += (
                f", then from heap {q['period_from']} repeating {' '.join(q['period'])} ({where})"
            )
        out += [f"Heap map from heap 0: {heap_map}.", ""]
        return out
    return []


def _methods(v: dict[str, Any]) -> list[str]:
    rows = method_rows(v)
    if not rows:
        return []
    out = ["## Methods", "", "| method | result | scope | details |", "|---|---|---|---|"]
    out += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    out.append("")
    return out


# ---------------------------------------------------------------------------
# index
# ---------------------------------------------------------------------------

_SEED = re.compile(r"^(\d{3})")


def group_key(e: Entry) -> tuple[int, str]:
    """Where an entry is listed: (0, seed number) for seed texts, (1, "") mined, (2, "") others."""
    file = str(e.claim.get("file") or "")
    if "mined" in e.tags or "conjectures/mined" in file:
        return (1, "")
    m = _SEED.match(e.source["seed"])
    if m:
        return (0, m.group(1))
    return (2, "")


def group_title(key: tuple[int, str], members: list[Entry]) -> str:
    if key[0] == 0:
        files = sorted({m.source["seed"] for m in members})
        return f"Seed {key[1]} (`{'`, `'.join(files)}`)"
    return "Mined claims" if key[0] == 1 else "Other claims"


def ordered(members: list[Entry]) -> list[tuple[Entry, str]]:
    """Entries in file order, each typo followed by its corrected claims; with a row label."""
    typo_groups = {e.group for e in members if e.is_typo}
    last = {e.group: i for i, e in enumerate(members) if e.is_typo}
    out: list[tuple[Entry, str]] = []
    for i, e in enumerate(members):
        if e.corrects in typo_groups:
            continue
        out.append((e, "typo" if e.is_typo else ""))
        if e.is_typo and last[e.group] == i:
            out += [(t, "corrected") for t in members if t.corrects == e.group]
    return out


def _totals(members: Iterable[Entry]) -> str:
    ms = list(members)
    counts = {s: sum(1 for e in ms if e.status == s) for s in STATUSES}
    missed = sum(1 for e in ms if not e.met)
    text = f"{len(ms)} claims: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES)
    return text + ("; all as expected." if not missed else f"; **{missed} not as expected**.")


def _scope_kind(e: Entry) -> str:
    sc = e.verdict.get("scope") or {}
    return "listed" if sc.get("measure") == "listed" else str(sc.get("kind"))


def _scope_totals(members: Iterable[Entry]) -> str:
    """How many proved or checked claims reached each scope, strongest first."""
    scoped = [e for e in members if e.status in SCOPED]
    count = {
        k: sum(1 for e in scoped if _scope_kind(e) == k)
        for k in ("all", "width", "bound", "listed")
    }
    return (
        f"{count['all']} proved for all positions, {count['listed']} on the listed positions; "
        f"{count['width']} checked for heaps below a bit width, {count['bound']} up to a bound."
    )


def _bounded_section(entries: list[Entry]) -> list[str]:
    """The claims checked only on a bounded scope, each with why no stronger method applied."""
    bounded = [e for e in entries if e.status == "checked"]
    if not bounded:
        return []
    out = [
        "## Claims checked only on a bounded scope (not proved)",
        "",
        "| claim | no counterexample for | why no method covers every position |",
        "|---|---|---|",
    ]
    for e in bounded:
        why = [
            f"{m.get('method')}: {m.get('detail') or m.get('status')}"
            for m in e.verdict.get("methods") or []
            if m.get("status") not in SCOPED
        ]
        out.append(
            f"| [{cell(e.id)}](claims/{e.page}) | {cell(e.scope_text())} | "
            f"{cell('; '.join(why) or 'no method for every position applies to this kind of claim')} |"
        )
    out.append("")
    return out


def index_page(entries: list[Entry], *, timings: bool, meta: dict[str, str] | None = None) -> str:
    """``README.md``: totals, then one table per source group."""
    groups: dict[tuple[int, str], list[Entry]] = {}
    for e in entries:
        groups.setdefault(group_key(e), []).append(e)
    keys = sorted(groups)
    out = [
        "# Verification report",
        "",
        "Every claim of the corpus with its verdict. *proved* means the claim's whole domain "
        "(all positions, or the positions the claim lists); *checked* means no counterexample "
        "in a narrower region (positions below a bit width, or up to a bound), which is not a "
        "proof; *refuted* comes with a re-checked counterexample; claims that reproduce a typo of a source text are expected "
        "to be refuted and are listed next to "
        "their corrected claim.",
        "",
        f"**Overall:** {_totals(entries)}",
        "",
        f"**By scope:** {_scope_totals(entries)}",
        "",
    ]
    if provenance(meta):
        out += [provenance(meta), ""]
    out += ["The same report as a web page, sortable and filterable: [index.html](index.html).", ""]
    if timings:
        out += [
            "Timing figures are kept apart, in [timings.md](timings.md) and `timings.js`, so "
            "that this index and the claim pages are identical on every run.",
            "",
        ]
    out += [
        "| group | claims | " + " | ".join(STATUSES) + " | not as expected |",
        "|---|---|---|---|---|---|---|",
    ]
    for key in keys:
        ms = groups[key]
        counts = [sum(1 for e in ms if e.status == s) for s in STATUSES]
        anchor = _anchor(group_title(key, ms))
        out.append(
            f"| [{cell(group_title(key, ms))}](#{anchor}) | {len(ms)} | "
            + " | ".join(map(str, counts))
            + f" | {sum(1 for e in ms if not e.met)} |"
        )
    out.append("")
    out += _bounded_section(entries)
    for key in keys:
        ms = groups[key]
        out += [
            f"## {group_title(key, ms)}",
            "",
            _totals(ms),
            "",
            "| claim | statement | source | verdict | scope | methods |",
            "|---|---|---|---|---|---|",
        ]
        for e, label in ordered(ms):
            name = f"[{cell(e.id)}](claims/{e.page})"
            if label == "typo":
                name = f"{name} (typo)"
            elif label == "corrected":
                name = f"↳ {name} (corrected)"
            scope = e.shown_scope()
            out.append(
                f"| {name} | {cell(e.claim.get('statement') or '')} | {cell(source_label(e))} | "
                f"{verdict_cell(e)} | {cell(scope)} | {cell(', '.join(e.methods_used()) or '-')} |"
            )
        out.append("")
    return "\n".join(out)


def _anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.lower())
    return text.replace(" ", "-")


def timings_page(entries: list[Entry], meta: dict[str, str] | None = None) -> str:
    """``timings.md``: with ``timings.js``, the report files whose content changes between runs."""
    total = sum(float(e.verdict.get("seconds") or 0.0) for e in entries)
    out = [
        "# Timings",
        "",
        "Wall-clock seconds of the verification run that produced the results file. "
        "This file and `timings.js` (the same figures for `index.html`) are the only report "
        "files that change between runs of an unchanged corpus.",
        "",
        *([provenance(meta), ""] if provenance(meta) else []),
        f"**Total:** {total:.2f} s over {len(entries)} claims.",
        "",
        "| claim | total (s) | methods (s) | solver figures |",
        "|---|---|---|---|",
    ]
    for e in sorted(entries, key=lambda x: (-float(x.verdict.get("seconds") or 0.0), x.id)):
        methods = [m for m in e.verdict.get("methods") or [] if isinstance(m, dict)]
        per = ", ".join(f"{m.get('method')} {float(m.get('seconds') or 0.0):.2f}" for m in methods)
        figures = []
        for m in methods:
            raw = m.get("stats")
            stats: dict[str, Any] = raw if isinstance(raw, dict) else {}
            vol = {
                k: stats[k]
                for k in sorted(stats)
                if any(w in k.lower() for w in ("time", "memory", "seconds"))
            }
            if vol:
                figures.append(
                    f"{m.get('method')}: "
                    + ", ".join(f"{k} = {show(val)}" for k, val in vol.items())
                )
        out.append(
            f"| [{cell(e.id)}](claims/{e.page}) | {float(e.verdict.get('seconds') or 0.0):.2f} | "
            f"{cell(per)} | {cell('; '.join(figures))} |"
        )
    out.append("")
    return "\n".join(out)
