"""Certificate benchmark: the time to check every certificate against the time to find the proofs.

Every claim of the given conjecture folders is decided (:func:`verify_claim`,
the time to find the proof), its certificate built and written to a temporary
folder, and checked by the independent checker (the time to check it). Claims
that are not proved for all positions are skipped.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from nimproof.certificates.build import build, write
from nimproof.claims import load_paths
from nimproof.provers import auto_witness, prepare, verify_claim
from nimproof_check import check_path

FOLDERS = ("conjectures/seeds", "conjectures/theory", "conjectures/mined")


@dataclass
class Totals:
    """Seconds to prove and to check, by certificate kind; counts by checker status."""

    prove: dict[str, float] = field(default_factory=dict)
    check: dict[str, float] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)


def run_certificate_benchmark(folders: tuple[str, ...] = FOLDERS) -> Totals:
    """Prove, certify and check every claim of ``folders`` (one process, one claim at a time)."""
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="nimproof-bench-cert-") as tmp:
        for claim in load_paths(list(folders)):
            t0 = time.perf_counter()
            verdict = verify_claim(claim, timeout=120)
            prove = time.perf_counter() - t0
            if verdict.status != "proved" or verdict.scope.kind != "all":
                continue
            built = build(claim, auto_witness(prepare(claim)), verdict)
            kind = "none" if isinstance(built, str) else str(built[0]["proof"]["kind"])
            status = "cannot check"
            t1 = time.perf_counter()
            if not isinstance(built, str):
                status = check_path(write(Path(tmp), *built)).status
            check = time.perf_counter() - t1
            totals.prove[kind] = totals.prove.get(kind, 0.0) + prove
            totals.check[kind] = totals.check.get(kind, 0.0) + check
            totals.count[kind] = totals.count.get(kind, 0) + 1
            totals.statuses[status] = totals.statuses.get(status, 0) + 1
    return totals
