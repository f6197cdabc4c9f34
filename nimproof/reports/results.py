"""The results file that reports are made from, and small views of its entries.

``nimproof verify --json FILE`` writes ``{"results": [{"claim": ..., "verdict":
...}, ...]}`` where each ``claim`` is :meth:`Claim.to_json` and each
``verdict`` is :meth:`Verdict.to_json`. :func:`load_results` reads and checks
that shape; :class:`Entry` gives the report code typed access to one result.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nimproof.errors import UsageError
from nimproof.verdict import STATUSES, Scope

#: Statuses that come with a scope: ``proved`` (the claim's whole domain) and
#: ``checked`` (a narrower region, no counterexample in it: not a proof).
SCOPED = ("proved", "checked")
MAX_RESULTS_BYTES = 200_000_000


def load_results(path: str | Path) -> list[dict[str, Any]]:
    """The entries of a results file; a missing or malformed file is a :class:`UsageError`."""
    return read_results(path)[1]


#: The keys of a results file that describe the run (shown on every report page).
META_KEYS = ("nimproof", "profile", "command")


def read_results(path: str | Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The run's metadata (:data:`META_KEYS` present in the file) and its checked entries."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError:
        raise UsageError(
            f"results file {str(p)!r} does not exist (run 'nimproof verify --json {p}' first)"
        ) from None
    if size > MAX_RESULTS_BYTES:
        raise UsageError(f"results file {str(p)!r} is larger than {MAX_RESULTS_BYTES} bytes")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"results file {str(p)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"results file {str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UsageError(f"results file {str(p)!r} must be an object with a list 'results'")
    results: list[dict[str, Any]] = data["results"]
    check_results(results, str(p))
    meta = {k: str(data[k]) for k in META_KEYS if isinstance(data.get(k), str | int | float)}
    return meta, results


def check_results(results: list[Any], where: str = "results") -> None:
    """Raise :class:`UsageError` unless each entry has a claim id and a verdict status."""
    seen: set[str] = set()
    for i, entry in enumerate(results):
        what = f"{where}: entry {i + 1}"
        if not isinstance(entry, dict):
            raise UsageError(f"{what} is not an object")
        claim, verdict = entry.get("claim"), entry.get("verdict")
        if not isinstance(claim, dict) or not isinstance(claim.get("id"), str) or not claim["id"]:
            raise UsageError(f"{what} has no claim with an id")
        if not isinstance(verdict, dict) or verdict.get("status") not in STATUSES:
            raise UsageError(
                f"{what} ({claim['id']}) has no verdict status (one of {', '.join(STATUSES)})"
            )
        if claim["id"] in seen:
            raise UsageError(f"{what}: claim id {claim['id']!r} appears twice")
        seen.add(claim["id"])


@dataclass(frozen=True)
class Entry:
    """One result: the claim's and the verdict's JSON, with the derived facts reports need."""

    claim: dict[str, Any]
    verdict: dict[str, Any]
    page: str  # file name of the claim's page, without directory

    @property
    def id(self) -> str:
        return str(self.claim["id"])

    @property
    def group(self) -> str:
        return str(self.claim.get("group") or self.id)

    @property
    def status(self) -> str:
        return str(self.verdict["status"])

    @property
    def expect(self) -> str:
        return str(self.claim.get("expect") or self.verdict.get("expect") or "proved")

    @property
    def met(self) -> bool:
        """The verdict's own ``meets_expectation`` (a ``checked`` meets a bounded ``require``)."""
        met = self.verdict.get("meets_expectation")
        return bool(met) if isinstance(met, bool) else self.status == self.expect

    @property
    def tags(self) -> list[str]:
        return [str(t) for t in self.claim.get("tags") or []]

    @property
    def source(self) -> dict[str, str]:
        src = self.claim.get("source") or {}
        return {k: str(src.get(k) or "") for k in ("seed", "section", "wording", "note")}

    @property
    def is_typo(self) -> bool:
        return "typo" in self.tags

    @property
    def corrects(self) -> str | None:
        """The group id of the typo claim this claim corrects, if any."""
        for t in self.tags:
            if t.startswith("corrects:"):
                return t.partition(":")[2]
        return None

    def scope_text(self) -> str:
        return scope_text(self.verdict.get("scope"))

    def shown_scope(self) -> str:
        """The scope for a table cell: its words for ``proved`` and ``checked``, else ``-``."""
        return self.scope_text() if self.status in SCOPED else "-"

    def methods_used(self) -> list[str]:
        return [str(m) for m in self.verdict.get("methods_used") or []]


def scope_text(raw: Any) -> str:
    """The English phrase of a JSON scope (``Scope.describe``); ``listed`` names the list."""
    if not isinstance(raw, dict) or raw.get("kind") not in ("all", "width", "bound", "none"):
        return "nothing"
    scope = Scope(
        kind=raw["kind"],
        width=raw.get("width"),
        bound=raw.get("bound"),
        measure=str(raw.get("measure") or "heap"),
        heaps=raw.get("heaps"),
    )
    if scope.kind == "all" and scope.measure == "listed":
        return "the listed positions"
    return scope.describe()


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def page_names(ids: list[str]) -> dict[str, str]:
    """A distinct, file-name-safe page name (``<name>.md``) per claim id, the same every run."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for cid in sorted(ids):
        base = _UNSAFE.sub("_", cid).strip("_.") or "claim"
        name, k = base, 2
        while name.lower() in used:
            name, k = f"{base}-{k}", k + 1
        used.add(name.lower())
        names[cid] = name + ".md"
    return names


def sibling_name(page: str, suffix: str) -> str:
    """The name of a claim page's companion file: ``x.md`` with ``suffix`` (``.html``, ``.png``)."""
    return page.removesuffix(".md") + suffix


def entries(results: list[dict[str, Any]]) -> list[Entry]:
    """The entries of a checked results list, in their order, each with its page name."""
    names = page_names([r["claim"]["id"] for r in results])
    return [Entry(r["claim"], r["verdict"], names[r["claim"]["id"]]) for r in results]
