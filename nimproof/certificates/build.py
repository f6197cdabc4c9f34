"""Write a verdict's certificate, have the independent checker re-check it, and hold the verdict to it.

:func:`certify` is what ``verify`` runs on every verdict: a verdict proved
for the claim's whole domain (scope ``all``, or the listed positions) keeps
``proved`` only when its certificate is **accepted** by :mod:`nimproof_check`,
or, with ``strict`` off (``verify --lenient-certificates``), when the checker
answers "cannot check" (it does not cover that game or proof): the verdict then
says, in a ``certificate`` row, that the proof was not independently checked.
A **rejected** certificate always turns it into ``unknown`` with the reason,
and so does "cannot check" under ``strict``, the default. Bounded results
(heaps below ``2**w``, up to a bound) are not proofs of the claim; a
certificate they carry (z3's queries) is checked too, and a rejection (the second solver disagrees) makes
them ``unknown`` as well.

:func:`second_opinion` runs an independent bounded method on a claim proved by
the automata or periodicity method ("two methods agree").
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from nimproof.certificates import describe_game
from nimproof.claims.model import Claim
from nimproof.games import HeapGame, canonical_heaps
from nimproof.provers import run_method
from nimproof.provers.context import ClaimContext
from nimproof.verdict import NO_SCOPE, MethodResult, Verdict, jsonable
from nimproof_check import check_path

FORMAT = "nimproof-certificate"
VERSION = 1
#: The pseudo-method name under which the checker's answer is shown in a verdict.
CHECKER = "certificate"
#: How a ``certificate`` row starts when the checker could not check a proof that stands.
NOT_CHECKED = "not independently checked (the checker cannot check it yet)"
#: The width z3 checks an automata proof at, by profile.
SECOND_WIDTH = {"default": 64, "full": 256}
#: Seconds the second method may take per claim.
SECOND_SECONDS = 4.0
#: Seconds the checker may spend per MONA run or SMT query during verify.
CHECK_SECONDS = 60.0
#: The same for bounded results (whose certificate is checked but not required).
BOUNDED_CHECK_SECONDS = 10.0


def _source(verdict: Verdict) -> MethodResult | None:
    """The proved method result whose scope the verdict reports (the first such)."""
    for m in verdict.methods:
        if m.status == "proved" and m.scope == verdict.scope and m.method != CHECKER:
            return m
    return None


def _listed_part(claim: Claim) -> dict[str, Any]:
    if claim.kind_spec.lists_sequence:
        return {
            "kind": "listed",
            "claim_kind": claim.kind,
            "offset": claim.offset,
            "values": list(claim.values),
        }
    wins = [list(w) for w in claim.winning_moves] if claim.winning_moves else None
    return {
        "kind": "listed",
        "claim_kind": claim.kind,
        "positions": list(claim.positions),
        "values": list(claim.values),
        "winning_moves": wins,
    }


#: Most positions a game graph in a certificate may hold.
GRAPH_LIMIT = 50_000
#: A one-heap WS1S proof of a game without a plain description carries its game graph on
#: the heaps below 2**WS1S_GRAPH_BITS (the checker's small instances).
WS1S_GRAPH_BITS = 5
#: A certificate larger than this many characters is written without indentation.
COMPACT_FROM = 200_000


def position_key(position: Any) -> str:
    """A position as the text the game graph names it by (JSON, tuples as lists)."""
    return json.dumps(jsonable(position), sort_keys=True)


def game_graph(game: Any, starts: list[Any]) -> dict[str, Any] | None:
    """Every position reachable from ``starts`` with its options, as the family's own ``moves``
    give them: the game of a plugin in the checker's plain form (None beyond GRAPH_LIMIT)."""
    heaps = isinstance(game, HeapGame)
    roots = [
        canonical_heaps((p,) if isinstance(p, int) else p) if heaps else game.position(p)
        for p in starts
    ]
    edges: dict[str, list[str]] = {}
    todo = list(roots)
    while todo:
        pos = todo.pop()
        key = position_key(pos)
        if key in edges:
            continue
        if len(edges) >= GRAPH_LIMIT:
            return None
        options = list(dict.fromkeys(game.moves(pos)))
        edges[key] = [position_key(q) for q in options]
        todo.extend(options)
    return {
        "kind": "graph",
        "starts": [position_key(r) for r in roots],
        "edges": edges,
        "misere": bool(game.misere),
        "heaps": heaps,
    }


def _texts(part: Any, out: dict[str, str]) -> Any:
    """``part`` without its ``texts`` (collected into ``out``), recursively."""
    if isinstance(part, list):
        return [_texts(x, out) for x in part]
    if not isinstance(part, dict):
        return part
    for name, text in part.get("texts", {}).items():
        if name in out and out[name] != text:
            raise ValueError(f"two certificate files named {name}")
        out[name] = text
    return {k: _texts(v, out) for k, v in part.items() if k != "texts"}


def build(
    claim: Claim, ctx: ClaimContext, verdict: Verdict
) -> tuple[dict[str, Any], dict[str, str]] | str:
    """The certificate of ``verdict`` and its text files, or why there is none."""
    source = _source(verdict)
    if source is None:
        return "no proved result to certify"
    part: Any = _listed_part(claim) if source.method == "reference" else source.certificate
    if part is None:
        return f"the {source.method} method attaches no certificate to this proof"
    texts: dict[str, str] = {}
    proof = _texts(part, texts)
    game = describe_game(ctx.game)
    if game is None and proof.get("kind") == "ws1s" and proof.get("heaps") == 1 and ctx.game:
        game = game_graph(ctx.game, list(range(1 << WS1S_GRAPH_BITS)))
    if game is None and source.method == "reference":
        starts = list(claim.positions)
        if claim.kind_spec.lists_sequence:
            starts = list(range(claim.offset, claim.offset + len(claim.values)))
        game = game_graph(ctx.game, starts)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "claim": claim.to_json(),
        "game": game,
        "method": source.method,
        "scope": verdict.scope.to_json(),
        "detail": source.detail,
        "proof": proof,
        "files_dir": _safe(claim.id),
        "files": {name: hashlib.sha256(t.encode()).hexdigest() for name, t in texts.items()},
    }
    return data, texts


def _safe(claim_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in claim_id)


def write(folder: Path, data: dict[str, Any], texts: dict[str, str]) -> Path:
    """Write the certificate as ``folder/ID.json`` and its files under ``folder/ID/``."""
    folder.mkdir(parents=True, exist_ok=True)
    sub = folder / data["files_dir"]
    sub.mkdir(exist_ok=True)
    for old in sub.iterdir():
        if old.is_file() and old.name not in texts:
            old.unlink()
    for name, text in texts.items():
        (sub / name).write_text(text, encoding="utf-8")
    path = folder / f"{data['files_dir']}.json"
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if len(text) > COMPACT_FROM:  # a large game graph: no indentation
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")
    return path


def certify(
    claim: Claim,
    ctx: ClaimContext,
    verdict: Verdict,
    folder: Path | None,
    *,
    strict: bool = True,
) -> Verdict:
    """``verdict`` held to its certificate (see the module docstring); the checker's answer is
    added as a method result named ``certificate``. A rejected certificate always makes the
    verdict ``unknown``; one the checker cannot check does so only when ``strict``."""
    if verdict.status != "proved":
        return verdict
    whole = verdict.scope.kind == "all"
    built = build(claim, ctx, verdict)
    if isinstance(built, str):
        if not whole:
            return verdict
        return _cannot(verdict, built, strict)
    data, texts = built
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="nimproof-cert-") as tmp:
        path = write(folder if folder is not None else Path(tmp), data, texts)
        report = check_path(path, CHECK_SECONDS if whole else BOUNDED_CHECK_SECONDS)
    seconds = time.monotonic() - t0
    where = path.name if folder is not None else "(not written)"
    if report.accepted:
        detail = f"accepted by the independent checker ({where}): " + "; ".join(report.checked)
        ok = MethodResult(CHECKER, "proved", verdict.scope, detail, seconds)
        return dataclasses.replace(verdict, methods=(*verdict.methods, ok))
    if report.status == "cannot check":
        if not whole:
            return verdict
        return _cannot(verdict, f"{report.reason} ({where})", strict, seconds)
    return _unknown(verdict, f"certificate {report.status} ({where}): {report.reason}", seconds)


def _cannot(verdict: Verdict, why: str, strict: bool, seconds: float = 0.0) -> Verdict:
    """A proof the checker cannot check: ``unknown`` when ``strict``, else kept with a row that
    says it was not independently checked."""
    if strict:
        return _unknown(verdict, f"cannot check: {why}", seconds)
    note = MethodResult(CHECKER, "unknown", detail=f"{NOT_CHECKED}: {why}", seconds=seconds)
    return dataclasses.replace(verdict, methods=(*verdict.methods, note))


def _unknown(verdict: Verdict, why: str, seconds: float = 0.0) -> Verdict:
    note = MethodResult(CHECKER, "unknown", detail=why, seconds=seconds)
    return dataclasses.replace(
        verdict, status="unknown", scope=NO_SCOPE, methods=(*verdict.methods, note)
    )


def second_opinion(ctx: ClaimContext, verdict: Verdict, profile: str) -> Verdict:
    """For a claim proved by the automata or periodicity method, the result of an independent
    bounded method added to the verdict: z3 over bit-vectors at the profile's width, or the
    exhaustive method where z3 does not apply. A re-checked refutation from it refutes."""
    used = verdict.methods_used()
    if verdict.status != "proved" or not {"automata", "periodicity"} & set(used):
        return verdict
    if ctx.spec.formula_role is not None:
        name, options = (
            "z3_bitvec",
            {"width": SECOND_WIDTH.get(profile, 64), "timeout": SECOND_SECONDS},
        )
    elif ctx.spec.states_sum:
        name, options = "exhaustive", {}
    else:
        return verdict
    if any(m.method == name for m in verdict.methods):
        return verdict
    ctx = dataclasses.replace(ctx, deadline=time.monotonic() + SECOND_SECONDS)
    result = run_method(name, ctx, options)
    results = [*verdict.methods, result]
    return Verdict.combine(
        verdict.claim_id,
        results,
        verdict.expect,
        verdict.seconds + result.seconds,
        verdict.require,
        domain=ctx.claim.domain(),
    )
