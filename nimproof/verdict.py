"""The one verdict type, used by every proof method, the command line and the reports.

A verdict never claims more than was checked. Its four statuses:

* ``proved``: the scope covers the claim's whole :class:`Domain` (every
  position, or the finite set of positions the claim itself lists);
* ``checked``: no counterexample in a narrower region, named by the
  :class:`Scope` (heaps below ``2**width``, positions up to a ``bound``); the
  claim is *not* proved;
* ``refuted``: a :class:`Counterexample` that was re-checked by the reference
  implementation (``rechecked``) before it is reported;
* ``unknown``: an answer (a timeout, a method that does not apply, a candidate
  counterexample that could not be confirmed), never a crash.

Proof methods report what they establish as ``MethodResult(status="proved",
scope=...)``, whatever the scope; :meth:`Verdict.combine` is the one place that
compares each scope with the claim's domain and turns a narrower ``proved``
into ``checked`` (:meth:`Domain.judge`), for the verdict and for every method
row it keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

Status = Literal["proved", "checked", "refuted", "unknown"]
#: Every status, strongest answer first (the order of summary counts).
STATUSES: tuple[Status, ...] = ("proved", "checked", "refuted", "unknown")
ScopeKind = Literal["all", "width", "bound", "none"]
DomainKind = Literal["all", "listed", "bound"]


@dataclass(frozen=True, slots=True)
class Scope:
    """Which positions a ``proved`` covers.

    ``measure`` says what ``width``/``bound`` limits: ``"heap"`` (every heap,
    or the single heap ``n``), ``"total"`` (the total number of tokens, for
    games like staircase Nim whose moves raise some heaps), ``"value"`` (every
    variable of an identity), or ``"size"`` (a plugin game's own size).
    """

    kind: ScopeKind
    width: int | None = None
    bound: int | None = None
    measure: str = "heap"
    heaps: int | None = None

    def rank(self) -> tuple[int, int]:
        """Orders scopes by strength: all > width > bound > none (ties by size)."""
        if self.kind == "all":
            return (3, 0)
        if self.kind == "width":
            return (2, self.width or 0)
        if self.kind == "bound":
            return (1, self.bound or 0)
        return (0, 0)

    def describe(self) -> str:
        """A short English phrase for tables and reports."""
        heaps = f" ({self.heaps} heap{'s' if self.heaps != 1 else ''})" if self.heaps else ""
        if self.measure == "listed":
            return "the listed positions"
        if self.kind == "all":
            return f"all positions{heaps}"
        noun = {
            "heap": "each heap",
            "total": "total tokens",
            "value": "each variable",
            "size": "size",
        }.get(self.measure, self.measure)
        if self.kind == "width":
            return f"{noun} < 2^{self.width}{heaps}"
        if self.kind == "bound":
            return f"{noun} <= {self.bound}{heaps}"
        return "nothing"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "measure": self.measure}
        if self.width is not None:
            out["width"] = self.width
        if self.bound is not None:
            out["bound"] = self.bound
        if self.heaps is not None:
            out["heaps"] = self.heaps
        return out


NO_SCOPE = Scope("none")


@dataclass(frozen=True, slots=True)
class Domain:
    """The positions a claim speaks about: what a scope must cover for ``proved``.

    * ``all``: every position (every heap size, every value of an identity's
      variables); only a scope of kind ``all`` covers it;
    * ``listed``: exactly the ``size`` positions the claim lists (a ``value``
      claim); a scope of kind ``all`` (the reference method's "the listed
      positions") covers it;
    * ``bound``: the heaps ``0..bound`` (a ``sequence`` claim ends at its last
      listed term); a scope of kind ``all``, or a ``heap`` scope reaching
      ``bound``, covers it.

    A claim's domain is computed in one place, :meth:`nimproof.claims.Claim.domain`.
    """

    kind: DomainKind
    bound: int | None = None
    size: int | None = None

    def covered_by(self, scope: Scope) -> bool:
        """True when a proof of ``scope`` proves the claim on its whole domain."""
        if scope.kind == "all":
            return True
        if self.kind != "bound" or scope.measure != "heap" or scope.heaps not in (None, 1):
            return False
        return Requirement("bound", self.bound or 0).met_by(scope)

    def judge(self, result: MethodResult) -> MethodResult:
        """``result`` as the verdict reports it: a ``proved`` narrower than this domain is
        ``checked`` (no counterexample within its scope; not proved)."""
        if result.status == "proved" and not self.covered_by(result.scope):
            return replace(result, status="checked")
        return result

    def describe(self) -> str:
        """A short English phrase: "all positions", "the 5 listed positions", "heaps <= 40"."""
        if self.kind == "all":
            return "all positions"
        if self.kind == "listed":
            return f"the {self.size} listed position{'s' if self.size != 1 else ''}"
        return f"heaps <= {self.bound}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.bound is not None:
            out["bound"] = self.bound
        if self.size is not None:
            out["size"] = self.size
        return out


#: The domain of a claim about every position (the default when none is given).
ALL_POSITIONS = Domain("all")


@dataclass(frozen=True, slots=True)
class Requirement:
    """The scope a claim pins (``require = "all"``, ``{ width = 64 }``, ``{ bound = 1000 }``).

    A proof whose scope is narrower than the requirement (a timeout that left
    only a bounded proof, a missing tool) does not meet the claim's expectation.
    """

    kind: Literal["all", "width", "bound"]
    value: int | None = None

    @classmethod
    def parse(cls, raw: object) -> Requirement:
        """Read ``"all"``, ``{width = W}``, ``{bound = B}`` (or the CLI forms ``width=W``, ``bound=B``).

        Raises ValueError with a one-line message for anything else.
        """
        if isinstance(raw, str):
            text = raw.strip()
            if text == "all":
                return cls("all")
            key, sep, val = text.partition("=")
            if sep and val.strip().isdigit():
                raw = {key.strip(): int(val)}
        if isinstance(raw, dict) and len(raw) == 1:
            ((key, val),) = raw.items()
            whole = isinstance(val, int) and not isinstance(val, bool)
            if key in ("width", "bound") and whole and val >= (1 if key == "width" else 0):
                return cls(key, val)
        raise ValueError(f'require must be "all", {{ width = W }} or {{ bound = B }}, not {raw!r}')

    def met_by(self, scope: Scope) -> bool:
        """True when ``scope`` covers at least what is required."""
        if scope.kind == "all":
            return True
        if self.kind == "all" or scope.kind not in ("width", "bound"):
            return False
        need = self.value or 0
        if self.kind == "width":
            return scope.kind == "width" and (scope.width or 0) >= need
        if scope.kind == "width":
            return (1 << (scope.width or 0)) - 1 >= need
        return (scope.bound or 0) >= need

    def describe(self) -> str:
        """A short English phrase: "all positions", "width 64", "bound 1000"."""
        if self.kind == "all":
            return "all positions"
        return f"{self.kind} {self.value}"

    def to_json(self) -> Any:
        return "all" if self.kind == "all" else {self.kind: self.value}


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A point where a claim fails, with what it breaks and how that was re-checked.

    ``condition`` is one of: ``"value"`` (the claimed value differs from the
    true one), ``"condition-1"`` (a move between two positions of equal
    claimed value, or from a P-position to a P-position), ``"condition-2"``
    (a value below the claimed one, or a P-position, that no move reaches),
    ``"terminal"`` (misère: a terminal position claimed to be P),
    ``"identity"`` (an identity is false at these values), ``"sum"`` (the
    value of a sum differs from the xor of its parts), ``"period"`` (a table
    value breaks the claimed period), ``"undefined"`` (the formula is
    undefined there), ``"quotient"`` (a stated figure of a misère quotient is
    wrong: ``claimed`` and ``actual`` are the two figures, ``position`` is None).
    """

    position: Any
    condition: str
    explanation: str
    claimed: Any = None
    actual: Any = None
    move: Any = None
    rechecked: bool = False
    recheck: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "position": jsonable(self.position),
            "condition": self.condition,
            "claimed": jsonable(self.claimed),
            "actual": jsonable(self.actual),
            "move": jsonable(self.move),
            "explanation": self.explanation,
            "rechecked": self.rechecked,
            "recheck": self.recheck,
        }


@dataclass(frozen=True, slots=True)
class MethodResult:
    """What one proof method established for one claim."""

    method: str
    status: Status
    scope: Scope = NO_SCOPE
    detail: str = ""
    seconds: float = 0.0
    counterexample: Counterexample | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    #: What a reader needs to re-check a ``proved`` without trusting the method (the
    #: obligations, the theorem and its window, ...): a JSON-ready dict whose ``"kind"``
    #: names the certificate part (docs/certificates.md). Not part of :meth:`to_json`;
    #: :mod:`nimproof.certificates` writes it as a certificate file.
    certificate: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "status": self.status,
            "scope": self.scope.to_json(),
            "detail": self.detail,
            "seconds": round(self.seconds, 4),
            "counterexample": self.counterexample.to_json() if self.counterexample else None,
            "stats": {k: jsonable(v) for k, v in self.stats.items()},
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The combined result of every method run on one claim.

    ``domain`` is the claim's whole domain (:meth:`nimproof.claims.Claim.domain`);
    ``require`` the scope its file or the command line pins, if any. Without a
    ``require`` the required scope is the whole domain: only ``proved`` meets it.
    """

    claim_id: str
    status: Status
    scope: Scope
    methods: tuple[MethodResult, ...]
    counterexample: Counterexample | None = None
    expect: str = "proved"
    seconds: float = 0.0
    require: Requirement | None = None
    domain: Domain = ALL_POSITIONS

    @property
    def scope_met(self) -> bool:
        """True when the verdict reaches the required scope: the pinned ``require`` (a
        ``checked`` scope may meet a bounded one), else the claim's whole domain
        (``proved`` only). Always true for a claim expected to be refuted."""
        if self.expect != "proved":
            return True
        if self.require is None:
            return self.status == "proved"
        return self.status in ("proved", "checked") and self.require.met_by(self.scope)

    @property
    def meets_expectation(self) -> bool:
        """True when the claim reached what its file expects: ``refuted``, or for
        ``proved`` a verdict that reaches the required scope (:attr:`scope_met`)."""
        if self.expect == "proved":
            return self.status in ("proved", "checked") and self.scope_met
        return self.status == self.expect

    def required(self) -> str:
        """The required scope in words: the pinned ``require``, else the claim's domain."""
        return self.require.describe() if self.require else self.domain.describe()

    def reached(self) -> str:
        """What the verdict reached, in words: "proved for all positions", "checked for
        each heap <= 7 (not a proof)", "refuted", "unknown"."""
        if self.status == "proved":
            return f"proved for {self.scope.describe()}"
        if self.status == "checked":
            return f"checked for {self.scope.describe()} (not a proof)"
        return self.status

    def shortfall(self) -> str:
        """Why the required scope was not reached: what was reached and what the methods said."""
        if self.scope_met:
            return ""
        why = [
            f"{m.method}: {m.detail or m.status}"
            for m in self.methods
            if m.status not in ("proved", "checked") or m.scope.rank() > self.scope.rank()
        ]
        text = f"requires {self.required()}, reached {self.reached()}"
        return text + (" (" + "; ".join(why) + ")" if why else "")

    @classmethod
    def combine(
        cls,
        claim_id: str,
        results: list[MethodResult],
        expect: str = "proved",
        seconds: float = 0.0,
        require: Requirement | None = None,
        *,
        domain: Domain = ALL_POSITIONS,
    ) -> Verdict:
        """Combine method results soundly, against the claim's ``domain``.

        Each ``proved`` result whose scope does not cover ``domain`` becomes
        ``checked`` first (:meth:`Domain.judge`; the verdict keeps the judged
        rows). A re-checked counterexample from any method refutes. Otherwise a
        candidate counterexample that could not be confirmed (``rechecked``
        false) makes the verdict ``unknown``, with the candidate shown: evidence
        against the claim is never outweighed by a proof of a smaller scope.
        Otherwise a ``proved`` row makes the verdict ``proved``; otherwise the
        widest ``checked`` scope makes it ``checked``; otherwise ``unknown``.
        """
        judged = tuple(domain.judge(r) for r in results)

        def verdict(status: Status, scope: Scope, cx: Counterexample | None = None) -> Verdict:
            return cls(claim_id, status, scope, judged, cx, expect, seconds, require, domain)

        refuting = [
            r
            for r in judged
            if r.status == "refuted" and r.counterexample and r.counterexample.rechecked
        ]
        if refuting:
            return verdict("refuted", NO_SCOPE, refuting[0].counterexample)
        unconfirmed = [r for r in judged if r.counterexample and not r.counterexample.rechecked]
        if unconfirmed:
            return verdict("unknown", NO_SCOPE, unconfirmed[0].counterexample)
        for status in ("proved", "checked"):
            rows = [r for r in judged if r.status == status]
            if rows:
                return verdict(status, max(rows, key=lambda r: r.scope.rank()).scope)
        return verdict("unknown", NO_SCOPE)

    def methods_used(self) -> list[str]:
        """Names of the methods that contributed to the status."""
        if self.status in ("proved", "checked", "refuted"):
            return [m.method for m in self.methods if m.status == self.status]
        return [m.method for m in self.methods]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.claim_id,
            "status": self.status,
            "expect": self.expect,
            "meets_expectation": self.meets_expectation,
            "scope": self.scope.to_json(),
            "domain": self.domain.to_json(),
            "require": self.require.to_json() if self.require else None,
            "required": self.required(),
            "scope_met": self.scope_met,
            "shortfall": self.shortfall(),
            "methods": [m.to_json() for m in self.methods],
            "methods_used": self.methods_used(),
            "counterexample": self.counterexample.to_json() if self.counterexample else None,
            "seconds": round(self.seconds, 4),
        }


def jsonable(x: Any) -> Any:
    """``x`` as JSON data: tuples and lists as lists, keys as strings, numpy scalars as numbers,
    and anything else that JSON has no type for as its text."""
    if isinstance(x, tuple | list):
        return [jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if hasattr(x, "item"):  # numpy scalars
        return x.item()
    if x is None or isinstance(x, int | float | str | bool):
        return x
    return str(x)
