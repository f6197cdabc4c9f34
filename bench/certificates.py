"""Certificate benchmark: the time to check every certificate against the time to find the proofs.

Reads what ``make verify`` wrote: every certificate under ``reports/certificates/``
(one per proof of the corpus) and the per-claim times in
``reports/results.json``. Each certificate is checked again here by the
independent checker, one at a time in this process (the time to check it);
the time to find the proof is read from the results: the proving method's own
time (the method the certificate names) and the whole claim's time in
``verify`` (every method tried, and the second, bounded method beside the
proof). Both were measured by ``verify``, the check here: compare them as
ratios, under the load of their own runs.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nimproof_check import check_path

FOLDER = Path("reports/certificates")
RESULTS = Path("reports/results.json")
#: Seconds per MONA run or SMT query, as ``verify`` gives the checker.
TIMEOUT = 60.0


@dataclass
class Totals:
    """Seconds to find and to check, by certificate kind; counts by checker status."""

    method: dict[str, float] = field(default_factory=dict)
    claim: dict[str, float] = field(default_factory=dict)
    check: dict[str, float] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)
    slowest: list[tuple[float, str]] = field(default_factory=list)
    not_accepted: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def _kind(data: dict[str, Any]) -> str:
    proof = data.get("proof") or {}
    kind = str(proof.get("kind"))
    if kind == "composition":
        kind += f" ({proof.get('rule')})"
    if kind == "ws1s" and proof.get("numeration", "binary") != "binary":
        kind += f" ({proof['numeration']})"
    return kind


def _times(results: Path) -> dict[str, tuple[float, float, bool]]:
    """claim id -> (the proving method's seconds, the claim's seconds, proved)."""
    out = {}
    for r in json.loads(results.read_text(encoding="utf-8"))["results"]:
        v = r["verdict"]
        proving = [
            m
            for m in v["methods"]
            if m["status"] == "proved" and m["scope"] == v["scope"] and m["method"] != "certificate"
        ]
        first = float(proving[0]["seconds"]) if proving else 0.0
        whole = v["status"] == "proved" and v["scope"]["kind"] in ("all", "listed")
        out[r["claim"]["id"]] = (first, float(v["seconds"]), whole)
    return out


def run_certificate_benchmark(folder: Path = FOLDER, results: Path = RESULTS) -> Totals:
    """Check every certificate under ``folder``; times to find the proofs from ``results``."""
    if not folder.is_dir() or not results.is_file():
        raise FileNotFoundError(
            f"{folder} or {results} is missing: run `make verify` first (it writes both)"
        )
    times = _times(results)
    totals = Totals()
    seen = set()
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        claim_id = str(data.get("claim", {}).get("id", path.stem))
        if claim_id not in times:
            continue  # a certificate of a claim no longer in the results
        seen.add(claim_id)
        kind = _kind(data)
        t0 = time.perf_counter()
        report = check_path(path, TIMEOUT)
        check = time.perf_counter() - t0
        method, whole, _ = times[claim_id]
        totals.method[kind] = totals.method.get(kind, 0.0) + method
        totals.claim[kind] = totals.claim.get(kind, 0.0) + whole
        totals.check[kind] = totals.check.get(kind, 0.0) + check
        totals.count[kind] = totals.count.get(kind, 0) + 1
        totals.statuses[report.status] = totals.statuses.get(report.status, 0) + 1
        totals.slowest.append((check, claim_id))
        if not report.accepted:
            totals.not_accepted.append(f"{claim_id}: {report.status}: {report.reason}")
    totals.missing = sorted(c for c, (_, _, proved) in times.items() if proved and c not in seen)
    totals.slowest = sorted(totals.slowest, reverse=True)[:5]
    return totals
