"""Deciding a set of claims: the one pipeline behind ``nimproof verify`` and :func:`nimproof.verify`.

Each claim is decided in a worker process of its own with its time limit
(:func:`nimproof.provers.isolate.decide`); then, unless certification is turned
off, a proof is held to an independent second method and to its certificate
(:class:`Certify`): a proof whose certificate the independent checker rejects,
or (strict, the default) cannot check, is not ``proved``. The command line only
parses arguments and prints what this module returns.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimproof.errors import UsageError
from nimproof.verdict import STATUSES

if TYPE_CHECKING:
    from nimproof.claims import Claim
    from nimproof.verdict import Verdict

#: The check profiles a conjecture file can address (``[claim.checks_full]``).
PROFILES = ("default", "full")

#: ``progress(claim, done)``: told when a claim starts (``done`` False) and ends (True).
Progress = Callable[["Claim", bool], None]


@dataclasses.dataclass(frozen=True)
class Certify:
    """What happens after a claim is decided: a second, independent method on automata and
    periodicity proofs, then the certificate written to ``folder`` (when set) and checked by
    the independent checker (:mod:`nimproof.certificates.build`). ``strict``: a proof the
    checker cannot check is ``unknown`` (a rejected certificate always makes it so)."""

    profile: str
    folder: Path | None
    strict: bool = True

    def hold(self, claim: Claim, verdict: Verdict) -> Verdict:
        """``verdict`` with the second method's result and held to its certificate."""
        # lazy: start-up time (numba, z3, numpy)
        from nimproof.certificates.build import certify, second_opinion
        from nimproof.provers import auto_witness, prepare

        ctx = auto_witness(prepare(claim))
        verdict = second_opinion(ctx, verdict, self.profile)
        return certify(claim, ctx, verdict, self.folder, strict=self.strict)


def verdict_of(claim: Claim, timeout: float, certify: Certify | None = None) -> Verdict:
    """The verdict on ``claim`` within ``timeout`` seconds, held to ``certify`` when given."""
    from nimproof.provers.isolate import decide  # lazy: start-up time (numba, z3, numpy)

    verdict = decide(claim, timeout)
    return certify.hold(claim, verdict) if certify is not None else verdict


def result_entry(claim: Claim, timeout: float, certify: Certify | None = None) -> dict[str, Any]:
    """One claim's entry of a results file: the claim and its verdict, as JSON."""
    return {"claim": claim.to_json(), "verdict": verdict_of(claim, timeout, certify).to_json()}


def decide_all(
    claims: list[Claim],
    *,
    jobs: int = 1,
    timeout: float = 600,
    certify: Certify | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Every claim's result entry (:func:`result_entry`), in the order of ``claims``;
    ``jobs`` claims are decided at once, each in its own process."""
    tell = progress or (lambda _claim, _done: None)
    results: dict[str, dict[str, Any]] = {}
    if jobs == 1 or len(claims) == 1:
        for claim in claims:
            tell(claim, False)
            results[claim.id] = result_entry(claim, timeout, certify)
            tell(claim, True)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(result_entry, c, timeout, certify): c for c in claims}
            for fut in as_completed(futures):
                results[futures[fut].id] = fut.result()
                tell(futures[fut], True)
    return [results[c.id] for c in claims]


def select(claims: list[Claim], text: str | None) -> list[Claim]:
    """The claims whose id contains ``text`` (all when None); none is an error with a hint."""
    if not text:
        return claims
    chosen = [c for c in claims if text in c.id]
    if not chosen:
        ids = [c.id for c in claims]
        near = difflib.get_close_matches(text, ids, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
        raise UsageError(f"no claim id contains {text!r}{hint}")
    return chosen


def summary(results: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    """The counts of a run: claims, each status, expectations met, scopes, seconds."""
    statuses = [r["verdict"]["status"] for r in results]
    return {
        "claims": len(results),
        **{status: statuses.count(status) for status in STATUSES},
        "met": sum(1 for r in results if r["verdict"]["meets_expectation"]),
        "by_scope": by_scope(results),
        "seconds": round(wall, 2),
    }


def by_scope(results: list[dict[str, Any]]) -> dict[str, int]:
    """How many proved or checked claims reached each kind of scope (listed positions apart):
    ``all`` and ``listed`` are proofs, ``width`` and ``bound`` checks (or proofs of a claim
    whose own domain is bounded)."""
    out = {"all": 0, "width": 0, "bound": 0, "listed": 0}
    for r in results:
        v = r["verdict"]
        if v["status"] not in ("proved", "checked"):
            continue
        sc = v.get("scope") or {}
        key = "listed" if sc.get("measure") == "listed" else str(sc.get("kind"))
        if key in out:
            out[key] += 1
    return out
