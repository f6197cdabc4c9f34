"""Mine families, write their conjecture files, and hand every conjecture to the verifier.

For each family: :func:`nimproof.miner.pipeline.mine` ranks the guesses,
:mod:`nimproof.miner.writer` turns them into one conjecture file, the file is
read back with the ordinary claim loader (so what is verified is exactly what
was written), and each claim instance goes to
:func:`nimproof.provers.verify_claim`. A guess whose claim is refuted is kept
in the file with ``expect = "refuted"``: the pattern held on the mined table
and breaks later, which is worth recording. Nothing is reported as proved
unless the verifier proved it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from nimproof.claims import Claim, load_file, parse_document
from nimproof.errors import NimproofError
from nimproof.games import parse_spec
from nimproof.games.base import MultiHeapGame
from nimproof.miner import writer
from nimproof.miner.model import Guess
from nimproof.miner.pipeline import FamilyResult, Request, fill, mine
from nimproof.provers import verify_claim
from nimproof.verdict import MethodResult, Scope, Verdict

Verifier = Callable[[Claim, float], Any]


@dataclass(frozen=True, slots=True)
class Mined:
    """One ranked conjecture of a run: the guess, its claim id and file, and the verifier's answer."""

    family: str
    rank: int
    guess: Guess
    claim_id: str
    file: str | None
    verdict: dict[str, Any] | None
    #: ``conjecture`` (the best guess of its kind and grid point) or ``alternative``.
    role: str = "conjecture"

    @property
    def status(self) -> str:
        """``proved``, ``checked``, ``refuted``, ``unknown``, or ``unverified`` (``--no-verify``)."""
        return str(self.verdict["status"]) if self.verdict else "unverified"

    @property
    def scope(self) -> str:
        """What the verifier's answer covers, in words."""
        if not self.verdict:
            return ""
        return str(self.verdict.get("scope_text", ""))

    def to_json(self) -> dict[str, Any]:
        g = self.guess
        params: dict[str, Any]
        if g.axes:
            params = {name: writer.axis_value(values) for name, values in g.axes.items()}
        elif g.point is not None:
            params = dict(g.point[0])
        else:
            params = {}
        out: dict[str, Any] = {
            "id": self.claim_id,
            "family": self.family,
            "rank": self.rank,
            "kind": g.kind,
            "formula": g.formula,
            "description": g.description,
            "statement": g.statement,
            "game": g.game,
            "params": params,
            "heaps": list(g.heaps) if g.heaps else None,
            "witness": g.witness,
            "guesser": g.guesser,
            "evidence": g.evidence.to_json(),
            "cost": round(g.cost, 3),
            "file": self.file,
            "verdict": self.verdict,
            "role": self.role,
        }
        if g.spec.states_period:
            out.update(period=g.period, preperiod=g.preperiod, saltus=g.saltus)
        if g.spec.is_identity:
            out["variables"] = list(g.variables)
        return out


@dataclass(frozen=True, slots=True)
class RunResult:
    """Everything one ``nimproof mine`` run found."""

    families: tuple[FamilyResult, ...]
    conjectures: tuple[Mined, ...]

    @property
    def summary(self) -> str:
        """One line per family: how many conjectures, or that none was found up to the bound."""
        return "; ".join(f.summary for f in self.families)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``conjectures``, ``summary`` and per-family details."""
        return {
            "conjectures": [c.to_json() for c in self.conjectures],
            "summary": self.summary,
            "families": [
                {
                    "spec": f.request.spec,
                    "grid_points": f.points,
                    "bound": f.request.describe_bound(),
                    "found": len(f.guesses),
                    "summary": f.summary,
                    "notes": list(f.notes),
                    "reasons": list(f.reasons),
                }
                for f in self.families
            ],
        }


def default_verifier(claim: Claim, timeout: float) -> Verdict:
    """:func:`nimproof.provers.verify_claim`, imported when first needed.

    A claim the verifier refuses to take up (say, a kind it cannot check for
    this game) gets an ``unknown`` verdict naming the reason; mining goes on.
    """
    try:
        return verify_claim(claim, timeout=timeout)
    except NimproofError as exc:
        result = MethodResult("prepare", "unknown", detail=f"not checked: {exc}")
        return Verdict.combine(claim.id, [result], claim.expect, domain=claim.domain())


def combine_verdicts(group: str, verdicts: Sequence[Any]) -> dict[str, Any]:
    """One JSON verdict for a claim and all its grid instances.

    A single instance gives its own verdict. For a grid: refuted if any
    instance is refuted, proved if every instance is proved, checked if every
    instance is proved or checked (both with the weakest of their scopes),
    unknown otherwise; the instances are listed.
    """
    if len(verdicts) == 1:
        out = dict(verdicts[0].to_json())
        shown = verdicts[0].status in ("proved", "checked")
        out["scope_text"] = verdicts[0].scope.describe() if shown else ""
        return out
    statuses = [v.status for v in verdicts]
    if "refuted" in statuses:
        status = "refuted"
    elif all(s == "proved" for s in statuses):
        status = "proved"
    elif all(s in ("proved", "checked") for s in statuses):
        status = "checked"
    else:
        status = "unknown"
    scope: Scope | None = None
    if status in ("proved", "checked"):
        # The weakest instance scope covers every instance; its heap count is one instance's.
        scope = replace(min((v.scope for v in verdicts), key=lambda s: s.rank()), heaps=None)
    refuted = next((v for v in verdicts if v.status == "refuted"), None)
    return {
        "id": group,
        "status": status,
        "expect": "proved",
        "meets_expectation": status == "proved",
        "scope": scope.to_json() if scope else {"kind": "none"},
        "scope_text": (
            f"{scope.describe()} (each of {len(verdicts)} instances)"
            if scope is not None
            else f"{statuses.count('proved')} of {len(verdicts)} instances proved, "
            f"{statuses.count('checked')} checked"
        ),
        "counterexample": refuted.counterexample.to_json()
        if refuted and refuted.counterexample
        else None,
        "instances": [v.to_json() for v in verdicts],
        "seconds": round(sum(v.seconds for v in verdicts), 4),
    }


def proof_rank(verdict: dict[str, Any] | None, guess: Guess) -> tuple[float, ...]:
    """The ranking key: proved for all positions first, then by width or bound, then simplicity.

    Then held-out accuracy (more held-out points predicted first). Refuted
    guesses come last; a guess never verified ranks by simplicity alone.
    """
    status = {"proved": 0, "checked": 0, "unknown": 1, "refuted": 2}.get(
        str(verdict["status"]) if verdict else "", 1
    )
    scope = (verdict or {}).get("scope") or {}
    strength = {"all": 3, "width": 2, "bound": 1}.get(str(scope.get("kind")), 0)
    size = float(scope.get("width") or scope.get("bound") or 0)
    return (status, -strength, -size, guess.cost, -guess.evidence.held_out)


def mark_conjectures(
    ranked: list[tuple[dict[str, Any], Guess, str]], verdicts: dict[str, dict[str, Any] | None]
) -> None:
    """Tag the best guess of each kind and grid point ``conjecture``, the others ``alternative``.

    Each claim also pins the scope its proof reached (``require``) where the
    claim format has that key, so that a regression fails verification.
    """
    seen: set[tuple[str, object]] = set()
    pin = "require" in Claim.__dataclass_fields__
    for table, guess, cid in ranked:
        slot = (guess.kind, guess.point)
        role = "alternative" if slot in seen else "conjecture"
        seen.add(slot)
        table["tags"] = [*table.get("tags", []), role]
        verdict = verdicts.get(cid)
        if pin and verdict is not None and verdict["status"] in ("proved", "checked"):
            scope = verdict.get("scope") or {}
            if scope.get("kind") == "all":
                table["require"] = "all"
            elif scope.get("kind") in ("width", "bound"):
                key = str(scope["kind"])
                table["require"] = {key: int(scope[key])}


def _lowers_heaps(request: Request) -> bool:
    first = {name: values[0] for name, values in request.axes.items()}
    game = parse_spec(fill(request.spec, first))
    return not isinstance(game, MultiHeapGame) or game.lowers_heaps


def _tables(
    result: FamilyResult, refuted: set[str], bounds: writer.CheckBounds
) -> tuple[list[dict[str, Any]], list[str]]:
    req = result.request
    max_heap = max((req.max_heap_for(h) for h in req.heaps), default=0)
    lowers = _lowers_heaps(req)
    tables: list[dict[str, Any]] = []
    ids: list[str] = []
    for g in result.guesses:
        cid = writer.claim_id(req.spec, g)
        base, i = cid, 2
        while cid in ids:
            cid = f"{base}-{i}"
            i += 1
        ids.append(cid)
        tables.append(
            writer.claim_table(
                req.spec,
                g,
                max_n=req.max_n,
                max_heap=max_heap,
                lowers_heaps=lowers,
                bounds=bounds,
                expect="refuted" if cid in refuted else "proved",
                claim_id_=cid,
            )
        )
    return tables, ids


def run(
    requests: Sequence[Request],
    *,
    write_dir: Path | None,
    verify: bool = True,
    timeout: float = 60.0,
    command: str = "nimproof mine",
    verifier: Verifier = default_verifier,
    bounds: writer.CheckBounds = writer.FULL,
    on_family: Callable[[str], None] | None = None,
) -> RunResult:
    """Mine every request; write (when ``write_dir``) and verify (when ``verify``) each conjecture.

    ``bounds`` are the checks asked of the verifier (written into each claim).
    ``command`` is recorded in each generated file's first line. A family
    with nothing found has its previously mined file removed (only a file
    the miner wrote).
    """
    families: list[FamilyResult] = []
    mined: list[Mined] = []
    for request in requests:
        if on_family is not None:
            on_family(request.spec)
        result = mine(request)
        families.append(result)
        if not result.guesses:
            if write_dir is not None:
                writer.remove_stale(write_dir, request.spec)
            continue
        tables, ids = _tables(result, set(), bounds)
        text = writer.document(command, tables)
        path: Path | None = None
        if write_dir is not None:
            path = writer.write_family(write_dir, request.spec, text)
            claims = load_file(path)
        else:
            claims = list(parse_document(tomllib.loads(text)))
        groups: dict[str, list[Claim]] = {}
        for claim in claims:
            groups.setdefault(claim.group, []).append(claim)
        verdicts: dict[str, dict[str, Any] | None] = {}
        for cid in ids:
            if verify:
                verdicts[cid] = combine_verdicts(cid, [verifier(c, timeout) for c in groups[cid]])
            else:
                verdicts[cid] = None
        refuted = {cid for cid, v in verdicts.items() if v is not None and v["status"] == "refuted"}
        tables, _ = _tables(result, refuted, bounds)
        order = sorted(
            range(len(ids)), key=lambda i: proof_rank(verdicts[ids[i]], result.guesses[i])
        )
        ranked = [(tables[i], result.guesses[i], ids[i]) for i in order]
        mark_conjectures(ranked, verdicts)
        if path is not None:
            path.write_text(writer.document(command, [t for t, _, _ in ranked]), encoding="utf-8")
        for rank, (table, g, cid) in enumerate(ranked, start=1):
            mined.append(
                Mined(
                    family=request.spec,
                    rank=rank,
                    guess=g,
                    claim_id=cid,
                    file=path.as_posix() if path is not None else None,
                    verdict=verdicts[cid],
                    role="alternative" if "alternative" in table["tags"] else "conjecture",
                )
            )
    return RunResult(families=tuple(families), conjectures=tuple(mined))
