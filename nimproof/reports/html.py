"""The HTML report: ``index.html`` (a sortable, filterable table of every claim) and one page
per claim under ``claims/``, beside the Markdown.

Static files only: no server, no network. Styles and the small sorting script
are inline; the formula is drawn as MathML converted when the page is written
(the LaTeX of :func:`nimproof.reports.text.formula_latex`, with the plain formula
below it; browsers draw MathML themselves); pictures are the PNG files of the Markdown report. Every page is a
function of the results and the run's metadata; the per-claim times shown in
the index come from ``timings.js``, the one HTML file that changes between
runs.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from latex2mathml.converter import convert

from nimproof.output import atomic_write_text
from nimproof.reports.pages import (
    KIND_WORDS,
    established,
    formula_label,
    group_key,
    group_title,
    kind_facts,
    method_rows,
    provenance_parts,
    source_label,
)
from nimproof.reports.results import SCOPED, Entry, sibling_name
from nimproof.reports.text import counterexample_facts, formula_latex, show
from nimproof.verdict import STATUSES

#: How scopes are summarised and ranked (strongest first) in the index.
SCOPE_CLASSES = (
    ("all", "proved for all positions"),
    ("listed", "proved for the listed positions"),
    ("width", "checked, not proved: no counterexample below a bit width"),
    ("bound", "checked, not proved: no counterexample up to a bound"),
    ("none", "nothing established (refuted or unknown)"),
)

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem auto;
max-width:72rem;padding:0 1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:1.6rem}
.meta{color:#555;font-size:.9rem}.meta code{font-size:.85rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.3rem .45rem;text-align:left;vertical-align:top}
th{background:#f4f4f6;position:sticky;top:0}th.sortable{cursor:pointer;user-select:none}
th.sortable::after{content:" \\2195";color:#999}th[aria-sort=ascending]::after{content:" \\2191"}
th[aria-sort=descending]::after{content:" \\2193"}
.proved{color:#11703a;font-weight:600}.refuted{color:#b3261e;font-weight:600}
.unknown{color:#8a6100;font-weight:600}.missed{background:#fde8e6}
.checked{color:#0b5f86;font-weight:600}
.scopes{display:flex;flex-wrap:wrap;gap:.5rem;margin:.8rem 0;padding:0;list-style:none}
.scopes li{border:1px solid #ccd;border-radius:.4rem;padding:.35rem .7rem;background:#fafafe}
.scopes b{font-size:1.15rem;margin-right:.3rem}
.controls{margin:.8rem 0;display:flex;gap:.6rem;flex-wrap:wrap}
.controls input{flex:1;min-width:14rem;padding:.35rem}
.scope-badge{display:inline-block;border-radius:.3rem;padding:.05rem .4rem;background:#e8f3ec}
.verdict{font-size:1.05rem;border-left:4px solid #999;padding:.4rem .8rem;background:#f7f7f9}
.verdict.proved{border-color:#11703a}.verdict.refuted{border-color:#b3261e}
.verdict.unknown{border-color:#8a6100}.verdict.checked{border-color:#0b5f86}
blockquote{margin:.5rem 0;padding:.4rem .8rem;border-left:3px solid #ccd;background:#fafafe}
.formula{margin:.6rem 0;overflow-x:auto}.formula math{font-size:1.25em}
pre{background:#f4f4f6;padding:.5rem;overflow-x:auto}dl{display:grid;
grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
img.plot{max-width:100%;border:1px solid #eee}
"""

SCRIPT = """
(function(){
var times=window.NIMPROOF_TIMES||{};
var table=document.getElementById('claims');var body=table.tBodies[0];
var rows=Array.prototype.slice.call(body.rows);
rows.forEach(function(r){var t=times[r.dataset.id];var c=r.querySelector('td.time');
if(t!==undefined){c.textContent=t.toFixed(2);c.dataset.key=t;}});
var heads=table.tHead.rows[0].cells;
function key(r,i,num){var c=r.cells[i];var k=c.dataset.key!==undefined?c.dataset.key:c.textContent;
return num?parseFloat(k)||0:k.toLowerCase();}
Array.prototype.forEach.call(heads,function(th,i){if(!th.classList.contains('sortable'))return;
th.addEventListener('click',function(){var asc=th.getAttribute('aria-sort')!=='ascending';
Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',asc?'ascending':'descending');var num=th.dataset.type==='num';
rows.sort(function(a,b){var x=key(a,i,num),y=key(b,i,num);return (x<y?-1:x>y?1:0)*(asc?1:-1);});
rows.forEach(function(r){body.appendChild(r);});});});
var text=document.getElementById('filter');var status=document.getElementById('status');
function apply(){var q=text.value.toLowerCase();var s=status.value;var shown=0;
rows.forEach(function(r){var ok=(!q||r.textContent.toLowerCase().indexOf(q)>=0)&&
(!s||r.dataset.status===s||(s==='missed'&&r.classList.contains('missed')));
r.style.display=ok?'':'none';if(ok)shown++;});
document.getElementById('shown').textContent=shown;}
text.addEventListener('input',apply);status.addEventListener('change',apply);apply();
})();
"""


def esc(text: Any) -> str:
    """Text safe inside HTML (quotes included)."""
    return html.escape(str(text), quote=True)


def html_name(e: Entry) -> str:
    """The file name of a claim's HTML page (its Markdown page's, with ``.html``)."""
    return sibling_name(e.page, ".html")


def scope_class(verdict: dict[str, Any]) -> str:
    """``all``, ``width``, ``bound``, ``listed`` or ``none``: what a verdict's scope covers."""
    raw = verdict.get("scope") if verdict.get("status") in SCOPED else None
    if not isinstance(raw, dict):
        return "none"
    if raw.get("measure") == "listed":
        return "listed"
    kind = str(raw.get("kind") or "none")
    return kind if kind in ("all", "width", "bound") else "none"


def scope_rank(verdict: dict[str, Any]) -> float:
    """A number that sorts scopes by strength: all > width (by width) > bound > listed > none."""
    cls = scope_class(verdict)
    raw = verdict.get("scope") or {}
    if cls == "all":
        return 4e9
    if cls == "width":
        return 3e9 + float(raw.get("width") or 0)
    if cls == "bound":
        return 1e9 + float(raw.get("bound") or 0)
    return 1.0 if cls == "listed" else 0.0


#: The report's one stylesheet, written beside ``index.html``.
STYLESHEET = "report.css"


def _page(title: str, body: str, *, scripts: str = "", css: str | None = None) -> str:
    """A whole HTML page. With ``css`` (a relative link to :data:`STYLESHEET`) the page
    links the report's stylesheet; without it the styles are inline, for a page that
    stands alone (the miner's ``mined.html``)."""
    style = f'<link rel="stylesheet" href="{esc(css)}">' if css else f"<style>{STYLE}</style>"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        '<link rel="icon" href="data:,">\n'
        f"{style}\n</head>\n<body>\n{body}\n{scripts}</body>\n</html>\n"
    )


#: The page frame (head and styles) for pages written elsewhere (the miner's ``mined.html``).
page = _page


def _meta_line(meta: dict[str, str]) -> str:
    parts = provenance_parts(
        {k: esc(v) for k, v in meta.items()}, lambda t: f"<code>{t}</code>", lambda t: f"<b>{t}</b>"
    )
    return f'<p class="meta">{", ".join(parts)}</p>' if parts else ""


def _verdict_html(e: Entry) -> str:
    text = f'<span class="{esc(e.status)}">{esc(e.status)}</span>'
    if not e.met:
        text += f" (expected {esc(e.expect)})"
    elif e.is_typo:
        text += " (typo, as expected)"
    return text


def scope_counts(items: Iterable[Entry]) -> dict[str, int]:
    """How many verdicts fall in each scope class (see :data:`SCOPE_CLASSES`)."""
    counts = {k: 0 for k, _ in SCOPE_CLASSES}
    for e in items:
        counts[scope_class(e.verdict)] += 1
    return counts


#: The miner's page (``nimproof mine --defaults --write``), linked when it is beside the index.
MINED_PAGE = "mined.html"


def index_html(items: list[Entry], meta: dict[str, str], *, mined: bool = False) -> str:
    """``index.html``: totals by scope and status, and the table of every claim; with
    ``mined``, a link to the miner's page beside it."""
    counts = scope_counts(items)
    statuses = {s: sum(1 for e in items if e.status == s) for s in STATUSES}
    missed = sum(1 for e in items if not e.met)
    scopes = "".join(
        f'<li data-scope="{k}"><b>{counts[k]}</b>{esc(words)}</li>' for k, words in SCOPE_CLASSES
    )
    rows = []
    for e in items:
        group = group_title(group_key(e), [e]).split(" (")[0]
        scope = e.shown_scope()
        rows.append(
            f'<tr data-id="{esc(e.id)}" data-status="{esc(e.status)}"'
            f"{' class=missed' if not e.met else ''}>"
            f'<td><a href="claims/{esc(html_name(e))}">{esc(e.id)}</a></td>'
            f"<td>{esc(e.claim.get('statement') or '')}</td>"
            f"<td>{esc(group)}</td>"
            f"<td>{_verdict_html(e)}</td>"
            f'<td data-key="{scope_rank(e.verdict)}"><span class="scope-badge">'
            f"{esc(scope)}</span></td>"
            f"<td>{esc(', '.join(e.methods_used()) or '-')}</td>"
            f'<td class="time" data-key="-1">-</td></tr>'
        )
    body = (
        "<h1>Verification report</h1>\n"
        + _meta_line(meta)
        + f"<p><b>{len(items)} claims</b>: "
        + ", ".join(f'<span class="{s}">{statuses[s]} {s}</span>' for s in STATUSES)
        + "; "
        + ("all as expected." if not missed else f"<b>{missed} not as expected</b>.")
        + "</p>\n"
        + (
            f'<p>The mined conjectures, ranked by what was proved: <a href="{MINED_PAGE}">'
            f"{MINED_PAGE}</a>.</p>\n"
            if mined
            else ""
        )
        + "<p>What each verdict covers (its scope, strongest first):</p>\n"
        f'<ul class="scopes">{scopes}</ul>\n'
        '<div class="controls"><input id="filter" type="search" '
        'placeholder="filter: id, statement, game, method..." aria-label="filter">'
        '<select id="status" aria-label="verdict"><option value="">every verdict</option>'
        + "".join(f'<option value="{s}">{s}</option>' for s in STATUSES)
        + '<option value="missed">not as expected</option></select>'
        '<span><span id="shown">0</span> shown</span></div>\n'
        '<table id="claims"><thead><tr>'
        '<th class="sortable" data-type="text">claim</th>'
        '<th class="sortable" data-type="text">statement</th>'
        '<th class="sortable" data-type="text">source</th>'
        '<th class="sortable" data-type="text">verdict</th>'
        '<th class="sortable" data-type="num">scope</th>'
        '<th class="sortable" data-type="text">methods</th>'
        '<th class="sortable" data-type="num">time (s)</th>'
        "</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>\n"
        '<p class="meta">The Markdown version: <a href="README.md">README.md</a>; '
        'times: <a href="timings.md">timings.md</a>.</p>'
    )
    scripts = f'<script src="timings.js"></script>\n<script>{SCRIPT}</script>\n'
    return _page("nimproof verification report", body, scripts=scripts, css=STYLESHEET)


def timings_js(items: list[Entry]) -> str:
    """``timings.js``: each claim's seconds, for the index's time column."""
    times = {e.id: round(float(e.verdict.get("seconds") or 0.0), 3) for e in items}
    return (
        "window.NIMPROOF_TIMES = " + json.dumps(times, ensure_ascii=False, sort_keys=True) + ";\n"
    )


#: LaTeX commands that may be left in a page only as source, never as its drawn text.
RAW_LATEX = re.compile(r"\\[A-Za-z]+")


def formula_mathml(latex: str) -> str | None:
    """The LaTeX as a MathML ``<math>`` element (drawn natively by browsers); None if it cannot.

    Converted when the report is written (no script, no network). The result never
    shows a LaTeX command as text: a conversion that leaves one is refused (None),
    and the page then shows only the plain formula.
    """
    try:
        mathml = convert(latex, display="block")
    except Exception:  # a construct the converter does not know: the plain formula is shown
        return None
    if RAW_LATEX.search(re.sub(r"<[^>]*>", " ", html.unescape(mathml))):
        return None
    return mathml


def _formula(c: dict[str, Any]) -> str:
    formula = c.get("formula") or c.get("predicate")
    if not formula:
        return ""
    latex = formula_latex(c)
    out = f"<h2>Formula</h2>\n<p>{esc(formula_label(c))}</p>\n"
    mathml = formula_mathml(latex) if latex else None
    if mathml:
        out += f'<div class="formula" aria-label="{esc(formula)}">{mathml}</div>\n'
    return out + f"<pre><code>{esc(str(formula).strip())}</code></pre>\n"


def _facts(c: dict[str, Any]) -> str:
    rows = [("kind", KIND_WORDS.get(str(c.get("kind")), str(c.get("kind"))))]
    for key, label in (("game", "game"), ("heaps", "heaps"), ("witness", "winning-move witness")):
        if c.get(key):
            rows.append((label, str(c[key])))
    if c.get("variables"):
        rows.append(("variables", ", ".join(map(str, c["variables"]))))
    if c.get("components"):
        rows.append(("components", " + ".join(map(str, c["components"]))))
    if c.get("params"):
        rows.append(("parameters", show(c["params"])))
    rows += kind_facts(c)
    rows.append(("expected", str(c.get("expect") or "proved")))
    if c.get("file"):
        rows.append(("file", str(c["file"])))
    return "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows) + "</dl>\n"


def _source(e: Entry) -> str:
    src = e.source
    out = "<h2>Source</h2>\n"
    if src["seed"] or src["section"]:
        out += f"<p>{esc(source_label(e))}</p>\n"
    if src["wording"]:
        out += f'<p>In the source\'s words:</p>\n<blockquote lang="ru">{esc(src["wording"].strip())}</blockquote>\n'
    translation = str((e.claim.get("source") or {}).get("translation") or "").strip()
    english = translation or str(e.claim.get("statement") or "").strip()
    if english:
        what = "In English" if translation else "In English (the claim's statement)"
        out += f"<p>{what}:</p>\n<blockquote>{esc(english)}</blockquote>\n"
    if src["note"]:
        out += f"<p>{esc(src['note'].strip())}</p>\n"
    return out


def _methods(v: dict[str, Any]) -> str:
    rows = [
        f'<tr><td>{esc(name)}</td><td class="{esc(status)}">{esc(status)}</td>'
        f"<td>{esc(scope)}</td><td>{esc(details)}</td></tr>"
        for name, status, scope, details in method_rows(v)
    ]
    if not rows:
        return ""
    return (
        "<h2>Methods</h2>\n<table><thead><tr><th>method</th><th>result</th><th>scope</th>"
        "<th>details</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>\n"
    )


def _counterexample(e: Entry) -> str:
    cx = e.verdict.get("counterexample")
    if not isinstance(cx, dict):
        return ""
    out = "<h2>Counterexample</h2>\n"
    explanation = str(cx.get("explanation") or "").strip()
    if explanation:
        out += f"<p>{esc(explanation)}</p>\n"
    facts = counterexample_facts(cx, str(e.claim.get("kind")))
    return (
        out + "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(t)}</dd>" for k, t in facts) + "</dl>\n"
    )


def claim_html(
    e: Entry, related: list[Entry], meta: dict[str, str], picture: tuple[str, str] | None
) -> str:
    """One claim's page: statement, formula, facts, source and translation, verdict, evidence."""
    c, v = e.claim, e.verdict
    expectation = "as the file expects" if e.met else f"the file expects {e.expect}"
    body = (
        '<p><a href="../index.html">All claims</a> · '
        f'<a href="{esc(e.page)}">Markdown</a></p>\n'
        f"<h1>{esc(e.id)}</h1>\n"
        + _meta_line(meta)
        + f'<p class="verdict {esc(e.status)}"><b>{esc(e.status)}</b> — {esc(established(e))} '
        f"({esc(expectation)}).</p>\n"
        f"<p>{esc(c.get('statement') or '')}</p>\n"
        + _formula(c)
        + _facts(c)
        + _source(e)
        + _related(e, related)
        + _methods(v)
        + _counterexample(e)
    )
    if picture:
        name, caption = picture
        body += (
            f'<h2>Picture</h2>\n<figure><img class="plot" src="img/{esc(name)}" '
            f'alt="{esc(caption)}"><figcaption>{esc(caption)}</figcaption></figure>\n'
        )
    return _page(f"{e.id} - nimproof", body, css=f"../{STYLESHEET}")


def _related(e: Entry, related: list[Entry]) -> str:
    out = []
    if e.is_typo:
        for t in related:
            if t.corrects == e.group:
                out.append(
                    f'<p>The corrected claim: <a href="{esc(html_name(t))}">{esc(t.id)}</a> '
                    f"({esc(t.status)}).</p>"
                )
    if e.corrects:
        typo = next((t for t in related if t.group == e.corrects), None)
        if typo:
            out.append(
                f'<p>This claim corrects the typo <a href="{esc(html_name(typo))}">'
                f"{esc(typo.id)}</a>.</p>"
            )
    return "\n".join(out) + ("\n" if out else "")


def write_html(
    items: list[Entry],
    out: Path,
    *,
    meta: dict[str, str],
    pictures: dict[str, tuple[str, str]],
) -> list[Path]:
    """Write ``index.html``, ``report.css``, ``timings.js`` and ``claims/*.html``; returns the
    paths written."""
    written = [out / STYLESHEET]
    atomic_write_text(out / STYLESHEET, STYLE.lstrip())
    for e in items:
        page = out / "claims" / html_name(e)
        atomic_write_text(page, claim_html(e, items, meta, pictures.get(e.id)))
        written.append(page)
    index = index_html(items, meta, mined=(out / MINED_PAGE).is_file())
    for name, text in (("index.html", index), ("timings.js", timings_js(items))):
        atomic_write_text(out / name, text)
        written.append(out / name)
    return written
