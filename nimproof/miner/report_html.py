"""``reports/mined.html``: the mining report (:mod:`nimproof.miner.report`) as a web page.

The same sections as ``mined.md``: per family the conjectures with their
verdict and scope (coloured as in the verification report), residue tables,
alternatives, notes, and for a family with no rule what each guesser got to.
Each claim links to its page under ``claims/`` (written by ``make verify``).
Static, no script, no network; the page frame and styles are the verification
report's (:func:`nimproof.reports.html.page`).
"""

from __future__ import annotations

from nimproof.miner.readable import ResidueTable
from nimproof.miner.report import INTRO, TITLE, Rule, Section, heaps_words, sections, totals
from nimproof.miner.run import Mined, RunResult
from nimproof.reports.html import esc, page
from nimproof.reports.results import page_names, sibling_name
from nimproof.verdict import STATUSES

#: The residue table's own look (inline: the page shares the verification report's styles).
_TABLE = 'class="residues" style="width:auto;margin:.4rem 0"'
_CELL = 'style="text-align:center;font-family:ui-monospace,monospace"'


def _residues_html(table: ResidueTable) -> str:
    head, body = table.rows()
    cells_head = "".join(f"<th {_CELL}>{esc(x)}</th>" for x in head)
    cells_body = "".join(f"<td {_CELL}>{esc(x)}</td>" for x in body)
    note = f"with n = {table.modulus}m + r"
    if table.initial:
        note += "; " + table.initial_text()
    return (
        f"<table {_TABLE}><tr>{cells_head}</tr><tr>{cells_body}</tr></table>"
        f'<div class="meta">{esc(note)}</div>'
    )


def claim_ids(m: Mined) -> list[str]:
    """The ids the verification report has pages for: the claim, or each of its instances."""
    instances = (m.verdict or {}).get("instances") or []
    return [str(v["id"]) for v in instances if "id" in v] or [m.claim_id]


def _claim_links(m: Mined, pages: dict[str, str]) -> str:
    """``<code>id</code>`` linked to its page, or each instance (``[heaps=3]``) to its own."""
    ids = claim_ids(m)
    if len(ids) == 1:
        return f'<a href="claims/{esc(sibling_name(pages[ids[0]], ".html"))}"><code>{esc(m.claim_id)}</code></a>'
    parts = ", ".join(
        f'<a href="claims/{esc(sibling_name(pages[i], ".html"))}">{esc(i[len(m.claim_id) :] or i)}</a>'
        for i in ids
    )
    return f"<code>{esc(m.claim_id)}</code> ({parts})"


def _rule_html(rule: Rule, pages: dict[str, str], *, full: bool) -> str:
    m, g = rule.mined, rule.mined.guess
    text = f"<code>{esc(rule.text)}</code>" if rule.is_code else esc(rule.text)
    status = m.status if m.status in STATUSES else "unknown"
    link = _claim_links(m, pages)
    out = (
        f"<li><b>{esc(g.kind)}</b> ({esc(g.guesser)}): {text}{esc(heaps_words(rule))}"
        f'<br><span class="{status}">{esc(rule.verdict)}</span>; claim {link}'
    )
    if full and not g.spec.states_period and g.statement:
        out += f"<br>{esc(g.statement)}"
    if full and rule.table is not None:
        out += _residues_html(rule.table)
    return out + "</li>"


def _section_html(s: Section, pages: dict[str, str], anchor: str) -> str:
    parts = [
        f'<h2 id="{anchor}"><code>{esc(s.spec)}</code></h2>',
        f"<p>Tables up to {esc(s.bound)}.</p>",
    ]
    if s.no_rule:
        why = "".join(f"<li>{esc(r)}</li>" for r in s.reasons)
        parts.append(f'<p>{esc(s.no_rule)}</p><ul class="meta">{why}</ul>')
    if s.conjectures:
        items = "".join(_rule_html(r, pages, full=True) for r in s.conjectures)
        parts.append(f'<ul class="rules">{items}</ul>')
    if s.alternatives:
        items = "".join(_rule_html(r, pages, full=False) for r in s.alternatives)
        parts.append(
            f'<p>Alternatives (the same data, ranked lower):</p><ul class="rules">{items}</ul>'
        )
    if s.notes:
        notes = "".join(f"<li>{esc(n)}</li>" for n in s.notes)
        parts.append(f'<p>Notes:</p><ul class="meta">{notes}</ul>')
    return '<section class="family">' + "".join(parts) + "</section>"


def _code_spans(text: str) -> str:
    """Escaped ``text`` with its `backquoted` parts as ``<code>``."""
    parts = text.split("`")
    return "".join(f"<code>{esc(p)}</code>" if i % 2 else esc(p) for i, p in enumerate(parts))


def mined_html(result: RunResult) -> str:
    """The HTML text of ``reports/mined.html`` for one mining run."""
    secs = sections(result)
    pages = page_names([i for m in result.conjectures for i in claim_ids(m)])
    anchors = [f"family-{i}" for i in range(len(secs))]
    nav = "".join(
        f'<a href="#{a}"><code>{esc(s.spec)}</code></a><br>'
        for s, a in zip(secs, anchors, strict=True)
    )
    body = (
        f"<h1>{esc(TITLE)}</h1>"
        f'<p class="meta">{_code_spans(INTRO)}</p>'
        f"<p>{esc(totals(result))} The verification report: "
        '<a href="index.html">index.html</a>.</p>'
        f'<nav class="meta">{nav}</nav>'
        + "".join(_section_html(s, pages, a) for s, a in zip(secs, anchors, strict=True))
    )
    return page(TITLE, body)
